"""The rating engine: the one place that writes ratings.

Every service here runs in one transaction with the league locked, so two tables submitting at
once, or an admin correcting an old game while a new one comes in, queue up per league instead of
interleaving. Games are rated in (played_at, id) order.

- Recording a game that is the newest of its league rates just that game from the players'
  standings: its cost does not depend on the league's history.
- Anything else (a game dated before the latest, an edit, a deletion, a changed start rating)
  replays the league from the earliest affected game forward; earlier games are untouched, and so
  are other leagues.
"""

from __future__ import annotations

import gc
import math
import uuid
from collections.abc import Iterable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from itertools import chain
from operator import attrgetter

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import Count, F, Max, Q, Window
from django.db.models.functions import RowNumber
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings.algorithms import elo, preferans, rayter
from ratings.models import (
    AuditAction,
    AuditEntry,
    Game,
    Kind,
    League,
    Player,
    Result,
    Speed,
    Standing,
    System,
)

FIDE_EVER_2400 = 2400
OrderKey = tuple[datetime, int]
# Rows per INSERT statement in bulk writes (fewer when the database takes fewer parameters).
MAX_ROWS_PER_INSERT = 500


@dataclass(frozen=True)
class Entry:
    """One seat of a game as entered: the player and either the paper or the score.

    Preferans entries carry the paper (left, middle, right) and the engine computes the score;
    scored games carry the points; head-to-head games carry 1, 0.5 or 0.
    """

    player_id: int
    score: float | None = None
    paper: tuple[int, int, int] | None = None


@dataclass
class PlayerState:
    rating: float
    games: int = 0
    peak: float = -math.inf
    last_change: float | None = None
    last_played_at: datetime | None = None


@dataclass
class GameInput:
    """A game ready to rate: scores in seat order, whatever the system."""

    played_at: datetime
    bula: int | None
    player_ids: list[int]
    scores: list[float]
    papers: list[tuple[int, int, int] | None] = field(default_factory=list)
    ended_early: bool = False


# Validation -------------------------------------------------------------------------------------


def prepare_game(
    league: League,
    *,
    played_at: datetime,
    entries: Sequence[Entry],
    bula: int | None = None,
    ended_early: bool = False,
) -> GameInput:
    """Check a game against its league's rules and compute its scores.

    Raises ValidationError naming what is wrong; the forms check the same things field by field,
    this is the backstop every writer (forms, admin, commands, imports) goes through.
    """
    low, high = league.seats
    if not low <= len(entries) <= high:
        if low == high:
            message = _("A game of this league has exactly %(n)d players, not %(got)d.")
        else:
            message = _("A game of this league has %(low)d to %(high)d players, not %(got)d.")
        raise ValidationError(message % {"n": low, "low": low, "high": high, "got": len(entries)})
    player_ids = [entry.player_id for entry in entries]
    if len(set(player_ids)) != len(player_ids):
        raise ValidationError(_("A player can take only one seat in a game."))
    if played_at is None:
        raise ValidationError(_("When the game was played is missing."))

    kind = league.kind
    papers: list[tuple[int, int, int] | None] = []
    if kind == Kind.PREFERANS:
        if bula is None or isinstance(bula, bool) or not isinstance(bula, int) or bula <= 0:
            raise ValidationError(_("The starting bula must be a whole number above zero."))
        for entry in entries:
            if entry.paper is None:
                raise ValidationError(_("Every Preferans seat needs its paper."))
            left, middle, right = entry.paper
            if left < 0 or right < 0:
                raise ValidationError(_("The side columns of a paper are never negative."))
            papers.append((left, middle, right))
        middle_sum = sum(paper[1] for paper in papers)
        if middle_sum != 0 and not ended_early:
            raise ValidationError(
                _(
                    "The middle column sums to %(sum)d, not 0: the game ends when the bulas add "
                    "up to zero. Mark the game as ended early if it was stopped before that."
                )
                % {"sum": middle_sum}
            )
        scores = [float(s) for s in preferans.final_scores(papers)]
    else:
        if bula is not None:
            raise ValidationError(_("Only Preferans games have a bula."))
        scores = []
        for entry in entries:
            score = entry.score
            if score is None or isinstance(score, bool) or not math.isfinite(score):
                raise ValidationError(_("Every seat needs a score that is a finite number."))
            scores.append(float(score))
        if kind == Kind.DUEL and sorted(scores) not in ([0.0, 1.0], [0.5, 0.5]):
            raise ValidationError(_("A head-to-head game is a win and a loss, or a draw."))
        papers = [None] * len(entries)
    return GameInput(
        played_at=played_at,
        bula=bula,
        player_ids=player_ids,
        scores=scores,
        papers=papers,
        ended_early=ended_early,
    )


# Rating one game --------------------------------------------------------------------------------


class Rater:
    """Rates one game of a league from the players' states before it."""

    def __init__(self, league: League, birth_dates: dict[int, object] | None = None):
        self.league = league
        self.system = league.system
        self.kind = league.kind
        self.birth_dates = birth_dates or {}
        if self.kind == Kind.SCORED:
            self.score_type = rayter.normalize_score_type(league.rayter_score_type)
            self.k = rayter.default_k(self.score_type)

    def new_ratings(self, game: GameInput, states: Sequence[PlayerState]) -> list[float]:
        ratings = [state.rating for state in states]
        if self.system == System.PREFKO:
            ints = [int(r) for r in ratings]
            changes = preferans.rating_changes(ints, [int(s) for s in game.scores], game.bula)
            return [float(r + c) for r, c in zip(ints, changes, strict=True)]
        if self.kind == Kind.SCORED:
            # Checked by prepare_game on the way in: finite scores, 2 to 50 of them.
            changes = rayter.rate_valid_game(game.scores, ratings, self.score_type, self.k)
            return [r + c for r, c in zip(ratings, changes, strict=True)]
        result = game.scores[0]
        if self.system == System.ELO:
            return list(elo.classic(ratings[0], ratings[1], result, k=self.league.elo_k))
        ages = [self._age(player_id, game.played_at) for player_id in game.player_ids]
        new_a, new_b = elo.fide(
            int(ratings[0]),
            int(ratings[1]),
            result,
            games_a=states[0].games,
            games_b=states[1].games,
            age_a=ages[0],
            age_b=ages[1],
            ever_2400_a=states[0].peak >= FIDE_EVER_2400,
            ever_2400_b=states[1].peak >= FIDE_EVER_2400,
            blitz=self.league.speed == Speed.BLITZ,
            rapid=self.league.speed == Speed.RAPID,
        )
        return [float(new_a), float(new_b)]

    def _age(self, player_id: int, played_at: datetime) -> int | None:
        born = self.birth_dates.get(player_id)
        if born is None:
            return None
        day = played_at.date()
        return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def _rater(league: League, player_ids: Iterable[int] | None = None) -> Rater:
    if league.system != System.FIDE:
        return Rater(league)
    players = Player.objects.filter(birth_date__isnull=False)
    if player_ids is not None:
        players = players.filter(pk__in=list(player_ids))
    return Rater(league, dict(players.values_list("pk", "birth_date")))


def _advance(state: PlayerState, before: float, after: float, played_at: datetime) -> None:
    state.rating = after
    state.games += 1
    state.peak = max(state.peak, after)
    state.last_change = after - before
    state.last_played_at = played_at


# Services ---------------------------------------------------------------------------------------


def _lock(league: League) -> League:
    """Lock the league row until the transaction ends: one writer per league at a time."""
    return League.objects.select_for_update().get(pk=league.pk)


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
    the game the first one recorded instead of recording it twice.
    """
    prepared = prepare_game(
        league, played_at=played_at, entries=entries, bula=bula, ended_early=ended_early
    )
    with transaction.atomic():
        league = _lock(league)
        if submission_key is not None:
            existing = Game.objects.filter(submission_key=submission_key).first()
            if existing is not None:
                return existing
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
            _rate_newest(league, game, prepared)
        else:
            _insert_results(_result_rows(game.pk, prepared, None))
            _replay(league, since=game.order_key)
        _audit(AuditAction.CREATE, league, entered_by, game=game, after=game_snapshot(game))
    return game


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
        league = _lock(game.league)
        prepared = prepare_game(
            league, played_at=played_at, entries=entries, bula=bula, ended_early=ended_early
        )
        game = Game.objects.select_for_update().get(pk=game.pk)
        before = game_snapshot(game)
        old_key = game.order_key
        old_players = set(game.results.values_list("player_id", flat=True))
        game.played_at = played_at
        game.bula = bula
        game.ended_early = ended_early
        if note is not None:
            game.note = note
        game.save()
        game.results.all().delete()
        _insert_results(_result_rows(game.pk, prepared, None))
        _replay(league, since=min(old_key, game.order_key), touched=old_players)
        _audit(
            AuditAction.UPDATE, league, actor, game=game, before=before, after=game_snapshot(game)
        )
    return game


def game_delete(*, game: Game, actor=None) -> None:
    """Delete a game and re-rate its league from where it was; the audit trail keeps a copy."""
    with transaction.atomic():
        league = _lock(game.league)
        game = Game.objects.get(pk=game.pk)
        before = game_snapshot(game)
        key = game.order_key
        players = set(game.results.values_list("player_id", flat=True))
        game.delete()
        _replay(league, since=key, touched=players)
        _audit(AuditAction.DELETE, league, actor, game=game, game_id=before["id"], before=before)


def game_restore(*, entry: AuditEntry, actor=None) -> Game:
    """Bring a deleted game back, under its old id, from its audit entry; re-rate the league."""
    if entry.action != AuditAction.DELETE or not entry.before:
        raise ValidationError(_("Only a deleted game can be restored."))
    snapshot = entry.before
    with transaction.atomic():
        league = _lock(entry.league)
        if Game.objects.filter(pk=snapshot["id"]).exists():
            raise ValidationError(_("That game has already been restored."))
        player_ids = {row["player_id"] for row in snapshot["results"]}
        if Player.objects.filter(pk__in=player_ids).count() != len(player_ids):
            raise ValidationError(_("A player of that game no longer exists."))
        played_at = datetime.fromisoformat(snapshot["played_at"])
        entries = [
            Entry(
                player_id=row["player_id"],
                score=row["score"],
                paper=tuple(row["paper"]) if row["paper"] else None,
            )
            for row in sorted(snapshot["results"], key=lambda row: row["seat"])
        ]
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
        _insert_results(_result_rows(game.pk, prepared, None))
        _replay(league, since=game.order_key)
        _audit(AuditAction.RESTORE, league, actor, game=game, after=game_snapshot(game))
    return game


def standing_set_start_rating(
    *, league: League, player: Player, rating: float | None, actor=None
) -> Standing:
    """Give a player their own start rating in a league (None: the league's) and re-rate."""
    if rating is not None and not math.isfinite(rating):
        raise ValidationError(_("The start rating must be a finite number."))
    if rating is not None and league.integer_ratings and rating != int(rating):
        raise ValidationError(_("This league's ratings are whole numbers."))
    with transaction.atomic():
        league = _lock(league)
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
            _save_states(league, _states_before(league, None, {player.pk}))
        else:
            _replay(league, since=first.order_key, touched={player.pk})
        _audit(
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
    states = []
    for pid in prepared.player_ids:
        standing = standings.get(pid)
        if standing is None:
            states.append(PlayerState(rating=league.start_rating, peak=league.start_rating))
        else:
            states.append(
                PlayerState(rating=standing.rating, games=standing.games, peak=standing.peak_rating)
            )
    after = _rater(league, known).new_ratings(prepared, states)
    return [(state.rating, new) for state, new in zip(states, after, strict=True)]


@dataclass(frozen=True)
class ImportedGame:
    """A game from a file: when, and (player name, score) in seat order."""

    played_at: datetime
    scores: list[tuple[str, float]]
    line: int | None = None


@dataclass
class ImportSummary:
    games: int = 0
    skipped: list[ImportedGame] = field(default_factory=list)
    players: int = 0
    new_players: list[str] = field(default_factory=list)
    replaced: int = 0


def games_import(
    *,
    league: League,
    games: Sequence[ImportedGame],
    replace: bool = False,
    actor=None,
) -> ImportSummary:
    """Add many games to a league at once (a rayter file), all or nothing.

    Players are found by name (case-insensitive) or created. Without ``replace`` a game already in
    the league at the same time with the same players and scores is skipped, so importing a file
    twice changes nothing; with ``replace`` the league's games are deleted first. Games that all
    come after the league's latest are rated in memory and written once; otherwise they are
    written and the league is replayed from the earliest of them.
    """
    summary = ImportSummary()
    with transaction.atomic():
        league = _lock(league)
        if replace:
            summary.replaced = Game.objects.filter(league=league).count()
            Result.objects.filter(game__league=league).delete()
            Game.objects.filter(league=league).delete()
            _save_states(league, _states_before(league, None, _league_player_ids(league)))

        names = {name for game in games for name, _score in game.scores}
        players = Player.objects.by_names(names)
        for name in sorted(names, key=str.lower):
            if name.lower() not in players:
                players[name.lower()] = Player.objects.create_named(name)
                summary.new_players.append(name)
        summary.players = len(names)

        existing = _game_fingerprints(league, games) if not replace else set()
        ids = {name: players[name.lower()].pk for name in names}
        low, high = league.seats
        fresh: list[GameInput] = []
        for game in games:
            # The checks of prepare_game, spelled out for a hundred thousand scored games.
            player_ids = [ids[name] for name, _score in game.scores]
            scores = [float(score) for _name, score in game.scores]
            if not low <= len(player_ids) <= high or len(set(player_ids)) != len(player_ids):
                raise ValidationError(
                    _("Line %(line)s: a game needs %(low)d to %(high)d different players.")
                    % {"line": game.line, "low": low, "high": high}
                )
            if not all(math.isfinite(score) for score in scores):
                raise ValidationError(
                    _("Line %(line)s: a score is not a finite number.") % {"line": game.line}
                )
            prepared = GameInput(
                played_at=game.played_at, bula=None, player_ids=player_ids, scores=scores
            )
            if existing and _fingerprint(game.played_at, player_ids, scores) in existing:
                summary.skipped.append(game)
                continue
            fresh.append(prepared)
        if not fresh:
            return summary

        summary.games = games_record_many(league=league, games=fresh, actor=actor)
        _audit(
            AuditAction.CREATE,
            league,
            actor,
            after={"imported_games": summary.games, "replaced": summary.replaced},
        )
    return summary


def games_record_many(*, league: League, games: Sequence[GameInput], actor=None) -> int:
    """Record many prepared games (see :func:`prepare_game`) in one transaction.

    Games that all come after the league's latest are rated in memory and each result written
    once, with no replay; otherwise they are written and the league is replayed from the earliest
    of them. Games at the same time keep the order given. Returns the number of games recorded.
    """
    if not games:
        return 0
    games = sorted(games, key=attrgetter("played_at"))
    with transaction.atomic(), collection_paused():
        league = _lock(league)
        latest = Game.objects.filter(league=league).aggregate(latest=Max("played_at"))["latest"]
        game_ids = _insert_games(league, games, actor)
        if latest is not None and games[0].played_at < latest:
            rows = []
            for game_id, prepared in zip(game_ids, games, strict=True):
                rows += _result_rows(game_id, prepared, None)
            _insert_results(rows)
            _replay(league, since=(games[0].played_at, game_ids[0]))
            return len(games)
        involved = {pid for prepared in games for pid in prepared.player_ids}
        states = _current_states(league, involved)
        rater = _rater(league, involved)
        rows = []
        for game_id, prepared in zip(game_ids, games, strict=True):
            game_states = [states[pid] for pid in prepared.player_ids]
            after = rater.new_ratings(prepared, game_states)
            rows += _result_rows(
                game_id, prepared, [(s.rating, a) for s, a in zip(game_states, after, strict=True)]
            )
            for state, new in zip(game_states, after, strict=True):
                _advance(state, state.rating, new, prepared.played_at)
        _insert_results(rows)
        _save_states(league, states, create=False)
    return len(games)


@contextmanager
def collection_paused():
    """Pause Python's cyclic garbage collector for a bulk job.

    A hundred thousand games make millions of small objects, none of them garbage until the job
    ends; the collector would walk them all again and again (a third of an import's time).
    Reference counting still frees everything as usual.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _league_player_ids(league: League) -> set[int]:
    return set(Standing.objects.filter(league=league).values_list("player_id", flat=True))


def _current_states(league: League, player_ids: set[int]) -> dict[int, PlayerState]:
    standings = _standings_for(league, sorted(player_ids))
    return {
        pid: PlayerState(
            rating=s.rating,
            games=s.games,
            peak=s.peak_rating,
            last_change=s.last_change,
            last_played_at=s.last_played_at,
        )
        for pid, s in standings.items()
    }


def _fingerprint(played_at: datetime, player_ids, scores) -> tuple:
    return (played_at, tuple(sorted(zip(player_ids, scores, strict=True))))


def _game_fingerprints(league: League, games: Sequence[ImportedGame]) -> set[tuple]:
    """Fingerprints of the league's games in the time span of ``games``."""
    if not games:
        return set()
    start = min(game.played_at for game in games)
    end = max(game.played_at for game in games)
    rows = (
        Result.objects.filter(
            game__league=league, game__played_at__gte=start, game__played_at__lte=end
        )
        .order_by("game_id")
        .values_list("game_id", "game__played_at", "player_id", "score")
    )
    by_game: dict[int, tuple[datetime, list, list]] = {}
    for game_id, played_at, player_id, score in rows:
        entry = by_game.setdefault(game_id, (played_at, [], []))
        entry[1].append(player_id)
        entry[2].append(score)
    return {_fingerprint(*entry) for entry in by_game.values()}


def _insert_games(league: League, games: Sequence[GameInput], actor) -> list[int]:
    """Insert games in a few multi-row statements; returns their ids in the order given.

    Model instances and bulk_create cost more than the database's own work at this size
    (100,000 games of a file). The ids are read back in insertion order: the league is locked,
    so no one else adds games to it meanwhile.
    """
    user = actor if actor is not None and getattr(actor, "is_authenticated", False) else None
    adapt = connection.ops.adapt_datetimefield_value
    now = adapt(timezone.now())
    table = connection.ops.quote_name(Game._meta.db_table)
    columns = ["league_id", "played_at", "bula", "ended_early", "note", "entered_by_id"]
    columns += ["created_at", "updated_at"]
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT MAX(id) FROM {table} WHERE league_id = %s", [league.pk])
        (highest,) = cursor.fetchone()
        _insert(
            Game,
            columns,
            [
                (
                    league.pk,
                    adapt(prepared.played_at),
                    prepared.bula,
                    prepared.ended_early,
                    "",
                    user.pk if user else None,
                    now,
                    now,
                )
                for prepared in games
            ],
        )
        cursor.execute(
            f"SELECT id FROM {table} WHERE league_id = %s AND id > %s ORDER BY id",
            [league.pk, highest or 0],
        )
        game_ids = [row[0] for row in cursor.fetchall()]
    if len(game_ids) != len(games):
        raise RuntimeError("games inserted and read back differ: was the league not locked?")
    return game_ids


# A result row's columns: the paper's three last, left out (NULL) for games without one, which
# spares a scored import a third of the values it would send.
RESULT_COLUMNS = [
    *("game_id", "player_id", "seat", "score", "rating_before", "rating_after"),
    *("left", "middle", "right"),
]


def _result_rows(
    game_id: int, prepared: GameInput, ratings: Sequence[tuple[float, float]] | None
) -> list[tuple]:
    """A game's result rows (:data:`RESULT_COLUMNS`, the paper's only for Preferans); without
    ``ratings`` the ratings are placeholders a replay fills in."""
    seats = len(prepared.player_ids)
    ratings = ratings or [(0.0, 0.0)] * seats
    papers = prepared.papers if any(prepared.papers) else [()] * seats
    return [
        (game_id, pid, seat, score, before, after, *paper)
        for seat, (pid, score, (before, after), paper) in enumerate(
            zip(prepared.player_ids, prepared.scores, ratings, papers, strict=True)
        )
    ]


def _insert_results(rows: list[tuple]) -> None:
    """Insert result rows (see :func:`_result_rows`), all with papers or all without."""
    if rows:
        _insert(Result, RESULT_COLUMNS[: len(rows[0])], rows)


def _insert(model, columns: list[str], rows: Sequence[tuple]) -> None:
    """INSERT rows of ``columns``, as many rows per statement as the database takes.

    A statement per row costs the database a statement run per row: about 110 rows a statement
    (SQLite's 999 parameters) cut an import's writes by a fifth there, and 500 divide the round
    trips to PostgreSQL by 500.
    """
    if not rows:
        return
    quote = connection.ops.quote_name
    fields = [model._meta.get_field(column) for column in columns]
    batch = max(1, min(MAX_ROWS_PER_INSERT, connection.ops.bulk_batch_size(fields, rows)))
    head = f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(map(quote, columns))}) VALUES "
    row = f"({', '.join(['%s'] * len(columns))})"
    whole = len(rows) - len(rows) % batch
    with connection.cursor() as cursor:
        if whole:
            cursor.executemany(
                head + ", ".join([row] * batch),
                [list(chain.from_iterable(rows[at : at + batch])) for at in range(0, whole, batch)],
            )
        if whole < len(rows):
            rest = rows[whole:]
            cursor.execute(head + ", ".join([row] * len(rest)), list(chain.from_iterable(rest)))


def league_recompute(*, league: League) -> int:
    """Replay a whole league from scratch; returns the number of games rated."""
    with transaction.atomic():
        league = _lock(league)
        return _replay(league, since=None)


def game_snapshot(game: Game) -> dict:
    """A game as plain data, for the audit trail and for restoring a deleted game."""
    results = game.results.order_by("seat").values_list(
        "player_id", "player__name", "seat", "left", "middle", "right", "score"
    )
    return {
        "id": game.pk,
        "played_at": game.played_at.isoformat(),
        "bula": game.bula,
        "ended_early": game.ended_early,
        "note": game.note,
        "entered_by_id": game.entered_by_id,
        "results": [
            {
                "player_id": player_id,
                "player": name,
                "seat": seat,
                "paper": None if middle is None else [left, middle, right],
                "score": score,
            }
            for player_id, name, seat, left, middle, right, score in results
        ],
    }


def _audit(action, league, actor, *, game=None, game_id=None, player=None, before=None, after=None):
    user = actor if actor is not None and getattr(actor, "is_authenticated", False) else None
    AuditEntry.objects.create(
        action=action,
        league=league,
        user=user,
        game_id=game_id if game_id is not None else (game.pk if game else None),
        player=player,
        before=before,
        after=after,
    )


# Internals --------------------------------------------------------------------------------------


def _standings_for(league: League, player_ids: Sequence[int]) -> dict[int, Standing]:
    standings = {
        s.player_id: s for s in Standing.objects.filter(league=league, player_id__in=player_ids)
    }
    missing = [pid for pid in player_ids if pid not in standings]
    if missing:
        created = Standing.objects.bulk_create(
            [
                Standing(
                    league=league,
                    player_id=pid,
                    rating=league.start_rating,
                    peak_rating=league.start_rating,
                )
                for pid in missing
            ]
        )
        standings.update({s.player_id: s for s in created})
    return standings


def _rate_newest(league: League, game: Game, prepared: GameInput) -> None:
    states = _current_states(league, set(prepared.player_ids))
    game_states = [states[pid] for pid in prepared.player_ids]
    after = _rater(league, prepared.player_ids).new_ratings(prepared, game_states)
    ratings = [(s.rating, a) for s, a in zip(game_states, after, strict=True)]
    _insert_results(_result_rows(game.pk, prepared, ratings))
    for state, new in zip(game_states, after, strict=True):
        _advance(state, state.rating, new, prepared.played_at)
    _save_states(league, states, create=False)


def _after(since: OrderKey):
    played_at, game_id = since
    return Q(played_at__gt=played_at) | Q(played_at=played_at, id__gte=game_id)


def _before_result(since: OrderKey):
    played_at, game_id = since
    return Q(game__played_at__lt=played_at) | Q(game__played_at=played_at, game_id__lt=game_id)


def _states_before(
    league: League, since: OrderKey | None, player_ids: set[int]
) -> dict[int, PlayerState]:
    """Each player's state just before ``since``: from their last earlier result, or the start."""
    standings = list(
        Standing.objects.filter(league=league, player_id__in=player_ids).values_list(
            "player_id", "start_rating"
        )
    )
    states = {
        pid: PlayerState(
            rating=league.start_rating if own is None else own,
            peak=league.start_rating if own is None else own,
        )
        for pid, own in standings
    }
    for pid in player_ids - states.keys():
        states[pid] = PlayerState(rating=league.start_rating, peak=league.start_rating)
    if since is None:
        return states
    # One pass over the earlier results: each player's count, peak and last result, by window
    # functions (a correlated subquery per player costs a scan of the league per player).
    by_player = {"partition_by": [F("player_id")]}
    newest_first = [F("game__played_at").desc(), F("game_id").desc()]
    last_rows = (
        Result.objects.filter(game__league=league, player_id__in=player_ids)
        .filter(_before_result(since))
        .annotate(
            position=Window(RowNumber(), order_by=newest_first, **by_player),
            games=Window(Count("id"), **by_player),
            peak=Window(Max("rating_after"), **by_player),
        )
        .filter(position=1)
        .values_list(
            "player_id", "rating_before", "rating_after", "game__played_at", "games", "peak"
        )
    )
    for pid, before, after, played_at, games, peak in last_rows:
        state = states[pid]
        state.rating = after
        state.last_change = after - before
        state.last_played_at = played_at
        state.games = games
        state.peak = max(state.peak, peak)
    return states


@collection_paused()
def _replay(league: League, since: OrderKey | None, touched: Iterable[int] = ()) -> int:
    """Re-rate the league's games from ``since`` on (all of them when None).

    ``touched`` names players whose standing must be refreshed even if they play no game from
    ``since`` on (e.g. the players of a deleted game). Returns the number of games rated.
    """
    games = Game.objects.filter(league=league)
    if since is not None:
        games = games.filter(_after(since))
    results = Result.objects.filter(game__in=games.values("id"))

    player_ids = set(results.values_list("player_id", flat=True).distinct()) | set(touched)
    if since is None:
        player_ids |= set(
            Standing.objects.filter(league=league).values_list("player_id", flat=True)
        )
    states = _states_before(league, since, player_ids)
    rater = _rater(league, player_ids)

    # Two cursors walk the same (played_at, id) order: the games, and their results by seat.
    result_rows = results.order_by("game__played_at", "game_id", "seat").values_list(
        "game_id", "id", "player_id", "score", "rating_before", "rating_after"
    )
    pending = iter(result_rows.iterator(chunk_size=20_000))
    row = next(pending, None)
    updates = []
    game_count = 0
    for game_id, played_at, bula in (
        games.chronological().values_list("id", "played_at", "bula").iterator(chunk_size=20_000)
    ):
        seats = []
        while row is not None and row[0] == game_id:
            seats.append(row)
            row = next(pending, None)
        game_states = [states[seat[2]] for seat in seats]
        prepared = GameInput(
            played_at=played_at,
            bula=bula,
            player_ids=[seat[2] for seat in seats],
            scores=[seat[3] for seat in seats],
        )
        for seat, state, new in zip(
            seats, game_states, rater.new_ratings(prepared, game_states), strict=True
        ):
            before = state.rating
            if seat[4] != before or seat[5] != new:
                updates.append((before, new, seat[1]))
            _advance(state, before, new, played_at)
        game_count += 1

    _executemany(Result, ["rating_before", "rating_after"], updates)
    _save_states(league, states)
    return game_count


def _save_states(league: League, states: dict[int, PlayerState], create: bool = True) -> None:
    """Write players' states to their standings (creating missing rows unless told they exist)."""
    if create:
        Standing.objects.bulk_create(
            [
                Standing(league=league, player_id=pid, rating=s.rating, peak_rating=s.peak)
                for pid, s in states.items()
            ],
            ignore_conflicts=True,
        )
    adapt = connection.ops.adapt_datetimefield_value
    _executemany(
        Standing,
        ["rating", "games", "peak_rating", "last_change", "last_played_at"],
        [
            (s.rating, s.games, s.peak, s.last_change, adapt(s.last_played_at), league.pk, pid)
            for pid, s in states.items()
        ],
        where=("league_id", "player_id"),
    )


def _executemany(model, columns: list[str], rows: list[tuple], where=("id",)) -> None:
    """UPDATE many rows with one prepared statement: far cheaper than bulk_update's CASE."""
    if not rows:
        return
    quote = connection.ops.quote_name
    sets = ", ".join(f"{quote(column)} = %s" for column in columns)
    conditions = " AND ".join(f"{quote(column)} = %s" for column in where)
    sql = f"UPDATE {quote(model._meta.db_table)} SET {sets} WHERE {conditions}"
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)
