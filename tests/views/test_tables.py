"""ClubTable renders its rows in Python: the pages must read exactly as django-tables2 renders
them through its own template, in every table, language and league kind."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from ratings.models import System
from ratings.tables import ClubTable
from tests.views.pages import assert_same_as_django_tables2
from tests.worked_example import random_paper

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language", ["en", "sr-latn", "ru"])
def test_every_table_reads_as_django_tables2_renders_it(
    client,
    monkeypatch,
    language,
    make_league,
    make_player,
    record_game,
    worked_example_game,
    worked_example_league,
    worked_example_players,
):
    client.cookies["django_language"] = language
    rng = random.Random(3)
    others = [make_player(f"Ana {n} <b>&") for n in range(3)] + [make_player("Ђорђе Ж. «Đole»")]
    for _ in range(60):
        record_game(
            worked_example_league,
            rng.sample([*worked_example_players, *others], 3),
            papers=random_paper(rng),
        )
    scored = make_league(System.RAYTER_LOWSCORE, name="Hearts")
    record_game(scored, others, scores=[12, -3, 0, 40])
    duel = make_league(System.ELO, name="Chess")
    record_game(duel, others[:2], scores=[0.5, 0.5])
    empty = make_league(System.PREFKO, name="Empty")
    assert_same_as_django_tables2(
        client,
        monkeypatch,
        [
            reverse("ratings:leaderboard", args=[worked_example_league.slug]),
            reverse("ratings:leaderboard", args=[worked_example_league.slug])
            + "?page=2&sort=games",
            reverse("ratings:leaderboard", args=[scored.slug]),
            reverse("ratings:leaderboard", args=[duel.slug]) + "?sort=-last_change",
            reverse("ratings:leaderboard", args=[empty.slug]),
            reverse("ratings:league_games", args=[worked_example_league.slug]),
            reverse("ratings:league_games", args=[scored.slug]),
            reverse("ratings:league_games", args=[empty.slug]),
            reverse("ratings:game", args=[worked_example_game.pk]),
            reverse("ratings:game", args=[scored.games.get().pk]),
            reverse("ratings:game", args=[duel.games.get().pk]),
            reverse("ratings:player", args=[worked_example_players[0].slug]),
            reverse("ratings:player", args=[others[0].slug]),
        ],
    )


def test_a_column_it_cannot_render_the_same_is_refused():
    import django_tables2 as tables
    from django.core.exceptions import ImproperlyConfigured

    class Localised(ClubTable):
        n = tables.Column(localize=True)

    class PerCell(ClubTable):
        n = tables.Column(attrs={"td": {"title": lambda value: value}})

    class Linked(ClubTable):
        n = tables.Column(linkify=lambda value: f"/{value}/")

    for table in (Localised([{"n": 1.5}]), PerCell([{"n": 1}]), Linked([{"n": 1}])):
        with pytest.raises(ImproperlyConfigured, match="static cell attributes"):
            table.body_html()
