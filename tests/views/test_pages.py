"""The public pages: who may read them, what they show, and that names are shown, not run."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from ratings.models import System
from tests.builders import IMG, SCRIPT, assert_escaped
from tests.views.pages import played_event, text, urls
from tests.worked_example import WORKED_EXAMPLE_PAPERS

pytestmark = pytest.mark.django_db


def page_urls(league, game, player) -> list[str]:
    return [
        reverse("ratings:home"),
        reverse("ratings:leaderboard", args=[league.slug]),
        reverse("ratings:leaderboard_export", args=[league.slug, "csv"]),
        reverse("ratings:leaderboard_export", args=[league.slug, "json"]),
        reverse("ratings:league_games", args=[league.slug]),
        reverse("ratings:game", args=[game.pk]),
        reverse("ratings:player", args=[player.slug]),
    ]


# Access -----------------------------------------------------------------------------------------


def test_it_shows_every_page_to_visitors(
    client, worked_example_game, worked_example_league, worked_example_players
):
    for url in page_urls(worked_example_league, worked_example_game, worked_example_players[0]):
        assert client.get(url).status_code == 200, url


def test_it_sends_visitors_to_login_when_the_club_is_private(
    client, settings, worked_example_game, worked_example_league, worked_example_players
):
    settings.CLUB_PRIVATE = True
    for url in page_urls(worked_example_league, worked_example_game, worked_example_players[0]):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login") + "?next=")


def test_members_read_a_private_club(
    member_client, settings, worked_example_game, worked_example_league, worked_example_players
):
    settings.CLUB_PRIVATE = True
    for url in page_urls(worked_example_league, worked_example_game, worked_example_players[0]):
        assert member_client.get(url).status_code == 200, url


def test_pages_refuse_to_be_posted_to(client, worked_example_game, worked_example_league):
    assert (
        client.post(reverse("ratings:leaderboard", args=[worked_example_league.slug])).status_code
        == 405
    )
    assert client.post(reverse("ratings:game", args=[worked_example_game.pk])).status_code == 405


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("ratings:leaderboard", ["no-such-league"]),
        ("ratings:leaderboard_export", ["no-such-league", "csv"]),
        ("ratings:league_games", ["no-such-league"]),
        ("ratings:game", [999999]),
        ("ratings:player", ["no-such-player"]),
    ],
)
def test_it_answers_404_for_what_does_not_exist(client, db, name, args):
    assert client.get(reverse(name, args=args)).status_code == 404


def test_export_in_an_unknown_format_is_404(client, worked_example_league):
    url = reverse("ratings:leaderboard_export", args=[worked_example_league.slug, "xlsx"])
    assert client.get(url).status_code == 404


# Home -------------------------------------------------------------------------------------------


def test_home_lists_leagues_with_their_direction_and_counts(
    client, worked_example_game, worked_example_league, make_league
):
    make_league(System.ELO, name="Chess")
    page = text(client.get(reverse("ratings:home")))

    assert "Friday Preferans" in page
    assert "Preferans (prefko, lower is better)" in page
    assert "lower rating is better" not in page  # once is enough: the system's name says it
    assert "higher rating is better" in page  # Chess
    assert "3 players · 1 game · last game 2026-01-01" in page
    assert "Chess" in page
    assert "0 players · 0 games · no games yet" in page


def test_home_offers_game_entry_to_members_only(client, member_client, worked_example_league):
    new_game = reverse("ratings:game_new", args=[worked_example_league.slug])
    assert new_game not in client.get(reverse("ratings:home")).content.decode()
    assert new_game in member_client.get(reverse("ratings:home")).content.decode()


# The worked example's game ------------------------------------------------------------------------


def test_the_worked_example_game_page_shows_paper_scores_and_ratings(client, worked_example_game):
    response = client.get(reverse("ratings:game", args=[worked_example_game.pk]))
    page = text(response)

    assert "Starting bula 30" in page
    assert "by member on" in page
    # Seat, player, left, middle, right, final score, before, change, after.
    assert "1 Pedja 320 −20 160 −500 1200 −27 1173" in page
    assert "2 Marko 120 4 60 40 1150 +2 1152" in page
    assert "3 Johnny 20 16 60 460 1100 +25 1125" in page
    assert "ended early" not in page.lower()
    html = response.content.decode()
    # prefko: a lower rating is better, so Pedja's fall is the good colour and Johnny's rise not.
    assert '<span class="better">−27</span>' in html
    assert '<span class="worse">+25</span>' in html


def test_the_worked_example_game_page_explains_the_prefko_terms(client, worked_example_game):
    page = text(client.get(reverse("ratings:game", args=[worked_example_game.pk])))

    assert "Why the ratings moved" in page
    assert "C = D + T + N" in page
    # D = score difference / bula, T = rating difference * 2.8 / 100, N = ±bula / 100.
    assert "1–2: Pedja – Marko −18 −1.4 −0.3 −19.7" in page
    assert "1–3: Pedja – Johnny −32 −2.8 −0.3 −35.1" in page
    assert "2–3: Marko – Johnny −14 −1.4 −0.3 −15.7" in page
    assert "Pedja: (C12 + C13) / 2 = −27.4 → −27" in page
    assert "Marko: (−C12 + C23) / 2 = 2 → +2" in page
    assert "Johnny: (−C13 − C23) / 2 = 25.4 → +25" in page


def test_a_game_shows_when_it_ended_early(client, make_league, make_player, record_game):
    league = make_league(System.PREFKO)
    players = [make_player() for _ in range(3)]
    papers = [(10, 2, 10), (10, 2, 10), (10, 0, 10)]
    game = record_game(league, players, papers=papers, ended_early=True)

    assert "Ended early" in text(client.get(reverse("ratings:game", args=[game.pk])))


def test_a_head_to_head_game_shows_win_and_loss(client, make_league, make_player, record_game):
    league = make_league(System.ELO, start_rating=2100)
    alice, bob = make_player("Alice"), make_player("Bob")
    game = record_game(league, [alice, bob], scores=[1, 0])
    draw = record_game(league, [alice, bob], scores=[0.5, 0.5])

    page = text(client.get(reverse("ratings:game", args=[game.pk])))
    assert "Result" in page
    assert "Left" not in page
    assert "1 Alice Win 2100 +16 2116" in page
    assert "2 Bob Loss 2100 −16 2084" in page
    assert "Why the ratings moved" not in page
    assert "Alice Draw" in text(client.get(reverse("ratings:game", args=[draw.pk])))


def test_a_game_links_to_the_previous_and_next_game_of_its_league(
    client, make_league, make_player, record_game
):
    league, other = make_league(System.ELO), make_league(System.ELO)
    a, b = make_player(), make_player()
    first = record_game(league, [a, b], scores=[1, 0])
    record_game(other, [a, b], scores=[1, 0])  # another league's game falls in between
    second = record_game(league, [a, b], scores=[0, 1])
    # Same time as the second: the order of entry decides.
    third = record_game(league, [a, b], scores=[0, 1], played_at=second.played_at)

    def links(game):
        html = client.get(reverse("ratings:game", args=[game.pk])).content.decode()
        prev = re.search(r'href="/games/(\d+)/" rel="prev"', html)
        after = re.search(r'href="/games/(\d+)/" rel="next"', html)
        return (prev and int(prev[1]), after and int(after[1]))

    assert links(first) == (None, second.pk)
    assert links(second) == (first.pk, third.pk)
    assert links(third) == (second.pk, None)


def test_staff_see_a_link_to_edit_the_game_in_admin(
    client, member_client, staff_client, worked_example_game
):
    url = reverse("ratings:game", args=[worked_example_game.pk])
    admin_url = reverse("admin:ratings_game_change", args=[worked_example_game.pk])
    assert admin_url in staff_client.get(url).content.decode()
    assert admin_url not in member_client.get(url).content.decode()
    assert admin_url not in client.get(url).content.decode()


# Games list -------------------------------------------------------------------------------------


def test_games_list_is_newest_first_with_scores_and_changes(
    client, worked_example_game, worked_example_league, worked_example_players, record_game
):
    later = record_game(
        worked_example_league,
        worked_example_players[::-1],
        papers=WORKED_EXAMPLE_PAPERS,
        played_at=worked_example_game.played_at + timedelta(days=1),
    )
    response = client.get(reverse("ratings:league_games", args=[worked_example_league.slug]))
    html = response.content.decode()

    assert html.index(f"/games/{later.pk}/") < html.index(f"/games/{worked_example_game.pk}/")
    assert "Pedja −500 ( −27 )" in text(response)
    assert "Marko 40 ( +2 )" in text(response)


def test_games_list_filters_by_player(
    client, worked_example_game, worked_example_league, make_player, record_game
):
    others = [make_player("Ana"), make_player("Bora"), make_player("Ceca")]
    theirs = record_game(worked_example_league, others, papers=WORKED_EXAMPLE_PAPERS)
    url = reverse("ratings:league_games", args=[worked_example_league.slug])

    html = client.get(url, {"player": "ana"}).content.decode()
    assert f"/games/{theirs.pk}/" in html
    assert f"/games/{worked_example_game.pk}/" not in html

    html = client.get(url, {"player": "pedja"}).content.decode()
    assert f"/games/{worked_example_game.pk}/" in html
    assert f"/games/{theirs.pk}/" not in html


def test_games_list_takes_part_of_a_name_spelled_any_way_and_suggests_the_players(
    client, worked_example_game, worked_example_league, make_player, record_game
):
    others = [make_player("Peđa Kovač"), make_player("Bora"), make_player("Ceca")]
    theirs = record_game(worked_example_league, others, papers=WORKED_EXAMPLE_PAPERS)
    url = reverse("ratings:league_games", args=[worked_example_league.slug])

    def games_of(typed: str) -> set[int]:
        html = client.get(url, {"player": typed}).content.decode()
        return {int(pk) for pk in re.findall(r'<a href="/games/(\d+)/">', html)}

    assert games_of("kovac") == {theirs.pk}  # part of a name, without its accents
    assert games_of("BOR") == {theirs.pk}
    assert games_of("Pedja") == {worked_example_game.pk}  # a whole name: that player
    assert games_of("johnn") == {worked_example_game.pk}
    several = client.get(url, {"player": "ped"})
    assert "“ped” fits several players: Pedja, Peđa Kovač. Type more of the name." in text(several)
    page = client.get(url).content.decode()
    assert 'list="league-players"' in page
    names_url = reverse("ratings:league_player_names", args=[worked_example_league.slug])
    assert f'<datalist id="league-players" data-names="{names_url}"></datalist>' in page
    assert client.get(names_url).json() == [
        "Bora", "Ceca", "Johnny", "Marko", "Pedja", "Peđa Kovač",
    ]  # fmt: skip


def test_a_list_of_names_is_escaped_as_django_escapes():
    """{% name_options %}: the entry forms' lists of the club's players."""
    from django.template import engines
    from django.utils.html import escape

    odd = 'Ana "Ace" O\'Neil <b>&'
    template = engines["django"].from_string("{% load club_forms %}{% name_options names %}")
    html = template.render({"names": [odd, "Bora"]})
    assert html == f'<option value="{escape(odd)}"><option value="Bora">'


def test_the_games_lists_names_come_as_data_when_asked_for(
    client, worked_example_game, worked_example_league, make_player, record_game
):
    """The games list does not carry its league's names (static/forms.js fetches them when
    the filter's box is first used): they come as a JSON list, a new player's among them."""
    odd = 'Ana "Ace" O\'Neil <b>&'
    names_url = reverse("ratings:league_player_names", args=[worked_example_league.slug])
    assert odd not in client.get(names_url).json()
    record_game(
        worked_example_league,
        [make_player(odd), make_player("Bora"), make_player("Ceca")],
        papers=WORKED_EXAMPLE_PAPERS,
    )
    response = client.get(names_url)
    assert response["Content-Type"] == "application/json"
    assert odd in response.json()
    page = client.get(reverse("ratings:league_games", args=[worked_example_league.slug]))
    assert re.search(
        r'<datalist id="league-players" data-names="[^"]+"></datalist>', page.content.decode()
    )


def test_games_list_with_an_unknown_player_says_so(
    client, worked_example_game, worked_example_league
):
    url = reverse("ratings:league_games", args=[worked_example_league.slug])
    response = client.get(url, {"player": "nobody"})

    assert response.status_code == 200
    assert "No player “nobody” has played in this league." in text(response)
    assert f"/games/{worked_example_game.pk}/" not in response.content.decode()


def test_games_list_suggests_the_name_a_typo_is_close_to(
    client, worked_example_game, worked_example_league
):
    url = reverse("ratings:league_games", args=[worked_example_league.slug])
    response = client.get(url, {"player": "Pedia"})

    assert "No player “Pedia” has played in this league. Did you mean Pedja?" in text(response)


def test_games_list_pages_by_50(client, prefko_league_with):
    league, _ = prefko_league_with(players=4, games=53)
    url = reverse("ratings:league_games", args=[league.slug])

    first = client.get(url)
    assert len(first.context["table"].page.object_list) == 50
    assert len(client.get(url, {"page": 2}).context["table"].page.object_list) == 3
    assert client.get(url, {"page": "x"}).status_code == 200


# Player page ------------------------------------------------------------------------------------


def test_player_page_shows_rating_rank_chart_and_games(
    client, worked_example_game, worked_example_players
):
    response = client.get(reverse("ratings:player", args=[worked_example_players[1].slug]))
    page = text(response)
    html = response.content.decode()

    assert "Friday Preferans" in page
    assert "Rating 1152, rank 2, 1 game." in page
    assert "lower rating is better" in page
    assert '<svg class="rating-chart phone"' in html
    assert '<svg class="rating-chart wide"' in html
    assert f'href="/games/{worked_example_game.pk}/"' in html
    # Opponents linked, in seat order; score, change, rating after.
    assert f'<a href="{worked_example_players[0].get_absolute_url()}">Pedja</a>' in html
    assert "Pedja , Johnny 40 +2 1152" in page


def test_player_page_pages_each_league_on_its_own(
    client, prefko_league_with, make_league, make_player, record_game
):
    league, people = prefko_league_with(players=3, games=55)
    chess = make_league(System.ELO)
    other = make_player()
    for n in range(3):
        record_game(chess, [people[0], other], scores=[n % 2, 1 - n % 2])
    url = reverse("ratings:player", args=[people[0].slug])

    response = client.get(url, {f"{league.slug}-page": 2})
    tables = {s.league.pk: s.table for s in response.context["sections"]}
    assert tables[league.pk].page.number == 2
    assert len(tables[league.pk].page.object_list) == 5
    assert tables[chess.pk].page.number == 1
    assert len(tables[chess.pk].page.object_list) == 3
    # Newest first.
    rows = [row.record for row in tables[chess.pk].page.object_list]
    assert rows[0].played_at > rows[-1].played_at


def test_a_player_without_games_has_a_page(client, make_player):
    player = make_player("Newcomer")
    response = client.get(reverse("ratings:player", args=[player.slug]))
    assert response.status_code == 200
    assert "No games yet." in text(response)


# Escaping ---------------------------------------------------------------------------------------


def test_a_hostile_player_name_is_shown_not_run(
    client, worked_example_league, make_player, record_game
):
    players = [make_player("<script>alert(1)</script>"), make_player(), make_player()]
    game = record_game(worked_example_league, players, papers=WORKED_EXAMPLE_PAPERS)
    urls = page_urls(worked_example_league, game, players[0])

    for url in [urls[1], *urls[4:]]:  # the pages that show player names
        html = client.get(url).content.decode()
        assert "<script>alert(1)" not in html, url
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, url


# Odd input --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    ["page=0", "page=-3", "page=x", "page=999", "per_page=-1", "per_page=0", "sort=-nonsense"],
)
def test_odd_paging_and_sorting_never_fail(
    client, worked_example_game, worked_example_league, worked_example_players, query
):
    pages = [
        reverse("ratings:leaderboard", args=[worked_example_league.slug]),
        reverse("ratings:league_games", args=[worked_example_league.slug]),
        reverse("ratings:player", args=[worked_example_players[0].slug]),
    ]
    for url in pages:
        assert (
            client.get(f"{url}?{query}&{worked_example_league.slug}-{query}").status_code == 200
        ), url


def test_a_visitor_cannot_change_the_page_size(client, prefko_league_with):
    league, _ = prefko_league_with(players=4, games=53)
    response = client.get(reverse("ratings:league_games", args=[league.slug]), {"per_page": 1000})
    assert len(response.context["table"].page.object_list) == 50


# Names with HTML: escaped on every page ----------------------------------------------------------


def test_html_names_are_escaped_on_every_page(client, hostile_club):
    """Every page of tests/views/pages.py's ``urls`` (the pages whose queries are pinned), on a
    club whose league, event and players are named in HTML: both names escaped on each."""
    league, players, game = hostile_club
    event = played_event(league, players, rounds=1, name=f"Cup {SCRIPT} {IMG}")
    pages = urls(league, game, players[0], event)
    html_pages = {page: url for page, url in pages.items() if not page.endswith("export")}
    # the CSV exports (tests/views/test_games_export.py) and the games list's names (JSON)
    assert len(html_pages) == len(pages) - 3

    for url in html_pages.values():
        assert_escaped(client.get(url))


def test_login_where_people_look_for_it_first_goes_to_the_login_page(client):
    response = client.get("/login/?next=/players/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/players/"
