"""Provisional and inactive players: listed after the ranked ones, marked, without a rank."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from ratings.models import Player, System
from tests.worked_example import WORKED_EXAMPLE_PAPERS


@pytest.fixture
def club(make_league, make_player, record_game):
    """Three regulars with 3 games each and a newcomer with 1, in a league provisional under 3."""
    league = make_league(System.PREFKO, name="Thursday", provisional_games=3)
    pedja, marko, johnny, zorana = (
        make_player(name) for name in ("Pedja", "Marko", "Johnny", "Zorana")
    )
    start = timezone.now() - timedelta(days=60)
    for n in range(3):
        record_game(
            league,
            [pedja, marko, johnny],
            papers=WORKED_EXAMPLE_PAPERS,
            played_at=start + timedelta(days=n),
        )
    record_game(
        league,
        [zorana, marko, johnny],
        papers=WORKED_EXAMPLE_PAPERS,
        played_at=timezone.now() - timedelta(days=1),
    )
    return league


def leaderboard_rows(client, league, **params) -> list[list[str]]:
    response = client.get(reverse("ratings:leaderboard", args=[league.slug]), params)
    body = response.content.decode()
    table = body[body.index("<tbody") : body.index("</tbody>")]
    out = []
    for row in table.split("<tr")[1:]:
        cells = [cell.split(">", 1)[1] for cell in row.split("<td")[1:]]
        text = [" ".join(_strip(cell).split()) for cell in cells]
        out.append(text[:2])
    return out


def _strip(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


def test_a_player_with_few_games_is_listed_after_the_ranked_unranked_and_marked(client, club):
    board = leaderboard_rows(client, club)
    # Pedja won every game: prefko's lowest rating, first.
    assert [name for _rank, name in board[:3]] == ["Pedja", "Marko", "Johnny"]
    assert [rank for rank, _name in board[:3]] == ["1", "2", "3"]
    assert board[3] == ["", "Zorana provisional"]


def test_head_to_head_leagues_rank_everyone_by_default(client, make_league, make_player):
    league = make_league(System.ELO)
    assert league.provisional_until == 0
    assert make_league(System.PREFKO).provisional_until == 10
    assert make_league(System.RAYTER_HIGHSCORE).provisional_until == 10


def test_inactive_players_are_hidden_unless_asked_for(client, club):
    club.inactive_days = 30
    club.save()
    board = leaderboard_rows(client, club)
    # Pedja's last game was 58 days ago; Marko and Johnny played yesterday.
    assert [name for _rank, name in board] == ["Marko", "Johnny", "Zorana provisional"]
    shown = leaderboard_rows(client, club, inactive="on")
    assert shown[-1] == ["", "Pedja inactive"]


def heading(client, name: str) -> str:
    """The line under the league's name on the player's page: rating, rank or status, games."""
    page = _strip(client.get(Player.objects.get(name=name).get_absolute_url()).content.decode())
    return " ".join(re.search(r"Rating [^.]*\.", page)[0].split())


def test_a_player_page_gives_the_leaderboards_rank_or_status(client, club):
    # Zorana's one game is Pedja's worked example: a rating better than Marko's and Johnny's,
    # which a rank counted over everyone would put before theirs.
    assert leaderboard_rows(client, club) == [
        ["1", "Pedja"],
        ["2", "Marko"],
        ["3", "Johnny"],
        ["", "Zorana provisional"],
    ]
    assert heading(client, "Pedja").endswith(", rank 1, 3 games.")
    assert heading(client, "Marko").endswith(", rank 2, 4 games.")
    assert heading(client, "Johnny").endswith(", rank 3, 4 games.")
    assert heading(client, "Zorana").endswith(" (provisional, not ranked yet), 1 game.")

    club.inactive_days = 30
    club.save()
    assert leaderboard_rows(client, club, inactive="on") == [
        ["1", "Marko"], ["2", "Johnny"], ["", "Zorana provisional"], ["", "Pedja inactive"]
    ]  # fmt: skip
    assert heading(client, "Marko").endswith(", rank 1, 4 games.")
    assert heading(client, "Johnny").endswith(", rank 2, 4 games.")
    assert heading(client, "Pedja").endswith(" (inactive, not ranked), 3 games.")


def test_exports_say_who_is_provisional_and_inactive(client, club):
    url = reverse("ratings:leaderboard_export", args=[club.slug, "json"])
    standings = json.loads(client.get(url).content)["standings"]
    zorana = next(row for row in standings if row["name"] == "Zorana")
    assert (zorana["rank"], zorana["provisional"], zorana["inactive"]) == (None, True, False)
    url = reverse("ratings:leaderboard_export", args=[club.slug, "csv"])
    table = list(csv.DictReader(io.StringIO(client.get(url).content.decode())))
    assert [row["provisional"] for row in table] == ["False", "False", "False", "True"]


def test_standings_command_marks_provisional_players(club, capsys):
    call_command("standings", club.slug)
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].endswith("Status")
    assert lines[-1].startswith("Zorana") and lines[-1].endswith("provisional")
