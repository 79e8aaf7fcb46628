"""The player directory: every player, found by name the club's tolerant way.

Reads through :func:`ratings.selectors.players_directory`; a page costs the same number of
queries however many players and leagues the club has (pinned in
``tests/views/test_page_queries.py``).
"""

from __future__ import annotations

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe
from django_tables2 import RequestConfig

from ratings import selectors
from ratings.access import club_readable
from ratings.models import Player
from ratings.page_cache import cached_page
from ratings.pagination import PAGINATION
from ratings.tables import PlayerDirectoryTable


class PlayerSearchForm(forms.Form):
    """The directory's search: part of a name, spelled any way the club writes it."""

    q = forms.CharField(
        label=_("Find a player"),
        required=False,
        max_length=60,
        widget=forms.SearchInput(attrs={"autocomplete": "off"}),
    )


@require_safe
@club_readable
@cached_page
def player_list(request: HttpRequest) -> HttpResponse:
    """Every player by name, or those matching ``?q=``, with their leagues, page by page."""
    form = PlayerSearchForm(request.GET)
    if form.is_valid():
        query = form.cleaned_data["q"]
        players = selectors.players_directory(query)
    else:
        query, players = "", Player.objects.none()
    table = PlayerDirectoryTable(players)
    RequestConfig(request, paginate=PAGINATION).configure(table)
    return render(
        request, "ratings/player_list.html", {"table": table, "form": form, "query": query}
    )
