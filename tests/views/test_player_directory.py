"""The player directory (/players/): every player, found by name the club's tolerant way, each
with their leagues; and the header's "My page" for a member whose login is linked to a player."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import System
from tests.views.pages import QUERIES

pytestmark = pytest.mark.django_db

URL = reverse("ratings:player_list")


def names_found(response) -> list[str]:
    return [row.record.name for row in response.context["table"].paginated_rows]


def search(client, query: str) -> list[str]:
    response = client.get(URL, {"q": query})
    assert response.status_code == 200
    return names_found(response)


@pytest.fixture
def club(make_player):
    return {name: make_player(name) for name in ("Pedja", "Peđa", "Marko", "Đorđe", "Ana")}


# Finding players --------------------------------------------------------------------------------


def test_every_player_is_listed_by_name_without_a_search(client, club):
    assert search(client, "") == ["Ana", "Marko", "Pedja", "Peđa", "Đorđe"]


def test_ped_finds_pedja_and_peda(client, club):
    assert search(client, "ped") == ["Pedja", "Peđa"]


def test_a_search_ignores_case_spaces_and_diacritics(client, club):
    assert search(client, "  PEĐ ") == ["Pedja", "Peđa"]
    assert search(client, "djordje") == ["Đorđe"]
    assert search(client, "dorde") == ["Đorđe"]


def test_a_typo_finds_the_player(client, club):
    assert search(client, "Pedia") == ["Pedja", "Peđa"]
    assert search(client, "Marco") == ["Marko"]


def test_a_short_query_finds_only_names_containing_it(client, club):
    # Three letters allow no typo: "pex" would otherwise be one edit from "ped…".
    assert search(client, "pex") == []
    assert search(client, "ar") == ["Marko"]


def test_no_match_says_so_with_the_query(client, club):
    response = client.get(URL, {"q": "Zzyzx"})

    assert names_found(response) == []
    assert "No player matches “Zzyzx”." in response.content.decode()


def test_a_query_is_shown_escaped(client, club):
    response = client.get(URL, {"q": "<b>x</b>"})

    content = response.content.decode()
    assert "No player matches “&lt;b&gt;x&lt;/b&gt;”." in content
    assert "<b>x</b>" not in content


def test_a_too_long_query_is_a_form_error_not_a_list(client, club):
    response = client.get(URL, {"q": "x" * 61})

    assert response.status_code == 200
    assert names_found(response) == []
    assert response.context["form"].errors


def test_the_search_form_has_a_label_and_a_search_field(client, club):
    content = client.get(URL, {"q": "ped"}).content.decode()

    assert '<label for="id_q">' in content
    assert 'type="search"' in content
    assert 'value="ped"' in content


# What each row shows ----------------------------------------------------------------------------


def test_a_visitor_sees_each_league_with_rating_and_games(
    client,
    worked_example_game,
    worked_example_league,
    worked_example_players,
    make_league,
    record_game,
):
    pedja, marko, _johnny = worked_example_players
    chess = make_league(System.ELO, name="Chess", start_rating=1500)
    record_game(chess, [pedja, marko], scores=[1, 0])
    record_game(chess, [marko, pedja], scores=[1, 0])

    content = client.get(URL, {"q": "pedja"}).content.decode()

    leaderboard = reverse("ratings:leaderboard", args=[chess.slug])
    assert f'<a href="{leaderboard}">Chess</a>: 1499 (2)' in content
    friday = reverse("ratings:leaderboard", args=[worked_example_league.slug])
    assert f'<a href="{friday}">Friday Preferans</a>: 1173 (1)' in content
    # By league name: Chess before Friday Preferans.
    assert content.index(">Chess<") < content.index(">Friday Preferans<")
    assert f'<a href="{pedja.get_absolute_url()}">Pedja</a>' in content


def test_a_player_without_games_has_a_dash(client, make_player):
    make_player("Newcomer")

    response = client.get(URL)

    assert names_found(response) == ["Newcomer"]
    assert ">—</td>" in response.content.decode()


def test_the_directory_is_paginated_and_the_pages_keep_the_search(client, make_player):
    for n in range(60):
        make_player(f"Member {n:02}")
    make_player("Someone else")

    first = client.get(URL, {"q": "member"})
    second = client.get(URL, {"q": "member", "page": 2})

    assert names_found(first) == [f"Member {n:02}" for n in range(50)]
    assert names_found(second) == [f"Member {n:02}" for n in range(50, 60)]
    assert '<a href="?q=member&amp;page=2">' in first.content.decode()


def test_per_page_from_the_address_is_ignored(client, make_player):
    for n in range(55):
        make_player(f"Member {n:02}")

    assert len(names_found(client.get(URL, {"per_page": 1000}))) == 50


# The query count does not grow with the club ----------------------------------------------------


def directory_club(make_player, make_league, record_game, *, prefix, players, leagues):
    """``players`` players, each in every one of ``leagues`` Elo leagues (a game per pair)."""
    people = [make_player(f"Regular {prefix}{n:02}") for n in range(players)]
    for _ in range(leagues):
        league = make_league(System.ELO)
        for a, b in zip(people[::2], people[1::2], strict=True):
            record_game(league, [a, b], scores=[1, 0])


@pytest.mark.parametrize("query", ["", "reg", "regular"])
def test_the_query_count_is_the_same_for_6_players_in_1_league_and_66_in_4(
    query, client, make_player, make_league, record_game, django_assert_num_queries
):
    """No N+1: the leagues of a page's players are one query, whatever the number of either.

    The page's count, the page of players, their leagues; a query of four letters or more also
    looks for typos among every player's name, in one more query."""
    expected = QUERIES["players_search"] if len(query) >= 4 else QUERIES["players"]
    directory_club(make_player, make_league, record_game, prefix="A", players=6, leagues=1)
    with django_assert_num_queries(expected):
        small = client.get(URL, {"q": query})
    directory_club(make_player, make_league, record_game, prefix="B", players=60, leagues=3)
    with django_assert_num_queries(expected):
        big = client.get(URL, {"q": query, "page": 2})

    assert len(names_found(small)) == 6
    rows = list(big.context["table"].paginated_rows)
    assert [row.record.name for row in rows] == [f"Regular B{n:02}" for n in range(44, 60)]
    assert all(len(row.record.leagues) == 3 for row in rows)


def test_the_players_link_is_current_on_the_directory(client):
    content = client.get(URL).content.decode()

    assert f'<a href="{URL}" aria-current="page">Players</a>' in content


# "My page" ----------------------------------------------------------------------------------------


def test_a_member_linked_to_a_player_gets_my_page(member_client, member_user, make_player):
    pedja = make_player("Pedja", user=member_user)

    content = member_client.get(reverse("ratings:home")).content.decode()

    assert f'<a href="{pedja.get_absolute_url()}">My page</a>' in content


def test_my_page_is_marked_current_on_the_members_page(member_client, member_user, make_player):
    pedja = make_player("Peđa", user=member_user)

    content = member_client.get(pedja.get_absolute_url()).content.decode()

    assert f'<a href="{pedja.get_absolute_url()}" aria-current="page">My page</a>' in content


def test_a_member_without_a_player_has_no_my_page(member_client, make_player):
    make_player("Pedja")

    assert "My page" not in member_client.get(reverse("ratings:home")).content.decode()


def test_a_visitor_has_no_my_page_but_finds_players(client, member_user, make_player):
    make_player("Pedja", user=member_user)

    content = client.get(reverse("ratings:home")).content.decode()

    assert "My page" not in content
    assert f'<a href="{URL}">Players</a>' in content
