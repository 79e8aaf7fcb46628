"""One validator for every path: a game the league's rules refuse is refused wherever it comes in.

The case is a head-to-head game both players "won" (1, 1): before the validator was one, the bulk
import checked games by a hand-written copy that left the head-to-head rule out, and rated such a
game +16/−16. Each path below must refuse it and write nothing.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.urls import reverse

from ratings import engine
from ratings.models import AuditEntry, Game, Result, Standing, System
from tests.builders import game_post
from tests.conftest import T0
from tests.test_admin import formset_errors

BOTH_WON = (1.0, 1.0)


@pytest.fixture
def duel(make_league, make_player):
    return make_league(System.ELO, name="Chess"), make_player("Ana"), make_player("Boris")


def assert_nothing_written():
    assert not Game.objects.exists()
    assert not Result.objects.exists()
    assert not AuditEntry.objects.exists()
    assert not Standing.objects.filter(games__gt=0).exists()


@pytest.mark.parametrize("system", [System.ELO, System.FIDE])
def test_engine_refuses_a_head_to_head_game_both_won(system, make_league, make_player):
    league = make_league(system)
    entries = [engine.Entry(player_id=make_player().pk, score=s) for s in BOTH_WON]
    with pytest.raises(ValidationError, match="a win and a loss, or a draw"):
        engine.game_record(league=league, played_at=T0, entries=entries)
    assert_nothing_written()


def test_bulk_import_refuses_a_head_to_head_game_both_won_naming_its_position(duel):
    league, ana, boris = duel
    good = engine.ImportedGame(played_at=T0, scores=[("Ana", 1.0), ("Boris", 0.0)])
    both = engine.ImportedGame(
        played_at=T0 + timedelta(hours=1), scores=[("Ana", 1.0), ("Boris", 1.0)]
    )
    with pytest.raises(engine.InvalidGame, match="a win and a loss, or a draw") as refused:
        engine.games_import(league=league, games=[good, both])
    assert refused.value.index == 1
    assert_nothing_written()


def test_member_form_cannot_send_a_game_both_won(member_client, duel):
    league, _ana, _boris = duel
    url = reverse("ratings:game_new", args=[league.slug])
    form = member_client.get(url).context["form"]
    data = {
        "played_at": "2026-01-01T20:00",
        "submission_key": form.initial["submission_key"],
        "player_0": "Ana",
        "player_1": "Boris",
        "outcome": "both",
        "save": "1",
    }
    response = member_client.post(url, data)
    assert response.status_code == 200
    assert "outcome" in response.context["form"].errors
    assert_nothing_written()


def test_admin_refuses_a_game_both_won(admin_client, duel):
    league, ana, boris = duel
    data = game_post(league, T0, [(ana, 0, None, 1), (boris, 1, None, 1)], bula=None)
    response = admin_client.post(reverse("admin:ratings_game_add"), data)
    assert response.status_code == 200
    assert any("a win and a loss, or a draw" in error for error in formset_errors(response))
    assert_nothing_written()


def test_import_command_refuses_to_put_rayter_games_into_a_head_to_head_league(duel, tmp_path):
    league, _ana, _boris = duel
    path = tmp_path / "both.txt"
    path.write_text("game 2026-01-01 20:00\nAna 1\nBoris 1\n", encoding="utf-8")
    with pytest.raises(CommandError, match="not a scored league"):
        call_command("import_rayter", str(path), league=league.slug, no_progress=True)
    assert_nothing_written()


# A Rayter league's scores are whole numbers, as its file holds: a score of 10.5 taken anywhere
# would leave the league's rayter file unwritable for everyone (ratings.rayter_standings).

HALF = (10.5, 12.0)


@pytest.fixture
def hearts(make_league, make_player):
    return (
        make_league(System.RAYTER_LOWSCORE, name="Hearts"),
        make_player("Ana"),
        make_player("Boris"),
    )


@pytest.mark.parametrize("scores", [HALF, (1e15, 0.0)], ids=["a fraction", "16 digits"])
def test_engine_refuses_a_rayter_score_a_file_cannot_hold(hearts, scores):
    league, ana, boris = hearts
    entries = [
        engine.Entry(player_id=p.pk, score=s) for p, s in zip((ana, boris), scores, strict=True)
    ]
    with pytest.raises(ValidationError, match="whole numbers of at most 15 digits"):
        engine.game_record(league=league, played_at=T0, entries=entries)
    assert_nothing_written()


def test_bulk_import_refuses_a_rayter_score_with_a_fraction_naming_its_position(hearts):
    league, _ana, _boris = hearts
    good = engine.ImportedGame(played_at=T0, scores=[("Ana", 10), ("Boris", 12)])
    half = engine.ImportedGame(
        played_at=T0 + timedelta(hours=1), scores=[("Ana", 10.5), ("Boris", 12)]
    )
    with pytest.raises(engine.InvalidGame, match="whole numbers") as refused:
        engine.games_import(league=league, games=[good, half])
    assert refused.value.index == 1
    assert_nothing_written()


def test_member_form_refuses_a_score_with_a_fraction(member_client, hearts):
    league, _ana, _boris = hearts
    url = reverse("ratings:game_new", args=[league.slug])
    form = member_client.get(url).context["form"]
    data = {
        "played_at": "2026-01-01T20:00",
        "submission_key": form.initial["submission_key"],
        "player_0": "Ana",
        "score_0": "10.5",
        "player_1": "Boris",
        "score_1": "12",
        "preview": "1",
    }
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


def test_admin_refuses_a_rayter_score_with_a_fraction(admin_client, hearts):
    league, ana, boris = hearts
    data = game_post(league, T0, [(ana, 0, None, 10.5), (boris, 1, None, 12)], bula=None)
    response = admin_client.post(reverse("admin:ratings_game_add"), data)
    assert response.status_code == 200
    assert any("whole numbers of at most 15 digits" in error for error in formset_errors(response))
    assert_nothing_written()
