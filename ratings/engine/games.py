"""The services that change a league's games: record, edit, delete, restore, set a start rating,
recompute. Each runs in one transaction with the league's row locked and leaves an audit entry.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import uuid
from collections.abc import Sequence
from datetime import date, datetime
from operator import itemgetter

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ratings.engine import opponents, writes
from ratings.engine.audit import audit, game_snapshot
from ratings.engine.replay import rate_newest, replay, replay_correction
from ratings.engine.state import Entry, GameInput, PlayerState, rater, states_before
from ratings.engine.validation import birth_dates, birth_refusal, check_births, prepare_game
from ratings.models import (
    AuditAction,
    AuditEntry,
    Game,
    League,
    Player,
    PlayerAlias,
    Result,
    Standing,
)
from ratings.versioning import lock_rows


def league_lock(league: League, *, club: bool = False) -> League:
    """Lock the league row until the transaction ends, after the writers' lock on the league's
    version row (:func:`ratings.versioning.lock_rows`), which every writer of the league queues
    on (writers of other leagues do not); with ``club``, the club-wide one first, for a
    transaction that writes club-wide tables too (new players)."""
    return lock_rows(League.objects.all(), leagues=[league.pk], club=club).get(pk=league.pk)


def _still_there(game: Game) -> Game:
    """The game as it is now that its league is locked.

    Two staff may act on one game at once (both delete it, or one edits while the other
    deletes): the second waits for the league, then finds the game gone. That is a message
    for them, not a crash.
    """
    current = lock_rows(Game.objects.all(), leagues=[game.league_id]).filter(pk=game.pk).first()
    if current is None:
        raise ValidationError(
            _("This game was changed or deleted meanwhile: reload the page and try again."),
            code="gone",
        )
    return current


def game_record(
    *,
    league: League,
    played_at: datetime,
    entries: Sequence[Entry],
    bula: int | None = None,
    ended_early: bool = False,
    note: str = "",
    entered_by=None,
    submission_key: uuid.UUID | None = None,
) -> Game:
    """Record a game and rate it.

    With a ``submission_key`` a repeated submission (a double click, a refresh after POST) returns
    the game the first one recorded instead of recording it twice; the same key with another
    game (Back after saving, then the next game) raises :class:`SubmissionReused`. A player
    merged into another meanwhile is that other player (refused when both are at this table).
    """
    game_fields = {"bula": bula, "ended_early": ended_early, "note": note}
    prepared = prepare_game(league, played_at=played_at, entries=entries, **game_fields)
    with transaction.atomic():
        league = league_lock(league)
        if submission_key is not None:
            existing = Game.objects.filter(submission_key=submission_key).first()
            if existing is not None:
                return resubmitted(existing, prepared)
        merged, born = players_now(entries)
        if merged is not entries:
            entries = merged
            prepared = prepare_game(league, played_at=played_at, entries=entries, **game_fields)
        refused = birth_refusal(played_at, prepared.player_ids, born)
        if refused is not None:
            raise ValidationError(refused)
        game = Game.objects.create(
            league=league,
            played_at=played_at,
            bula=bula,
            ended_early=ended_early,
            note=note,
            entered_by=entered_by,
            submission_key=submission_key,
        )
        newest = not Game.objects.filter(league=league, played_at__gt=played_at).exists()
        if newest:
            rate_newest(league, game, prepared)
        else:
            writes.insert_results(writes.result_rows(league, game.pk, prepared))
            replay(league, since=game.order_key)
        opponents.count(league, [game.pk])
        audit(AuditAction.CREATE, league, entered_by, game=game, after=game_snapshot(game))
    return game


class SubmissionReused(ValidationError):
    """A form's key came again with another game than the one it saved (``game``)."""

    def __init__(self, game: Game):
        super().__init__(
            _(
                "This page was saved already, as game #%(game)d, with other players, scores, "
                "time or note: this game is not saved yet. Check it and press Save to record it "
                "as a new game."
            )
            % {"game": game.pk}
        )
        self.game = game


def resubmitted(game: Game, prepared: GameInput) -> Game:
    """``game``, the one a form's key saved, if ``prepared`` is that game again (a double click,
    a refresh); otherwise raises :class:`SubmissionReused`: never drop another game silently."""
    rows = list(
        game.results.order_by("seat").values_list("player_id", "score", "left", "middle", "right")
    )
    papers = [
        None if middle is None else (left, middle, right) for _p, _s, left, middle, right in rows
    ]
    same = (
        game.played_at == prepared.played_at
        and game.bula == prepared.bula
        and game.ended_early == prepared.ended_early
        and game.note == prepared.note
        and [row[0] for row in rows] == list(prepared.player_ids)
        and [row[1] for row in rows] == list(prepared.scores)
        and papers == [None if paper is None else tuple(paper) for paper in prepared.papers]
    )
    if not same:
        raise SubmissionReused(game)
    return game


def players_now(entries: Sequence[Entry]) -> tuple[Sequence[Entry], dict[int, date]]:
    """The entries with each player merged into another since the form was read replaced by
    that player (``entries`` itself when nobody was), and the birth dates of the players (read
    in the same query); raises ValidationError when a player was deleted, or merged into
    another player of the same game. Call it with the league locked: a merge then has either
    finished or not begun."""
    ids = [entry.player_id for entry in entries]
    rows = dict(Player.objects.filter(pk__in=ids).values_list("pk", "birth_date"))
    born = {pk: birth for pk, birth in rows.items() if birth is not None}
    present = set(rows)
    if len(present) == len(set(ids)):
        return entries, born
    aliases = {
        alias.merged_id: alias
        for alias in PlayerAlias.objects.filter(merged_id__in=set(ids) - present).select_related(
            "player"
        )
    }
    now = []
    for entry in entries:
        if entry.player_id in present:
            now.append(entry)
            continue
        alias = aliases.get(entry.player_id)
        if alias is None:
            raise ValidationError(
                _("A player of this game was deleted meanwhile: enter the game again.")
            )
        if alias.player_id in ids:
            raise ValidationError(
                _(
                    "%(source)s was merged into %(target)s meanwhile, who is also at this table: "
                    "check the players."
                )
                % {"source": alias.name, "target": alias.player.name}
            )
        now.append(dataclasses.replace(entry, player_id=alias.player_id))
    return now, birth_dates(entry.player_id for entry in now)


def game_update(
    *,
    game: Game,
    played_at: datetime,
    entries: Sequence[Entry],
    bula: int | None = None,
    ended_early: bool = False,
    note: str | None = None,
    actor=None,
) -> Game:
    """Change a game's players, paper or scores, or date, and re-rate the league from it."""
    with transaction.atomic():
        league = league_lock(game.league)
        prepared = prepare_game(
            league, played_at=played_at, entries=entries, bula=bula, ended_early=ended_early
        )
        check_births(played_at, prepared.player_ids)
        game = _still_there(game)
        before = game_snapshot(game)
        old_key = game.order_key
        old_players = set(game.results.values_list("player_id", flat=True))
        game.played_at = played_at
        game.bula = bula
        game.ended_early = ended_early
        if note is not None:
            game.note = note
        game.save()
        opponents.count(league, [game.pk], sign=-1)
        game.results.all().delete()
        writes.insert_results(writes.result_rows(league, game.pk, prepared))
        opponents.count(league, [game.pk])
        rerated = replay_correction(league, since=min(old_key, game.order_key), touched=old_players)
        audit(
            AuditAction.UPDATE,
            league,
            actor,
            game=game,
            before=before,
            after=game_snapshot(game),
            rerated=rerated,
            corrected=game.played_at,
        )
    return game


def game_delete(*, game: Game, actor=None) -> None:
    """Delete a game and re-rate its league from where it was; the audit trail keeps a copy.

    Raises ValidationError if someone deleted the game meanwhile (as :func:`game_update`)."""
    with transaction.atomic():
        league = league_lock(game.league)
        game = _still_there(game)
        before = game_snapshot(game)
        key = game.order_key
        players = set(game.results.values_list("player_id", flat=True))
        opponents.count(league, [game.pk], sign=-1)
        game.delete()
        rerated = replay_correction(league, since=key, touched=players)
        audit(
            AuditAction.DELETE,
            league,
            actor,
            game=game,
            game_id=before["id"],
            before=before,
            rerated=rerated,
            corrected=key[0],
        )


def game_restore(*, entry: AuditEntry, actor=None) -> Game:
    """Bring a deleted game back, under its old id, from its audit entry; re-rate the league."""
    if entry.action != AuditAction.DELETE or not entry.before:
        raise ValidationError(_("Only a deleted game can be restored."))
    snapshot = entry.before
    played_at, entries = read_snapshot(snapshot)
    with transaction.atomic():
        league = league_lock(entry.league)
        if Game.objects.filter(pk=snapshot["id"]).exists():
            raise ValidationError(_("That game has already been restored."))
        player_ids = {entry.player_id for entry in entries}
        if Player.objects.filter(pk__in=player_ids).count() != len(player_ids):
            raise ValidationError(_("A player of that game no longer exists."))
        again = _same_game_in(league, played_at, entries)
        if again is not None:
            # Imported again after a replace: restoring it would count it twice.
            raise ValidationError(
                _("The league has this game again, as game #%(game)d.") % {"game": again}
            )
        prepared = prepare_game(
            league,
            played_at=played_at,
            entries=entries,
            bula=snapshot["bula"],
            ended_early=snapshot["ended_early"],
        )
        game = Game.objects.create(
            pk=snapshot["id"],
            league=league,
            played_at=played_at,
            bula=snapshot["bula"],
            ended_early=snapshot["ended_early"],
            note=snapshot["note"],
            # The member who entered it may have left the club since.
            entered_by=get_user_model().objects.filter(pk=snapshot["entered_by_id"]).first(),
        )
        # The game keeps the moment it was first entered, not the restore's (auto_now_add
        # set it on create). A deletion audited before snapshots held it: the entry of its
        # creation has it.
        entered = _entered_at(snapshot)
        if entered is not None:
            Game.objects.filter(pk=game.pk).update(created_at=entered)
            game.created_at = entered
        writes.insert_results(writes.result_rows(league, game.pk, prepared))
        opponents.count(league, [game.pk])
        rerated = replay_correction(league, since=game.order_key)
        audit(
            AuditAction.RESTORE,
            league,
            actor,
            game=game,
            after=game_snapshot(game),
            rerated=rerated,
            corrected=played_at,
        )
    return game


def read_snapshot(snapshot) -> tuple[datetime, list[Entry]]:
    """A deleted game's audit snapshot (:func:`game_snapshot`) read back: its time and its
    entries in seat order. Raises ValidationError when it is not a snapshot this app writes (a
    damaged or hand-made audit entry), never a 500."""
    try:
        if type(snapshot.get("id")) is not int or type(snapshot.get("note")) is not str:
            raise TypeError
        if snapshot.get("bula") is not None and type(snapshot["bula"]) is not int:
            raise TypeError
        if type(snapshot.get("ended_early")) is not bool:
            raise TypeError
        entered_by = snapshot.get("entered_by_id")
        if entered_by is not None and type(entered_by) is not int:
            raise TypeError
        played_at = datetime.fromisoformat(snapshot["played_at"])
        if played_at.tzinfo is None:
            raise TypeError
        rows = sorted(snapshot["results"], key=lambda row: row["seat"])
        entries = []
        for row in rows:
            paper = row["paper"]
            if type(row["player_id"]) is not int or type(row["score"]) not in (int, float):
                raise TypeError
            if paper is not None and (
                type(paper) is not list or len(paper) != 3 or {type(p) for p in paper} != {int}
            ):
                raise TypeError
            entries.append(
                Entry(
                    player_id=row["player_id"],
                    score=row["score"],
                    paper=tuple(paper) if paper else None,
                )
            )
    except (TypeError, ValueError, KeyError, AttributeError):
        raise ValidationError(
            _("The audit entry of that game is damaged: it cannot be restored.")
        ) from None
    return played_at, entries


def _same_game_in(league: League, played_at: datetime, entries: Sequence[Entry]) -> int | None:
    """The id of a game of ``league`` at that time with the same players and scores, if any."""
    wanted = sorted((entry.player_id, entry.score) for entry in entries)
    rows = (
        Result.objects.filter(game__league=league, game__played_at=played_at)
        .order_by("game_id")
        .values_list("game_id", "player_id", "score")
    )
    for game_id, seats in itertools.groupby(rows, key=itemgetter(0)):
        if sorted((player, score) for _g, player, score in seats) == wanted:
            return game_id
    return None


def _entered_at(snapshot: dict) -> datetime | None:
    """When a deleted game was first entered: from its snapshot, or its creation's audit entry."""
    written = snapshot.get("created_at")
    if isinstance(written, str):
        try:
            entered = datetime.fromisoformat(written)
        except ValueError:  # a damaged snapshot: the creation's entry still knows
            entered = None
        if entered is not None and entered.tzinfo is not None:
            return entered
    created = AuditEntry.objects.filter(action=AuditAction.CREATE, game_id=snapshot["id"])
    return created.order_by("at").values_list("at", flat=True).first()


def standing_set_start_rating(
    *, league: League, player: Player, rating: float | None, actor=None
) -> Standing:
    """Give a player their own start rating in a league (None: the league's) and re-rate."""
    if rating is not None and not math.isfinite(rating):
        raise ValidationError(_("The start rating must be a finite number."))
    if rating is not None and league.integer_ratings and rating != int(rating):
        raise ValidationError(_("This league's ratings are whole numbers."))
    with transaction.atomic():
        league = league_lock(league)
        standing, _created = Standing.objects.get_or_create(
            league=league,
            player=player,
            defaults={"rating": league.start_rating, "peak_rating": league.start_rating},
        )
        previous = standing.start_rating
        standing.start_rating = rating
        standing.save(update_fields=["start_rating"])
        first = Game.objects.filter(league=league, results__player=player).chronological().first()
        if first is None:
            writes.save_states(league, states_before(league, None, {player.pk}))
        else:
            replay(league, since=first.order_key, touched={player.pk})
        audit(
            AuditAction.START_RATING,
            league,
            actor,
            player=player,
            before={"start_rating": previous},
            after={"start_rating": rating},
        )
        standing.refresh_from_db()
    return standing


def game_preview(league: League, prepared: GameInput) -> list[tuple[float, float]]:
    """The (before, after) ratings a game would give if it were the league's newest.

    Writes nothing; players not yet created (given negative placeholder ids) start from the
    league's start rating.
    """
    known = [pid for pid in prepared.player_ids if pid > 0]
    standings = {
        s.player_id: s for s in Standing.objects.filter(league=league, player_id__in=known)
    }
    system = league.rating_system
    states = []
    for pid in prepared.player_ids:
        standing = standings.get(pid)
        if standing is None:
            start = system.start_state(league.start_rating)
            states.append(PlayerState(rating=start, peak=league.start_rating))
        else:
            rating = system.stored_state(standing.rating, standing.state)
            states.append(
                PlayerState(rating=rating, games=standing.games, peak=standing.peak_rating)
            )
    after = rater(league, known)(prepared, states)
    return [(state.rating, new) for state, new in zip(states, after, strict=True)]


def league_recompute(*, league: League) -> int:
    """Replay a whole league from scratch; returns the number of games rated."""
    with transaction.atomic():
        league = league_lock(league)
        # A change of system may have turned which score wins.
        if writes.result_places(league):
            opponents.rebuild(league)
        return replay(league, since=None)
