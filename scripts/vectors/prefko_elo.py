#!/usr/bin/env python3
"""Reference test vectors for prefko, classic Elo and FIDE Elo, made by running the real libraries.

    python3 scripts/vectors/prefko_elo.py                 # rewrite tests/algorithms/vectors/
    python3 scripts/vectors/prefko_elo.py compare         # fresh random cases vs ratings.algorithms

The libraries are installed into a scratch folder outside the project ($VECTORS_SCRATCH, default
/tmp/club-vectors; --scratch overrides): npm ``preferans-rating-js@2.4.5`` (with ``mathjs``
pinned to the 14.x release the vectors were made with) and ``@echecs/elo@1.0.2``; the Perl module
Chess::Elo 1.0a is the copy of its published source embedded below (--chess-elo-source FILE
checks it against any text that prints that source, and refuses to run when they differ). The
drivers
beside this script (``prefko_driver.js``, ``elo_fide_driver.mjs``, ``elo_classic_driver.pl``)
feed each library its cases and print what it computes; the fixtures record the inputs as the
library received them and its outputs exactly (floats in shortest round-trip form).

``generate`` (the default) needs node, npm and perl but not Django, and never imports the
project's code, so the fixtures are the libraries' word alone. ``compare`` draws fresh cases from
a different distribution (another seed, float ratings, big scores), runs the libraries and the
project's pure-Python modules side by side and reports every disagreement.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
FIXTURES = REPO / "tests" / "algorithms" / "vectors"
DEFAULT_SCRATCH = os.environ.get("VECTORS_SCRATCH") or str(
    Path(tempfile.gettempdir()) / "club-vectors"
)
GENERATE_SEED = 20260101
GZIP_OVER_BYTES = 500_000

NPM_PACKAGES = {
    "preferans-rating-js": "2.4.5",
    "@echecs/elo": "1.0.2",
    # preferans-rating-js asks for mathjs ^14.6.0; pin the release the vectors were made with.
    "mathjs": "14.9.1",
}

# Chess::Elo 1.0a by Terrence Brannon, as published (code only, verbatim; its tabs are written \t
# so the file stays clean for linters).
CHESS_ELO_PM = """package Chess::Elo;

use strict;
use warnings;

use Exporter;

our @ISA = qw(Exporter);

# Items to export into callers namespace by default. Note: do not export
# names by default without a very good reason. Use EXPORT_OK instead.
# Do not simply export all your public functions/methods/constants.

# This allows declaration\tuse Chess::Elo ':all';
# If you do not need this, moving things directly into @EXPORT or @EXPORT_OK
# will save memory.
our %EXPORT_TAGS = ( 'all' => [ qw(
\telo
) ] );

our @EXPORT_OK = ( @{ $EXPORT_TAGS{'all'} } );

our @EXPORT = qw(
\t
);

our $VERSION = '1.0a';


# Preloaded methods go here.

our $factor  = 32;
our $divisor = 400;

sub elo {
  
  my ($A, $result, $B) = @_;

  my $Aexp = 10 ** ( ($B - $A) / $divisor ) ;
  

  my $A2 = 
    $A + $factor * ( $result - 
\t\t     ( 1 / 
\t\t       ( 1 + $Aexp )
\t\t     )
\t\t   )
      ;

  my $Bexp = 10 ** ( ($A - $B) / $divisor ) ;
  
  $result = 1 - $result;

  my $B2 = 
    $B + $factor * ( $result - 
\t\t     ( 1 / 
\t\t       ( 1 + $Bexp )
\t\t     )
\t\t   )
      ;

  ($A2, $B2)
}

1;
"""


# The reference libraries ------------------------------------------------------------------------


class References:
    """The installed libraries and how to run them."""

    def __init__(self, scratch: Path, chess_elo_source: str | None):
        self.scratch = scratch
        scratch.mkdir(parents=True, exist_ok=True)
        self._install_npm()
        self.prefko_lib = scratch / "node_modules/preferans-rating-js/lib/pref.rating.js"
        self.fide_lib = scratch / "node_modules/@echecs/elo/dist/index.js"
        self.perl_lib = scratch / "perl"
        module = self.perl_lib / "Chess" / "Elo.pm"
        module.parent.mkdir(parents=True, exist_ok=True)
        module.write_text(_chess_elo_source(chess_elo_source))
        self.versions = {
            "node": _output(["node", "--version"]).strip(),
            "perl": _output(["perl", "-e", "printf '%vd', $^V"]).strip(),
            **{name: self._npm_version(name) for name in NPM_PACKAGES},
        }

    def _install_npm(self) -> None:
        if all(self._npm_version(name) == version for name, version in NPM_PACKAGES.items()):
            return
        package_json = self.scratch / "package.json"
        if not package_json.exists():
            package_json.write_text('{"private": true}\n')
        specs = [f"{name}@{version}" for name, version in NPM_PACKAGES.items()]
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--save-exact", *specs],
            cwd=self.scratch,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        for name, version in NPM_PACKAGES.items():
            found = self._npm_version(name)
            if found != version:
                raise SystemExit(f"{name}: wanted {version}, npm installed {found}")

    def _npm_version(self, name: str) -> str | None:
        manifest = self.scratch / "node_modules" / name / "package.json"
        if not manifest.exists():
            return None
        return json.loads(manifest.read_text())["version"]

    def prefko(self, cases: list[list[float]]) -> list[list[float]]:
        """[r1, r2, r3, s1, s2, s3, bula] -> inputs as received + D, T, N, C (x3) + changes."""
        return _node(HERE / "prefko_driver.js", self.prefko_lib, cases)

    def fide(self, cases: list[list]) -> list:
        """["update", a, b, result, options] / ["kFactor", options] / ["expected", a, b]."""
        return _node(HERE / "elo_fide_driver.mjs", self.fide_lib, cases)

    def classic(self, cases: list[list[float]]) -> list[list[float]]:
        """[a, b, result, k, divisor] -> the same + [a2, b2], checked to be what Perl read."""
        lines = "".join(
            f"{_perl(a)} {_perl(r)} {_perl(b)} {_perl(k)} {_perl(d)}\n" for a, b, r, k, d in cases
        )
        output = _output(
            ["perl", f"-I{self.perl_lib}", str(HERE / "elo_classic_driver.pl")], stdin=lines
        ).splitlines()
        if len(output) != len(cases):
            raise SystemExit(f"perl answered {len(output)} of {len(cases)} cases")
        rows = []
        for case, line in zip(cases, output, strict=True):
            a, r, b, k, d, a2, b2 = (float(field) for field in line.split())
            if [a, b, r, k, d] != [float(x) for x in case]:
                raise SystemExit(f"perl read {line!r} for {case!r}")
            rows.append([*case, a2, b2])
        return rows


def _chess_elo_source(source_path: str | None) -> str:
    """Chess::Elo's code: the embedded copy, checked against ``source_path`` when one is given."""
    if source_path is None:
        return CHESS_ELO_PM
    if not Path(source_path).exists():
        raise SystemExit(f"{source_path}: no such file")
    text = Path(source_path).read_text()
    match = re.search(r"^package Chess::Elo;.*?^1;\n", text, re.DOTALL | re.MULTILINE)
    if not match:
        raise SystemExit(f"{source_path}: no Chess::Elo source found")
    if match.group(0) != CHESS_ELO_PM:
        raise SystemExit(f"{source_path}: Chess::Elo differs from the copy in {__file__}")
    return CHESS_ELO_PM


def _node(driver: Path, library: Path, cases: list) -> list:
    return json.loads(_output(["node", str(driver), str(library)], stdin=json.dumps(cases)))


def _output(command: list[str], stdin: str | None = None) -> str:
    done = subprocess.run(command, input=stdin, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
    return done.stdout


def _perl(value: float) -> str:
    """A number as text Perl reads back exactly (whole numbers stay integers, as in Perl)."""
    return str(value) if isinstance(value, int) else repr(float(value))


# Cases for the fixtures --------------------------------------------------------------------------

Groups = dict[str, list]


def prefko_cases(rng: random.Random) -> Groups:
    """Inputs [r1, r2, r3, s1, s2, s3, bula], by what they exercise."""
    groups: Groups = {"worked_example": [[1200, 1150, 1100, -500, 40, 460, 30]]}
    groups["random_papers"] = [_random_paper_game(rng) for _ in range(7000)]
    groups["random_wide_integers"] = [
        [
            *(rng.randint(0, 5000) for _ in range(3)),
            *(rng.randint(-5000, 5000) for _ in range(3)),
            rng.randint(1, 500),
        ]
        for _ in range(3000)
    ]
    groups["random_floats"] = [
        [
            *(rng.uniform(0, 3000) for _ in range(3)),
            *(rng.uniform(-3000, 3000) for _ in range(3)),
            rng.uniform(0.1, 200),
        ]
        for _ in range(2500)
    ]
    groups["random_decimals"] = [
        [
            *(round(rng.uniform(500, 1500), rng.randint(0, 3)) for _ in range(3)),
            *(round(rng.uniform(-1000, 1000), rng.randint(0, 2)) for _ in range(3)),
            rng.choice([0.3, 0.7, 1.5, 2.5, 12.5, 3, 7, 16, 30, 80, 400, 2000]),
        ]
        for _ in range(3000)
    ]
    groups["ties"] = [_tie_game(rng) for _ in range(1500)]
    groups["all_zero_scores"] = [
        [*_ratings(rng), 0, 0, 0, rng.choice([1, 10, 30, 50, 0.5, rng.uniform(0.1, 100)])]
        for _ in range(200)
    ]
    groups["negative_scores"] = [
        [*_ratings(rng), *(rng.randint(-2000, -1) for _ in range(3)), rng.randint(1, 100)]
        for _ in range(500)
    ]
    groups["d_on_half_thousandth"] = [_d_boundary_game(rng) for _ in range(2000)]
    groups["t_on_half_thousandth"] = [_t_boundary_game(rng) for _ in range(2000)]
    exact, noisy = _final_half_games(rng, want=1500)
    groups["final_exactly_half"] = exact
    groups["final_nearly_half"] = noisy
    groups["large_values"] = [
        [
            rng.choice([0, 1, 1e6, rng.uniform(0, 1e6)]),
            rng.uniform(-1e6, 1e6),
            rng.randint(0, 10**6),
            rng.randint(-(10**9), 10**9),
            rng.uniform(-1e9, 1e9),
            rng.choice([0, 10**9, -(10**9)]),
            rng.choice([1, 0.01, 1e4, 1e6, rng.randint(1, 10**6)]),
        ]
        for _ in range(500)
    ]
    groups["bula_extremes"] = [
        [*_ratings(rng), *_paper_scores(rng, 30), rng.choice([1, 0.01, 0.5, 1000, 10**4, 10**6])]
        for _ in range(500)
    ]
    return groups


def _ratings(rng: random.Random) -> list[float]:
    if rng.random() < 0.7:
        return [round(rng.gauss(1000, 120)) for _ in range(3)]
    return [rng.uniform(0, 3000) for _ in range(3)]


def _paper_scores(rng: random.Random, bula: int, ended: bool = True) -> list[int]:
    middles = [rng.randint(-2 * bula, 2 * bula) for _ in range(2)]
    middles.append(-sum(middles) if ended else rng.randint(-2 * bula, 2 * bula))
    papers = [(rng.randint(0, 60) * 2, m, rng.randint(0, 60) * 2) for m in middles]
    return [
        10 * middle - left - right + papers[(i + 1) % 3][0] + papers[(i - 1) % 3][2]
        for i, (left, middle, right) in enumerate(papers)
    ]


def _random_paper_game(rng: random.Random) -> list[float]:
    bula = rng.choice([10, 20, 30, 40, 50, 60, 80, 100])
    return [*_ratings(rng), *_paper_scores(rng, bula, ended=rng.random() < 0.9), bula]


def _tie_game(rng: random.Random) -> list[float]:
    bula = rng.choice([10, 20, 30, 50, rng.randint(1, 100), rng.uniform(0.5, 100)])
    score = rng.choice([rng.randint(-1000, 1000), rng.uniform(-1000, 1000), 0])
    other = rng.choice([rng.randint(-1000, 1000), rng.uniform(-1000, 1000), score])
    scores = [score, score, other]
    rng.shuffle(scores)
    return [*_ratings(rng), *scores, bula]


def _d_boundary_game(rng: random.Random) -> list[float]:
    """Score differences / bula ending in 5 at the 4th decimal (or just beside it in floats)."""
    bula = rng.choice([2000, 400, 80, 16, 2000, 400, 0.8, 0.4, 3.2, 6.4, 1.6])
    base = rng.randint(-3000, 3000)
    steps = [rng.randrange(-4001, 4001, 2) for _ in range(2)]
    if bula < 10:  # float bulas: differences with 4 decimals that do not divide exactly
        scores = [base, base + steps[0] * 0.0002, base + steps[1] * 0.0004]
    else:
        scores = [base, base + steps[0], base + steps[1]]
    rng.shuffle(scores)
    return [*_ratings(rng), *scores, bula]


def _t_boundary_game(rng: random.Random) -> list[float]:
    """Rating differences * 2.8 / 100 with a 5 in the 4th decimal (eighths and sixteenths)."""
    base = rng.randint(500, 2000)
    unit = rng.choice([0.125, 0.0625, 0.375, 0.025, 0.0125])
    ratings = [base, base + unit * rng.randint(-4000, 4000), base + unit * rng.randint(-4000, 4000)]
    rng.shuffle(ratings)
    bula = rng.choice([10, 20, 30, 50])
    return [*ratings, *_paper_scores(rng, bula), bula]


def _final_half_games(rng: random.Random, want: int) -> tuple[list, list]:
    """Games where some (Ci + Cj) / 2 is a half: exactly in floats, or only up to float noise.

    Candidates are picked with half-up rounding of D and T done here (what is recorded is the
    library's answer, whatever this search believed).
    """
    exact: list = []
    noisy: list = []
    while len(exact) < want or len(noisy) < want:
        bula = rng.choice([10, 20, 30, 40, 50, 60, 70, 100, 0.5, 1.5, 2.5])
        ratings = [
            1000 + 25 * rng.randint(-20, 20) + rng.choice([0, 0, 5, 10, 12.5]) for _ in range(3)
        ]
        scores = [bula * rng.randint(-60, 60) + rng.choice([0, 0, 1, 5]) for _ in range(3)]
        verdicts = [_half_verdict(v) for v in _float_halves(ratings, scores, bula)]
        if "noisy" in verdicts:
            target = noisy
        elif "exact" in verdicts:
            target = exact
        else:
            continue
        if len(target) < want:
            target.append([*ratings, *scores, bula])
    return exact, noisy


def _half_verdict(value: float) -> str | None:
    twice = round(value * 2)
    if twice % 2 == 0 or abs(value - twice / 2) > 1e-9:
        return None
    return "exact" if value == twice / 2 else "noisy"


def _half_up_3(value: float) -> float:
    return float(Decimal(repr(value)).quantize(Decimal("0.001"), rounding=ROUND_HALF_UP))


def _float_halves(ratings: list[float], scores: list[float], bula: float) -> list[float]:
    c = []
    for i, j in ((0, 1), (0, 2), (1, 2)):
        d = _half_up_3((scores[i] - scores[j]) / bula)
        t = _half_up_3((ratings[j] - ratings[i]) * 2.8 / 100)
        n = (bula if scores[i] > scores[j] else -bula if scores[i] < scores[j] else 0) / 100
        c.append(d + t + n)
    c12, c13, c23 = c
    return [(c12 + c13) / 2, (-c12 + c23) / 2, (-c13 + -c23) / 2]


def classic_cases(rng: random.Random) -> Groups:
    """Inputs [a, b, result, k, divisor]."""
    results = (0, 0.5, 1)
    groups: Groups = {"worked_example": [[2100, 1200, 0, 32, 400]]}
    groups["random_integers"] = [
        [
            rng.randint(800, 2800),
            rng.randint(800, 2800),
            rng.choice(results),
            rng.choice([10, 15, 16, 20, 24, 25, 32, 40]),
            400,
        ]
        for _ in range(10_000)
    ]
    groups["random_floats"] = [
        [
            rng.uniform(0, 3000),
            rng.uniform(0, 3000),
            rng.choice(results),
            rng.choice([32, rng.randint(1, 64), rng.uniform(1, 64)]),
            rng.choice([400, 400, 200, 173.5, rng.uniform(100, 1000)]),
        ]
        for _ in range(8000)
    ]
    groups["equal_ratings"] = [
        [r, r, rng.choice(results), rng.choice([16, 32, rng.uniform(1, 64)]), 400]
        for r in (rng.choice([rng.randint(0, 3000), rng.uniform(0, 3000)]) for _ in range(500))
    ]
    groups["gap_multiple_of_divisor"] = []
    for _ in range(600):
        divisor = rng.choice([400, 200, 100, 1])
        a = rng.randint(-1000, 3000)
        gap = divisor * rng.randint(-30, 30)
        groups["gap_multiple_of_divisor"].append(
            [a, a + gap, rng.choice(results), rng.choice([32, 20, 10]), divisor]
        )
    groups["huge_gaps_and_negative"] = [
        [
            rng.choice([0, -1500, rng.randint(-(10**6), 10**6), rng.uniform(-1e6, 1e6)]),
            rng.choice([3000, 10**6, rng.randint(-(10**6), 10**6), rng.uniform(-1e7, 1e7)]),
            rng.choice(results),
            rng.choice([32, 16.5]),
            rng.choice([400, 1, 0.5]),
        ]
        for _ in range(400)
    ]
    return groups


FIDE_OPTION_KEYS = (
    "k", "kA", "kB", "gamesA", "gamesB", "ageA", "ageB",
    "everHigher2400A", "everHigher2400B", "isBlitz", "isRapid",
)  # fmt: skip


def fide_update_cases(rng: random.Random) -> Groups:
    """Inputs [a, b, result, options or None]; options hold only the keys that are given."""
    results = (0, 0.5, 1)
    groups: Groups = {
        "worked_examples": [
            [1400, 1400, 1, None],
            [1400, 1400, 1, {"ageA": 15}],
            [1400, 1400, 1, {"gamesA": 10}],
        ]
    }
    groups["random_plain"] = [
        [rng.randint(1000, 2800), rng.randint(1000, 2800), rng.choice(results), None]
        for _ in range(6000)
    ]
    groups["random_options"] = [
        [rng.randint(800, 2900), rng.randint(800, 2900), rng.choice(results), _fide_options(rng)]
        for _ in range(14_000)
    ]
    groups["random_floats"] = [
        [
            rng.uniform(0, 3000),
            rng.uniform(0, 3000),
            rng.choice(results),
            _fide_options(rng, floats=True),
        ]
        for _ in range(3000)
    ]
    groups["cap_400"] = []
    for _ in range(2000):
        a = rng.choice([rng.randint(800, 2800), rng.uniform(800, 2800)])
        gap = rng.choice([399, 399.5, 400, 400.5, 401, 800, 2000, 399.99999999, 400.00000001])
        gap *= rng.choice([1, -1])
        groups["cap_400"].append([a, a + gap, rng.choice(results), _fide_options(rng)])
    groups["halves_before_rounding"] = []
    for _ in range(1500):
        # Equal ratings give expected 0.5, so an odd K makes both new ratings land on x.5.
        a = rng.choice([rng.randint(-3000, 3000), rng.randint(-5, 5), rng.randint(1000, 2800)])
        k = rng.choice([1, 3, 5, 7, 11, 21, 41, rng.randrange(1, 81, 2), 0.5, 2.5])
        options = rng.choice(
            [{"k": k}, {"kA": k, "kB": k}, {"kA": k, "kB": rng.randrange(1, 9, 2)}]
        )
        groups["halves_before_rounding"].append([a, a, rng.choice((0, 1)), options])
    groups["k_rules"] = []
    for _ in range(4000):
        options = {}
        for side in "AB":
            for key, values in (
                ("games", [None, 0, 1, 30, 31, 32, 100]),
                ("age", [None, 0, 10, 17, 18, 30]),
                ("everHigher2400", [None, False, True]),
            ):
                value = rng.choice(values)
                if value is not None:
                    options[key + side] = value
        for key in ("isBlitz", "isRapid"):
            value = rng.choice([None, None, False, True])
            if value is not None:
                options[key] = value
        for key in ("k", "kA", "kB"):
            if rng.random() < 0.15:
                options[key] = rng.choice([10, 20, 40, 16, 1, 0.5])
        a = rng.choice([1000, 2299, 2300, 2399, 2399.5, 2400, 2401, 2600])
        b = rng.choice([1000, 2299, 2300, 2399, 2399.5, 2400, 2401, 2600])
        groups["k_rules"].append([a, b, rng.choice(results), options])
    return groups


def _fide_options(rng: random.Random, floats: bool = False) -> dict:
    options: dict = {}
    for side in "AB":
        if rng.random() < 0.5:
            options["games" + side] = rng.randint(0, 60) if not floats else rng.uniform(0, 60)
        if rng.random() < 0.4:
            options["age" + side] = rng.randint(5, 80) if not floats else rng.uniform(5, 80)
        if rng.random() < 0.3:
            options["everHigher2400" + side] = rng.random() < 0.5
    for key in ("isBlitz", "isRapid"):
        if rng.random() < 0.15:
            options[key] = rng.random() < 0.5
    for key in ("k", "kA", "kB"):
        if rng.random() < 0.1:
            options[key] = (
                rng.choice([10, 20, 40, rng.randint(1, 60)]) if not floats else (rng.uniform(1, 60))
            )
    return options


def fide_k_cases(rng: random.Random) -> Groups:
    """kFactor options (rating always given)."""
    rules = []
    for rating in (0, 1000, 2299, 2299.5, 2300, 2399, 2399.99, 2400, 2401, 2600):
        for games in (None, 0, 1, 30, 30.5, 31, 32, 100):
            for age in (None, 0, 10, 17, 17.9, 18, 30):
                for ever in (None, False, True):
                    for blitz, rapid in (
                        (None, None),
                        (True, None),
                        (None, True),
                        (True, True),
                        (False, False),
                    ):
                        given = {
                            "rating": rating,
                            "games": games,
                            "age": age,
                            "everHigher2400": ever,
                            "isBlitz": blitz,
                            "isRapid": rapid,
                        }
                        rules.append({k: v for k, v in given.items() if v is not None})
    randoms = []
    for _ in range(5000):
        options = {"rating": rng.choice([rng.randint(0, 3000), rng.uniform(0, 3000)])}
        for key, make in (
            ("games", lambda: rng.choice([rng.randint(0, 100), rng.uniform(0, 100)])),
            ("age", lambda: rng.choice([rng.randint(0, 90), rng.uniform(0, 90)])),
            ("everHigher2400", lambda: rng.random() < 0.5),
            ("isBlitz", lambda: rng.random() < 0.5),
            ("isRapid", lambda: rng.random() < 0.5),
        ):
            if rng.random() < 0.5:
                options[key] = make()
        randoms.append(options)
    return {"rules": rules, "random": randoms}


def fide_expected_cases(rng: random.Random) -> Groups:
    """Pairs [a, b]."""
    cap = []
    for _ in range(1500):
        a = rng.choice([rng.randint(0, 3000), rng.uniform(0, 3000)])
        gap = rng.choice([399, 399.9999999, 400, 400.0000001, 401, 1000, 10**6, 0, 0.5])
        cap.append([a, a + gap * rng.choice([1, -1])])
    return {
        "random_integers": [[rng.randint(0, 3000), rng.randint(0, 3000)] for _ in range(6000)],
        "random_floats": [[rng.uniform(0, 3000), rng.uniform(0, 3000)] for _ in range(6000)],
        "every_integer_gap": [[1500, 1500 + gap] for gap in range(-401, 402)],
        "cap_400": cap,
    }


# Running the libraries on the cases --------------------------------------------------------------


def run_prefko(refs: References, groups: Groups) -> Groups:
    return _per_group(groups, refs.prefko)


def run_classic(refs: References, groups: Groups) -> Groups:
    return _per_group(groups, refs.classic)


def run_fide_update(refs: References, groups: Groups) -> Groups:
    def run(cases: list) -> list:
        answers = refs.fide([["update", *case] for case in cases])
        return [_fide_update_row(case, answer) for case, answer in zip(cases, answers, strict=True)]

    return _per_group(groups, run)


def _fide_update_row(case: list, answer: list[int]) -> list:
    a, b, result, options = case
    options = options or {}
    return [a, b, result, *(options.get(key) for key in FIDE_OPTION_KEYS), *answer]


def run_fide_k(refs: References, groups: Groups) -> Groups:
    keys = ("rating", "games", "age", "everHigher2400", "isBlitz", "isRapid")

    def run(cases: list) -> list:
        answers = refs.fide([["kFactor", case] for case in cases])
        return [
            [*(case.get(key) for key in keys), k] for case, k in zip(cases, answers, strict=True)
        ]

    return _per_group(groups, run)


def run_fide_expected(refs: References, groups: Groups) -> Groups:
    def run(cases: list) -> list:
        answers = refs.fide([["expected", a, b] for a, b in cases])
        return [[a, b, e] for (a, b), e in zip(cases, answers, strict=True)]

    return _per_group(groups, run)


def _per_group(groups: Groups, run: Callable[[list], list]) -> Groups:
    names = list(groups)
    flat = [case for name in names for case in groups[name]]
    rows = run(flat)
    out: Groups = {}
    start = 0
    for name in names:
        out[name] = rows[start : start + len(groups[name])]
        start += len(groups[name])
    return out


# Fixtures ----------------------------------------------------------------------------------------

FIXTURE_SPECS = {
    "prefko": (
        "npm preferans-rating-js 2.4.5: new PrefRating(p1, p2, p3, bula).rating, with the "
        "module's private D/T/N terms",
        [
            "rating1",
            "rating2",
            "rating3",
            "score1",
            "score2",
            "score3",
            "bula",
            "d12",
            "d13",
            "d23",
            "t12",
            "t13",
            "t23",
            "n12",
            "n13",
            "n23",
            "c12",
            "c13",
            "c23",
            "change1",
            "change2",
            "change3",
        ],
    ),
    "elo_classic": (
        "Perl Chess::Elo 1.0a: local $Chess::Elo::factor = k, $Chess::Elo::divisor = divisor; "
        "elo(a, result, b); printed with %.17g",
        ["a", "b", "result", "k", "divisor", "new_a", "new_b"],
    ),
    "fide_update": (
        "npm @echecs/elo 1.0.2: update(a, b, result) when no option is given, else "
        "update(a, b, {result, ...options}); null = option not given",
        ["a", "b", "result", *FIDE_OPTION_KEYS, "new_a", "new_b"],
    ),
    "fide_k_factor": (
        "npm @echecs/elo 1.0.2: kFactor({rating, ...}); null = not given",
        ["rating", "games", "age", "everHigher2400", "isBlitz", "isRapid", "k"],
    ),
    "fide_expected": (
        "npm @echecs/elo 1.0.2: expected(a, b)",
        ["a", "b", "expected"],
    ),
}


def write_fixture(name: str, groups: Groups, refs: References, command: str) -> Path:
    source, fields = FIXTURE_SPECS[name]
    document = {
        "source": source,
        "versions": refs.versions,
        "generated_by": command,
        "fields": fields,
        "groups": groups,
    }
    text = json.dumps(document, separators=(",", ":"), allow_nan=False) + "\n"
    FIXTURES.mkdir(parents=True, exist_ok=True)
    plain = FIXTURES / f"{name}.json"
    packed = FIXTURES / f"{name}.json.gz"
    if len(text) > GZIP_OVER_BYTES:
        buffer = io.BytesIO()
        # mtime=0 and no file name: the same vectors always give the same bytes.
        with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0, filename="") as stream:
            stream.write(text.encode())
        packed.write_bytes(buffer.getvalue())
        plain.unlink(missing_ok=True)
        return packed
    plain.write_text(text)
    packed.unlink(missing_ok=True)
    return plain


def generate(refs: References, seed: int) -> None:
    command = f"python3 scripts/vectors/prefko_elo.py generate --seed {seed}"
    makers = [
        ("prefko", prefko_cases, run_prefko),
        ("elo_classic", classic_cases, run_classic),
        ("fide_update", fide_update_cases, run_fide_update),
        ("fide_k_factor", fide_k_cases, run_fide_k),
        ("fide_expected", fide_expected_cases, run_fide_expected),
    ]
    for offset, (name, make_cases, run) in enumerate(makers):
        rng = random.Random(seed * 10 + offset)
        groups = run(refs, make_cases(rng))
        path = write_fixture(name, groups, refs, command)
        counts = ", ".join(f"{group} {len(rows)}" for group, rows in groups.items())
        total = sum(len(rows) for rows in groups.values())
        print(f"{path.relative_to(REPO)}: {total} vectors ({counts}), {path.stat().st_size} bytes")


# Fresh random comparison --------------------------------------------------------------------------


def compare(refs: References, seed: int, count: int) -> int:
    """Run fresh random cases through the libraries and ratings.algorithms; count disagreements."""
    sys.path.insert(0, str(REPO))
    from ratings.algorithms import elo, preferans

    rng = random.Random(seed)
    total_bad = 0

    def report(name: str, rows: Iterable, check: Callable[[list], bool]) -> None:
        nonlocal total_bad
        rows = list(rows)
        bad = [row for row in rows if not check(row)]
        total_bad += len(bad)
        print(f"{name}: {len(rows)} fresh cases, {len(bad)} disagreements")
        for row in bad[:10]:
            print("   ", json.dumps(row))

    prefko_in = [_fresh_prefko(rng) for _ in range(count)]
    report(
        "prefko rating_terms", refs.prefko(prefko_in), lambda row: _prefko_agrees(preferans, row)
    )

    classic_in = [_fresh_classic(rng) for _ in range(count)]

    def classic_agrees(row: list) -> bool:
        a, b, result, k, divisor, new_a, new_b = row
        return elo.classic(a, b, result, k=k, divisor=divisor) == (new_a, new_b)

    report("elo.classic", refs.classic(classic_in), classic_agrees)

    # @echecs/elo's unrounded expected scores are node's Math.pow to the last bit, and the app's
    # pow is Python's: compare with node's, as tests/algorithms/test_elo.py does (which also shows
    # that the two pows never give a different whole-number rating).
    from tests.algorithms.v8_pow import v8_pow

    elo._pow10 = lambda exponent: v8_pow(10.0, exponent)

    update_in = [_fresh_fide_update(rng) for _ in range(count)]
    answers = refs.fide([["update", *case] for case in update_in])
    rows = [_fide_update_row(c, a) for c, a in zip(update_in, answers, strict=True)]
    report("elo.fide", rows, lambda row: fide_row_agrees(elo, row))

    k_in = [_fresh_k_options(rng) for _ in range(count)]
    answers = refs.fide([["kFactor", case] for case in k_in])

    def k_agrees(pair: list) -> bool:
        options, k = pair
        return elo.fide_k_factor(
            options["rating"], games=options.get("games"), age=options.get("age"),
            ever_2400=bool(options.get("everHigher2400")), blitz=bool(options.get("isBlitz")),
            rapid=bool(options.get("isRapid")),
        ) == k  # fmt: skip

    report("elo.fide_k_factor", zip(k_in, answers, strict=True), lambda p: k_agrees(list(p)))

    expected_in = [_fresh_pair(rng) for _ in range(count)]
    answers = refs.fide([["expected", a, b] for a, b in expected_in])
    rows = [[a, b, e] for (a, b), e in zip(expected_in, answers, strict=True)]
    report(
        "elo.fide_expected", rows, lambda row: elo.fide_expected(row[0], row[1]) == float(row[2])
    )
    print(f"total disagreements: {total_bad}")
    return 1 if total_bad else 0


def _prefko_agrees(preferans, row: list) -> bool:
    inputs = row[:7]
    terms = preferans.rating_terms(inputs[0:3], inputs[3:6], inputs[6])
    got = [*terms.d, *terms.t, *terms.n, *terms.c, *terms.changes]
    # float(): JSON writes a whole-valued double as an integer, exact only below 2**53.
    return got == [*map(float, row[7:19]), *row[19:22]]


def fide_row_agrees(elo, row: list) -> bool:
    a, b, result, k, k_a, k_b, games_a, games_b, age_a, age_b, ever_a, ever_b, blitz, rapid = row[
        :14
    ]
    got = elo.fide(
        a, b, result, k=k, k_a=k_a, k_b=k_b, games_a=games_a, games_b=games_b, age_a=age_a,
        age_b=age_b, ever_2400_a=bool(ever_a), ever_2400_b=bool(ever_b), blitz=bool(blitz),
        rapid=bool(rapid),
    )  # fmt: skip
    return list(got) == row[14:]


def _fresh_prefko(rng: random.Random) -> list[float]:
    def rating() -> float:
        return rng.uniform(0, 3000) if rng.random() < 0.6 else rng.randint(0, 3000)

    def score() -> float:
        roll = rng.random()
        if roll < 0.4:
            return rng.uniform(-1e5, 1e5)
        if roll < 0.8:
            return rng.randint(-100_000, 100_000)
        return round(rng.uniform(-5000, 5000), rng.randint(0, 4))

    scores = [score() for _ in range(3)]
    if rng.random() < 0.05:
        scores[rng.randrange(3)] = scores[rng.randrange(3)]
    bula = rng.choice([rng.uniform(0.5, 500), rng.randint(1, 200), round(rng.uniform(0, 100), 1)])
    return [rating(), rating(), rating(), *scores, bula or 1]


def _fresh_classic(rng: random.Random) -> list[float]:
    return [
        rng.uniform(0, 3000), rng.uniform(0, 3000), rng.choice((0, 0.5, 1)),
        rng.choice([rng.uniform(1, 100), rng.randint(1, 64)]),
        rng.choice([400, rng.uniform(50, 1000)]),
    ]  # fmt: skip


def _fresh_fide_update(rng: random.Random) -> list:
    a, b = _fresh_pair(rng)
    options = _fide_options(rng, floats=rng.random() < 0.5)
    return [a, b, rng.choice((0, 0.5, 1)), options or (None if rng.random() < 0.5 else {})]


def _fresh_k_options(rng: random.Random) -> dict:
    options = {"rating": rng.uniform(0, 3000)}
    if rng.random() < 0.6:
        options["games"] = rng.choice([rng.randint(0, 60), rng.uniform(0, 60)])
    if rng.random() < 0.6:
        options["age"] = rng.choice([rng.randint(0, 40), rng.uniform(0, 40)])
    for key in ("everHigher2400", "isBlitz", "isRapid"):
        if rng.random() < 0.4:
            options[key] = rng.random() < 0.5
    return options


def _fresh_pair(rng: random.Random) -> list[float]:
    a = rng.uniform(0, 3000)
    return [a, rng.choice([rng.uniform(0, 3000), a + rng.uniform(-500, 500)])]


# Command line ------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", nargs="?", default="generate", choices=["generate", "compare"])
    parser.add_argument("--scratch", default=DEFAULT_SCRATCH, help="where the libraries go")
    parser.add_argument("--chess-elo-source", help="a text with Chess::Elo's source, to check")
    parser.add_argument("--seed", type=int, help="random seed (generate: the fixtures' seed)")
    parser.add_argument("--count", type=int, default=200_000, help="compare: cases per function")
    args = parser.parse_args(argv)
    refs = References(Path(args.scratch), args.chess_elo_source)
    if args.mode == "generate":
        generate(refs, GENERATE_SEED if args.seed is None else args.seed)
        return 0
    return compare(refs, 7 if args.seed is None else args.seed, args.count)


if __name__ == "__main__":
    sys.exit(main())
