"""A paper entered with the network off is kept on the phone and recorded once it comes back.

In Chromium at phone width, with Playwright's offline switch: the member opens the entry page
(the service worker keeps it), the network goes, they type the paper and press "Check scores";
the page keeps it and says so on every page, also after a reload without network; the network
comes back and the paper is sent: exactly one game. The same when the login expired meanwhile:
the paper waits until the member logs in again.
"""

from __future__ import annotations

import re

from django.urls import reverse

from ratings.models import Game, System
from tests.builders import make_league, worked_example_players

from .builders import PASSWORD, PHONE, fill_in_the_paper, log_in

WAITING = "1 paper waiting to be sent"


def club(django_user_model):
    league = make_league(System.PREFKO, name="Preferans", start_rating=1000, provisional_games=0)
    worked_example_players(league)
    django_user_model.objects.create_user("marko", password=PASSWORD)
    return league


def saving(response) -> bool:
    """The POST that records a checked paper (the form's "save" button)."""
    request = response.request
    return request.method == "POST" and "save=1" in (request.post_data or "")


def keep_a_paper_offline(browsing, league) -> None:
    page = browsing.page
    log_in(browsing)
    entry = reverse("ratings:game_new", args=[league.slug])
    browsing.goto(entry)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    browsing.goto(entry)  # now through the worker, which keeps a copy
    page.context.set_offline(True)
    fill_in_the_paper(page)
    page.get_by_role("button", name="Check scores").click()
    banner = page.locator("#offline-queue")
    banner.get_by_text(WAITING).wait_for()
    # The form is free for the next paper.
    assert page.locator("#id_player_0").input_value() == ""
    page.reload()
    banner.get_by_text(WAITING).wait_for()
    assert Game.objects.count() == 0


def test_a_paper_entered_offline_is_recorded_once_back_online(open_browser, django_user_model):
    league = club(django_user_model)
    browsing = open_browser(PHONE)
    keep_a_paper_offline(browsing, league)
    page = browsing.page

    page.context.set_offline(False)
    page.locator("#offline-queue").wait_for(state="hidden")
    [game] = Game.objects.all()
    assert [r.player.name for r in game.results.order_by("seat")] == ["Pedja", "Marko", "Johnny"]
    # Another page load sends nothing more.
    browsing.goto("/")
    page.locator("#offline-queue").wait_for(state="hidden")
    assert Game.objects.count() == 1
    assert browsing.errors == [] or all("ERR_INTERNET_DISCONNECTED" in e for e in browsing.errors)


def test_a_paper_waits_for_the_member_to_log_in_again(open_browser, django_user_model):
    league = club(django_user_model)
    browsing = open_browser(PHONE)
    keep_a_paper_offline(browsing, league)
    page = browsing.page

    page.context.clear_cookies()  # the session expired while the phone was offline
    page.context.set_offline(False)
    banner = page.locator("#offline-queue")
    banner.get_by_text("log in to send them").wait_for()
    assert Game.objects.count() == 0
    banner.get_by_role("link", name="Log in").click()
    page.get_by_label("Username").fill("marko")
    page.get_by_label("Password").fill(PASSWORD)
    # The banner starts hidden on every page: it is the paper's save, sent in the background
    # after the login, that says it went. The test waits for it in the browser: asking the
    # database meanwhile would meet the live server's write (SQLite locks the table).
    with page.expect_response(saving, timeout=30_000) as saved:
        page.locator("main").get_by_role("button", name="Log in").click()
        page.wait_for_url(re.compile(r"/leagues/preferans/games/new/$"))
    assert saved.value.status == 302
    banner.wait_for(state="hidden")
    assert Game.objects.count() == 1


def test_a_paper_the_network_drops_while_the_phone_thinks_it_is_online_is_kept(
    open_browser, django_user_model
):
    """A basement's wifi: the phone says it is online, the POST never reaches the server. The
    service worker keeps the paper and sends the member back to the form."""
    league = club(django_user_model)
    browsing = open_browser(PHONE)
    page = browsing.page
    page.add_init_script("Object.defineProperty(Navigator.prototype, 'onLine', {get: () => true})")
    log_in(browsing)
    entry = reverse("ratings:game_new", args=[league.slug])
    browsing.goto(entry)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    browsing.goto(entry)
    kept_key = page.locator("input[name=submission_key]").input_value()
    page.context.set_offline(True)
    fill_in_the_paper(page)
    page.get_by_role("button", name="Check scores").click()
    page.locator("#offline-queue").get_by_text(WAITING).wait_for()
    # The form opened from the worker's copy takes a key of its own for the next paper.
    assert page.locator("input[name=submission_key]").input_value() != kept_key
    assert Game.objects.count() == 0

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.locator("#offline-queue").wait_for(state="hidden")
    assert str(Game.objects.get().submission_key) == kept_key


def test_a_refused_paper_opens_its_form_with_the_errors(open_browser, django_user_model):
    league = club(django_user_model)
    browsing = open_browser(PHONE)
    page = browsing.page
    log_in(browsing)
    entry = reverse("ratings:game_new", args=[league.slug])
    browsing.goto(entry)
    page.context.set_offline(True)
    fill_in_the_paper(page)
    page.locator("#id_left_2").fill("-20")  # side columns are never negative
    page.get_by_role("button", name="Check scores").click()
    banner = page.locator("#offline-queue")
    banner.get_by_text(WAITING).wait_for()
    page.context.set_offline(False)
    banner.get_by_role("link", name="Open it to correct it").click()
    page.locator(".error-summary").get_by_text("Side columns are never negative.").wait_for()
    assert page.locator("#id_left_2").input_value() == "-20"
    assert Game.objects.count() == 0


def test_back_after_saving_opens_the_game_saved_already(open_browser, django_user_model):
    """Back from a saved game to its preview: the browser asks its cache only for a page a POST
    drew, which fails in the service worker; no paper is kept, nothing is posted again, and the
    club opens the game under the page's key."""
    league = club(django_user_model)
    browsing = open_browser(PHONE)
    page = browsing.page
    log_in(browsing)
    entry = reverse("ratings:game_new", args=[league.slug])
    browsing.goto(entry)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    browsing.goto(entry)
    fill_in_the_paper(page)
    page.get_by_role("button", name="Check scores").click()
    page.get_by_role("button", name="Save game").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    posts = []
    page.on("request", lambda request: posts.append(request) if request.method == "POST" else None)
    page.go_back()
    page.locator(".messages").get_by_text("This game was saved already").wait_for()
    assert re.search(r"/games/\d+/$", page.url)
    assert page.locator("#offline-queue").is_hidden()
    assert page.evaluate("window.clubPapers.all().then((kept) => kept.length)") == 0
    assert [request.post_data for request in posts if "save=1" in (request.post_data or "")] == []
    assert Game.objects.count() == 1
