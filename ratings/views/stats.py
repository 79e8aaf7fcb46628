"""A player's statistics per league, shown on their page (``pages.player_detail``).

The numbers come from :mod:`ratings.statistics`, each group in one query for all the player's
leagues whatever the length of their history (pinned in ``tests/views/test_player_stats.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ratings import statistics
from ratings.models import League, Player
from ratings.tables import OpponentsTable, score_labels


@dataclass(frozen=True)
class StatisticsPanel:
    """A player's statistics in one league, with the opponents they met most often."""

    league: League
    numbers: statistics.LeagueStatistics
    opponents: OpponentsTable

    @property
    def average_score_label(self) -> str:
        return score_labels(self.league.rating_system)[1]


def statistics_panels(player: Player, leagues: list[League]) -> dict[int, StatisticsPanel]:
    """The player's statistics in each of these leagues, by league id: two queries in all."""
    numbers = statistics.player_statistics(player)
    opponents = statistics.player_opponents(player)
    return {
        league.pk: StatisticsPanel(
            league=league,
            numbers=numbers[league.pk],
            opponents=OpponentsTable(
                opponents.get(league.pk, []), player=player, system=league.rating_system
            ),
        )
        for league in leagues
        if league.pk in numbers
    }
