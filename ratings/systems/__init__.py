"""The rating systems: one object per system, which every other module asks.

A league has one rating system (``League.system`` stores its code; ``League.rating_system`` is
the object). The object knows what kind of game the league plays, how many seats a game has,
which way is better, whether ratings are whole numbers, how a game's entries become scores (and
what is refused), how to rate a game, which entry form the league uses, and how a score reads.
Nothing else compares system or kind strings. The package, one module per seam: ``base`` (what
every system has, :class:`RatingSystem`), ``codes`` (the codes a league stores), and a module per
system (``prefko``, ``rayter``, ``elo``, ``openskill``), each with its settings form; here, the
registry. A new system is a module here, its algorithm in ``ratings/algorithms/`` (see
docs/ARCHITECTURE.md); use every name from ``ratings.systems``.

The model is pretix's payment providers: the core asks the provider instead of switching on it.
"""

from __future__ import annotations

from ratings.algorithms import rayter as rayter_scores
from ratings.systems.base import (
    MAX_BULA,
    MAX_COLUMN,
    MAX_SCORE,
    SEAT_VALUES,
    GameInput,
    League,
    PlayerState,
    RateGame,
    RatingSystem,
    Refusal,
    Scored,
    finite_scores,
    limit_message,
)
from ratings.systems.codes import Kind, Speed, System
from ratings.systems.elo import (
    FIDE_EVER_2400,
    MAX_ELO_K,
    ClassicElo,
    ClassicEloSettings,
    FideElo,
    FideEloSettings,
    HeadToHead,
    PairwiseElo,
    age_on,
)
from ratings.systems.openskill import OpenSkill, OpenSkillHighscore, OpenSkillLowscore, SkillRating
from ratings.systems.prefko import MAX_REFAS, Prefko, PrefkoSettings, house_rules
from ratings.systems.rayter import (
    MAX_FILE_SCORE,
    Rayter,
    RayterHighscore,
    RayterLowscore,
    RayterWinnerTakesAll,
)

SYSTEMS: dict[str, RatingSystem] = {
    system.code: system
    for system in (
        Prefko(),
        RayterHighscore(),
        RayterLowscore(),
        RayterWinnerTakesAll(),
        ClassicElo(),
        FideElo(),
        OpenSkillHighscore(),
        OpenSkillLowscore(),
    )
}


# The backtest's extra system for games of more than two players (no league's).
PAIRWISE_ELO = PairwiseElo()


def rating_system(code: str) -> RatingSystem:
    """The system with this code; KeyError for an unknown one (the database refuses those)."""
    return SYSTEMS[code]


def for_rayter_score_type(score_type: str) -> RatingSystem:
    """The system that rates a rayter file of this score type."""
    score_type = rayter_scores.normalize_score_type(score_type)
    return next(s for s in SYSTEMS.values() if s.rayter_score_type == score_type)


__all__ = [
    "FIDE_EVER_2400",
    "MAX_BULA",
    "MAX_COLUMN",
    "MAX_ELO_K",
    "MAX_FILE_SCORE",
    "MAX_REFAS",
    "MAX_SCORE",
    "PAIRWISE_ELO",
    "SEAT_VALUES",
    "SYSTEMS",
    "ClassicElo",
    "ClassicEloSettings",
    "FideElo",
    "FideEloSettings",
    "GameInput",
    "HeadToHead",
    "Kind",
    "League",
    "OpenSkill",
    "OpenSkillHighscore",
    "OpenSkillLowscore",
    "PairwiseElo",
    "PlayerState",
    "Prefko",
    "PrefkoSettings",
    "house_rules",
    "RateGame",
    "RatingSystem",
    "Rayter",
    "RayterHighscore",
    "RayterLowscore",
    "RayterWinnerTakesAll",
    "Refusal",
    "Scored",
    "SkillRating",
    "Speed",
    "System",
    "age_on",
    "finite_scores",
    "for_rayter_score_type",
    "limit_message",
    "rating_system",
]
