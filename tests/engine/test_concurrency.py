"""Many writers at once: nothing lost, nothing duplicated, every rating equal to a replay.

On PostgreSQL (what a club deploys) real clients post the entry form in parallel to a live server
while an admin edits and deletes earlier games of the same league and an import runs in another.
On SQLite, separate processes write to one database file and must queue, not fail.
"""

import os
import subprocess
import sys
import threading
import uuid
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.urls import reverse

from ratings import engine
from ratings.models import Game, League, Player, System
from tests.builders import T0, Browser, hidden, paper_entries
from tests.replays import assert_unchanged_by_recompute
from tests.worked_example import SMALL_PAPERS

ROOT = Path(__file__).resolve().parents[2]


def browser_enters_game(browser: Browser, path: str, players, played_at: datetime, statuses: list):
    status, page = browser.get(path)
    data = {
        "submission_key": str(uuid.uuid4()),
        "played_at": played_at.strftime("%Y-%m-%dT%H:%M"),
        "bula": "30",
    }
    for seat, (player, paper) in enumerate(zip(players, SMALL_PAPERS, strict=True)):
        data[f"player_{seat}"] = player.name
        data[f"left_{seat}"], data[f"middle_{seat}"], data[f"right_{seat}"] = paper
    status, page = browser.post(path, {**data, "preview": "1"})
    statuses.append(status)
    data["previewed"] = hidden(page, "previewed")
    status, _page = browser.post(path, {**data, "save": "1"})
    statuses.append(status)
    # A refresh after the POST, or a double click: the same form again.
    status, _page = browser.post(path, {**data, "save": "1"})
    statuses.append(status)


@pytest.mark.django_db(transaction=True)
def test_parallel_entries_edits_deletes_and_imports_on_postgresql(live_server, django_user_model):
    if connection.vendor != "postgresql":
        pytest.skip("concurrency is tested on PostgreSQL (set DATABASE_URL); SQLite below")
    league = League.objects.create(name="Preferans", slug="preferans", system=System.PREFKO)
    hearts = League.objects.create(name="Hearts", slug="hearts", system=System.RAYTER_LOWSCORE)
    players = [Player.objects.create_named(f"Player {n}") for n in range(9)]
    earlier = [
        engine.game_record(
            league=league,
            played_at=T0 - timedelta(days=30 - n),
            entries=paper_entries(players[n % 6 : n % 6 + 3], SMALL_PAPERS),
            bula=30,
        )
        for n in range(12)
    ]
    members = [django_user_model.objects.create_user(f"member{n}") for n in range(20)]
    path = reverse("ratings:game_new", args=[league.slug])
    statuses: list[int] = []
    errors: list[BaseException] = []

    def guarded(target, *args):
        def run():
            try:
                target(*args)
            except BaseException as error:  # reported below, with the thread's failure
                errors.append(error)
            finally:
                connection.close()

        return threading.Thread(target=run)

    def admin_work():
        for n, game in enumerate(earlier[:6]):
            if n % 2:
                engine.game_delete(game=game)
            else:
                engine.game_update(
                    game=game,
                    played_at=game.played_at + timedelta(hours=1),
                    entries=paper_entries(players[2::-1], SMALL_PAPERS),
                    bula=50,
                )

    def import_work():
        for n in range(5):
            engine.games_import(
                league=hearts,
                games=[
                    engine.ImportedGame(
                        played_at=T0 + timedelta(hours=n * 10 + k),
                        scores=[(f"Hearts {j}", (j * 7 + k) % 26) for j in range(4)],
                    )
                    for k in range(10)
                ],
            )

    threads = [
        guarded(
            browser_enters_game,
            Browser(live_server.url, member),
            path,
            players[n % 7 : n % 7 + 3],
            T0 + timedelta(minutes=n),
            statuses,
        )
        for n, member in enumerate(members)
    ]
    threads += [guarded(admin_work), guarded(import_work)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not any(thread.is_alive() for thread in threads), "a client hung: deadlock?"
    assert not errors, errors
    assert 500 not in statuses
    assert statuses.count(302) == 40  # each save and its repeat redirect to the game
    assert Game.objects.filter(league=league, played_at__gte=T0).count() == 20
    assert Game.objects.filter(league=league).count() == 20 + 12 - 3
    assert Game.objects.filter(league=hearts).count() == 50
    assert_unchanged_by_recompute(league)
    assert_unchanged_by_recompute(hearts)


def test_sqlite_writers_in_separate_processes_queue_instead_of_failing(tmp_path):
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'club.sqlite3'}",
        "DEBUG": "true",
    }
    run = [sys.executable, "manage.py"]
    subprocess.run([*run, "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    setup = (
        "from ratings.models import League, Player, System;"
        "League.objects.create(name='P', slug='p', system=System.PREFKO);"
        "[Player.objects.create_named(f'Player {n}') for n in range(5)]"
    )
    subprocess.run([*run, "shell", "-c", setup], cwd=ROOT, env=env, check=True)
    workers = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.engine.concurrency_worker", "record", "p", str(n), "8"],
            cwd=ROOT,
            env=env,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(6)
    ]
    failures = [w.stderr.read() for w in workers if w.wait(timeout=300) != 0]
    assert not failures, failures
    verified = subprocess.run(
        [sys.executable, "-m", "tests.engine.concurrency_worker", "verify", "p"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert verified.stdout.split() == ["OK", "48"]
