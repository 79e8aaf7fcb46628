"""How a deal was read before deals were kept in one shape (migration 0033), frozen here as the
reference the one shape must draw the same papers as: ``hand_from_entry`` as it was, reading
the pad's taps, or a deal log's hand taken as it is."""

from __future__ import annotations

from collections.abc import Mapping

from ratings.algorithms.paper import (
    FOLLOWER_PLAYS,
    LIBRARY,
    HouseRules,
    PaperError,
    PlayedHand,
    RefaHand,
    deal_value,
)
from ratings.algorithms.paper.deals import parse_hand, read_flag, read_seat, read_tricks


def hand_before(
    entry: object, *, repealed: bool = False, rules: HouseRules = LIBRARY
) -> dict[str, object]:
    """The deal log's hand a stored deal (taps or a log's hand) gave before the one shape."""
    if not isinstance(entry, Mapping):
        raise PaperError("a deal must be an object")
    if read_flag(entry, "refa", "the deal"):
        return {"refa": True, "repealed": True} if repealed else {"refa": True}
    if isinstance(entry.get("declarer"), Mapping):
        return _hand_json(parse_hand({**entry, "repealed": repealed}, 0))
    contract = entry.get("contract")
    kontra = entry.get("kontra", 0)
    try:
        value = deal_value(
            contract,  # type: ignore[arg-type]
            igra=read_flag(entry, "igra", "the deal"),
            refa=read_flag(entry, "on_refa", "the deal"),
            kontra=kontra,  # type: ignore[arg-type]
        )
    except (ValueError, TypeError) as error:
        raise PaperError(str(error)) from None
    if kontra and contract == "pik" and not rules.kontra_on_pik:
        raise PaperError("the house rules give no kontra on pik")
    if kontra > rules.max_kontra:
        raise PaperError(f"the house rules give no kontra above level {rules.max_kontra}")
    failed = read_flag(entry, "failed", "the declarer")
    fixed_supa = rules.betl_fall_supa if contract == "betl" and failed else None
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
    if plays.count("invited") == 2 or ("invited" in plays and "passed" in plays):
        raise PaperError("an invited follower plays beside the one who invited them")
    hand_followers = []
    for index, (follower, play) in enumerate(zip(followers, plays, strict=True), start=1):
        followed = play == "followed"
        hand_follower = {
            "seat": read_seat(follower.get("seat"), f"follower {index}'s seat"),
            "followed": followed,
            "tricks": read_tricks(follower.get("tricks", 0), f"follower {index}'s tricks")
            if followed
            else 0,
            "failed": read_flag(follower, "failed", f"follower {index}") and followed,
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


def _hand_json(hand: PlayedHand | RefaHand) -> dict[str, object]:
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
