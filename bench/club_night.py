"""A club night on phones, under gunicorn: tables keeping digital papers, phones watching them.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_night .venv/bin/python bench/club_night.py
    ... --tables 30 --seconds 300        # the defaults: 30 tables, 5 minutes measured

The club is built afresh in the database (``flush`` first: never a database of the suite's or
the server's own): a Preferans league whose members' games wait for every other player at the
table to confirm, ``--tables`` x 3 members with logins and a history of games, a club night of
them all with its round drawn (a table of 3 each) and a digital paper started at every table.
Then gunicorn (``--workers``, the threads of gunicorn.conf.py, DEBUG off) and the background
worker (``manage.py db_worker``) start, and the phones, threads of this process over HTTP on
loopback:

- each table's 3 phones watch its paper as ``static/paper_live.js`` does: every ``--refresh``
  seconds (each at its own phase) a GET of the paper with ``If-None-Match`` (the ETag it was
  last given), ``X-Club-Page: 1`` and gzip asked for; a 304 draws nothing;
- one phone of each table enters the table's deals as the pad does (a POST asking for JSON), at
  random moments ``--deal-every`` seconds apart on average (exponential gaps: 30 tables at 90 s
  are a deal every 3 s club-wide); after ``--deals-per-paper`` deals (the first paper after 1 to
  that many: the tables are at different points of their games) it finishes the paper (the
  game held for the table), the table's two other members confirm it (two POSTs) and the table
  starts a new paper (through the papers' service, from this process: not timed);
- ``--board-phones`` more phones reload the leaderboard and the night's page in turns every
  ``--board-every`` seconds, as a browser does (``If-None-Match`` with the page's ETag).

After ``--warmup`` seconds (not counted) it measures for ``--seconds``: each request kind's
count, p50 and p99; a watcher's delay to see a deal (from its POST being sent to the first page
a watcher of the table got showing it, for every watcher of the table); and the server's CPU
time from /proc: gunicorn's master and workers, the worker (``db_worker``) and, on PostgreSQL,
the server's backends of this database (sampled each second, this process's own left out), per
phone per minute and as a share of one core. Prints a report and writes it to
``bench/out/club-night-VENDOR.txt`` (``BENCH_OUT`` to put it elsewhere). A request answered
otherwise than the phone expects is shown and makes the run end with status 1; a missed target
is printed as MISSED. Without ``DATABASE_URL`` it runs on a SQLite file in ``bench/out``.
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import os
import random
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections import defaultdict
from datetime import timedelta
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

from loadtest_pages import setup_django  # noqa: E402
from synthetic_club import random_paper  # noqa: E402

OUT = Path(os.environ.get("BENCH_OUT") or ROOT / "bench" / "out")
os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
# Without DATABASE_URL, a SQLite file of its own in bench/out (never the project's db.sqlite3).
os.environ.setdefault("DATABASE_URL", f"sqlite:///{OUT / 'club-night.sqlite3'}")
# Its server's static files collected apart: never rewriting the checkout's under a server or a
# test run that reads them.
os.environ["STATIC_ROOT"] = str(OUT / "static")
OUT.mkdir(parents=True, exist_ok=True)
setup_django()
from django.conf import settings  # noqa: E402

REFUSED_DATABASES = {"test", "postgres", "template0", "template1"}
# The deals the pad sends, in turn: a refa, then each seat declares pik on it with a follower.
DEALS = [
    {"kind": "refa"},
    {"kind": "played", "declarer": "1", "contract": "pik", "on_refa": "on", "tricks_2": "2"},
    {"kind": "played", "declarer": "2", "contract": "pik", "on_refa": "on", "tricks_3": "2"},
    {"kind": "played", "declarer": "3", "contract": "karo", "on_refa": "on", "tricks_1": "2"},
]
DEALS_SEEN = re.compile(rb'data-deals="(\d+)"')


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--phones", type=int, default=3, help="watching phones per table")
    parser.add_argument("--deal-every", type=float, default=90.0, help="seconds, per table")
    parser.add_argument("--refresh", type=float, default=5.0, help="a watcher's, seconds")
    parser.add_argument("--deals-per-paper", type=int, default=12)
    parser.add_argument("--board-phones", type=int, default=30)
    parser.add_argument("--board-every", type=float, default=10.0, help="seconds")
    parser.add_argument("--history", type=int, default=300, help="games before the night")
    parser.add_argument("--warmup", type=float, default=30.0, help="seconds not counted")
    parser.add_argument("--seconds", type=float, default=300.0, help="seconds measured")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn's")
    parser.add_argument("--port", type=int, default=0, help="0: a free one")
    parser.add_argument("--seed", type=int, default=2029)
    return parser.parse_args(argv)


# The club ----------------------------------------------------------------------------------------


def build(args, rng: random.Random) -> dict:
    """The league, its members, their history, the night and a paper at each of its tables."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.utils import timezone

    from ratings import engine
    from ratings.events import services as events
    from ratings.events.models import EventTable, Scoring
    from ratings.models import League, Player, System
    from ratings.models.leagues import Confirmation
    from ratings.papers import services as papers

    call_command("migrate", verbosity=0, interactive=False)
    call_command("flush", verbosity=0, interactive=False)
    league = League.objects.create(
        name="Club night", slug="night", system=System.PREFKO, confirmation=Confirmation.EVERY_SEAT
    )
    users = get_user_model()
    players = []
    for n in range(args.tables * 3):
        user = users.objects.create_user(f"member{n}", password=secrets.token_urlsafe(12))
        players.append(Player.objects.create(name=f"Member {n:03d}", slug=f"member-{n}", user=user))
    now = timezone.now()
    start = now - timedelta(days=60)
    for n in range(args.history):
        seats = rng.sample(players, 3)
        engine.game_record(
            league=league,
            played_at=start + timedelta(minutes=n * 60 * 24 * 50 // max(args.history, 1)),
            entries=[
                engine.Entry(player_id=p.pk, paper=paper)
                for p, paper in zip(seats, random_paper(rng), strict=True)
            ],
            bula=30,
        )
    event = events.event_create(
        league=league,
        name="Friday night",
        starts_at=now + timedelta(minutes=1),
        organiser=None,
        players=players,
        rounds_total=1,
        scoring=Scoring.TOTAL,
        seed=rng.randrange(2**31),
    )
    events.round_draw(event=event)
    tables = []
    for table in EventTable.objects.filter(round__event=event).order_by("number"):
        seated = [s.player for s in table.seats.order_by("seat").select_related("player__user")]
        paper = papers.paper_start(league=league, players=seated, bula=30, table=table)
        tables.append(Table(table.number, [p.user for p in seated], paper.pk))
    return {"league": league, "event": event, "tables": tables}


def session_cookie(user) -> str:
    """A logged-in phone's session (as the login form would make it, without its request)."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


# The phones --------------------------------------------------------------------------------------


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)
        self.delays: list[float] = []
        self.counting = False

    def add(self, kind: str, seconds: float) -> None:
        if self.counting:
            with self.lock:
                self.times[kind].append(seconds)

    def error(self, kind: str, what: str) -> None:
        with self.lock:
            self.errors[kind] += 1
        print(f"club_night: {kind}: {what}", file=sys.stderr)


class Phone:
    """One phone: its cookies, an ETag per address, HTTP/1.1 to the server, a new connection
    each request (a phone refreshing every few seconds outlives gunicorn's keep-alive, 2 s)."""

    def __init__(self, port: int, session: str | None = None):
        self.port = port
        self.cookies = {settings.SESSION_COOKIE_NAME: session} if session else {}
        self.etags: dict[str, str] = {}

    def request(self, method: str, path: str, body: dict | None = None, headers=None):
        headers = {"Accept-Encoding": "gzip", **(headers or {})}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        data = None
        if body is not None:
            data = urlencode(body).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.cookies.get(settings.CSRF_COOKIE_NAME, "")
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        started = time.monotonic()
        try:
            connection.request(method, path, body=data, headers=headers)
            response = connection.getresponse()
            content = response.read()
        finally:
            connection.close()
        elapsed = time.monotonic() - started
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        if response.headers.get("Content-Encoding") == "gzip":
            content = gzip.decompress(content)
        return response, content, elapsed

    def watch(self, path: str, headers=None):
        """A conditional GET: If-None-Match with the ETag last given for ``path``."""
        headers = dict(headers or {})
        if path in self.etags:
            headers["If-None-Match"] = self.etags[path]
        response, content, elapsed = self.request("GET", path, headers=headers)
        if response.status == 200 and response.headers.get("ETag"):
            self.etags[path] = response.headers["ETag"]
        return response, content, elapsed


class Table:
    def __init__(self, number: int, users: list, paper: int):
        self.number = number
        self.users = users
        self.paper = paper
        self.lock = threading.Lock()
        self.sent: dict[tuple[int, int], float] = {}  # (paper, deal number): when it was sent
        self.seen: dict[int, int] = {}  # watcher: deals seen of the current paper
        self.deals = 0


def watcher(table: Table, n: int, phone: Phone, args, stats: Stats, stop: threading.Event):
    rng = random.Random(args.seed * 1000 + table.number * 10 + n)
    time.sleep(rng.uniform(0, args.refresh))
    while not stop.is_set():
        due = time.monotonic() + args.refresh
        with table.lock:
            paper = table.paper
        path = f"/papers/{paper}/"
        try:
            response, content, elapsed = phone.watch(path, {"X-Club-Page": "1"})
        except OSError as error:
            stats.error("paper watched", repr(error))
        else:
            if response.status == 304:
                stats.add("paper watched: 304", elapsed)
            elif response.status == 200:
                stats.add("paper watched: 200 (drawn)", elapsed)
                found = DEALS_SEEN.search(content)
                seen = int(found.group(1)) if found else 0
                now = time.monotonic()
                with table.lock:
                    before = table.seen.get((paper, n), 0)
                    for deal in range(before + 1, seen + 1):
                        if (paper, deal) in table.sent and stats.counting:
                            stats.delays.append(now - table.sent[(paper, deal)])
                    table.seen[(paper, n)] = max(before, seen)
            else:
                stats.error("paper watched", f"{path} answered {response.status}")
        stop.wait(max(0.0, due - time.monotonic()))


def dealer(table: Table, phones: list[Phone], args, stats: Stats, stop: threading.Event, league):
    from ratings.papers import services as papers

    rng = random.Random(args.seed * 7 + table.number)
    for phone in phones:
        if settings.CSRF_COOKIE_NAME not in phone.cookies:  # a phone that opened no paper yet
            phone.watch(f"/papers/{table.paper}/")
    dealt = 0
    # The tables are at different points of their games: the first paper ends after 1 to
    # --deals-per-paper deals, each one after that after --deals-per-paper.
    last = rng.randint(1, args.deals_per_paper)
    while not stop.wait(rng.expovariate(1 / args.deal_every)):
        with table.lock:
            paper = table.paper
        body = {"after": str(dealt), "submission_key": str(uuid.uuid4())}
        body.update(DEALS[dealt % len(DEALS)])
        with table.lock:
            table.sent[(paper, dealt + 1)] = time.monotonic()
        try:
            response, content, elapsed = phones[0].request(
                "POST", f"/papers/{paper}/deal/", body, {"Accept": "application/json"}
            )
        except OSError as error:
            stats.error("deal posted", repr(error))
            continue
        if response.status != 200 or b'"ok": true' not in content:
            stats.error("deal posted", f"{response.status} {content[:300]!r}")
            continue
        stats.add("deal posted", elapsed)
        dealt += 1
        if dealt < last:
            continue
        # The paper is done for the night's purposes: finished (held), confirmed by the others.
        response, _content, elapsed = phones[0].request(
            "POST", f"/papers/{paper}/finish/", {"save": "1", "ended_early": "1"}
        )
        location = response.headers.get("Location", "")
        if response.status != 302 or "/games/waiting/" not in location:
            stats.error("paper finished", f"{response.status} {location}")
            continue
        stats.add("paper finished", elapsed)
        held = urlsplit(location).path
        for phone in phones[1:3]:
            response, _content, elapsed = phone.request("POST", f"{held}confirm/", {})
            if response.status == 302:
                stats.add("game confirmed", elapsed)
            else:
                stats.error("game confirmed", f"{held}: {response.status}")
        from ratings.models import Player

        seated = list(Player.objects.filter(user__in=table.users))
        seated.sort(key=lambda p: [u.pk for u in table.users].index(p.user_id))
        new = papers.paper_start(league=league, players=seated, bula=30)
        with table.lock:
            table.paper = new.pk
        dealt, last = 0, args.deals_per_paper
        note_own_backend()


def board(n: int, phone: Phone, paths: list[str], args, stats: Stats, stop: threading.Event):
    rng = random.Random(args.seed * 31 + n)
    time.sleep(rng.uniform(0, args.board_every))
    turn = n
    while not stop.is_set():
        due = time.monotonic() + args.board_every
        kind, path = paths[turn % len(paths)]
        turn += 1
        try:
            response, _content, elapsed = phone.watch(path)
        except OSError as error:
            stats.error(kind, repr(error))
        else:
            if response.status in (200, 304):
                stats.add(f"{kind}: {response.status}", elapsed)
            else:
                stats.error(kind, f"{path} answered {response.status}")
        stop.wait(max(0.0, due - time.monotonic()))


# The server's CPU --------------------------------------------------------------------------------

TICK = os.sysconf("SC_CLK_TCK")
_own_backends: set[int] = set()


def note_own_backend() -> None:
    """This thread's connection to PostgreSQL is the bench's, not the server's."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            _own_backends.add(cursor.fetchone()[0])


def cpu_seconds(pid: int) -> float | None:
    """A process's user and system time so far, its reaped children's included."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return sum(int(value) for value in fields[11:15]) / TICK


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == pid:
                found.append(int(entry.name))
    return found


class CpuMeter:
    """CPU seconds of the server's processes between start() and stop(): gunicorn's master and
    workers, db_worker, and the PostgreSQL backends of the database (sampled each second: a
    backend that ends between two samples loses its last second's work)."""

    def __init__(self, gunicorn: int, worker: int, database: str | None):
        self.pids = {"gunicorn": gunicorn, "db_worker": worker}
        self.database = database
        self.backends: dict[int, list[float]] = {}  # pid: [first seen, last seen]
        self.stopped = threading.Event()

    def processes(self) -> dict[str, list[int]]:
        found = {"gunicorn": [self.pids["gunicorn"], *children(self.pids["gunicorn"])]}
        found["db_worker"] = [self.pids["db_worker"], *children(self.pids["db_worker"])]
        return found

    def sample_backends(self, connection) -> None:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                [self.database],
            )
            for (pid,) in cursor.fetchall():
                if pid in _own_backends:
                    continue
                now = cpu_seconds(pid)
                if now is None:
                    continue
                self.backends.setdefault(pid, [now, now])[1] = now

    def run(self) -> None:
        from django.db import connection

        note_own_backend()
        while not self.stopped.wait(1.0):
            self.sample_backends(connection)

    def start(self) -> None:
        self.began = {
            kind: {pid: cpu_seconds(pid) or 0.0 for pid in pids}
            for kind, pids in self.processes().items()
        }
        self.began_at = time.monotonic()
        if self.database:
            self.thread = threading.Thread(target=self.run, daemon=True)
            self.thread.start()

    def stop(self) -> dict[str, float]:
        wall = time.monotonic() - self.began_at
        used = {}
        for kind, pids in self.processes().items():
            used[kind] = sum(
                (cpu_seconds(pid) or 0.0) - self.began[kind].get(pid, 0.0) for pid in pids
            )
        if self.database:
            self.stopped.set()
            self.thread.join()
            used["PostgreSQL"] = sum(last - first for first, last in self.backends.values())
        used["wall"] = wall
        return used


# The run -----------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values: list[float], q: int) -> float:
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def start_server(args, port: int, env: dict) -> tuple[subprocess.Popen, subprocess.Popen]:
    python = sys.executable
    gunicorn = [python, "-m", "gunicorn", "club.wsgi", "-w", str(args.workers)]
    server = subprocess.Popen(
        [*gunicorn, "-b", f"127.0.0.1:{port}", "--log-level", "warning"], cwd=ROOT, env=env
    )
    worker = subprocess.Popen([python, "manage.py", "db_worker"], cwd=ROOT, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit("club_night: gunicorn exited")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return server, worker
        except OSError:
            time.sleep(0.2)
    sys.exit("club_night: gunicorn did not answer within 60 s")


def main(argv=None) -> None:
    args = parse_args(argv)
    from django.db import connection
    from django.urls import reverse

    name = connection.settings_dict["NAME"]
    if connection.vendor == "postgresql" and (
        name in REFUSED_DATABASES or str(name).startswith("test_")
    ):
        sys.exit(f"club_night: refusing database {name!r}: it is emptied first")
    rng = random.Random(args.seed)
    began = time.monotonic()
    club = build(args, rng)
    built = time.monotonic() - began
    league, event, tables = club["league"], club["event"], club["tables"]
    sessions = {user.pk: session_cookie(user) for table in tables for user in table.users}
    from django.core.management import call_command

    call_command("collectstatic", verbosity=0, interactive=False)
    connection.close()

    port = args.port or free_port()
    env = {
        **os.environ,
        "DEBUG": "false",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "PYTHONPATH": str(ROOT),
    }
    server, worker = start_server(args, port, env)
    stats, stop = Stats(), threading.Event()
    threads = []
    try:
        for table in tables:
            phones = [Phone(port, sessions[user.pk]) for user in table.users]
            for n, phone in enumerate(phones[: args.phones]):
                phone.watch(f"/papers/{table.paper}/")  # the page opened: its cookies, its ETag
                threads.append(
                    threading.Thread(target=watcher, args=(table, n, phone, args, stats, stop))
                )
            threads.append(
                threading.Thread(target=dealer, args=(table, phones, args, stats, stop, league))
            )
        paths = [
            ("leaderboard", reverse("ratings:leaderboard", args=[league.slug])),
            ("night's page", reverse("ratings:event", args=[event.pk])),
        ]
        for n in range(args.board_phones):
            threads.append(
                threading.Thread(target=board, args=(n, Phone(port), paths, args, stats, stop))
            )
        for thread in threads:
            thread.daemon = True
            thread.start()
        stop.wait(args.warmup)
        meter = CpuMeter(
            server.pid, worker.pid, name if connection.vendor == "postgresql" else None
        )
        meter.start()
        own = os.times()
        stats.counting = True
        load_before = os.getloadavg()[0]
        stop.wait(args.seconds)
        stats.counting = False
        used = meter.stop()
        own = (os.times().user + os.times().system) - (own.user + own.system)
        load_after = os.getloadavg()[0]
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=70)
        for process in (worker, server):
            process.send_signal(signal.SIGTERM)
        for process in (worker, server):
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
    report(args, connection.vendor, built, stats, used, (load_before, load_after), own)
    if stats.errors:
        sys.exit("club_night: some requests failed (above)")


def report(args, vendor: str, built: float, stats: Stats, used: dict, load, own: float) -> None:
    phones = args.tables * args.phones + args.board_phones
    minutes = used["wall"] / 60
    cpu = sum(seconds for kind, seconds in used.items() if kind != "wall")
    lines = [
        f"club night: {args.tables} tables x {args.phones} phones watching every "
        f"{args.refresh:g} s, a deal per table every {args.deal_every:g} s on average, a paper "
        f"finished and confirmed every {args.deals_per_paper} deals (the first after 1 to "
        f"{args.deals_per_paper}), {args.board_phones} phones "
        f"on the leaderboard and the night's page every {args.board_every:g} s; "
        f"{vendor}, gunicorn {args.workers} workers and db_worker; "
        f"{used['wall']:.0f} s measured after {args.warmup:g} s (club built in {built:.0f} s); "
        f"load average {load[0]:.1f} at the start, {load[1]:.1f} at the end",
        "",
        f"{'request':<34} {'count':>6} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'errors':>6}",
    ]
    for kind in sorted(set(stats.times) | set(stats.errors)):
        ms = [t * 1000 for t in stats.times.get(kind, [])]
        lines.append(
            f"{kind:<34} {len(ms):>6} {percentile(ms, 50):>8.1f} {percentile(ms, 99):>8.1f} "
            f"{max(ms, default=0):>8.1f} {stats.errors.get(kind, 0):>6}"
        )
    every = sum(len(times) for times in stats.times.values())
    slow = sum(t > 1 for times in stats.times.values() for t in times)
    delays = stats.delays
    within = args.refresh + 1
    lines += [
        "",
        f"a watcher sees a deal: {len(delays)} sightings, p50 {percentile(delays, 50):.2f} s, "
        f"p99 {percentile(delays, 99):.2f} s, max {max(delays, default=0):.2f} s; "
        f"{sum(d <= within for d in delays)} of {len(delays)} within {within:g} s",
        "server CPU: "
        + ", ".join(f"{kind} {seconds:.1f} s" for kind, seconds in used.items() if kind != "wall")
        + f"; {cpu:.1f} s in {used['wall']:.0f} s = {cpu / used['wall']:.3f} of one core; "
        f"{cpu / phones / minutes * 1000:.1f} ms per phone per minute ({phones} phones); "
        f"the phones' own process {own:.1f} s",
        f"requests slower than 1 s: {slow} of {every}",
    ]
    posts = [t * 1000 for t in stats.times.get("deal posted", [])]
    lines += [
        "",
        "targets (issue #45): "
        f"deal post p99 {percentile(posts, 99):.0f} ms <= 150 ms: "
        f"{'met' if posts and percentile(posts, 99) <= 150 else 'MISSED'}; "
        f"watcher within {within:g} s: "
        f"{'met' if delays and max(delays) <= within else 'MISSED'}; "
        f"under half a core: {'met' if cpu / used['wall'] < 0.5 else 'MISSED'}",
    ]
    text = "\n".join(lines)
    print(text)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"club-night-{vendor}.txt").write_text(text + "\n")


if __name__ == "__main__":
    main()
