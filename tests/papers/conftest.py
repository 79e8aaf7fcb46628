import pytest

from ratings.models import System


@pytest.fixture
def table(make_league, make_player):
    """A Preferans league and its three players Ana, Boris and Ceca, in seat order."""
    league = make_league(System.PREFKO)
    players = [make_player(name) for name in ("Ana", "Boris", "Ceca")]
    return league, players
