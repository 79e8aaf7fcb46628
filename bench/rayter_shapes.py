"""``import_rayter`` against the ``rayter`` 2.1.0 command on rayter files of several shapes.

    python bench/rayter_shapes.py                      # 2-5 mixed, then 2, 3, 4, 5; 3 runs each
    python bench/rayter_shapes.py --shapes 2-5 --runs 5
    python bench/rayter_shapes.py --games 10000 --runs 1   # a quick look
    python bench/rayter_shapes.py --shapes 3 --players 10 --games 20 --runs 1 --without-rayter
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/shapesbench python bench/rayter_shapes.py

A shape is how many players sit at a game: ``2-5`` draws 2 to 5 for each game, ``3`` always
three. Each shape's file (500 players, 100,000 lowscore games by default) is written once from
the seed, so the same arguments give the same files. The project's bytecode is written first,
as pip wrote rayter's (:func:`bench.run.compile_project`). Each run imports the file with
``python manage.py import_rayter`` into a fresh database (migrated before the clock starts:
SQLite in bench/out, or the PostgreSQL database ``DATABASE_URL`` names, emptied each run) and
runs the rayter command on it back to back, the two taking turns at going first, then checks
that the league's standings are the command's (names, games, ratings as rounded). Per shape it
prints the median wall time of each, the import / command ratio of the medians and the
range of the runs' own ratios, and the same for CPU time (user + system of the child process,
which the machine's other load moves less than wall time). rayter dies with RecursionError on
some files (see :data:`DEEP_RECURSION`); it then runs with a higher recursion limit, and the
output says so.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import secrets
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.run import (  # noqa: E402
    OUT,
    compile_project,
    import_rayter_command,
    rayter_cli,
    same_standings,
    standings_command,
    timed_run,
    write_rayter_file,
)

LEAGUE = "shapes"


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--shapes",
        nargs="+",
        default=["2-5", "2", "3", "4", "5"],
        help="players per game: N, or LOW-HIGH drawn for each game",
    )
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3, help="runs of each command per shape")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--without-rayter",
        action="store_true",
        help="time the import alone, with nothing to install (a check that the benchmark runs)",
    )
    return parser.parse_args()


def seats_of(shape: str) -> tuple[int, int]:
    low, _dash, high = shape.partition("-")
    return int(low), int(high or low)


@dataclass
class Timings:
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)


def timed_child(command: list[str], **kwargs):
    """Wall time, CPU time (user + system) and the finished process of ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall, done = timed_run(command, **kwargs)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done


def fresh_database(env: dict[str, str]) -> None:
    """An empty, migrated club: SQLite's file deleted first; a PostgreSQL database emptied with
    ``flush`` (which resets the id sequences and puts the data-version triggers back)."""
    url = env["DATABASE_URL"]
    if url.startswith("sqlite:///"):
        path = Path(url.removeprefix("sqlite:///"))
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
    timed_run([sys.executable, "manage.py", "migrate", "--verbosity", "0"], cwd=ROOT, env=env)
    if not url.startswith("sqlite:///"):
        timed_run(
            [sys.executable, "manage.py", "flush", "--no-input", "--verbosity", "0"],
            cwd=ROOT,
            env=env,
        )


# rayter 2.1.0 finds a player's rating by recursing back one game at a time from the last game
# to the player's last one: with two players a game, someone's gap passes Python's default
# limit of 1,000 calls and the command dies with RecursionError. Run the same command with a
# higher limit then (the recursion is plain Python calls: the limit changes nothing else).
DEEP_RECURSION = (
    "import sys; sys.setrecursionlimit(1_000_000); from rayter.main import main;"
    " sys.argv[0] = 'rayter'; main()"
)


def rayter_command(file: Path) -> tuple[list[str], str]:
    """The rayter command for ``file``, and a note when it needs a higher recursion limit."""
    cli = rayter_cli()
    plain = [str(cli), str(file), "-m", "json"]
    tried = subprocess.run(plain, capture_output=True, text=True)
    if tried.returncode == 0 or "RecursionError" not in tried.stderr:
        return plain, ""
    deep = [str(cli.parent / "python"), "-c", DEEP_RECURSION, str(file), "-m", "json"]
    return deep, " (rayter needs a recursion limit above 1,000 for this file: raised)"


def measure(
    file: Path, cli: list[str], runs: int, env: dict[str, str]
) -> tuple[Timings, Timings, bool]:
    ours, theirs = Timings(), Timings()
    same = True
    for run in range(runs):
        fresh_database(env)
        order = ("import", "cli") if run % 2 == 0 else ("cli", "import")
        for which in order:
            if which == "import":
                wall, cpu, _done = timed_child(
                    import_rayter_command(file, LEAGUE), cwd=ROOT, env=env
                )
                timings = ours
            else:
                wall, cpu, cli_done = timed_child(cli)
                timings = theirs
            timings.wall.append(wall)
            timings.cpu.append(cpu)
        _wall, standings = timed_run(standings_command(LEAGUE), cwd=ROOT, env=env)
        same = same and same_standings(json.loads(cli_done.stdout), json.loads(standings.stdout))
    return ours, theirs, same


def import_alone(file: Path, runs: int, env: dict[str, str]) -> Timings:
    """The import's timings without the rayter command, its standings read back each run."""
    ours = Timings()
    for _run in range(runs):
        fresh_database(env)
        wall, cpu, _done = timed_child(import_rayter_command(file, LEAGUE), cwd=ROOT, env=env)
        ours.wall.append(wall)
        ours.cpu.append(cpu)
        _wall, standings = timed_run(standings_command(LEAGUE), cwd=ROOT, env=env)
        assert json.loads(standings.stdout)["standings"], "no standings after the import"
    return ours


def ratio_line(label: str, ours: list[float], theirs: list[float]) -> str:
    ratios = [mine / cli for mine, cli in zip(ours, theirs, strict=True)]
    median_ours, median_theirs = statistics.median(ours), statistics.median(theirs)
    runs = ", ".join(
        f"{mine:.2f}/{cli:.2f}={mine / cli:.2f}" for mine, cli in zip(ours, theirs, strict=True)
    )
    return (
        f"  {label}: import {median_ours:.2f} s, rayter {median_theirs:.2f} s,"
        f" ratio {median_ours / median_theirs:.2f}x, runs {min(ratios):.2f}-{max(ratios):.2f}x"
        f" ({runs})"
    )


def database_url() -> str:
    """PostgreSQL when ``DATABASE_URL`` names one (its database is emptied at every run: never
    one whose data you keep), else SQLite in bench/out."""
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        name = url.rsplit("/", 1)[-1].split("?")[0]
        if name in ("", "test", "postgres") or name.startswith("test_"):
            sys.exit(f"refusing to empty the database {name!r}: give the benchmark its own")
        return url
    return f"sqlite:///{OUT / 'shapes.sqlite3'}"


def main() -> None:
    args = parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "DJANGO_SETTINGS_MODULE": "club.settings",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
    }
    names = [f"Hearts{n:04d}" for n in range(args.players)]
    vendor = "PostgreSQL" if env["DATABASE_URL"].startswith("postgres") else "SQLite"
    print(
        f"import_rayter on {vendor} / rayter 2.1.0, {args.players:,} players, {args.games:,} games,"
        f" {args.runs} runs a shape, seed {args.seed}; load average at start"
        f" {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    compile_project()
    all_same = True
    for shape in args.shapes:
        seats = seats_of(shape)
        file = OUT / f"shape-{seats[0]}-{seats[1]}-{args.players}-{args.games}-{args.seed}.txt"
        if not file.exists():
            write_rayter_file(
                file, names, args.games, random.Random(f"{args.seed}-{shape}"), seats=seats
            )
        began = time.perf_counter()
        if args.without_rayter:
            ours = import_alone(file, args.runs, env)
            wall, cpu = statistics.median(ours.wall), statistics.median(ours.cpu)
            print(f"players per game {shape}, rayter not run")
            print(f"  import: wall {wall:.2f} s, CPU {cpu:.2f} s")
            continue
        cli, note = rayter_command(file)  # one untimed run, which also warms the file cache
        ours, theirs, same = measure(file, cli, args.runs, env)
        all_same = all_same and same
        print(
            f"players per game {shape} ({file.stat().st_size / 2**20:.1f} MiB){note},"
            f" standings identical: {same}, {time.perf_counter() - began:.0f} s,"
            f" load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
        )
        print(ratio_line("wall", ours.wall, theirs.wall))
        print(ratio_line("CPU ", ours.cpu, theirs.cpu))
    if not all_same:
        sys.exit("The standings differ from the rayter command's.")


if __name__ == "__main__":
    main()
