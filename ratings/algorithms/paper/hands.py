"""A deal as a paper keeps it (:class:`Hand`): the one shape every deal is stored in, whatever
brought it (the phone's pad, a deal log posted to the API, the admin, a backup), read and written
only here.

A hand is a refa, or a played deal: the declarer's seat and fall, the value written, the two
followers (each followed, passed or was invited, with tricks and a fall) and, when the table said
it, the contract (the bid, igra, an unplayed refa, the kontra level) that gives that value. A
deal log's hand (:func:`~ratings.algorithms.paper.parse_log`'s form) tells no contract: such a
hand keeps its value, its declarer's tricks and any supa the log writes, exactly as the log says
them, so the paper it draws is the log's.

``Hand.to_json()`` is what a deal stores, ``Hand.from_json`` reads it back and refuses anything
else (PaperError): ``{"refa": true}``, or::

    {"contract": {"name": "herc", "igra": false, "on_refa": false, "kontra": 0}, "value": 8,
     "declarer": {"seat": 1, "failed": false},
     "followers": [{"seat": 2, "play": "followed", "tricks": 2, "failed": false},
                   {"seat": 3, "play": "passed", "tricks": 0, "failed": false}]}

(``"contract": null`` for a logged hand; its declarer may have ``"tricks"`` and a follower a
``"supa"``.) :meth:`Hand.log_json` turns a hand into the deal log's form with the paper's house
rules, which decide a hand with its contract (a kontra on pik, the highest kontra, a failed
betl's fixed supa); the paper's own checks (tricks, falls, refe, the end) are
:func:`~ratings.algorithms.paper.parse_log`'s, when the deals draw their paper.

Before migration 0033 a deal kept either the pad's taps (``{"declarer": 1, "contract": "herc",
...}``) or a deal log's hand: :func:`hand_from_stored` reads those too (that migration, and a
backup made before it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ratings.algorithms.paper.deals import (
    CONTRACTS,
    FOLLOWER_PLAYS,
    KONTRA_LEVELS,
    MAX_TRICKS,
    SEATS,
    PaperError,
    PlayedHand,
    RefaHand,
    deal_value,
    parse_hand,
    read_flag,
    read_seat,
    read_tricks,
)
from ratings.algorithms.paper.rules import LIBRARY, HouseRules


@dataclass(frozen=True)
class Contract:
    """What the table bid: the contract, igra (without the talon), on an unplayed refa (x2),
    the kontra level (0 to 4)."""

    name: str
    igra: bool = False
    on_refa: bool = False
    kontra: int = 0

    def __post_init__(self) -> None:
        if self.name not in CONTRACTS:
            raise PaperError(f"unknown contract {self.name!r}: one of {', '.join(CONTRACTS)}")
        for flag in ("igra", "on_refa"):
            if not isinstance(getattr(self, flag), bool):
                raise PaperError(f"the deal: {flag} must be true or false")
        if not _is_int(self.kontra) or not 0 <= self.kontra < len(KONTRA_LEVELS):
            raise PaperError(f"the kontra level is 0 to 4, got {self.kontra!r}")

    @property
    def value(self) -> int:
        """The value written on the paper (:func:`deal_value`)."""
        return deal_value(self.name, igra=self.igra, refa=self.on_refa, kontra=self.kontra)

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "igra": self.igra,
            "on_refa": self.on_refa,
            "kontra": self.kontra,
        }


@dataclass(frozen=True)
class HandFollower:
    """A follower of a played hand: followed, passed or invited (the one who invited writes the
    defence's tricks, both followers'), their tricks and fall, and a supa a deal log writes."""

    seat: int
    play: str = "passed"
    tricks: int = 0
    failed: bool = False
    supa: int | None = None

    @property
    def followed(self) -> bool:
        return self.play == "followed"


@dataclass(frozen=True)
class Hand:
    """A deal as kept (``Deal.entered`` is its :meth:`to_json`): ``Hand(refa=True)`` for a deal
    all three passed, else a played deal. Built only valid: PaperError otherwise."""

    refa: bool = False
    declarer: int = 0
    failed: bool = False
    value: int = 0
    contract: Contract | None = None
    followers: tuple[HandFollower, ...] = ()
    declarer_tricks: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.refa, bool):
            raise PaperError("the deal: refa must be true or false")
        if self.refa:
            played = (self.declarer, self.failed, self.value, self.contract, self.followers)
            if played != (0, False, 0, None, ()) or self.declarer_tricks is not None:
                raise PaperError("a refa has no declarer, value, contract or followers")
            return
        _check_played(self)

    # The stored form ----------------------------------------------------------------------------

    def to_json(self) -> dict[str, object]:
        """The hand as a deal stores it (:meth:`from_json` reads it back)."""
        if self.refa:
            return {"refa": True}
        declarer: dict[str, object] = {"seat": self.declarer, "failed": self.failed}
        if self.declarer_tricks is not None:
            declarer["tricks"] = self.declarer_tricks
        return {
            "contract": None if self.contract is None else self.contract.to_json(),
            "value": self.value,
            "declarer": declarer,
            "followers": [
                {"seat": f.seat, "play": f.play, "tricks": f.tricks, "failed": f.failed}
                | ({} if f.supa is None else {"supa": f.supa})
                for f in self.followers
            ],
        }

    @classmethod
    def from_json(cls, data: object) -> Hand:
        """The hand a deal stores (:meth:`to_json`'s form, and only it); PaperError otherwise."""
        if not isinstance(data, Mapping):
            raise PaperError("a deal must be an object")
        if "refa" in data:
            if dict(data) != {"refa": True}:
                raise PaperError('a refa is stored as {"refa": true} and nothing else')
            return cls(refa=True)
        _keys(data, {"contract", "value", "declarer", "followers"}, set(), "the deal")
        declarer = data["declarer"]
        _keys(declarer, {"seat", "failed"}, {"tricks"}, "the declarer")
        contract = data["contract"]
        if contract is not None:
            _keys(contract, {"name", "igra", "on_refa", "kontra"}, set(), "the contract")
            contract = Contract(**contract)
        followers = data["followers"]
        if not isinstance(followers, list):
            raise PaperError("the deal: followers must be a list")
        for index, follower in enumerate(followers, start=1):
            _keys(follower, {"seat", "play", "tricks", "failed"}, {"supa"}, f"follower {index}")
        return cls(
            declarer=declarer["seat"],
            failed=declarer["failed"],
            declarer_tricks=declarer.get("tricks"),
            value=data["value"],
            contract=contract,
            followers=tuple(HandFollower(**follower) for follower in followers),
        )

    # From what brought it -----------------------------------------------------------------------

    @classmethod
    def from_entry(cls, entry: object) -> Hand:
        """A deal as tapped on the pad (``{"refa": true}``, or ``{"declarer": 1, "contract":
        "herc", "igra": false, "on_refa": false, "kontra": 0, "failed": false, "followers":
        [{"seat": 2, "play": "followed", "tricks": 2, "failed": false}, {"seat": 3, "play":
        "passed"}]}``); PaperError when it is malformed. A follower who did not follow keeps no
        tricks and no fall (the one who invited enters the defence's tricks)."""
        if not isinstance(entry, Mapping):
            raise PaperError("a deal must be an object")
        if read_flag(entry, "refa", "the deal"):
            return cls(refa=True)
        kontra = entry.get("kontra", 0)
        try:
            deal_value(entry.get("contract"), kontra=kontra)  # type: ignore[arg-type]
        except (ValueError, TypeError) as error:
            raise PaperError(str(error)) from None
        contract = Contract(
            name=entry["contract"],
            igra=read_flag(entry, "igra", "the deal"),
            on_refa=read_flag(entry, "on_refa", "the deal"),
            kontra=kontra,
        )
        failed = read_flag(entry, "failed", "the declarer")
        declarer = read_seat(entry.get("declarer"), "the declarer's seat")
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
        _check_invitation(plays)
        said = []
        for index, (follower, play) in enumerate(zip(followers, plays, strict=True), start=1):
            followed = play == "followed"
            said.append(
                HandFollower(
                    seat=read_seat(follower.get("seat"), f"follower {index}'s seat"),
                    play=play,
                    tricks=read_tricks(follower.get("tricks", 0), f"follower {index}'s tricks")
                    if followed
                    else 0,
                    failed=read_flag(follower, "failed", f"follower {index}") and followed,
                )
            )
        return cls(
            declarer=declarer,
            failed=failed,
            value=contract.value,
            contract=contract,
            followers=tuple(said),
        )

    @classmethod
    def from_log(cls, hand: object) -> tuple[Hand, bool]:
        """A hand in the deal log's form (:func:`~ratings.algorithms.paper.parse_log`'s, a game
        posted as its deals), and whether the log crosses it out (``"repealed"``, the deal's
        own flag). PaperError, naming "the deal", when it is malformed."""
        parsed = parse_hand(hand, 0)
        if isinstance(parsed, RefaHand):
            return cls(refa=True), False
        return cls.from_played(parsed), parsed.repealed

    @classmethod
    def from_played(cls, hand: PlayedHand) -> Hand:
        """A deal log's played hand as kept: its value, declarer and followers as they are."""
        return cls(
            declarer=hand.declarer,
            failed=hand.declarer_failed,
            declarer_tricks=hand.declarer_tricks,
            value=hand.value,
            followers=tuple(
                HandFollower(
                    seat=f.seat,
                    play="followed" if f.followed else "passed",
                    tricks=f.tricks,
                    failed=f.failed,
                    supa=f.supa,
                )
                for f in hand.followers
            ),
        )

    # What the paper draws -----------------------------------------------------------------------

    def log_json(self, *, repealed: bool = False, rules: HouseRules = LIBRARY) -> dict[str, object]:
        """The hand in the deal log's form (what :func:`parse_log` reads), under the paper's
        house ``rules``: PaperError when they refuse a hand with its contract (a kontra on pik,
        a kontra level above theirs). A failed betl under a fixed betl supa gives each follower
        who followed that supa."""
        if self.refa:
            return {"refa": True, "repealed": True} if repealed else {"refa": True}
        fixed_supa = None
        if self.contract is not None:
            contract = self.contract
            if contract.kontra and contract.name == "pik" and not rules.kontra_on_pik:
                raise PaperError("the house rules give no kontra on pik")
            if contract.kontra > rules.max_kontra:
                raise PaperError(f"the house rules give no kontra above level {rules.max_kontra}")
            if contract.name == "betl" and self.failed:
                fixed_supa = rules.betl_fall_supa
        declarer: dict[str, object] = {"seat": self.declarer, "failed": self.failed}
        if self.declarer_tricks is not None:
            declarer["tricks"] = self.declarer_tricks
        followers = []
        for f in self.followers:
            written = {
                "seat": f.seat,
                "followed": f.followed,
                "tricks": f.tricks,
                "failed": f.failed,
            }
            supa = fixed_supa if f.followed else None
            if f.supa is not None:
                supa = f.supa
            if supa is not None:
                written["supa"] = supa
            followers.append(written)
        return {
            "value": self.value,
            "declarer": declarer,
            "followers": followers,
            "repealed": repealed,
        }


def hand_from_entry(
    entry: object, *, repealed: bool = False, rules: HouseRules = LIBRARY
) -> dict[str, object]:
    """A deal as the players said it at the table, turned into a hand of the deal log.

    ``{"refa": true}`` for a deal all three passed; otherwise ``{"declarer": 1, "contract":
    "herc", "igra": false, "on_refa": false, "kontra": 0, "failed": false, "followers":
    [{"seat": 2, "play": "followed", "tricks": 2, "failed": false}, {"seat": 3, "play":
    "passed"}]}`` (:meth:`Hand.from_entry`). The value is :func:`deal_value`'s (``on_refa``:
    the declarer plays an unplayed refa). A follower ``invited`` by the other writes nothing:
    the one who invited enters the defence's tricks, both followers' together. PaperError when
    the entry is malformed, or when the club's house ``rules`` refuse it (a kontra on pik, a
    kontra level above theirs). A failed betl under a fixed betl supa gives each follower who
    followed that ``"supa"``.

    A hand already in the deal log's form (a ``value`` and a ``declarer`` with a seat) is taken
    as it is, checked as :func:`parse_log` checks it.
    """
    logged = isinstance(entry, Mapping) and isinstance(entry.get("declarer"), Mapping)
    if logged and not read_flag(entry, "refa", "the deal"):  # type: ignore[arg-type]
        hand, _repealed = Hand.from_log({**entry, "repealed": False})  # type: ignore[dict-item]
        return hand.log_json(repealed=repealed, rules=rules)
    return Hand.from_entry(entry).log_json(repealed=repealed, rules=rules)


def hand_from_stored(data: object) -> Hand:
    """A deal as stored in any form it has been kept in: the one of :meth:`Hand.to_json`, or,
    before migration 0033, the pad's taps (:meth:`Hand.from_entry`) or a deal log's hand
    (:meth:`Hand.from_log`, its crossing out kept by the deal). PaperError if it is none."""
    if isinstance(data, Mapping) and isinstance(data.get("declarer"), Mapping):
        if "contract" in data:
            return Hand.from_json(data)
        return Hand.from_log(data)[0]
    if isinstance(data, Mapping) and "refa" in data:
        return Hand.from_json(data)  # a refa was kept as {"refa": true} in every shape
    return Hand.from_entry(data)


# Checks ------------------------------------------------------------------------------------------


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _keys(data: object, required: set[str], optional: set[str], name: str) -> None:
    if not isinstance(data, Mapping):
        raise PaperError(f"{name} must be an object")
    missing = required - data.keys()
    if missing:
        raise PaperError(f"{name} has no {', '.join(sorted(missing))}")
    unknown = data.keys() - required - optional
    if unknown:
        raise PaperError(f"{name} has no field {', '.join(sorted(map(str, unknown)))}")


def _check_invitation(plays: list[str]) -> None:
    if plays.count("invited") == 2 or ("invited" in plays and "passed" in plays):
        raise PaperError("an invited follower plays beside the one who invited them")


def _check_played(hand: Hand) -> None:
    """A played hand's shape: seats 1, 2 and 3, whole numbers, flags, plays, and, with its
    contract, the value it gives and a follower's tricks as the pad takes them."""
    if not _is_int(hand.declarer) or hand.declarer not in SEATS:
        raise PaperError(f"the declarer's seat must be 1, 2 or 3, got {hand.declarer!r}")
    if not isinstance(hand.failed, bool):
        raise PaperError("the declarer: failed must be true or false")
    if not _is_int(hand.value) or hand.value % 2:
        raise PaperError(f"the value must be an even number, got {hand.value!r}")
    if hand.declarer_tricks is not None and not _is_int(hand.declarer_tricks):
        raise PaperError(
            f"the declarer's tricks must be a whole number, got {hand.declarer_tricks!r}"
        )
    if hand.contract is not None:
        if not isinstance(hand.contract, Contract):
            raise PaperError("the contract must be a contract")
        if hand.value != hand.contract.value:
            raise PaperError(
                f"the value of {hand.contract.name} is {hand.contract.value}, not {hand.value}"
            )
    if not isinstance(hand.followers, tuple) or len(hand.followers) != 2:
        raise PaperError("a played deal needs exactly two followers")
    for index, follower in enumerate(hand.followers, start=1):
        _check_follower(follower, index, said=hand.contract is not None)
    _check_invitation([follower.play for follower in hand.followers])
    seats = sorted([hand.declarer, *(follower.seat for follower in hand.followers)])
    if seats != list(SEATS):
        raise PaperError("the declarer and the two followers must sit in seats 1, 2 and 3")


def _check_follower(follower: object, index: int, *, said: bool) -> None:
    name = f"follower {index}"
    if not isinstance(follower, HandFollower):
        raise PaperError(f"{name} must be a follower")
    if not _is_int(follower.seat) or follower.seat not in SEATS:
        raise PaperError(f"{name}'s seat must be 1, 2 or 3, got {follower.seat!r}")
    if follower.play not in FOLLOWER_PLAYS:
        raise PaperError(f"{name} followed, passed or was invited, not {follower.play!r}")
    if not _is_int(follower.tricks):
        raise PaperError(f"{name}'s tricks must be a whole number, got {follower.tricks!r}")
    if not isinstance(follower.failed, bool):
        raise PaperError(f"{name}: failed must be true or false")
    if follower.supa is not None and not _is_int(follower.supa):
        raise PaperError(f"{name}'s supa must be a whole number, got {follower.supa!r}")
    if not said:
        return  # a deal log's hand, taken as the log says it
    if follower.supa is not None:
        raise PaperError(f"{name}: a deal with its contract writes the supa its rules give")
    if follower.followed:
        if not 0 <= follower.tricks <= MAX_TRICKS:
            raise PaperError(f"{name}'s tricks must be 0 to {MAX_TRICKS}, got {follower.tricks!r}")
    elif follower.tricks or follower.failed:
        raise PaperError(f"{name} did not follow: no tricks, no fall")
