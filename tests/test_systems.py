"""What the rating systems compute themselves, outside the algorithms: a FIDE player's age."""

from datetime import date

import pytest

from ratings.systems import age_on


@pytest.mark.parametrize(
    ("born", "day", "age"),
    [
        (date(2010, 5, 17), date(2026, 5, 16), 15),
        (date(2010, 5, 17), date(2026, 5, 17), 16),
        (date(2010, 5, 17), date(2026, 12, 31), 16),
        (date(2010, 12, 31), date(2026, 1, 1), 15),
        # Born on a leap day: a year older on 1 March, not on 28 February.
        (date(2008, 2, 29), date(2026, 2, 28), 17),
        (date(2008, 2, 29), date(2026, 3, 1), 18),
        (date(2008, 2, 29), date(2028, 2, 29), 20),
        (date(2026, 3, 1), date(2026, 3, 1), 0),
    ],
)
def test_age_on_counts_whole_years(born, day, age):
    assert age_on(born, day) == age


def test_age_on_an_unknown_birth_date_is_none():
    assert age_on(None, date(2026, 1, 1)) is None


def test_a_game_before_the_birth_date_counts_as_age_zero():
    assert age_on(date(2026, 6, 1), date(2026, 5, 31)) == 0
    assert age_on(date(2030, 1, 1), date(2026, 1, 1)) == 0
