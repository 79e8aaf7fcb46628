"""A deal's value as the players say it, and a game's deal log (the input of
``manage.py paper_from_deals`` and of the API's games posted as deals), read and checked.

A deal as a paper keeps it is :mod:`ratings.algorithms.paper.hands`'; what the paper makes of
the log is :mod:`ratings.algorithms.paper.sheet`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ratings.algorithms.paper.rules import LIBRARY, HouseRules

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


# A deal log --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Follower:
    """One follower of a played hand: did they follow, how many tricks, did they fail."""

    seat: int
    followed: bool
    tricks: int = 0
    failed: bool = False
    # The supa written as the house rules say (a fixed betl supa), instead of tricks x value.
    supa: int | None = None

    def supa_for(self, value: int) -> int:
        """What this follower writes on a hand of ``value`` (0: nothing)."""
        if not self.followed:
            return 0
        return self.supa if self.supa is not None else value * self.tricks


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
    """A game's deals in order, with the starting bula and the refe cap (``None``: no cap), as
    :func:`parse_log` reads and checks them."""

    bula: int
    refas: int | None
    hands: tuple[PlayedHand | RefaHand, ...]
    rules: HouseRules = LIBRARY


def parse_log(data: object) -> DealLog:
    """Read a deal log in the JSON form of ``manage.py paper_from_deals``; PaperError if malformed.

    ``{"bula": 30, "refas": 2, "hands": [{"refa": true}, {"value": 4, "declarer": {"seat": 1,
    "failed": false}, "followers": [{"seat": 2, "followed": true, "tricks": 2, "failed": false},
    {"seat": 3, "followed": false, "tricks": 0, "failed": false}], "repealed": false}]}``

    A follower's ``tricks`` and every ``failed``/``repealed`` may be left out (0 and false). A
    follower may carry the ``supa`` the house rules write instead of tricks x value, and the log
    the club's house ``rules`` (:class:`~ratings.algorithms.paper.rules.HouseRules`' JSON; left
    out: the library's).

    Each hand is read and checked against the rules before the next is read, so that a log
    breaking several rules is refused for the first hand that breaks one, as the library, which
    takes the hands one by one, refuses it (an odd value in hand 2 after a refa over the cap in
    hand 1: hand 1).
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
    try:
        rules = HouseRules.from_json(data.get("rules"))
    except (TypeError, ValueError) as error:
        raise PaperError(str(error)) from None
    hands = data.get("hands")
    if not isinstance(hands, list):
        raise PaperError("hands must be a list")
    parsed: list[PlayedHand | RefaHand] = []
    refe = 0
    for number, raw in enumerate(hands, start=1):
        hand = parse_hand(raw, number)
        if isinstance(hand, RefaHand):
            if refas is not None and refe >= refas:
                raise PaperError(f"hand {number}: no more refe, the cap is {refas}")
            refe += 1
        else:
            _check_hand(hand, number)
        parsed.append(hand)
    return DealLog(bula=bula, refas=refas, hands=tuple(parsed), rules=rules)


def _check_hand(hand: PlayedHand, number: int) -> None:
    """The library's checks of a played hand: ``PrefScoreHandGame``'s constructor's (tricks,
    falls), then its paper's (a supa above zero)."""
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
    for follower in hand.followers:
        # No trick writes no supa (the known difference: the library throws on an entry of 0).
        supa = follower.supa_for(hand.value)
        written = follower.tricks != 0 or follower.supa is not None
        if follower.followed and written and supa <= 0:
            raise PaperError(
                f"{where}: the follower in seat {follower.seat} would write a supa of {supa}; "
                "a supa is above zero"
            )


def parse_hand(hand: object, number: int) -> PlayedHand | RefaHand:
    """One hand of a deal log read (its shape; :func:`parse_log` checks it against the rules),
    PaperError naming hand ``number``."""
    # Number 0: a single deal (Hand.from_log), named by the caller.
    where = f"hand {number}" if number else "the deal"
    if not isinstance(hand, Mapping):
        raise PaperError(f"{where}: a hand must be an object")
    if read_flag(hand, "refa", where):
        if read_flag(hand, "repealed", where):
            raise PaperError(f"{where}: a refa cannot be repealed")
        return RefaHand()
    declarer = hand.get("declarer")
    if not isinstance(declarer, Mapping):
        raise PaperError(f"{where}: a played hand needs a declarer with a seat")
    seat = read_seat(declarer.get("seat"), f"{where}: the declarer's seat")
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
        declarer_failed=read_flag(declarer, "failed", f"{where}: the declarer"),
        followers=(parsed[0], parsed[1]),
        repealed=read_flag(hand, "repealed", where),
        declarer_tricks=tricks,
    )


def _parse_follower(data: object, where: str, index: int) -> Follower:
    name = f"{where}: follower {index}"
    if not isinstance(data, Mapping):
        raise PaperError(f"{name} must be an object with a seat")
    supa = data.get("supa")
    return Follower(
        seat=read_seat(data.get("seat"), f"{name}'s seat"),
        followed=read_flag(data, "followed", name),
        tricks=_whole(data.get("tricks", 0), f"{name}'s tricks"),
        failed=read_flag(data, "failed", name),
        supa=None if supa is None else _whole(supa, f"{name}'s supa"),
    )


def _whole(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise PaperError(f"{name} must be a whole number, got {value!r}")
    return int(value)


def read_seat(value: object, name: str) -> int:
    """A seat, 1 to 3; PaperError naming ``name`` otherwise."""
    seat = _whole(value, name)
    if seat not in SEATS:
        raise PaperError(f"{name} must be 1, 2 or 3, got {value!r}")
    return seat


def read_tricks(value: object, name: str) -> int:
    """A follower's tricks as the pad takes them, 0 to 10; PaperError naming ``name``."""
    tricks = _whole(value, name)
    if not 0 <= tricks <= MAX_TRICKS:
        raise PaperError(f"{name} must be 0 to {MAX_TRICKS}, got {value!r}")
    return tricks


def read_flag(data: Mapping, key: str, where: str) -> bool:
    """``data[key]``, true or false (left out: false); PaperError naming ``where`` otherwise."""
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise PaperError(f"{where}: {key} must be true or false, got {value!r}")
    return value
