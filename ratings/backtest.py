"""Which system predicts a league best: its games replayed in time order under every system that
fits its kind, each game predicted from the ratings as they stood before it.

The replays happen in memory with each system's own rating function (nothing is written);
:mod:`ratings.algorithms.backtest` turns the predictions into figures. The systems tried:

- the league's kind's own systems with the same score direction (Preferans: prefko; scored
  games: the Rayter systems; head to head: classic Elo and FIDE);
- OpenSkill in the same score direction, for every kind;
- for games of more than two players, classic Elo over every pair at the table
  (:class:`ratings.systems.PairwiseElo`), as clubs often rate them.

Every system starts everyone from the same place (the league's own start rating for its own
system; 1000, or 0 for OpenSkill's mean shift, for the others); own start ratings are left out,
so no system knows what the others do not. A pair counts as new while either player has played
fewer than :data:`NEW_GAMES` games before it: the same pairs for every system.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from itertools import combinations, groupby
from operator import itemgetter

from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from ratings.algorithms import backtest
from ratings.engine import GameInput, PlayerState
from ratings.models import Game, League, Player, Result, StoredBacktest
from ratings.systems import PAIRWISE_ELO, SYSTEMS, RatingSystem

# A player's first games say little about their rating, in any system: counted apart.
NEW_GAMES = 10


# A league of at most this many games is replayed when its page is drawn (a few hundred
# milliseconds at most); a bigger one's page shows its stored backtest (StoredBacktest).
LIVE_GAMES = 300
# A bigger league's backtest is computed by staff from its page while the request waits, up to
# this many games (a few seconds); beyond it, by the backtest command (the worker will take it).
REQUEST_GAMES = 5_000


@dataclass(frozen=True)
class SystemResult:
    """One system's backtest on the league."""

    system: RatingSystem
    report: backtest.Report
    own: bool  # the league's own system

    @property
    def label(self) -> str:
        return str(self.system.label)


@dataclass(frozen=True)
class LeagueBacktest:
    league: League
    games: int
    results: list[SystemResult]

    @property
    def conclusive(self) -> bool:
        return bool(self.results) and all(r.report.conclusive for r in self.results)


def systems_for(league: League) -> list[RatingSystem]:
    """The systems a league's games can be rated by, its own first."""
    own = league.rating_system
    direction = own.lower_score_is_better
    fitting = [
        s
        for s in SYSTEMS.values()
        if s.lower_score_is_better == direction and (s.kind == own.kind or s.rates_every_kind)
    ]
    fitting.sort(key=lambda s: s is not own)
    tried: list[RatingSystem] = list(fitting)
    if own.seats[1] > 2:
        tried.append(PAIRWISE_ELO)
    return tried


def _games(league: League) -> list[GameInput]:
    """The league's games in rating order, each with its seats' players and scores (one
    query)."""
    rows = (
        Result.objects.filter(game__league=league)
        .order_by("game__played_at", "game_id", "seat")
        .values_list("game_id", "game__played_at", "game__bula", "player_id", "score")
    )
    games = []
    for _game_id, seats in groupby(rows.iterator(chunk_size=5000), key=itemgetter(0)):
        seats = list(seats)
        games.append(
            GameInput(
                played_at=seats[0][1],
                bula=seats[0][2],
                player_ids=[seat[3] for seat in seats],
                scores=[seat[4] for seat in seats],
            )
        )
    return games


def _predicted(
    league: League,
    system: RatingSystem,
    games: Sequence[GameInput],
    birth_dates: dict[int, date],
) -> list[list[backtest.Pair]]:
    """Each game's pairs as ``system`` would have predicted them, replaying as it goes."""
    own = system is league.rating_system
    start = system.start_state(league.start_rating if own else system.backtest_start)
    rate = system.rater(league, birth_dates)
    places = league.rating_system.places
    sign = -1.0 if system.lower_is_better else 1.0
    states: dict[int, PlayerState] = {}
    predicted = []
    for game in games:
        seated = [
            states.setdefault(pid, PlayerState(rating=start, peak=float(start)))
            for pid in game.player_ids
        ]
        place = places(game.scores)
        pairs = []
        for i, j in combinations(range(len(seated)), 2):
            a, b = seated[i], seated[j]
            outcome = 1.0 if place[i] < place[j] else 0.0 if place[i] > place[j] else 0.5
            pairs.append(
                backtest.Pair(
                    difference=sign * (float(a.rating) - float(b.rating)),
                    chance=system.pair_chance(a.rating, b.rating),
                    outcome=outcome,
                    new=min(a.games, b.games) < NEW_GAMES,
                )
            )
        predicted.append(pairs)
        for state, new in zip(seated, rate(game, seated), strict=True):
            state.advance(new, game.played_at)
    return predicted


def league_backtest(league: League) -> LeagueBacktest:
    """The league's backtest under every system that fits it (two or three queries)."""
    games = _games(league)
    tried = systems_for(league)
    birth_dates: dict[int, date] = {}
    if any(system.uses_birth_dates for system in tried):
        birth_dates = dict(
            Player.objects.filter(standings__league=league, birth_date__isnull=False).values_list(
                "pk", "birth_date"
            )
        )
    results = [
        SystemResult(
            system=system,
            report=backtest.evaluate(_predicted(league, system, games, birth_dates)),
            own=system is league.rating_system,
        )
        for system in tried
    ]
    return LeagueBacktest(league=league, games=len(games), results=results)


def _scores_dict(scores: backtest.Scores) -> dict:
    return {
        "games": scores.games,
        "pairs": scores.pairs,
        "decided_pairs": scores.decided,
        "accuracy": scores.accuracy,
        "log_loss": scores.log_loss,
        "brier": scores.brier,
        "calibration": [
            {
                "from": bucket.low,
                "to": bucket.high,
                "pairs": bucket.pairs,
                "predicted": bucket.predicted,
                "observed": bucket.observed,
            }
            for bucket in scores.calibration
        ],
    }


def as_json(result: LeagueBacktest) -> dict:
    """The backtest as plain data (the command's ``--json``)."""
    return {
        "league": result.league.slug,
        "games": result.games,
        "conclusive": result.conclusive,
        "new_player_games": NEW_GAMES,
        "systems": [
            {
                "system": str(r.label),
                "code": str(r.system.code),
                "own": r.own,
                "fitted": r.report.fitted,
                "chances": "fitted logistic" if r.report.fitted else "own model",
                "all": _scores_dict(r.report.all),
                "established": _scores_dict(r.report.established),
                "new": _scores_dict(r.report.new),
            }
            for r in result.results
        ],
    }


_COUNTS = ("games", "pairs", "decided_pairs")
_FIGURES = ("accuracy", "log_loss", "brier")
_BUCKET = ("from", "to", "pairs", "predicted", "observed")


def figures_problem(figures: object) -> str | None:
    """What keeps stored figures from being :func:`as_json`'s, or None: the page reads a
    stored backtest as it is, so a restored one must have the shape the page reads."""

    def number(value: object, *, empty: bool = True) -> bool:
        return (value is None and empty) or type(value) in (int, float)

    def scores(value: object) -> bool:
        return (
            type(value) is dict
            and all(type(value.get(key)) is int for key in _COUNTS)
            and all(number(value.get(key)) for key in _FIGURES)
            and type(value.get("calibration")) is list
            and all(
                type(bucket) is dict and all(number(bucket.get(key)) for key in _BUCKET)
                for bucket in value["calibration"]
            )
        )

    if not (
        type(figures) is dict
        and type(figures.get("games")) is int
        and type(figures.get("conclusive")) is bool
        and type(figures.get("systems")) is list
    ):
        return "its figures lack the games, the conclusion or the systems"
    codes = {*SYSTEMS, PAIRWISE_ELO.code}
    for system in figures["systems"]:
        if type(system) is not dict or system.get("code") not in codes:
            return "its figures name a system the club does not know"
        if not (
            type(system.get("own")) is bool
            and type(system.get("fitted")) is bool
            and all(scores(system.get(group)) for group in ("all", "established", "new"))
        ):
            return f"the figures of {system['code']} are not what the backtest writes"
    return None


def as_text(result: LeagueBacktest) -> str:
    """The backtest as a table: a line per system, established pairs, then all pairs."""

    def figure(value: float | None) -> str:
        return "-" if value is None else f"{value:.3f}"

    lines = [
        f"{result.league.name}: {result.games} games"
        + ("" if result.conclusive else " (too few to tell the systems apart)"),
        f"{'system':<45} {'pairs':>6} {'accuracy':>8} {'log loss':>8} {'Brier':>6}"
        f" | {'all pairs':>9} {'accuracy':>8} {'log loss':>8} {'Brier':>6}",
    ]
    for r in result.results:
        e, a = r.report.established, r.report.all
        name = str(r.label) + (" *" if r.own else "")
        lines.append(
            f"{name:<45} {e.pairs:>6} {figure(e.accuracy):>8} {figure(e.log_loss):>8}"
            f" {figure(e.brier):>6} | {a.pairs:>9} {figure(a.accuracy):>8}"
            f" {figure(a.log_loss):>8} {figure(a.brier):>6}"
        )
    lines.append(
        f"* the league's own system; established pairs: both players with {NEW_GAMES} games "
        "or more before the game."
    )
    return "\n".join(lines) + "\n"


def label_of(code: str) -> str:
    """A tried system's name, in the reader's language, from its code in the stored figures."""
    return PAIRWISE_ELO.label if code == PAIRWISE_ELO.code else SYSTEMS[code].label


def backtest_stored(*, league: League, result: LeagueBacktest) -> StoredBacktest:
    """Store a backtest of ``league`` (:func:`league_backtest`'s) for its page (the
    ``backtest`` command)."""
    stored, _created = StoredBacktest.objects.update_or_create(
        league=league,
        defaults={
            "computed_at": timezone.now(),
            "games": result.games,
            "figures": as_json(result),
        },
    )
    return stored


@dataclass(frozen=True)
class ShownBacktest:
    """What the page shows: the figures, live or stored, and how old they are."""

    figures: dict | None  # as_json's; None: a big league never backtested
    computed_at: object  # a datetime for stored figures, None for figures replayed now
    games_now: int

    @property
    def games_since(self) -> int:
        # Games deleted since can make it negative: then nothing new is missing.
        return max(0, self.games_now - (self.figures or {}).get("games", 0))

    @property
    def systems(self) -> list[dict]:
        if self.figures is None:
            return []
        return [{**system, "label": label_of(system["code"])} for system in self.figures["systems"]]


def league_for_page(slug: str) -> League | None:
    """The league with its game count and stored backtest (one query)."""
    count = (
        Game.objects.filter(league=OuterRef("pk"))
        .order_by()
        .values("league")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return (
        League.objects.select_related("stored_backtest")
        .annotate(game_count=Coalesce(Subquery(count, output_field=IntegerField()), 0))
        .filter(slug=slug)
        .first()
    )


def shown_backtest(league: League) -> ShownBacktest:
    """The page's backtest of a league from :func:`league_for_page`: replayed now if the
    league is small (one or two queries more), else its stored figures (no query): a page view
    never replays a big league."""
    if league.game_count <= LIVE_GAMES:
        return ShownBacktest(
            figures=as_json(league_backtest(league)), computed_at=None, games_now=league.game_count
        )
    stored = getattr(league, "stored_backtest", None)
    if stored is None:
        return ShownBacktest(figures=None, computed_at=None, games_now=league.game_count)
    return ShownBacktest(
        figures=stored.figures, computed_at=stored.computed_at, games_now=league.game_count
    )


def runs_in_request(league: League) -> bool:
    """Whether staff may compute ``league``'s backtest from its page (:func:`league_for_page`'s
    league): one small enough to replay while the request waits."""
    return league.game_count <= REQUEST_GAMES
