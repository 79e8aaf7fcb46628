"""Preferans papers for the tests, each written once: the worked example, a few more, random ones.

The worked example (docs/rating-systems.md's, and the demo club's first game): starting bula 30,
seats Pedja, Marko, Johnny with their own start ratings 1200, 1150, 1100; final scores -500, 40, 460
and new ratings 1173, 1152, 1125.
"""

import random

WORKED_EXAMPLE_PLAYERS = ("Pedja", "Marko", "Johnny")
WORKED_EXAMPLE_START_RATINGS = (1200, 1150, 1100)
WORKED_EXAMPLE_PAPERS = [(320, -20, 160), (120, 4, 60), (20, 16, 60)]
# Four more finished papers; the first, with small numbers, serves where any paper will do.
MORE_PAPERS = [
    [(10, 2, 4), (6, -1, 8), (0, -1, 2)],
    [(40, -6, 20), (0, 4, 10), (12, 2, 0)],
    [(0, 10, 0), (80, -12, 60), (20, 2, 30)],
    [(2, -3, 6), (16, 5, 10), (0, -2, 0)],
]
SMALL_PAPERS = MORE_PAPERS[0]

# The same game as the entry form posts it.
WORKED_EXAMPLE_FORM = {"played_at": "2026-03-12T21:30", "bula": "30"}
for _seat, (_name, (_left, _middle, _right)) in enumerate(
    zip(WORKED_EXAMPLE_PLAYERS, WORKED_EXAMPLE_PAPERS, strict=True)
):
    WORKED_EXAMPLE_FORM |= {
        f"player_{_seat}": _name,
        f"left_{_seat}": str(_left),
        f"middle_{_seat}": str(_middle),
        f"right_{_seat}": str(_right),
    }


def five_games() -> list[tuple[list, tuple]]:
    """The worked example and MORE_PAPERS as (papers, seat order) games of the same three players,
    in changing seat orders."""
    orders = [(0, 1, 2), (1, 2, 0), (2, 0, 1), (0, 2, 1), (1, 0, 2)]
    return list(zip([WORKED_EXAMPLE_PAPERS, *MORE_PAPERS], orders, strict=True))


def random_paper(rng: random.Random) -> list[tuple[int, int, int]]:
    """A finished Preferans paper: side columns never negative, the middle column sums to 0."""
    a, b = rng.randrange(-30, 30, 2), rng.randrange(-30, 30, 2)
    middles = [a, b, -a - b]
    return [(rng.randrange(0, 300, 2), m, rng.randrange(0, 300, 2)) for m in middles]
