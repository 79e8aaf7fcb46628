"""Every write of the digital paper: start a paper, add a deal, undo the last, repeal one, edit one
(the admin), finish the paper into a game. Keyword-only, each in one transaction.

Locks, always in this order: the paper's row, then (finishing, or editing a finished paper) the
league through the engine. Two phones entering a deal at once queue on the paper's row; each says
how many deals it saw (``after``), so the second finds the first one's deal and is told, instead
of recording the same deal twice.

A finished paper is rated by :func:`ratings.engine.game_record`, the only writer of ratings, with
the columns the deals give: the same Game and Result rows the end-of-game paper form writes (an
event table's paper through :func:`ratings.events.services.table_record_game`, which links it). An
edited deal of a finished paper re-rates its game through :func:`ratings.engine.game_update`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from uuid import UUID, uuid5

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings import engine, entry, systems
from ratings.algorithms import paper as paper_rules
from ratings.entry.models import HeldGame
from ratings.events import services as event_services
from ratings.events.models import EventTable
from ratings.models import AuditAction, Game, League, Player
from ratings.papers import selectors
from ratings.papers.models import Deal, DigitalPaper
from ratings.versioning import lock_rows


def _audit_deal(
    action: str, paper: DigitalPaper, deal: Deal, actor, *, before: dict | None = None
) -> None:
    """The audit entry of a change of a paper's deal, in its transaction: which paper and deal,
    and what it said before and after (as stored), so a disputed paper can be followed."""
    engine.audit(
        action,
        paper.league_id,
        actor,
        game_id=paper.game_id,
        before=before,
        after=None if deal.pk is None else _deal_data(paper, deal),
    )


def _deal_data(paper: DigitalPaper, deal: Deal) -> dict:
    return {
        "paper": paper.pk,
        "deal": deal.number,
        "entered": deal.entered,
        "repealed": deal.repealed,
    }


def _lock(paper: DigitalPaper) -> DigitalPaper:
    # The league's papers number: a deal leaves the papers of the other tables that wait for
    # their first deal cached (a finished paper's game takes the league's number too, through
    # the engine).
    return lock_rows(DigitalPaper.objects.all(), leagues=[paper.league_id], papers=True).get(
        pk=paper.pk
    )


def _refused(error: paper_rules.PaperError) -> ValidationError:
    return ValidationError(_("The paper refuses this deal: %(reason)s") % {"reason": str(error)})


def _check(paper: DigitalPaper, deals: Sequence[Deal]) -> paper_rules.Paper:
    """The paper these deals draw; ValidationError naming the deal the rules refuse."""
    try:
        return selectors.drawn_paper(paper, deals)
    except paper_rules.PaperError as error:
        raise _refused(error) from None


def _refuse_after_the_end(drawn: paper_rules.Paper, count: int) -> None:
    """ValidationError (code ``over``) if a deal comes after the one with which the bulas ran
    out: the game is over there (prefko's library writes on; a table stops). The one rule of
    the end, for the phone's deals and the API's deal log alike."""
    end = drawn.played_out_at()
    if end is not None and end < count:
        raise ValidationError(
            _(
                "The bulas ran out with deal %(end)d: the game is over and takes no more deals. "
                "Finish and rate it, or undo or repeal the deal that ended it if it was a mistake."
            )
            % {"end": end},
            code="over",
        )


def paper_start(
    *,
    league: League,
    players: Sequence[Player | str],
    bula: int,
    refas: int | None = None,
    table: EventTable | None = None,
    actor=None,
) -> DigitalPaper:
    """Start a digital paper: three players in seating order, the starting bula, the refe cap.

    A seat given as a name (not a Player) is a new member, added to the club with the paper:
    the caller resolved the names by the entry service's one policy
    (:func:`ratings.typed_names.resolve_names`, a close name confirmed). ``table``: an event's table
    whose paper this is (its players, in the order they sat); the finished paper is then the
    table's game.
    """
    if not league.rating_system.has_paper:
        raise ValidationError(_("Only a Preferans league keeps a paper."))
    named = [player for player in players if isinstance(player, str)]
    if named:
        if table is not None:
            raise ValidationError(_("A table's paper is kept by the players drawn to it."))
        with transaction.atomic():
            # Players are the club's: their row is club-wide (the versions' lock order).
            engine.league_lock(league, club=True)
            new = {name: Player.objects.get_or_create_named(name) for name in named}
            players = [new[p] if isinstance(p, str) else p for p in players]
            return paper_start(league=league, players=players, bula=bula, refas=refas, actor=actor)
    if len(players) != 3 or len({player.pk for player in players}) != 3:
        raise ValidationError(_("A paper needs three different players."))
    if table is not None:
        refusal = event_services.table_refusal(table)
        if refusal is not None:
            raise ValidationError(refusal)
        seated = set(table.seats.values_list("player_id", flat=True))
        if seated != {player.pk for player in players} or table.round.event.league_id != league.pk:
            raise ValidationError(_("A table's paper is kept by the players drawn to it."))
    message = league.rating_system.bula_refusal(bula, paper=True)
    if message is not None:
        raise ValidationError(message)
    try:
        paper_rules.parse_log({"bula": bula, "refas": refas, "hands": []})
    except paper_rules.PaperError:
        raise ValidationError(_("The refe cap is 0 or more (or none).")) from None
    return DigitalPaper.objects.create(
        league=league,
        player_1=players[0],
        player_2=players[1],
        player_3=players[2],
        bula=bula,
        refas=refas,
        house_rules=systems.house_rules(league.system_settings).json(),
        event_table=table,
        started_by=engine.audit_user(actor),
    )


def _deals(paper: DigitalPaper) -> list[Deal]:
    return list(Deal.objects.filter(paper=paper).order_by("number"))


def _refuse_finished(paper: DigitalPaper) -> None:
    if paper.discarded_at is not None:
        raise ValidationError(_("This paper was discarded: it takes no more deals."))
    if paper.finished:
        raise ValidationError(_("This paper is finished: it takes no more deals."))


def paper_discard(*, paper: DigitalPaper, actor=None) -> DigitalPaper:
    """Discard a paper started by mistake (its players' choice, confirmed): it leaves the pages
    and the lists of papers in progress, and takes no more deals; it stays in the database for
    staff (the admin's filter) with an audit entry of who discarded it and what it held. A
    finished paper is a game: it is not discarded (the game is deleted instead)."""
    with transaction.atomic():
        paper = _lock(paper)
        if paper.discarded_at is not None:
            return paper  # a second tap
        if paper.finished:
            raise ValidationError(_("This paper is finished: its game is deleted, not the paper."))
        paper.discarded_at = timezone.now()
        paper.save(update_fields=["discarded_at"])
        engine.audit(
            AuditAction.PAPER_DISCARD,
            paper.league_id,
            actor,
            before={
                "paper": paper.pk,
                "players": [player.name for player in paper.players],
                "bula": paper.bula,
                "deals": Deal.objects.filter(paper=paper).count(),
            },
        )
    return paper


def _seen(deals: Sequence[Deal], after: int) -> None:
    if len(deals) != after:
        raise ValidationError(
            _(
                "Deals on the paper now: %(count)d, not %(seen)d: another phone entered one "
                "meanwhile. Look at the paper, then enter yours if it is still to come."
            )
            % {"count": len(deals), "seen": after},
            code="stale",
        )


class DealKeyReused(ValidationError):
    """A deal's key came again with another deal, or to another paper, than the one it
    recorded (``deal``): told, never taken for the deal recorded."""

    def __init__(self, deal: Deal):
        super().__init__(
            _(
                "This deal's key was used already, for deal %(number)d of paper #%(paper)d, "
                "which is not this deal: nothing was recorded. Check the deal and add it again."
            )
            % {"number": deal.number, "paper": deal.paper_id},
            code="key_reused",
        )
        self.deal = deal


def deal_add(
    *,
    paper: DigitalPaper,
    hand: paper_rules.Hand,
    after: int,
    key: UUID | None = None,
    actor=None,
) -> Deal:
    """Add the next deal, ``hand`` (kept as :meth:`~ratings.algorithms.paper.Hand.to_json`);
    ``after`` is how many deals the phone saw (two phones at once).

    ``key``: the phone's one-time key for this deal (a form's ``submission_key``). The same key
    again with the same deal to the same paper returns the deal already recorded, never a
    second one: a deal kept on a phone while the network was down may be sent twice. With
    another deal, or to another paper, it raises :class:`DealKeyReused`, as a game's key does.
    Two phones tapping one deal each make their own key: those are told by ``after``.
    """
    entered = hand.to_json()
    with transaction.atomic():
        paper = _lock(paper)
        if key is not None:
            # Under the paper's lock: the other copy of this key, if any, has committed.
            recorded = Deal.objects.filter(submission_key=key).first()
            if recorded is not None:
                if recorded.paper_id != paper.pk or recorded.entered != entered:
                    raise DealKeyReused(recorded)
                return recorded
        _refuse_finished(paper)
        deals = _deals(paper)
        _seen(deals, after)
        deal = Deal(
            paper=paper,
            number=len(deals) + 1,
            entered=entered,
            entered_by=engine.audit_user(actor),
            submission_key=key,
        )
        _refuse_after_the_end(_check(paper, [*deals, deal]), len(deals) + 1)
        try:
            with transaction.atomic():
                deal.save()
        except IntegrityError:
            # The key's copy sent at the same moment to a paper of another league (whose lock
            # is not this one) committed first: it has the key.
            recorded = Deal.objects.filter(submission_key=key).first() if key else None
            if recorded is None:
                raise
            raise DealKeyReused(recorded) from None
        _audit_deal(AuditAction.DEAL_ADD, paper, deal, actor)
    return deal


def deal_undo(*, paper: DigitalPaper, after: int, actor=None) -> None:
    """Take back the last deal; ``after`` is how many deals the phone saw."""
    with transaction.atomic():
        paper = _lock(paper)
        _refuse_finished(paper)
        deals = _deals(paper)
        _seen(deals, after)
        if not deals:
            raise ValidationError(_("The paper has no deal to undo."))
        last = deals[-1]
        before = _deal_data(paper, last)
        last.delete()
        last.pk = None
        _audit_deal(AuditAction.DEAL_UNDO, paper, last, actor, before=before)


def deal_repeal(*, paper: DigitalPaper, number: int, repealed: bool = True, actor=None) -> Deal:
    """Cross out deal ``number`` (or bring it back): it stays on the paper, counting nothing."""
    with transaction.atomic():
        paper = _lock(paper)
        _refuse_finished(paper)
        deals = _deals(paper)
        deal = next((deal for deal in deals if deal.number == number), None)
        if deal is None:
            raise ValidationError(_("The paper has no deal %(number)d.") % {"number": number})
        if deal.repealed == repealed:
            return deal  # as asked already (a second tap, another phone): nothing changes
        deal.repealed = repealed
        _refuse_after_the_end(_check(paper, deals), len(deals))
        deal.save(update_fields=["repealed"])
        action = AuditAction.DEAL_REPEAL if repealed else AuditAction.DEAL_BACK
        _audit_deal(action, paper, deal, actor)
    return deal


def _changed(
    paper: DigitalPaper, deal: Deal, hand: paper_rules.Hand, repealed: bool
) -> tuple[Deal, paper_rules.Paper]:
    """The deal with its change among the paper's deals, and the paper they then draw."""
    deals = _deals(paper)
    target = next((d for d in deals if d.pk == deal.pk), None)
    if target is None:
        raise ValidationError(_("This deal was deleted meanwhile: reload the page."))
    if paper.game is None and held_game_of(paper) is not None:
        # Its columns wait in the held game, which would count them as they were.
        raise ValidationError(
            _(
                "This paper's game waits for the table's confirmation: delete the waiting game "
                "before correcting its deals."
            )
        )
    target.entered = hand.to_json()
    target.repealed = repealed
    drawn = _check(paper, deals)
    _refuse_after_the_end(drawn, len(deals))
    if paper.game is not None and drawn.bula_sum > 0 and not paper.ended_early:
        raise ValidationError(
            _("After this change the bulas add up to %(sum)d: the game would not be over.")
            % {"sum": drawn.bula_sum}
        )
    return target, drawn


def deal_check(*, deal: Deal, hand: paper_rules.Hand, repealed: bool) -> None:
    """ValidationError if the paper's rules refuse this change of a deal (the admin's form)."""
    _changed(deal.paper, deal, hand, repealed)


def deal_update(*, deal: Deal, hand: paper_rules.Hand, repealed: bool, actor=None) -> Deal:
    """Change what a deal says (the admin): the paper is drawn again from its deals, with its
    audit entry (what the deal said before and after), and a finished paper's game is re-rated
    through the engine with the columns it now gives (refused if the bulas would no longer have
    run out). A change that changes nothing writes nothing."""
    with transaction.atomic():
        paper = _lock(deal.paper)
        stored = Deal.objects.filter(pk=deal.pk).first()
        before = None if stored is None else _deal_data(paper, stored)
        target, drawn = _changed(paper, deal, hand, repealed)
        if before is not None and _deal_data(paper, target) == before:
            return target
        target.save(update_fields=["entered", "repealed"])
        _audit_deal(AuditAction.DEAL_EDIT, paper, target, actor, before=before)
        if paper.game is not None:
            engine.game_update(
                game=paper.game,
                played_at=paper.game.played_at,
                entries=_entries(paper, drawn),
                bula=paper.bula,
                ended_early=recorded_ended_early(drawn, by_clock=paper.ended_early),
                actor=actor,
            )
    return target


def _entries(paper: DigitalPaper, drawn: paper_rules.Paper) -> list[engine.Entry]:
    return [
        engine.Entry(player_id=player_id, paper=columns)
        for player_id, columns in zip(
            (paper.player_1_id, paper.player_2_id, paper.player_3_id), drawn.columns, strict=True
        )
    ]


def recorded_ended_early(drawn: paper_rules.Paper, *, by_clock: bool) -> bool:
    """Whether the game a paper's deals draw is recorded as ended early: only when the players
    stopped it by the clock before the bulas ran out. A paper whose last deal took the bulas to
    zero or below is played out, never ended early, whatever was asked. The one rule of it for
    every paper (the phone's, the API's log)."""
    return by_clock and not drawn.over


def _submission(
    paper: DigitalPaper, drawn: paper_rules.Paper, *, ended_early: bool, played_at: datetime
) -> entry.Submission:
    """The finished paper as the entry service's submission: its seats are its players, with
    the columns its deals give."""
    players = (paper.player_1, paper.player_2, paper.player_3)
    return entry.Submission(
        league=paper.league,
        played_at=played_at,
        seats=tuple(
            entry.SeatIn(
                player=player.name, player_id=player.pk, left=left, middle=middle, right=right
            )
            for player, (left, middle, right) in zip(players, drawn.columns, strict=True)
        ),
        bula=paper.bula,
        ended_early=recorded_ended_early(drawn, by_clock=ended_early),
        table=paper.event_table,
        key=paper_key(paper),
    )


def _checked(paper: DigitalPaper, *, ended_early: bool, played_at: datetime) -> entry.Checked:
    """The paper checked as a game; ValidationError if it is not over or a rule refuses it."""
    drawn = _check(paper, _deals(paper))
    _over(drawn, ended_early)
    checked = entry.check(_submission(paper, drawn, ended_early=ended_early, played_at=played_at))
    if not checked.ok:
        raise ValidationError([refusal.message for refusal in checked.refusals])
    return checked


def paper_game_input(paper: DigitalPaper, *, ended_early: bool, played_at: datetime):
    """The game a paper would be rated as now (for the preview); ValidationError if not over."""
    return _checked(paper, ended_early=ended_early, played_at=played_at).prepared


def _over(drawn: paper_rules.Paper, ended_early: bool) -> None:
    if drawn.bula_sum > 0 and not ended_early:
        # A code and params: the API words it by its own field (``"ended_early"``).
        raise ValidationError(
            _(
                "The bulas add up to %(sum)d: the game is over when they reach zero. Finish it "
                "as ended early if the clock stopped it."
            ),
            code="bulas_left",
            params={"sum": drawn.bula_sum},
        )


def paper_finish(
    *,
    paper: DigitalPaper,
    ended_early: bool = False,
    played_at: datetime | None = None,
    actor=None,
) -> Game | HeldGame:
    """Rate the paper as a game of its league through the entry service (an event table's
    paper as the table's game): the columns its deals give. In a league with confirmation a
    member's paper is held for the table instead (:mod:`ratings.entry.confirmation`): the
    :class:`HeldGame`, linked to the paper once it counts (:func:`link_recorded_game`).

    The bulas must add up to zero or below, unless the game ``ended_early`` (the clock). A game
    played out (the bulas at zero or below, even when the last deal took them below) is recorded
    as played out, never as ended early (:func:`recorded_ended_early`).
    Finishing twice returns what the first one recorded or held.
    """
    with transaction.atomic():
        paper = _lock(paper)
        if paper.finished:
            if paper.game is not None:
                return paper.game
            held = held_game_of(paper)
            if held is not None:
                return held
            _refuse_finished(paper)
        now = timezone.now()
        checked = _checked(paper, ended_early=ended_early, played_at=played_at or now)
        try:
            result, _created = entry.submit(
                checked,
                entered_by=actor,
                then=LINK_RECORDED_GAME,
                then_args={"paper": paper.pk},
            )
        except entry.Refused as refused:
            raise ValidationError(refused.messages) from None
        paper.game = result if isinstance(result, Game) else None
        paper.finished_at = now
        paper.ended_early = checked.submission.ended_early  # played out, or by the clock
        paper.save(update_fields=["game", "finished_at", "ended_early"])
    return result


# The name of link_recorded_game among the entry service's after-steps (ratings/apps.py).
LINK_RECORDED_GAME = "papers.link_recorded_game"


def link_recorded_game(game: Game, args: dict, actor) -> None:
    """A finished paper's game recorded (at once, or when the table confirmed it): the paper
    is that game's."""
    DigitalPaper.objects.filter(pk=args["paper"]).update(game=game)


# The name of keep_deal_log among the entry service's after-steps (ratings/apps.py): the name
# games posted as deals were held with when the API kept their logs itself, which held games
# still carry.
KEEP_DEAL_LOG = "api.keep_deals"


def deal_log_args(*, hands: list, refas: int | None, rules: paper_rules.HouseRules) -> dict:
    """What keeping a game's deal log needs (:func:`keep_deal_log`), as JSON: a held game keeps
    it until it counts."""
    return {"hands": hands, "refas": refas, "rules": rules.json()}


def keep_deal_log(game: Game, args: dict, actor) -> None:
    """A game posted as its deals recorded (at once, or when the table confirmed it): its deals
    kept as its finished digital paper (:func:`paper_of_game`), in the game's transaction."""
    paper_of_game(
        game=game,
        hands=args["hands"],
        refas=args["refas"],
        rules=paper_rules.HouseRules.from_json(args["rules"]),
        actor=actor,
    )


def paper_key(paper: DigitalPaper) -> UUID:
    """The one-time key of a paper's game: a paper is one game, whoever finishes it (its id
    and start, since a database may give a deleted paper's id again)."""
    return uuid5(_PAPER_KEYS, f"{paper.pk}:{paper.started_at.isoformat()}")


_PAPER_KEYS = UUID("6c1f7a52-2f0e-4d53-9d43-0f5d8cf3b8a1")


def held_game_of(paper: DigitalPaper) -> HeldGame | None:
    """The held game a finished paper waits as, in a league with confirmation."""
    return HeldGame.objects.filter(key=paper_key(paper)).first()


def log_drawn(
    *,
    bula: int,
    refas: int | None,
    hands: list,
    ended_early: bool = False,
    rules: paper_rules.HouseRules = paper_rules.LIBRARY,
) -> paper_rules.Paper:
    """The paper a whole deal log draws (a game posted as its deals, in the log format of
    ``manage.py paper_from_deals``): ValidationError naming the hand the rules refuse, or a hand
    after the one with which the bulas ran out, or when the bulas have not run out and the game
    did not end early."""
    try:
        log = {"bula": bula, "refas": refas, "hands": hands, "rules": rules.json()}
        drawn = paper_rules.draw_paper(paper_rules.parse_log(log))
    except paper_rules.PaperError as error:
        raise _refused(error) from None
    _refuse_after_the_end(drawn, len(hands))
    _over(drawn, ended_early)
    return drawn


def log_hand(hand) -> tuple[paper_rules.Hand, bool]:
    """One hand of a posted deal log as a deal keeps it: the hand, and whether it is crossed
    out (the log's own ``"repealed"``, kept as the deal's flag). PaperError if it is malformed."""
    return paper_rules.Hand.from_log(hand)


def paper_of_game(
    *,
    game: Game,
    hands: list,
    refas: int | None,
    rules: paper_rules.HouseRules = paper_rules.LIBRARY,
    actor=None,
) -> DigitalPaper:
    """Keep a game rated from its deal log (the API) as a finished digital paper: the paper and
    deals the phone stores, so the game's page, exports, backup and statistics have its deals.

    Each deal keeps its hand as the log says it (:meth:`paper_rules.Hand.from_log`): its value,
    declarer and followers, no contract. Call it in the transaction that recorded the game:
    ValidationError, rolling the game back, if the deals do not give the game's players and
    columns.
    """
    results = list(game.results.order_by("seat"))
    if len(results) != 3:
        raise ValidationError(_("A paper needs three different players."))
    paper = DigitalPaper.objects.create(
        league_id=game.league_id,
        player_1_id=results[0].player_id,
        player_2_id=results[1].player_id,
        player_3_id=results[2].player_id,
        bula=game.bula,
        refas=refas,
        house_rules=rules.json(),
        started_by=engine.audit_user(actor),
        finished_at=timezone.now(),
        ended_early=game.ended_early,  # as recorded: a played-out log is never ended early
        game=game,
    )
    deals = []
    for number, hand in enumerate(hands, start=1):
        try:
            kept, repealed = log_hand(hand)
        except paper_rules.PaperError as error:
            raise _refused(paper_rules.PaperError(f"hand {number}: {error}")) from None
        deals.append(Deal(paper=paper, number=number, entered=kept.to_json(), repealed=repealed))
    Deal.objects.bulk_create(deals)
    drawn = _check(paper, deals)
    if list(drawn.columns) != [result.paper for result in results]:
        raise ValidationError(_("The deals do not give the game's columns."))
    return paper
