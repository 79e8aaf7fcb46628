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
  number, and a supa written is above zero; the bula is an even number above zero.

The one known difference: the library throws on a real deal, a follower who followed and took no
trick (its side column refuses an entry of 0, after the declarer's bula was already changed).
Here that follower writes no supa, and still has the value added to their bula when they failed.

Inputs that make no sense at a table are taken exactly as the library takes them (a value of 0
or below when nobody writes it as a supa, tricks below 0 for a follower who did not follow), so
that any log the library accepts gives the same paper here.

The final scores come from the columns by the seed's formula
(:func:`ratings.algorithms.preferans.final_scores`); the library's own score getter turns the
sign round and depends on which follower the caller passes first, so it is not used.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ratings.algorithms.preferans import final_scores

__all__ = [
    "CONTRACTS",
    "FOLLOWER_PLAYS",
    "KONTRA_LEVELS",
    "DealLog",
    "Follower",
    "Paper",
    "PaperError",
    "PlayedHand",
    "RefaHand",
    "SeatPaper",
    "deal_value",
    "draw_paper",
    "hand_from_entry",
    "paper_result",
    "paper_results",
    "parse_log",
]

SEATS = (1, 2, 3)
MAX_TRICKS = 10
DEFENCE_TRICKS = 5  # a failed contract gives the followers exactly this many tricks together

# The bids in Serbian Preferans and their number; the value on the paper is twice the bid.
CONTRACTS = {"pik": 2, "karo": 3, "herc": 4, "tref": 5, "betl": 6, "sans": 7}
# Each level doubles the value once more.
KONTRA_LEVELS = ("", "kontra", "rekontra", "subkontra", "mortkontra")


class PaperError(ValueError):
    """A deal log the rules refuse; the message names the hand (1-based) when one is at fault."""


# A deal's value ----------------------------------------------------------------------------------


def deal_value(contract: str, *, igra: bool = False, refa: bool = False, kontra: int = 0) -> int:
    """The value written on the paper for a deal, from what the players said.

    Twice the bid (pik 2, karo 3, herc 4, tref 5, betl 6, sans 7), two more for a game played
    without the talon (igra), doubled when the declarer plays an unplayed refa, and doubled again
    for each kontra level (1 kontra, 2 rekontra, 3 subkontra, 4 mortkontra).

    >>> deal_value("pik"), deal_value("herc", igra=True), deal_value("sans", refa=True, kontra=2)
    (4, 10, 112)
    """
    if contract not in CONTRACTS:
        raise ValueError(f"unknown contract {contract!r}: one of {', '.join(CONTRACTS)}")
    if isinstance(kontra, bool) or not isinstance(kontra, int) or not 0 <= kontra < 5:
        raise ValueError(f"the kontra level is 0 to 4, got {kontra!r}")
    value = 2 * CONTRACTS[contract] + (2 if igra else 0)
    if refa:
        value *= 2
    return value * 2**kontra


FOLLOWER_PLAYS = ("followed", "passed", "invited")


def hand_from_entry(entry: object, *, repealed: bool = False) -> dict[str, object]:
    """A deal as the players said it at the table, turned into a hand of the deal log.

    ``{"refa": true}`` for a deal all three passed; otherwise ``{"declarer": 1, "contract":
    "herc", "igra": false, "on_refa": false, "kontra": 0, "failed": false, "followers":
    [{"seat": 2, "play": "followed", "tricks": 2, "failed": false}, {"seat": 3, "play":
    "passed"}]}``. The value is :func:`deal_value`'s (``on_refa``: the declarer plays an unplayed
    refa). A follower ``invited`` by the other writes nothing: the one who invited enters the
    defence's tricks, both followers' together. PaperError when the entry is malformed.
    """
    if not isinstance(entry, Mapping):
        raise PaperError("a deal must be an object")
    if _flag(entry, "refa", "the deal"):
        return {"refa": True, "repealed": True} if repealed else {"refa": True}
    contract = entry.get("contract")
    kontra = entry.get("kontra", 0)
    try:
        value = deal_value(
            contract,  # type: ignore[arg-type]
            igra=_flag(entry, "igra", "the deal"),
            refa=_flag(entry, "on_refa", "the deal"),
            kontra=kontra,  # type: ignore[arg-type]
        )
    except (ValueError, TypeError) as error:
        raise PaperError(str(error)) from None
    declarer = _seat(entry.get("declarer"), "the declarer's seat")
    followers = entry.get("followers")
    if not isinstance(followers, list) or len(followers) != 2:
        raise PaperError("a played deal needs exactly two followers")
    plays = []
    for index, follower in enumerate(followers, start=1):
        if not isinstance(follower, Mapping):
            raise PaperError(f"follower {index} must be an object with a seat")
        play = follower.get("play", "passed")
        if play not in FOLLOWER_PLAYS:
            raise PaperError(f"follower {index} followed, passed or was invited, not {play!r}")
        plays.append(play)
    if plays.count("invited") == 2 or ("invited" in plays and "passed" in plays):
        raise PaperError("an invited follower plays beside the one who invited them")
    hand_followers = []
    for index, (follower, play) in enumerate(zip(followers, plays, strict=True), start=1):
        followed = play == "followed"
        hand_followers.append(
            {
                "seat": _seat(follower.get("seat"), f"follower {index}'s seat"),
                "followed": followed,
                "tricks": _tricks(follower.get("tricks", 0), f"follower {index}'s tricks")
                if followed
                else 0,
                "failed": _flag(follower, "failed", f"follower {index}") and followed,
            }
        )
    return {
        "value": value,
        "declarer": {"seat": declarer, "failed": _flag(entry, "failed", "the declarer")},
        "followers": hand_followers,
        "repealed": repealed,
    }


# A deal log --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Follower:
    """One follower of a played hand: did they follow, how many tricks, did they fail."""

    seat: int
    followed: bool
    tricks: int = 0
    failed: bool = False


@dataclass(frozen=True)
class PlayedHand:
    """A played deal: its value, the declarer, the two followers; ``repealed`` draws it crossed."""

    value: int
    declarer: int
    declarer_failed: bool
    followers: tuple[Follower, Follower]
    repealed: bool = False
    declarer_tricks: int | None = None
    refa: bool = field(default=False, init=False)


@dataclass(frozen=True)
class RefaHand:
    """A deal all three passed: a refa triangle in every middle column."""

    refa: bool = field(default=True, init=False)
    repealed: bool = field(default=False, init=False)


@dataclass(frozen=True)
class DealLog:
    """A game's deals in order, with the starting bula and the refe cap (``None``: no cap)."""

    bula: int
    refas: int | None
    hands: tuple[PlayedHand | RefaHand, ...]


def parse_log(data: object) -> DealLog:
    """Read a deal log in the JSON form of ``manage.py paper_from_deals``; PaperError if malformed.

    ``{"bula": 30, "refas": 2, "hands": [{"refa": true}, {"value": 4, "declarer": {"seat": 1,
    "failed": false}, "followers": [{"seat": 2, "followed": true, "tricks": 2, "failed": false},
    {"seat": 3, "followed": false, "tricks": 0, "failed": false}], "repealed": false}]}``

    A follower's ``tricks`` and every ``failed``/``repealed`` may be left out (0 and false).
    """
    if not isinstance(data, Mapping):
        raise PaperError("a deal log must be an object with bula, refas and hands")
    bula = _whole(data.get("bula"), "the bula")
    if bula <= 0 or bula % 2:
        raise PaperError(f"the bula must be an even number above 0, got {data.get('bula')!r}")
    refas = data.get("refas")
    if refas is not None:
        refas = _whole(refas, "refas")
        if refas < 0:
            raise PaperError(f"refas must be 0 or more, or null for no cap, got {refas!r}")
    hands = data.get("hands")
    if not isinstance(hands, list):
        raise PaperError("hands must be a list")
    return DealLog(
        bula=bula,
        refas=refas,
        hands=tuple(_parse_hand(hand, number) for number, hand in enumerate(hands, start=1)),
    )


def _parse_hand(hand: object, number: int) -> PlayedHand | RefaHand:
    where = f"hand {number}"
    if not isinstance(hand, Mapping):
        raise PaperError(f"{where}: a hand must be an object")
    if _flag(hand, "refa", where):
        if _flag(hand, "repealed", where):
            raise PaperError(f"{where}: a refa cannot be repealed")
        return RefaHand()
    declarer = hand.get("declarer")
    if not isinstance(declarer, Mapping):
        raise PaperError(f"{where}: a played hand needs a declarer with a seat")
    seat = _seat(declarer.get("seat"), f"{where}: the declarer's seat")
    tricks = declarer.get("tricks")
    if tricks is not None:
        tricks = _whole(tricks, f"{where}: the declarer's tricks")
    followers = hand.get("followers")
    if not isinstance(followers, list) or len(followers) != 2:
        raise PaperError(f"{where}: a played hand needs exactly two followers")
    parsed = tuple(_parse_follower(f, where, i) for i, f in enumerate(followers, start=1))
    if sorted([seat, parsed[0].seat, parsed[1].seat]) != list(SEATS):
        raise PaperError(
            f"{where}: the declarer and the two followers must sit in seats 1, 2 and 3, "
            f"got {seat}, {parsed[0].seat} and {parsed[1].seat}"
        )
    value = hand.get("value")
    # Any even number, as the library takes it (a value of 0 or below is refused only where a
    # follower would write it as a supa: see _play).
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise PaperError(f"{where}: the value must be an even number, got {value!r}")
    if int(value) % 2:
        raise PaperError(f"{where}: the value must be an even number, got {value!r}")
    return PlayedHand(
        value=int(value),
        declarer=seat,
        declarer_failed=_flag(declarer, "failed", f"{where}: the declarer"),
        followers=(parsed[0], parsed[1]),
        repealed=_flag(hand, "repealed", where),
        declarer_tricks=tricks,
    )


def _parse_follower(data: object, where: str, index: int) -> Follower:
    name = f"{where}: follower {index}"
    if not isinstance(data, Mapping):
        raise PaperError(f"{name} must be an object with a seat")
    return Follower(
        seat=_seat(data.get("seat"), f"{name}'s seat"),
        followed=_flag(data, "followed", name),
        tricks=_whole(data.get("tricks", 0), f"{name}'s tricks"),
        failed=_flag(data, "failed", name),
    )


def _whole(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise PaperError(f"{name} must be a whole number, got {value!r}")
    return int(value)


def _seat(value: object, name: str) -> int:
    seat = _whole(value, name)
    if seat not in SEATS:
        raise PaperError(f"{name} must be 1, 2 or 3, got {value!r}")
    return seat


def _tricks(value: object, name: str) -> int:
    tricks = _whole(value, name)
    if not 0 <= tricks <= MAX_TRICKS:
        raise PaperError(f"{name} must be 0 to {MAX_TRICKS}, got {value!r}")
    return tricks


def _flag(data: Mapping, key: str, where: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise PaperError(f"{where}: {key} must be true or false, got {value!r}")
    return value


# The paper ---------------------------------------------------------------------------------------


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

    @property
    def columns(self) -> list[tuple[int, int, int]]:
        """(left, middle, right) per seat, as the end-of-game paper form takes them."""
        return [seat.columns for seat in self.seats]

    @property
    def bula_sum(self) -> int:
        """The middles added up: the game is over when this reaches zero (or goes below)."""
        return sum(seat.middle for seat in self.seats)

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
    """Keep the paper of a deal log, hand by hand; PaperError naming the first hand refused."""
    lefts = [_Side() for _ in SEATS]
    rights = [_Side() for _ in SEATS]
    middles = [_Middle(log.bula) for _ in SEATS]
    refe = 0
    for number, hand in enumerate(log.hands, start=1):
        if isinstance(hand, RefaHand):
            if log.refas is not None and refe >= log.refas:
                raise PaperError(f"hand {number}: no more refe, the cap is {log.refas}")
            refe += 1
            for middle in middles:
                middle.add_refa()
            continue
        _check_hand(hand, number)
        _play(hand, number, lefts, middles, rights)
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
    )


def _check_hand(hand: PlayedHand, number: int) -> None:
    """The library's checks of a played hand (``PrefScoreHandGame``'s constructor)."""
    where = f"hand {number}"
    first, second = hand.followers
    together = first.tricks + second.tricks
    if hand.declarer_failed:
        if hand.declarer_tricks is not None and hand.declarer_tricks > DEFENCE_TRICKS:
            raise PaperError(
                f"{where}: a declarer who failed took at most {DEFENCE_TRICKS} tricks, "
                f"got {hand.declarer_tricks}"
            )
        if together != DEFENCE_TRICKS:
            raise PaperError(
                f"{where}: a failed contract gives the followers exactly {DEFENCE_TRICKS} tricks "
                f"together, got {first.tricks} + {second.tricks}"
            )
        if first.failed or second.failed:
            raise PaperError(f"{where}: a follower cannot fail when the declarer fails")
    elif together >= DEFENCE_TRICKS:
        raise PaperError(
            f"{where}: a made contract leaves the followers fewer than {DEFENCE_TRICKS} tricks "
            f"together, got {first.tricks} + {second.tricks}"
        )


def _play(
    hand: PlayedHand,
    number: int,
    lefts: list[_Side],
    middles: list[_Middle],
    rights: list[_Side],
) -> None:
    declarer = hand.declarer - 1
    change = hand.value if hand.declarer_failed else -hand.value
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
        supa = hand.value * follower.tricks
        if follower.tricks == 0:
            pass  # the known difference: no supa for no trick (the library throws)
        elif supa <= 0:
            raise PaperError(
                f"hand {number}: the follower in seat {follower.seat} would write a supa of "
                f"{supa}; a supa is above zero"
            )
        else:
            side.add(supa, hand.repealed)
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
