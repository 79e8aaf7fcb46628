"""Reads for the public pages: each loads, up front, exactly what its page shows (and the
standings rows of the ``standings`` command and the rayter import's preview), a module per
thing read: :mod:`~ratings.selectors.leagues` (the overview and a league's leaderboard),
:mod:`~ratings.selectors.seasons` (a league's standings over a period),
:mod:`~ratings.selectors.games` (games and one game), :mod:`~ratings.selectors.players` (the
directory, a player's standings and history) and :mod:`~ratings.selectors.statistics` (a
player's record per league, two players against each other). The event pages' reads are
:mod:`ratings.events.selectors`.

Every function here issues a fixed number of queries whatever the size of the league or the
player's history (the view tests pin the counts), so they use subqueries, window functions and
``values_list`` rather than per-row lookups. Nothing here writes. Callers use the names below
(``from ratings import selectors; selectors.league_games(...)``).
"""

from ratings.selectors import sql, statistics
from ratings.selectors.games import (
    DEFAULT_BULA,
    Seat,
    game_detail,
    games_with_seats,
    league_games,
    seats_by_game,
    usual_bula,
)
from ratings.selectors.leagues import (
    LeagueStanding,
    Status,
    league_standings,
    league_standings_rows,
    leagues_overview,
    tie_order,
)
from ratings.selectors.players import (
    TYPO_SEARCH_MIN_LETTERS,
    CorrectionRow,
    HistoryRow,
    RatingLine,
    holding_a_key,
    opponents_by_game,
    player_history,
    player_history_and_corrections,
    player_standings,
    players_directory,
    rating_histories,
)
from ratings.selectors.seasons import (
    SeasonOrder,
    SeasonRow,
    league_years,
    leagues_with_seasons,
    season_standings,
)

__all__ = [
    "DEFAULT_BULA",
    "Seat",
    "TYPO_SEARCH_MIN_LETTERS",
    "CorrectionRow",
    "HistoryRow",
    "RatingLine",
    "LeagueStanding",
    "SeasonOrder",
    "SeasonRow",
    "Status",
    "game_detail",
    "games_with_seats",
    "usual_bula",
    "holding_a_key",
    "league_games",
    "seats_by_game",
    "league_standings",
    "league_standings_rows",
    "league_years",
    "leagues_overview",
    "leagues_with_seasons",
    "opponents_by_game",
    "player_history",
    "player_history_and_corrections",
    "player_standings",
    "players_directory",
    "rating_histories",
    "season_standings",
    "tie_order",
    "sql",
    "statistics",
]
