"""Preferans papers for the tests, each written once: the seed's worked example (DOMAIN.md) and
random finished papers.

The seed: starting bula 30, seats Pedja, Marko, Johnny with ratings 1200, 1150, 1100: final
scores -500, 40, 460 and new ratings 1173, 1152, 1125.
"""

import random

SEED_PAPERS = [(320, -20, 160), (120, 4, 60), (20, 16, 60)]

# The same game as the entry form posts it.
SEED_FORM = {"played_at": "2026-03-12T21:30", "bula": "30"}
for _seat, (_name, (_left, _middle, _right)) in enumerate(
    zip(("Pedja", "Marko", "Johnny"), SEED_PAPERS, strict=True)
):
    SEED_FORM |= {
        f"player_{_seat}": _name,
        f"left_{_seat}": str(_left),
        f"middle_{_seat}": str(_middle),
        f"right_{_seat}": str(_right),
    }


def random_paper(rng: random.Random) -> list[tuple[int, int, int]]:
    """A finished Preferans paper: side columns never negative, the middle column sums to 0."""
    a, b = rng.randrange(-30, 30, 2), rng.randrange(-30, 30, 2)
    middles = [a, b, -a - b]
    return [(rng.randrange(0, 300, 2), m, rng.randrange(0, 300, 2)) for m in middles]
