"""Builders for the page tests: the seed's Preferans game, and leagues big enough to page."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from ratings import engine
from ratings.models import System
from tests.seed import SEED_PAPERS, random_paper

T0 = datetime(2025, 1, 1, 20, 0, tzinfo=UTC)


@pytest.fixture
def seed_league(make_league):
    # Everyone ranked, whatever their number of games: these tests check the ranking itself
    # (tests/views/test_leaderboard_thresholds.py checks provisional and inactive players).
    return make_league(
        System.PREFKO, name="Friday Preferans", start_rating=1000, provisional_games=0
    )


@pytest.fixture
def seed_players(seed_league, make_player):
    """Pedja, Marko and Johnny with the seed's own start ratings 1200, 1150 and 1100."""
    players = [make_player(name) for name in ("Pedja", "Marko", "Johnny")]
    for player, rating in zip(players, (1200, 1150, 1100), strict=True):
        engine.standing_set_start_rating(league=seed_league, player=player, rating=rating)
    return players


@pytest.fixture
def seed_game(seed_league, seed_players, record_game, member_user):
    """The seed example: bula 30, final scores -500 / 40 / 460, changes -27 / +2 / +25."""
    return record_game(
        seed_league, seed_players, papers=SEED_PAPERS, bula=30, entered_by=member_user
    )


@pytest.fixture
def prefko_league_with(make_league, make_player, record_game):
    """prefko_league_with(players=N, games=M) -> (league, players): random finished papers."""

    def build(*, players: int, games: int, seed: int = 7):
        rng = random.Random(seed)
        league = make_league(System.PREFKO)
        people = [make_player() for _ in range(players)]
        for _ in range(games):
            record_game(league, rng.sample(people, 3), papers=random_paper(rng))
        return league, people

    return build


@pytest.fixture
def elo_league_with(make_league):
    """elo_league_with(player=..., opponents=N, games=M) -> (league, player): bulk-imported.

    Goes through the engine's bulk import (the path a rayter file takes), so thousands of games
    cost seconds rather than minutes; the named player plays every game.
    """

    def build(*, player: str, opponents: int, games: int, seed: int = 11):
        rng = random.Random(seed)
        league = make_league(System.ELO)
        others = [f"Opponent {n}" for n in range(opponents)]
        imported = []
        for n in range(games):
            score = rng.choice((1.0, 0.5, 0.0))
            seats = [(player, score), (others[n % opponents], 1.0 - score)]
            imported.append(
                engine.ImportedGame(
                    played_at=T0 + timedelta(hours=n), scores=seats[:: rng.choice((1, -1))]
                )
            )
        engine.games_import(league=league, games=imported)
        return league

    return build
