"""Games the table agrees on: in a league with confirmation, a member's game is held
(:class:`~ratings.entry.models.HeldGame`) until the other players confirm it, and only then
recorded through :func:`ratings.entry.record`, at its own time (later games re-rated as for any
back-dated game). Staff entries and staff confirmations count at once; a game nobody disputed
counts after the league's window (the worker's :func:`auto_confirm_due`).

Every change of a held game takes its league's lock before the held game's row, the order every
writer of the league follows (a merge too), and the key the game is recorded under is the held
game's own: of two confirmations at once one records and the other finds the game, never a
second one.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_tasks import task

from ratings import engine
from ratings.entry.check import Checked, check
from ratings.entry.models import HeldGame, HeldSeat, HeldStatus
from ratings.entry.record import Refused, record, recorded_game
from ratings.entry.submission import SeatIn, Submission
from ratings.models import AuditAction, Game, League
from ratings.models.leagues import Confirmation
from ratings.versioning import lock_rows


class NotAllowed(Exception):
    """This member may not do that to this game (not at the table, or its own entry)."""


class NotWaiting(Exception):
    """The game is not waiting for that any more (confirmed, disputed, deleted meanwhile)."""

    def __init__(self, held: HeldGame, message: str):
        super().__init__(message)
        self.held = held
        self.message = message


# What an interface keeps beside a game once it is recorded (a digital paper's link, a posted
# deal log), by name: a held game keeps the name and JSON arguments, since it may be recorded
# by another member's request or by the worker, long after the interface's own request.
Then = Callable[[Game, dict, object], None]
_THEN: dict[str, Then] = {}


def then_add(name: str, then: Then) -> None:
    """Register what ``name`` does after a game is recorded (from a feature app's ``ready``)."""
    _THEN[name] = then


def held_message(held: HeldGame) -> str:
    """What the member who entered a held game is told, on every interface."""
    hours = held.league.confirmation_hours
    return ngettext(
        "Saved: the game counts once the table confirms it (or by itself after %(hours)d hour "
        "if nobody disputes it).",
        "Saved: the game counts once the table confirms it (or by itself after %(hours)d hours "
        "if nobody disputes it).",
        hours,
    ) % {"hours": hours}


def needs_confirmation(league: League, user) -> bool:
    """Whether a game ``user`` enters in ``league`` waits for the table."""
    if league.confirmation == Confirmation.NONE:
        return False
    return not (user is not None and user.is_staff)


def submit(
    checked: Checked,
    *,
    entered_by,
    then: str = "",
    then_args: dict | None = None,
) -> tuple[Game | HeldGame, bool]:
    """Record a checked game, or hold it for the table's confirmation in a league that asks
    for it: the game or held game, and whether this call made it (False: the key's was there).
    ``then`` names what to keep beside the game once it is recorded (:func:`then_add`). Raises
    :class:`Refused` and :class:`ratings.engine.SubmissionReused` as :func:`record` does."""
    then_args = then_args or {}
    after = _after(then, then_args, entered_by)
    submission = checked.submission
    if not needs_confirmation(submission.league, entered_by):
        return record(checked, entered_by=entered_by, then=after)
    if not checked.ok:
        raise Refused(checked.refusals)
    game = recorded_game(checked)
    if game is not None:
        return game, False
    key = submission.key or uuid.uuid4()
    with transaction.atomic():
        engine.league_lock(submission.league)
        held = HeldGame.objects.filter(key=key).first()
        if held is not None:
            return held, False
        held = _hold(checked, key, entered_by=entered_by, then=then, then_args=then_args)
    return held, True


def _hold(checked: Checked, key: uuid.UUID, *, entered_by, then: str, then_args: dict):
    submission = checked.submission
    league = submission.league
    now = timezone.now()
    held = HeldGame.objects.create(
        league=league,
        key=key,
        played_at=submission.played_at,
        bula=submission.bula,
        ended_early=submission.ended_early,
        note=submission.note,
        table=submission.table,
        new_names=sorted(submission.new_names),
        after=then,
        after_args=then_args,
        entered_by=engine.audit_user(entered_by),
        confirm_by=now + timedelta(hours=league.confirmation_hours),
    )
    own = _player_id(entered_by)
    HeldSeat.objects.bulk_create(
        HeldSeat(
            held=held,
            seat=n,
            player=player,
            name=player.name if player is not None else seat.player,
            left=seat.left,
            middle=seat.middle,
            right=seat.right,
            score=seat.score,
            # The member who entered it agrees to it, if they sat at the table.
            agreed_at=now if _is(player, own) else None,
            agreed_by=engine.audit_user(entered_by) if _is(player, own) else None,
        )
        for n, (seat, player) in enumerate(zip(submission.seats, _seated(checked), strict=True))
    )
    engine.audit(AuditAction.GAME_HOLD, league, entered_by, after={"key": str(key)})
    # In this transaction: no task for a held game that was rolled back.
    auto_confirm_due.using(run_after=held.confirm_by).enqueue(str(held.key))
    return held


def _is(player, player_id: int | None) -> bool:
    return player is not None and player_id is not None and player.pk == player_id


def _seated(checked: Checked) -> list:
    """Each seat's player: a seat that already is a player (a paper's) or the name's player."""
    seats = checked.submission.seats
    players = {player.pk: player for player in checked.players if player is not None}
    missing = [seat.player_id for seat in seats if seat.player_id and seat.player_id not in players]
    if missing:
        from ratings.models import Player

        players.update(Player.objects.in_bulk(missing))
    return [
        players.get(seat.player_id) if seat.player_id is not None else player
        for seat, player in zip(seats, checked.players, strict=True)
    ]


def _player_id(user) -> int | None:
    player = getattr(user, "player", None) if user is not None else None
    return getattr(player, "pk", None)


def who_may_agree(held: HeldGame) -> list[HeldSeat]:
    """The seats whose players may confirm: seated members other than the one who entered."""
    own = _player_id(held.entered_by)
    return [
        seat
        for seat in held.seats.all()
        if seat.player is not None and seat.player.user_id is not None and seat.player.pk != own
    ]


def _counts(held: HeldGame) -> bool:
    """Whether the agreements so far make the game count."""
    seats = who_may_agree(held)
    agreed = [seat for seat in seats if seat.agreed_at is not None]
    if held.league.confirmation == Confirmation.EVERY_SEAT:
        return bool(seats) and len(agreed) == len(seats)
    return bool(agreed)


def may_confirm(held: HeldGame, user) -> bool:
    """Whether ``user`` may confirm ``held`` now (for the page's buttons)."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff:
        return held.waiting
    own = _player_id(user)
    return held.status == HeldStatus.PENDING and any(
        seat.player.pk == own and seat.agreed_at is None for seat in who_may_agree(held)
    )


def may_dispute(held: HeldGame, user) -> bool:
    if user is None or not user.is_authenticated or held.status != HeldStatus.PENDING:
        return False
    own = _player_id(user)
    return any(seat.player.pk == own for seat in who_may_agree(held))


def may_withdraw(held: HeldGame, user) -> bool:
    """The member who entered it may delete it while it waits; staff may always."""
    if user is None or not user.is_authenticated or not held.waiting:
        return False
    return user.is_staff or (held.status == HeldStatus.PENDING and held.entered_by_id == user.pk)


def _locked(held: HeldGame) -> HeldGame:
    """The held game as it is now, its league locked first (the one lock order), and the
    club-wide lock before it when recording it would create a new player."""
    club = HeldSeat.objects.filter(held=held, player=None).exists()
    engine.league_lock(held.league, club=club)
    held_games = HeldGame.objects.select_related("league", "entered_by__player", "table")
    locked = lock_rows(held_games, leagues=[held.league_id], club=club, of=("self",))
    return locked.get(pk=held.pk)


def confirm(held: HeldGame, *, user) -> HeldGame:
    """``user`` agrees to ``held``: a seated member's agreement, or a staff member's, which
    counts at once. Once the agreements make it count it is recorded. Raises
    :class:`NotAllowed`, :class:`NotWaiting`, and :class:`Refused` when the game no longer
    passes the league's rules (a player's birth date changed, a name taken meanwhile): then it
    stays waiting for the staff."""
    with transaction.atomic():
        held = _locked(held)
        if not held.waiting:
            raise NotWaiting(held, _not_waiting_message(held))
        if not (user.is_staff or may_confirm(held, user)):
            if held.status == HeldStatus.DISPUTED:
                raise NotWaiting(held, _("This game is disputed: the staff decide on it."))
            raise NotAllowed(_("Only another player at this table, or the staff, can confirm."))
        if not user.is_staff:
            own = _player_id(user)
            HeldSeat.objects.filter(held=held, player_id=own).update(
                agreed_at=timezone.now(), agreed_by=user
            )
            engine.audit(AuditAction.GAME_AGREE, held.league, user, after={"key": str(held.key)})
            if not _counts(held):
                return held
        _record(held, actor=user)
    return held


def confirm_tables(tables, *, user) -> list[HeldGame]:
    """An organiser confirms a round's tables at once: each table's waiting paper counts (the
    caller checked that ``user`` runs the event, as the event's pages do). The games recorded;
    a table whose paper the league's rules now refuse stays waiting (:class:`Refused` for the
    first such, after the others were recorded)."""
    done, refused = [], None
    for held in HeldGame.objects.waiting().filter(table__in=tables).order_by("played_at", "pk"):
        try:
            with transaction.atomic():
                held = _locked(held)
                if held.waiting:
                    _record(held, actor=user)
                    done.append(held)
        except Refused as error:
            refused = refused or error
    if refused is not None and not done:
        raise refused
    return done


def auto_confirm(held: HeldGame, *, now=None) -> bool:
    """Record ``held`` if it still waits undisputed and its window has passed (the worker)."""
    now = now or timezone.now()
    with transaction.atomic():
        held = _locked(held)
        if held.status != HeldStatus.PENDING or held.confirm_by > now:
            return False
        _record(held, actor=None)
    return True


@task()
def auto_confirm_due(key: str) -> bool:
    """The worker's task, queued when a game is held to run at the end of its window: count it
    if nobody disputed it meanwhile. Whether it recorded the game."""
    held = HeldGame.objects.filter(key=key).first()
    return held is not None and auto_confirm(held)


def dispute(held: HeldGame, *, user, note: str) -> HeldGame:
    """A seated member says the game is wrong: it waits, unrated, for the staff."""
    note = (note or "").strip()
    with transaction.atomic():
        held = _locked(held)
        if held.status != HeldStatus.PENDING:
            raise NotWaiting(held, _not_waiting_message(held))
        if not may_dispute(held, user):
            raise NotAllowed(_("Only another player at this table can dispute this game."))
        held.status = HeldStatus.DISPUTED
        held.disputed_by = user
        held.dispute_note = note
        held.save(update_fields=["status", "disputed_by", "dispute_note"])
        engine.audit(
            AuditAction.GAME_DISPUTE, held.league, user, after={"key": str(held.key), "note": note}
        )
    return held


def withdraw(held: HeldGame, *, user) -> HeldGame:
    """Delete a waiting game: its member while nobody disputed it, or the staff."""
    with transaction.atomic():
        held = _locked(held)
        if not held.waiting:
            raise NotWaiting(held, _not_waiting_message(held))
        if not may_withdraw(held, user):
            raise NotAllowed(_("Only the member who entered it, or the staff, can delete it."))
        _close(held, HeldStatus.WITHDRAWN, user)
        engine.audit(AuditAction.GAME_WITHDRAW, held.league, user, after={"key": str(held.key)})
    return held


def _record(held: HeldGame, *, actor) -> Game:
    """Record the held game through the entry service, checked again now (in the caller's
    transaction, its league locked)."""
    checked = check(held_submission(held))
    game, _created = record(
        checked,
        entered_by=held.entered_by,
        then=_after(held.after, held.after_args, held.entered_by),
    )
    held.game = game
    _close(held, HeldStatus.CONFIRMED, actor)
    engine.audit(
        AuditAction.GAME_CONFIRM, held.league, actor, game=game, after={"key": str(held.key)}
    )
    return game


def _close(held: HeldGame, status: str, actor) -> None:
    held.status = status
    held.closed_by = engine.audit_user(actor)
    held.closed_at = timezone.now()
    held.save(update_fields=["status", "closed_by", "closed_at", "game"])


def held_submission(held: HeldGame) -> Submission:
    """The held game as the entry service's submission again."""
    return Submission(
        league=held.league,
        played_at=held.played_at,
        seats=tuple(
            SeatIn(
                player=seat.name,
                player_id=seat.player_id,
                left=seat.left,
                middle=seat.middle,
                right=seat.right,
                score=seat.score,
            )
            for seat in held.seats.all()
        ),
        bula=held.bula,
        ended_early=held.ended_early,
        note=held.note,
        key=held.key,
        table=held.table,
        new_names=frozenset(held.new_names),
    )


def _after(name: str, args: dict, actor) -> Callable[[Game], None] | None:
    if not name:
        return None
    then = _THEN[name]
    return lambda game: then(game, args, actor)


def _not_waiting_message(held: HeldGame) -> str:
    if held.status == HeldStatus.CONFIRMED:
        return _("This game counts already: it was confirmed.")
    if held.status == HeldStatus.WITHDRAWN:
        return _("This game was deleted.")
    return _("This game is disputed: the staff decide on it.")
