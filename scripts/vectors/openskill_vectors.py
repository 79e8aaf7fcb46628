#!/usr/bin/env python3
"""Make the OpenSkill reference vectors by running the ``openskill`` package itself.

    python scripts/vectors/openskill_vectors.py           # write the fixture
    python scripts/vectors/openskill_vectors.py --check   # fresh cases, compared, no writes

Uses the package straight (``openskill.models.PlackettLuce()`` with its defaults), not the
project's wrapper: random games of 2 to 8 players with random skills and scores (ties
included), each player's skill after the game, and each player's chance to win before it.
Places are computed here independently of ``ratings.algorithms.openskill``: 1 the best,
a tie shares the better place. The fixture is ``tests/algorithms/vectors/openskill.json.gz``
(floats as JSON numbers, which round-trip exactly); ``--check`` runs the project's module on
cases from another seed and exits 1 on any difference.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from pathlib import Path

from openskill.models import PlackettLuce

PROJECT = Path(__file__).resolve().parents[2]
FIXTURE = PROJECT / "tests" / "algorithms" / "vectors" / "openskill.json.gz"
FIXTURE_SEED = 20261126
CASES = 1000


def ranked(scores: list[float], lower_is_better: bool) -> list[int]:
    order = sorted(scores) if lower_is_better else sorted(scores, reverse=True)
    return [order.index(score) + 1 for score in scores]


def random_case(rng: random.Random) -> dict:
    players = rng.randint(2, 8)
    skills = []
    for _ in range(players):
        if rng.random() < 0.3:
            skills.append([25.0, 25.0 / 3.0])  # a newcomer
        else:
            skills.append([rng.uniform(-5, 55), rng.uniform(0.5, 8.5)])
    low, high = (0, 3) if rng.random() < 0.4 else (-50, 150)
    scores = [float(rng.randint(low, high)) for _ in range(players)]
    return {"skills": skills, "scores": scores, "lower_is_better": rng.random() < 0.5}


def run(case: dict) -> dict:
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in case["skills"]]
    places = ranked(case["scores"], case["lower_is_better"])
    after = model.rate(teams, ranks=[float(place) for place in places])
    return {
        **case,
        "places": places,
        "after": [[team[0].mu, team[0].sigma] for team in after],
        "win": list(model.predict_win(teams)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--cases", type=int, default=CASES)
    parser.add_argument("--seed", type=int)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else FIXTURE_SEED + (1 if args.check else 0)
    rng = random.Random(seed)
    cases = [run(random_case(rng)) for _ in range(args.cases)]
    if not args.check:
        FIXTURE.write_bytes(gzip.compress(json.dumps({"cases": cases}).encode(), mtime=0))
        print(f"wrote {len(cases)} cases to {FIXTURE.relative_to(PROJECT)}")
        return 0
    sys.path.insert(0, str(PROJECT))
    from ratings.algorithms import openskill

    bad = 0
    for case in cases:
        skills = [openskill.Skill(*skill) for skill in case["skills"]]
        got = openskill.rate(skills, case["scores"], lower_is_better=case["lower_is_better"])
        if [list(skill) for skill in got] != case["after"]:
            bad += 1
    print(f"{len(cases) - bad} of {len(cases)} cases agree")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
