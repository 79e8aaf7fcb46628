"""Names told apart as a person would: the typo at the table is caught, a new name is not."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.names import close_matches, name_keys, search_key

CLUB = [(1, "Pedja"), (2, "Marko"), (3, "Johnny"), (4, "Đorđe"), (5, "Zhanna"), (6, "Jonatan")]


def suggested(typed: str) -> list[str]:
    return [match.name for match in close_matches(typed, CLUB)]


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("Pedia", ["Pedja"]),  # one letter off
        ("Johny", ["Johnny"]),  # one letter missing
        ("Pedja.", ["Pedja"]),  # punctuation ignored
        ("PEDJA", ["Pedja"]),  # case ignored
        ("Pe dja", ["Pedja"]),  # spaces ignored
        ("Peđa", ["Pedja"]),  # đ read as dj
        ("Djordje", ["Đorđe"]),
        ("Dorde", ["Đorđe"]),  # đ read as d
        ("Жанна", ["Zhanna"]),  # Cyrillic transliterated
        ("Jonathan", ["Jonatan"]),
        ("Zorana", []),  # a genuinely new name
        ("Ana", []),  # too short to guess at
    ],
)
def test_close_names_are_suggested(typed, expected):
    assert suggested(typed) == expected


def test_closest_first_and_at_most_three():
    club = [(n, name) for n, name in enumerate(["Pedjaa", "Pedja", "Pedjaaa", "Pedj", "Pedjq"])]
    names = [match.name for match in close_matches("Pedja.", club)]
    assert names[0] == "Pedja"
    assert len(names) == 3


def test_search_key_finds_by_any_spelling():
    assert "ped" in search_key("Peđa") and "pedj" in search_key("Peđa")
    assert "zhan" in search_key("Жанна")


@given(st.text(min_size=1, max_size=30))
def test_every_name_is_close_to_itself(name):
    assert name_keys(name)
    assert close_matches(name, [(1, name)])[0].edits == 0
