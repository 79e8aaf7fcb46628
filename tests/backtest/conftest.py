"""The backtest's fixed club."""

from __future__ import annotations

import pytest

from ratings.models import System


@pytest.fixture
def pecking_order(make_league, make_player, record_game):
    """A chess league of three where Ana always beats Bo and Cy, and Bo always beats Cy."""
    league = make_league(System.ELO, name="Order", start_rating=1500)
    ana, bo, cy = (make_player(name) for name in ("Ana", "Bo", "Cy"))
    for n in range(30):
        winner, loser = [(ana, bo), (ana, cy), (bo, cy)][n % 3]
        record_game(
            league,
            [winner, loser] if n % 2 else [loser, winner],
            scores=[1, 0][:: 1 if n % 2 else -1],
        )
    return league
