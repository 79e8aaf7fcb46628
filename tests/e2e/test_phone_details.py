"""Small things a new member met at 360 px: a word broken in the middle, a label said twice,
a box that did not look like it opens."""

from __future__ import annotations

from django.contrib.auth.models import Permission
from django.urls import reverse

from ratings.models import Player
from tests.builders import make_event

from .builders import PASSWORD, PHONE, fill_in_the_paper, log_in

# Each word of an element's text: whether it lies on one line (a word broken across two lines
# has two boxes).
WORDS_WHOLE = """(element) => {
  const whole = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      whole.push([match[0], range.getClientRects().length === 1]);
    }
  }
  return whole;
}"""


def test_a_russian_error_under_a_box_breaks_between_words(open_browser, table_club):
    browsing = open_browser(PHONE, locale="ru-RU", is_mobile=True, has_touch=True)
    log_in_russian(browsing)
    page = browsing.page
    browsing.goto(reverse("ratings:game_new", args=[table_club.slug]))
    fill_in_the_paper(page)
    page.locator("#id_left_0").fill("-5")
    page.locator("#id_right_2").fill("-5")
    for box in ("#js-error-left_0", "#js-error-right_2"):  # paper.js's message, as typed
        broken = [w for w, whole in page.locator(box).evaluate(WORDS_WHOLE) if not whole]
        assert broken == [], box
    page.locator("button[name=preview]").click()
    errors = page.locator(".paper .errorlist")
    errors.first.wait_for()
    assert errors.count() == 2
    for n in range(2):  # the server's message
        broken = [w for w, whole in errors.nth(n).evaluate(WORDS_WHOLE) if not whole]
        assert broken == []
    assert not browsing.scrolls_sideways()


def log_in_russian(browsing) -> None:
    page = browsing.page
    browsing.goto(reverse("login"))
    page.locator("#id_username").fill("marko")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main button[type=submit]").click()
    page.wait_for_url(browsing.base_url + "/")


def test_a_seat_s_player_box_reads_player_under_the_seat_s_title(open_browser, table_club):
    browsing = open_browser(PHONE)
    log_in(browsing)
    page = browsing.page
    browsing.goto(reverse("ratings:game_new", args=[table_club.slug]))
    label = page.locator("label[for=id_player_0]")
    shown = label.evaluate(
        """(el) => Array.from(el.children).filter((part) => part.offsetWidth > 1)
             .map((part) => part.textContent).join("")"""
    )
    assert shown == "Player:"
    assert page.locator(".seat-title").first.inner_text() == "Seat 1"
    # A screen reader still hears which seat.
    assert page.get_by_label("Seat 1 player").get_attribute("id") == "id_player_0"


def test_the_late_arrivals_box_shows_it_opens(open_browser, table_club, django_user_model):
    marko = django_user_model.objects.get(username="marko")
    marko.user_permissions.add(Permission.objects.get(codename="run_events"))
    event = make_event(table_club, list(Player.objects.all()), organiser=marko)
    browsing = open_browser(PHONE, is_mobile=True, has_touch=True)
    log_in(browsing)
    page = browsing.page
    browsing.goto(event.get_absolute_url())
    summary = page.locator("summary", has_text="Players who arrived late")
    assert summary.evaluate("(el) => getComputedStyle(el).display") == "list-item", "no marker"
    assert summary.bounding_box()["height"] >= 44
    summary.tap()
    assert page.locator("#late-arrivals").get_attribute("open") is not None
