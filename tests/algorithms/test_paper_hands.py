"""A deal as a paper keeps it (ratings/algorithms/paper/hands.py): one shape, read back as it
was written, and drawing the very paper the deals drew before they were kept in it."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.algorithms.paper import (
    LIBRARY,
    Contract,
    Hand,
    HandFollower,
    PaperError,
    hand_from_stored,
    paper_result,
)
from tests.algorithms.paper_before import hand_before
from tests.algorithms.paper_strategies import hands, house_rules, log_hands, repealed, taps


def stored(hand: Hand) -> object:
    """The hand as the database gives it back: its JSON."""
    return json.loads(json.dumps(hand.to_json()))


@given(hands())
def test_a_kept_hand_reads_back_as_itself(hand):
    assert Hand.from_json(stored(hand)) == hand
    assert hand_from_stored(stored(hand)) == hand


def drawn_before(deals, rules, bula=30) -> dict:
    """The paper the deals (each with its crossing out) drew as they were kept before."""
    try:
        hands = [hand_before(entry, repealed=repealed, rules=rules) for entry, repealed in deals]
    except PaperError:
        return {"error": "refused"}
    return refused_or_paper({"bula": bula, "refas": None, "hands": hands, "rules": rules.json()})


def drawn_now(deals, rules, bula=30) -> dict:
    """The paper the same deals draw read into the one shape, stored and read back."""
    try:
        kept = [(hand_from_stored(entry), repealed) for entry, repealed in deals]
        hands = [
            Hand.from_json(stored(hand)).log_json(repealed=repealed, rules=rules)
            for hand, repealed in kept
        ]
    except PaperError:
        return {"error": "refused"}
    return refused_or_paper({"bula": bula, "refas": None, "hands": hands, "rules": rules.json()})


def refused_or_paper(log) -> dict:
    result = paper_result(log)
    return {"error": "refused"} if "error" in result else result


def as_kept(log_hand: dict) -> tuple[dict, bool]:
    """A posted log's hand as a deal kept it before: its crossing out the deal's own flag."""
    return {k: v for k, v in log_hand.items() if k != "repealed"}, log_hand.get("repealed", False)


# Deals as kept before: mostly the pad's, now and then a posted log's.
OLD_DEALS = st.lists(
    st.one_of(st.tuples(taps(), repealed), st.tuples(taps(), repealed), log_hands().map(as_kept)),
    max_size=10,
)


@settings(max_examples=300)
@given(OLD_DEALS, house_rules)
def test_the_deals_draw_the_paper_they_drew_before_the_one_shape(deals, rules):
    assert drawn_now(deals, rules) == drawn_before(deals, rules)


@given(taps(), house_rules, st.booleans())
def test_the_pads_taps_give_the_deal_log_hand_they_gave_before(entry, rules, repealed):
    try:
        before = hand_before(entry, repealed=repealed, rules=rules)
    except PaperError:
        before = None
    try:
        now = Hand.from_entry(entry).log_json(repealed=repealed, rules=rules)
    except PaperError:
        now = None
    if now is None:
        # Refused sooner now (seats that are not 1, 2 and 3): the log refused it before.
        assert before is None or "error" in paper_result(
            {"bula": 10, "refas": None, "hands": [before], "rules": rules.json()}
        )
    else:
        assert now == before


@given(log_hands())
def test_a_deal_logs_hand_is_kept_as_the_log_says_it(hand):
    try:
        kept, repealed = Hand.from_log(hand)
    except PaperError:
        with pytest.raises(PaperError):
            hand_before(hand)
        return
    assert repealed == hand.get("repealed", False)
    assert kept.log_json(repealed=repealed) == hand_before(hand, repealed=repealed)


HERC = {
    "contract": {"name": "herc", "igra": False, "on_refa": False, "kontra": 0},
    "value": 8,
    "declarer": {"seat": 1, "failed": False},
    "followers": [
        {"seat": 2, "play": "followed", "tricks": 2, "failed": False},
        {"seat": 3, "play": "passed", "tricks": 0, "failed": False},
    ],
}


def test_a_hand_with_its_contract_is_stored_with_its_value():
    hand = Hand.from_entry(
        {
            "declarer": 1,
            "contract": "herc",
            "followers": [{"seat": 2, "play": "followed", "tricks": 2}, {"seat": 3}],
        }
    )
    assert hand.to_json() == HERC
    assert hand == Hand(
        declarer=1,
        value=8,
        contract=Contract("herc"),
        followers=(HandFollower(2, "followed", 2), HandFollower(3)),
    )
    assert Hand(refa=True).to_json() == {"refa": True}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        # The shapes kept before the one shape: read by hand_from_stored, not here.
        ({"declarer": 1, "contract": "herc", "followers": []}, "the deal has no value"),
        ({k: v for k, v in HERC.items() if k != "contract"}, "the deal has no contract"),
        ({**HERC, "repealed": False}, "the deal has no field repealed"),
        ({"refa": True, "repealed": False}, "a refa is stored as"),
        ({**HERC, "value": 16}, "the value of herc is 8, not 16"),
        ({**HERC, "value": 8.0}, "the value must be an even number"),
        ({**HERC, "declarer": {"seat": 1}}, "the declarer has no failed"),
        ({**HERC, "declarer": {"seat": True, "failed": False}}, "the declarer's seat"),
        (
            {**HERC, "followers": [HERC["followers"][0], {**HERC["followers"][1], "tricks": 1}]},
            "follower 2 did not follow: no tricks, no fall",
        ),
        (
            {**HERC, "followers": [HERC["followers"][0], {**HERC["followers"][1], "supa": 60}]},
            "writes the supa its rules give",
        ),
        (
            {**HERC, "followers": [HERC["followers"][0], {**HERC["followers"][1], "seat": 2}]},
            "seats 1, 2 and 3",
        ),
        ({**HERC, "followers": HERC["followers"][:1]}, "exactly two followers"),
    ],
)
def test_anything_but_the_one_shape_is_refused(data, message):
    with pytest.raises(PaperError, match=message):
        Hand.from_json(data)


def test_the_shapes_kept_before_are_read_into_the_one_shape():
    taps = {
        "declarer": 1,
        "contract": "herc",
        "igra": False,
        "on_refa": False,
        "kontra": 0,
        "failed": False,
        "followers": [
            {"seat": 2, "play": "followed", "tricks": 2, "failed": False},
            {"seat": 3, "play": "passed", "tricks": 0, "failed": False},
        ],
    }
    assert hand_from_stored(taps).to_json() == HERC
    logged = {
        "value": 8,
        "declarer": {"seat": 1, "failed": False},
        "followers": [
            {"seat": 2, "followed": True, "tricks": 2, "failed": False},
            {"seat": 3, "followed": False, "tricks": 0, "failed": False},
        ],
    }
    assert hand_from_stored(logged).to_json() == {**HERC, "contract": None}
    assert hand_from_stored(logged).log_json() == {**logged, "repealed": False}
    with pytest.raises(PaperError):
        hand_from_stored([1, 2])


def test_the_house_rules_judge_a_hand_with_its_contract_when_it_is_drawn():
    pik = Hand.from_entry(
        {"declarer": 1, "contract": "pik", "kontra": 1, "followers": [{"seat": 2}, {"seat": 3}]}
    )
    assert pik.log_json(rules=LIBRARY)["value"] == 8
    with pytest.raises(PaperError, match="no kontra on pik"):
        pik.log_json(rules=LIBRARY.__class__(kontra_on_pik=False))
