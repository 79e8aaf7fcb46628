"""The pages' tables: display only. Each gets an already optimised queryset or list from
:mod:`ratings.selectors` and the league's rating system; formatting lives in ``render_<column>``,
through :mod:`ratings.formatting`. A module per page family; the names are all here.
"""

from ratings.tables.base import NUMBER, NUMBER_CELLS, PAGER_WORDS, ClubTable, card, score_labels
from ratings.tables.games import (
    ChangeExplained,
    GameResultsTable,
    PrefkoTermsTable,
    TermsExplained,
    explain_prefko_terms,
)
from ratings.tables.leagues import LeaderboardTable, LeagueGamesTable, SeasonTable
from ratings.tables.players import (
    HeadToHeadGamesTable,
    OpponentsTable,
    PairRecordTable,
    PlayerDirectoryTable,
    PlayerGamesTable,
    StatisticsPanel,
    statistics_panels,
)

__all__ = [
    "NUMBER",
    "NUMBER_CELLS",
    "PAGER_WORDS",
    "ChangeExplained",
    "ClubTable",
    "GameResultsTable",
    "HeadToHeadGamesTable",
    "LeaderboardTable",
    "LeagueGamesTable",
    "OpponentsTable",
    "PairRecordTable",
    "PlayerDirectoryTable",
    "PlayerGamesTable",
    "PrefkoTermsTable",
    "SeasonTable",
    "StatisticsPanel",
    "TermsExplained",
    "card",
    "explain_prefko_terms",
    "score_labels",
    "statistics_panels",
]
