"""A club night run on a phone, as a new organiser would, in a real browser (issue #13).

An organiser (a member given the right to run events) creates a night with 9 players, draws
round 1, enters each table's paper from its link, draws round 2 (no pair of round 1 meets
again), enters those papers, closes the night, and reads the standings: the evening's winner and
everyone's rating change. No page scrolls sideways at 360 px; the table cards print a card a
page. With SCREENSHOTS=1 the walk saves docs/screenshots/event-*.png.
"""

from __future__ import annotations

import itertools
import re

import pytest
from django.contrib.auth.models import Permission

from ratings.events.models import Event, EventTable
from ratings.models import Game, System
from tests.builders import make_league, make_players
from tests.worked_example import MORE_PAPERS, WORKED_EXAMPLE_PAPERS

from .builders import PHONE

PASSWORD = "a-long-password-for-the-night"
NINE = ["Pedja", "Marko", "Johnny", "Ana", "Bojan", "Dragan", "Jelena", "Milica", "Nikola"]
# The papers of the six tables, in their seats as drawn.
PAPERS = [WORKED_EXAMPLE_PAPERS, *MORE_PAPERS, WORKED_EXAMPLE_PAPERS]
# A change as every page writes it: a sign (a real minus) and a whole number, or 0.
CHANGE = re.compile(r"^([+\u2212]\d+|0)$")


@pytest.fixture
def club(django_user_model):
    league = make_league(System.PREFKO, name="Preferans", slug="preferans", provisional_games=0)
    make_players(NINE)
    organiser = django_user_model.objects.create_user("vesna", password=PASSWORD)
    organiser.user_permissions.add(Permission.objects.get(codename="run_events"))
    return league


def log_in_as_vesna(browsing) -> None:
    page = browsing.page
    browsing.goto("/")
    page.get_by_role("link", name="Log in").click()
    page.get_by_label("Username").fill("vesna")
    page.get_by_label("Password").fill(PASSWORD)
    page.locator("main").get_by_role("button", name="Log in").click()
    page.wait_for_url(browsing.base_url + "/")


def table_names(page, round_number: int) -> list[list[str]]:
    """Each table's players in seat order, as the event page lists them."""
    tables = page.locator(f"#round-{round_number} article.event-table")
    return [
        [name.strip() for name in table.locator("ol.table-seats li a").all_inner_texts()]
        for table in tables.all()
    ]


def enter_papers(browsing, round_number: int, papers) -> None:
    """Each table's paper, from its link on the event page, back to the event after each."""
    page = browsing.page
    event_url = page.url
    for number, paper in enumerate(papers, start=1):
        card = page.locator(f"#round-{round_number} article.event-table").nth(number - 1)
        names = [n.strip() for n in card.locator("ol.table-seats li a").all_inner_texts()]
        card.get_by_role("link", name="Enter the paper").click()
        page.wait_for_url(re.compile(r"/games/new/\?table=\d+$"))
        # The table's players are in their seats already.
        assert [page.locator(f"#id_player_{seat}").input_value() for seat in range(3)] == names
        assert f"Table {number}, round {round_number}" in page.locator("main").inner_text()
        page.locator("#id_bula").fill("30")
        for seat, (left, middle, right) in enumerate(paper):
            page.locator(f"#id_left_{seat}").fill(str(left))
            page.locator(f"#id_middle_{seat}").fill(str(middle))
            page.locator(f"#id_right_{seat}").fill(str(right))
        if round_number == 1 and number == 1:
            assert not browsing.scrolls_sideways(), "the table's paper scrolls sideways"
            browsing.screenshot("event-entry-phone")
        page.get_by_role("button", name="Check scores").click()
        page.locator("section.preview").get_by_role("button", name="Save game").click()
        page.wait_for_url(re.compile(r"/events/tables/\d+/$"))
        assert "The paper is in." in page.locator(".paper-status").inner_text()
        if round_number == 1 and number == 1:
            browsing.screenshot("event-table-phone")
        page.goto(event_url)


def test_an_organiser_runs_a_club_night_of_nine_on_a_phone(open_browser, club):
    browsing = open_browser(PHONE)
    page = browsing.page
    log_in_as_vesna(browsing)

    # 1. The league's page leads to its events, and to a new night.
    page.locator("section.league", has_text="Preferans").get_by_role(
        "link", name="Leaderboard"
    ).click()
    page.get_by_role("link", name="Club nights and tournaments").click()
    page.get_by_role("link", name="New club night or tournament").click()
    page.wait_for_url(re.compile(r"/events/new/$"))
    page.get_by_label("Name:", exact=True).fill("Friday night")
    page.get_by_label("Rounds:").fill("4")
    page.get_by_label("Scoring:").select_option(label="preferans.org table (3 or 4, 2 or 1, 0)")
    for row, name in enumerate(NINE):
        page.locator(f"#id_player_{row}").fill(name.lower() if row == 2 else name)
    assert not browsing.scrolls_sideways(), "the new event's form scrolls sideways at 360 px"
    browsing.screenshot("event-new-phone")
    # More rows keeps what was typed.
    page.get_by_role("button", name="More rows").click()
    page.locator("#id_player_23").wait_for()
    assert page.locator("#id_player_8").input_value() == NINE[8]
    assert page.get_by_label("Name:", exact=True).input_value() == "Friday night"
    page.get_by_role("button", name="Create the event").click()
    page.wait_for_url(re.compile(r"/events/\d+/$"))
    assert page.locator("h1").inner_text() == "Friday night"
    event = Event.objects.get()
    assert event.event_players.count() == 9  # "johnny" is Johnny: no new player

    # 2. Round 1: three tables, each waiting for its paper, each with its link.
    page.get_by_role("button", name="Draw round 1").click()
    page.wait_for_url(re.compile(r"/events/\d+/$"))
    assert page.locator(".messages").inner_text().strip() == "Round 1 is drawn."
    assert page.locator(".progress").inner_text().strip() == "Round 1: 0 of 3 tables in"
    first = table_names(page, 1)
    assert sorted(itertools.chain(*first)) == sorted(NINE)
    assert not browsing.scrolls_sideways(), "the event page scrolls sideways at 360 px"
    browsing.screenshot("event-round-phone")

    # The table cards, as printed: a card a page, no header.
    page.get_by_role("link", name="Table cards to print").click()
    page.emulate_media(media="print")
    assert not page.locator(".site-header").is_visible()
    assert page.locator(".table-card").count() == 3
    # The address under the code on a line of its own across an A4 page's card, never
    # broken inside a word as the code's width broke it.
    page.set_viewport_size({"width": 794, "height": 1123})
    address = page.locator(".card-address").first
    line = address.evaluate("(el) => parseFloat(getComputedStyle(el).lineHeight)")
    assert address.bounding_box()["height"] < 1.5 * line
    assert page.locator(".card-qr").first.evaluate(
        "(el) => getComputedStyle(el, '::after').content"
    ) in ("none", "normal")
    browsing.screenshot("event-cards-print")
    page.set_viewport_size(PHONE)
    page.emulate_media(media="screen")
    page.go_back()

    # 3. Each table's paper from its link.
    enter_papers(browsing, 1, PAPERS[:3])
    assert page.locator(".progress").inner_text().strip() == "Round 1: 3 of 3 tables in"

    # 4. Round 2: no pair of round 1 meets again.
    page.get_by_role("button", name="Draw round 2").click()
    page.wait_for_url(re.compile(r"/events/\d+/$"))
    met = {frozenset(pair) for table in first for pair in itertools.combinations(table, 2)}
    second = table_names(page, 2)
    assert len(second) == 3
    assert not met & {frozenset(p) for t in second for p in itertools.combinations(t, 2)}
    enter_papers(browsing, 2, PAPERS[3:])

    # A player who leaves early: none is chosen for the organiser, and the question names
    # the one chosen (Cancel withdraws nobody).
    page.get_by_text("A player who leaves early").click()
    leaving = page.get_by_label("Player", exact=True)
    assert leaving.input_value() == ""
    leaving.select_option(label=NINE[4])
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.get_by_role("button", name="Withdraw from the next rounds").click()
    assert asked == [
        f"Withdraw {NINE[4]} from the next rounds? The games they played stay in the standings."
    ]

    # 5. Close the night, which cannot be undone: the browser asks first, and Cancel leaves
    # the night open. Then the standings name the winner, and everyone's rating change.
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.get_by_role("button", name="Close the event").click()
    assert asked == [
        "Close the event? Its standings become final: nothing more can be drawn or entered."
    ]
    assert Event.objects.get().closed_at is None
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Close the event").click()
    page.wait_for_url(re.compile(r"/events/\d+/$"))
    standings = page.locator("table.event-standings tbody tr")
    assert standings.count() == 9
    first_row = standings.nth(0).locator("td").all_inner_texts()
    winner = page.locator(".winner .winner-name").inner_text().strip()
    assert first_row[0].strip() == "1" and first_row[1].strip() == winner
    headers = [h.strip() for h in page.locator("table.event-standings thead th").all_inner_texts()]
    change = headers.index("Change")
    for row in standings.all():
        assert CHANGE.match(row.locator("td").nth(change).inner_text().strip())
    assert not browsing.scrolls_sideways(), "the standings scroll sideways at 360 px"
    browsing.screenshot("event-standings-phone")

    assert Game.objects.count() == 6
    assert EventTable.objects.filter(game__isnull=False).count() == 6
    assert browsing.errors == []
