"""No template comment reaches a page.

A Django ``{# #}`` comment is one line only: one that spans two lines is printed as text (it
was, above every game preview). Every page of the site, as a visitor, a member and staff, and
the form pages with their previews and refusals, must show none of ``{#`` and ``#}``.
"""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from ratings.events.models import EventTable
from ratings.models import System
from tests.views.pages import played_event, urls
from tests.worked_example import WORKED_EXAMPLE_FORM

pytestmark = pytest.mark.django_db


@pytest.fixture
def small_club(worked_example_game, worked_example_league, worked_example_players):
    """One league, one game, three players, and a night of one round at one table."""
    played_event(worked_example_league, worked_example_players, rounds=1)
    return urls(worked_example_league, worked_example_game, worked_example_players[0])


def assert_no_comment(response, where: str) -> None:
    assert response.status_code == 200, where
    text = response.content.decode()
    for mark in ("{#", "#}"):
        assert mark not in text, f"{mark} printed on {where}: {text[text.find(mark) - 80 :][:200]}"


def form_pages(league) -> list[str]:
    table = EventTable.objects.order_by("pk").first()
    return [
        reverse("ratings:game_new", args=[league.slug]),
        reverse("ratings:game_new", args=[league.slug]) + f"?table={table.pk}",
        reverse("ratings:player_new"),
        reverse("ratings:event_new", args=[league.slug]),
        reverse("ratings:head_to_head_pick", args=["pedja"]),
    ]


def test_no_page_prints_a_template_comment(
    client,
    staff_client,
    staff_user,
    small_club,
    make_league,
    worked_example_league,
):
    staff_user.is_superuser = True  # every form page: events, rayter import
    staff_user.save()
    for name, url in small_club.items():
        if name.endswith("export"):
            continue
        assert_no_comment(client.get(url), url)
        assert_no_comment(staff_client.get(url), url)
    for url in form_pages(worked_example_league):
        assert_no_comment(staff_client.get(url), url)
    for system in (System.ELO, System.RAYTER_HIGHSCORE):
        other = make_league(system)
        assert_no_comment(staff_client.get(reverse("ratings:game_new", args=[other.slug])), system)
    rayter = make_league(System.RAYTER_LOWSCORE)
    assert_no_comment(staff_client.get(reverse("ratings:rayter_import", args=[rayter.slug])), "")


def test_no_preview_or_refusal_prints_a_template_comment(
    staff_client,
    worked_example_league,
    worked_example_players,
):
    url = reverse("ratings:game_new", args=[worked_example_league.slug])
    data = {"submission_key": str(uuid.uuid4()), **WORKED_EXAMPLE_FORM}
    preview = staff_client.post(url, {**data, "preview": "1"})
    assert preview.context["preview"]
    assert_no_comment(preview, "the game preview")
    refused = staff_client.post(url, {**data, "middle_0": "21", "preview": "1"})
    assert refused.context["form"].errors
    assert_no_comment(refused, "a refused paper")
    close_name = staff_client.post(url, {**data, "player_0": "Pedjaa", "preview": "1"})
    assert_no_comment(close_name, "a seat's close name")
