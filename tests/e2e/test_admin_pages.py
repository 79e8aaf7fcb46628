"""The admin's game page in a 1280 px window and the audit trail's restore button, in Chromium
under the Content Security Policy."""

from __future__ import annotations

from django.urls import reverse

from ratings import engine
from ratings.models import AuditEntry, Game

from .builders import DESKTOP, Policed


def test_the_game_page_fits_1280_px_and_numbers_seats_from_one(open_browser, policed_club):
    policed = Policed(open_browser(DESKTOP))
    page = policed.page
    policed.log_in(reverse("admin:login"), "staff", after=r"/admin/$")

    for path in (
        reverse("admin:ratings_game_change", args=[policed_club["game"].pk]),
        reverse("admin:ratings_game_add"),
    ):
        policed.visit(path)
        assert not policed.browsing.scrolls_sideways(), path
    assert page.locator("#id_results-0-seat").input_value() == "1"
    policed.assert_clean()


def test_a_deleted_game_is_restored_from_its_audit_entry(open_browser, policed_club):
    game = policed_club["game"]
    engine.game_delete(game=game)
    entry = AuditEntry.objects.get(action="delete")
    policed = Policed(open_browser(DESKTOP))
    page = policed.page
    policed.log_in(reverse("admin:login"), "staff", after=r"/admin/$")

    policed.visit(reverse("admin:ratings_auditentry_change", args=[entry.pk]))
    page.get_by_role("button", name="Restore this game").click()
    page.locator(".messagelist .success").wait_for()

    assert "is back in Preferans" in page.locator(".messagelist").inner_text()
    assert Game.objects.filter(pk=game.pk).exists()
    assert page.get_by_role("button", name="Restore this game").count() == 0
    policed.assert_clean()
