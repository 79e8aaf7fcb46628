"""A player's tables: their games, the directory, opponents, head to head and the statistics
panels of the player page."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

import django_tables2 as tables
from django.core.exceptions import ImproperlyConfigured
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _
from django_tables2.data import TableListData

from ratings.formatting import number_text, rating_text, when_html
from ratings.links import url_maker
from ratings.models import League, Player
from ratings.selectors import statistics
from ratings.selectors.players import HistoryRow, RatingLine
from ratings.systems import RatingSystem
from ratings.tables.base import NUMBER_CELLS, ClubTable, card, link_html, score_labels

# Player page ------------------------------------------------------------------------------------


class PlayerGamesTable(ClubTable):
    """A player's games in one league (``selectors.HistoryRow``), newest first.

    The opponents are looked up only for the rows on the current page: the view sets
    ``opponents`` (game id -> players) after pagination.
    """

    played_at = tables.Column(
        verbose_name=_("Played"), orderable=False, attrs=card("title", number=False)
    )
    opponents = tables.Column(
        verbose_name=_("Opponents"),
        accessor="game_id",
        empty_values=(),
        orderable=False,
        attrs=card("wide", _("Opponents"), number=False),
    )
    score = tables.Column(verbose_name=_("Score"), orderable=False, attrs=card("key", _("Score")))
    change = tables.Column(
        verbose_name=_("Change"), orderable=False, attrs=card("key", _("Change"))
    )
    rating_after = tables.Column(
        verbose_name=_("Rating after"), orderable=False, attrs=card("key", _("Rating after"))
    )

    class Meta:
        # One card per game on a phone: the date, then the score, change and rating after.
        attrs = {"class": "player-games cards"}
        per_page = 50

    def __init__(self, rows: Sequence[HistoryRow], *, system: RatingSystem, prefix: str):
        super().__init__(_HistoryData(rows), prefix=prefix)
        self.system = system
        self.opponents: dict[int, list] = {}

    def render_played_at(self, value: datetime, record) -> SafeString:
        return link_html(self.game_url(record.game_id), when_html(value))

    def render_opponents(self, value: int) -> SafeString:
        return SafeString(", ".join([self.player_link(p) for p in self.opponents[value]]))

    def render_score(self, value: float) -> str:
        return self.system.score_text(value)

    render_change = ClubTable.change_cell

    def render_rating_after(self, value: float) -> str:
        return self.rating_cell(value)


class _HistoryData(TableListData):
    """A history as a table's data, kept as the sequence it is: django-tables2 makes a list of
    any other data, which would build every row of a long history for the page of fifty shown.
    No column of the table is orderable, so there is never an order to apply."""

    def order_by(self, aliases) -> None:
        if aliases:
            raise ImproperlyConfigured("a player's games are shown in their order only")


# Player directory -------------------------------------------------------------------------------


class PlayerDirectoryTable(ClubTable):
    """Players by name (:func:`ratings.selectors.players_directory`), each with every league
    they have played in: "League: rating (games)", the league linked to its leaderboard."""

    name = tables.Column(verbose_name=_("Player"))
    leagues = tables.Column(
        verbose_name=_("Leagues: rating (games)"), accessor="pk", empty_values=()
    )

    class Meta:
        attrs = {"class": "players"}
        orderable = False

    @cached_property
    def league_url(self) -> Callable[[object], str]:
        return url_maker("ratings:leaderboard")

    def render_name(self, record) -> SafeString:
        return self.player_link(record)

    def render_leagues(self, record) -> SafeString | str:
        # Each league in a .seat span, as the games list's seats: it wraps as a whole.
        if not record.leagues:
            return "—"
        return format_html_join(
            " · ",
            '<span class="seat"><a href="{}">{}</a>: {} ({})</span>',
            (
                (
                    self.league_url(standing.league.slug),
                    standing.league.name,
                    rating_text(standing.rating, standing.league.rating_system.rating_places),
                    standing.games,
                )
                for standing in record.leagues
            ),
        )


# Statistics -------------------------------------------------------------------------------------


def _record_label(system: RatingSystem):
    """The header of a win–draw–loss record: finished ahead, level, behind at a bigger table."""
    if system.wins_draws_losses:
        return _("Won – drawn – lost")
    return _("Ahead – level – behind")


class OpponentsTable(ClubTable):
    """The players a player met most often in one league (``statistics.OpponentRecord``), each
    with the record against them, linked to the two players' head-to-head page."""

    name = tables.Column(verbose_name=_("Opponent"))
    games = tables.Column(verbose_name=_("Games"), attrs=NUMBER_CELLS)

    class Meta:
        attrs = {"class": "opponents"}
        orderable = False

    def __init__(self, rows, *, player, system: RatingSystem):
        record = tables.Column(
            verbose_name=_record_label(system), accessor="games", attrs=NUMBER_CELLS
        )
        super().__init__(rows, extra_columns=[("record", record)])
        self.player = player

    def render_name(self, record) -> SafeString:
        return format_html('<a href="{}">{}</a>', self.player_url(record.slug), record.name)

    def render_record(self, record) -> SafeString:
        url = reverse("ratings:head_to_head", args=[self.player.slug, record.slug])
        title = _("%(player)s against %(opponent)s") % {
            "player": self.player.name,
            "opponent": record.name,
        }
        return format_html(
            '<a href="{}" title="{}">{}–{}–{}</a>',
            url,
            title,
            record.ahead,
            record.level,
            record.behind,
        )


class PairRecordTable(ClubTable):
    """Two players' record in one league (``statistics.PairRecord``), a row each: how often each
    finished ahead of the other (won), and the sum and average of each one's scores."""

    player = tables.Column(verbose_name=_("Player"))

    class Meta:
        attrs = {"class": "pair-record"}
        orderable = False

    def __init__(self, record, *, a, b, system: RatingSystem):
        rows = [
            {"player": player, "ahead": ahead, "total": total, "average": total / record.games}
            for player, ahead, total in (
                (a, record.a_ahead, record.a_score_sum),
                (b, record.b_ahead, record.b_score_sum),
            )
        ]
        total_label, average_label = score_labels(system)
        ahead_label = _("Wins") if system.wins_draws_losses else _("Finished ahead")
        super().__init__(
            rows,
            extra_columns=[
                ("ahead", tables.Column(verbose_name=ahead_label, attrs=NUMBER_CELLS)),
                ("total", tables.Column(verbose_name=total_label, attrs=NUMBER_CELLS)),
                ("average", tables.Column(verbose_name=average_label, attrs=NUMBER_CELLS)),
            ],
        )

    def render_player(self, value) -> SafeString:
        return self.player_link(value)

    def _number(self, value: float) -> str:
        return number_text(value)

    render_total = render_average = _number


class HeadToHeadGamesTable(ClubTable):
    """Two players' games together in one league (``statistics.PairGame``), newest first: each
    one's score and rating change, and who finished ahead."""

    played_at = tables.Column(
        verbose_name=_("Played"), orderable=False, attrs=card("title", number=False)
    )

    class Meta:
        # On a phone a card per game: six columns do not fit 360 px, and the second player's
        # change and who was ahead are what the page is for.
        attrs = {"class": "head-to-head-games cards"}
        orderable = False

    def __init__(self, rows, *, a, b, system: RatingSystem, prefix: str):
        def column(name: str, field: str) -> tables.Column:
            return tables.Column(verbose_name=name, accessor=field, attrs=card("key", name))

        ahead = _("Winner") if system.wins_draws_losses else _("Ahead")
        ahead_column = tables.Column(
            verbose_name=ahead, accessor="game_id", attrs=card("more", ahead, number=False)
        )
        super().__init__(
            rows,
            prefix=prefix,
            extra_columns=[
                ("a_score", column(a.name, "a_score")),
                ("a_change", column(_("Change"), "a_change")),
                ("b_score", column(b.name, "b_score")),
                ("b_change", column(_("Change"), "b_change")),
                ("ahead", ahead_column),
            ],
        )
        self.a, self.b, self.system = a, b, system

    def render_played_at(self, value: datetime, record) -> SafeString:
        return link_html(self.game_url(record.game_id), when_html(value))

    def render_a_score(self, value: float) -> str:
        return self.system.score_text(value)

    render_b_score = render_a_score

    render_a_change = ClubTable.change_cell

    render_b_change = render_a_change

    def render_ahead(self, record) -> str:
        a_place, b_place = self.system.places([record.a_score, record.b_score])
        if a_place == b_place:
            return _("draw") if self.system.wins_draws_losses else _("level")
        return (self.a if a_place < b_place else self.b).name


# A player's statistics panels -----------------------------------------------------------------
# What the player's page shows per league (``pages.player_detail``): the numbers come from
# :mod:`ratings.selectors.statistics`, each group in one query for all the player's leagues
# whatever the length of their history (pinned in ``tests/views/test_player_stats.py``).


@dataclass(frozen=True)
class StatisticsPanel:
    """A player's statistics in one league, with the opponents they met most often."""

    league: League
    numbers: statistics.LeagueStatistics
    opponents: OpponentsTable

    @property
    def average_score_label(self) -> str:
        return score_labels(self.league.rating_system)[1]


def statistics_panels(
    player: Player, leagues: list[League], history: dict[int, RatingLine]
) -> dict[int, StatisticsPanel]:
    """The player's statistics in each of these leagues, by league id, from their ``history``
    (the page has read it for the charts), their shared first places and their opponents: two
    queries in all."""
    since = statistics.recent_since()
    opponents = statistics.player_opponents(player)
    shared = statistics.shared_first_places(player)
    return {
        league.pk: StatisticsPanel(
            league=league,
            numbers=statistics.league_statistics(
                history[league.pk], league.rating_system, since, shared.get(league.pk, 0)
            ),
            opponents=OpponentsTable(
                opponents.get(league.pk, []), player=player, system=league.rating_system
            ),
        )
        for league in leagues
        if history.get(league.pk)
    }
