"""The house rules of the paper (ratings/algorithms/paper/rules.py): a worked example per rule,
each against the library's own way (the default, which the vectors hold)."""

import pytest

from ratings.algorithms.paper import LIBRARY, HouseRules, PaperError, draw_paper, hand_from_entry
from ratings.algorithms.paper import parse_log as _parse_log


def said(declarer, contract, *, failed=False, kontra=0, followers=()):
    """A deal as the table says it; followers are (seat, tricks), the others passing."""
    given = dict(followers)
    return {
        "declarer": declarer,
        "contract": contract,
        "kontra": kontra,
        "failed": failed,
        "followers": [
            {"seat": seat, "play": "followed", "tricks": given[seat]}
            if seat in given
            else {"seat": seat, "play": "passed"}
            for seat in (1, 2, 3)
            if seat != declarer
        ],
    }


def columns(deals, rules=LIBRARY, bula=10):
    hands = [hand_from_entry(deal, rules=rules) for deal in deals]
    log = {"bula": bula, "refas": None, "hands": hands, "rules": rules.json()}
    return draw_paper(_parse_log(log)).columns


def test_the_library_is_the_default_and_stores_as_nothing():
    assert HouseRules() == LIBRARY and LIBRARY.is_library
    assert LIBRARY.json() == {} and HouseRules.from_json({}) == LIBRARY
    assert HouseRules.from_json(None) == LIBRARY
    rules = HouseRules(kontra_on_pik=False, betl_fall_supa=60)
    assert HouseRules.from_json(rules.json()) == rules
    assert rules.json() == {"betl_fall_supa": 60, "kontra_on_pik": False}


@pytest.mark.parametrize(
    "stored",
    [{"betl_fall_supa": 0}, {"kontra_on_pik": "no"}, {"max_kontra": 5}, {"pik": 1}, []],
)
def test_stored_rules_that_are_no_rules_are_refused(stored):
    with pytest.raises(ValueError):
        HouseRules.from_json(stored)
    with pytest.raises(PaperError):
        _parse_log({"bula": 10, "refas": None, "hands": [], "rules": stored})


def test_a_failed_betl_writes_tricks_times_value_or_the_clubs_fixed_supa():
    # Bula 30: Ana (seat 1) falls on betl (12); Boris took 3 tricks, Ceca 2.
    betl = said(1, "betl", failed=True, followers=[(2, 3), (3, 2)])
    # The library: 3 x 12 and 2 x 12, Boris's in his left column (Ana sits before him), Ceca's
    # in her right (Ana sits after her).
    assert columns([betl], bula=30) == [(0, 42, 0), (36, 30, 0), (0, 30, 24)]
    # A club writing 60 a follower on a failed betl: 60 each, whatever the tricks.
    fixed = HouseRules(betl_fall_supa=60)
    assert columns([betl], fixed, bula=30) == [(0, 42, 0), (60, 30, 0), (0, 30, 60)]
    # A made betl, or a failed contract that is not betl, is written as always.
    made = said(1, "betl", followers=[(2, 0), (3, 0)])
    assert columns([made], fixed, bula=30) == columns([made], bula=30)
    herc = said(1, "herc", failed=True, followers=[(2, 3), (3, 2)])
    assert columns([herc], fixed, bula=30) == [(0, 38, 0), (24, 30, 0), (0, 30, 16)]


def test_kontra_on_pik_is_the_clubs_choice():
    pik = said(1, "pik", kontra=1, followers=[(2, 1)])
    assert columns([pik]) == [(0, 2, 0), (8, 10, 0), (0, 10, 0)]  # 4 x 2: Ana 10 -> 2
    no_kontra = HouseRules(kontra_on_pik=False)
    with pytest.raises(PaperError, match="no kontra on pik"):
        hand_from_entry(pik, rules=no_kontra)
    karo = said(1, "karo", kontra=1, followers=[(2, 1)])
    assert columns([karo], no_kontra) == columns([karo])  # other contracts keep it


def test_the_highest_kontra_level_is_the_clubs():
    subkontra = said(1, "karo", kontra=3, followers=[(2, 1)])
    hand_from_entry(subkontra)  # the library's: up to mortkontra
    with pytest.raises(PaperError, match="above level 2"):
        hand_from_entry(subkontra, rules=HouseRules(max_kontra=2))


def test_the_double_fall_near_the_end_doubles_a_fall_worth_more_than_the_bulas_left():
    # iklub.rs's example: 6 bulas left, herc (8) falls, a follower took 5 tricks: the declarer
    # falls 16, the follower writes 40.
    to_six = [said(1, "sans"), said(2, "tref")]  # bula 10 each: 30 -> 16 -> 6
    fall = said(3, "herc", failed=True, followers=[(1, 5)])
    double = HouseRules(double_fall=True)
    assert columns([*to_six, fall]) == [(40, -4, 0), (0, 0, 0), (0, 18, 0)]
    assert columns([*to_six, fall], double) == [(40, -4, 0), (0, 0, 0), (0, 26, 0)]
    # Earlier in the game (30 bulas left) the same fall is the value, double fall or not.
    assert columns([fall], double) == columns([fall]) == [(40, 10, 0), (0, 10, 0), (0, 18, 0)]


def test_a_log_carries_its_rules_so_it_replays_the_same_paper():
    fall = said(3, "herc", failed=True, followers=[(1, 5)])
    rules = HouseRules(double_fall=True, betl_fall_supa=60)
    hands = [hand_from_entry(d, rules=rules) for d in (said(1, "sans"), said(2, "tref"), fall)]
    with_rules = _parse_log({"bula": 10, "refas": None, "hands": hands, "rules": rules.json()})
    without = _parse_log({"bula": 10, "refas": None, "hands": hands})
    assert with_rules.rules == rules and without.rules == LIBRARY
    assert draw_paper(with_rules).columns != draw_paper(without).columns
