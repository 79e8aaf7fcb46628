"""Shared fixtures: the builders of tests/builders.py as fixtures, the worked example, users.

Builders are fixtures returning a function, so a test asks for ``make_player`` and calls it as
often as it likes. Games are recorded through :func:`ratings.engine.game_record`, the only writer
of ratings, so every test sees ratings exactly as the app computes them.
"""

from __future__ import annotations

import io
import random
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth.models import Permission
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from ratings import engine
from ratings.models import System
from tests import builders, snapshots
from tests.builders import (
    IMG,
    PASSWORD,
    SCRIPT,
    T0,
    T0_2025,
    make_league,
    make_players,
    paper_entries,
)
from tests.worked_example import (
    SMALL_PAPERS,
    WORKED_EXAMPLE_PAPERS,
    WORKED_EXAMPLE_PLAYERS,
    random_paper,
)


@pytest.fixture(autouse=True)
def _default_language():
    """A request in another language leaves it active in the thread: every test starts afresh."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _empty_page_cache():
    """Each test's database starts from the same data version (its writes are rolled back), so
    a page one test cached would match another test's version: each test starts with none."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def fast_passwords(settings):
    """A cheap password hasher, for files that make many users (the hash is not under test)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# Builders ---------------------------------------------------------------------------------------


@pytest.fixture(name="make_player")
def make_player_fixture(db):
    """make_player(name=None, **fields) -> Player, with a unique name when none is given."""
    return builders.make_player


@pytest.fixture(name="make_league")
def make_league_fixture(db):
    """make_league(system=PREFKO, name=None, **fields) -> League, slug made from the name."""
    return builders.make_league


@pytest.fixture
def record_game(db):
    """record_game(league, players, papers=... | scores=..., **game) -> Game, via the engine.

    Preferans games take ``papers`` (left, middle, right) per seat and default to bula 30;
    other games take ``scores``. Without ``played_at`` each game is an hour after the last one.
    """
    return builders.game_recorder()


@pytest.fixture
def prefko_league_with(make_league, make_player, record_game):
    """prefko_league_with(players=N, games=M) -> (league, players): random finished papers."""

    def build(*, players: int, games: int, seed: int = 7):
        rng = random.Random(seed)
        league = make_league(System.PREFKO)
        people = [make_player() for _ in range(players)]
        for _ in range(games):
            record_game(league, rng.sample(people, 3), papers=random_paper(rng))
        return league, people

    return build


@pytest.fixture
def elo_league_with(make_league):
    """elo_league_with(player=..., opponents=N, games=M) -> league: bulk-imported.

    Goes through the engine's bulk import (the path a rayter file takes), so thousands of games
    cost seconds rather than minutes; the named player plays every game.
    """

    def build(*, player: str, opponents: int, games: int, seed: int = 11):
        rng = random.Random(seed)
        league = make_league(System.ELO)
        others = [f"Opponent {n}" for n in range(opponents)]
        imported = []
        for n in range(games):
            score = rng.choice((1.0, 0.5, 0.0))
            seats = [(player, score), (others[n % opponents], 1.0 - score)]
            imported.append(
                engine.ImportedGame(
                    played_at=T0 + timedelta(hours=n), scores=seats[:: rng.choice((1, -1))]
                )
            )
        engine.games_import(league=league, games=imported)
        return league

    return build


# The worked example (tests/worked_example.py) ---------------------------------------------------


@pytest.fixture
def worked_example_league(make_league):
    # Everyone ranked, whatever their number of games: the page tests check the ranking itself
    # (tests/views/test_leaderboard_thresholds.py checks provisional and inactive players).
    return make_league(
        System.PREFKO, name="Friday Preferans", start_rating=1000, provisional_games=0
    )


@pytest.fixture
def worked_example_players(worked_example_league):
    """Pedja, Marko and Johnny with their own start ratings 1200, 1150 and 1100."""
    return builders.worked_example_players(worked_example_league)


@pytest.fixture
def worked_example_game(worked_example_league, worked_example_players, record_game, member_user):
    """The worked example: bula 30, final scores -500 / 40 / 460, changes -27 / +2 / +25."""
    return record_game(
        worked_example_league,
        worked_example_players,
        papers=WORKED_EXAMPLE_PAPERS,
        bula=30,
        entered_by=member_user,
    )


# The demo club (the ``demo`` command's), built once per session ---------------------------------


@pytest.fixture(scope="session")
def _demo_club_snapshot(django_db_setup, django_db_blocker) -> tuple[snapshots.Snapshot, str]:
    def build() -> str:
        out = io.StringIO()
        call_command("demo", stdout=out)
        return out.getvalue()

    with django_db_blocker.unblock():
        return snapshots.take("demo_snapshot", build)


@pytest.fixture
def demo_club(_demo_club_snapshot, db) -> str:
    """The demo club as ``manage.py demo`` builds it (default password), in this test's
    database; returns what the command printed. Built once per session (tests/snapshots.py):
    each test gets its own copy, rolled back with the test."""
    snapshot, output = _demo_club_snapshot
    snapshot.restore()
    return output


# Users: a visitor (pytest-django's ``client``), a member, and staff ----------------------------


@pytest.fixture
def typo_club(make_league, make_player, record_game):
    """A Preferans league where "Pedia", Pedja's typo, played two games without him:
    (league, pedja, pedia). Marko, Johnny and Ana sat with both."""
    league = make_league(System.PREFKO, name="Preferans")
    pedja, marko, johnny, pedia, ana = (
        make_player(name) for name in ("Pedja", "Marko", "Johnny", "Pedia", "Ana")
    )
    for seated in ([pedja, marko, johnny], [pedia, marko, johnny], [marko, pedja, ana]):
        record_game(league, seated, papers=WORKED_EXAMPLE_PAPERS)
    record_game(league, [johnny, ana, pedia], papers=WORKED_EXAMPLE_PAPERS)
    return league, pedja, pedia


@pytest.fixture
def member_user(django_user_model):
    return django_user_model.objects.create_user("member", password=PASSWORD)


@pytest.fixture
def staff_user(django_user_model):
    return django_user_model.objects.create_user("staff", password=PASSWORD, is_staff=True)


@pytest.fixture
def member_client(member_user) -> Client:
    client = Client()
    client.force_login(member_user)
    return client


@pytest.fixture
def staff_client(staff_user) -> Client:
    client = Client()
    client.force_login(staff_user)
    return client


# Leagues, users and games the refusal tests share ------------------------------------------------


@pytest.fixture
def hearts_league(make_league):
    """A Rayter league where the lowest score wins, slug "hearts"."""
    return make_league(System.RAYTER_LOWSCORE, name="Hearts", slug="hearts", game_name="Hearts")


@pytest.fixture
def importer(staff_user):
    """Staff who may import and replace (add_game and delete_game)."""
    staff_user.user_permissions.add(
        *Permission.objects.filter(codename__in=["add_game", "delete_game"])
    )
    return staff_user


@pytest.fixture
def chess_game(make_league, make_player, record_game):
    """The second of two Elo games between Ana and Bo."""
    league = make_league(System.ELO, name="Chess")
    ana, bo = make_player("Ana"), make_player("Bo")
    record_game(league, [ana, bo], scores=[1, 0], played_at=T0_2025)
    return record_game(league, [bo, ana], scores=[1, 0], played_at=T0_2025 + timedelta(days=1))


@pytest.fixture
def friday_league(db):
    """A Preferans league whose one game the worked example's players played."""
    league = make_league(System.PREFKO, name="Friday")
    players = make_players(WORKED_EXAMPLE_PLAYERS)
    engine.game_record(
        league=league,
        played_at=T0,
        entries=paper_entries(players, SMALL_PAPERS),
        bula=30,
    )
    return league


@pytest.fixture
def chess_league(db):
    return make_league(System.ELO, name="Chess")


@pytest.fixture
def hostile_club(make_league, make_player, record_game):
    """A league and players whose names are HTML, with a game between them: (league, players,
    game). The league's name holds both hostile names, so a page that names only the league
    shows both."""
    league = make_league(System.PREFKO, name=f"Friday {SCRIPT} {IMG}", slug="hostile")
    players = [make_player(SCRIPT), make_player(IMG), make_player("Plain Name")]
    game = record_game(league, players, papers=[(10, 2, 4), (6, -1, 8), (0, -1, 2)])
    return league, players, game
