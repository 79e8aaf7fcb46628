"""How long ``draw_round`` takes, and how often ``everyone_meets`` keeps every pair apart.

    python bench/seating.py                 # about a minute on the project's machine
    python bench/seating.py --seeds 1       # a quicker run
    python bench/seating.py --seeds 1 --most-players 9 --guarantee-seeds 1   # seconds

Events are drawn the way the club draws them: one call per round, each given the rounds so far
and ``rounds_total``. For every table size from 2 to 6 and groups from one table to 30 players,
each event runs one round past the last round in which nobody could yet have met anyone twice, so
the timings include the draws whose search cannot reach zero repeats and spends its whole budget
(the slowest kind). Then the issue's two guarantees (9 players over 4 rounds, 12 over 4, tables
of three) over many seeds. The tests assert the step bound; this script turns it into seconds.
"""

from __future__ import annotations

import argparse
import itertools
import platform
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ratings.algorithms import seating_plan  # noqa: E402
from ratings.algorithms.seating import Round, draw_round  # noqa: E402

GROUPS = (7, 9, 10, 12, 13, 16, 20, 24, 25, 27, 30)
LONGEST_EVENT = 8


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=3, help="events per group and table size")
    parser.add_argument(
        "--guarantee-seeds", type=int, default=200, help="events for the 9x4 and 12x4 checks"
    )
    parser.add_argument(
        "--most-players", type=int, default=max(GROUPS), help="the biggest group drawn"
    )
    return parser.parse_args()


def repeated_pairs(rounds: list[Round]) -> int:
    counts: Counter[frozenset[int]] = Counter()
    for drawn in rounds:
        for table in drawn.tables:
            counts.update(frozenset(pair) for pair in itertools.combinations(table, 2))
    return sum(1 for count in counts.values() if count > 1)


def timed_event(
    count: int, table_size: int, rounds: int, method: str, seed: int
) -> tuple[list[float], list[Round]]:
    players = list(range(1, count + 1))
    history: list[Round] = []
    times = []
    for number in range(rounds):
        start = time.perf_counter()
        drawn = draw_round(
            players,
            table_size=table_size,
            history=history,
            method=method,
            rounds_total=rounds,
            standings=players,
            seed=seed * 100 + number,
        )
        times.append(time.perf_counter() - start)
        history.append(drawn)
    return times, history


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (
        f"{len(times):5d} draws  median {statistics.median(times) * 1000:7.1f} ms  "
        f"p95 {p95 * 1000:7.1f} ms  max {max(times) * 1000:7.1f} ms"
    )


def count_full_searches() -> list[int]:
    """Record the work of every everyone_meets search, to tell the draws that spent it all."""
    spent: list[int] = []
    original = seating_plan.everyone_meets

    def record(*args):
        tables, byes, work = original(*args)
        spent.append(work)
        return tables, byes, work

    seating_plan.everyone_meets = record
    return spent


def main() -> None:
    args = parse_args()
    spent = count_full_searches()
    print(f"Python {platform.python_version()} on {platform.machine()}, {time.strftime('%F')}")
    print(
        f"\nEvents drawn one round per call, up to {args.most_players} players, tables of 2 to 6:"
    )
    for method in ("random", "by_standings", "everyone_meets"):
        times: list[float] = []
        worst = (0.0, "")
        for table_size in range(2, 7):
            groups = sorted(
                size for size in {table_size, table_size + 1, *GROUPS} if size <= args.most_players
            )
            for count in groups:
                rounds = min(LONGEST_EVENT, (count - 1) // (table_size - 1) + 1)
                for seed in range(args.seeds):
                    event_times, _ = timed_event(count, table_size, rounds, method, seed)
                    times += event_times
                    slowest = max(event_times)
                    if slowest > worst[0]:
                        worst = (
                            slowest,
                            f"{count} players, tables of {table_size}, {rounds} rounds",
                        )
        print(f"  {method:15s}{summary(times)}   slowest: {worst[1]}")
    full = sum(work >= seating_plan.SEARCH_BUDGET for work in spent)
    print(f"  ({full} of the everyone_meets draws found no plan without repeats in the budget)")

    print("\nThe issue's guarantees, everyone_meets drawn one round per call:")
    for count in (9, 12):
        times = []
        failed = 0
        for seed in range(args.guarantee_seeds):
            event_times, history = timed_event(count, 3, 4, "everyone_meets", seed)
            times += event_times
            failed += repeated_pairs(history) > 0
        print(
            f"  {count} players, 4 rounds: {args.guarantee_seeds - failed}/{args.guarantee_seeds} "
            f"events without a repeated pair; {summary(times)}"
        )


if __name__ == "__main__":
    main()
