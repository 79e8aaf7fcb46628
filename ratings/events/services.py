"""Every write of an event: create it, draw a round, record a table's paper, close a round or the
event. Each is keyword-only, runs in one transaction and leaves an entry in the audit trail.

Locks, always in this order so that no two writers wait on each other in a circle: the league
(the engine's lock, taken only by a table's paper), then the event, then its tables. Drawing and
closing lock the event; recording a table's paper locks the league and then the table, so six
tables submitting at once queue as any six games do (every writer takes its league's data-version
row first, :mod:`ratings.versioning`), and a second submission of the same table finds the first
one's game.

A table's game is recorded by :func:`ratings.engine.game_record`, the only writer of ratings,
and linked to its table in the same transaction: ratings do not know about events.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Sequence
from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ratings import dates, engine
from ratings.algorithms import seating
from ratings.events import selectors, signals
from ratings.events.models import (
    DrawMethod,
    Event,
    EventPlayer,
    EventRound,
    EventTable,
    Scoring,
    TableSeat,
)
from ratings.models import AuditAction, Game, League, Player
from ratings.versioning import lock_rows

# Points per place must be whole numbers, and not absurd ones.
MAX_PLACE_POINTS = 1000


def audit_event(
    action: str,
    event: Event,
    actor,
    *,
    game: Game | None = None,
    before: dict | None = None,
    after: dict,
) -> None:
    """The audit entry of a change to an event (here and in :mod:`ratings.events.planning`)."""
    engine.audit(
        action,
        event.league_id,
        actor,
        game=game,
        before=before,
        after={"event": event.name, "event_id": event.pk, **after},
    )


def _names(players) -> str:
    return ", ".join(player.name for player in players)


def check_event_rules(
    league: League,
    *,
    table_size: int,
    scoring: str,
    points_per_place: Sequence[int],
    rounds_total: int | None,
) -> None:
    """The rules an event's settings follow, whichever way it is created (forms, demo, tests)."""
    system = league.rating_system
    low, high = system.event_table_sizes
    if not low <= table_size <= high:
        if low == high:
            message = ngettext(
                "A table of this league seats exactly %(n)d player.",
                "A table of this league seats exactly %(n)d players.",
                low,
            ) % {"n": low}
        else:
            message = ngettext(
                "A table of this league seats %(low)d to %(high)d player.",
                "A table of this league seats %(low)d to %(high)d players.",
                high,
            ) % {"low": low, "high": high}
        raise ValidationError({"table_size": message})
    if scoring not in system.event_scorings:
        raise ValidationError({"scoring": _("This league's events cannot use that scoring.")})
    if scoring == Scoring.PLACES:
        if not points_per_place:
            raise ValidationError(
                {"points_per_place": _("Give the points of each place, first place first.")}
            )
        if any(
            isinstance(p, bool) or not isinstance(p, int) or not 0 <= p <= MAX_PLACE_POINTS
            for p in points_per_place
        ):
            raise ValidationError(
                {
                    "points_per_place": _("Points per place are whole numbers from 0 to %(max)d.")
                    % {"max": MAX_PLACE_POINTS}
                }
            )
    if rounds_total is not None and not 1 <= rounds_total <= 100:
        raise ValidationError({"rounds_total": _("An event has 1 to 100 rounds, or open-ended.")})


def table_short(size: int, present: int) -> str:
    """Why no table can be drawn: fewer players are present than a table seats."""
    return ngettext(
        "A table needs %(n)d player: %(got)d are present.",
        "A table needs %(n)d players: %(got)d are present.",
        size,
    ) % {"n": size, "got": present}


def check_event_bula(league: League, bula: int) -> None:
    """An event's agreed bula, as a refusal of the field ``bula``: the rating system's rule for
    a paper's bula, since any of the night's tables may keep a digital paper."""
    message = league.rating_system.bula_refusal(bula, paper=True)
    if message is not None:
        raise ValidationError({"bula": message})


def check_event_start(starts_at: datetime | None) -> None:
    """The one rule for when an event starts (:data:`ratings.dates.EVENT`), as a refusal of the
    field ``starts_at``: the service, the organiser's form and the admin all ask it."""
    message = dates.EVENT.refusal(starts_at)
    if message is not None:
        raise ValidationError({"starts_at": message})


def event_create(
    *,
    league: League,
    name: str,
    starts_at: datetime,
    organiser,
    players: Sequence[Player],
    new_names: Sequence[str] = (),
    rounds_total: int | None,
    table_size: int | None = None,
    draw_method: str = DrawMethod.EVERYONE_MEETS,
    scoring: str = Scoring.TOTAL,
    points_per_place: Sequence[int] = (),
    seed: int | None = None,
    bula: int | None = None,
) -> Event:
    """Create an event with its players present; ``new_names`` become new players of the club.

    ``table_size`` defaults to the league's smallest table (3 for Preferans, 2 head-to-head).
    ``bula``: the night's starting bula, which every table's paper form starts with (a league
    whose games have a paper; None: each table types its own).
    """
    if bula is not None:
        check_event_bula(league, bula)
    if table_size is None:
        table_size = league.rating_system.event_table_sizes[0]
    check_event_start(starts_at)
    check_event_rules(
        league,
        table_size=table_size,
        scoring=scoring,
        points_per_place=points_per_place,
        rounds_total=rounds_total,
    )
    if scoring != Scoring.PLACES:
        points_per_place = ()
    draw_method = DrawMethod(draw_method)
    with transaction.atomic():
        present = {player.pk: player for player in players}
        for new_name in new_names:
            player = _named(new_name)
            present[player.pk] = player
        if len(present) < table_size:
            raise ValidationError(table_short(table_size, len(present)))
        event = Event.objects.create(
            league=league,
            name=name,
            starts_at=starts_at,
            organiser=engine.audit_user(organiser),
            rounds_total=rounds_total,
            table_size=table_size,
            draw_method=draw_method,
            scoring=scoring,
            points_per_place=list(points_per_place),
            seed=random.randrange(2**31) if seed is None else seed,
            bula=bula,
        )
        EventPlayer.objects.bulk_create(
            EventPlayer(event=event, player=player) for player in present.values()
        )
        audit_event(
            AuditAction.EVENT_CREATE,
            event,
            organiser,
            after={
                "starts_at": event.starts_at.isoformat(),
                "players": _names(sorted(present.values(), key=lambda p: p.name)),
                "rounds": rounds_total,
                "table_size": table_size,
                "draw": str(DrawMethod(draw_method).label),
                "scoring": str(Scoring(scoring).label),
                "points_per_place": list(points_per_place) or None,
                "bula": bula,
            },
        )
    return event


def event_players_add(
    *, event: Event, players: Sequence[Player], new_names: Sequence[str] = (), actor=None
) -> list[Player]:
    """Late arrivals: add players present, who are drawn from the next round on; ``new_names``
    become new players of the club. Returns those added (not those already present)."""
    with transaction.atomic():
        event = _lock(event, club=bool(new_names))
        _refuse_closed(event)
        arriving = list(players) + [_named(name) for name in new_names]
        here = set(EventPlayer.objects.filter(event=event).values_list("player_id", flat=True))
        added = [player for player in dict.fromkeys(arriving) if player.pk not in here]
        EventPlayer.objects.bulk_create(EventPlayer(event=event, player=p) for p in added)
        if added:
            audit_event(AuditAction.EVENT_PLAYERS, event, actor, after={"added": _names(added)})
    return added


def event_player_withdraw(*, event: Event, player: Player, actor=None) -> None:
    """A player who leaves early: no longer present, so the next rounds are drawn (and their
    byes given) without them. The games they played stay, and so does their line in the
    standings (derived from the games: ``selectors.event_standings``)."""
    with transaction.atomic():
        event = _lock(event)
        _refuse_closed(event)
        gone, _by_kind = EventPlayer.objects.filter(event=event, player=player).delete()
        if not gone:
            raise ValidationError(_("%(name)s is not present.") % {"name": player.name})
        audit_event(AuditAction.EVENT_PLAYERS, event, actor, after={"withdrawn": player.name})


def _named(name: str) -> Player:
    """The player called ``name`` (in any case or spacing), created if the club has none."""
    return Player.objects.get_or_create_named(name)


def _lock(event: Event, *, club: bool = False) -> Event:
    """The event locked, after its league's writers' lock (and with ``club`` the club-wide one
    first, for a transaction that makes new players)."""
    return (
        lock_rows(Event.objects.all(), leagues=[event.league_id], club=club, of=("self",))
        .select_related("league")
        .get(pk=event.pk)
    )


def _refuse_closed(event: Event) -> None:
    """Refuse a change to an event that is not running: closed, cancelled, or planned and not
    started yet (its players are chosen when it starts: ratings/events/planning.py)."""
    if event.is_closed:
        raise ValidationError(_("This event is closed."))
    if event.is_cancelled:
        raise ValidationError(_("This night is cancelled."))
    if event.is_planned:
        raise ValidationError(_("This night has not started yet: start it first."))


def _mark_not_played(event: Event, event_round: EventRound) -> list[int]:
    """Mark the round's tables still waiting for their paper as not played; their numbers."""
    waiting = list(
        lock_rows(EventTable.objects.all(), leagues=[event.league_id])
        .filter(round=event_round, game__isnull=True, not_played=False)
        .order_by("number")
        .values_list("pk", "number")
    )
    EventTable.objects.filter(pk__in=[pk for pk, _number in waiting]).update(not_played=True)
    return [number for _pk, number in waiting]


def round_draw(*, event: Event, method: str | None = None, actor=None) -> EventRound:
    """Draw the event's next round from the players present and the rounds so far.

    Refused while the current round still has a table waiting for its paper (the organiser may
    close that round first), after the event's last round, and once the event is closed. The
    round before is closed as the new one is drawn.
    """
    method = DrawMethod(method or event.draw_method)
    with transaction.atomic():
        event = _lock(event)
        _refuse_closed(event)
        rounds = list(
            EventRound.objects.filter(event=event)
            .order_by("number")
            .prefetch_related("tables__seats", "byes")
        )
        if event.rounds_total is not None and len(rounds) >= event.rounds_total:
            raise ValidationError(
                ngettext(
                    "The event's %(n)d round has been drawn.",
                    "All %(n)d rounds of this event have been drawn.",
                    event.rounds_total,
                )
                % {"n": event.rounds_total}
            )
        if rounds:
            last = rounds[-1]
            waiting = [t for t in last.tables.all() if t.game_id is None and not t.not_played]
            if last.closed_at is None and waiting:
                raise ValidationError(
                    ngettext(
                        "Round %(round)d still waits for the paper of %(n)d table: enter it, "
                        "or close the round to mark the table not played.",
                        "Round %(round)d still waits for the papers of %(n)d tables: enter "
                        "them, or close the round to mark them not played.",
                        len(waiting),
                    )
                    % {"round": last.number, "n": len(waiting)}
                )
            if last.closed_at is None:
                last.closed_at = timezone.now()
                last.save(update_fields=["closed_at"])
        history = [_as_played(r) for r in rounds]
        present = list(
            EventPlayer.objects.filter(event=event).order_by("pk").values_list("player", flat=True)
        )
        standings = None
        if method is DrawMethod.BY_STANDINGS:
            standings = [row.player.pk for row in selectors.event_standings(event)]
        number = len(rounds) + 1
        try:
            drawn = seating.draw_round(
                present,
                table_size=event.table_size,
                history=history,
                method=method.value,
                rounds_total=event.rounds_total,
                standings=standings,
                seed=event.seed + number,
            )
        except ValueError as error:
            if len(present) < event.table_size:
                raise ValidationError(table_short(event.table_size, len(present))) from error
            raise
        event_round = EventRound.objects.create(event=event, number=number, method=method)
        tables = EventTable.objects.bulk_create(
            EventTable(round=event_round, number=n) for n in range(1, len(drawn.tables) + 1)
        )
        if any(table.pk is None for table in tables):  # backends without RETURNING
            tables = list(event_round.tables.order_by("number"))
        TableSeat.objects.bulk_create(
            TableSeat(table=table, seat=seat, player_id=player_id)
            for table, players in zip(tables, drawn.tables, strict=True)
            for seat, player_id in enumerate(players)
        )
        event_round.byes.set(drawn.byes)
        names = dict(Player.objects.filter(pk__in=present).values_list("pk", "name"))
        audit_event(
            AuditAction.ROUND_DRAW,
            event,
            actor,
            after={
                "round": number,
                "draw": str(method.label),
                "tables": "; ".join(
                    f"{n}: " + ", ".join(names[p] for p in players)
                    for n, players in enumerate(drawn.tables, start=1)
                ),
                "sitting_out": ", ".join(names[p] for p in drawn.byes) or None,
            },
        )
        signals.round_drawn.send(sender=EventRound, event_round=event_round)
    return event_round


def _seat_no(seat: TableSeat) -> int:
    return seat.seat


def _as_played(event_round: EventRound) -> seating.Round:
    """A round as the draw counts it: the tables played, and the byes with the players of a
    table not played, who sat the round out as much as a bye did (so the next draw does not
    sit them out again while others have played every round, and they have not met)."""
    played, sat_out = [], [player.pk for player in event_round.byes.all()]
    for table in sorted(event_round.tables.all(), key=lambda t: t.number):
        seated = tuple(seat.player_id for seat in sorted(table.seats.all(), key=_seat_no))
        if table.not_played:
            sat_out += seated
        else:
            played.append(seated)
    return seating.Round(tables=tuple(played), byes=tuple(sat_out))


def round_close(*, event_round: EventRound, actor=None) -> list[int]:
    """Close a round: its tables still waiting for their paper are marked not played (their
    numbers are returned). The next round may then be drawn."""
    with transaction.atomic():
        event = _lock(event_round.event)
        _refuse_closed(event)
        event_round = lock_rows(EventRound.objects.all(), leagues=[event.league_id]).get(
            pk=event_round.pk
        )
        if event_round.closed_at is not None:
            raise ValidationError(_("Round %(n)d is already closed.") % {"n": event_round.number})
        if EventRound.objects.filter(event=event, number__gt=event_round.number).exists():
            raise ValidationError(_("Only the current round can be closed."))
        not_played = _mark_not_played(event, event_round)
        event_round.closed_at = timezone.now()
        event_round.save(update_fields=["closed_at"])
        audit_event(
            AuditAction.ROUND_CLOSE,
            event,
            actor,
            after={"round": event_round.number, "not_played": not_played or None},
        )
    return not_played


def event_close(*, event: Event, actor=None) -> Event:
    """Close the event: its current round too (tables without a paper marked not played). The
    event page then names the winner; nothing more may be drawn or entered."""
    with transaction.atomic():
        event = _lock(event)
        _refuse_closed(event)
        last = EventRound.objects.filter(event=event).order_by("-number").first()
        not_played: list[int] = []
        if last is not None and last.closed_at is None:
            not_played = _mark_not_played(event, last)
            last.closed_at = timezone.now()
            last.save(update_fields=["closed_at"])
        event.closed_at = timezone.now()
        event.save(update_fields=["closed_at"])
        winners = [row for row in selectors.event_standings(event) if row.place == 1]
        audit_event(
            AuditAction.EVENT_CLOSE,
            event,
            actor,
            after={
                "winner": ", ".join(row.player.name for row in winners) or None,
                "not_played": not_played or None,
            },
        )
        signals.event_closed.send(sender=Event, event=event)
    return event


def table_refusal(table: EventTable) -> str | None:
    """Why the table takes no paper now (its paper is in, it was not played, the event is
    closed), or None. Reads the table's round and event: select them."""
    if table.game_id is not None:
        return _("The paper of table %(table)d is already in: game #%(game)d.") % {
            "table": table.number,
            "game": table.game_id,
        }
    if table.not_played:
        return _("Table %(table)d of round %(round)d was marked not played.") % {
            "table": table.number,
            "round": table.round.number,
        }
    if table.round.event.is_closed:
        return _("This event is closed.")
    return None


def table_players_refusal(table: EventTable, player_ids) -> str | None:
    """Why a game of these players is not the table's paper, or None: a table's paper has the
    table's players, in the seats they really sat in (the paper's order decides a Preferans
    game's final scores), not necessarily the draw's."""
    seated = list(table.seats.order_by("seat").select_related("player"))
    if {seat.player_id for seat in seated} == set(player_ids):
        return None
    return _("Table %(table)d seats %(names)s: enter the paper of those players.") % {
        "table": table.number,
        "names": _names(seat.player for seat in seated),
    }


def table_record_game(
    *,
    table: EventTable,
    played_at: datetime,
    entries: Sequence[engine.Entry],
    bula: int | None = None,
    ended_early: bool = False,
    note: str = "",
    entered_by=None,
    submission_key: uuid.UUID | None = None,
) -> Game:
    """Record a table's paper: the game, through the engine, linked to the table.

    The table's players must be the game's (in any seat order: the paper says how they sat). A
    second submission of the same form returns the game the first recorded; another paper for a
    table whose paper is in, or that was marked not played, is refused (ValidationError).
    """
    table = EventTable.objects.select_related("round__event__league").get(pk=table.pk)
    event = table.round.event
    with transaction.atomic():
        # The engine's lock first (game_record takes it again), then the table's.
        lock_rows(League.objects.all(), leagues=[event.league_id]).get(pk=event.league_id)
        table = (
            lock_rows(EventTable.objects.all(), leagues=[event.league_id], of=("self",))
            .select_related("round__event__league")
            .get(pk=table.pk)
        )
        event = table.round.event
        if table.game_id is not None:
            game = Game.objects.get(pk=table.game_id)
            if submission_key is not None and game.submission_key == submission_key:
                # The same paper again, or SubmissionReused: never another one dropped.
                prepared = engine.prepare_game(
                    event.league,
                    played_at=played_at,
                    entries=entries,
                    bula=bula,
                    ended_early=ended_early,
                    note=note,
                )
                return engine.resubmitted(game, prepared)
        refusal = table_refusal(table)
        if refusal is not None:
            raise ValidationError(refusal)
        refusal = table_players_refusal(table, [entry.player_id for entry in entries])
        if refusal is not None:
            raise ValidationError(refusal)
        game = engine.game_record(
            league=event.league,
            played_at=played_at,
            entries=entries,
            bula=bula,
            ended_early=ended_early,
            note=note,
            entered_by=entered_by,
            submission_key=submission_key,
        )
        table.game = game
        table.save(update_fields=["game"])
        audit_event(
            AuditAction.TABLE_GAME,
            event,
            entered_by,
            game=game,
            after={"round": table.round.number, "table": table.number},
        )
    return game
