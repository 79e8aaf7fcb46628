"""A league's tables: its leaderboard, its games and a season's standings."""

from __future__ import annotations

from datetime import datetime

import django_tables2 as tables
from django.db.models import F
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from ratings.formatting import number_text, when_html
from ratings.selectors import Seat, Status, tie_order
from ratings.systems import RatingSystem
from ratings.tables.base import NUMBER, NUMBER_CELLS, ClubTable, cell_html, score_labels

# Leaderboard ------------------------------------------------------------------------------------


class LeaderboardTable(ClubTable):
    """A league's standings; ``rank`` and ``status`` come from the queryset
    (:func:`ratings.selectors.league_standings`): provisional and inactive players are listed
    after the ranked ones, marked, without a rank."""

    rank = tables.Column(verbose_name=_("Rank"), attrs=NUMBER)
    player = tables.Column(verbose_name=_("Player"), accessor="player", order_by=("player__name",))
    # The numbers a player looks for next to the name, so a phone shows them without
    # scrolling the table sideways; the games and the date may go behind the edge.
    rating = tables.Column(verbose_name=_("Rating"), attrs=NUMBER)
    # A correction after the player's last game is their last change (selectors.last_move).
    last_change = tables.Column(
        verbose_name=_("Last change"),
        accessor="last_move",
        order_by=("last_move", "player__name"),
        attrs=NUMBER,
    )
    games = tables.Column(verbose_name=_("Games"), order_by=("games", "player__name"), attrs=NUMBER)
    last_played_at = tables.Column(
        verbose_name=_("Last played"), order_by=("last_played_at", "player__name")
    )

    class Meta:
        attrs = {"class": "leaderboard"}
        empty_text = _("No one has played in this league yet.")

    def __init__(self, *args, system: RatingSystem, **kwargs):
        # Before the table orders its rows (order_rating asks the system how ties go).
        self.system = system
        super().__init__(*args, **kwargs)

    def render_rank(self, value: int, record) -> int | str:
        return value if record.status == Status.RANKED else ""

    def render_player(self, value, record) -> SafeString:
        if record.status == Status.RANKED:
            return self.player_link(value)
        label = Status(record.status).label
        return format_html('{} <span class="badge">{}</span>', self.player_link(value), label)

    render_rating = ClubTable.rating_cell

    render_last_change = ClubTable.change_cell

    def render_last_played_at(self, value: datetime) -> SafeString | str:
        return when_html(value, time=False)

    def order_rating(self, queryset, is_descending: bool):
        # Ties keep their order (the system's: by name, or by first game) both ways, so a page
        # break never depends on the direction. Ranked players stay above the provisional and
        # inactive ones either way.
        rating = F("rating").desc() if is_descending else F("rating").asc()
        return queryset.order_by("status", rating, *tie_order(self.system), "pk"), True

    def order_rank(self, queryset, is_descending: bool):
        # Equal ranks are equal ratings: in the same order as under the rating.
        rank = F("rank").desc() if is_descending else F("rank").asc()
        return queryset.order_by("status", rank, *tie_order(self.system), "pk"), True


# Games ------------------------------------------------------------------------------------------


class LeagueGamesTable(ClubTable):
    """A league's games, newest first; the seats of the page's games are set as ``seats``
    (:func:`ratings.selectors.seats_by_game`) once the table is paginated."""

    played_at = tables.Column(verbose_name=_("Played"), orderable=False)
    players = tables.Column(
        verbose_name=_("Players, score and change"),
        accessor="pk",
        empty_values=(),
        orderable=False,
    )

    class Meta:
        attrs = {"class": "games"}
        empty_text = _("No games.")

    def __init__(self, *args, system: RatingSystem, **kwargs):
        super().__init__(*args, **kwargs)
        self.system = system
        self.seats: dict[int, list[Seat]] = {}

    def render_played_at(self, value: datetime, record) -> SafeString:
        return format_html('<a href="{}">{}</a>', self.game_url(record.pk), when_html(value))

    def render_players(self, record) -> SafeString:
        return SafeString(
            " · ".join(
                f'<span class="seat">{self.player_link(seat)} '
                f"{cell_html(self.system.score_text(seat.score))} "
                f"({cell_html(self.change_cell(seat.change))})</span>"
                for seat in self.seats.get(record.pk, ())
            )
        )


# Seasons ----------------------------------------------------------------------------------------


class SeasonTable(ClubTable):
    """A league's table for a period (``selectors.SeasonRow``): games in the period, the rating
    at its end and the change over it, average score and first places (wins in a league of
    two-player games); ranked by the database by rating or change, in the league's direction."""

    rank = tables.Column(
        verbose_name=_("Rank"), order_by=("status", "rank", "name"), attrs=NUMBER_CELLS
    )
    name = tables.Column(verbose_name=_("Player"))
    games = tables.Column(verbose_name=_("Games"), attrs=NUMBER_CELLS)
    rating = tables.Column(verbose_name=_("Rating at the end"), attrs=NUMBER_CELLS)
    change = tables.Column(verbose_name=_("Change"), attrs=NUMBER_CELLS)

    class Meta:
        attrs = {"class": "leaderboard season"}
        empty_text = _("No one played in this league in this period.")

    def __init__(self, rows, *, system: RatingSystem, **kwargs):
        if system.wins_draws_losses:
            firsts = tables.Column(verbose_name=_("Wins"), accessor="wins", attrs=NUMBER_CELLS)
        else:
            firsts = tables.Column(verbose_name=_("First places"), attrs=NUMBER_CELLS)
        average = tables.Column(verbose_name=score_labels(system)[1], attrs=NUMBER_CELLS)
        super().__init__(
            rows, extra_columns=[("average_score", average), ("first_places", firsts)], **kwargs
        )
        self.system = system

    def render_rank(self, value: int, record) -> int | str:
        return value if record.status == Status.RANKED else ""

    def render_name(self, record) -> SafeString:
        link = format_html('<a href="{}">{}</a>', self.player_url(record.slug), record.name)
        if record.status == Status.RANKED:
            return link
        return format_html('{} <span class="badge">{}</span>', link, Status(record.status).label)

    render_rating = ClubTable.rating_cell

    render_change = ClubTable.change_cell

    def render_average_score(self, value: float) -> str:
        return number_text(value)
