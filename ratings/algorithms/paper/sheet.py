"""The paper a deal log draws, column by column, as prefko's paper library draws it (the rules
are in :mod:`ratings.algorithms.paper`'s docstring), and the final scores it gives.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ratings.algorithms.paper.deals import (
    SEATS,
    DealLog,
    PaperError,
    PlayedHand,
    RefaHand,
    parse_log,
)
from ratings.algorithms.preferans import final_scores


@dataclass
class _Number:
    value: int
    repealed: bool = False

    def json(self) -> object:
        return {"value": self.value, "repealed": True} if self.repealed else self.value


@dataclass
class _Refa:
    middle: int = 0  # this seat's own corner: 0 unplayed, 1 made, -1 failed

    def json(self) -> object:
        # The library keeps all three corners, but a seat only ever marks its own (the middle).
        return {"left": 0, "middle": self.middle, "right": 0}


@dataclass
class _Hat:
    crossed: bool = False

    def json(self) -> object:
        return {"hat": -1 if self.crossed else 1}


class _Side:
    """A side column: running totals of the supe written, repealed ones crossed out."""

    def __init__(self) -> None:
        self.total = 0
        self.entries: list[_Number] = []

    def add(self, amount: int, repealed: bool) -> None:
        self.entries.append(_Number(self.total + amount, repealed))
        if not repealed:
            self.total += amount


class _Middle:
    """The bula column: numbers, refa triangles and hats, as preferans-paper-js draws them."""

    def __init__(self, bula: int) -> None:
        self.total = bula
        self.entries: list[_Number | _Refa | _Hat] = [_Number(bula)]
        self._last_non_zero = bula  # the last non-zero number written, repealed ones included

    def add(self, change: int) -> None:
        self.total += change
        if self._last_non_zero > 0:
            if change < 0 and self.total + change <= 0:
                self.entries.append(_Hat())
        elif change > 0 and self.total + change >= 0:
            self.entries.append(_Hat(crossed=True))
        if self.total != 0:
            self._write(_Number(self.total))

    def add_repealed(self, change: int) -> None:
        self._write(_Number(self.total + change, repealed=True))

    def _write(self, number: _Number) -> None:
        self.entries.append(number)
        if number.value != 0:
            self._last_non_zero = number.value

    def add_refa(self) -> None:
        self.entries.append(_Refa())

    def play_refa(self, failed: bool) -> None:
        for entry in self.entries:
            if isinstance(entry, _Refa) and entry.middle == 0:
                entry.middle = -1 if failed else 1
                return

    def has_open_refa(self) -> bool:
        return any(isinstance(entry, _Refa) and entry.middle == 0 for entry in self.entries)


@dataclass(frozen=True)
class SeatPaper:
    """One seat's three columns: the totals and every entry as the library's ``json`` writes it."""

    seat: int
    left: int
    middle: int
    right: int
    left_entries: tuple[object, ...]
    middle_entries: tuple[object, ...]
    right_entries: tuple[object, ...]

    @property
    def columns(self) -> tuple[int, int, int]:
        return (self.left, self.middle, self.right)

    def entries_json(self) -> dict[str, list[object]]:
        return {
            "left": list(self.left_entries),
            "middle": list(self.middle_entries),
            "right": list(self.right_entries),
        }


@dataclass(frozen=True)
class Paper:
    """The three seats' papers in seating order, and the refe still open for each."""

    seats: tuple[SeatPaper, SeatPaper, SeatPaper]
    open_refas: tuple[bool, bool, bool]
    # The middles added up after each hand, in order (refe and repealed hands change nothing).
    bula_sums: tuple[int, ...] = ()

    @property
    def columns(self) -> list[tuple[int, int, int]]:
        """(left, middle, right) per seat, as the end-of-game paper form takes them."""
        return [seat.columns for seat in self.seats]

    @property
    def bula_sum(self) -> int:
        """The middles added up: the game is over when this reaches zero (or goes below)."""
        return sum(seat.middle for seat in self.seats)

    @property
    def over(self) -> bool:
        """Whether the bulas have run out: they add up to zero or below, and the game is played
        out. (The library writes on; a table stops here.)"""
        return self.bula_sum <= 0

    def played_out_at(self) -> int | None:
        """The hand (1-based, refe included) with which the bulas first added up to zero or
        below, or None if they never did: a hand after it came after the end of the game."""
        return next((n for n, total in enumerate(self.bula_sums, start=1) if total <= 0), None)

    def finals(self) -> list[int]:
        """The seed's final scores (lower is better), from the columns."""
        return final_scores(self.columns)

    def has_open_refa(self, seat: int) -> bool:
        """Whether ``seat`` (1-based) still has a refa to play: its next value is doubled."""
        return self.open_refas[seat - 1]

    def result_json(self) -> dict[str, list[dict[str, object]]]:
        """The result of ``manage.py paper_from_deals`` for this paper."""
        finals = self.finals()
        return {
            "seats": [
                {
                    "seat": seat.seat,
                    "left": seat.left,
                    "middle": seat.middle,
                    "right": seat.right,
                    "final": final,
                    "paper": seat.entries_json(),
                }
                for seat, final in zip(self.seats, finals, strict=True)
            ]
        }


def draw_paper(log: DealLog) -> Paper:
    """Keep the paper of a deal log, hand by hand (:func:`parse_log` checked its rules)."""
    lefts = [_Side() for _ in SEATS]
    rights = [_Side() for _ in SEATS]
    middles = [_Middle(log.bula) for _ in SEATS]
    bula_sums = []
    for hand in log.hands:
        if isinstance(hand, RefaHand):
            for middle in middles:
                middle.add_refa()
        else:
            bulas_left = sum(middle.total for middle in middles)
            _play(hand, lefts, middles, rights, log.rules.fall(hand.value, bulas_left))
        bula_sums.append(sum(middle.total for middle in middles))
    seats = tuple(
        SeatPaper(
            seat=seat,
            left=lefts[i].total,
            middle=middles[i].total,
            right=rights[i].total,
            left_entries=tuple(entry.json() for entry in lefts[i].entries),
            middle_entries=tuple(entry.json() for entry in middles[i].entries),
            right_entries=tuple(entry.json() for entry in rights[i].entries),
        )
        for i, seat in enumerate(SEATS)
    )
    return Paper(
        seats=seats,  # type: ignore[arg-type]
        open_refas=tuple(middle.has_open_refa() for middle in middles),  # type: ignore[arg-type]
        bula_sums=tuple(bula_sums),
    )


def _play(
    hand: PlayedHand,
    lefts: list[_Side],
    middles: list[_Middle],
    rights: list[_Side],
    fall: int,
) -> None:
    """Write a played hand; ``fall``: what the declarer's bula goes up by if they failed (the
    value, or more under the house rules' double fall)."""
    declarer = hand.declarer - 1
    change = fall if hand.declarer_failed else -hand.value
    if hand.repealed:
        middles[declarer].add_repealed(change)
    else:
        middles[declarer].play_refa(hand.declarer_failed)
        middles[declarer].add(change)
    for follower in hand.followers:
        if not follower.followed:
            continue
        seat = follower.seat - 1
        # The declarer sitting next in seat order is faced by the right column.
        side = rights[seat] if hand.declarer == follower.seat % 3 + 1 else lefts[seat]
        # The known difference: no supa for no trick (unless the house rules fix the supa).
        if follower.tricks != 0 or follower.supa is not None:
            side.add(follower.supa_for(hand.value), hand.repealed)
        if follower.failed:
            if hand.repealed:
                middles[seat].add_repealed(hand.value)
            else:
                middles[seat].add(hand.value)


def paper_result(data: object) -> dict[str, object]:
    """One deal log in, one result out, as ``manage.py paper_from_deals`` prints them.

    ``{"seats": [...]}`` for a log the rules accept, ``{"error": "..."}`` (naming the hand) for
    one they refuse.
    """
    try:
        return draw_paper(parse_log(data)).result_json()
    except PaperError as error:
        return {"error": str(error)}


def paper_results(logs: Iterable[object]) -> list[dict[str, object]]:
    """:func:`paper_result` for each log, in order."""
    return [paper_result(log) for log in logs]
