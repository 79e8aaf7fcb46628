"""The digital paper: a Preferans paper kept deal by deal, as prefko's paper library keeps it.

Source: npm ``preferans-score-js`` 1.5.4 with the ``preferans-paper-js`` 3.1.3 it depends on
(prefko, Unlicense). This module reproduces that library's paper entry for entry, its checks
included (``tests/algorithms/vectors/paper.json.gz``, made by ``scripts/vectors/paper_vectors.py``
running the library itself). What the library does, read from its source and checked by running
it:

- Each seat has a left, a middle and a right column. The middle starts with the bula; a made
  contract takes the value off the declarer's bula, a failed one adds it. A follower who followed
  writes tricks x value in the side column that faces the declarer (the right column when the
  declarer sits next in seat order, the left column otherwise); a follower who failed also gets
  the value added to their bula. A bula that reaches exactly 0 writes no number.
- A refa (all three passed) draws a triangle in all three middles. A declarer's next played hand
  marks their own corner of the oldest triangle they have not played: 1 made, -1 failed. The value
  is given by the caller, already doubled for an unplayed refa (see :func:`deal_value`). The cap
  ``refas`` limits how many refe may be written (``None``: no cap).
- A hat is drawn when a bula goes down to zero or below, a crossed hat when it comes back up, by
  the library's own rule, which this module copies as it is written: after the new bula ``b`` is
  computed from a change ``v``, a hat is drawn when the last non-zero number of the column (the
  repealed ones included) is positive, ``v < 0`` and ``b + v <= 0``; a crossed hat when that
  number is negative, ``v > 0`` and ``b + v >= 0``. (``b + v``, not ``b``: a big made contract
  draws the hat one deal early, as prefko's own paper does.)
- A repealed hand is drawn crossed out: each number it would have written is written with the
  column's total at that point plus the hand's amount, marked repealed, and nothing is added; it
  marks no refa triangle and draws no hat. A refa cannot be repealed.
- Checks (a log that breaks one is refused, naming the hand, 1-based over all hands, refe
  included): a made contract leaves the followers fewer than 5 tricks together, a failed one
  exactly 5; a declarer who failed took at most 5 tricks (when given); a follower cannot fail
  when the declarer fails; the refe cap; a refa cannot be repealed; the value is an even
  number, and a supa written is above zero; the seats are 1, 2 and 3; the bula is an even number
  above zero. The library takes the hands one by one, so each hand is checked in full before the
  next is read (:func:`parse_log`): a log breaking rules in two hands names the first.

A deal as a paper keeps it (:mod:`ratings.algorithms.paper.hands`): a :class:`Hand`, the one
shape every deal is stored in whatever brought it (the pad's taps, a deal log's hand), turned
into the deal log's form under the paper's house rules when the paper is drawn.

House rules (:mod:`ratings.algorithms.paper.rules`): a club may keep some rules as many Serbian
clubs do rather than as the library does (a fixed supa on a failed betl, no kontra on pik, the
double fall near the end, no subkontra or mortkontra). They are passed in with the log
(``DealLog.rules``; :data:`LIBRARY`, the default, is the library's), so this package never reads
a setting; with the default the paper is the library's.

The one known difference: the library throws on a real deal, a follower who followed and took no
trick (its side column refuses an entry of 0, after the declarer's bula was already changed).
Here that follower writes no supa, and still has the value added to their bula when they failed.
(The library also never reads the seat of a follower who did not follow, so it takes any seat
there; here it is refused.)

Inputs that make no sense at a table are taken exactly as the library takes them (a value of 0
or below when nobody writes it as a supa, tricks below 0 for a follower who did not follow), so
that any log the library accepts gives the same paper here.

The final scores come from the columns by the seed's formula
(:func:`ratings.algorithms.preferans.final_scores`); the library's own score getter turns the
sign round and depends on which follower the caller passes first, so it is not used.
"""

from ratings.algorithms.paper.deals import (
    CONTRACTS,
    FOLLOWER_PLAYS,
    KONTRA_LEVELS,
    DealLog,
    Follower,
    PaperError,
    PlayedHand,
    RefaHand,
    deal_value,
    parse_log,
)
from ratings.algorithms.paper.hands import (
    Contract,
    Hand,
    HandFollower,
    hand_from_entry,
    hand_from_stored,
)
from ratings.algorithms.paper.rules import LIBRARY, HouseRules
from ratings.algorithms.paper.sheet import Paper, SeatPaper, draw_paper, paper_result, paper_results

__all__ = [
    "CONTRACTS",
    "Contract",
    "FOLLOWER_PLAYS",
    "KONTRA_LEVELS",
    "LIBRARY",
    "DealLog",
    "Follower",
    "Hand",
    "HandFollower",
    "HouseRules",
    "Paper",
    "PaperError",
    "PlayedHand",
    "RefaHand",
    "SeatPaper",
    "deal_value",
    "draw_paper",
    "hand_from_entry",
    "hand_from_stored",
    "paper_result",
    "paper_results",
    "parse_log",
]
