"""Time ``export_games`` on the benchmark's 200,000-game Preferans league, in both formats.

    python bench/export_games.py                  # SQLite file bench/out/export.sqlite3
    python bench/export_games.py --keep           # reuse the league built by an earlier run
    DATABASE_URL=postgres://... python bench/export_games.py
    python bench/export_games.py --games 20000    # a smaller league

It builds the league with ``bench/synthetic_club.py``'s builder (2,000 players, the same skew),
then runs ``python manage.py export_games big --format csv|json -o /dev/null`` as a separate process
``--runs`` times per format (the formats taking turns), and prints the wall and CPU time (median
and range) and the process's peak resident memory (Django's start-up included: the same command
on an empty league is shown for scale), the size of each file, and the download view's time
through Django's test client.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.run import OUT, PeakMemory, mib, setup_django  # noqa: E402
from bench.synthetic_club import build_preferans  # noqa: E402

FORMATS = ("csv", "json")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--games", type=int, default=200_000, help="Preferans games")
    parser.add_argument("--runs", type=int, default=3, help="timed runs per format")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--keep", action="store_true", help="reuse the database as it is")
    return parser.parse_args()


# Runs manage.py and writes the process's own peak memory (VmHWM) to stderr as it exits:
# os.wait4's ru_maxrss would count the benchmark's own memory, which the child has before exec.
MANAGE_WITH_PEAK = """
import atexit, runpy, sys
def peak():
    with open("/proc/self/status") as status:
        sys.stderr.write(next(line for line in status if line.startswith("VmHWM:")))
atexit.register(peak)
sys.argv = ["manage.py", *sys.argv[1:]]
runpy.run_path("manage.py", run_name="__main__")
"""


def run_command(args: list[str]) -> tuple[float, float, int]:
    """Run ``manage.py`` with ``args`` in a new process: (wall seconds, CPU seconds, peak RSS
    in bytes). CPU time is the steadier figure on a machine shared with other work."""
    cpu_before = _children_cpu()
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", MANAGE_WITH_PEAK, *args],
        cwd=ROOT,
        env=os.environ,
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - began
    cpu = _children_cpu() - cpu_before
    if done.returncode != 0:
        raise SystemExit(f"manage.py {' '.join(args)} failed:\n{done.stderr}")
    kib = int(done.stderr.rsplit("VmHWM:", 1)[1].split()[0])
    return seconds, cpu, kib * 1024


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def spread(values: list[float], unit) -> str:
    return f"median {unit(statistics.median(values))} ({unit(min(values))}–{unit(max(values))})"


def megabytes(size: int) -> str:
    return f"{size / 1e6:,.1f} MB"


def seconds(value: float) -> str:
    return f"{value:.2f} s"


def main() -> None:
    args = parse_args()
    vendor = setup_django(fresh=not args.keep, sqlite_name="export.sqlite3")
    from django.db import connection
    from django.test import Client

    from ratings.models import League, Player, Result, System

    big = League.objects.filter(slug="big").first()
    if big is None:
        print(f"Building {args.players:,} players and {args.games:,} Preferans games on {vendor}…")
        players = [
            Player(name=f"Player {n:04d}", slug=f"player-{n:04d}") for n in range(args.players)
        ]
        Player.objects.bulk_create(players, batch_size=2000)
        player_ids = list(Player.objects.order_by("pk").values_list("pk", flat=True))
        big = League.objects.create(name="Big Preferans", slug="big", system=System.PREFKO)
        start = datetime(2015, 1, 1, 19, 0, tzinfo=UTC)
        build_preferans(big, player_ids, args.games, random.Random(args.seed), start)
        League.objects.create(name="Empty", slug="empty", system=System.PREFKO)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    games = big.games.count()
    seats = Result.objects.filter(game__league=big).count()

    rows = [("league", f"{games:,} games, {seats:,} results, {vendor}")]
    run_command(["export_games", "empty", "-o", os.devnull])  # warm the file cache: not timed
    runs: dict[str, list] = {"start-up": [], **{fmt: [] for fmt in FORMATS}}
    for _ in range(args.runs):
        runs["start-up"].append(run_command(["export_games", "empty", "-o", os.devnull]))
        for fmt in FORMATS:
            runs[fmt].append(
                run_command(["export_games", "big", "--format", fmt, "-o", os.devnull])
            )
    for label, timed in runs.items():
        what = (
            "export_games on an empty league (start-up)"
            if label == "start-up"
            else f"export_games --format {label} -o /dev/null"
        )
        rows.append(
            (
                what,
                f"wall {spread([t[0] for t in timed], seconds)}, "
                f"CPU {spread([t[1] for t in timed], seconds)}, "
                f"peak {mib(max(t[2] for t in timed))}",
            )
        )
    for fmt in FORMATS:
        target = OUT / f"big-games.{fmt}"
        run_command(["export_games", "big", "--format", fmt, "-o", str(target)])
        rows.append((f"size of the {fmt.upper()} file", megabytes(target.stat().st_size)))
        target.unlink()

    client = Client()
    for fmt in FORMATS:
        with PeakMemory() as memory:
            before = memory.peak
            began, cpu_began = time.perf_counter(), time.process_time()
            response = client.get(f"/leagues/big/games.{fmt}")
            size = sum(len(piece) for piece in response.streaming_content)
            took, cpu = time.perf_counter() - began, time.process_time() - cpu_began
        rows.append(
            (
                f"GET /leagues/big/games.{fmt} (test client)",
                f"wall {seconds(took)}, CPU {seconds(cpu)}, {megabytes(size)}, "
                f"memory +{mib(memory.peak - before)}",
            )
        )

    machine = f"{os.cpu_count()} cores, {vendor}, Python {sys.version.split()[0]}"
    width = max(len(label) for label, _ in rows)
    lines = [f"export_games benchmark {datetime.now():%Y-%m-%d}, {machine}", ""]
    lines += [f"| {label.ljust(width)} | {value} |" for label, value in rows]
    text = "\n".join(lines)
    print(text)
    (OUT / f"export-games-{vendor}.txt").write_text(text + "\n")


if __name__ == "__main__":
    main()
