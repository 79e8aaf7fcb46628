"""An event's standings from its tables' results: the scoring rules of club nights and tournaments.

An event (a club night or a tournament) is played in rounds of tables; each table plays one game.
Its standings come from the games' scores by one of three rules:

- ``total``: a player's points are the sum of their scores (Preferans final scores, or the points
  of a scored game, or 1 / ½ / 0 head-to-head). Better is the game's own direction: a lower total
  wins in Preferans and in low-score games.
- ``places``: each table gives points per place, as the organiser set them (``3 2 1 0``, say);
  a higher total of points is better.
- ``preferans_org``: the Serbian Preferans league's table (preferans.org, "Pravila turnira"):
  1st place 3 points, 4 when the only player ahead; 2nd place 2 points if ahead, 1 if not; 3rd 0.

In every rule players who tie at a table share the points of the places they span (two tied for
first, with 3 and 2 points for first and second, get 2.5 each). Standings with equal points are
broken by the total score (in the game's direction); players still equal share their place.

"Ahead" is the preferans.org word "positive": a player who came out of the game ahead, which
this club writes as a final score below zero (the paper's final score is lower-is-better; the
league writes it the other way round). For a game where a higher score is better, ahead is above
zero. Zero is not ahead.

Points are exact fractions while they are added (a three-way tie shares 4/3), so equal sums stay
equal; the results carry them as floats. Pure Python, no Django: :mod:`ratings.events.selectors`
reads the games and calls :func:`standings`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from ratings.algorithms.places import places

__all__ = [
    "PREFERANS_ORG_POINTS",
    "PlayerStanding",
    "Scoring",
    "TablePlay",
    "standings",
    "table_points",
]


class Scoring(StrEnum):
    """An event's rule; its values are the codes an event stores."""

    TOTAL = "total"
    PLACES = "places"
    PREFERANS_ORG = "preferans_org"


# preferans.org's points per place, written out for docs/club-nights.md and the forms' help: a
# place's points when its player is ahead, and when not.
PREFERANS_ORG_POINTS = {1: (3, 3), 2: (2, 1), 3: (0, 0)}
PREFERANS_ORG_ONLY_AHEAD_FIRST = 4


@dataclass(frozen=True)
class TablePlay:
    """One table's game: its players (ids) and their scores, in the same order."""

    players: tuple[int, ...]
    scores: tuple[float, ...]


@dataclass(frozen=True)
class PlayerStanding:
    """A player's line in an event's standings.

    ``place`` is 1 for the winner; players equal on points and total share it. ``place`` is None
    for a player present who has played no game yet: they are listed last, unplaced.
    """

    player: int
    place: int | None
    points: float
    total: float
    games: int


def _ahead(score: float, lower_is_better: bool) -> bool:
    return score < 0 if lower_is_better else score > 0


def _place_points(
    place: int,
    score: float,
    *,
    scoring: Scoring,
    points_per_place: Sequence[int],
    lower_is_better: bool,
    only_one_ahead: bool,
) -> Fraction:
    """The points of ``place`` (1 is first) for a player with ``score``."""
    if scoring is Scoring.PLACES:
        return Fraction(points_per_place[place - 1] if place <= len(points_per_place) else 0)
    ahead = _ahead(score, lower_is_better)
    if place == 1:
        return Fraction(PREFERANS_ORG_ONLY_AHEAD_FIRST if ahead and only_one_ahead else 3)
    if place == 2:
        return Fraction(2 if ahead else 1)
    return Fraction(0)


def table_points(
    scores: Sequence[float],
    *,
    scoring: Scoring | str,
    lower_is_better: bool,
    points_per_place: Sequence[int] = (),
) -> list[Fraction]:
    """Each seat's points at one table, in the order of ``scores``.

    ``total`` gives the scores themselves; the placement rules give each place its points and
    let players who tie share the points of the places they span.
    """
    scoring = Scoring(scoring)
    if scoring is Scoring.TOTAL:
        return [Fraction(score) for score in scores]
    placed = places(scores, lower_is_better=lower_is_better)
    only_one_ahead = sum(_ahead(s, lower_is_better) for s in scores) == 1
    shared: dict[int, Fraction] = {}
    for place, score in zip(placed, scores, strict=True):
        if place not in shared:
            # The seats tied at this place span it and the places after it.
            tied = placed.count(place)
            shared[place] = (
                sum(
                    _place_points(
                        spanned,
                        score,
                        scoring=scoring,
                        points_per_place=points_per_place,
                        lower_is_better=lower_is_better,
                        only_one_ahead=only_one_ahead,
                    )
                    for spanned in range(place, place + tied)
                )
                / tied
            )
    return [shared[place] for place in placed]


def standings(
    players: Iterable[int],
    tables: Iterable[TablePlay],
    *,
    scoring: Scoring | str,
    lower_is_better: bool,
    points_per_place: Sequence[int] = (),
) -> list[PlayerStanding]:
    """The event's standings, best first, from the ``tables`` played so far.

    ``players`` are those present (a player who played is counted even when missing from it);
    ``lower_is_better`` is the direction of the game's scores. Points decide, then the total
    score; players equal on both share a place. Players without a game come last, unplaced, in
    the order given.
    """
    scoring = Scoring(scoring)
    points: dict[int, Fraction] = {}
    totals: dict[int, float] = {}
    games: dict[int, int] = {}
    for table in tables:
        table_scores = table_points(
            table.scores,
            scoring=scoring,
            lower_is_better=lower_is_better,
            points_per_place=points_per_place,
        )
        for player, score, got in zip(table.players, table.scores, table_scores, strict=True):
            points[player] = points.get(player, Fraction(0)) + got
            totals[player] = totals.get(player, 0.0) + score
            games[player] = games.get(player, 0) + 1
    # Higher points first, except where the points are the scores of a lower-is-better game.
    points_sign = 1 if scoring is Scoring.TOTAL and lower_is_better else -1
    total_sign = 1 if lower_is_better else -1

    def key(player: int) -> tuple[Fraction, float]:
        return (points_sign * points[player], total_sign * totals[player])

    ranked = sorted(points, key=key)
    placed = places([key(player) for player in ranked], lower_is_better=True)
    result = [
        PlayerStanding(player, place, float(points[player]), totals[player], games[player])
        for player, place in zip(ranked, placed, strict=True)
    ]
    unplaced = [player for player in dict.fromkeys(players) if player not in points]
    result += [PlayerStanding(player, None, 0.0, 0.0, 0) for player in unplaced]
    return result
