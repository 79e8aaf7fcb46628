"""The pages' tables: display only. Each gets an already optimised queryset or list from
:mod:`ratings.selectors` and the league's rating system; formatting lives in ``render_<column>``,
through :mod:`ratings.formatting`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import django_tables2 as tables
from django.core.exceptions import ImproperlyConfigured
from django.db.models import F
from django.urls import reverse
from django.utils.formats import localize
from django.utils.functional import cached_property
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import template_localtime
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop
from django_tables2.rows import BoundRow
from django_tables2.utils import Accessor, signature

from ratings.algorithms import preferans
from ratings.formatting import change_html, decimal_text, number_text, rating_text, when_html
from ratings.links import url_maker
from ratings.models import League, Player
from ratings.selectors import Status, statistics
from ratings.systems import RatingSystem

NUMBER = {"td": {"class": "num"}, "th": {"class": "num"}}


def card(part: str, label=None, *, number: bool = True) -> dict:
    """A column's attributes in a table that turns into one card per row on a phone
    (``table.cards`` in static/club.css): its part of the card (``title``, ``key`` for the
    numbers a player came for, ``more``) and its header again as the cell's ``data-label``,
    which the card writes above the value once the header row is hidden."""
    td = {"class": f"num card-{part}" if number else f"card-{part}"}
    if label is not None:
        td["data-label"] = label
    return {"td": td, "th": {"class": "num"} if number else {}}


# django-tables2's pager says "previous" and "next" but has no Serbian catalog: ours supplies
# these two words (catalogs in LOCALE_PATHS come first).
PAGER_WORDS = (gettext_noop("previous"), gettext_noop("next"))


# The base table ---------------------------------------------------------------------------------


class ClubTable(tables.Table):
    """django-tables2's columns, headers, ordering and pagination, with the rows rendered in one
    pass of Python (``templates/ratings/table.html`` puts :meth:`body_html` in the ``tbody``).

    django-tables2 renders every cell through the template engine, recomputing the column's
    attributes and inspecting its render method's signature each time, which a drawn page with
    many rows feels (``bench/tables_drawn.py``; figures in docs/performance.md). Here each column's
    ``<td>`` attributes and render arguments are worked out once per page, and a cell costs its
    ``render_<column>`` call. The HTML is the same (tests/views/test_tables.py compares it with
    django-tables2's own rendering) for what these tables use: a value from the column's
    accessor, ``empty_values`` and ``default``, ``render_<column>`` or ``Column.render`` taking
    any of value, record, column, bound_column, bound_row and table, and static cell attributes.
    A column with ``linkify`` or ``localize``, or with attributes computed per cell, is refused
    rather than rendered differently; links come from :meth:`player_link` and the ``*_url``
    makers (one ``reverse()`` per page).
    """

    @cached_property
    def player_url(self) -> Callable[[object], str]:
        return url_maker("ratings:player")

    @cached_property
    def game_url(self) -> Callable[[object], str]:
        return url_maker("ratings:game")

    def player_link(self, player) -> SafeString:
        return format_html('<a href="{}">{}</a>', self.player_url(player.slug), player.name)

    def body_html(self) -> SafeString:
        cells = [self._cell_renderer(column) for column in self.columns]
        rows = []
        for row in self.paginated_rows:
            html = [f"<tr {row.attrs.as_html()}>"]
            html += [render(row) for render in cells]
            html.append("</tr>")
            rows.append("".join(html))
        if not rows and self.empty_text:
            colspan = len(self.columns)
            rows.append(format_html('<tr><td colspan="{}">{}</td></tr>', colspan, self.empty_text))
        return mark_safe("\n".join(rows))

    def _cell_renderer(self, bound_column) -> Callable[[BoundRow], str]:
        """The function that renders this column's cell of a row: its ``<td>`` as HTML."""
        column = bound_column.column
        td_attrs = column.attrs.get("td", column.attrs.get("cell", {}))
        if (
            bound_column.link
            or column.localize is not None
            or any(callable(value) for value in td_attrs.values())
        ):
            raise ImproperlyConfigured(
                f"{type(self).__name__}.{bound_column.name}: ClubTable renders static cell"
                " attributes and unlocalised values without linkify only"
            )
        opening = f"<td {bound_column.attrs['td'].as_html()}>"
        accessor = Accessor(bound_column.accessor)
        render = bound_column.render
        wanted, everything = signature(render)
        empty, default = column.empty_values, bound_column.default

        def cell(row: BoundRow) -> str:
            record = row.record
            value = accessor.resolve(record, quiet=True)
            if value in empty:
                content = default
            else:
                arguments = {
                    "value": value,
                    "record": record,
                    "column": column,
                    "bound_column": bound_column,
                    "bound_row": row,
                    "table": self,
                }
                if not everything:
                    arguments = {name: arguments[name] for name in wanted}
                content = render(**arguments)
            # What the template engine does to a value it prints: localise, then escape.
            return opening + conditional_escape(localize(template_localtime(content))) + "</td>"

        return cell


# Leaderboard ------------------------------------------------------------------------------------


class LeaderboardTable(ClubTable):
    """A league's standings; ``rank`` and ``status`` come from the queryset
    (:func:`ratings.selectors.league_standings`): provisional and inactive players are listed
    after the ranked ones, marked, without a rank."""

    rank = tables.Column(
        verbose_name=_("Rank"), order_by=("status", "rank", "player__name"), attrs=NUMBER
    )
    player = tables.Column(verbose_name=_("Player"), accessor="player", order_by=("player__name",))
    # The numbers a player looks for next to the name, so a phone shows them without
    # scrolling the table sideways; the games and the date may go behind the edge.
    rating = tables.Column(verbose_name=_("Rating"), attrs=NUMBER)
    last_change = tables.Column(
        verbose_name=_("Last change"), order_by=("last_change", "player__name"), attrs=NUMBER
    )
    games = tables.Column(verbose_name=_("Games"), order_by=("games", "player__name"), attrs=NUMBER)
    last_played_at = tables.Column(
        verbose_name=_("Last played"), order_by=("last_played_at", "player__name")
    )

    class Meta:
        attrs = {"class": "leaderboard"}
        empty_text = _("No one has played in this league yet.")

    def __init__(self, *args, system: RatingSystem, **kwargs):
        super().__init__(*args, **kwargs)
        self.system = system

    def render_rank(self, value: int, record) -> int | str:
        return value if record.status == Status.RANKED else ""

    def render_player(self, value, record) -> SafeString:
        if record.status == Status.RANKED:
            return self.player_link(value)
        label = Status(record.status).label
        return format_html('{} <span class="badge">{}</span>', self.player_link(value), label)

    def render_rating(self, value: float) -> str:
        return rating_text(value, self.system.rating_places)

    def render_last_change(self, value: float) -> SafeString | str:
        return change_html(
            value,
            lower_is_better=self.system.lower_is_better,
            places=self.system.rating_places,
        )

    def render_last_played_at(self, value: datetime) -> SafeString | str:
        return when_html(value, time=False)

    def order_rating(self, queryset, is_descending: bool):
        # Ties keep the name order both ways, so a page break never depends on the direction.
        # Ranked players stay above the provisional and inactive ones either way.
        rating = F("rating").desc() if is_descending else F("rating").asc()
        return queryset.order_by("status", rating, "player__name", "pk"), True


# Games ------------------------------------------------------------------------------------------


class LeagueGamesTable(ClubTable):
    """A league's games, newest first; each game's results come prefetched in seat order."""

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

    def render_played_at(self, value: datetime, record) -> SafeString:
        return format_html('<a href="{}">{}</a>', self.game_url(record.pk), when_html(value))

    def render_players(self, record) -> SafeString:
        return format_html_join(
            " · ",
            '<span class="seat">{} {} ({})</span>',
            (
                (
                    self.player_link(r.player),
                    self.system.score_text(r.score),
                    change_html(
                        r.change,
                        lower_is_better=self.system.lower_is_better,
                        places=self.system.rating_places,
                    ),
                )
                for r in record.results.all()
            ),
        )


class GameResultsTable(ClubTable):
    """One game's seats: the paper (Preferans), score, and each player's rating before and after."""

    seat = tables.Column(verbose_name=_("Seat"), attrs=card("seat", _("Seat")))
    player = tables.Column(verbose_name=_("Player"), attrs=card("title", number=False))
    left = tables.Column(verbose_name=_("Left"), attrs=card("more", _("Left")))
    middle = tables.Column(verbose_name=_("Middle"), attrs=card("more", _("Middle")))
    right = tables.Column(verbose_name=_("Right"), attrs=card("more", _("Right")))
    score = tables.Column(verbose_name=_("Score"), attrs=NUMBER)
    rating_before = tables.Column(
        verbose_name=_("Rating before"), attrs=card("key", _("Rating before"))
    )
    change = tables.Column(
        verbose_name=_("Change"), accessor="change", attrs=card("key", _("Change"))
    )
    rating_after = tables.Column(
        verbose_name=_("Rating after"), attrs=card("key", _("Rating after"))
    )

    class Meta:
        # One card per seat on a phone: the final score, the ratings and the change first.
        attrs = {"class": "results cards"}
        orderable = False

    def __init__(self, results, *, system: RatingSystem):
        score = tables.Column(
            verbose_name=system.score_label, attrs=card("key", system.score_label)
        )
        super().__init__(
            results,
            exclude=() if system.has_paper else ("left", "middle", "right"),
            extra_columns=[("score", score)],
        )
        self.system = system

    def render_seat(self, value: int) -> int:
        return value + 1

    def render_player(self, value) -> SafeString:
        return self.player_link(value)

    def render_middle(self, value: int) -> str:
        return number_text(value)

    def render_score(self, value: float) -> str:
        return self.system.score_text(value)

    def render_rating_before(self, value: float) -> str:
        return rating_text(value, self.system.rating_places)

    def render_change(self, value: float) -> SafeString | str:
        return change_html(
            value,
            lower_is_better=self.system.lower_is_better,
            places=self.system.rating_places,
        )

    def render_rating_after(self, value: float) -> str:
        return rating_text(value, self.system.rating_places)


class PrefkoTermsTable(ClubTable):
    """prefko's terms for each pair of players: C = D + T + N."""

    pair = tables.Column(verbose_name=_("Pair"))
    d = tables.Column(verbose_name="D", attrs=NUMBER)
    t = tables.Column(verbose_name="T", attrs=NUMBER)
    n = tables.Column(verbose_name="N", attrs=NUMBER)
    c = tables.Column(verbose_name="C", attrs=NUMBER)

    class Meta:
        attrs = {"class": "terms"}
        orderable = False

    def _term(self, value: float) -> str:
        return decimal_text(value, 3, plus=True)

    render_d = render_t = render_n = render_c = _term


@dataclass(frozen=True)
class ChangeExplained:
    """How one player's change follows from the pair terms: "(C12 + C13) / 2 = −27.4 → −27"."""

    name: str
    formula: str
    average: str
    change: SafeString | str


@dataclass(frozen=True)
class TermsExplained:
    """prefko's working for one game: the pair terms as a table and each player's change."""

    table: PrefkoTermsTable
    changes: list[ChangeExplained]


def explain_prefko_terms(results: list, terms: preferans.PrefkoTerms) -> TermsExplained:
    """The terms a game was rated with (recomputed from the stored ratings before it), for the
    game page: ``results`` in seating order, with their players."""
    names = [r.player.name for r in results]
    rows = [
        {
            "pair": f"{i + 1}–{j + 1}: {names[i]} – {names[j]}",
            "d": terms.d[k],
            "t": terms.t[k],
            "n": terms.n[k],
            "c": terms.c[k],
        }
        for k, (i, j) in enumerate(((0, 1), (0, 2), (1, 2)))
    ]
    changes = [
        ChangeExplained(
            name=name,
            formula=formula,
            average=decimal_text(average, 4),
            change=change_html(change, lower_is_better=True),
        )
        for name, formula, average, change in zip(
            names, preferans.CHANGE_FORMULAS, terms.averages, terms.changes, strict=True
        )
    ]
    return TermsExplained(table=PrefkoTermsTable(rows), changes=changes)


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

    def __init__(self, rows, *, system: RatingSystem, prefix: str):
        super().__init__(rows, prefix=prefix)
        self.system = system
        self.opponents: dict[int, list] = {}

    def render_played_at(self, value: datetime, record) -> SafeString:
        return format_html('<a href="{}">{}</a>', self.game_url(record.game_id), when_html(value))

    def render_opponents(self, value: int) -> SafeString:
        return format_html_join(", ", "{}", ((self.player_link(p),) for p in self.opponents[value]))

    def render_score(self, value: float) -> str:
        return self.system.score_text(value)

    def render_change(self, value: float) -> SafeString | str:
        return change_html(
            value,
            lower_is_better=self.system.lower_is_better,
            places=self.system.rating_places,
        )

    def render_rating_after(self, value: float) -> str:
        return rating_text(value, self.system.rating_places)


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


# Numbers in the cells only: the headers of these tables are long and may wrap on a phone (a
# header with the "num" class never does).
NUMBER_CELLS = {"td": {"class": "num"}}


def _record_label(system: RatingSystem):
    """The header of a win–draw–loss record: finished ahead, level, behind at a bigger table."""
    if system.wins_draws_losses:
        return _("Won – drawn – lost")
    return _("Ahead – level – behind")


def score_labels(system: RatingSystem) -> tuple[str, str]:
    """What a sum and an average of a league's game scores are called: final scores in
    Preferans, points (1 a win, ½ a draw) in a league of two-player games, scores otherwise."""
    if system.has_paper:
        return _("Final scores, in all"), _("Average final score")
    if system.wins_draws_losses:
        return _("Points"), _("Points per game")
    return _("Scores, in all"), _("Average score")


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
        return format_html('<a href="{}">{}</a>', self.game_url(record.game_id), when_html(value))

    def render_a_score(self, value: float) -> str:
        return self.system.score_text(value)

    render_b_score = render_a_score

    def render_a_change(self, value: float) -> SafeString | str:
        return change_html(
            value,
            lower_is_better=self.system.lower_is_better,
            places=self.system.rating_places,
        )

    render_b_change = render_a_change

    def render_ahead(self, record) -> str:
        if record.a_score == record.b_score:
            return _("draw") if self.system.wins_draws_losses else _("level")
        a_better = (record.a_score < record.b_score) == self.system.lower_score_is_better
        return (self.a if a_better else self.b).name


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

    def render_rating(self, value: float) -> str:
        return rating_text(value, self.system.rating_places)

    def render_change(self, value: float) -> SafeString | str:
        return change_html(
            value,
            lower_is_better=self.system.lower_is_better,
            places=self.system.rating_places,
        )

    def render_average_score(self, value: float) -> str:
        return number_text(value)


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
