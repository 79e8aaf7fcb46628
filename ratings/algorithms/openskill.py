"""OpenSkill: a multi-player Bayesian rating, each player's skill a mean ``mu`` and an
uncertainty ``sigma``, rated by the maintained ``openskill`` package (PyPI, MIT licence).

The model is the package's Plackett-Luce (``openskill.models.PlackettLuce``) with its default
parameters: mu 25, sigma 25/3, beta 25/6, tau 25/300 (added to sigma before each game so it never
freezes), no sigma limit. This module only wraps it: places from scores, one player a team.

Places are the club's (:mod:`ratings.algorithms.places`): 1 for the best score, players with
equal scores share a place (1, 2, 2, 4); "best" is the highest score, or the lowest in a
low-score game. The package is given these places as its ``ranks``, so a replay from an
export's ``place`` column gives the same numbers.

What a page shows is the ordinal ``mu - 3 sigma`` (OpenSkill's documentation suggests it for a
leaderboard): a skill the player has with about 99.7% confidence, which rises as games make the
estimate surer, even for a player whose mean stays put.

Source: openskill.py (https://github.com/vivekjoshy/openskill.py); ``scripts/vectors/
openskill_vectors.py`` runs the package on random games to make the vectors
``tests/algorithms/test_openskill.py`` checks.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

from ratings.algorithms.places import places

__all__ = [
    "DEFAULT_MU",
    "DEFAULT_SIGMA",
    "ORDINAL_Z",
    "Skill",
    "ordinal",
    "pair_chance",
    "rate",
    "win_chances",
]

# The package's defaults (openskill.models.PlackettLuce), restated to avoid building a model
# to read them; tests/algorithms/test_openskill.py checks they agree.
DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0
# The ordinal's multiple of sigma (the package's ``ordinal(z=3)``).
ORDINAL_Z = 3.0


class Skill(NamedTuple):
    """A player's skill as OpenSkill keeps it."""

    mu: float
    sigma: float


def ordinal(mu: float, sigma: float) -> float:
    """The number a leaderboard shows: ``mu - 3 sigma``, as the package's ``ordinal()``."""
    return mu - ORDINAL_Z * sigma


@cache
def _model():
    # Imported here: the package's compiled modules cost an import only leagues that use it pay.
    from openskill.models import PlackettLuce

    return PlackettLuce()


def rate(
    skills: Sequence[Skill], scores: Sequence[float], *, lower_is_better: bool = False
) -> list[Skill]:
    """Each player's skill after one game, in the order given: the package's Plackett-Luce, one
    player a team, ranked by the places of ``scores``
    (:func:`ratings.algorithms.places.places`)."""
    if len(skills) != len(scores) or len(skills) < 2:
        raise ValueError("a game needs two or more players, each with a score")
    model = _model()
    teams = [[model.rating(mu=skill.mu, sigma=skill.sigma)] for skill in skills]
    ranks = [float(place) for place in places(scores, lower_is_better=lower_is_better)]
    rated = model.rate(teams, ranks=ranks)
    return [Skill(team[0].mu, team[0].sigma) for team in rated]


def pair_chance(first: Skill, second: Skill) -> float:
    """The chance ``first`` finishes ahead of ``second``, by the package's ``predict_win`` for
    the two alone."""
    return win_chances([first, second])[0]


def win_chances(skills: Sequence[Skill]) -> list[float]:
    """Each player's chance to finish first, by the package's ``predict_win`` (they add to 1)."""
    model = _model()
    return list(
        model.predict_win([[model.rating(mu=skill.mu, sigma=skill.sigma)] for skill in skills])
    )
