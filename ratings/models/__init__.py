"""The club's data, a module per thing: the players (:mod:`~ratings.models.players`), leagues
(:mod:`~ratings.models.leagues`), games and each player's result in a game
(:mod:`~ratings.models.games`), standings, season standings and opponent tallies
(:mod:`~ratings.models.standings`), the audit trail
(:mod:`~ratings.models.audit`), rayter files waiting for confirmation
(:mod:`~ratings.models.uploads`), the data version's row (:mod:`~ratings.models.versioning`), a
league's stored backtest (:mod:`~ratings.models.backtests`) and the API's tokens
(:mod:`~ratings.models.api_tokens`);
the core's models, used from here (``from ratings.models import Game``). The feature packages own
theirs: club nights and tournaments in :mod:`ratings.events.models`, the digital paper's papers
and deals in :mod:`ratings.papers.models`, loaded for Django by ``ratings.apps`` and never
re-exported here, so the core never reaches a feature's model.

Ratings are written only by :mod:`ratings.engine`; nothing here computes one. A game's results
carry the rating before and after, so history is read without replaying it, and a
:class:`Standing` holds each player's current state in a league, so the leaderboard is one query.
"""

from ratings.models.api_tokens import ApiToken, ApiTokenQuerySet
from ratings.models.audit import AuditAction, AuditEntry, RatingCorrection
from ratings.models.backtests import StoredBacktest
from ratings.models.games import Game, GameQuerySet, Result
from ratings.models.leagues import League
from ratings.models.players import Player, PlayerAlias, PlayerQuerySet
from ratings.models.reports import GameReport
from ratings.models.standings import (
    OpponentTally,
    SeasonStanding,
    Standing,
    StandingQuerySet,
)
from ratings.models.uploads import PendingUpload, PendingUploadQuerySet
from ratings.models.versioning import DataVersion, LeagueVersion, PlayerVersion, SeasonVersion
from ratings.systems import Kind, Speed, System

__all__ = [
    "ApiToken",
    "ApiTokenQuerySet",
    "AuditAction",
    "AuditEntry",
    "RatingCorrection",
    "DataVersion",
    "Game",
    "GameReport",
    "GameQuerySet",
    "Kind",  # defined with the systems, kept importable from here
    "League",
    "LeagueVersion",
    "PlayerVersion",
    "SeasonVersion",
    "PendingUpload",
    "PendingUploadQuerySet",
    "Player",
    "PlayerAlias",
    "PlayerQuerySet",
    "Result",
    "OpponentTally",
    "SeasonStanding",
    "Speed",
    "Standing",
    "StandingQuerySet",
    "StoredBacktest",
    "System",
]
