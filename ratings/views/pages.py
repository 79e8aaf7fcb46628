"""The club's public pages: leagues, leaderboards and their export, games, players.

Every view reads through :mod:`ratings.selectors`, so each page runs a fixed number of queries
however big the league or the player's history (pinned in ``tests/views/test_page_queries.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial

from django import forms
from django.core.paginator import EmptyPage, PageNotAnInteger
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    JsonResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.utils.http import content_disposition_header, urlencode
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe
from django_tables2 import RequestConfig

from ratings import exports, selectors, versioning
from ratings.access import can_enter_games, can_import_games, club_readable
from ratings.charts import correction_text, day_text, history_series, rating_history_chart
from ratings.download_cache import cached_download
from ratings.entry import selectors as entry_selectors
from ratings.events import answers, tonight
from ratings.events import selectors as event_selectors
from ratings.forms import find_player, periods, reports
from ratings.models import Game, League, Player, PlayerAlias, Standing
from ratings.page_cache import Rows, Statement, cached_page, kept_read
from ratings.pagination import PAGINATION, UNCOUNTED_PAGINATION, page_statement
from ratings.papers.selectors import papers_in_progress
from ratings.tables import (
    GameResultsTable,
    LeaderboardTable,
    LeagueGamesTable,
    PlayerGamesTable,
    SeasonTable,
    StatisticsPanel,
    explain_prefko_terms,
    statistics_panels,
)
from ratings.throttling import heavy_read

# The league page lists its latest events; the events page lists them all.
LATEST_EVENTS = 5
EXPORT_FORMATS = ("csv", "json")


class MinGamesForm(forms.Form):
    """The leaderboard's filter: only players with at least this many games."""

    min_games = forms.IntegerField(
        label=_("Minimum games"), min_value=0, max_value=1_000_000, required=False
    )
    inactive = forms.BooleanField(label=_("Show inactive players"), required=False)


class PlayerFilterForm(forms.Form):
    """The games list's filter: one player's games, by part of their name (or their slug).

    Names are matched the club's tolerant way, among the league's players
    (:func:`ratings.forms.find_player`: "ped" finds Pedja, "Pedia" suggests Pedja). The page
    suggests the league's players as the member types (a ``<datalist>``, :data:`DATALIST_ID`,
    filled from :func:`league_player_names` when the box is first used): a text box, where a
    league of thousands would make a ``<select>`` of thousands of options.
    """

    DATALIST_ID = "league-players"

    player = forms.CharField(
        label=_("Player"),
        required=False,
        max_length=80,
        widget=forms.TextInput(attrs={"list": DATALIST_ID, "autocomplete": "off"}),
    )

    def __init__(self, data, *, league: League):
        super().__init__(data)
        self.league = league

    def clean_player(self) -> str | None:
        typed = " ".join(self.cleaned_data["player"].split())
        if not typed:
            return None
        played = Player.objects.filter(standings__league=self.league, standings__games__gt=0)
        not_found = _("No player “%(value)s” has played in this league.")
        return find_player(typed, played, not_found=not_found).slug


def _filters(request: HttpRequest) -> tuple[MinGamesForm, dict]:
    """The leaderboard's filter form and the selector's arguments it gives (none if invalid)."""
    form = MinGamesForm(request.GET)
    if not form.is_valid():
        return form, {}
    return form, {
        "min_games": form.cleaned_data["min_games"],
        "show_inactive": form.cleaned_data["inactive"],
    }


# Leagues ----------------------------------------------------------------------------------------


@require_safe
@club_readable
@cached_page
def home(request: HttpRequest) -> HttpResponse:
    """The leagues, with how many play in each and when they last did, and the digital papers
    in progress (a player of the table finds the paper to continue it); above them the club
    nights in progress, with the member's own table (ratings/events/tonight.py), and the nights
    planned ahead with who is coming and the member's one-tap answer."""
    player = getattr(request.user, "player", None) if request.user.is_authenticated else None
    leagues = list(selectors.leagues_overview())
    in_progress = papers_in_progress(league.pk for league in leagues)
    for league in leagues:
        league.papers_in_progress = in_progress.get(league.pk, [])
    # The nights planned ahead, who is coming, and the member's own answer (two queries).
    planned = answers.upcoming_nights()
    answered = answers.answers_of(planned)
    return render(
        request,
        "ratings/home.html",
        {
            "leagues": leagues,
            "planned": [
                (event, answered[event.pk], answers.answer_of(answered[event.pk], player))
                for event in planned
            ],
            "tonight": tonight.tonight(player),
            "can_enter_games": can_enter_games(request.user),
            "asks": entry_selectors.waiting_for(request.user),
        },
    )


def _period(request: HttpRequest) -> tuple[periods.PeriodForm, periods.Period | None]:
    """The leaderboard's period, read once for its key and its drawing."""
    if not hasattr(request, "club_period"):
        request.club_period = periods.period_filter(request)
    return request.club_period


def _league_or_season(request: HttpRequest, kwargs: dict) -> tuple[versioning.Shows, dict]:
    """A leaderboard showing a whole season is keyed by that season's versions and its frame's
    (a game of this year leaves last year's table cached); any other, by its league's."""
    _form, period = _period(request)
    if period is None or period.season is None:
        return versioning.LEAGUE_BY_SLUG, kwargs
    return versioning.SEASON_BY_SLUG, {**kwargs, "year": period.season}


def _standings_frame(request: HttpRequest, kwargs: dict) -> tuple[versioning.Shows, dict] | None:
    """Around the standings of all time: the league's frame (its events, papers in progress and
    seasons' tabs, :mod:`ratings.versioning`), the rest of the page's second key
    (:func:`_standings_statement`); a period's table has none."""
    if _period(request)[1] is not None:
        return None
    return versioning.SEASON_BY_SLUG, {**kwargs, "year": versioning.FRAME_YEAR}


@dataclass(frozen=True)
class Standings:
    """The leaderboard of all time: its league, filter and table, its page's rows read."""

    league: League
    filter_form: MinGamesForm
    filters: dict
    table: LeaderboardTable


def _standings(request: HttpRequest, slug: str) -> Standings:
    league = get_object_or_404(selectors.leagues_with_seasons(), slug=slug)
    filter_form, filters = _filters(request)
    table = LeaderboardTable(
        selectors.league_standings(league, **filters),
        system=league.rating_system,
        order_by="rating" if league.lower_is_better else "-rating",
    )
    RequestConfig(request, paginate=PAGINATION).configure(table)
    return Standings(league, filter_form, filters, table)


def _standings_statement(request: HttpRequest, slug: str) -> Statement | None:
    """The statement that reads the rows the leaderboard of all time shows, for its second key
    (a game of players off its page leaves it as it was); the table built for it is left on
    the request for its drawing."""
    request.club_standings = standings = _standings(request, slug)
    return page_statement(standings.table, request)


@require_safe
@club_readable
@cached_page(
    shows=_league_or_season,
    rows=Rows(frame=_standings_frame, statement=_standings_statement),
)
def leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    """A league's standings: ranked in the league's direction, sortable, filterable; or its
    table for a period (a season or dates, :mod:`ratings.forms.periods`)."""
    period_form, period = _period(request)
    if period is None:
        standings = getattr(request, "club_standings", None) or _standings(request, slug)
        league, filter_form, filters, table = (
            standings.league,
            standings.filter_form,
            standings.filters,
            standings.table,
        )
    else:
        league = get_object_or_404(selectors.leagues_with_seasons(), slug=slug)
        filter_form, filters = _filters(request)
        table = SeasonTable(
            selectors.season_standings(
                league, period.start, period.end, by=period.by, min_games=filters.get("min_games")
            ),
            system=league.rating_system,
        )
        RequestConfig(request, paginate=PAGINATION).configure(table)
    return render(
        request,
        "ratings/leaderboard.html",
        {
            "league": league,
            "table": table,
            "filter_form": filter_form,
            "min_games": filters.get("min_games"),
            "period_form": period_form,
            "period": period,
            "tabs": periods.season_tabs(request, selectors.league_years(league), period),
            "rank_by": periods.rank_by_links(request, period),
            "export_query": _export_query(filters, period),
            "can_enter_games": can_enter_games(request.user),
            # Asked only on a scored league's page, where the import link is (two permission
            # queries for a staff account).
            "can_import_games": lambda: can_import_games(request.user),
            "events": event_selectors.league_events(league)[:LATEST_EVENTS],
            # The digital papers being kept at a table, to watch or continue (one query).
            "papers_in_progress": (
                papers_in_progress([league.pk]).get(league.pk, [])
                if league.rating_system.has_paper
                else []
            ),
        },
    )


def _export_query(filters: dict, period: periods.Period | None = None) -> str:
    """The filters and period shown, for the export links: the download has the same rows."""
    query = {}
    if filters.get("min_games"):
        query["min_games"] = filters["min_games"]
    if filters.get("show_inactive") and period is None:
        query["inactive"] = "on"
    if period is not None:
        query.update(period.query())
    return urlencode(query)


@require_safe
@club_readable
@cached_download(shows=versioning.LEAGUE_BY_SLUG)
@heavy_read
def leaderboard_export(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    """The leaderboard (with its filter) as a CSV or JSON download, in rank order."""
    if fmt not in EXPORT_FORMATS:
        raise Http404("Unknown export format")
    league = get_object_or_404(League, slug=slug)
    filter_form, filters = _filters(request)
    if not filter_form.is_valid():
        return HttpResponseBadRequest(
            " ".join(filter_form.errors["min_games"]), content_type="text/plain; charset=utf-8"
        )
    period_form, period = periods.period_filter(request)
    if not period_form.is_valid():
        return HttpResponseBadRequest(
            period_form.error_text(), content_type="text/plain; charset=utf-8"
        )
    min_games = filters.get("min_games")
    if period is None:
        rows = exports.standings_rows(
            league, min_games=min_games, show_inactive=filters.get("show_inactive", False)
        )
    else:
        rows = exports.period_rows(league, period, min_games=min_games)
    if fmt == "json":
        response = HttpResponse(
            exports.standings_json(league, rows, period=period), content_type="application/json"
        )
    else:
        response = HttpResponse(
            exports.standings_csv(rows, period=period), content_type="text/csv; charset=utf-8"
        )
    response["Content-Disposition"] = content_disposition_header(
        True, exports.standings_filename(league, fmt, period=period)
    )
    return response


# Games ------------------------------------------------------------------------------------------


@require_safe
@club_readable
@cached_page(shows=versioning.LEAGUE_BY_SLUG)
def league_games(request: HttpRequest, slug: str) -> HttpResponse:
    """A league's games, newest first, optionally one player's only."""
    league = get_object_or_404(League, slug=slug)
    filter_form = PlayerFilterForm(request.GET, league=league)
    oldest_first = request.GET.get("order") == "oldest"
    if filter_form.is_valid():
        games = selectors.league_games(
            league, player_slug=filter_form.cleaned_data["player"], oldest_first=oldest_first
        )
    else:
        games = Game.objects.none()
    table = LeagueGamesTable(games, system=league.rating_system)
    past_the_end = False
    try:
        RequestConfig(request, paginate={**UNCOUNTED_PAGINATION, "silent": False}).configure(table)
    except PageNotAnInteger:
        RequestConfig(request, paginate=UNCOUNTED_PAGINATION).configure(table)
    except EmptyPage:
        # A page past the end (an old link, a typed number) says so: it is not page 1.
        past_the_end = True
    if not past_the_end:
        table.seats = selectors.seats_by_game(row.record.pk for row in table.page.object_list)
    return render(
        request,
        "ratings/league_games.html",
        {
            "league": league,
            "table": table,
            "filter_form": filter_form,
            "oldest_first": oldest_first,
            "past_the_end": past_the_end,
            "orders": _order_links(request, oldest_first),
            "can_enter_games": can_enter_games(request.user),
            "waiting": entry_selectors.waiting_in_league(league),
        },
    )


@require_safe
@club_readable
@cached_download(shows=versioning.LEAGUE_BY_SLUG)
def league_player_names(request: HttpRequest, slug: str) -> HttpResponse:
    """Everyone who has played in the league, by name, as a JSON list: the games list's filter
    suggests them as the member types. The page does not carry them: static/forms.js fetches
    them when the box is first used, so a league of thousands does not put its every name in
    each drawing of its games list and in each phone's download of it."""
    league = get_object_or_404(League, slug=slug)
    names = (
        Standing.objects.filter(league=league, games__gt=0)
        .order_by("player__name")
        .values_list("player__name", flat=True)
    )
    return JsonResponse(list(names), safe=False)


def _order_links(request: HttpRequest, oldest_first: bool) -> list[periods.Link]:
    """Newest first and oldest first, each keeping the player filter (and back to page 1)."""
    kept = {"player": request.GET["player"]} if request.GET.get("player") else {}
    return [
        periods.Link(_("Newest first"), urlencode(kept), not oldest_first),
        periods.Link(_("Oldest first"), urlencode({**kept, "order": "oldest"}), oldest_first),
    ]


@require_safe
@club_readable
@cached_page(shows=versioning.GAME_BY_PK)
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """One game: its paper or scores, each player's rating change, and for prefko the why."""
    game = get_object_or_404(selectors.game_detail(), pk=pk)
    league = game.league
    results = list(game.results.all())
    terms = league.rating_system.rating_terms(
        [r.rating_before for r in results], [r.score for r in results], game.bula
    )
    return render(
        request,
        "ratings/game_detail.html",
        {
            "game": game,
            "league": league,
            "results": results,
            "table": GameResultsTable(results, system=league.rating_system),
            "terms": terms and explain_prefko_terms(results, terms),
            "edited": (game.updated_at - game.created_at).total_seconds() > 1,
            # A player of the game may tell the staff of a mistake (ratings/views/reports.py),
            # and sees what became of the reports they sent.
            **(
                {
                    "report_form": reports.GameReportForm(),
                    "my_reports": reports.reports_by(request.user, game),
                }
                if reports.played_in(request.user, results)
                else {}
            ),
        },
    )


# Players ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CorrectionLine:
    """A correction's line on the player's page: when it was made, and what it did (HTML, its
    game linked)."""

    at: datetime
    text: SafeString

    @property
    def day(self) -> str:
        # The same long date as the game's in the text: one format in one line.
        return day_text(self.at)


@dataclass
class LeagueSection:
    """A player's part of one league on their page."""

    standing: Standing
    chart: SafeString
    table: PlayerGamesTable
    statistics: StatisticsPanel | None = None
    # Why the rating moved without a game: each correction by staff, oldest first.
    corrections: list[CorrectionLine] = field(default_factory=list)

    @property
    def league(self) -> League:
        return self.standing.league

    @property
    def provisional(self) -> bool:
        """Unranked for too few games (a player unranked otherwise is inactive)."""
        return self.standing.status == selectors.Status.PROVISIONAL


def _chart(
    league: League,
    rows: Sequence[selectors.HistoryRow],
    corrections: list[selectors.CorrectionRow],
) -> SafeString:
    return rating_history_chart(
        [history_series(league.name, rows, league.rating_system.rating_places, corrections)],
        lower_is_better=league.lower_is_better,
    )


def _ranks(request: HttpRequest, slug: str) -> str:
    """The player's status and rank in each of their leagues: other players' games move their
    rank, and no version of the player's covers it, so the page's key holds it (read at every
    request, after the versions; the page drawn uses this reading). Kept by every league's
    versions, which any game that may move a rank moves: between two games, a request reads
    one more version instead of the standings."""
    request.club_player_standings = standings = kept_read(
        f"ranks:{slug}", versioning.current(), partial(selectors.player_standings, slug)
    )
    return ";".join(f"{s.league_id}:{s.status}:{s.rank}" for s in standings)


@require_safe
@club_readable
@cached_page(shows=versioning.PLAYER_BY_SLUG, read_too=_ranks)
def player_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """A player's leagues: rating, rank, statistics, rating history chart and games, page by
    page."""
    standings = getattr(request, "club_player_standings", None)
    if standings is None:
        standings = selectors.player_standings(slug)
    if standings:
        player = standings[0].player
    else:
        player = Player.objects.only("name", "slug").filter(slug=slug).first()
    if player is None:
        # An address from before a rename or a merge: the player is still there, under another.
        alias = get_object_or_404(PlayerAlias.objects.select_related("player"), slug=slug)
        return redirect(alias.player, permanent=True)
    history, corrections = selectors.player_history_and_corrections(player)
    panels = statistics_panels(player, [standing.league for standing in standings], history)
    config = RequestConfig(request, paginate=PAGINATION)
    sections = []
    for standing in standings:
        league = standing.league
        line = history.get(league.pk)
        fixes = corrections.get(league.pk, [])
        table = PlayerGamesTable(
            line.newest_first() if line else [],
            system=league.rating_system,
            prefix=f"{league.slug}-",
        )
        config.configure(table)
        sections.append(
            LeagueSection(
                standing=standing,
                chart=_chart(league, line or [], fixes),
                table=table,
                statistics=panels.get(league.pk),
                corrections=[
                    CorrectionLine(
                        fix.at,
                        correction_text(fix, league.rating_system.rating_places, linked=True),
                    )
                    for fix in fixes
                ],
            )
        )
    # Opponents only for the rows on the pages shown, all leagues at once.
    opponents = selectors.opponents_by_game(
        (row.record.game_id for section in sections for row in section.table.page.object_list),
        player=player,
    )
    for section in sections:
        section.table.opponents = opponents
    return render(
        request,
        "ratings/player_detail.html",
        {
            "player": player,
            "sections": sections,
            "events": event_selectors.player_events(player),
            "waiting": entry_selectors.waiting_with(player),
            "show_league": True,
        },
    )


@require_safe
def club_icon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, asked for by browsers and feed readers whatever a page says: the club's
    icon, not a 404. Its address is the build's (a name hashed from the file), so it is looked
    up at each request and the redirect is temporary: browsers keep a permanent one for ever,
    past the release that renames the icon."""
    return redirect(static("favicon.svg"))
