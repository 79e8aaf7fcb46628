"""The rating engine against an independent from-scratch replay."""

import random
import uuid
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from hypothesis import given
from hypothesis import strategies as st

from ratings import engine
from ratings.models import (
    AuditEntry,
    Game,
    League,
    Player,
    RatingCorrection,
    Result,
    Standing,
    System,
)
from tests.builders import (
    GONE,
    SYSTEM_CODES,
    T0,
    elo_chain,
    entries_for,
    game_data,
    hearts_games,
    make_league,
    make_player,
    make_players,
    paper_entries,
    record_history,
    score_entries,
    worked_example_players,
)
from tests.replays import assert_equals_independent_replay, assert_unchanged_by_recompute
from tests.worked_example import (
    SMALL_PAPERS,
    WORKED_EXAMPLE_PAPERS,
    random_paper,
)

pytestmark = pytest.mark.django_db


def test_the_worked_example_with_own_start_ratings():
    league = make_league()
    players = worked_example_players(league)
    game = engine.game_record(
        league=league, played_at=T0, entries=paper_entries(players, WORKED_EXAMPLE_PAPERS), bula=30
    )
    results = list(game.results.order_by("seat"))
    assert [r.score for r in results] == [-500, 40, 460]
    assert [r.rating_after for r in results] == [1173, 1152, 1125]
    assert [s.rating for s in Standing.objects.filter(league=league).order_by("rating")] == [
        1125,
        1152,
        1173,
    ]


def test_recording_the_newest_game_costs_the_same_whatever_the_history(
    django_assert_num_queries,
):
    """No replay on the fast path: the 3rd and the 40th game take the same queries."""
    league = make_league()
    players = make_players(3)
    papers = SMALL_PAPERS
    counts = []
    for n in range(40):
        with CaptureQueriesContext(connection) as ctx:
            engine.game_record(
                league=league,
                played_at=T0 + timedelta(hours=n),
                entries=paper_entries(players, papers),
                bula=30,
            )
        counts.append(len(ctx.captured_queries))
    assert counts[2] == counts[39]
    # ... of which one counts the game in its players' seasons (ratings/engine/seasons.py) and
    # one in their tallies against each other (ratings/engine/opponents.py).
    assert counts[39] <= 14


def test_backdated_game_replays_from_its_place_and_leaves_other_leagues_alone():
    league, other = make_league(), make_league()
    players = make_players(3)
    papers = SMALL_PAPERS
    for n in range(5):
        engine.game_record(
            league=league,
            played_at=T0 + timedelta(days=n),
            entries=paper_entries(players, papers),
            bula=30,
        )
        engine.game_record(
            league=other,
            played_at=T0 + timedelta(days=n),
            entries=paper_entries(players, papers),
            bula=30,
        )
    other_before = list(Result.objects.filter(game__league=other).values_list("pk", "rating_after"))
    engine.game_record(
        league=league,
        played_at=T0 - timedelta(days=1),
        entries=paper_entries(players, WORKED_EXAMPLE_PAPERS),
        bula=30,
    )
    assert_equals_independent_replay(league)
    assert (
        list(Result.objects.filter(game__league=other).values_list("pk", "rating_after"))
        == other_before
    )


def test_deleting_the_only_game_returns_players_to_their_start():
    league = make_league(System.ELO, start_rating=1600)
    a, b = make_players(2)
    game = engine.game_record(league=league, played_at=T0, entries=score_entries([a, b], [1, 0]))
    engine.game_delete(game=game)
    assert {s.rating for s in Standing.objects.filter(league=league)} == {1600}
    assert {s.games for s in Standing.objects.filter(league=league)} == {0}


def test_a_key_sent_again_with_only_another_note_is_another_game_refused():
    league = make_league()
    players = worked_example_players(league)
    entries = paper_entries(players, WORKED_EXAMPLE_PAPERS)
    game = {"league": league, "played_at": T0, "entries": entries, "bula": 30}
    key = uuid.uuid4()
    first = engine.game_record(**game, note="Friday final", submission_key=key)
    assert engine.game_record(**game, note="Friday final", submission_key=key) == first

    with pytest.raises(engine.SubmissionReused, match=f"game #{first.pk}"):
        engine.game_record(**game, note="Saturday final", submission_key=key)
    assert Game.objects.get().note == "Friday final"


def test_prepare_game_refuses_a_middle_column_that_does_not_sum_to_zero():
    league = make_league()
    players = make_players(3)
    bad = [(0, 1, 0), (0, 0, 0), (0, 0, 0)]
    with pytest.raises(ValidationError, match="bulas add up to zero"):
        engine.game_record(
            league=league, played_at=T0, entries=paper_entries(players, bad), bula=30
        )
    game = engine.game_record(
        league=league, played_at=T0, entries=paper_entries(players, bad), bula=30, ended_early=True
    )
    assert game.ended_early
    assert Game.objects.filter(league=league).count() == 1


@pytest.mark.parametrize(
    ("system", "entries_fn", "message"),
    [
        (
            System.PREFKO,
            lambda p: paper_entries(p[:2], WORKED_EXAMPLE_PAPERS[:2]),
            "exactly 3 players",
        ),
        (System.ELO, lambda p: score_entries(p[:2], [1, 1]), "win and a loss"),
        (System.RAYTER_HIGHSCORE, lambda p: score_entries([p[0], p[0]], [1, 2]), "one seat"),
        (System.RAYTER_HIGHSCORE, lambda p: score_entries(p[:2], [1, float("nan")]), "finite"),
    ],
)
def test_engine_refuses_invalid_games_and_writes_nothing(system, entries_fn, message):
    league = make_league(system)
    players = make_players(3)
    bula = 30 if system == System.PREFKO else None
    with pytest.raises(ValidationError, match=message):
        engine.game_record(league=league, played_at=T0, entries=entries_fn(players), bula=bula)
    assert not Game.objects.filter(league=league).exists()


# Any sequence of operations ends where a from-scratch replay ends -------------------------------


@st.composite
def operations(draw):
    system = draw(SYSTEM_CODES)
    ops = []
    for _ in range(draw(st.integers(1, 14))):
        kind = draw(st.sampled_from(["add", "add", "add", "edit", "delete", "start"]))
        seats, data = draw(game_data(system))
        ops.append(
            {
                "kind": kind,
                "day": draw(st.integers(0, 6)),
                "seats": draw(st.permutations(range(6)))[:seats],
                "data": data,
                "pick": draw(st.integers(0, 100)),
                "start": draw(st.integers(800, 2600)),
            }
        )
    return system, ops


@given(operations())
def test_any_sequence_of_changes_equals_a_from_scratch_replay(case):
    system, ops = case
    extra = {"start_rating": 2350} if system == System.FIDE else {}
    league = make_league(system, **extra)
    players = make_players(3) + make_players(3, birth_date=date(2012, 5, 17))
    for op in ops:
        games = list(Game.objects.filter(league=league).chronological())
        played_at = T0 + timedelta(days=op["day"])
        if op["kind"] == "add" or not games and op["kind"] != "start":
            entries, bula = entries_for(players, op)
            engine.game_record(league=league, played_at=played_at, entries=entries, bula=bula)
        elif op["kind"] == "edit":
            entries, bula = entries_for(players, op)
            game = games[op["pick"] % len(games)]
            engine.game_update(game=game, played_at=played_at, entries=entries, bula=bula)
        elif op["kind"] == "delete":
            engine.game_delete(game=games[op["pick"] % len(games)])
        else:
            player = players[op["pick"] % len(players)]
            engine.standing_set_start_rating(league=league, player=player, rating=op["start"])
        assert_equals_independent_replay(league)
    engine.league_recompute(league=league)
    assert_equals_independent_replay(league)


def random_prepared(league, players, rng, count, start):
    """``count`` valid Preferans games among ``players``, a day apart from ``start``."""
    games = []
    for n in range(count):
        games.append(
            engine.prepare_game(
                league,
                played_at=start + timedelta(days=n),
                entries=paper_entries(rng.sample(players, 3), random_paper(rng)),
                bula=rng.choice([30, 50, 100]),
            )
        )
    return games


def test_recording_many_games_at_once_equals_a_replay_whether_newest_or_backdated():
    """Hundreds of results: several multi-row INSERT statements and a remainder; then a batch
    dated inside the history, which is written and replayed from its first game."""
    rng = random.Random(5)
    league = make_league()
    players = make_players(7)
    newest = random_prepared(league, players, rng, 150, T0)
    assert engine.games_record_many(league=league, games=newest) == 150
    assert Result.objects.filter(game__league=league).count() == 450
    assert_equals_independent_replay(league)

    backdated = random_prepared(league, players, rng, 40, T0 + timedelta(hours=12))
    assert engine.games_record_many(league=league, games=backdated) == 40
    assert Game.objects.filter(league=league).count() == 190
    assert_equals_independent_replay(league)


@pytest.mark.parametrize("system", [System.FIDE, System.RAYTER_LOWSCORE])
def test_a_bulk_write_in_many_chunks_comes_out_as_a_replay(monkeypatch, system):
    """Games in many chunks of results, streamed, and enough pairs for the tallies' COPY on
    PostgreSQL (FIDE's rater reads birth dates): ratings and tallies come out as a replay's."""
    from ratings.engine import bulk
    from tests.replays import assert_opponents_match_results

    monkeypatch.setattr(bulk, "RESULTS_CHUNK", 7)
    rng = random.Random(31)
    league = make_league(system)
    players = make_players(12, birth_date=date(2000, 1, 1))  # 66 pairs: more than COPY_MIN_ROWS
    games = []
    for n in range(120):
        seats = 2 if system == System.FIDE else rng.randint(2, 4)
        games.append(
            engine.GameInput(
                played_at=T0 + timedelta(hours=n),
                bula=None,
                player_ids=[player.pk for player in rng.sample(players, seats)],
                scores=[1.0, 0.0]
                if seats == 2
                else [float(rng.randint(0, 9)) for _ in range(seats)],
            )
        )

    assert engine.games_record_many(league=league, games=games) == 120

    assert_equals_independent_replay(league)
    assert_opponents_match_results(league)


def test_bulk_jobs_leave_the_garbage_collector_as_they_found_it():
    import gc

    from ratings.rayter import files as rayter_files

    assert gc.isenabled()
    rayter_files.import_rayter(data=b"game 2026-01-01 20:00\nAnn 10\nBob 7\n", league_slug="gc")
    assert gc.isenabled()
    with pytest.raises(rayter_files.RayterImportError):
        rayter_files.import_rayter(data=b"game 2026-01-02 20:00\nAnn ten\n", league_slug="gc")
    assert gc.isenabled()
    gc.disable()
    try:
        engine.league_recompute(league=League.objects.get(slug="gc"))
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.fixture
def collector_at_writes(monkeypatch) -> list[bool]:
    """Whether Python's garbage collector was on at each write of standings by the engine."""
    import gc

    from ratings.engine import writes

    seen = []
    save_states = writes.save_states

    def spying(*args, **kwargs):
        seen.append(gc.isenabled())
        return save_states(*args, **kwargs)

    monkeypatch.setattr(writes, "save_states", spying)
    return seen


def test_a_replay_through_the_admin_leaves_the_garbage_collector_on(
    admin_client, collector_at_writes
):
    """The switch is process-wide: paused in a server, it would stop collection for every
    other request the process serves meanwhile."""
    from django.urls import reverse

    league = make_league()
    record_history(league, make_players(3), [(SMALL_PAPERS, (0, 1, 2)), (SMALL_PAPERS, (1, 2, 0))])
    collector_at_writes.clear()

    admin_client.post(
        reverse("admin:ratings_league_changelist"),
        {"action": "recompute_ratings", "_selected_action": [league.pk]},
    )

    assert collector_at_writes == [True]


def test_the_bulk_commands_pause_the_garbage_collector(tmp_path, collector_at_writes):
    import gc
    from io import StringIO

    from django.core.management import call_command

    file = tmp_path / "hearts.txt"
    file.write_text("score_type lowscore\ngame 2026-01-01 20:00\nAnn 10\nBob 7\n")
    call_command("import_rayter", str(file), league="hearts", no_progress=True, stdout=StringIO())
    call_command("recompute_ratings", "hearts", stdout=StringIO())

    assert collector_at_writes == [False, False]
    assert gc.isenabled()


def test_recording_many_games_chunk_by_chunk_equals_a_replay(monkeypatch):
    """The results are rated and written a chunk of games at a time; chunks of 7 games with a
    remainder rate exactly as one pass would."""
    from ratings.engine import bulk

    monkeypatch.setattr(bulk, "RESULTS_CHUNK", 7)
    league = make_league()
    games = random_prepared(league, make_players(5), random.Random(8), 30, T0)
    assert engine.games_record_many(league=league, games=games) == 30
    assert Result.objects.filter(game__league=league).count() == 90
    assert_equals_independent_replay(league)


@pytest.mark.parametrize("zone", ["UTC", "Europe/Belgrade", "America/New_York", "Asia/Kolkata"])
def test_bulk_datetimes_are_written_as_django_writes_them(zone):
    from zoneinfo import ZoneInfo

    from ratings.engine import writes

    tz = ZoneInfo(zone)
    values = [
        datetime(2026, 3, 29, 1, 59, tzinfo=tz),  # around Europe's change to summer time
        datetime(2026, 3, 29, 3, 0, tzinfo=tz),
        datetime(2026, 10, 25, 2, 30, tzinfo=tz),  # passed twice in Europe: fold 0, then 1
        datetime(2026, 10, 25, 2, 30, fold=1, tzinfo=tz),
        datetime(1900, 1, 1, 0, 0, tzinfo=tz),
        datetime(2026, 11, 23, 14, 5, 7, 123456, tzinfo=tz),
    ]
    adapt = connection.ops.adapt_datetimefield_value
    assert writes.adapted_datetimes(values) == [adapt(value) for value in values]


def test_a_bulk_insert_refused_halfway_leaves_no_row(monkeypatch):
    """On SQLite a refused multi-row INSERT keeps its earlier rows (OR FAIL) until the
    transaction's rollback, which every caller lets the error reach; on PostgreSQL the refused
    COPY raises Django's IntegrityError, as an INSERT would."""
    from django.db import transaction

    from ratings.engine import sql, writes

    monkeypatch.setattr(sql, "COPY_MIN_ROWS", 1)  # a file's COPY, with a game's few rows

    league = make_league(System.RAYTER_HIGHSCORE)
    ann, bob = make_players(["Ann", "Bob"])
    games = [
        engine.GameInput(played_at=T0, bula=None, player_ids=[ann.pk, bob.pk], scores=[1.0, 2.0])
    ]
    with pytest.raises(IntegrityError), transaction.atomic():
        (game_id,) = writes.insert_games(league, games, None)
        rows = writes.result_rows(league, game_id, games[0])
        writes.insert_results([*rows, rows[0]])  # the first seat twice, after two good rows
    assert not Game.objects.exists()
    assert not Result.objects.exists()


@pytest.mark.parametrize(
    "kinds",
    [
        pytest.param([(None, False), (30, True), (1, False)], id="with-bula-or-ended-early"),
        pytest.param([(None, False)] * 3, id="times-only"),
    ],
)
@pytest.mark.parametrize("fraction", [0, 1001], ids=["whole-seconds", "microseconds"])
def test_bulk_inserted_games_read_back_as_the_orm_writes_them(staff_user, kinds, fraction):
    """SQLite takes the games of a bulk insert from JSON (their times alone when no game has a
    bula or ended early, as a file's; times in whole seconds as seconds since 1970) and their
    ids from the statement; every field must come back as a game saved through the ORM,
    whatever the database."""
    from ratings.engine import writes

    belgrade = ZoneInfo("Europe/Belgrade")
    times = [
        T0,
        datetime(2026, 10, 25, 2, 30, 5, tzinfo=belgrade),  # passed twice: fold 0, then 1
        datetime(2026, 10, 25, 2, 30, 5, fold=1, tzinfo=belgrade),
    ]
    league = make_league()
    ann, bob, cid = make_players(["Ann", "Bob", "Cid"])
    Game.objects.create(league=league, played_at=T0, note="")  # ids follow the league's last
    inputs = [
        engine.GameInput(
            played_at=at.replace(microsecond=n * fraction),
            bula=bula,
            player_ids=[ann.pk, bob.pk, cid.pk],
            scores=[0.0, 0.0, 0.0],
            ended_early=ended_early,
        )
        for n, (at, (bula, ended_early)) in enumerate(zip(times, kinds, strict=True))
    ]
    ids = writes.insert_games(league, inputs, staff_user.pk)
    games = Game.objects.in_bulk(ids)
    assert len(games) == len(inputs)
    saved = Game.objects.create(league=league, played_at=T0, note="", entered_by=staff_user)
    saved.refresh_from_db()
    for game_id, entered in zip(ids, inputs, strict=True):
        game = games[game_id]
        # In one zone: Python never finds a time of the repeated hour (fold 1) equal to a time
        # of another zone.
        assert (game.played_at, game.bula, game.ended_early) == (
            entered.played_at.astimezone(UTC),
            entered.bula,
            entered.ended_early,
        )
        assert (game.league_id, game.note, game.entered_by_id) == (league.pk, "", staff_user.pk)
        assert type(game.ended_early) is type(saved.ended_early)
        assert game.created_at == game.updated_at
        assert game.created_at.tzinfo is not None
    assert ids == sorted(ids)
    assert saved.pk > ids[-1]


def test_the_bulk_page_cache_is_put_back():

    from ratings.engine import writes

    def cache_size():
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA cache_size")
            return cursor.fetchone()[0]

    if connection.vendor != "sqlite":
        pytest.skip("a pragma of SQLite's")
    before = cache_size()
    with writes.bulk_page_cache():
        assert cache_size() == -writes.BULK_CACHE_KIB
    assert cache_size() == before


@override_settings(TIME_ZONE="Europe/Belgrade")
def test_a_fide_age_is_the_clubs_date_of_the_game_in_a_replay_too():
    """A junior's K-factor ends on their 18th birthday as the club's calendar has it. A game at
    00:30 on that day in Belgrade is 23:30 the day before in UTC, the zone the database gives
    back: a replay (after any correction) must still see the birthday, as the game's entry did."""
    zone = ZoneInfo("Europe/Belgrade")
    league = make_league(System.FIDE, start_rating=2000)
    junior = make_player("Junior", birth_date=date(2008, 3, 10))
    adult = make_player("Adult")
    # Past the 30 games of a newcomer's K of 40, so only the age sets the junior's K.
    start = datetime(2026, 1, 1, 19, 0, tzinfo=zone)
    for day in range(31):
        engine.game_record(
            league=league,
            played_at=start + timedelta(days=day),
            entries=score_entries([junior, adult], [0.5, 0.5]),
        )
    birthday = datetime(2026, 3, 10, 0, 30, tzinfo=zone)
    game = engine.game_record(
        league=league, played_at=birthday, entries=score_entries([junior, adult], [1, 0])
    )
    result = game.results.get(player=junior)
    assert result.rating_after - result.rating_before == 10  # K 20: 18 years old that day
    assert_unchanged_by_recompute(league)
    assert_equals_independent_replay(league)


@override_settings(TIME_ZONE="Europe/Belgrade")
def test_the_year_rule_reads_the_clubs_calendar_whatever_zone_a_time_comes_in():
    """23:30 UTC on 1899-12-31 is 00:30 on 1900-01-01 in Belgrade, a date the club takes; an
    hour earlier is 1899 there too."""
    league = make_league(System.ELO)
    ann, bob = make_players(["Ann", "Bob"])
    entries = score_entries([ann, bob], [1, 0])
    engine.game_record(
        league=league, played_at=datetime(1899, 12, 31, 23, 30, tzinfo=UTC), entries=entries
    )
    with pytest.raises(ValidationError, match="too long ago"):
        engine.game_record(
            league=league, played_at=datetime(1899, 12, 31, 22, 30, tzinfo=UTC), entries=entries
        )


# Two staff acting on one game at once ------------------------------------------------------------


def test_deleting_a_game_someone_deleted_meanwhile_says_so(chess_game):
    engine.game_delete(game=Game.objects.get(pk=chess_game.pk))  # the other staff member

    with pytest.raises(ValidationError) as refused:
        engine.game_delete(game=chess_game)

    assert refused.value.messages == [GONE]
    assert AuditEntry.objects.filter(action="delete").count() == 1


def test_editing_a_game_someone_deleted_meanwhile_says_so(chess_game):
    entries = [
        engine.Entry(player_id=r.player_id, score=1 - r.score) for r in chess_game.results.all()
    ]
    engine.game_delete(game=Game.objects.get(pk=chess_game.pk))

    with pytest.raises(ValidationError) as refused:
        engine.game_update(game=chess_game, played_at=chess_game.played_at, entries=entries)

    assert refused.value.messages == [GONE]
    assert not Game.objects.filter(pk=chess_game.pk).exists()
    assert not AuditEntry.objects.filter(action="update").exists()


def test_restoring_a_deleted_game_the_league_has_again_is_refused(make_league, make_player):
    """A league replaced by a file that holds the game again: restoring the deleted one from the
    audit trail would count it twice."""
    league = make_league(System.ELO, name="Chess")
    ana, bo = make_player("Ana"), make_player("Bo")
    entries = [engine.Entry(player_id=ana.pk, score=1.0), engine.Entry(player_id=bo.pk, score=0.0)]
    game = engine.game_record(league=league, played_at=T0, entries=entries)
    engine.game_delete(game=game)
    again = engine.game_record(league=league, played_at=T0, entries=entries)
    deleted = AuditEntry.objects.get(action="delete")

    with pytest.raises(ValidationError, match=f"has this game again, as game #{again.pk}"):
        engine.game_restore(entry=deleted)
    assert Game.objects.count() == 1


def test_restoring_from_a_damaged_audit_entry_is_refused_not_a_500(make_league, make_player):
    league = make_league(System.ELO, name="Chess")
    ana, bo = make_player("Ana"), make_player("Bo")
    entries = [engine.Entry(player_id=ana.pk, score=1.0), engine.Entry(player_id=bo.pk, score=0.0)]
    engine.game_delete(game=engine.game_record(league=league, played_at=T0, entries=entries))
    deleted = AuditEntry.objects.get(action="delete")
    for damage in ({"played_at": "garbage"}, {"results": "x"}, {"results": [{"seat": 0}]}):
        deleted.before = {**deleted.before, **damage}
        with pytest.raises(ValidationError, match="damaged"):
            engine.game_restore(entry=deleted)


@pytest.mark.parametrize("system", [System.RAYTER_LOWSCORE, System.OPENSKILL_HIGHSCORE])
def test_an_import_writes_what_recording_its_games_one_by_one_writes(system, monkeypatch):
    """The bulk path (on PostgreSQL through COPY, its game ids from the sequence; on SQLite one
    INSERT from JSON and multi-row INSERTs) stores the same rows, to the last bit of each
    rating, as recording each game alone: run on both databases, the import's results are the
    same on both. Games at the same time keep the file's order (their ids ascending)."""
    from ratings.engine import sql

    monkeypatch.setattr(sql, "COPY_MIN_ROWS", 1)  # a file's COPY, with a few games
    imported, recorded = make_league(system), make_league(system)
    games = hearts_games(6)
    games[3] = engine.ImportedGame(games[2].played_at, games[3].scores)  # two at one time

    summary = engine.games_import(league=imported, games=games)
    by_name = {player.name: player.pk for player in Player.objects.all()}
    for game in games:
        engine.game_record(
            league=recorded,
            played_at=game.played_at,
            entries=[
                engine.Entry(player_id=by_name[name], score=score) for name, score in game.scores
            ],
        )

    def stored(league):
        columns = ("player_id", "seat", "score", "rating_before", "rating_after")
        columns += ("state",)
        return [
            (game.played_at, game.bula, game.ended_early, game.note, game.entered_by_id)
            + tuple(game.results.order_by("seat").values_list(*columns))
            for game in Game.objects.filter(league=league).order_by("pk")
        ]

    assert summary.games == len(games)
    assert stored(imported) == stored(recorded)
    assert [game.played_at for game in Game.objects.filter(league=imported).order_by("pk")] == [
        game.played_at for game in games
    ]
    standings = Standing.objects.order_by("player_id").values_list("player_id", "rating", "games")
    assert list(standings.filter(league=imported)) == list(standings.filter(league=recorded))


@pytest.mark.django_db(transaction=True)
def test_a_bulk_write_refuses_a_missing_player_and_writes_nothing():
    """The foreign keys hold in a bulk write, which on PostgreSQL (where the role may) checks
    and locks a file's players in one statement instead of once per result."""
    league = make_league(System.RAYTER_HIGHSCORE)
    (ann,) = make_players(["Ann"])
    games = [engine.GameInput(played_at=T0, bula=None, player_ids=[ann.pk, -1], scores=[1, 2])]

    with pytest.raises(IntegrityError):
        engine.games_record_many(league=league, games=games)

    assert not Game.objects.exists()
    assert not Result.objects.exists()


# Corrections: how an edit, deletion, restore or merge moved each player's rating ----------------


def current_ratings(league) -> dict[int, float]:
    return dict(Standing.objects.filter(league=league).values_list("player_id", "rating"))


def test_an_edit_records_each_moved_rating_with_its_audit_entry():
    league, (ann, bob, cid), first = elo_chain()
    before = current_ratings(league)

    engine.game_update(game=first, played_at=T0, entries=score_entries([ann, bob], [0, 1]))

    after = current_ratings(league)
    entry = AuditEntry.objects.get(action="update")
    corrections = {
        c.player_id: (c.change, c.rating, c.game_played_at, c.action, c.at)
        for c in RatingCorrection.objects.filter(entry=entry, league=league)
    }
    assert entry.rerated_games == 2
    assert corrections == {
        player.pk: (after[player.pk] - before[player.pk], after[player.pk], T0, "update", entry.at)
        for player in (ann, bob, cid)
    }
    assert corrections[cid.pk][0] > 0  # he lost to a Bob who is now stronger: it costs less


def test_a_deletion_and_a_restore_record_the_moves_a_merge_too():
    league, (ann, bob, cid), first = elo_chain()
    start = current_ratings(league)

    engine.game_delete(game=first)
    deleted = AuditEntry.objects.get(action="delete")
    engine.game_restore(entry=deleted)
    restored = AuditEntry.objects.get(action="restore")

    moves = {
        entry.action: {c.player_id: c.change for c in entry.corrections.all()}
        for entry in (deleted, restored)
    }
    assert (deleted.rerated_games, restored.rerated_games) == (1, 2)
    assert set(moves["delete"]) == {ann.pk, bob.pk, cid.pk}
    assert moves["restore"] == pytest.approx({pid: -move for pid, move in moves["delete"].items()})
    assert current_ratings(league) == pytest.approx(start)

    dan = make_player("Dan")
    engine.game_record(
        league=league, played_at=T0 + timedelta(days=2), entries=score_entries([dan, ann], [1, 0])
    )
    engine.player_merge(source=dan, target=cid)
    merged = AuditEntry.objects.get(action="merge")
    assert merged.rerated_games == 3
    assert {c.player_id for c in merged.corrections.all()} == {ann.pk, cid.pk}
    assert RatingCorrection.objects.filter(player=cid, action="delete").exists()


def test_a_new_game_records_no_correction():
    league, _players, _first = elo_chain()

    assert not RatingCorrection.objects.exists()
    assert set(AuditEntry.objects.values_list("rerated_games", flat=True)) == {None}
