"""The load test's writer: Preferans games recorded through the engine at a steady rate.

    DATABASE_URL=postgres://... python bench/loadtest_writer.py [--league big] [--rate 1]
        [--seconds 20]

Records one game every 1/RATE seconds into the league (three players drawn with the club's
skew, as ``bench/run.py`` builds it, a random paper, played now: after every game of the
league, so no write replays) until SECONDS have passed or it is stopped (SIGTERM or SIGINT).
Each write is ``engine.game_record`` in a process of its own beside the server, as a member's
entry would be, and changes the data version: every cached page of the club is drawn again.
On a schedule, not after a pause: a slow write is followed by the next one at once. At the end
it prints one line, ``WRITER games=N errors=N p50_ms=… p99_ms=… max_ms=…`` (the write times);
``WRITER ready`` before the first write.
"""

from __future__ import annotations

import argparse
import random
import signal
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loadtest_pages import setup_django  # noqa: E402
from synthetic_club import random_paper, skew_weights, skewed_players  # noqa: E402


def record_one(league, players: list[int], weights, rng: random.Random):
    """One game of ``league`` played now, three of ``players`` at the table."""
    from ratings import engine

    seats = skewed_players(rng, players, 3, weights)
    return engine.game_record(
        league=league,
        played_at=datetime.now(UTC).replace(microsecond=0),
        entries=[
            engine.Entry(player_id=pid, paper=paper)
            for pid, paper in zip(seats, random_paper(rng), strict=True)
        ],
        bula=rng.choice([30, 50, 60]),
    )


def percentile(values: list[float], q: int) -> float:
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def summary(times: list[float], errors: int) -> str:
    ms = [t * 1000 for t in times]
    return (
        f"WRITER games={len(ms)} errors={errors} p50_ms={percentile(ms, 50):.1f}"
        f" p99_ms={percentile(ms, 99):.1f} max_ms={max(ms, default=0.0):.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--league", default="big")
    parser.add_argument("--rate", type=float, default=1.0, help="games a second")
    parser.add_argument("--seconds", type=float, default=0, help="0: until stopped")
    parser.add_argument("--seed", type=int, default=2028)
    args = parser.parse_args()
    setup_django()
    from ratings.models import League, Result

    league = League.objects.filter(slug=args.league).first()
    if league is None:
        sys.exit(f"No league {args.league!r} in this database: build the club (bench/run.py).")
    # The league's players by id, as bench/run.py drew them: the skew favours the same regulars.
    players = list(
        Result.objects.filter(game__league=league)
        .values_list("player_id", flat=True)
        .distinct()
        .order_by("player_id")
    )
    weights, rng = skew_weights(len(players)), random.Random(args.seed)
    stop = False

    def stopping(_signum, _frame):
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, stopping)
    signal.signal(signal.SIGINT, stopping)
    times: list[float] = []
    errors = 0
    print("WRITER ready", flush=True)  # bench/loadtest.sh starts wrk after this line
    began = time.monotonic()
    n = 0
    while not stop and not (args.seconds and time.monotonic() - began >= args.seconds):
        due = began + n / args.rate
        if (wait := due - time.monotonic()) > 0:
            time.sleep(wait)
            if stop:
                break
        n += 1
        started = time.perf_counter()
        try:
            record_one(league, players, weights, rng)
        except Exception as error:  # noqa: BLE001 - counted and shown, the load goes on
            errors += 1
            print(f"loadtest_writer: {type(error).__name__}: {error}", file=sys.stderr)
        else:
            times.append(time.perf_counter() - started)
    print(summary(times, errors), flush=True)


if __name__ == "__main__":
    main()
