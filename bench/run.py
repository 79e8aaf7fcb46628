"""The club benchmark: a large synthetic club on a fresh database, and the figures that matter.

    python bench/run.py                      # SQLite file bench/out/bench.sqlite3, full size
    DATABASE_URL=postgres://... python bench/run.py
    python bench/run.py --players 300 --games 20000 --scored 10000   # a quick run

It builds 2,000 players, a 200,000-game Preferans league with realistic skew (a few players with
thousands of games) and, after its last game, a finished club night of 24 players over 4 rounds
drawn and played through the events' services; a 1,000-game Preferans league and, through
``import_rayter``, a 100,000-game scored league; then it prints a table of: recording a new game
at history sizes 1,000 and 200,000; the leaderboard, games list, game page, players directory,
the league's events and the club night's page, and a heavy player's page (with its statistics,
and without them in the same run), the page of the player nearest 4,000 games, the head-to-head
pages of the heavy player and of the player nearest 4,000 games (each with a rival: see
:func:`steady_rival`), the leaderboard of the busiest season, through Django's test client
asking for gzip as a browser does, with their SQL query counts; a full replay after editing the
league's first game; peak memory; and ``import_rayter`` of the 100,000-game file next to the
``rayter`` 2.1.0 CLI on the same file (installed into bench/out/rayter-venv on first use).
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import random
import resource
import secrets
import statistics
import subprocess
import sys
import threading
import time
import warnings
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Where the benchmarks keep their databases, files and figures; the smoke tests
# (tests/test_bench.py) give each run a temporary folder, leaving bench/out alone.
OUT = Path(os.environ.get("BENCH_OUT") or ROOT / "bench" / "out")
sys.path.insert(0, str(ROOT))

from bench.synthetic_club import (  # noqa: E402
    EVENT_PLAYERS,
    EVENT_ROUNDS,
    START,
    STEADY_GAMES,
    build_club,
    game_gap,
    random_paper,
    skew_weights,
    skewed_players,
)


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--games", type=int, default=200_000, help="Preferans games")
    parser.add_argument("--scored", type=int, default=100_000, help="games in the rayter file")
    parser.add_argument("--samples", type=int, default=30, help="timed repetitions per figure")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--keep",
        action="store_true",
        help="measure the club the database holds, built by an earlier run with these arguments",
    )
    parser.add_argument(
        "--build-only", action="store_true", help="build the club, then stop (see --keep)"
    )
    return parser.parse_args()


def setup_django(fresh: bool, sqlite_name: str = "bench.sqlite3") -> str:
    """Django set up on ``DATABASE_URL``, or on the SQLite file ``sqlite_name`` in bench/out
    (each benchmark its own, so one does not empty another's club); ``fresh`` empties it."""
    OUT.mkdir(parents=True, exist_ok=True)
    given = "DATABASE_URL" in os.environ
    if not given:
        path = OUT / sqlite_name
        if fresh:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
        os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    # A fresh random key: the settings refuse a weak one with DEBUG off.
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost")
    os.environ.setdefault("SECURE_SSL_REDIRECT", "false")  # the test client speaks plain HTTP
    warnings.filterwarnings("ignore", message="No directory at")  # static files are not timed
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    # Pages are drawn in this process without collectstatic: each static file by its own name,
    # as the test suite draws them (the manifest's one lookup a file is not what is measured).
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
    }
    call_command("migrate", verbosity=0)
    if fresh and given:
        call_command("flush", interactive=False, verbosity=0)
    return connection.vendor


class PeakMemory:
    """Samples this process's resident memory in a thread: the peak during a block."""

    def __enter__(self):
        self.peak = _rss()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def _sample(self):
        while not self._stop.wait(0.01):
            self.peak = max(self.peak, _rss())

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, _rss())


def _rss() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def mib(n: float) -> str:
    return f"{n / 2**20:,.0f} MiB"


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f} ms"


def time_recording(league, players, rng, samples: int, start: datetime) -> list[float]:
    from ratings import engine

    times = []
    weights = skew_weights(len(players))
    for n in range(samples):
        seats = skewed_players(rng, players, 3, weights)
        entries = [
            engine.Entry(player_id=pid, paper=paper)
            for pid, paper in zip(seats, random_paper(rng), strict=True)
        ]
        began = time.perf_counter()
        engine.game_record(
            league=league, played_at=start + timedelta(minutes=n), entries=entries, bula=30
        )
        times.append(time.perf_counter() - began)
    return times


class WritesBeside(threading.Thread):
    """Games recorded into another league, one every half second, on a connection of their own,
    while the main thread replays a league: how long a write waits for a replay elsewhere
    (on PostgreSQL; SQLite has one writer at a time)."""

    def __init__(self, league, players: list[int], start: datetime):
        super().__init__(daemon=True)
        self.league, self.players, self.first_at = league, players, start
        self.done = threading.Event()
        self.times: list[float] = []

    def run(self):
        from django.db import connection

        rng = random.Random(7)
        try:
            # The replay takes its lock first; a write before it would not wait for anything.
            while not self.done.wait(0.5):
                self.times += time_recording(
                    self.league,
                    self.players,
                    rng,
                    1,
                    self.first_at + timedelta(minutes=len(self.times)),
                )
        finally:
            connection.close()


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else values[0]


def time_page(client, url: str, samples: int) -> tuple[float, int, float, int]:
    """The page drawn (the page cache emptied before each request, as for the first visitor
    after a write) and served from the page cache (everyone after them until the next write):
    each one's median time and SQL queries."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    response = client.get(url)  # warm up
    assert response.status_code == 200, (url, response.status_code)
    drawn, cached = [], []
    for _ in range(samples):
        cache.clear()
        began = time.perf_counter()
        client.get(url)
        drawn.append(time.perf_counter() - began)
        began = time.perf_counter()
        client.get(url)
        cached.append(time.perf_counter() - began)
    cache.clear()
    with CaptureQueriesContext(connection) as drawing:
        client.get(url)
    with CaptureQueriesContext(connection) as serving:
        client.get(url)
    return (
        statistics.median(drawn),
        len(drawing.captured_queries),
        statistics.median(cached),
        len(serving.captured_queries),
    )


def page_figures(url_figures: tuple[float, int, float, int]) -> str:
    drawn, drawn_queries, cached, cached_queries = url_figures
    return (
        f"drawn {ms(drawn)} ({drawn_queries} SQL queries); "
        f"cached {ms(cached)} ({cached_queries} SQL query)"
    )


def time_statistics_pages(client, league, heavy, samples: int) -> list[tuple[str, str]]:
    """The heavy player's page with and without its statistics (without: the page as before
    issue #14, so the difference is the statistics' cost), the head-to-head page with the
    opponent they met most often, and the league's table for its busiest year."""
    from django.core.cache import cache

    from ratings.selectors import statistics as club_statistics
    from ratings.views import pages

    rows = []
    # With and without alternate request by request: a shared machine's load changes during a
    # run, and both medians should meet the same. The process's CPU time (SQLite runs in it)
    # is given too: other processes' load moves it far less than the wall-clock time.
    url = f"/players/{heavy.slug}/"
    panels = {"with": pages.statistics_panels, "without": lambda player, leagues, history: {}}
    wall: dict[str, list[float]] = {"with": [], "without": []}
    cpu: dict[str, list[float]] = {"with": [], "without": []}
    try:
        for _ in range(samples + 1):  # the first of each warms up
            for variant, make_panels in panels.items():
                pages.statistics_panels = make_panels
                cache.clear()  # drawn, not served from the page cache
                began, began_cpu = time.perf_counter(), time.process_time()
                assert client.get(url).status_code == 200
                wall[variant].append(time.perf_counter() - began)
                cpu[variant].append(time.process_time() - began_cpu)
    finally:
        pages.statistics_panels = panels["with"]

    def medians(times: dict[str, list[float]]) -> str:
        return " / ".join(ms(statistics.median(times[variant][1:])) for variant in panels)

    rows.append(
        (
            "page: heavy player's page drawn, with / without statistics (alternating)",
            f"median {medians(wall)}; CPU time {medians(cpu)}",
        )
    )
    rival = club_statistics.player_opponents(heavy)[league.pk][0]
    figures = time_page(client, f"/players/{heavy.slug}/vs/{rival.slug}/", samples)
    rows.append(
        (
            f"page: head to head, heavy player and {rival.name} ({rival.games:,} games together)",
            page_figures(figures),
        )
    )
    year, games = busiest_season(league)
    figures = time_page(client, f"/leagues/{league.slug}/?season={year}", samples)
    rows.append(
        (f"page: leaderboard for the season {year} ({games:,} games)", page_figures(figures))
    )
    return rows


def steady_rival(league, steady, games_of: dict[int, int]):
    """Of the players ``steady`` met at least ten times (any they met, in a club too small for
    that), the one whose games are nearest :data:`STEADY_GAMES`: their head to head reads about
    as many rows at every size of the club (the heavy player's rival's grows with the club)."""
    from django.db.models import Q

    from ratings.models import OpponentTally, Player

    met = OpponentTally.objects.filter(Q(player=steady) | Q(opponent=steady), league=league)
    pairs = met.filter(games__gte=10) if met.filter(games__gte=10).exists() else met
    rival_id = min(
        (
            first if second == steady.pk else second
            for first, second in pairs.values_list("player_id", "opponent_id")
        ),
        key=lambda pid: (abs(games_of[pid] - STEADY_GAMES), pid),
    )
    return Player.objects.get(pk=rival_id)


def busiest_season(league) -> tuple[int, int]:
    """The league's year with the most games, and how many (the season page to time)."""
    from django.db.models import Count
    from django.db.models.functions import ExtractYear

    from ratings.models import Game

    return (
        Game.objects.filter(league=league)
        .annotate(year=ExtractYear("played_at"))
        .values_list("year")
        .annotate(n=Count("id"))
        .order_by("-n")
        .first()
    )


def write_rayter_file(
    path: Path,
    names: list[str],
    games: int,
    rng: random.Random,
    *,
    seats: tuple[int, int] = (3, 5),
) -> None:
    """A lowscore Hearts file of ``games`` games three minutes apart, each with ``seats[0]`` to
    ``seats[1]`` players drawn from ``names`` and scores from 0 to 130."""
    start = datetime(2020, 1, 1, 18, 0)
    lines = ["score_type lowscore", "game_name Hearts", ""]
    for n in range(games):
        when = start + timedelta(minutes=3 * n)
        lines.append(f"game {when:%Y-%m-%d %H:%M}")
        for name in rng.sample(names, rng.randint(*seats)):
            lines.append(f"{name} {rng.randint(0, 130)}")
        lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8")


def rayter_cli() -> Path:
    venv = OUT / "rayter-venv"
    if not (venv / "bin" / "rayter").exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run(
            [str(venv / "bin" / "pip"), "install", "--quiet", "rayter==2.1.0"], check=True
        )
    return venv / "bin" / "rayter"


def compile_project() -> None:
    """Write the project's bytecode, as installing a package does: pip compiled rayter's and
    every dependency's. An editable install leaves it to the first run, and with
    PYTHONDONTWRITEBYTECODE set (as on the machine docs/performance.md's figures come from) no run
    ever writes it: each timed command would compile the project's modules first (0.2 s there)."""
    for package in ("club", "ratings"):
        compileall.compile_dir(ROOT / package, quiet=1)


def timed_run(command: list[str], **kwargs) -> tuple[float, subprocess.CompletedProcess]:
    began = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True, **kwargs)
    return time.perf_counter() - began, done


def import_rayter_command(file: Path, league: str) -> list[str]:
    """``manage.py import_rayter`` of ``file`` into ``league``, as the benchmarks time it."""
    return [
        sys.executable,
        "manage.py",
        "import_rayter",
        str(file),
        "--league",
        league,
        "--no-progress",
    ]


def standings_command(league: str) -> list[str]:
    return [sys.executable, "manage.py", "standings", league, "--format", "json"]


def main() -> None:
    args = parse_args()
    vendor = setup_django(fresh=not args.keep)
    from django.db.models import Count, Max
    from django.test import Client

    from ratings import engine
    from ratings.models import Game, League, Player, Result

    rng = random.Random(args.seed)
    rows: list[tuple[str, str]] = []
    start, gap = START, game_gap(args.games)

    night = start + gap * args.games + timedelta(hours=24)
    if args.keep:
        # A club built before (--build-only, or a run whose figures changed it a little: a few
        # games recorded after the club night, its first game edited and replayed back).
        from ratings.events.models import Event

        player_ids = list(
            Player.objects.filter(slug__startswith="player-")
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        big, small = League.objects.get(slug="big"), League.objects.get(slug="small")
        event = Event.objects.filter(league=big).earliest("starts_at")
        print(f"Measuring the club the database holds ({vendor})…")
    else:
        print(
            f"Building {args.players:,} players and {args.games:,} Preferans games"
            f" {gap.total_seconds() / 60:g} minutes apart from {start:%Y-%m-%d} on {vendor}…"
        )
        player_ids, big, small, event, build_seconds = build_club(args, rng, start, gap, night)
        rows.append(
            ("build: Preferans games bulk-recorded", f"{args.games:,} in {build_seconds:.1f} s")
        )
        if args.build_only:
            print(f"Built in {build_seconds:.1f} s (the big league's games).")
            return

    end = night + timedelta(minutes=90 * EVENT_ROUNDS + 60)  # after the club night's games
    if args.keep:
        # After the games an earlier run recorded, or each game timed here would replay them.
        latest = Game.objects.aggregate(latest=Max("played_at"))["latest"]
        end = max(end, latest + timedelta(minutes=1))
    for league, label in ((small, "1,000"), (big, f"{args.games:,}")):
        times = time_recording(league, player_ids, rng, args.samples, end)
        rows.append(
            (
                f"record a game, history {label}",
                f"median {ms(statistics.median(times))}, p95 {ms(p95(times))}",
            )
        )

    games_of = dict(
        Result.objects.filter(game__league=big)
        .values_list("player_id")
        .annotate(n=Count("id"))
        .values_list("player_id", "n")
    )
    heavy_id = max(games_of, key=lambda pid: (games_of[pid], -pid))
    heavy, heavy_games = Player.objects.get(pk=heavy_id), games_of[heavy_id]
    # A player with as many games at every size of the club: their page's cost should not grow
    # with the club's (the heavy player's grows with their own games).
    steady_id = min(games_of, key=lambda pid: (abs(games_of[pid] - STEADY_GAMES), pid))
    steady = Player.objects.get(pk=steady_id)
    first_game = Game.objects.filter(league=big).chronological().first()
    client = Client(headers={"Accept-Encoding": "gzip"})  # as every browser asks
    pages = [
        ("leaderboard", f"/leagues/{big.slug}/"),
        ("games list", f"/leagues/{big.slug}/games/"),
        ("game page", f"/games/{first_game.pk}/"),
        (f"heavy player's page ({heavy_games:,} games)", f"/players/{heavy.slug}/"),
        (
            f"player's page, the player nearest {STEADY_GAMES:,} games ({games_of[steady_id]:,})",
            f"/players/{steady.slug}/",
        ),
        ("players directory", "/players/"),
        ("the league's events", f"/leagues/{big.slug}/events/"),
        (
            f"club night's page ({EVENT_PLAYERS} players, {EVENT_ROUNDS} rounds, standings)",
            f"/events/{event.pk}/",
        ),
    ]
    for label, url in pages:
        rows.append((f"page: {label}", page_figures(time_page(client, url, args.samples))))
    rows += time_statistics_pages(client, big, heavy, args.samples)
    rival = steady_rival(big, steady, games_of)
    figures = time_page(client, f"/players/{steady.slug}/vs/{rival.slug}/", args.samples)
    rows.append(
        (
            f"page: head to head, the player nearest {STEADY_GAMES:,} games and the opponent"
            f" nearest it ({games_of[steady_id]:,} and {games_of[rival.pk]:,} games)",
            page_figures(figures),
        )
    )

    results = list(first_game.results.order_by("seat"))
    papers = [(r.left + 2, r.middle, r.right) for r in results]
    # After the games timed above, each the newest of its league.
    beside = WritesBeside(small, player_ids, end + timedelta(minutes=args.samples))
    if vendor == "postgresql":
        beside.start()
    with PeakMemory() as memory:
        began = time.perf_counter()
        engine.game_update(
            game=first_game,
            played_at=first_game.played_at,
            entries=[
                engine.Entry(player_id=r.player_id, paper=paper)
                for r, paper in zip(results, papers, strict=True)
            ],
            bula=first_game.bula,
        )
        replay = time.perf_counter() - began
    beside.done.set()
    if beside.is_alive():
        beside.join()
    seats = Result.objects.filter(game__league=big).count()
    rows.append(
        (
            f"full replay after editing the first game ({seats:,} results)",
            f"{replay:.1f} s, peak memory {mib(memory.peak)}",
        )
    )
    if beside.times:
        rows.append(
            (
                "record a game, history 1,000, while the big league replays",
                f"median {ms(statistics.median(beside.times))}, max {ms(max(beside.times))}"
                f" ({len(beside.times)} games)",
            )
        )

    if args.scored:
        names = [f"Hearts{n:04d}" for n in range(min(args.players, 400))]
        file = OUT / f"hearts-{args.scored}.txt"
        write_rayter_file(file, names, args.scored, rng)
        cli = rayter_cli()
        compile_project()
        cli_seconds, cli_done = timed_run([str(cli), str(file), "-m", "json"])
        import_seconds, _done = timed_run(
            import_rayter_command(file, "hearts"), cwd=ROOT, env=os.environ
        )
        _s, ours = timed_run(standings_command("hearts"), cwd=ROOT, env=os.environ)
        theirs = json.loads(cli_done.stdout)
        same = same_standings(theirs, json.loads(ours.stdout))
        rows.append(
            (
                f"import_rayter, {args.scored:,}-game file (every game and rating stored)",
                f"{import_seconds:.2f} s",
            )
        )
        rows.append(("rayter 2.1.0 CLI, same file", f"{cli_seconds:.2f} s"))
        rows.append(
            (
                "import_rayter / rayter CLI",
                f"{import_seconds / cli_seconds:.2f}x, standings identical: {same}",
            )
        )

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    rows.append(("peak memory of the benchmark process", mib(peak)))
    size = (
        f"{args.players:,} players, {args.games:,} Preferans games {gap.total_seconds() / 60:g}"
        f" minutes apart from {start:%Y-%m-%d} ({seats:,} results)"
    )
    report(rows, size, vendor, args.games)


def same_standings(theirs: dict, ours: dict) -> bool:
    """rayter's JSON (an object keyed by name, ratings rounded to whole points) against ours
    (``manage.py standings --format json``: the league and its standings, ratings to the cent):
    the same names and games, and ratings within the two roundings (half a point and half a
    cent: rayter writes 958.497 as 958, ours as 958.50)."""
    cli = {row["name"]: (row["matches"], row["rating"]) for row in theirs.values()}
    mine = {row["name"]: (row["games"], row["rating"]) for row in ours["standings"]}
    return cli.keys() == mine.keys() and all(
        mine[name][0] == games and abs(mine[name][1] - rating) <= 0.5 + 0.005 + 1e-9
        for name, (games, rating) in cli.items()
    )


def report(rows: list[tuple[str, str]], size: str, vendor: str, games: int) -> None:
    """Print the figures, and keep them in bench/out/results-VENDOR-GAMES.txt: a run at each
    size of the club keeps its own, to be read side by side."""
    machine = f"{os.cpu_count()} cores, {vendor}, Python {sys.version.split()[0]}"
    header = f"Benchmark {datetime.now():%Y-%m-%d %H:%M}, {machine}; {size}"
    width = max(len(label) for label, _ in rows)
    lines = [header, ""] + [f"| {label.ljust(width)} | {value} |" for label, value in rows]
    text = "\n".join(lines)
    print(text)
    (OUT / f"results-{vendor}-{games}.txt").write_text(text + "\n")


if __name__ == "__main__":
    main()
