"""The digital paper's deals tapped with the network off are kept on the phone and recorded
once each, in order, when it comes back (Chromium at phone width, Playwright's offline switch)."""

from __future__ import annotations

import uuid

from ratings.algorithms.paper import Hand
from ratings.models import Player, System
from ratings.papers import services
from ratings.papers.models import Deal
from tests.builders import make_league

from .builders import ANOTHER_PHONE, PASSWORD, PHONE, log_in


def paper_in_progress(django_user_model):
    league = make_league(System.PREFKO, name="Preferans", provisional_games=0)
    players = [Player.objects.create_named(name) for name in ("Ana", "Boris", "Ceca")]
    django_user_model.objects.create_user("marko", password=PASSWORD)
    return services.paper_start(league=league, players=players, bula=10)


def offline_at(open_browser, paper, language=None):
    """A member's phone on the paper's page, kept by the service worker, then offline: (page,
    the offline banner)."""
    browsing = open_browser(PHONE)
    page = browsing.page
    log_in(browsing)
    if language:
        page.context.add_cookies(
            [{"name": "django_language", "value": language, "url": browsing.base_url}]
        )
    url = f"/papers/{paper.pk}/"
    browsing.goto(url)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    browsing.goto(url)  # now through the worker, which keeps a copy
    # The worker stores it after answering: offline before then, a reload would find nothing.
    page.wait_for_function(
        "() => caches.match(location.href, {ignoreVary: true}).then(Boolean)", polling=100
    )
    page.context.set_offline(True)
    return browsing, page.locator("#offline-queue")


def tap_refa(page):
    page.locator("form[data-deal-form] button[value=refa]").click()


def tap_pik(page):
    """Ana declares pik, Boris follows and takes 2 tricks, Ceca passes."""
    form = page.locator("form[data-deal-form]")
    form.locator("[data-seat-button='1']").click()
    form.locator(".contracts .tap:has(input[value=pik])").click()
    form.locator("fieldset.follower[data-seat='2'] .tricks .tap:has(input[value='2'])").click()
    form.locator("button[value=played]").click()


def test_deals_tapped_offline_are_recorded_once_in_order_back_online(
    open_browser, django_user_model
):
    paper = paper_in_progress(django_user_model)
    browsing, banner = offline_at(open_browser, paper)
    page, url = browsing.page, f"/papers/{paper.pk}/"
    tap_refa(page)
    banner.get_by_text("1 deal waiting to be sent").wait_for()
    tap_refa(page)
    tap_pik(page)
    banner.get_by_text("3 deals waiting to be sent").wait_for()
    kept = page.locator("[data-kept-deals] li")
    assert kept.count() == 3
    assert "not sent yet" in kept.nth(2).inner_text()
    # The message stays beside the pad.
    page.locator("[data-pad-status]").get_by_text("not sent yet: 3").wait_for()
    page.reload()
    banner.get_by_text("3 deals waiting to be sent").wait_for()
    # Counted after the reload: the next deal is the fourth, after three; Ana's refe are kept
    # (two refe, one played on her pik).
    page.get_by_role("heading", name="Deal 4", exact=True).wait_for()
    assert kept.count() == 3
    assert page.locator("form[data-deal-form] input[name=after]").input_value() == "3"
    page.locator("form[data-deal-form] [data-seat-button='1']").click()
    assert page.locator("form[data-deal-form] input[name=on_refa]").is_checked()
    assert not Deal.objects.exists()

    page.context.set_offline(False)
    banner.wait_for(state="hidden")
    # The paper shows them sent.
    page.locator("[data-pad-status]").get_by_text("are sent").wait_for()
    assert page.locator("[data-live-paper]").get_attribute("data-deals") == "3"
    assert kept.count() == 0
    deals = list(Deal.objects.filter(paper=paper).order_by("number"))
    assert [deal.number for deal in deals] == [1, 2, 3]
    assert [deal.entered.get("refa", False) for deal in deals] == [True, True, False]
    assert deals[2].entered["contract"]["name"] == "pik"
    # Another page load sends nothing more.
    browsing.goto(url)
    banner.wait_for(state="hidden")
    assert Deal.objects.count() == 3
    assert browsing.errors == [] or all("ERR_INTERNET_DISCONNECTED" in e for e in browsing.errors)


def test_the_banner_counts_kept_deals_in_the_pages_language(open_browser, django_user_model):
    """Russian has three plural forms for whole numbers: the phone picks the right one."""
    paper = paper_in_progress(django_user_model)
    browsing, banner = offline_at(open_browser, paper, language="ru")
    page = browsing.page
    form = page.locator("form[data-deal-form]")
    for words in ("1 раздача ждёт отправки", "2 раздачи ждут отправки"):
        form.locator("button[value=refa]").click()
        banner.get_by_text(words).wait_for()
    assert not Deal.objects.exists()
    page.context.set_offline(False)
    banner.wait_for(state="hidden")
    assert Deal.objects.filter(paper=paper).count() == 2


def test_a_kept_deal_whose_key_another_deal_has_is_shown_refused_not_resent(
    open_browser, django_user_model
):
    """The club answers 409 for a key another deal has: the phone shows the deal refused (its
    form opens from the banner) instead of sending it again at every chance."""
    paper = paper_in_progress(django_user_model)
    browsing, banner = offline_at(open_browser, paper)
    page = browsing.page
    key = page.locator("form[data-deal-form] input[name=submission_key]").input_value()
    tap_refa(page)
    banner.get_by_text("1 deal waiting to be sent").wait_for()
    # Meanwhile the same key reached the club with a deal of another paper.
    with ANOTHER_PHONE:
        other = services.paper_start(league=paper.league, players=paper.players, bula=10)
        services.deal_add(paper=other, hand=Hand(refa=True), after=0, key=uuid.UUID(key))

    page.context.set_offline(False)
    banner.get_by_text("The club refused a deal kept on this phone.").wait_for()
    assert not paper.deals.exists()
    banner.get_by_role("link").click()
    page.get_by_text(f"for deal 1 of paper #{other.pk}").first.wait_for()
    assert not paper.deals.exists()


def test_a_deal_kept_offline_is_not_entered_twice(open_browser, django_user_model):
    """After a save offline the pad is empty but the deal is on the paper, "not sent yet", and
    the message stays beside the pad: nobody types it again, and it is recorded once."""
    paper = paper_in_progress(django_user_model)
    browsing, banner = offline_at(open_browser, paper)
    page = browsing.page
    tap_pik(page)
    page.locator("[data-kept-deals] li").get_by_text("not sent yet").wait_for()
    assert page.locator("[data-pad-status]").is_visible()
    page.get_by_role("heading", name="Deal 2", exact=True).wait_for()
    page.context.set_offline(False)
    banner.wait_for(state="hidden")
    page.locator("[data-pad-status]").get_by_text("are sent").wait_for()
    assert Deal.objects.filter(paper=paper).count() == 1


def test_a_reopened_tab_counts_the_kept_deals(open_browser, django_user_model):
    """A new tab on the paper, offline: the kept deals are drawn and counted."""
    paper = paper_in_progress(django_user_model)
    browsing, banner = offline_at(open_browser, paper)
    page = browsing.page
    tap_refa(page)
    banner.get_by_text("1 deal waiting to be sent").wait_for()
    page.close()
    again = browsing.page.context.new_page()
    again.goto(browsing.base_url + f"/papers/{paper.pk}/")
    again.get_by_role("heading", name="Deal 2", exact=True).wait_for()
    assert again.locator("[data-kept-deals] li").count() == 1
    assert again.locator("form[data-deal-form] input[name=after]").input_value() == "1"


def test_a_reload_offline_starts_from_the_paper_last_seen(open_browser, django_user_model):
    """A deal added by the pad (no page load) and then a reload with no network: the phone's
    copy of the page is the paper after that deal, so the next deal kept comes after it."""
    paper = paper_in_progress(django_user_model)
    browsing, banner = offline_at(open_browser, paper)
    page = browsing.page
    page.context.set_offline(False)
    tap_refa(page)
    page.get_by_role("heading", name="Deal 2", exact=True).wait_for()
    page.context.set_offline(True)
    page.reload()
    page.get_by_role("heading", name="Deal 2", exact=True).wait_for()
    tap_refa(page)
    banner.get_by_text("1 deal waiting to be sent").wait_for()
    page.context.set_offline(False)
    banner.wait_for(state="hidden")
    assert Deal.objects.filter(paper=paper).count() == 2
