"""An automated accessibility check: axe-core in Chromium on every public page and every form,
at 360 px and 1280 px, in English and Serbian. Any "serious" or "critical" violation fails.

axe-core comes inside the ``axe-playwright-python`` package (the test extra): it is injected into
each page from the installed file, so the check needs no network and no CDN. Each page is
checked in the states a member meets it in: fresh, after a failed submit (the error summary), and
with its preview. Minor and moderate findings are printed for a human to look at, not failed on.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from ratings.models import System
from tests.builders import game_recorder, make_league, make_players, worked_example_players
from tests.worked_example import MORE_PAPERS, WORKED_EXAMPLE_FORM

from .builders import DESKTOP, PHONE, Audit

PASSWORD = "a-long-password-for-axe"
LANGUAGES = ["en", "sr-latn"]


@pytest.fixture
def club(django_user_model, settings):
    """A league of each kind with games, a player with a history, and staff who may do all."""
    settings.EMAIL_HOST = "smtp.example.org"  # the password-reset pages exist only with mail
    record_game = game_recorder()
    prefko = make_league(System.PREFKO, name="Preferans", provisional_games=0)
    pedja, marko, johnny = worked_example_players(prefko)
    game = record_game(prefko, [pedja, marko, johnny], papers=MORE_PAPERS[0])
    for papers in MORE_PAPERS[1:]:
        record_game(prefko, [marko, johnny, pedja], papers=papers)
    hearts = make_league(System.RAYTER_HIGHSCORE, name="Hearts", game_name="Hearts")
    ana, bo, cleo = make_players(["Ana", "Bo", "Cleo"])
    scored = record_game(hearts, [ana, bo, cleo], scores=[26, 0, 12])
    chess = make_league(System.ELO, name="Chess", start_rating=1600)
    duel = record_game(chess, [ana, bo], scores=[1, 0])
    staff = django_user_model.objects.create_user("staff", password=PASSWORD, is_staff=True)
    staff.user_permissions.add(*Permission.objects.filter(content_type__app_label="ratings"))
    return {
        "prefko": prefko,
        "hearts": hearts,
        "chess": chess,
        "games": [game, scored, duel],
        "player": pedja,
    }


def walk(audit: Audit, club: dict) -> None:
    """Every public page and every form, in the states a member meets them in."""
    page = audit.page
    prefko, hearts, chess = club["prefko"], club["hearts"], club["chess"]

    # As a visitor: the login form (fresh and refused) and the password reset.
    audit.visit(reverse("login"))
    page.locator("#id_username").fill("staff")
    page.locator("#id_password").fill("wrong")
    audit.submit("Log in" if audit.label.startswith("en") else "Prijavi se", "login refused")
    audit.visit(reverse("password_reset"))
    page.locator("#id_email").fill("not an address")
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()
    audit.check("password reset refused")
    audit.visit(reverse("password_reset_done"))
    audit.visit(reverse("password_reset_confirm", args=["MQ", "set-password"]))
    audit.visit("/no-such-page/", status=404)
    audit.visit("/api/v1/docs")

    # Staff log in and see everything a member and a visitor see, and more.
    audit.visit(reverse("login"))
    page.locator("#id_username").fill("staff")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(audit.browsing.base_url + "/")

    audit.visit(reverse("ratings:home"))
    for league in (prefko, hearts, chess):
        audit.visit(reverse("ratings:leaderboard", args=[league.slug]))
        audit.visit(reverse("ratings:league_games", args=[league.slug]))
    audit.visit(reverse("ratings:leaderboard", args=[prefko.slug]) + "?min_games=-1")
    audit.visit(reverse("ratings:league_games", args=[prefko.slug]) + "?player=Nobody")
    for game in club["games"]:
        audit.visit(reverse("ratings:game", args=[game.pk]))
    audit.visit(reverse("ratings:player_list"))
    audit.visit(reverse("ratings:player_list") + "?q=pedia")
    audit.visit(reverse("ratings:player", args=[club["player"].slug]))

    # The Preferans paper: fresh, typed (live totals), refused, a typo caught, the preview.
    new_game = reverse("ratings:game_new", args=[prefko.slug])
    audit.visit(new_game)
    for field, value in WORKED_EXAMPLE_FORM.items():
        page.locator(f"#id_{field}").fill(value)
    page.locator("#id_player_1").fill("")
    page.locator("#id_middle_2").fill("10")
    audit.check("paper typed with live hints")
    page.locator("#id_ended_early").focus()  # any field: the button is found by its form
    page.locator("main form.game-form button[name=preview]").click()
    page.wait_for_load_state()
    audit.check("paper refused")
    page.locator("#id_player_1").fill("Marko")
    page.locator("#id_middle_2").fill("16")
    page.locator("#id_player_0").fill("Pedia")
    page.locator("main form.game-form button[name=preview]").click()
    page.wait_for_load_state()
    audit.check("paper with a typo caught")
    page.locator("#id_player_0").fill("Pedja")
    page.locator("main form.game-form button[name=preview]").click()
    page.locator("section.preview").wait_for()
    audit.check("paper preview")

    # A scored game and a duel: fresh, refused, previewed.
    for league, data in (
        (hearts, {"player_0": "Ana", "score_0": "26", "player_1": "Bo", "score_1": "3"}),
        (chess, {"player_0": "Ana", "player_1": "Bo"}),
    ):
        audit.visit(reverse("ratings:game_new", args=[league.slug]))
        page.locator("main form.game-form button[name=preview]").click()
        page.wait_for_load_state()
        audit.check(f"{league.slug} refused")
        for field, value in data.items():
            page.locator(f"#id_{field}").fill(value)
        if league == chess:
            page.locator("#id_outcome_0").check()
        page.locator("main form.game-form button[name=preview]").click()
        page.locator("section.preview").wait_for()
        audit.check(f"{league.slug} preview")

    # A new player, and the rayter import (refused, then previewed).
    audit.visit(reverse("ratings:player_new"))
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()
    audit.check("new player refused")
    importer = reverse("ratings:rayter_import", args=[hearts.slug])
    audit.visit(importer)
    page.locator("main form button[type=submit]").last.click()
    page.wait_for_load_state()
    audit.check("rayter import refused")
    page.locator("#id_file").set_input_files(
        files=[{"name": "bad.txt", "mimeType": "text/plain", "buffer": b"not a rayter file\n"}]
    )
    page.locator("main form button[type=submit]").last.click()
    page.wait_for_load_state()
    audit.check("rayter file with problems")
    rayter = "game 2026-03-20 20:00\nAna 10\nBo 4\nDan 7\n"
    page.locator("#id_file").set_input_files(
        files=[{"name": "g.txt", "mimeType": "text/plain", "buffer": rayter.encode()}]
    )
    page.locator("main form button[type=submit]").last.click()
    page.locator("section.preview").wait_for()
    audit.check("rayter preview")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_every_page_and_form_passes_axe(open_browser, club, language, size, viewport):
    # The phone is a touch screen, so its paper has the ± buttons (static/forms.js) to check.
    touch = {"is_mobile": True, "has_touch": True} if size == "phone" else {}
    browsing = open_browser(viewport, **touch)
    browsing.page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": browsing.base_url}]
    )
    audit = Audit(browsing, f"{language} {size}")
    walk(audit, club)

    for line in audit.minor:
        print(line)  # noqa: T201 (shown with -rA or on failure, for a human to judge)
    assert len(audit.checked) >= 40
    assert audit.failures == [], "\n".join(audit.failures)
    assert browsing.errors == []


def test_the_check_itself_finds_a_serious_violation(open_browser, live_server):
    """A guard against a check that passes because it ran nothing: axe, injected as above, finds
    an unlabelled field and an image without text."""
    browsing = open_browser(PHONE)
    browsing.page.set_content(
        '<!doctype html><html lang="en"><head><title>t</title></head><body><main>'
        '<input type="text"><img src="data:,"></main></body></html>'
    )
    audit = Audit(browsing, "en phone")
    audit.check("a page made to fail")

    found = {line.split(": ", 1)[1].split(" ", 1)[0] for line in audit.failures}
    assert {"label", "image-alt"} <= found


@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_the_dark_scheme_passes_axe_too(open_browser, club, size, viewport):
    """The same walk in the dark colour scheme (club.css has its own colours there), English."""
    touch = {"is_mobile": True, "has_touch": True} if size == "phone" else {}
    browsing = open_browser(viewport, color_scheme="dark", **touch)
    audit = Audit(browsing, f"en {size} dark")
    walk(audit, club)

    for line in audit.minor:
        print(line)  # noqa: T201 (shown with -rA or on failure, for a human to judge)
    assert audit.failures == [], "\n".join(audit.failures)
    assert browsing.errors == []
