"""The Preferans paper at a phone's 360 px with touch: what the next digits typed go into, and
what the boxes show. A number in the wrong box, or one read wrong, is a wrong rating."""

from __future__ import annotations

from .builders import TOUCH_PHONE, open_paper


def test_the_sign_button_sends_the_next_digits_into_its_own_box(open_browser, table_club):
    """Type 320 in Left, tap the Middle's ±, type 20: the Middle reads -20, Left keeps 320."""
    browsing = open_paper(open_browser, table_club, **TOUCH_PHONE)
    page = browsing.page
    left, middle = page.locator("#id_left_0"), page.locator("#id_middle_0")
    left.tap()
    page.keyboard.type("320")
    middle_sign = page.locator("#id_middle_0 ~ .sign-toggle")
    middle_sign.tap()
    assert page.evaluate("document.activeElement.id") == "id_middle_0", "the caret stays behind"
    page.keyboard.type("20")
    assert left.input_value() == "320"
    assert middle.input_value() == "-20"
    # Tapped again with digits in the box: the sign flips, the caret stays at the end.
    middle_sign.tap()
    page.keyboard.type("5")
    assert middle.input_value() == "205"
    assert left.input_value() == "320"
    assert browsing.errors == []


def test_every_box_of_a_seat_shows_its_whole_number(open_browser, table_club):
    """At 360 px the Middle box beside its ± button reads "-1234" whole (it read "234"), and
    the side boxes their four digits, in every seat."""
    browsing = open_paper(open_browser, table_club, **TOUCH_PHONE)
    page = browsing.page
    for seat in range(3):
        for column, value in (("left", "1234"), ("middle", "-1234"), ("right", "1234")):
            box = page.locator(f"#id_{column}_{seat}")
            box.fill(value)
            hidden = box.evaluate("(el) => el.scrollWidth - el.clientWidth")
            assert hidden <= 0, f"{column} {seat}: {value} is cut by {hidden} px"
    assert not browsing.scrolls_sideways()
    assert browsing.errors == []


def test_the_live_middle_sum_writes_a_minus_sign(open_browser, table_club):
    """As the server writes it (ratings/formatting.py): "−1", not the hyphen of "-1"."""
    browsing = open_paper(open_browser, table_club, **TOUCH_PHONE)
    page = browsing.page
    for seat, middle in enumerate(("-20", "4", "15")):
        page.locator(f"#id_middle_{seat}").fill(middle)
    status = page.locator("[data-middle-sum]").inner_text()
    assert status.startswith("Middle column sums to \u22121:"), status
