"""A deal as the players say it at the table, and a game's deal log (the input of
``manage.py paper_from_deals`` and of the API's games posted as deals), read and checked.

What the paper makes of the log is :mod:`ratings.algorithms.paper.sheet`'s.
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


def hand_from_entry(
    entry: object, *, repealed: bool = False, rules: HouseRules = LIBRARY
) -> dict[str, object]:
    """A deal as the players said it at the table, turned into a hand of the deal log.

    ``{"refa": true}`` for a deal all three passed; otherwise ``{"declarer": 1, "contract":
    "herc", "igra": false, "on_refa": false, "kontra": 0, "failed": false, "followers":
    [{"seat": 2, "play": "followed", "tricks": 2, "failed": false}, {"seat": 3, "play":
    "passed"}]}``. The value is :func:`deal_value`'s (``on_refa``: the declarer plays an unplayed
    refa). A follower ``invited`` by the other writes nothing: the one who invited enters the
    defence's tricks, both followers' together. PaperError when the entry is malformed, or
    when the club's house ``rules`` refuse it (a kontra on pik, a kontra level above theirs).
    A failed betl under a fixed betl supa gives each follower who followed that ``"supa"``.

    A hand already in the deal log's form (a ``value`` and a ``declarer`` with a seat: a game
    posted to the API as its deals) is taken as it is, checked as :func:`parse_log` checks it.
    """
    if not isinstance(entry, Mapping):
        raise PaperError("a deal must be an object")
    if _flag(entry, "refa", "the deal"):
        return {"refa": True, "repealed": True} if repealed else {"refa": True}
    if isinstance(entry.get("declarer"), Mapping):
        return _hand_json(_parse_hand({**entry, "repealed": repealed}, 0))
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
    if kontra and contract == "pik" and not rules.kontra_on_pik:
        raise PaperError("the house rules give no kontra on pik")
    if kontra > rules.max_kontra:
        raise PaperError(f"the house rules give no kontra above level {rules.max_kontra}")
    failed = _flag(entry, "failed", "the declarer")
    fixed_supa = rules.betl_fall_supa if contract == "betl" and failed else None
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
        hand_follower = {
            "seat": _seat(follower.get("seat"), f"follower {index}'s seat"),
            "followed": followed,
            "tricks": _tricks(follower.get("tricks", 0), f"follower {index}'s tricks")
            if followed
            else 0,
            "failed": _flag(follower, "failed", f"follower {index}") and followed,
        }
        if followed and fixed_supa is not None:
            hand_follower["supa"] = fixed_supa
        hand_followers.append(hand_follower)
    return {
        "value": value,
        "declarer": {"seat": declarer, "failed": failed},
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
        hand = _parse_hand(raw, number)
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


def _hand_json(hand: PlayedHand | RefaHand) -> dict[str, object]:
    """A hand in the deal log's JSON form (what :func:`parse_log` reads)."""
    if isinstance(hand, RefaHand):
        return {"refa": True}
    declarer: dict[str, object] = {"seat": hand.declarer, "failed": hand.declarer_failed}
    if hand.declarer_tricks is not None:
        declarer["tricks"] = hand.declarer_tricks
    return {
        "value": hand.value,
        "declarer": declarer,
        "followers": [
            {"seat": f.seat, "followed": f.followed, "tricks": f.tricks, "failed": f.failed}
            | ({} if f.supa is None else {"supa": f.supa})
            for f in hand.followers
        ],
        "repealed": hand.repealed,
    }


def _parse_hand(hand: object, number: int) -> PlayedHand | RefaHand:
    # Number 0: a single deal (hand_from_entry), named by the caller.
    where = f"hand {number}" if number else "the deal"
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
    supa = data.get("supa")
    return Follower(
        seat=_seat(data.get("seat"), f"{name}'s seat"),
        followed=_flag(data, "followed", name),
        tricks=_whole(data.get("tricks", 0), f"{name}'s tricks"),
        failed=_flag(data, "failed", name),
        supa=None if supa is None else _whole(supa, f"{name}'s supa"),
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
