"""The pages in Serbian (Latin) and Russian: translated headings, local dates and numbers."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from tests.builders import in_language

from .pages import text

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("code", "headings", "direction"),
    [
        (
            "ru",
            ["Место", "Игрок", "Рейтинг", "Последнее изменение", "Партии"],
            "Таблица идёт от самого низкого рейтинга вверх.",
        ),
        (
            "sr-latn",
            ["Plasman", "Igrač", "Rejting", "Poslednja promena", "Partije"],
            "Tabela ide od najnižeg rejtinga naviše.",
        ),
    ],
)
def test_the_leaderboard_is_translated(
    client, worked_example_game, worked_example_league, code, headings, direction
):
    url = reverse("ratings:leaderboard", args=[worked_example_league.slug])
    response = in_language(client, code).get(url)
    page = text(response)
    assert f'<html lang="{code}"' in response.content.decode()
    for heading in headings:
        assert heading in page
    assert direction in page
    assert "Rank" not in page and "Last change" not in page


def test_accept_language_picks_russian(client, worked_example_game, worked_example_league):
    response = client.get(
        reverse("ratings:leaderboard", args=[worked_example_league.slug]),
        HTTP_ACCEPT_LANGUAGE="ru,en;q=0.5",
    )
    assert "Рейтинг" in text(response)


def test_the_switcher_remembers_the_language_for_a_year(
    client, worked_example_game, worked_example_league
):
    board = reverse("ratings:leaderboard", args=[worked_example_league.slug])
    response = client.post(reverse("set_language"), {"language": "sr-latn", "next": board})
    assert response.status_code == 302 and response["Location"] == board
    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "sr-latn"
    assert int(cookie["max-age"]) == 365 * 24 * 60 * 60
    assert "Plasman" in text(client.get(board))


def test_the_game_page_writes_dates_and_decimals_the_local_way(client, worked_example_game):
    url = reverse("ratings:game", args=[worked_example_game.pk])
    english = text(client.get(url))
    russian = text(in_language(client, "ru").get(url))
    serbian = text(in_language(client, "sr-latn").get(url))
    # The club's English keeps ISO dates and a 24-hour clock.
    assert "Game of 2026-01-01 20:00" in english
    assert "Партия от 01.01.2026 20:00" in russian
    assert "Partija od 1.01.2026. 20:00" in serbian
    # Pedja's change is the average of his two pairs' C: −27.4, a decimal comma in both.
    assert "= −27.4 → −27" in english
    assert "= −27,4 → −27" in russian
    assert "= −27,4 → −27" in serbian
    assert "Лист и рейтинги" in russian and "Итог" in russian


def test_the_entry_form_gives_the_live_hints_in_the_language(member_client, worked_example_league):
    url = reverse("ratings:game_new", args=[worked_example_league.slug])
    html = in_language(member_client, "ru").get(url).content.decode()
    assert 'data-msg-integer="Введите целое число."' in html
    assert 'data-msg-duplicate="{name} уже сидит на месте {seat}' in html
    assert 'data-ok-text="Сумма средней колонки — 0 ✓"' in html


@pytest.mark.parametrize(
    ("code", "words"),
    [("ru", "Три игрока, листы как записаны за столом."), ("sr-latn", "Tri igrača, papiri")],
)
def test_the_demo_s_league_descriptions_are_translated(client, demo_club, code, words):
    page = in_language(client, code).get(reverse("ratings:leaderboard", args=["preferans"]))
    assert words in page.content.decode()
