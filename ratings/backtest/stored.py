"""A backtest run as it is stored: as plain data (:func:`as_json`: the ``backtest`` command's
``--json``, the row the page reads), the check a stored one passes (:func:`figures_problem`: the
page reads a stored backtest as it is, so a restored backup's must have that shape), and storing
a run for the league's page (:func:`backtest_stored`).
"""

from __future__ import annotations

from django.utils import timezone

from ratings.algorithms import backtest
from ratings.backtest.run import NEW_GAMES, LeagueBacktest
from ratings.models import League, StoredBacktest
from ratings.systems import PAIRWISE_ELO, SYSTEMS


def _scores_dict(scores: backtest.Scores) -> dict:
    return {
        "games": scores.games,
        "pairs": scores.pairs,
        "decided_pairs": scores.decided,
        "accuracy": scores.accuracy,
        "log_loss": scores.log_loss,
        "brier": scores.brier,
        "calibration": [
            {
                "from": bucket.low,
                "to": bucket.high,
                "pairs": bucket.pairs,
                "predicted": bucket.predicted,
                "observed": bucket.observed,
            }
            for bucket in scores.calibration
        ],
    }


def as_json(result: LeagueBacktest) -> dict:
    """The backtest as plain data (the command's ``--json``)."""
    return {
        "league": result.league.slug,
        "games": result.games,
        "conclusive": result.conclusive,
        "new_player_games": NEW_GAMES,
        "systems": [
            {
                "system": str(r.label),
                "code": str(r.system.code),
                "own": r.own,
                "fitted": r.report.fitted,
                "chances": "fitted logistic" if r.report.fitted else "own model",
                "all": _scores_dict(r.report.all),
                "established": _scores_dict(r.report.established),
                "new": _scores_dict(r.report.new),
            }
            for r in result.results
        ],
    }


_COUNTS = ("games", "pairs", "decided_pairs")
_FIGURES = ("accuracy", "log_loss", "brier")
_BUCKET = ("from", "to", "pairs", "predicted", "observed")


def figures_problem(figures: object) -> str | None:
    """What keeps stored figures from being :func:`as_json`'s, or None: the page reads a
    stored backtest as it is, so a restored one must have the shape the page reads."""

    def number(value: object, *, empty: bool = True) -> bool:
        return (value is None and empty) or type(value) in (int, float)

    def scores(value: object) -> bool:
        return (
            type(value) is dict
            and all(type(value.get(key)) is int for key in _COUNTS)
            and all(number(value.get(key)) for key in _FIGURES)
            and type(value.get("calibration")) is list
            and all(
                type(bucket) is dict and all(number(bucket.get(key)) for key in _BUCKET)
                for bucket in value["calibration"]
            )
        )

    if not (
        type(figures) is dict
        and type(figures.get("games")) is int
        and type(figures.get("conclusive")) is bool
        and type(figures.get("systems")) is list
    ):
        return "its figures lack the games, the conclusion or the systems"
    codes = {*SYSTEMS, PAIRWISE_ELO.code}
    for system in figures["systems"]:
        if type(system) is not dict or system.get("code") not in codes:
            return "its figures name a system the club does not know"
        if not (
            type(system.get("own")) is bool
            and type(system.get("fitted")) is bool
            and all(scores(system.get(group)) for group in ("all", "established", "new"))
        ):
            return f"the figures of {system['code']} are not what the backtest writes"
    return None


def backtest_stored(*, league: League, result: LeagueBacktest) -> StoredBacktest:
    """Store a backtest of ``league`` (:func:`~ratings.backtest.run.league_backtest`'s) for its
    page (the ``backtest`` command, staff on the page, the demo)."""
    stored, _created = StoredBacktest.objects.update_or_create(
        league=league,
        defaults={
            "computed_at": timezone.now(),
            "games": result.games,
            "figures": as_json(result),
        },
    )
    return stored
