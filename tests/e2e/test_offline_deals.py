"""The digital paper's deals tapped with the network off are kept on the phone and recorded
once each, in order, when it comes back (Chromium at phone width, Playwright's offline switch)."""

from __future__ import annotations

import uuid

from ratings.models import Player, System
from ratings.papers import services
from ratings.papers.models import Deal
from tests.builders import make_league

from .builders import PASSWORD, PHONE, log_in


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
    page.context.set_offline(True)
    return browsing, page.locator("#offline-queue")


def tap_refa(page):
    page.locator("form[data-deal-form]").get_by_label("refa (all passed)").check()
    page.get_by_role("button", name="Add the deal").click()


def tap_pik(page):
    """Ana declares pik, Boris follows and takes 2 tricks, Ceca passes."""
    form = page.locator("form[data-deal-form]")
    form.get_by_label("played", exact=True).check()
    form.locator("fieldset.taps", has_text="Declarer").get_by_label("Ana").check()
    form.locator("fieldset.taps", has_text="Contract").get_by_label("pik (").check()
    for fieldset in form.locator("fieldset.follower:visible").all():
        if fieldset.locator("legend").inner_text().strip() == "Boris":
            fieldset.get_by_label("followed").check()
            fieldset.get_by_label("Tricks").select_option("2")
        else:
            fieldset.get_by_label("passed").check()
    page.get_by_role("button", name="Add the deal").click()


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
    page.reload()
    banner.get_by_text("3 deals waiting to be sent").wait_for()
    assert not Deal.objects.exists()

    page.context.set_offline(False)
    banner.wait_for(state="hidden")
    deals = list(Deal.objects.filter(paper=paper).order_by("number"))
    assert [deal.number for deal in deals] == [1, 2, 3]
    assert [deal.entered.get("refa", False) for deal in deals] == [True, True, False]
    assert deals[2].entered["contract"] == "pik"
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
        form.locator("input[name=kind][value=refa]").check()
        form.locator("button[type=submit]").click()
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
    other = services.paper_start(league=paper.league, players=paper.players, bula=10)
    services.deal_add(paper=other, entered={"refa": True}, after=0, key=uuid.UUID(key))

    page.context.set_offline(False)
    banner.get_by_text("The club refused a deal kept on this phone.").wait_for()
    assert not paper.deals.exists()
    banner.get_by_role("link").click()
    page.get_by_text(f"for deal 1 of paper #{other.pk}").wait_for()
    assert not paper.deals.exists()
