"""The Content Security Policy: every page says it, and every page keeps to it.

The policy (club/settings.py) allows scripts and styles from the club's own origin only, so
nothing on a page may be inline: no <script> without src, no <style>, no on*= handler, no
style= attribute, no javascript: link. This reads each page's HTML for them; the browser test
(tests/e2e/test_content_security_policy.py) loads the pages in Chromium and fails on any
violation it reports, scripts that change styles at run time included.
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from ratings.events import services as event_services
from ratings.models import System
from tests.builders import make_event
from tests.worked_example import WORKED_EXAMPLE_PAPERS

pytestmark = pytest.mark.django_db


class InlineFinder(HTMLParser):
    """Everything in a page the policy would block, as readable strings."""

    def __init__(self):
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "script" and not attributes.get("src"):
            self.found.append("<script> without src")
        if tag == "style":
            self.found.append("<style>")
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}=…>")
            if name == "style":
                self.found.append(f'<{tag} style="{value}">')
            if name in ("href", "src", "action") and (value or "").strip().startswith(
                "javascript:"
            ):
                self.found.append(f"<{tag} {name}={value!r}>")


def inline_parts(html: str) -> list[str]:
    finder = InlineFinder()
    finder.feed(html)
    return finder.found


@pytest.fixture
def club(make_league, make_player, record_game, staff_user):
    """A Preferans league with two games, a scored league, and staff who may see everything."""
    league = make_league(System.PREFKO, name="Friday")
    hearts = make_league(System.RAYTER_LOWSCORE, name="Hearts", game_name="Hearts")
    players = [make_player(name) for name in ("Pedja", "Marko", "Johnny")]
    games = [record_game(league, players, papers=WORKED_EXAMPLE_PAPERS) for _ in range(2)]
    staff_user.user_permissions.add(*Permission.objects.filter(content_type__app_label="ratings"))
    event = make_event(league, players, organiser=staff_user)
    table = event_services.round_draw(event=event).tables.get()
    return {
        "league": league,
        "hearts": hearts,
        "player": players[0],
        "game": games[0],
        "event": event,
        "table": table,
    }


def pages(club) -> dict[str, str]:
    league, game = club["league"], club["game"]
    return {
        "home": reverse("ratings:home"),
        "leaderboard": reverse("ratings:leaderboard", args=[league.slug]),
        "games": reverse("ratings:league_games", args=[league.slug]),
        "game": reverse("ratings:game", args=[game.pk]),
        "player with a chart": reverse("ratings:player", args=[club["player"].slug]),
        "entry form": reverse("ratings:game_new", args=[league.slug]),
        "new player": reverse("ratings:player_new"),
        "rayter import": reverse("ratings:rayter_import", args=[club["hearts"].slug]),
        "admin": reverse("admin:index"),
        "admin games": reverse("admin:ratings_game_changelist"),
        "admin game": reverse("admin:ratings_game_change", args=[game.pk]),
        "admin new game": reverse("admin:ratings_game_add"),
        "admin league": reverse("admin:ratings_league_change", args=[league.pk]),
        "admin audit trail": reverse("admin:ratings_auditentry_changelist"),
        "events": reverse("ratings:event_list", args=[league.slug]),
        "new event": reverse("ratings:event_new", args=[league.slug]),
        "event": reverse("ratings:event", args=[club["event"].pk]),
        "event table": reverse("ratings:event_table", args=[club["table"].pk]),
        "table cards": reverse("ratings:round_cards", args=[club["event"].pk, 1]),
        "table's paper": reverse("ratings:game_new", args=[league.slug])
        + f"?table={club['table'].pk}",
        "admin event": reverse("admin:ratings_event_change", args=[club["event"].pk]),
        "a missing page": "/games/999999/",
    }


def directives(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {d.split()[0]: d.split()[1:] for d in header.split(";") if d.strip()}


def test_every_page_sends_the_policy(club, staff_client, client):
    responses = [staff_client.get(url) for url in pages(club).values()]
    responses += [client.get(reverse("login")), client.get(reverse("admin:login"))]

    for response in responses:
        policy = directives(response)
        assert policy["default-src"] == ["'self'"]
        assert policy["script-src"] == ["'self'"]
        assert policy["style-src"] == ["'self'"]
        assert policy["object-src"] == policy["base-uri"] == ["'none'"]
        assert policy["frame-ancestors"] == ["'none'"]
        assert policy["form-action"] == ["'self'"]


def test_no_page_has_inline_scripts_or_styles(club, staff_client, client):
    found = {name: staff_client.get(url) for name, url in pages(club).items()}
    found |= {"login": client.get(reverse("login")), "admin login": client.get("/admin/login/")}

    for name, response in found.items():
        assert response.status_code in (200, 404), (name, response.status_code)
        assert inline_parts(response.content.decode()) == [], name


def test_the_finder_finds_what_the_policy_blocks():
    html = (
        '<script>alert(1)</script><script src="/static/paper.js"></script><style>p{}</style>'
        '<p style="color:red" onclick="x()"><a href="javascript:x()">x</a></p>'
    )

    assert inline_parts(html) == [
        "<script> without src",
        "<style>",
        '<p style="color:red">',
        "<p onclick=…>",
        "<a href='javascript:x()'>",
    ]


def test_the_club_icon_answers_favicon_ico_and_needs_no_data_images(client):
    """Every page links the club's icon, and /favicon.ico (asked for by browsers and feed
    readers whatever a page says) leads to it, not to a 404; images keep to the club's origin."""
    page = client.get("/")
    assert 'href="/static/favicon.svg" type="image/svg+xml"' in page.content.decode()
    assert "data:" not in page["Content-Security-Policy"]

    response = client.get("/favicon.ico")
    assert (response.status_code, response["Location"]) == (302, "/static/favicon.svg")
