"""The digital paper tests' builders: deals as the table says them, a short game, a paper."""

from ratings.algorithms.paper import Hand
from ratings.papers import services

REFA = Hand(refa=True)
PASSED = ("passed", 0, False)


def played(declarer, contract, *, failed=False, on_refa=False, kontra=0, followers=()):
    """What the table says, as the pad reads it; followers are (seat, play, tricks, failed),
    passing by default."""
    return Hand.from_entry(
        said(declarer, contract, failed=failed, on_refa=on_refa, kontra=kontra, followers=followers)
    )


def said(declarer, contract, *, failed=False, on_refa=False, kontra=0, followers=()):
    """What the table says as the pad taps it (``played``'s, before the pad reads it)."""
    seats = [seat for seat in (1, 2, 3) if seat != declarer]
    given = {seat: (play, tricks, fell) for seat, play, tricks, fell in followers}
    return {
        "declarer": declarer,
        "contract": contract,
        "igra": False,
        "on_refa": on_refa,
        "kontra": kontra,
        "failed": failed,
        "followers": [
            {"seat": seat}
            | dict(zip(("play", "tricks", "failed"), given.get(seat, PASSED), strict=True))
            for seat in seats
        ],
    }


# A short game, bula 10: a refa, then each declares on it (x2); seat 2 gives kontra on seat 3.
# The columns: (0, -2, 0), (24, 2, 16), (8, -6, 0).
SHORT_GAME = [
    REFA,
    played(1, "karo", on_refa=True, followers=[(2, "followed", 2, False)]),  # 12: 10 -> -2
    played(2, "pik", on_refa=True, followers=[(3, "followed", 1, False)]),  # 8: 10 -> 2
    played(3, "pik", on_refa=True, kontra=1, followers=[(2, "followed", 1, False)]),  # 16: -6
]

# Two deals that leave the bulas as they were (seat 3 makes pik, then falls on pik with seat 1
# taking the five tricks): a paper goes on as long as wanted, never running out.
ROUND_TRIP = [
    played(3, "pik"),
    played(3, "pik", failed=True, followers=[(1, "followed", 5, False)]),
]


def start(table, bula=10, refas=None):
    """A paper of the ``table`` fixture's (league, players)."""
    league, players = table
    return services.paper_start(league=league, players=players, bula=bula, refas=refas)


def enter(paper, deals):
    """Add the deals in order, as one phone that saw every deal before."""
    for deal in deals:
        services.deal_add(paper=paper, hand=deal, after=paper.deals.count())
