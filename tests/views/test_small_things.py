"""Small things a walkthrough in three languages found (issue 29, point 8): a double full stop,
a hyphen for a minus, words in the wrong sense, a button's label, the admin's numbers, dates
and merge page, the demo's descriptions."""

from __future__ import annotations

import io
import re
import uuid

import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse

from ratings.models import Player, System
from tests.worked_example import WORKED_EXAMPLE_FORM

pytestmark = pytest.mark.django_db


def in_language(client, code: str):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = code
    return client


@pytest.mark.parametrize("code", ["ru", "sr-latn"])
def test_a_chart_s_dates_end_in_one_full_stop(client, worked_example_game, code):
    """ru and sr dates end in their own stop ("2026 г.", "2026."): the sentence adds none."""
    page = in_language(client, code).get(reverse("ratings:player", args=["pedja"]))
    (description,) = set(re.findall(r"<desc>(.*?)</desc>", page.content.decode()))
    assert ".." not in description


def test_the_middle_sum_is_written_with_a_minus_sign(member_client, worked_example_league):
    data = {"submission_key": str(uuid.uuid4()), **WORKED_EXAMPLE_FORM, "middle_2": "10"}
    url = reverse("ratings:game_new", args=[worked_example_league.slug])
    page = member_client.post(url, {**data, "preview": "1"}).content.decode()
    assert "sums to \u22126" in page
    assert "sums to -6" not in page


def test_an_event_has_a_title_not_a_person_s_name_in_russian(member_client, worked_example_league):
    member_client.force_login(_superuser())
    url = reverse("ratings:event_new", args=[worked_example_league.slug])
    page = in_language(member_client, "ru").get(url).content.decode()
    assert "Название:" in page
    assert "об имени, похожем" in page
    assert "о имени" not in page


def _superuser():
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_superuser("boss", password="x-long-password-1")


def test_a_head_to_head_game_is_checked_for_its_result(member_client, make_league):
    chess, pref = make_league(System.ELO), make_league(System.PREFKO)
    chess_page = member_client.get(reverse("ratings:game_new", args=[chess.slug])).content
    pref_page = member_client.get(reverse("ratings:game_new", args=[pref.slug])).content
    assert b"Check the result</button>" in chess_page
    assert b"Check scores" not in chess_page
    assert b"Check scores</button>" in pref_page


def test_the_admin_writes_numbers_and_moments_as_the_site(admin_client, worked_example_game):
    leagues = admin_client.get(reverse("admin:ratings_league_changelist")).content.decode()
    assert '<td class="field-start_rating_shown">1000</td>' in leagues
    assert "1000.0" not in leagues
    games = admin_client.get(reverse("admin:ratings_game_changelist")).content.decode()
    assert "2026-01-01 20:00" in games  # the worked example game, in the club's time
    assert "p.m." not in games
    game = admin_client.get(reverse("admin:ratings_game_change", args=[worked_example_game.pk]))
    assert "1173.0" not in game.content.decode()
    assert "1173" in game.content.decode()


def merge(client, players, **data):
    data = {"action": "merge_players", "_selected_action": [p.pk for p in players], **data}
    return client.post(reverse("admin:ratings_player_changelist"), data, follow=True)


def test_the_admin_merge_page_says_what_is_missing_and_counts_in_the_singular(
    admin_client, typo_club
):
    _league, pedja, pedia = typo_club
    asked = merge(admin_client, [pedja, pedia]).content.decode()
    app = reverse("admin:app_list", args=["ratings"])
    assert f'<a href="{app}">Club ratings</a>' in asked
    assert "Choose who stays." not in asked

    unchosen = merge(admin_client, [pedja, pedia], asked="1").content.decode()
    assert "Choose who stays." in unchosen
    assert Player.objects.filter(pk=pedia.pk).exists()

    done = merge(admin_client, [pedja, pedia], target=pedja.pk, asked="1").content.decode()
    assert "Pedia is merged into Pedja; 1 league re-rated." in done


@pytest.mark.parametrize(
    ("code", "words"),
    [("ru", "Три игрока, пули как записаны за столом."), ("sr-latn", "Tri igrača, papiri")],
)
def test_the_demo_s_league_descriptions_are_translated(client, code, words):
    call_command("demo", stdout=io.StringIO())
    page = in_language(client, code).get(reverse("ratings:leaderboard", args=["preferans"]))
    assert words in page.content.decode()
