"""A game the table confirms (issue #41), on two phones at 360 x 740: Marko enters the worked
example in a league that asks another seat's confirmation; the leaderboard does not move. Pedja,
at the same table, opens the club on his own phone, finds "Games waiting for you" on the home
page and taps "I agree"; now the game counts and the leaderboard shows the new ratings. The held
game's page and the home page with the ask pass axe on the way.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from ratings.models import Game, Player, System
from ratings.models.leagues import Confirmation
from ratings.papers import services
from tests.builders import make_league, worked_example_players
from tests.papers.deals import SHORT_GAME, enter

from .builders import PASSWORD, PHONE, TOUCH_PHONE, Audit, cells, fill_in_the_paper, log_in

# The worked example's ratings after it counts (tests/e2e/test_at_the_table.py).
AFTER = {"Johnny": "1125", "Marko": "1152", "Pedja": "1173"}


@pytest.fixture
def club(django_user_model):
    """The Preferans league asking another seat, with Marko and Pedja as members."""
    league = make_league(
        System.PREFKO,
        name="Preferans",
        start_rating=1000,
        provisional_games=0,
        confirmation=Confirmation.ANOTHER_SEAT,
    )
    players = worked_example_players(league)
    for player in players[:2]:  # Pedja and Marko; Johnny has no login
        player.user = django_user_model.objects.create_user(player.name.lower(), password=PASSWORD)
        player.save(update_fields=["user"])
    return league


def standing_cells(page) -> dict[str, tuple[str, str]]:
    """The leaderboard's players, each with their rating and games."""
    names = [t.strip() for t in cells(page, "table.leaderboard", "Player").all_inner_texts()]
    ratings = [t.strip() for t in cells(page, "table.leaderboard", "Rating").all_inner_texts()]
    games = [t.strip() for t in cells(page, "table.leaderboard", "Games").all_inner_texts()]
    return {n: (r, g) for n, r, g in zip(names, ratings, games, strict=True)}


def log_in_as(browsing, username: str) -> None:
    page = browsing.page
    browsing.goto(reverse("login"))
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form [type=submit]").last.click()
    page.wait_for_url(browsing.base_url + "/")
    assert page.locator(".nav .user").inner_text().strip().endswith(username)


def assert_a_tap_target(button) -> None:
    """At least 44 x 44 px, and wholly on the 360 x 740 screen once scrolled to."""
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44, box
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box


def test_a_game_counts_once_another_seat_agrees_on_their_phone(open_browser, club):
    leaderboard = reverse("ratings:leaderboard", args=[club.slug])

    # Marko enters the worked example on his phone: saved, waiting, not rated.
    marko = open_browser(**TOUCH_PHONE)
    page = marko.page
    log_in(marko)
    marko.goto(reverse("ratings:game_new", args=[club.slug]))
    fill_in_the_paper(page)
    page.get_by_role("button", name="Check scores").click()
    preview = page.locator("section.preview")
    preview.wait_for()
    preview.get_by_role("button", name="Save game").click()
    page.wait_for_url(re.compile(r"/games/waiting/[0-9a-f-]+/$"))
    held_path = page.url.removeprefix(marko.base_url)
    assert (
        page.locator(".messages")
        .inner_text()
        .strip()
        .startswith("Saved: the game counts once the table confirms it")
    )
    assert not Game.objects.exists()
    assert not page.locator("main form").get_by_role("button", name="I agree").count()

    # The leaderboard has not moved: nobody has a game yet. The league's games list shows the
    # one waiting.
    marko.goto(leaderboard)
    assert standing_cells(page) == {}
    assert "No one has played in this league yet." in page.locator("table.leaderboard").inner_text()
    marko.goto(reverse("ratings:league_games", args=[club.slug]))
    waiting = page.locator("section.waiting")
    assert waiting.get_by_role("heading", name="Awaiting confirmation").is_visible()
    assert "Pedja, Marko, Johnny" in waiting.inner_text()

    # Pedja, on his own phone, finds the game on the home page.
    pedja = open_browser(**TOUCH_PHONE)
    page = pedja.page
    log_in_as(pedja, "pedja")
    audit = Audit(pedja, "en phone")
    audit.check("home with a game waiting")
    asks = page.locator("section.asks")
    assert asks.get_by_role("heading", name="Games waiting for you").is_visible()
    assert "marko entered a game with you" in asks.inner_text().lower()
    agree = asks.get_by_role("button", name="I agree")
    assert agree.count() == 1
    assert_a_tap_target(agree)
    assert not pedja.scrolls_sideways()

    # The held game's page, as Pedja sees it (he may agree or dispute), passes axe too.
    audit.visit(held_path)
    assert_a_tap_target(page.locator("main").get_by_role("button", name="I agree"))
    assert not pedja.scrolls_sideways()
    assert audit.checked == ["home with a game waiting", held_path]
    assert audit.failures == [], "\n".join(audit.failures)

    # One tap on the home page: the game counts and is rated.
    pedja.goto("/")
    page.locator("section.asks").get_by_role("button", name="I agree").tap()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    assert page.locator(".messages").inner_text().strip() == (
        "Confirmed: the game counts and is rated."
    )
    assert Game.objects.count() == 1
    pedja.goto("/")
    assert not page.locator("section.asks").count()

    # The leaderboard moved, on Marko's phone too.
    marko.goto(leaderboard)
    after = standing_cells(marko.page)
    assert {name: rating for name, (rating, _) in after.items()} == AFTER
    assert {games for _, games in after.values()} == {"1"}

    for line in audit.minor:
        print(line)  # noqa: T201 (shown with -rA or on failure, for a human to judge)
    assert marko.errors == [] and pedja.errors == []


def test_a_digital_paper_finished_on_the_phone_waits_for_the_table_too(open_browser, club):
    """The short game's paper (tests/papers/deals.py), finished on Marko's phone: held, not
    rated; its page links to the waiting game, where Pedja agrees on his phone."""
    pedja_, marko_, johnny_ = (Player.objects.get(name=n) for n in ("Pedja", "Marko", "Johnny"))
    paper = services.paper_start(league=club, players=[pedja_, marko_, johnny_], bula=10)
    enter(paper, SHORT_GAME)
    paper_path = reverse("ratings:paper", args=[paper.pk])
    leaderboard = reverse("ratings:leaderboard", args=[club.slug])

    marko = open_browser(**TOUCH_PHONE)
    page = marko.page
    log_in(marko)
    marko.goto(paper_path)
    page.get_by_role("link", name="Finish and rate").tap()
    page.wait_for_selector("text=Check before saving")
    page.get_by_role("button", name="Save game").tap()
    page.wait_for_url(re.compile(r"/games/waiting/[0-9a-f-]+/$"))
    held_path = page.url.removeprefix(marko.base_url)
    assert (
        page.locator(".messages")
        .inner_text()
        .strip()
        .startswith("Saved: the game counts once the table confirms it")
    )
    assert not Game.objects.exists()
    marko.goto(leaderboard)
    assert standing_cells(page) == {}

    # Pedja opens the paper on his phone: it leads to the waiting game, one tap to agree.
    pedja = open_browser(**TOUCH_PHONE)
    page = pedja.page
    log_in_as(pedja, "pedja")
    pedja.goto(paper_path)
    page.get_by_role("link", name="The game waits for the table").tap()
    page.wait_for_url(pedja.base_url + held_path)
    agree = page.locator("main").get_by_role("button", name="I agree")
    assert_a_tap_target(agree)
    agree.tap()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.get()
    assert page.url == pedja.base_url + game.get_absolute_url()
    assert [r.paper for r in game.results.order_by("seat")] == [(0, -2, 0), (24, 2, 16), (8, -6, 0)]
    paper.refresh_from_db()
    assert paper.game == game

    marko.goto(leaderboard)
    after = standing_cells(marko.page)
    assert sorted(after) == ["Johnny", "Marko", "Pedja"]
    assert {games for _, games in after.values()} == {"1"}
    assert marko.errors == [] and pedja.errors == []
