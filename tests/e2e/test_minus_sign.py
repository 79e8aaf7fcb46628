"""A negative bula typed on a phone. The digit pad that ``inputmode="numeric"`` brings up has no
minus key on common phone keyboards (iOS's above all), so the Middle box asks for that pad only
together with a ± button beside it (static/forms.js), and without JavaScript asks for no pad
(the full keyboard has "-").

Chromium cannot show a phone's own keyboard; these tests emulate an iPhone's and an Android
phone's screen and touch, and check what the keyboards key off (``inputmode``, the box's type)
and that the minus gets in every way a keyboard sends it: the ± button, "-", and "−".
"""

from __future__ import annotations

import pytest

from .builders import DESKTOP, fill_in_the_paper, open_paper

# Playwright's descriptors of the two phones, less the browser each would run in (Chromium here).
IPHONE = {
    "viewport": {"width": 390, "height": 664},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
    "user_agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 15_0 like Mac OS X) AppleWebKit/605.1.15"
    " (KHTML, like Gecko) Version/15.0 Mobile/15E148 Safari/604.1",
}
ANDROID = {
    "viewport": {"width": 393, "height": 727},
    "device_scale_factor": 2.75,
    "is_mobile": True,
    "has_touch": True,
    "user_agent": "Mozilla/5.0 (Linux; Android 11; Pixel 5) AppleWebKit/537.36 (KHTML, like Gecko)"
    " Chrome/120.0.0.0 Mobile Safari/537.36",
}


def final_score(page, seat: int) -> str:
    return page.locator(f'output[data-final="{seat}"]').inner_text()


@pytest.mark.parametrize("device", [IPHONE, ANDROID], ids=["iphone", "android"])
def test_a_touch_screen_gets_the_digit_pad_and_a_sign_button(open_browser, table_club, device):
    browsing = open_paper(open_browser, table_club, **device)
    page = browsing.page
    fill_in_the_paper(page)
    middle = page.locator("#id_middle_0")
    assert middle.get_attribute("type") == "text"
    assert middle.get_attribute("inputmode") == "numeric"
    # The side columns are never negative: their digit pad needs no minus.
    assert page.locator("#id_left_0").get_attribute("inputmode") == "numeric"

    # The worked example's −20, typed as a phone's digit pad allows: 20, then ±.
    middle.fill("20")
    assert final_score(page, 0) == "−100"
    middle.focus()
    sign = page.get_by_role("button", name="Plus or minus").first
    sign.tap()
    assert middle.input_value() == "-20"
    assert final_score(page, 0) == "−500"
    assert page.evaluate("document.activeElement.id") == "id_middle_0", "the keyboard would close"
    sign.tap()
    assert middle.input_value() == "20"
    sign.tap()

    # Each Middle box has its button, beside the box, and the page still fits the screen.
    assert page.get_by_role("button", name="Plus or minus").count() == 3
    box, button = middle.bounding_box(), sign.bounding_box()
    assert abs(box["y"] - button["y"]) < 2
    assert button["x"] > box["x"] + box["width"]
    assert button["height"] >= 44
    assert not browsing.scrolls_sideways()

    page.get_by_role("button", name="Check scores").click()
    preview = page.locator("section.preview")
    preview.wait_for()
    assert preview.locator("td").nth(1).inner_text() == "−500"
    assert browsing.errors == []


def test_a_keyboard_types_the_minus_and_sees_no_button(open_browser, table_club):
    browsing = open_paper(open_browser, table_club, viewport=DESKTOP)
    page = browsing.page
    fill_in_the_paper(page)
    middle = page.locator("#id_middle_0")
    assert page.get_by_role("button", name="Plus or minus").count() == 0
    assert middle.get_attribute("inputmode") is None

    for typed in ("-20", "\u221220", "\u201320"):  # hyphen-minus, minus sign, en dash
        middle.fill("")
        middle.press_sequentially(typed)
        assert middle.input_value() == typed
        assert final_score(page, 0) == "−500", typed
        assert not middle.evaluate("(el) => el.validity.patternMismatch"), typed
    middle.fill("twenty")
    assert middle.evaluate("(el) => el.validity.patternMismatch")
    assert middle.get_attribute("aria-invalid") == "true"

    # The server reads the real minus sign too.
    middle.fill("\u221220")
    page.get_by_role("button", name="Check scores").click()
    page.locator("section.preview").wait_for()
    assert page.locator("section.preview td").nth(1).inner_text() == "−500"
    assert browsing.errors == []


def test_without_javascript_the_phone_shows_its_full_keyboard(open_browser, table_club):
    browsing = open_paper(open_browser, table_club, java_script_enabled=False, **IPHONE)
    page = browsing.page
    middle = page.locator("#id_middle_0")

    assert middle.get_attribute("type") == "text"
    assert middle.get_attribute("inputmode") is None  # the full keyboard, which has "-"
    assert page.get_by_role("button", name="Plus or minus").count() == 0
    fill_in_the_paper(page)
    page.get_by_role("button", name="Check scores").click()
    page.locator("section.preview").wait_for()
    assert page.locator("section.preview td").nth(1).inner_text() == "−500"
