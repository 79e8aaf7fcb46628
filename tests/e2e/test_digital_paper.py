"""A whole short game on the phone's deal pad at 360 x 740, deal by deal, watched from a second
phone, with every tap counted (issue #40's targets: a refa 1 tap, a made contract nobody followed
3, with one follower at most 5, a fall at most 6, undo 1, the whole bula-10 game at most 35).

Bula 10: a fall crossed out again (repealed), a refa, three games on it (one with a kontra), a
mistake taken back with "Undo", then the finish and the rated game; meanwhile a visitor's phone
shows each deal without a reload.
"""

from __future__ import annotations

import re

import pytest

from ratings.models import Game, Player, System
from ratings.papers import services
from tests.builders import make_league, make_players

from .builders import PASSWORD, PHONE, Audit, log_in


@pytest.fixture
def club(django_user_model):
    league = make_league(System.PREFKO, name="Preferans", provisional_games=0)
    make_players(["Ana", "Boris", "Ceca"])
    django_user_model.objects.create_user("marko", password=PASSWORD)
    return league


class Pad:
    """The deal pad of a page, and the taps made on it."""

    SEATS = {"Ana": 1, "Boris": 2, "Ceca": 3}

    def __init__(self, page):
        self.page = page
        self.form = page.locator("form[data-deal-form]")
        self.taps = 0
        self.scripted = True  # without scripts the page answers from its top

    def tap(self, locator) -> None:
        locator.click()
        self.taps += 1

    def declarer(self, name):
        self.tap(self.form.locator("[data-seat-button]", has_text=name))

    def contract(self, contract):
        self.tap(self.form.locator(f".contracts .tap:has(input[value={contract}])"))

    def tricks(self, name, tricks):
        seat = self.SEATS[name]
        self.tap(
            self.form.locator(
                f"fieldset.follower[data-seat='{seat}'] .tricks .tap:has(input[value='{tricks}'])"
            )
        )

    def kontra(self, level):
        self.tap(self.form.locator(f".kontra .tap:has(input[name=kontra][value='{level}'])"))

    def fell(self):
        self.tap(self.form.locator(".made-fell"))

    def add(self, then_deal: int | None = None):
        self.tap(self.form.get_by_role("button", name="Add the deal"))
        if then_deal:
            self.next_deal(then_deal)

    def refa(self, then_deal: int):
        self.tap(self.form.get_by_role("button", name="Refa", exact=True))
        self.next_deal(then_deal)

    def undo(self, then_deal: int):
        self.tap(self.form.get_by_role("button", name="Undo", exact=True))
        self.next_deal(then_deal)

    def next_deal(self, number: int):
        """The pad is for deal ``number``, whole on the screen."""
        self.page.get_by_role("heading", name=f"Deal {number}", exact=True).wait_for()
        if self.scripted:
            assert pad_in_view_and_big_enough(self.page) == [], number

    def value_of(self, contract) -> str:
        return self.form.locator(f"[data-value-of={contract}]").inner_text()


def pad_in_view_and_big_enough(page) -> list[str]:
    """Every tap target of the pad shown: inside the 360 x 740 screen, at least 44 px each way."""
    return page.locator(".deal-pad .tap:visible, .deal-pad button:visible").evaluate_all(
        """(elements) => elements.flatMap((el) => {
             const box = el.getBoundingClientRect();
             const name = el.textContent.trim();
             const problems = [];
             if (box.width < 44 || box.height < 44)
               problems.push(`${name} is ${box.width}x${box.height}`);
             if (box.top < 0 || box.bottom > innerHeight || box.left < 0 || box.right > innerWidth)
               problems.push(`${name} is off the screen at ${box.top}..${box.bottom}`);
             return problems;
           })"""
    )


@pytest.mark.django_db(transaction=True)
def test_a_short_game_on_the_pad_in_35_taps_watched_on_another_phone(open_browser, club):
    phone = open_browser(PHONE)
    page = phone.page
    log_in(phone)

    phone.goto(f"/leagues/{club.slug}/papers/new/")
    pad = Pad(page)
    for label, value in (("Seat 1", "Ana"), ("Seat 2", "Boris"), ("Seat 3", "Ceca")):
        page.get_by_label(label).fill(value)
        pad.taps += 1
    page.get_by_label("Starting bula").fill("10")
    pad.taps += 1
    pad.tap(page.get_by_role("button", name="Start the paper"))
    page.wait_for_url(re.compile(r"/papers/\d+/$"))
    paper_url = page.url
    assert pad.taps == 5

    watcher = open_browser(PHONE)
    watcher.page.goto(paper_url)
    assert watcher.page.locator("form[data-deal-form]").count() == 0

    # Who deals: seat 1 deals the first deal, seat 2 bids first.
    assert page.locator("[data-dealer]").inner_text() == "Ana deals, Boris bids first"
    assert pad_in_view_and_big_enough(page) == [], pad_in_view_and_big_enough(page)

    # A fall: Ana's pik, the followers 3 and 2. Six taps.
    before = pad.taps
    pad.declarer("Ana")
    pad.contract("pik")
    pad.fell()
    pad.tricks("Boris", 3)
    pad.tricks("Ceca", 2)
    pad.add(then_deal=2)
    assert pad.taps - before == 6
    assert page.locator("[data-dealer]").inner_text() == "Boris deals, Ceca bids first"
    assert pad_in_view_and_big_enough(page) == []
    # It was a mistake: crossed out, one tap.
    before = pad.taps
    pad.tap(page.locator("[data-live-deals]").get_by_role("button", name="repeal"))
    page.locator("[data-live-deals] li.repealed").wait_for()
    assert pad.taps - before == 1

    # A refa: one tap, dealt by Boris (the dealer turns with a refa too).
    before = pad.taps
    pad.refa(then_deal=3)
    assert pad.taps - before == 1
    assert page.locator("[data-dealer]").inner_text() == "Ceca deals, Ana bids first"

    # Made with one follower: four taps; Ana's refa doubles the value shown on the button.
    before = pad.taps
    pad.declarer("Ana")
    assert pad.form.locator("input[name=on_refa]").is_checked()
    assert pad.value_of("karo") == "12"
    pad.contract("karo")
    pad.tricks("Boris", 2)
    pad.add(then_deal=4)
    assert pad.taps - before == 4
    assert pad_in_view_and_big_enough(page) == []

    pad.declarer("Boris")
    pad.contract("pik")
    pad.tricks("Ceca", 1)
    assert pad_in_view_and_big_enough(page) == [], "with the followers shown"
    phone.screenshot("digital-paper-phone", full_page=False)  # docs/digital-paper.md
    pad.add(then_deal=5)

    # A mistake: herc instead of pik, with a kontra, which ends the game. Taken back with one
    # tap on the finish that replaced the pad.
    pad.declarer("Ceca")
    pad.contract("herc")
    pad.kontra(1)
    pad.tricks("Boris", 1)
    pad.add()
    page.get_by_role("link", name="Finish and rate").wait_for()
    before = pad.taps
    pad.tap(page.locator("[data-live-pad]").get_by_role("button", name="Undo", exact=True))
    page.get_by_role("heading", name="Deal 5", exact=True).wait_for()
    pad.form = page.locator("form[data-deal-form]")
    assert pad.taps - before == 1

    before = pad.taps
    pad.declarer("Ceca")
    pad.contract("pik")
    pad.kontra(1)
    assert pad.value_of("pik") == "16"
    pad.tricks("Boris", 1)
    pad.add()
    assert pad.taps - before == 5

    # The bulas ran out: the finish replaces the pad, on the screen.
    finish = page.get_by_role("link", name="Finish and rate")
    finish.wait_for()
    assert pad_in_view_and_big_enough(page) == []
    assert page.locator("form[data-deal-form]").count() == 0
    assert page.locator("[data-live-paper]").get_attribute("data-deals") == "5"

    # The watching phone has the last deal without a reload.
    watcher.page.wait_for_selector("text=The bulas add up to \u22126.", timeout=15_000)

    pad.tap(finish)
    page.wait_for_selector("text=Check before saving")
    pad.tap(page.get_by_role("button", name="Save game"))
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    assert pad.taps <= 35, pad.taps
    game = Game.objects.get()
    assert [r.paper for r in game.results.order_by("seat")] == [
        (0, -2, 0),
        (24, 2, 16),
        (8, -6, 0),
    ]
    assert phone.errors == [] and watcher.errors == []
    assert not phone.scrolls_sideways()


@pytest.mark.django_db(transaction=True)
def test_a_made_contract_nobody_followed_is_three_taps_in_every_language_axe_passing(
    open_browser, club, django_user_model
):
    players = [Player.objects.get(name=name) for name in ("Ana", "Boris", "Ceca")]
    paper = services.paper_start(league=club, players=players, bula=10)
    phone = open_browser(PHONE)
    page = phone.page
    log_in(phone)
    for language in ("sr-latn", "ru", "en"):
        page.context.add_cookies(
            [{"name": "django_language", "value": language, "url": phone.base_url}]
        )
        phone.goto(f"/papers/{paper.pk}/")
        assert pad_in_view_and_big_enough(page) == [], (language, pad_in_view_and_big_enough(page))
        assert not phone.scrolls_sideways(), language
        audit = Audit(phone, f"{language} phone")
        audit.check("the deal pad")
        page.locator("[data-seat-button='2']").click()  # the followers shown, a seat pressed
        audit.check("the deal pad with a declarer")
        assert audit.failures == [], "\n".join(audit.failures)
    page.reload()
    pad = Pad(page)
    pad.declarer("Boris")
    pad.contract("tref")
    pad.add(then_deal=2)
    assert pad.taps == 3
    deal = paper.deals.get()
    assert deal.entered["followers"] == [
        {"seat": 1, "play": "passed", "tricks": 0, "failed": False},
        {"seat": 3, "play": "passed", "tricks": 0, "failed": False},
    ]
    assert phone.errors == []


@pytest.mark.django_db(transaction=True)
def test_the_pad_posts_the_page_without_javascript(open_browser, club):
    """The pad is the deal form's radios in labels: without scripts, the taps and "Add the deal"
    post the form and the server's page answers with the next deal."""
    players = [Player.objects.get(name=name) for name in ("Ana", "Boris", "Ceca")]
    paper = services.paper_start(league=club, players=players, bula=10)
    phone = open_browser(PHONE, java_script_enabled=False)
    page = phone.page
    log_in(phone)
    phone.goto(f"/papers/{paper.pk}/")
    pad = Pad(page)
    pad.scripted = False
    pad.declarer("Ceca")
    pad.contract("karo")
    pad.tricks("Ana", 2)
    pad.add(then_deal=2)
    pad.form = page.locator("form[data-deal-form]")
    pad.refa(then_deal=3)
    deals = list(paper.deals.order_by("number"))
    assert deals[0].entered["followers"][0] == {
        "seat": 1,
        "play": "followed",
        "tricks": 2,
        "failed": False,
    }
    assert deals[1].entered == {"refa": True}
