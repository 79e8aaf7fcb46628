"""How well a rating predicted a league's own games: the backtest's metrics, pure Python.

The caller replays a league in time order under a rating system and, before each game, turns
the ratings as they stood into one :class:`Pair` per two players at the table (in seat order):
the rating difference (positive when the first of the two is rated better), the system's own
chance that the first finishes ahead (None for a system without a model of its own), what
happened, and whether either player was new. :func:`evaluate` scores those predictions.

Nothing here sees the future. Each game's pairs are predicted from ratings before it (the
caller's job), and a system without its own chances gets them from a logistic curve on the
rating difference, ``p = 1 / (1 + exp(-slope * difference))``, whose slope is fitted only on
the pairs of games before the one predicted (:func:`fit_slope`); before any decided pair the
chance is 1/2.

The metrics, over the pairs of players (a game of n players has n(n-1)/2):

- accuracy: of the pairs where one finished ahead, the share where that one was the better
  rated, as the leaderboard has them (a pair rated equal counts a half);
- log loss: the mean of -ln(p) for what happened (lower is better; 0.693 is a coin's);
- Brier score: the mean of (p - outcome)^2 (lower is better; 0.25 is a coin's);
- calibration: the pairs by predicted chance in tenths, each tenth's mean prediction against
  how often the first of the pair really finished ahead.

A shared place is an outcome of 1/2: it counts in log loss, Brier and calibration, not in
accuracy.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = [
    "MIN_GAMES",
    "MIN_PAIRS",
    "Bucket",
    "Pair",
    "Report",
    "Scores",
    "evaluate",
    "fit_slope",
    "logistic",
    "predictions",
]

# Fewer games or pairs than this and the figures cannot tell systems apart: the report says so.
MIN_GAMES = 30
MIN_PAIRS = 100
# Chances are kept away from 0 and 1 so one confident miss costs a finite log loss.
EPSILON = 1e-9
# Refit the logistic before each of the first games, then whenever the earlier pairs have grown
# by this fraction: a refit reads every earlier pair, and a big league has a million of them.
REFIT_GROWTH = 0.1
REFIT_ALWAYS_BELOW = 200
# The curve is fitted on at most this many of the latest earlier pairs: a slope steady to three
# digits, at a cost per refit bounded whatever the league's size (docs/backtest.md).
FIT_WINDOW = 50_000


@dataclass(frozen=True, slots=True)
class Pair:
    """Two players of one game, as predicted before it."""

    difference: float  # the first's rating minus the second's, positive when the first is better
    chance: float | None  # the system's own chance that the first finishes ahead, if it has one
    outcome: float  # 1: the first finished ahead, 0: behind, 1/2: a shared place
    new: bool = False  # either player had few games before this one


@dataclass(frozen=True, slots=True)
class Bucket:
    """A tenth of the calibration chart."""

    low: float
    high: float
    pairs: int
    predicted: float | None
    observed: float | None


@dataclass(slots=True)
class Scores:
    """The metrics over one group of pairs, with what they rest on."""

    games: int = 0
    pairs: int = 0
    decided: int = 0
    accuracy: float | None = None
    log_loss: float | None = None
    brier: float | None = None
    calibration: list[Bucket] = field(default_factory=list)


@dataclass(slots=True)
class Report:
    """A system's backtest: all pairs, the established ones, the ones with a new player."""

    all: Scores
    established: Scores
    new: Scores
    fitted: bool  # chances from the logistic on earlier games, not the system's own model
    slope: float | None  # the logistic's last slope, when fitted

    @property
    def conclusive(self) -> bool:
        """Enough games and established pairs to compare systems by."""
        return self.all.games >= MIN_GAMES and self.established.pairs >= MIN_PAIRS


def logistic(slope: float, difference: float) -> float:
    """The chance the better-rated of a pair finishes ahead, by the fitted curve."""
    z = slope * difference
    if z >= 0:
        return 1 / (1 + math.exp(-z))
    e = math.exp(z)
    return e / (1 + e)


def fit_slope(pairs: Iterable[tuple[float, float]], start: float = 0.0) -> float:
    """The slope of ``p = 1 / (1 + exp(-slope * d))`` that fits (difference, outcome) pairs best
    (maximum likelihood with one imagined shared place, Newton's method); 0 when nothing tells.
    No intercept: which of a pair is first is seat order, which says nothing, so the curve goes
    through 1/2 at d = 0. ``start``: where Newton's method begins (the last fit, for a refit)."""
    data = [(d, y) for d, y in pairs if d != 0]
    if not data:
        return 0.0
    # One shared place at the typical difference, as if seen before the league began: it keeps
    # the slope finite when the favourite has always won so far (a handful of games), and
    # weighs nothing against a league's hundreds of pairs. Scale-free: it is in the data's units.
    data.append((sum(abs(d) for d, _y in data) / len(data), 0.5))
    slope = start if math.isfinite(start) else 0.0
    value, gradient, hessian = _fit_terms(data, slope)
    step = 0.0
    for _ in range(200):
        if step:
            # The last step, checked: kept if the fit improved, else halved and tried again
            # (from a poor start a full Newton step can overshoot far into the wrong sign,
            # the curve being flat out there).
            tried = _fit_terms(data, slope + step)
            if tried[0] >= value:
                slope += step
                value, gradient, hessian = tried
            else:
                step /= 2
                if abs(step) > 1e-8 * max(1e-12, abs(slope)):
                    continue
            # A slope right to eight digits: the chances it gives are right far beyond those shown.
            if abs(step) <= 1e-8 * max(1e-12, abs(slope)):
                break
        if hessian <= 0:
            break
        step = gradient / hessian
        if not step:
            break
    return slope


def _fit_terms(data: list[tuple[float, float]], slope: float) -> tuple[float, float, float]:
    """The log-likelihood of ``slope`` on the data, and its first and second derivatives
    (the second as the positive Hessian), in one pass: a refit's cost is these passes."""
    value = gradient = hessian = 0.0
    exp, log1p = math.exp, math.log1p
    for d, y in data:
        z = slope * d
        # ln p and ln(1 - p) for p = 1 / (1 + e^-z), without overflow either way.
        if z >= 0:
            e = exp(-z)
            p = 1 / (1 + e)
            log_p, log_q = -log1p(e), -z - log1p(e)
        else:
            e = exp(z)
            p = e / (1 + e)
            log_p, log_q = z - log1p(e), -log1p(e)
        value += y * log_p + (1 - y) * log_q
        gradient += (y - p) * d
        hessian += p * (1 - p) * d * d
    return value, gradient, hessian


def evaluate(games: Sequence[Sequence[Pair]]) -> Report:
    """Score a system's predictions of games in time order (each game its pairs)."""
    predicted, slope = predictions(games)
    fitted = slope is not None
    return Report(
        all=_scores(predicted, lambda pair: True),
        established=_scores(predicted, lambda pair: not pair.new),
        new=_scores(predicted, lambda pair: pair.new),
        fitted=fitted,
        slope=slope,
    )


def predictions(
    games: Sequence[Sequence[Pair]],
) -> tuple[list[list[tuple[Pair, float]]], float | None]:
    """Each pair with its chance: the system's own, or the logistic's fitted on the pairs of
    earlier games only; and the last slope fitted (None when the system has its own chances)."""
    fitted = any(pair.chance is None for game in games for pair in game)
    earlier: list[tuple[float, float]] = []
    slope, fitted_on = 0.0, -1
    predicted: list[list[tuple[Pair, float]]] = []
    for game in games:
        if fitted and (
            len(earlier) < REFIT_ALWAYS_BELOW or len(earlier) > fitted_on * (1 + REFIT_GROWTH)
        ):
            slope, fitted_on = fit_slope(earlier[-FIT_WINDOW:], slope), len(earlier)
        predicted.append(
            [
                (pair, pair.chance if pair.chance is not None else logistic(slope, pair.difference))
                for pair in game
            ]
        )
        # Only now, after the game was predicted, do its pairs join what the curve learns from.
        earlier += [(pair.difference, pair.outcome) for pair in game]
    return predicted, (slope if fitted else None)


def _scores(games: list[list[tuple[Pair, float]]], keep) -> Scores:
    scores = Scores()
    hits = losses = squares = 0.0
    buckets: list[list[tuple[float, float]]] = [[] for _ in range(10)]
    for game in games:
        kept = [(pair, chance) for pair, chance in game if keep(pair)]
        if not kept:
            continue
        scores.games += 1
        for pair, chance in kept:
            scores.pairs += 1
            p = min(1 - EPSILON, max(EPSILON, chance))
            y = pair.outcome
            losses -= y * math.log(p) + (1 - y) * math.log(1 - p)
            squares += (chance - y) ** 2
            buckets[min(9, int(chance * 10))].append((chance, y))
            if y != 0.5:
                scores.decided += 1
                d = pair.difference
                hits += 0.5 if d == 0 else float((d > 0) == (y == 1))
    if scores.pairs:
        scores.log_loss = losses / scores.pairs
        scores.brier = squares / scores.pairs
    if scores.decided:
        scores.accuracy = hits / scores.decided
    scores.calibration = [
        Bucket(
            low=n / 10,
            high=(n + 1) / 10,
            pairs=len(bucket),
            predicted=sum(p for p, _y in bucket) / len(bucket) if bucket else None,
            observed=sum(y for _p, y in bucket) / len(bucket) if bucket else None,
        )
        for n, bucket in enumerate(buckets)
    ]
    return scores
