"""A season's table applies the league's provisional rule, as the all-time table does: to each
player's games in the league up to the season's end, not only those in the season."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

import pytest
from django.urls import reverse

from ratings.models import System
from ratings.selectors import Status

pytestmark = pytest.mark.django_db

GAMES = [  # (when, white, black, scores)
    (datetime(2024, 3, 1, 20, tzinfo=UTC), "Ana", "Bojan", (1, 0)),
    (datetime(2024, 4, 1, 20, tzinfo=UTC), "Ana", "Bojan", (1, 0)),
    # 2025: Ana and Bojan established; Đorđe's first game beats Ana (his rating is the best).
    (datetime(2025, 2, 1, 20, tzinfo=UTC), "Đorđe", "Ana", (1, 0)),
    (datetime(2025, 3, 1, 20, tzinfo=UTC), "Bojan", "Ana", (1, 0)),
    # Đorđe's second game comes after 2025: established in 2026, not at the end of 2025.
    (datetime(2026, 1, 5, 20, tzinfo=UTC), "Đorđe", "Bojan", (0, 1)),
]


@pytest.fixture
def chess(make_league, make_player, record_game):
    league = make_league(System.ELO, name="Chess", start_rating=1500, provisional_games=2)
    people = {name: make_player(name) for name in ("Ana", "Bojan", "Đorđe")}
    for played_at, white, black, scores in GAMES:
        record_game(league, [people[white], people[black]], scores=scores, played_at=played_at)
    return league


def test_a_one_game_player_is_provisional_in_the_season(client, chess):
    response = client.get(reverse("ratings:leaderboard", args=[chess.slug]), {"season": 2025})
    rows = list(response.context["table"].data)

    assert [(row.name, row.rank, row.status) for row in rows] == [
        ("Ana", 1, Status.RANKED),
        ("Bojan", 2, Status.RANKED),
        ("Đorđe", 1, Status.PROVISIONAL),
    ]
    page = response.content.decode()
    assert '<span class="badge">provisional</span>' in page
    assert "are provisional: listed after the ranked players" in page


def test_games_before_the_season_count_and_later_ones_do_not(client, chess):
    """Ana has one game in 2025 by change but three up to its end; in 2026 Đorđe has two."""
    season_2026 = client.get(reverse("ratings:leaderboard", args=[chess.slug]), {"season": 2026})
    assert [(row.name, row.status) for row in season_2026.context["table"].data] == [
        ("Bojan", Status.RANKED),
        ("Đorđe", Status.RANKED),
    ]


def test_the_season_export_marks_provisional_players_without_a_rank(client, chess):
    url = reverse("ratings:leaderboard_export", args=[chess.slug, "csv"])
    rows = list(csv.DictReader(io.StringIO(client.get(url, {"season": 2025}).content.decode())))

    assert [(row["name"], row["rank"], row["provisional"]) for row in rows] == [
        ("Ana", "1", "False"),
        ("Bojan", "2", "False"),
        ("Đorđe", "", "True"),
    ]
