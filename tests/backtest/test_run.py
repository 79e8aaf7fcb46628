"""A league's backtest run (ratings/backtest/run.py): the systems tried and their figures, on
small fixed clubs (the pecking order is tests/backtest/conftest.py's)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from ratings.backtest import run
from ratings.models import System

pytestmark = pytest.mark.django_db


def test_the_better_rated_player_always_winning_gives_accuracy_1(pecking_order):
    result = run.league_backtest(pecking_order)
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
    result = run.league_backtest(league)
    labels = [str(r.label) for r in result.results]
    assert labels == [
        "Scored game, lowest score wins (Rayter)",
        "Scored game, lowest score wins (OpenSkill)",
        "Classic Elo over each pair at the table",
    ]
    rayter = result.results[0].report
    assert rayter.fitted and rayter.all.pairs == 12 * 6
    out = StringIO()
    call_command("backtest", league.slug, stdout=out)
    assert "12 games (too few to tell the systems apart)" in out.getvalue()


def test_a_system_that_keeps_a_state_is_tried_on_its_own_kind_only(monkeypatch, make_league):
    """Keeping a state beside the rating (as OpenSkill does) says nothing of the games a system
    can rate: a head-to-head system with a state is no system for a scored game."""
    from ratings.systems import SYSTEMS, ClassicElo

    class EloWithDeviation(ClassicElo):
        code = "elo_with_deviation"
        result_state_fields = ("deviation_before", "deviation_after")

    monkeypatch.setitem(SYSTEMS, EloWithDeviation.code, EloWithDeviation())
    league = make_league(System.RAYTER_HIGHSCORE)
    tried = [system.code for system in run.systems_for(league)]
    assert EloWithDeviation.code not in tried
    assert System.OPENSKILL_HIGHSCORE in tried
