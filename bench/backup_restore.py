"""Backup and restore of a 63,279-game club: the time and peak memory of each command.

    python bench/backup_restore.py                 # SQLite files in bench/out/
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/wtrestore_bench python bench/backup_restore.py
    python bench/backup_restore.py --games 5000 --runs 1        # a quick run

It builds a club on a fresh database (the database named in ``DATABASE_URL``, whose name must
contain "bench" since it is emptied; on PostgreSQL the restores go to a second database, the same
name with ``_restore`` appended, dropped and created for each run): 600 players, 40 user accounts
(a superuser and staff among them), a 60,000-game Preferans league, a 2,000-game Hearts league
imported as from a rayter file, a 1,279-game FIDE league with birth dates, and a few edits and
deletions for the audit trail. Then, ``--runs`` times, ``backup_club`` writes it to a .json.gz
file and ``restore_club`` loads that file into a fresh, migrated database; each command runs in a
process of its own, timed from start to exit, with its peak resident memory (``ru_maxrss`` of
that process). Each restore is checked against the club it came from, row for row.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import subprocess
import sys
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.run import OUT  # noqa: E402
from bench.synthetic_club import random_paper, skew_weights, skewed_players  # noqa: E402

# One key for every process of a run: the club built by one is read by the next.
SECRET_KEY = secrets.token_urlsafe(50)


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=600)
    parser.add_argument("--games", type=int, default=60_000, help="Preferans games")
    parser.add_argument("--scored", type=int, default=2_000, help="Hearts games")
    parser.add_argument("--duels", type=int, default=1_279, help="FIDE chess games")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--build", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args()


def databases() -> tuple[str, str]:
    """The source club's database URL and the URL that each restore gets afresh."""
    OUT.mkdir(parents=True, exist_ok=True)
    source = os.environ.get("DATABASE_URL")
    if source is None:
        return f"sqlite:///{OUT / 'backup-source.sqlite3'}", f"sqlite:///{OUT / 'restored.sqlite3'}"
    parts = urlsplit(source)
    name = parts.path.lstrip("/")
    if "bench" not in name:
        sys.exit(f"{name!r}: the benchmark empties its database, whose name must contain 'bench'.")
    return source, urlunsplit(parts._replace(path=f"/{name}_restore"))


def fresh_database(url: str) -> None:
    """Drop and create a PostgreSQL database, or delete a SQLite file; then migrate it."""
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        for suffix in ("", "-wal", "-shm"):
            Path(f"{parts.path[1:]}{suffix}").unlink(missing_ok=True)
    else:
        import psycopg

        name = parts.path.lstrip("/")
        admin = urlunsplit(parts._replace(path="/postgres"))
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
    manage(url, "migrate", "--verbosity", "0")


def environment(url: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "club.settings",
        # A fresh random key: the settings refuse a weak one with DEBUG off.
        "SECRET_KEY": os.environ.get("SECRET_KEY") or SECRET_KEY,
    }


def manage(url: str, *command: str) -> tuple[float, float, int]:
    """Run a manage.py command in its own process: wall seconds, CPU seconds (user + system),
    peak resident bytes. On a shared machine the CPU time is the steadier figure."""
    began = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "manage.py", *command], cwd=ROOT, env=environment(url)
    )
    _pid, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - began
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"manage.py {' '.join(command)} failed")
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


def build_club(args) -> str:
    """The club, built through the engine in this process; returns a one-line description."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group, Permission

    from ratings import engine
    from ratings.models import Game, League, Player, Result, System

    rng = random.Random(args.seed)
    User = get_user_model()
    clerks = Group.objects.create(name="clerks")
    clerks.permissions.add(*Permission.objects.filter(codename__in=["add_game", "change_game"]))
    User.objects.create_superuser("admin", password="bench-only-password")
    users = User.objects.bulk_create(
        [
            User(username=f"member{n:02d}", password="!", is_staff=n < 3, date_joined=start(n))
            for n in range(39)
        ]
    )
    for user in users[:3]:
        user.groups.add(clerks)
    players = Player.objects.bulk_create(
        [
            Player(
                name=f"Player {n:04d}",
                slug=f"player-{n:04d}",
                user=users[n] if n < len(users) else None,
                birth_date=date(1950 + n % 60, 1 + n % 12, 1 + n % 28) if n % 3 else None,
            )
            for n in range(args.players)
        ]
    )
    ids = [player.pk for player in players]
    weights = skew_weights(len(ids))

    prefko = League.objects.create(name="Friday Preferans", slug="friday", system=System.PREFKO)
    batch = []
    for n in range(args.games):
        seats = skewed_players(rng, ids, 3, weights)
        batch.append(
            engine.prepare_game(
                prefko,
                played_at=start(n, minutes=7),
                entries=[
                    engine.Entry(player_id=pid, paper=paper)
                    for pid, paper in zip(seats, random_paper(rng), strict=True)
                ],
                bula=rng.choice([30, 50, 60]),
            )
        )
        if len(batch) == 20_000:
            engine.games_record_many(league=prefko, games=batch, actor=users[0])
            batch = []
    engine.games_record_many(league=prefko, games=batch, actor=users[0])

    hearts = League.objects.create(
        name="Hearts", slug="hearts", system=System.RAYTER_LOWSCORE, game_name="Hearts"
    )
    names = [player.name for player in players[:60]]
    engine.games_import(
        league=hearts,
        games=[
            engine.ImportedGame(
                played_at=start(n, minutes=61),
                scores=[(name, rng.randint(0, 26)) for name in rng.sample(names, 4)],
            )
            for n in range(args.scored)
        ],
        actor=users[1],
    )

    chess = League.objects.create(
        name="Blitz", slug="blitz", system=System.FIDE, settings={"speed": "blitz"}
    )
    engine.games_record_many(
        league=chess,
        games=[
            engine.prepare_game(
                chess,
                played_at=start(n, minutes=97),
                entries=[
                    engine.Entry(player_id=pid, score=score)
                    for pid, score in zip(
                        rng.sample(ids[:80], 2), rng.choice([(1.0, 0.0), (0.5, 0.5)]), strict=True
                    )
                ],
            )
            for n in range(args.duels)
        ],
    )

    # The audit trail of a living club: start ratings, edits and deletions of old games.
    staff = users[0]
    for player in players[:5]:
        engine.standing_set_start_rating(league=chess, player=player, rating=1500, actor=staff)
    for game in Game.objects.filter(league=prefko).order_by("pk")[100:4000:400]:
        results = list(game.results.order_by("seat"))
        engine.game_update(
            game=game,
            played_at=game.played_at,
            entries=[engine.Entry(player_id=r.player_id, paper=r.paper) for r in results],
            bula=game.bula + 10,
            actor=staff,
        )
    for game in Game.objects.filter(league=prefko).order_by("pk")[5000:9000:1000]:
        engine.game_delete(game=game, actor=staff)

    games, results = Game.objects.count(), Result.objects.count()
    return f"{games:,} games, {results:,} results, {len(players):,} players, {len(users) + 1} users"


def start(n: int, minutes: int = 1440) -> datetime:
    """The n-th moment of a club that started in 2015, with microseconds as the app stores."""
    return datetime(2015, 1, 1, 19, 0, tzinfo=UTC) + timedelta(minutes=minutes * n, microseconds=n)


def club_digest() -> str:
    """A digest of every row that makes the club (the restored one must give the same)."""
    import hashlib

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from ratings.models import AuditEntry, Game, League, Player, Result, Standing

    digest = hashlib.sha256()
    for model in (get_user_model(), Group, League, Player, Game, Result, Standing, AuditEntry):
        fields = [field.attname for field in model._meta.concrete_fields]
        for row in model.objects.order_by("pk").values_list(*fields).iterator(chunk_size=20_000):
            digest.update(repr(row).encode())
    return digest.hexdigest()


def digest_of(url: str) -> str:
    """club_digest() of another database, computed in a process of its own."""
    code = (
        "import django, sys; django.setup(); sys.path.insert(0, 'bench'); "
        "from backup_restore import club_digest; print(club_digest())"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=environment(url),
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def build_in_this_process(args) -> None:
    import django

    django.setup()
    print(build_club(args))


def main() -> None:
    args = parse_args()
    if args.build:
        build_in_this_process(args)
        return
    # This process never loads Django or the club: a child process's ru_maxrss starts from the
    # memory of the process that started it, which must stay small for the peaks to be theirs.
    source, target = databases()
    vendor = "sqlite" if source.startswith("sqlite") else "postgresql"
    fresh_database(source)
    began = time.perf_counter()
    sizes = [f"--{name}={getattr(args, name)}" for name in ("players", "games", "scored", "duels")]
    built = subprocess.run(
        [sys.executable, __file__, "--build", f"--seed={args.seed}", *sizes],
        env=environment(source),
        capture_output=True,
        text=True,
        check=True,
    )
    club = built.stdout.strip().splitlines()[-1]
    print(f"Built {club} on {vendor} in {time.perf_counter() - began:.0f} s")
    expected = digest_of(source)

    backup = OUT / "club-backup.json.gz"
    figures = []
    for run in range(1, args.runs + 1):
        backup.unlink(missing_ok=True)
        backup_s, backup_cpu, backup_rss = manage(source, "backup_club", str(backup))
        fresh_database(target)
        restore_s, restore_cpu, restore_rss = manage(target, "restore_club", str(backup))
        same = digest_of(target) == expected
        figures.append((backup_s, restore_s, backup_cpu, restore_cpu, backup_rss, restore_rss))
        print(
            f"run {run}: backup {backup_s:.1f} s (CPU {backup_cpu:.1f} s), peak "
            f"{backup_rss / 2**20:.0f} MiB; restore {restore_s:.1f} s (CPU {restore_cpu:.1f} s), "
            f"peak {restore_rss / 2**20:.0f} MiB; restore/backup {restore_s / backup_s:.2f}x; "
            f"file {backup.stat().st_size / 2**20:.1f} MiB; restored club identical: {same}"
        )
        if not same:
            sys.exit("the restored club differs from the one backed up")

    def spread(values, unit, scale=1.0, digits=1):
        """The median and the range of the runs."""
        values = [v / scale for v in values]
        return (
            f"median {statistics.median(values):.{digits}f}{unit} "
            f"({min(values):.{digits}f}–{max(values):.{digits}f})"
        )

    backups, restores, backup_cpu, restore_cpu, backup_rss, restore_rss = zip(*figures, strict=True)
    ratios = [r / b for b, r in zip(backups, restores, strict=True)]
    cpu_ratios = [r / b for b, r in zip(backup_cpu, restore_cpu, strict=True)]
    print(
        f"\n{datetime.now():%Y-%m-%d}, {os.cpu_count()} cores, {vendor}, "
        f"Python {sys.version.split()[0]}, {club}, {args.runs} runs\n"
        f"backup_club:  {spread(backups, ' s')}, CPU {spread(backup_cpu, ' s')}, "
        f"peak {spread(backup_rss, ' MiB', 2**20)}\n"
        f"restore_club: {spread(restores, ' s')}, CPU {spread(restore_cpu, ' s')}, "
        f"peak {spread(restore_rss, ' MiB', 2**20)}\n"
        f"restore / backup: {spread(ratios, 'x', digits=2)} "
        f"(CPU time: {spread(cpu_ratios, 'x', digits=2)})"
    )


if __name__ == "__main__":
    main()
