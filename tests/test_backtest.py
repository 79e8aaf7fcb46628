"""The backtest of a league (ratings/backtest.py) and its command, on small fixed clubs."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from ratings import backtest
from ratings.models import StoredBacktest, System
from tests.builders import backup_objects

pytestmark = pytest.mark.django_db


@pytest.fixture
def pecking_order(make_league, make_player, record_game):
    """A chess league of three where Ana always beats Bo and Cy, and Bo always beats Cy."""
    league = make_league(System.ELO, name="Order", start_rating=1500)
    ana, bo, cy = (make_player(name) for name in ("Ana", "Bo", "Cy"))
    for n in range(30):
        winner, loser = [(ana, bo), (ana, cy), (bo, cy)][n % 3]
        record_game(
            league,
            [winner, loser] if n % 2 else [loser, winner],
            scores=[1, 0][:: 1 if n % 2 else -1],
        )
    return league


def test_the_better_rated_player_always_winning_gives_accuracy_1(pecking_order):
    result = backtest.league_backtest(pecking_order)
    assert result.games == 30
    assert [str(r.label) for r in result.results] == [
        "Head-to-head, classic Elo",
        "Head-to-head, FIDE Elo",
        "Scored game, highest score wins (OpenSkill)",
    ]
    for r in result.results:
        # Once each has 10 games (from the 16th game on), every favourite won.
        assert r.report.established.games == 15
        assert r.report.established.accuracy == 1, r.label
        assert not r.report.fitted
    # Two games are coins (equal ratings count a half): Ana-Bo first, both at 1500, and Bo-Cy
    # third, both at 1484 after losing to Ana.
    elo = result.results[0].report.all
    assert elo.accuracy == pytest.approx(28.5 / 30)
    assert not result.conclusive  # 30 games, but only 15 established pairs


def test_a_scored_league_is_tried_under_rayter_openskill_and_elo_over_pairs(
    make_league, make_player, record_game
):
    league = make_league(System.RAYTER_LOWSCORE)
    players = [make_player() for _ in range(4)]
    for n in range(12):
        record_game(league, players, scores=[0, 13, 26, 39][n % 4 :] + [0, 13, 26, 39][: n % 4])
    result = backtest.league_backtest(league)
    labels = [str(r.label) for r in result.results]
    assert labels == [
        "Scored game, lowest score wins (Rayter)",
        "Scored game, lowest score wins (OpenSkill)",
        "Classic Elo over each pair at the table",
    ]
    rayter = result.results[0].report
    assert rayter.fitted and rayter.all.pairs == 12 * 6
    assert "too few" in backtest.as_text(result)


def test_the_command_prints_a_table_and_json(pecking_order):
    out = StringIO()
    call_command("backtest", pecking_order.slug, stdout=out)
    assert "Head-to-head, classic Elo *" in out.getvalue()
    assert "30 games (too few to tell the systems apart)" in out.getvalue()
    out = StringIO()
    call_command("backtest", pecking_order.slug, "--json", stdout=out)
    data = json.loads(out.getvalue())
    assert data["games"] == 30 and data["systems"][0]["established"]["accuracy"] == 1
    assert len(data["systems"][0]["all"]["calibration"]) == 10


def test_the_command_refuses_an_unknown_league():
    with pytest.raises(CommandError, match="Unknown league"):
        call_command("backtest", "nowhere", stdout=StringIO())


def test_the_command_stores_the_figures_for_the_page(pecking_order):
    call_command("backtest", pecking_order.slug, stdout=StringIO())
    call_command("backtest", pecking_order.slug, "--json", stdout=StringIO())
    stored = StoredBacktest.objects.get(league=pecking_order)  # one row, refreshed
    assert stored.games == 30
    assert stored.figures == backtest.as_json(backtest.league_backtest(pecking_order))
    assert [s["code"] for s in stored.figures["systems"]] == ["elo", "fide", "openskill_highscore"]


def test_a_stored_backtest_is_in_the_backup(pecking_order, tmp_path):
    """Derived from the games, but minutes of work for a big league: without it a restored
    league's page said it was never computed (tests/test_backup.py restores it)."""
    call_command("backtest", pecking_order.slug, stdout=StringIO())
    path = tmp_path / "club.json"
    call_command("backup_club", str(path), stdout=StringIO())
    [stored] = [obj for obj in backup_objects(path) if obj["model"] == "ratings.storedbacktest"]
    assert stored["fields"]["figures"] == StoredBacktest.objects.get().figures


def test_a_system_that_keeps_a_state_is_tried_on_its_own_kind_only(monkeypatch, make_league):
    """Keeping a state beside the rating (as OpenSkill does) says nothing of the games a system
    can rate: a head-to-head system with a state is no system for a scored game."""
    from ratings.systems import SYSTEMS, ClassicElo

    class EloWithDeviation(ClassicElo):
        code = "elo_with_deviation"
        result_state_fields = ("deviation_before", "deviation_after")

    monkeypatch.setitem(SYSTEMS, EloWithDeviation.code, EloWithDeviation())
    league = make_league(System.RAYTER_HIGHSCORE)
    tried = [system.code for system in backtest.systems_for(league)]
    assert EloWithDeviation.code not in tried
    assert System.OPENSKILL_HIGHSCORE in tried
