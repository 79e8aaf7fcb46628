"""One validator for every path: a game the league's rules refuse is refused wherever it comes in.

The first case was a head-to-head game both players "won" (1, 1): before the validator was one,
the bulk import checked games by a hand-written copy that left the head-to-head rule out, and
rated such a game +16/−16. The second is a Rayter league's score that is not a whole number of at
most 15 digits: taken anywhere, it would leave the league's rayter file unwritable for everyone
(ratings.rayter.standings). Each path below must refuse them and write nothing.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.urls import reverse

from ratings import engine
from ratings.models import AuditEntry, Game, Result, Standing, System
from tests.builders import T0, formset_errors, game_post

WHOLE = "whole numbers of at most 15 digits"
# (the league's system, two players' scores it refuses, words of the refusal)
REFUSED = [
    pytest.param(System.ELO, (1.0, 1.0), "a win and a loss, or a draw", id="elo-both-won"),
    pytest.param(System.FIDE, (1.0, 1.0), "a win and a loss, or a draw", id="fide-both-won"),
    pytest.param(System.RAYTER_LOWSCORE, (10.5, 12.0), WHOLE, id="rayter-a-fraction"),
    pytest.param(System.RAYTER_HIGHSCORE, (1e15, 0.0), WHOLE, id="rayter-16-digits"),
]


@pytest.fixture
def two(make_player):
    return make_player("Ana"), make_player("Boris")


@pytest.fixture
def duel(make_league, two):
    return make_league(System.ELO, name="Chess"), *two


def assert_nothing_written():
    assert not Game.objects.exists()
    assert not Result.objects.exists()
    assert not AuditEntry.objects.exists()
    assert not Standing.objects.filter(games__gt=0).exists()


@pytest.mark.parametrize(("system", "scores", "words"), REFUSED)
def test_engine_refuses_the_game(system, scores, words, make_league, two):
    league = make_league(system)
    entries = [engine.Entry(player_id=p.pk, score=s) for p, s in zip(two, scores, strict=True)]
    with pytest.raises(ValidationError, match=words):
        engine.game_record(league=league, played_at=T0, entries=entries)
    assert_nothing_written()


@pytest.mark.parametrize(("system", "scores", "words"), REFUSED)
def test_bulk_import_refuses_the_game_naming_its_position(system, scores, words, make_league, two):
    league = make_league(system)
    good = engine.ImportedGame(played_at=T0, scores=[("Ana", 1.0), ("Boris", 0.0)])
    refused_game = engine.ImportedGame(
        played_at=T0 + timedelta(hours=1), scores=list(zip(("Ana", "Boris"), scores, strict=True))
    )
    with pytest.raises(engine.InvalidGame, match=words) as refused:
        engine.games_import(league=league, games=[good, refused_game])
    assert refused.value.index == 1
    assert_nothing_written()


@pytest.mark.parametrize(("system", "scores", "words"), REFUSED)
def test_admin_refuses_the_game(system, scores, words, admin_client, make_league, two):
    league = make_league(system)
    rows = [
        (player, seat, None, score)
        for seat, (player, score) in enumerate(zip(two, scores, strict=True))
    ]
    response = admin_client.post(
        reverse("admin:ratings_game_add"), game_post(league, T0, rows, bula=None)
    )
    assert response.status_code == 200
    assert any(words in error for error in formset_errors(response))
    assert_nothing_written()


def entry_form(client, league, **fields) -> tuple[str, dict]:
    """The league's entry page and a game of Ana and Boris to post to it, with ``fields``."""
    url = reverse("ratings:game_new", args=[league.slug])
    key = client.get(url).context["form"].initial["submission_key"]
    data = {"played_at": "2026-01-01T20:00", "submission_key": key, "player_0": "Ana"}
    return url, {**data, "player_1": "Boris", **fields}


def test_member_form_cannot_send_a_game_both_won(member_client, duel):
    league, _ana, _boris = duel
    url, data = entry_form(member_client, league, outcome="both", save="1")
    response = member_client.post(url, data)
    assert response.status_code == 200
    assert "outcome" in response.context["form"].errors
    assert_nothing_written()


def test_member_form_refuses_a_score_with_a_fraction(member_client, make_league, two):
    league = make_league(System.RAYTER_LOWSCORE, name="Hearts")
    url, data = entry_form(member_client, league, score_0="10.5", score_1="12", preview="1")
    response = member_client.post(url, data)
    assert response.context["form"].errors["score_0"] == ["Enter a whole number."]
    assert response.context["preview"] is None
    # A whole number written with a decimal point is that number.
    data["score_0"] = "10.0"
    response = member_client.post(url, data)
    assert not response.context["form"].errors
    assert response.context["form"].cleaned_data["score_0"] == 10
    assert response.context["preview"]
    assert_nothing_written()


def test_import_command_refuses_to_put_rayter_games_into_a_head_to_head_league(duel, tmp_path):
    league, _ana, _boris = duel
    path = tmp_path / "both.txt"
    path.write_text("game 2026-01-01 20:00\nAna 1\nBoris 1\n", encoding="utf-8")
    with pytest.raises(CommandError, match="not a scored league"):
        call_command("import_rayter", str(path), league=league.slug, no_progress=True)
    assert_nothing_written()
