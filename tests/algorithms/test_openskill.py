"""OpenSkill against the ``openskill`` package, through vectors the package made.

The fixture comes from ``scripts/vectors/openskill_vectors.py``, which runs the package's
Plackett-Luce on random games with places worked out on its own; the module here must give the
same floats, bit for bit.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from ratings.algorithms import openskill, places

CASES = json.loads(
    gzip.decompress((Path(__file__).parent / "vectors" / "openskill.json.gz").read_bytes())
)["cases"]


def test_it_agrees_with_the_package_on_every_vector():
    for case in CASES:
        skills = [openskill.Skill(*skill) for skill in case["skills"]]
        lower = case["lower_is_better"]
        assert places.places(case["scores"], lower_is_better=lower) == case["places"]
        after = openskill.rate(skills, case["scores"], lower_is_better=lower)
        assert [list(skill) for skill in after] == case["after"]
        assert openskill.win_chances(skills) == case["win"]


def test_the_defaults_are_the_packages():
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    assert (model.mu, model.sigma) == (openskill.DEFAULT_MU, openskill.DEFAULT_SIGMA)
    assert (
        openskill.ordinal(openskill.DEFAULT_MU, openskill.DEFAULT_SIGMA) == model.rating().ordinal()
    )


def test_the_winner_gains_and_the_loser_loses():
    start = openskill.Skill(openskill.DEFAULT_MU, openskill.DEFAULT_SIGMA)
    winner, loser = openskill.rate([start, start], [3, 1])
    assert winner.mu > start.mu > loser.mu
    assert winner.sigma < start.sigma


def test_a_game_needs_two_players():
    with pytest.raises(ValueError):
        openskill.rate([openskill.Skill(25, 8)], [1])
