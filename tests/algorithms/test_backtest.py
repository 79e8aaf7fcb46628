"""The backtest's metrics on cases worked out by hand."""

from __future__ import annotations

import math
import random

import pytest

from ratings.algorithms.backtest import Pair, evaluate, fit_slope, logistic, predictions


def test_a_system_whose_better_rated_player_always_wins_has_accuracy_1():
    games = [[Pair(difference=40.0 + n, chance=None, outcome=1.0)] for n in range(40)]
    games += [[Pair(difference=-25.0, chance=None, outcome=0.0)] for _ in range(40)]
    report = evaluate(games)
    assert report.all.accuracy == 1
    assert report.all.games == 80 and report.all.pairs == 80 and report.all.decided == 80


def test_the_first_game_is_predicted_by_a_coin():
    report = evaluate([[Pair(10.0, None, 1.0)]])
    assert report.all.log_loss == pytest.approx(math.log(2))
    assert report.all.brier == pytest.approx(0.25)


def test_the_logistic_learns_only_from_earlier_games():
    rng = random.Random(3)
    games = [[Pair(d := rng.uniform(-50, 50), None, float(rng.random() < 0.5 + d / 120))]]
    for _ in range(300):
        d = rng.uniform(-50, 50)
        games.append([Pair(d, None, float(rng.random() < 0.5 + d / 120))])
    full, _slope = predictions(games)
    for cut in (1, 2, 10, 150):
        # Games after the cut, whatever they were, change nothing before it.
        assert predictions(games[:cut])[0] == full[:cut]
    assert full[1][0][1] != 0.5  # the second game is predicted from the first


def test_own_chances_are_scored_as_given():
    report = evaluate([[Pair(1.0, 0.8, 1.0)], [Pair(1.0, 0.8, 0.0)]])
    assert not report.fitted
    assert report.all.log_loss == pytest.approx(-(math.log(0.8) + math.log(0.2)) / 2)
    assert report.all.brier == pytest.approx((0.04 + 0.64) / 2)
    assert report.all.accuracy == 0.5
    bucket = report.all.calibration[8]
    assert (bucket.pairs, bucket.predicted, bucket.observed) == (2, 0.8, 0.5)


def test_shared_places_count_in_log_loss_not_in_accuracy():
    report = evaluate([[Pair(5.0, 0.5, 0.5), Pair(5.0, 0.5, 1.0)]])
    assert report.all.decided == 1 and report.all.accuracy == 1
    assert report.all.pairs == 2


def test_new_players_pairs_are_counted_apart():
    report = evaluate([[Pair(1.0, 0.6, 1.0, new=True), Pair(1.0, 0.6, 0.0)]])
    assert (report.new.pairs, report.established.pairs, report.all.pairs) == (1, 1, 2)
    assert report.new.accuracy == 1 and report.established.accuracy == 0


def test_a_small_league_is_not_conclusive():
    assert not evaluate([[Pair(1.0, 0.6, 1.0)]] * 10).conclusive
    assert evaluate([[Pair(1.0, 0.6, 1.0)] * 4] * 30).conclusive


def test_the_fitted_slope_matches_the_outcomes_frequency():
    # At difference 1 the favourite won 3 of 4: the best slope gives about 3/4 there.
    slope = fit_slope([(1.0, 1.0)] * 300 + [(1.0, 0.0)] * 100)
    assert logistic(slope, 1.0) == pytest.approx(0.75, abs=0.001)
    # Always won so far: a finite slope all the same.
    assert math.isfinite(fit_slope([(1.0, 1.0)] * 5))
    assert fit_slope([]) == 0.0
