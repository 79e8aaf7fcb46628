"""Hypothesis strategies of deals as they come to a paper: the pad's taps, a deal log's hands,
the hands kept, and a club's house rules."""

from __future__ import annotations

from hypothesis import assume
from hypothesis import strategies as st

from ratings.algorithms.paper import CONTRACTS, FOLLOWER_PLAYS, Hand, HouseRules, PaperError

SEATS = (1, 2, 3)


@st.composite
def taps(draw) -> dict:
    """A deal as the pad posts it, mostly well formed (keys left out, plays that break the
    invitation's rule, tricks the paper refuses); now and then a refa."""
    if draw(st.integers(0, 9)) == 0:
        return {"refa": True}
    declarer = draw(st.sampled_from(SEATS))
    others = [seat for seat in SEATS if seat != declarer]
    if draw(st.booleans()):
        others.reverse()
    entry: dict = {"declarer": declarer, "contract": draw(st.sampled_from(list(CONTRACTS)))}
    for flag in ("igra", "on_refa", "failed"):
        if draw(st.booleans()):
            entry[flag] = draw(st.booleans())
    if draw(st.booleans()):
        entry["kontra"] = draw(st.integers(0, 4))
    followers = []
    for seat in others:
        follower: dict = {"seat": seat}
        if draw(st.integers(0, 3)):
            follower["play"] = draw(st.sampled_from(FOLLOWER_PLAYS))
        if draw(st.integers(0, 3)):
            follower["tricks"] = draw(st.integers(0, 6))
        if draw(st.booleans()):
            follower["failed"] = draw(st.integers(0, 4)) == 0
        followers.append(follower)
    if draw(st.integers(0, 3)):
        _coherent(entry, followers)
    entry["followers"] = followers
    return entry


def _coherent(entry: dict, followers: list[dict]) -> None:
    """Most deals as a table plays them: the defence's tricks fewer than 5 for a made contract,
    exactly 5 for a failed one, no follower falling beside a failed declarer."""
    plays = [f.get("play", "passed") for f in followers]
    if "invited" in plays:  # the one who invited followed
        followers[plays.index("invited") - 1]["play"] = "followed"
    followed = [f for f in followers if f.get("play", "passed") == "followed"]
    if entry.get("failed"):
        for follower in followers:
            follower["failed"] = False
        if followed:
            followed[0]["tricks"] = 5 - sum(f.get("tricks", 0) for f in followed[1:])
        else:
            entry["failed"] = False
    elif sum(f.get("tricks", 0) for f in followed) >= 5:
        for follower in followed:
            follower["tricks"] = 1


@st.composite
def log_hands(draw) -> dict:
    """A hand of a posted deal log (:func:`parse_log`'s form), taken as the library takes it:
    any even value, a follower's tricks however many, a supa now and then."""
    declarer = draw(st.sampled_from(SEATS))
    others = [seat for seat in SEATS if seat != declarer]
    if draw(st.booleans()):
        others.reverse()
    hand: dict = {
        "value": 2 * draw(st.integers(-2, 40)),
        "declarer": {"seat": declarer, "failed": draw(st.booleans())},
        "followers": [],
    }
    if draw(st.integers(0, 3)) == 0:
        hand["declarer"]["tricks"] = draw(st.integers(0, 7))
    for seat in others:
        follower = {
            "seat": seat,
            "followed": draw(st.booleans()),
            "tricks": draw(st.integers(-1, 6)),
            "failed": draw(st.integers(0, 4)) == 0,
        }
        if draw(st.integers(0, 4)) == 0:
            follower["supa"] = draw(st.integers(-10, 80))
        hand["followers"].append(follower)
    if draw(st.integers(0, 3)):
        _coherent_log(hand)
    if draw(st.integers(0, 4)) == 0:
        hand["repealed"] = True
    return hand


def _coherent_log(hand: dict) -> None:
    """Most logged hands as a table plays them (the library's checks pass): a positive value,
    the defence's tricks fewer than 5 for a made contract, exactly 5 for a failed one."""
    first, second = hand["followers"]
    hand["value"] = abs(hand["value"]) or 2
    hand["declarer"].pop("tricks", None)
    for follower in (first, second):
        follower["tricks"] = max(follower["tricks"], 0)
        follower.pop("supa", None)
    if hand["declarer"]["failed"]:
        first["failed"] = second["failed"] = False
        second["tricks"] = min(second["tricks"], 5)
        first["tricks"] = 5 - second["tricks"]
    elif first["tricks"] + second["tricks"] >= 5:
        first["tricks"], second["tricks"] = 1, 2


@st.composite
def hands(draw) -> Hand:
    """A hand as kept: read from the pad's taps or from a deal log's hand."""
    try:
        if draw(st.booleans()):
            return Hand.from_entry(draw(taps()))
        return Hand.from_log(draw(log_hands()))[0]
    except PaperError:
        assume(False)
        raise


# Now and then crossed out.
repealed = st.integers(0, 5).map(lambda n: n == 0)

house_rules = st.builds(
    HouseRules,
    betl_fall_supa=st.sampled_from([None, 20, 60]),
    kontra_on_pik=st.booleans(),
    double_fall=st.booleans(),
    max_kontra=st.sampled_from([0, 2, 4, 4]),
)
