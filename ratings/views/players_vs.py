"""Two players head to head: ``/players/<a>/vs/<b>/``, and the player page's form that leads there.

Per league where they played together: their games (linked), how often each finished ahead of the
other, the sum and average of each one's scores, both rating lines on one chart, and the third
players they met most often together, and in Preferans the deals of their digital papers
(:mod:`ratings.papers.statistics`). The numbers come from
:mod:`ratings.selectors.statistics`, a fixed number of queries whatever the length of their
history (``tests/views/test_head_to_head.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe
from django_tables2 import RequestConfig

from ratings import selectors, versioning
from ratings.access import club_readable
from ratings.charts import history_series, rating_history_chart
from ratings.forms import find_player
from ratings.models import League, Player, PlayerAlias
from ratings.page_cache import cached_page

# The player page's chart tooltip, formatted only for the points drawn as markers.
from ratings.pagination import PAGINATION
from ratings.papers.statistics import PairDeals, pair_deal_statistics
from ratings.selectors import statistics
from ratings.tables import HeadToHeadGamesTable, PairRecordTable


@dataclass(frozen=True)
class PairSection:
    """Two players in one league: their record, a chart of both ratings, their games."""

    league: League
    record: statistics.PairRecord
    record_table: PairRecordTable
    chart: SafeString
    table: HeadToHeadGamesTable
    companions: list[statistics.Companion]
    deals: PairDeals | None = None  # Preferans: the deals of their digital papers


def _pair_or_redirect(a: str, b: str) -> tuple[Player, Player] | HttpResponse:
    """The two players, or a redirect to their addresses now (after a rename or a merge);
    404 for a slug that was never a player's."""
    found = {p.slug: p for p in Player.objects.filter(slug__in=(a, b)).only("name", "slug")}
    if a in found and b in found:
        return found[a], found[b]
    missing = {a, b} - set(found)
    renamed = dict(PlayerAlias.objects.filter(slug__in=missing).values_list("slug", "player__slug"))
    if missing - set(renamed):
        raise Http404("No such player")
    now_a, now_b = renamed.get(a, a), renamed.get(b, b)
    if now_a == now_b:
        return redirect("ratings:player", now_a, permanent=True)
    return redirect("ratings:head_to_head", now_a, now_b, permanent=True)


@require_safe
@club_readable
@cached_page(shows=versioning.PLAYERS_A_AND_B)
def head_to_head(request: HttpRequest, a: str, b: str) -> HttpResponse:
    """Two players' games together, per league: who finished ahead how often, each one's scores,
    both rating lines on one chart, and the third players they met most often together."""
    if a == b:
        return redirect("ratings:player", a)
    pair = _pair_or_redirect(a, b)
    if isinstance(pair, HttpResponse):
        return pair
    player_a, player_b = pair
    records = statistics.head_to_head(player_a, player_b)
    sections = []
    if records:
        leagues = League.objects.filter(pk__in=records).order_by("name")
        games = statistics.head_to_head_games(player_a, player_b)
        companions = statistics.head_to_head_companions(player_a, player_b)
        histories = selectors.rating_histories([player_a, player_b], records, places=False)
        deals = pair_deal_statistics(player_a, player_b)
        config = RequestConfig(request, paginate=PAGINATION)
        for league in leagues:
            table = HeadToHeadGamesTable(
                games[league.pk],
                a=player_a,
                b=player_b,
                system=league.rating_system,
                prefix=f"{league.slug}-",
            )
            config.configure(table)
            chart = rating_history_chart(
                [
                    history_series(
                        player.name,
                        histories[league.pk, player.pk],
                        league.rating_system.rating_places,
                    )
                    for player in (player_a, player_b)
                ],
                lower_is_better=league.lower_is_better,
            )
            sections.append(
                PairSection(
                    league=league,
                    record=records[league.pk],
                    record_table=PairRecordTable(
                        records[league.pk], a=player_a, b=player_b, system=league.rating_system
                    ),
                    chart=chart,
                    table=table,
                    companions=companions.get(league.pk, []),
                    deals=deals.get(league.pk),
                )
            )
    return render(
        request,
        "ratings/head_to_head.html",
        {"a": player_a, "b": player_b, "sections": sections},
    )


class OpponentForm(forms.Form):
    """Whom to compare a player with: part of a name, or an address, matched as on the games
    list's filter (:func:`ratings.forms.find_player`)."""

    opponent = forms.CharField(label=_("Head to head with"), max_length=80)

    def __init__(self, data, *, player: Player):
        super().__init__(data)
        self.player = player

    def clean_opponent(self) -> Player:
        typed = " ".join(self.cleaned_data["opponent"].split())
        opponent = find_player(typed, Player.objects.all(), not_found=_("No player “%(value)s”."))
        if opponent.pk == self.player.pk:
            raise forms.ValidationError(_("Choose someone else."))
        return opponent


@require_safe
@club_readable
@cached_page
def head_to_head_pick(request: HttpRequest, slug: str) -> HttpResponse:
    """The player page's "head to head with" form: to the two players' page, or say who is
    unknown."""
    player = Player.objects.only("name", "slug").filter(slug=slug).first()
    if player is None:
        # An old address (a rename or a merge) goes on to the player's address now.
        alias = get_object_or_404(PlayerAlias.objects.select_related("player"), slug=slug)
        url = reverse("ratings:head_to_head_pick", args=[alias.player.slug])
        query = request.GET.urlencode()
        return HttpResponsePermanentRedirect(f"{url}?{query}" if query else url)
    form = OpponentForm(request.GET if "opponent" in request.GET else None, player=player)
    if form.is_valid():
        return redirect("ratings:head_to_head", player.slug, form.cleaned_data["opponent"].slug)
    return render(request, "ratings/head_to_head_pick.html", {"player": player, "form": form})
