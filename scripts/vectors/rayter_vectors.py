#!/usr/bin/env python3
"""Make the Rayter reference vectors by running PyPI rayter 2.1.0 itself.

    python3 scripts/vectors/rayter_vectors.py              # write the fixtures
    python3 scripts/vectors/rayter_vectors.py --check      # fresh differential check, no writes

Any python3 will do: the script installs ``rayter==2.1.0`` into a scratch virtualenv outside
the project (``$RAYTER_REF_VENV``, default ``/tmp/rayter-ref``) when it is missing, and runs
itself again with that interpreter. The project never imports rayter; the tests read only the
fixtures written here, in ``tests/algorithms/vectors/``:

- ``rayter_rate_single_game.json.gz``: random calls of ``rayter.rater.rate_single_game`` and
  what it returned (floats as JSON numbers, which round-trip exactly; ints stay ints).
- ``rayter_cli.json.gz``: random rayter files, what the ``rayter FILE`` and
  ``rayter -m json FILE`` commands printed for them, and the unrounded ratings and deltas
  behind that (from rayter's ``Rater``); the worked example included, and files with players
  of exactly equal ratings (rayter lists them in the order they first appear in the file).
- ``rayter_worked_example.txt``: the worked example, two games of four players.

``--check`` compares ``ratings/algorithms/rayter.py`` and ``rayter_format.py`` (with the tests'
model of the command's bookkeeping, ``tests/algorithms/rayter_reference.py``) with rayter on
fresh cases from another seed and another distribution (``--seed``, ``--cases``, ``--files``)
and exits 1 on any disagreement.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

RAYTER_VERSION = "2.1.0"
PROJECT = Path(__file__).resolve().parents[2]
VECTORS = PROJECT / "tests" / "algorithms" / "vectors"
VENV = Path(os.environ.get("RAYTER_REF_VENV", "/tmp/rayter-ref"))
FIXTURE_SEED = 20240004
CASES = 30_000
SCORE_TYPES = ["highscore", "lowscore", "winnertakesall"]

# Equal ratings, in files whose first-appearance order is not the names' order: after a game of
# winner takes all every loser ties, and two games of two give two pairs of ties.
TIE_FILES = [
    (
        "rayter_ties_winner.txt",
        "score_type winnertakesall\n\ngame 2026-01-09 20:00\nZoë 1\nMika 0\nAnna 0\nLars 0\n",
    ),
    (
        "rayter_ties_pairs.txt",
        "score_type winnertakesall\n\ngame 2026-01-09 20:00\nZoran 1\nYana 0\n"
        "\ngame 2026-01-09 21:00\nXenia 1\nWim 0\n",
    ),
    (
        "rayter_ties_lowscore.txt",
        "score_type lowscore\n\ngame 2026-01-09 20:00\nPetar 12\nIva 12\nBoris 5\nAna 12\n"
        "\ngame 2026-01-10 20:00\nDejan 3\nCeca 3\n",
    ),
]
TIE_SEED = FIXTURE_SEED + 1

WORKED_EXAMPLE_NAME = "rayter_worked_example.txt"
WORKED_EXAMPLE_FILE = """\
game 2011-12-24 23:19
Dahlia        27
John          15
Ahmed         14
Lei           10

game 2011-12-25 21:12
John          23
Dahlia        10
Lei           4
Ahmed         4
"""

# Names rayter reads as one word ([\w+-]+): accents, other scripts, digits, '+', '-', '_', and
# some longer than the 15 characters of the CLI's name column.
NAME_PARTS = [
    "Anna", "Björn", "Łukasz", "Zoë", "Ørjan", "José", "Ģirts", "Иван", "Σοφία", "李雷",
    "محمد", "Nguyễn", "Åsa", "Chloé", "Dahlia", "John", "Ahmed", "Lei", "Ödön", "Şule",
    "Kwame", "Ǆemal", "Ἀλέξανδρος", "Hafþór", "Ñandú", "Jürgen", "Małgorzata", "Pál",
]  # fmt: skip
NAME_SUFFIXES = ["", "", "", "", "_2", "-K", "+1", "Maria", "_von_Bergensteinhausen", "3"]


def main() -> None:
    options = arguments()
    if not has_reference_rayter():
        if os.environ.get("RAYTER_VECTORS_REEXEC"):
            sys.exit(f"rayter=={RAYTER_VERSION} is still missing from {sys.executable}")
        python = reference_python()
        os.environ["RAYTER_VECTORS_REEXEC"] = "1"
        os.execv(python, [python, str(Path(__file__).resolve()), *sys.argv[1:]])
    if options.check:
        sys.exit(check(options.seed, options.cases, options.files))
    write_fixtures()


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="differential check, no writes")
    parser.add_argument("--seed", type=int, default=7_000_003)
    parser.add_argument("--cases", type=int, default=200_000)
    parser.add_argument("--files", type=int, default=20)
    return parser.parse_args()


def has_reference_rayter() -> bool:
    from importlib import metadata

    try:
        return metadata.version("rayter") == RAYTER_VERSION
    except metadata.PackageNotFoundError:
        return False


def reference_python() -> str:
    python = VENV / "bin" / "python"
    probe = f"import importlib.metadata as m; assert m.version('rayter') == '{RAYTER_VERSION}'"
    found = python.exists() and subprocess.run([python, "-c", probe], stderr=subprocess.DEVNULL)
    if found and found.returncode == 0:
        return str(python)
    print(f"installing rayter=={RAYTER_VERSION} into {VENV}", file=sys.stderr)
    subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", f"rayter=={RAYTER_VERSION}"], check=True
    )
    return str(python)


# rate_single_game cases ---------------------------------------------------------------------------


def random_scores(rng: random.Random, n: int) -> list:
    kind = rng.choice(
        [
            "small", "small", "hearts", "signed", "negative", "large", "huge_int", "float",
            "float", "decimals", "mixed", "zeros", "equal", "ties", "one_nonzero", "binary",
            "winner", "tiny_float",
        ]
    )  # fmt: skip
    if kind == "small":
        return [rng.randint(0, 30) for _ in range(n)]
    if kind == "hearts":
        return [rng.randint(0, 130) for _ in range(n)]
    if kind == "signed":
        return [rng.randint(-50, 50) for _ in range(n)]
    if kind == "negative":
        return [rng.randint(-500, -1) for _ in range(n)]
    if kind == "large":
        return [rng.randint(-(10**6), 10**9) for _ in range(n)]
    if kind == "huge_int":
        return [rng.randint(-(10**15) + 1, 10**15 - 1) for _ in range(n)]
    if kind == "float":
        return [rng.uniform(-100, 100) for _ in range(n)]
    if kind == "decimals":
        return [round(rng.uniform(-20, 200), rng.choice([1, 2])) for _ in range(n)]
    if kind == "mixed":
        return [rng.choice([rng.randint(-20, 40), rng.uniform(-20, 40)]) for _ in range(n)]
    if kind == "zeros":
        return [rng.choice([0, 0.0]) for _ in range(n)]
    if kind == "equal":
        value = rng.choice([7, -3, 0.5, 100, -12.25])
        return [value] * n
    if kind == "ties":
        pool = [rng.randint(-10, 20) for _ in range(2)]
        return [rng.choice(pool) for _ in range(n)]
    if kind == "one_nonzero":
        scores = [0] * n
        scores[rng.randrange(n)] = rng.choice([1, 5, -5, 2.5])
        return scores
    if kind == "binary":
        return [rng.randint(0, 1) for _ in range(n)]
    if kind == "winner":
        scores = [0] * n
        scores[rng.randrange(n)] = 1
        return scores
    return [rng.uniform(-1e-6, 1e-6) for _ in range(n)]


def random_ratings(rng: random.Random, n: int) -> list:
    kind = rng.choice(
        ["start", "start_float", "walk", "walk", "spread", "ints", "near_zero", "large",
         "tiny", "mixed", "negative"]
    )  # fmt: skip
    if kind == "start":
        return [1000] * n
    if kind == "start_float":
        return [1000.0] * n
    if kind == "walk":
        # Ratings as a league produces them: 1000 plus many unrounded changes.
        return [
            1000 + sum(rng.uniform(-40, 40) for _ in range(rng.randint(1, 30))) for _ in range(n)
        ]
    if kind == "spread":
        return [rng.uniform(500, 1600) for _ in range(n)]
    if kind == "ints":
        return [rng.randint(0, 3000) for _ in range(n)]
    if kind == "near_zero":
        return [rng.choice([0.0, 0, rng.uniform(0, 1e-3), rng.uniform(0, 1)]) for _ in range(n)]
    if kind == "large":
        return [rng.uniform(1e6, 1e12) for _ in range(n)]
    if kind == "tiny":
        return [rng.choice([5e-324, 1e-310, 1e-300, rng.uniform(0, 1e-200)]) for _ in range(n)]
    if kind == "mixed":
        return [rng.choice([1000, rng.uniform(0, 1e4), rng.uniform(1e6, 1e9)]) for _ in range(n)]
    return [rng.uniform(-1000, 1000) for _ in range(n)]


def random_call(rng: random.Random) -> tuple[str | None, float | None, list, list]:
    n = rng.randint(2, 10)
    score_type = rng.choice([None, *SCORE_TYPES, *SCORE_TYPES])
    k = None
    if rng.random() < 0.25:
        k = rng.choice([0.05, 0.02, 0.0, 1.0, 0, 1, rng.random(), rng.uniform(0, 0.1)])
    return score_type, k, random_scores(rng, n), random_ratings(rng, n)


def edge_calls() -> list[tuple[str | None, float | None, list, list]]:
    """Hand-picked cases: the README's example, all-zero, ties, negatives, the worked example."""
    worked_example_game_1 = [27, 15, 14, 10]
    return [
        (None, None, [100, 93, 74], [1889, 1400, 1662]),
        ("highscore", None, [100, 93, 74], [1889, 1400, 1662]),
        ("highscore", None, worked_example_game_1, [1000, 1000, 1000, 1000]),
        ("lowscore", None, worked_example_game_1, [1000, 1000, 1000, 1000]),
        ("winnertakesall", None, [1, 0], [1000, 1000]),
        ("winnertakesall", None, [0, 0, 0], [1200, 1000, 800]),
        ("highscore", None, [0, 0], [1000.0, 1000.0]),
        ("lowscore", None, [0, 0, 0, 0], [1100, 900, 1000, 1000]),
        ("highscore", None, [-5, -5, -5], [900, 1000, 1100]),
        ("lowscore", None, [-10, 0, 10], [1000, 1000, 1000]),
        ("highscore", None, [-3, 4, 0.5, -3], [1000.5, 999.25, 1001, 999.25]),
        ("highscore", 0, [3, 1], [1000, 1000]),
        ("highscore", 1, [3, 1], [1000, 1000]),
        ("highscore", 0.0, [0, 5], [-1.0, 0.0]),
        ("lowscore", None, [5, 5], [0, 0]),
        ("highscore", None, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [1000] * 10),
    ]


def rayter_call(rate_single_game, call: tuple) -> list[float]:
    score_type, k, scores, ratings = call
    keywords = {}
    if score_type is not None:
        keywords["score_type"] = score_type
    if k is not None:
        keywords["K"] = k
    return rate_single_game(list(scores), list(ratings), **keywords)


# Random rayter files ------------------------------------------------------------------------------


def random_names(rng: random.Random, count: int) -> list[str]:
    names: list[str] = []
    while len(names) < count:
        name = rng.choice(NAME_PARTS) + rng.choice(NAME_SUFFIXES)
        if name not in names:
            names.append(name)
    return names


def random_file(
    rng: random.Random, *, games: int, players: int, score_type: str | None, shuffled: float
) -> str:
    """A rayter file both rayter and our parser read alike (no errors either side)."""
    names = random_names(rng, players)
    # Some players play often, some rarely; none sits out for 900+ games and then plays the last
    # one, which overflows rayter's recursive rating look-up (see the report in the module).
    weights = [rng.choice([1, 1, 2, 4, 8]) for _ in names]
    times = []
    minute = rng.randint(0, 10**6)
    for _ in range(games):
        minute += rng.choice([0, 30, 60, 90, 600, 1440, 2000])
        times.append(minute)
    if shuffled:
        for i in range(len(times)):
            if rng.random() < shuffled:
                j = rng.randrange(len(times))
                times[i], times[j] = times[j], times[i]
    lines = [f"# random rayter file, {games} games, {players} players"]
    if score_type is not None:
        lines.append(f"score_type{rng.choice([' ', '  ', chr(9)])}{score_type}")
    if rng.random() < 0.5:
        lines.append(f"game_name {rng.choice(['Hearts', 'Kille & co', 'Ýatzy 2000', 'Go'])}")
    sep = rng.choice(["\n", "\n", "\r\n"])
    last_seen = {name: 0 for name in names}
    for index, minute in enumerate(times, start=1):
        count = rng.randint(2, min(players, 10))
        chosen: list[str] = []
        while len(chosen) < count:
            name = rng.choices(names, weights)[0]
            if name not in chosen:
                chosen.append(name)
        if index == games:
            chosen = [name for name in chosen if index - last_seen[name] < 900] or chosen
            if len(chosen) < 2:
                chosen = sorted(names, key=lambda name: -last_seen[name])[:2]
        for name in chosen:
            last_seen[name] = index
        stamp = minutes_to_time(minute, rng.choice([":", ":", "."]))
        lines.append("")
        if rng.random() < 0.05:
            lines.append(f"# game {index}")
        lines.append(f"game{rng.choice([' ', '  ', chr(9)])}{stamp}")
        for name in chosen:
            score = file_score(rng, score_type, len(chosen))
            lines.append(f"{name}{rng.choice([' ', '   ', chr(9), ' ' * 12])}{score}")
        if score_type == "winnertakesall":
            # One winner with 1, everyone else 0 (sometimes a shared win).
            body = lines[-len(chosen) :]
            winners = rng.sample(range(len(chosen)), rng.choice([1, 1, 1, 2]))
            lines[-len(chosen) :] = [
                f"{line.rsplit(None, 1)[0]} {1 if i in winners else 0}"
                for i, line in enumerate(body)
            ]
    return sep.join(lines) + sep


def file_score(rng: random.Random, score_type: str | None, players: int) -> int:
    if score_type == "lowscore":
        return rng.choice([rng.randint(0, 130), rng.randint(0, 26), rng.randint(-30, 150)])
    return rng.choice([rng.randint(0, 40), rng.randint(-20, 60), rng.randint(0, 1000), 0])


def minutes_to_time(minute: int, separator: str) -> str:
    from datetime import datetime, timedelta

    moment = datetime(2005, 1, 1) + timedelta(minutes=minute)
    return moment.strftime(f"%Y-%m-%d %H{separator}%M")


def run_cli(folder: Path, file_name: str) -> tuple[str, str]:
    rayter = Path(sys.executable).parent / "rayter"
    env = {**os.environ, "PYTHONUTF8": "1", "PYTHONIOENCODING": "utf-8"}
    outputs = []
    for mode in ([], ["-m", "json"]):
        done = subprocess.run(
            [str(rayter), *mode, file_name], cwd=folder, env=env, capture_output=True
        )
        if done.returncode != 0 or done.stderr:
            raise RuntimeError(f"rayter failed on {file_name}: {done.stderr.decode()[-500:]}")
        outputs.append(done.stdout.decode("utf-8"))
    return outputs[0], outputs[1]


def cli_record(folder: Path, file_name: str, content: str) -> dict:
    """The command's two outputs, and the unrounded standings behind them."""
    (folder / file_name).write_bytes(content.encode("utf-8"))
    text, as_json = run_cli(folder, file_name)
    for complaint in ("Syntax error", "Spurious score"):
        if complaint in text:
            raise RuntimeError(f"rayter refused a line of {file_name}: {text[:300]}")
    return {
        "name": file_name,
        "content": content,
        "text": text,
        "json": as_json,
        "standings": unrounded_standings(folder / file_name),
    }


def unrounded_standings(path: Path) -> list[list]:
    """[name, games, rating, delta] as rayter's Rater has them before the command rounds them."""
    from rayter.game_parser import GamesParser
    from rayter.rater import Rater

    with open(path, encoding="utf-8") as lines:
        parser = GamesParser(lines, path.name)
        games = parser.parse_file()
    rater = Rater(games)
    table = rater.rate_games(parser.score_type)
    players = rater.players
    return [
        [name, count, players[name].get_rating(), players[name].get_rating_change(len(games))]
        for name, count, _rating, _delta in table
    ]


# Writing the fixtures -----------------------------------------------------------------------------


def write_fixtures() -> None:
    from rayter.rater import rate_single_game

    rng = random.Random(FIXTURE_SEED)
    calls = edge_calls() + [random_call(rng) for _ in range(CASES)]
    cases = [[*call, rayter_call(rate_single_game, call)] for call in calls]
    write_json_gz(
        VECTORS / "rayter_rate_single_game.json.gz",
        {
            "source": f"rayter=={RAYTER_VERSION} rayter.rater.rate_single_game",
            "made_by": "scripts/vectors/rayter_vectors.py",
            "seed": FIXTURE_SEED,
            "fields": "score_type (null: not passed), K (null: not passed), scores, ratings,"
            " rating changes",
            "cases": cases,
        },
    )

    specs = [
        ("rayter_random_1.txt", dict(games=300, players=3, score_type=None, shuffled=0)),
        ("rayter_random_2.txt", dict(games=1200, players=12, score_type="lowscore", shuffled=0)),
        ("rayter_random_3.txt", dict(games=2500, players=40, score_type="highscore", shuffled=0.1)),
        (
            "rayter_random_4.txt",
            dict(games=800, players=8, score_type="winnertakesall", shuffled=0),
        ),
        ("rayter_random_5.txt", dict(games=3000, players=25, score_type="lowscore", shuffled=0.3)),
    ]
    (VECTORS / WORKED_EXAMPLE_NAME).write_text(WORKED_EXAMPLE_FILE, encoding="utf-8")
    with tempfile.TemporaryDirectory() as folder:
        records = [cli_record(Path(folder), WORKED_EXAMPLE_NAME, WORKED_EXAMPLE_FILE)]
        for name, spec in specs:
            records.append(cli_record(Path(folder), name, random_file(rng, **spec)))
        for name, content in TIE_FILES:
            records.append(cli_record(Path(folder), name, content))
        # Short files of winner takes all, many players: mostly ties (their own seed, so the
        # files above stay as they were).
        tie_rng = random.Random(TIE_SEED)
        for index in range(1, 4):
            spec = dict(games=index * 2, players=12, score_type="winnertakesall", shuffled=0)
            name = f"rayter_ties_random_{index}.txt"
            records.append(cli_record(Path(folder), name, random_file(tie_rng, **spec)))
    write_json_gz(
        VECTORS / "rayter_cli.json.gz",
        {
            "source": f"rayter=={RAYTER_VERSION}: `rayter NAME` and `rayter -m json NAME`",
            "made_by": "scripts/vectors/rayter_vectors.py",
            "seed": FIXTURE_SEED,
            "files": records,
        },
    )
    print(f"{len(cases)} rate_single_game cases, {len(records)} files -> {VECTORS}")


def write_json_gz(path: Path, data: dict) -> None:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    # mtime=0 keeps the bytes identical from run to run.
    path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))


# The fresh differential check ---------------------------------------------------------------------


def project_modules():
    """ratings/algorithms/rayter.py and rayter_format.py, and the tests' model of the rayter
    command built on them."""
    sys.path.insert(0, str(PROJECT))
    from ratings.algorithms import rayter as ours
    from ratings.algorithms import rayter_format
    from tests.algorithms import rayter_reference

    return ours, rayter_format, rayter_reference


def fresh_call(rng: random.Random) -> tuple[str | None, float | None, list, list]:
    """Another distribution than the fixtures: wider, with more players and odd magnitudes."""
    if rng.random() < 0.5:
        return random_call(rng)
    n = rng.choice([2, 2, 3, 4, 5, 8, 10, 10])
    exponent = rng.uniform(-8, 12)
    scores = [
        rng.choice([rng.randint(-(10**9), 10**9), rng.gauss(0, 10**exponent), 0, -0.0])
        for _ in range(n)
    ]
    ratings = [rng.choice([1000, rng.lognormvariate(7, 2), rng.gauss(1000, 300)]) for _ in range(n)]
    k = rng.choice([None, None, None, rng.random(), 0.5, 1e-9])
    return rng.choice([None, *SCORE_TYPES]), k, scores, ratings


def same_standings(standings: list, expected: list[list]) -> bool:
    return [[s.name, s.games] for s in standings] == [row[:2] for row in expected] and same_floats(
        [value for s in standings for value in (s.rating, s.change)],
        [float(value) for row in expected for value in row[2:]],
    )


def same_floats(a: list[float], b: list[float]) -> bool:
    return len(a) == len(b) and all(
        x == y and math.copysign(1, x) == math.copysign(1, y) for x, y in zip(a, b, strict=True)
    )


def check(seed: int, cases: int, files: int) -> int:
    from rayter.rater import rate_single_game

    ours, ours_format, command = project_modules()
    rng = random.Random(seed)
    disagreements = 0
    for _ in range(cases):
        call = fresh_call(rng)
        expected = rayter_call(rate_single_game, call)
        score_type, k, scores, ratings = call
        got = ours.rate_single_game(scores, ratings, score_type or "highscore", k)
        if not same_floats(got, expected):
            disagreements += 1
            if disagreements <= 5:
                print("rate_single_game disagrees:", call, expected, got)
    print(f"rate_single_game: {cases} fresh calls, {disagreements} disagreements")

    file_disagreements = 0
    with tempfile.TemporaryDirectory() as folder:
        for index in range(files):
            spec = dict(
                games=rng.randint(50, 4000),
                players=rng.randint(3, 40),
                score_type=rng.choice([None, *SCORE_TYPES]),
                shuffled=rng.choice([0, 0, 0.05, 0.5]),
            )
            name = f"fresh_{index}.txt"
            record = cli_record(Path(folder), name, random_file(rng, **spec))
            parsed = ours_format.parse(record["content"])
            same = (
                not parsed.errors
                and command.render_cli_text(parsed, name) == record["text"]
                and command.render_cli_json(parsed) == record["json"]
                and same_standings(command.standings(parsed), record["standings"])
            )
            if not same:
                file_disagreements += 1
                print(f"{name} disagrees ({spec}): errors {parsed.errors[:3]}")
    print(f"rayter command: {files} fresh files, {file_disagreements} disagreements")
    return 1 if disagreements or file_disagreements else 0


if __name__ == "__main__":
    main()
