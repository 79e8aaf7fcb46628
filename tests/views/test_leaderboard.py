"""The leaderboard: its direction, true ranks on every page and sort, the filter, the exports."""

from __future__ import annotations

import csv
import gzip
import io
import json
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from ratings import engine, selectors
from ratings.models import League, System
from tests.builders import T0, elo_chain, leaderboard_export, score_entries
from tests.worked_example import WORKED_EXAMPLE_PAPERS

from .pages import text

pytestmark = pytest.mark.django_db


def board(client, league, **params):
    return client.get(reverse("ratings:leaderboard", args=[league.slug]), params)


def shown(response) -> list:
    """The standings on the page, in the order shown."""
    return [row.record for row in response.context["table"].page.object_list]


def names(response) -> list[str]:
    return [standing.player.name for standing in shown(response)]


def ranks(response) -> dict[str, int]:
    return {standing.player.name: standing.rank for standing in shown(response)}


@pytest.fixture
def chess(make_league, make_player, record_game):
    """Classic Elo from 2100: Alice beats Bob twice, Bob beats Cleo, Dan draws Cleo."""
    league = make_league(System.ELO, name="Chess club", start_rating=2100)
    alice, bob, cleo, dan = (make_player(n) for n in ("Alice", "Bob", "Cleo", "Dan"))
    record_game(league, [alice, bob], scores=[1, 0])
    record_game(league, [alice, bob], scores=[1, 0])
    record_game(league, [bob, cleo], scores=[1, 0])
    record_game(league, [dan, cleo], scores=[0.5, 0.5])
    return league


@pytest.fixture
def ladder(make_league, make_player, record_game):
    """An Elo league of 60 players whose ratings all differ: own start ratings, one draw each.

    Names run against the ratings (P00 is last), so sorting by name is not sorting by rank.
    """
    league = make_league(System.ELO, name="Ladder")
    players = [make_player(f"P{n:02d}") for n in range(60)]
    for n, player in enumerate(players):
        engine.standing_set_start_rating(league=league, player=player, rating=1500 + 10 * n)
    for a, b in zip(players[::2], players[1::2], strict=True):
        record_game(league, [a, b], scores=[0.5, 0.5])
    return league


# Direction and rank -----------------------------------------------------------------------------


def test_prefko_ranks_the_lowest_rating_first_and_says_so(
    client, worked_example_game, worked_example_league
):
    response = board(client, worked_example_league)

    assert names(response) == ["Johnny", "Marko", "Pedja"]
    assert ranks(response) == {"Johnny": 1, "Marko": 2, "Pedja": 3}
    page = text(response)
    # Said once (the system's name), not three times; the order in bold.
    assert page.count("lower is better") + page.lower().count("lower rating is better") == 1
    assert "The leaderboard runs from the lowest rating up." in page
    assert "1 Johnny 1125 +25 1" in text(response)
    assert "3 Pedja 1173 −27 1" in text(response)


def test_elo_ranks_the_highest_rating_first(client, chess):
    response = board(client, chess)

    assert names(response)[0] == "Alice"
    ratings = [s.rating for s in shown(response)]
    assert ratings == sorted(ratings, reverse=True)
    assert "higher rating is better" in text(response)


def test_elo_ratings_show_no_decimals(client, chess):
    alice = shown(board(client, chess))[0]
    assert alice.rating != int(alice.rating)
    # The rating, then the last change, then the games (the numbers first, for phones).
    assert re.search(rf"Alice {round(alice.rating)} [+−]\d+ 2 ", text(board(client, chess)))


def test_equal_ratings_share_a_rank(client, make_league, make_player, record_game):
    league = make_league(System.ELO)
    a, b, c, d = (make_player(n) for n in ("A", "B", "C", "D"))
    record_game(league, [a, b], scores=[1, 0])
    record_game(league, [c, d], scores=[1, 0])

    assert ranks(board(client, league)) == {"A": 1, "C": 1, "B": 3, "D": 3}


def test_rank_stays_true_on_a_later_page_and_under_another_sort(client, ladder):
    first = board(client, ladder)
    assert first.context["table"].paginator.num_pages == 2
    everyone = names(first)
    second = board(client, ladder, page=2)
    everyone += names(second)
    true_rank = {name: n for n, name in enumerate(everyone, start=1)}

    assert list(ranks(second).values()) == list(range(51, 61))
    by_name = board(client, ladder, sort="player")
    assert names(by_name) == sorted(true_rank)[:50]
    assert ranks(by_name) == {name: true_rank[name] for name in names(by_name)}
    by_games = board(client, ladder, sort="-games", page=2)
    assert ranks(by_games) == {name: true_rank[name] for name in names(by_games)}


def test_sorting_by_rating_reverses_the_board(client, worked_example_game, worked_example_league):
    response = board(client, worked_example_league, sort="-rating")
    assert names(response) == ["Pedja", "Marko", "Johnny"]
    assert ranks(response) == {"Pedja": 3, "Marko": 2, "Johnny": 1}


def test_unknown_sort_and_page_are_ignored(client, worked_example_game, worked_example_league):
    response = board(client, worked_example_league, sort="nonsense", page="99")
    assert response.status_code == 200
    assert names(response) == ["Johnny", "Marko", "Pedja"]


# Filter -----------------------------------------------------------------------------------------


@pytest.fixture
def guest_game(worked_example_game, worked_example_players, make_player, record_game):
    """After the worked example, Pedja and Marko play a guest: Johnny and the guest have 1 game."""
    pedja, marko, _johnny = worked_example_players
    return record_game(
        worked_example_game.league,
        [pedja, marko, make_player("Guest")],
        papers=WORKED_EXAMPLE_PAPERS,
    )


def test_min_games_keeps_only_regular_players(client, worked_example_league, guest_game):
    response = board(client, worked_example_league, min_games=2)
    assert sorted(names(response)) == ["Marko", "Pedja"]
    assert set(ranks(response).values()) == {1, 2}
    assert "Only players with at least 2 games" in text(response)
    assert "standings.csv?min_games=2" in response.content.decode()


@pytest.mark.parametrize("value", ["abc", "-1", "1e3", "99999999999"])
def test_invalid_min_games_is_a_message_not_an_error(
    client, worked_example_game, worked_example_league, value
):
    response = board(client, worked_example_league, min_games=value)

    assert response.status_code == 200
    assert "Showing everyone instead." in text(response)
    assert len(names(response)) == 3


# Export -----------------------------------------------------------------------------------------


def test_csv_export_has_the_board_in_rank_order(client, worked_example_game, worked_example_league):
    response = leaderboard_export(client, worked_example_league, "csv")

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == (
        'attachment; filename="friday-preferans-standings.csv"'
    )
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == [
        *("rank", "name", "rating", "games", "last_change", "last_played"),
        *("provisional", "inactive"),
    ]
    assert [row[:5] for row in rows[1:]] == [
        ["1", "Johnny", "1125", "1", "25"],
        ["2", "Marko", "1152", "1", "2"],
        ["3", "Pedja", "1173", "1", "-27"],
    ]
    assert rows[1][5].startswith("2026-01-01T20:00:00")


def test_csv_export_defuses_spreadsheet_formulas_in_names(
    client, worked_example_league, make_player, record_game
):
    hostile = ['=HYPERLINK("http://x")', "+1+1", "-Bob", "@SUM(A1)"]
    players = [make_player(name) for name in hostile[:3]]
    record_game(worked_example_league, players, papers=WORKED_EXAMPLE_PAPERS)
    record_game(
        worked_example_league, [make_player(hostile[3]), *players[:2]], papers=WORKED_EXAMPLE_PAPERS
    )

    rows = list(
        csv.reader(
            io.StringIO(leaderboard_export(client, worked_example_league, "csv").content.decode())
        )
    )
    exported = {row[1] for row in rows[1:]}
    assert exported == {"'" + name for name in hostile}
    # Numbers stay numbers, negative ones included.
    assert any(row[4].startswith("-") for row in rows[1:])


def test_exports_apply_the_filter(client, worked_example_league, guest_game):
    response = leaderboard_export(client, worked_example_league, "csv", min_games=2)
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert sorted(row[1] for row in rows[1:]) == ["Marko", "Pedja"]
    standings = json.loads(
        leaderboard_export(client, worked_example_league, "json", min_games=2).content
    )["standings"]
    assert sorted(row["name"] for row in standings) == ["Marko", "Pedja"]


def test_export_refuses_an_invalid_filter(client, worked_example_league):
    assert (
        leaderboard_export(client, worked_example_league, "csv", min_games="x").status_code == 400
    )


def test_a_preferans_leagues_json_export_carries_its_own_settings_only(
    client, worked_example_league
):
    """Another system's settings (classic Elo's K, FIDE's speed) say nothing of this league."""
    worked_example_league.settings = {"refas": 2}
    worked_example_league.save()
    league = json.loads(leaderboard_export(client, worked_example_league, "json").content)["league"]
    assert league["refas"] == 2
    assert not {"elo_k", "speed"} & league.keys()


def test_json_export(client, chess):
    response = leaderboard_export(client, chess, "json")

    assert response["Content-Disposition"] == 'attachment; filename="chess-club-standings.json"'
    data = json.loads(response.content)
    assert data["league"] == {
        "name": "Chess club",
        "slug": "chess-club",
        "system": "elo",
        "lower_is_better": False,
        "elo_k": 32,
        "provisional_until": 0,
        "inactive_days": None,
    }
    first = data["standings"][0]
    assert list(first) == [
        *("rank", "name", "rating", "games", "last_change", "last_played"),
        *("provisional", "inactive"),
    ]
    assert first["name"] == "Alice"
    assert first["rank"] == 1
    assert first["games"] == 2
    # Elo ratings are floats; the export keeps two decimals.
    assert first["rating"] == round(first["rating"], 2)
    assert first["rating"] != int(first["rating"])


def test_last_change_is_a_corrections_when_it_came_after_the_players_last_game(client):
    """Cid did not play the corrected game, yet his rating moved: the change shown beside his
    rating is that move, until he plays again."""
    league, (ann, bob, cid), first = elo_chain()
    shown_before = {s.player_id: s.rating for s in selectors.league_standings(league)}

    engine.game_update(game=first, played_at=T0, entries=score_entries([ann, bob], [0, 1]))

    rows = {s.player_id: s for s in selectors.league_standings(league)}
    moved = rows[cid.pk].rating - shown_before[cid.pk]
    assert moved != 0
    assert rows[cid.pk].last_move == pytest.approx(moved)
    assert rows[cid.pk].last_move != pytest.approx(rows[cid.pk].last_change)  # his game's
    page = {s.player.name: s.last_move for s in shown(board(client, league))}
    assert page["Cid"] == pytest.approx(moved)
    exported = json.loads(leaderboard_export(client, league, "json").content)
    assert {row["name"]: row["last_change"] for row in exported["standings"]}["Cid"] == (
        pytest.approx(round(moved, 2))
    )

    engine.game_record(
        league=league, played_at=T0 + timedelta(days=3), entries=score_entries([cid, ann], [1, 0])
    )

    again = {s.player_id: s for s in selectors.league_standings(league)}
    assert again[cid.pk].last_move == again[cid.pk].last_change  # his new game's


# Ties in a rayter league ------------------------------------------------------------------------

RAYTER_CLI = Path(__file__).parents[1] / "algorithms" / "vectors" / "rayter_cli.json.gz"
TIE_FILES = [
    record
    for record in json.loads(gzip.decompress(RAYTER_CLI.read_bytes()))["files"]
    if record["name"].startswith("rayter_ties_")
]


@pytest.mark.parametrize("record", TIE_FILES, ids=[record["name"] for record in TIE_FILES])
def test_a_rayter_leagues_ties_are_in_rayters_order_on_the_page_and_exports(
    client, tmp_path, record
):
    """rayter lists equal ratings in the order the players first appear in its file (the
    vectors hold what ``rayter -m json`` printed); the league lists them in the order they
    first played: the same, where the standings claim rayter's order."""
    path = tmp_path / record["name"]
    path.write_text(record["content"], encoding="utf-8")
    call_command("import_rayter", str(path), league="ties", no_progress=True, stdout=io.StringIO())
    league = League.objects.get(slug="ties")
    League.objects.filter(pk=league.pk).update(provisional_games=0)
    expected = list(json.loads(record["json"]))
    assert len({row["rating"] for row in json.loads(record["json"]).values()}) < len(expected)

    assert names(board(client, league, per_page=100)) == expected
    assert names(board(client, league, sort="rank")) == expected
    assert [
        row[1] for row in csv.reader(io.StringIO(leaderboard_export(client, league, "csv").text))
    ][1:] == expected
    assert [
        row["name"]
        for row in json.loads(leaderboard_export(client, league, "json").content)["standings"]
    ] == expected
    api = client.get(f"/api/v1/leagues/{league.slug}/standings").json()
    assert [row["player"] for row in api] == expected
