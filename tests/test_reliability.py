"""Reliability round two (issue #17): what a mistake or a hostile file must not be able to do.

- Replacing a league's games by an import leaves every deleted game restorable from the audit
  trail, on the import page and on the command line, without a query per game.
- The previewed upload waits in a table, not in the session, bound to its user and league.
- Birth dates are in the past and before every game of their player.
- A rayter file's years 1 and 9999 are refused line by line, whatever the club's time zone.
- A game deleted by one staff member while another deletes or edits it is a message, not a 500.

The races themselves, with real parallel clients on PostgreSQL, are in tests/test_races.py.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from io import StringIO

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Permission
from django.contrib.sessions.models import Session
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import IntegrityError, connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify

from ratings import engine
from ratings.admin import GameAdmin
from ratings.forms import PlayerForm
from ratings.forms.games import PreferansGameForm
from ratings.models import (
    AuditEntry,
    Game,
    League,
    PendingUpload,
    Player,
    Result,
    Standing,
    System,
)
from ratings.models.players import PlayerQuerySet
from ratings.rayter import files as rayter_files
from tests import builders
from tests.worked_example import WORKED_EXAMPLE_FORM

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 3, 1, 19, 0, tzinfo=UTC)
HEARTS_FILE = b"score_type lowscore\ngame 2025-06-01 20:00\nAna 3\nEma 9\n"


def hearts_games(count: int, *, start: datetime = T0, names=("Ana", "Bora", "Ceca", "Duda")):
    """``count`` Hearts games an hour apart, four players each, as an import brings them."""
    return [
        engine.ImportedGame(
            played_at=start + timedelta(hours=n),
            scores=[(name, float((n * 7 + seat * 5) % 26)) for seat, name in enumerate(names)],
        )
        for n in range(count)
    ]


def ratings_of(league) -> tuple[list, list]:
    results = Result.objects.filter(game__league=league).order_by("game_id", "seat")
    standings = Standing.objects.filter(league=league).order_by("player_id")
    return (
        list(results.values_list("game_id", "player_id", "score", "rating_before", "rating_after")),
        list(standings.values_list("player_id", "rating", "games")),
    )


@pytest.fixture
def hearts(make_league):
    return make_league(System.RAYTER_LOWSCORE, name="Hearts", slug="hearts", game_name="Hearts")


@pytest.fixture
def importer(staff_user):
    """Staff who may import and replace (add_game and delete_game)."""
    staff_user.user_permissions.add(
        *Permission.objects.filter(codename__in=["add_game", "delete_game"])
    )
    return staff_user


# Replacing a league's games keeps each of them restorable ---------------------------------------


def test_a_replace_leaves_a_deletion_entry_per_game_with_the_games_snapshot(hearts, importer):
    engine.games_import(league=hearts, games=hearts_games(5))
    snapshots = {g.pk: engine.game_snapshot(g) for g in Game.objects.filter(league=hearts)}

    summary = engine.games_import(
        league=hearts,
        games=hearts_games(2, start=T0 + timedelta(days=9)),
        replace=True,
        actor=importer,
    )

    assert summary.replaced == 5
    deletions = AuditEntry.objects.filter(action="delete", league=hearts)
    assert {entry.game_id: entry.before for entry in deletions} == snapshots
    assert {entry.user for entry in deletions} == {importer}
    assert Game.objects.filter(league=hearts).count() == 2


def test_the_replaced_games_come_back_with_restore_deleted_game(hearts, admin_client):
    engine.games_import(league=hearts, games=hearts_games(4))
    before = ratings_of(hearts)
    later = hearts_games(3, start=T0 + timedelta(days=9), names=("Ana", "Ema", "Fica"))
    engine.games_import(league=hearts, games=later, replace=True)
    deletions = AuditEntry.objects.filter(action="delete", league=hearts)

    response = admin_client.post(
        reverse("admin:ratings_auditentry_changelist"),
        {"action": "restore_deleted_games", "_selected_action": [e.pk for e in deletions]},
        follow=True,
    )

    assert response.status_code == 200
    assert Game.objects.filter(league=hearts).count() == 4 + 3
    # The four earlier games are back under their old ids and rated as they were; the three
    # the replace imported follow them.
    old_ids = {row[0] for row in before[0]}
    results, _standings = ratings_of(hearts)
    assert [row for row in results if row[0] in old_ids] == before[0]
    engine.league_recompute(league=hearts)
    assert ratings_of(hearts)[0] == results


def test_a_replace_takes_the_same_queries_for_a_few_or_many_games(make_league):
    """A replace must not read or write per deleted game: 100,000 games would take minutes."""
    queries = []
    for count in (200, 400):
        league = make_league(System.RAYTER_LOWSCORE)
        engine.games_import(league=league, games=hearts_games(count))
        with CaptureQueriesContext(connection) as captured:
            engine.games_import(
                league=league, games=hearts_games(1, start=T0 + timedelta(days=99)), replace=True
            )
        assert AuditEntry.objects.filter(league=league, action="delete").count() == count
        queries.append(len(captured))

    assert queries[0] == queries[1]


def test_a_preview_of_a_replace_deletes_nothing_and_writes_no_entry(hearts, importer, client):
    engine.games_import(league=hearts, games=hearts_games(3))
    client.force_login(importer)

    response = client.post(
        reverse("ratings:rayter_import", args=[hearts.slug]),
        {"file": SimpleUploadedFile("h.txt", HEARTS_FILE), "replace": "on"},
    )

    assert response.context["preview"].summary.replaced == 3
    assert "The audit trail keeps each of them" in response.content.decode()
    assert Game.objects.filter(league=hearts).count() == 3
    assert not AuditEntry.objects.filter(action="delete").exists()


def test_a_replace_on_the_import_page_is_restorable(hearts, importer, client):
    engine.games_import(league=hearts, games=hearts_games(3))
    snapshots = {g.pk: engine.game_snapshot(g) for g in Game.objects.filter(league=hearts)}
    client.force_login(importer)
    url = reverse("ratings:rayter_import", args=[hearts.slug])
    preview = client.post(url, {"file": SimpleUploadedFile("h.txt", HEARTS_FILE), "replace": "on"})

    client.post(url, {"confirm": "1", "token": preview.context["token"]})

    deletions = AuditEntry.objects.filter(action="delete", league=hearts, user=importer)
    assert {entry.game_id: entry.before for entry in deletions} == snapshots


def test_import_rayter_replace_on_the_command_line_is_restorable(hearts, tmp_path):
    engine.games_import(league=hearts, games=hearts_games(3))
    snapshots = {g.pk: engine.game_snapshot(g) for g in Game.objects.filter(league=hearts)}
    path = tmp_path / "hearts.txt"
    path.write_bytes(HEARTS_FILE)
    out = StringIO()

    call_command("import_rayter", str(path), "--league", "hearts", "--replace", stdout=out)

    assert "Deleted first (--replace): 3 games, each restorable from the audit trail" in (
        out.getvalue()
    )
    deletions = AuditEntry.objects.filter(action="delete", league=hearts)
    assert {entry.game_id: entry.before for entry in deletions} == snapshots
    assert {entry.user for entry in deletions} == {None}


# The previewed upload waits in a table, not in the session --------------------------------------


def import_url(league) -> str:
    return reverse("ratings:rayter_import", args=[league.slug])


def preview(client, league, data: bytes = HEARTS_FILE, **fields):
    return client.post(import_url(league), {"file": SimpleUploadedFile("h.txt", data), **fields})


def confirm(client, league, token: str):
    return client.post(import_url(league), {"confirm": "1", "token": token}, follow=True)


@pytest.fixture
def importer_client(importer, client):
    client.force_login(importer)
    return client


def test_a_previewed_file_waits_in_a_table_and_the_session_stays_small(
    hearts, importer, importer_client
):
    # About 400 KB: the session once carried all of it, read and written on every page.
    data = HEARTS_FILE + b"# a comment that pads the file\n" * 12_000
    session_key = importer_client.session.session_key

    response = preview(importer_client, hearts, data)

    assert response.context["preview"]
    pending = PendingUpload.objects.get()
    assert (pending.user, pending.league, pending.replace) == (importer, hearts, False)
    assert bytes(pending.data) == data
    assert pending.token_hash != response.context["token"]
    session = Session.objects.get(session_key=session_key)
    assert len(session.session_data) < 2_000


def test_confirming_imports_the_waiting_file_and_deletes_it(hearts, importer_client):
    token = preview(importer_client, hearts).context["token"]

    response = confirm(importer_client, hearts, token)

    assert "Imported 1 game;" in response.content.decode()
    assert Game.objects.filter(league=hearts).count() == 1
    assert not PendingUpload.objects.exists()


def test_an_upload_waits_for_its_own_user_only(hearts, importer_client, django_user_model):
    token = preview(importer_client, hearts).context["token"]
    other = django_user_model.objects.create_user("other", is_staff=True, is_superuser=True)
    other_client = type(importer_client)()
    other_client.force_login(other)

    response = confirm(other_client, hearts, token)

    assert "no longer waiting to be imported" in response.content.decode()
    assert not Game.objects.exists()
    assert PendingUpload.objects.count() == 1  # still the importer's to confirm


def test_an_upload_waits_for_its_own_league_only(hearts, importer_client, make_league):
    other = make_league(System.RAYTER_LOWSCORE)
    token = preview(importer_client, hearts).context["token"]

    response = confirm(importer_client, other, token)

    assert "no longer waiting to be imported" in response.content.decode()
    assert not Game.objects.exists()


def test_an_upload_left_for_more_than_a_day_is_not_imported(hearts, importer_client):
    token = preview(importer_client, hearts).context["token"]
    PendingUpload.objects.update(created_at=timezone.now() - timedelta(days=1, minutes=1))

    response = confirm(importer_client, hearts, token)

    assert "no longer waiting to be imported" in response.content.decode()
    assert not Game.objects.exists()


def test_a_new_upload_replaces_the_last_one_and_clears_expired_ones(
    hearts, importer_client, make_league, django_user_model
):
    elsewhere = make_league(System.RAYTER_LOWSCORE)
    someone = django_user_model.objects.create_user("someone", is_staff=True)
    fresh = PendingUpload.objects.create(
        token_hash="a" * 64, user=someone, league=hearts, data=HEARTS_FILE
    )
    stale = PendingUpload.objects.create(
        token_hash="b" * 64, user=someone, league=hearts, data=HEARTS_FILE
    )
    PendingUpload.objects.filter(pk=stale.pk).update(created_at=timezone.now() - timedelta(days=2))
    first = preview(importer_client, hearts).context["token"]
    other_league = preview(importer_client, elsewhere).context["token"]

    second = preview(importer_client, hearts).context["token"]

    waiting = set(PendingUpload.objects.values_list("pk", flat=True))
    assert fresh.pk in waiting and stale.pk not in waiting
    assert len(waiting) == 3  # someone's fresh one, and one per league of the importer's
    assert "no longer waiting" in confirm(importer_client, hearts, first).content.decode()
    assert "Imported 1 game;" in confirm(importer_client, hearts, second).content.decode()
    assert "Imported 1 game;" in confirm(importer_client, elsewhere, other_league).content.decode()


def test_a_failed_preview_leaves_nothing_waiting(hearts, importer_client):
    token = preview(importer_client, hearts).context["token"]

    response = preview(importer_client, hearts, b"game 2025-13-01 20:00\nAna 1\nEma 2\n")

    assert "token" not in response.context
    assert not PendingUpload.objects.exists()
    assert "no longer waiting" in confirm(importer_client, hearts, token).content.decode()


# Birth dates are in the past and before every game of their player -----------------------------


def player_change(client, player, **changes):
    data = {"name": player.name, "slug": player.slug, "user": "", "birth_date": ""}
    return client.post(
        reverse("admin:ratings_player_change", args=[player.pk]), {**data, **changes}
    )


def test_the_admin_refuses_a_birth_date_in_the_future(admin_client, make_player):
    player = make_player("Ana")
    tomorrow = timezone.localdate() + timedelta(days=1)

    response = player_change(admin_client, player, birth_date=tomorrow.isoformat())

    assert response.status_code == 200
    assert response.context["adminform"].form.errors["birth_date"] == [
        "A birth date cannot be in the future."
    ]
    player.refresh_from_db()
    assert player.birth_date is None


def test_the_admin_refuses_a_new_player_born_in_the_future(admin_client):
    tomorrow = timezone.localdate() + timedelta(days=1)

    response = admin_client.post(
        reverse("admin:ratings_player_add"),
        {"name": "Ana", "slug": "ana", "birth_date": tomorrow.isoformat()},
    )

    assert response.status_code == 200
    assert "birth_date" in response.context["adminform"].form.errors


def test_the_admin_refuses_a_birth_date_after_a_game_of_the_player_naming_it(
    admin_client, make_league, make_player, record_game
):
    league = make_league(System.FIDE, name="Chess")
    ana, bo = make_player("Ana"), make_player("Bo")
    first = record_game(league, [ana, bo], scores=[1, 0], played_at=T0)
    record_game(league, [ana, bo], scores=[0, 1], played_at=T0 + timedelta(days=30))

    response = player_change(admin_client, ana, birth_date="2025-03-02")

    assert response.status_code == 200
    assert response.context["adminform"].form.errors["birth_date"] == [
        f"Ana played game #{first.pk} (Chess) on 2025-03-01, before this birth date: check the"
        " date."
    ]
    ana.refresh_from_db()
    assert ana.birth_date is None


def test_the_admin_takes_a_birth_date_on_or_before_the_first_game(
    admin_client, make_league, make_player, record_game
):
    league = make_league(System.FIDE, name="Chess")
    ana, bo = make_player("Ana"), make_player("Bo")
    record_game(league, [ana, bo], scores=[1, 0], played_at=T0)

    response = player_change(admin_client, ana, birth_date="2025-03-01")

    assert response.status_code == 302
    ana.refresh_from_db()
    assert ana.birth_date.isoformat() == "2025-03-01"


def test_the_player_form_refuses_a_birth_date_in_the_future(member_client):
    tomorrow = timezone.localdate() + timedelta(days=1)

    response = member_client.post(
        reverse("ratings:player_new"), {"name": "Ana", "birth_date": tomorrow.isoformat()}
    )

    assert response.status_code == 200
    assert response.context["form"].errors["birth_date"] == [
        "A birth date cannot be in the future."
    ]


def test_a_fide_game_before_a_players_birth_date_is_previewed_and_saved(
    member_client, make_league, make_player
):
    """A birth date set before the rule existed: the game still rates (age 0), no 500."""
    league = make_league(System.FIDE, name="Chess")
    make_player("Ana", birth_date=datetime(2026, 1, 1).date())
    make_player("Bo")
    url = reverse("ratings:game_new", args=[league.slug])
    data = {
        "submission_key": "8c0f4a52-8d0e-4a2f-9b39-8e1a6fbd3f11",
        "played_at": "2025-06-01T20:00",
        "player_0": "Ana",
        "player_1": "Bo",
        "outcome": "1",
        "preview": "1",
    }

    preview = member_client.post(url, data)
    saved = member_client.post(
        url, {**data, "save": "1", "previewed": preview.context["form"]["previewed"].value()}
    )

    assert preview.status_code == 200
    assert preview.context["preview"]
    assert saved.status_code == 302
    assert Game.objects.filter(league=league).count() == 1


# Rayter files: years the calendar cannot hold are refused on their lines ------------------------

ZONES = ["UTC", "Europe/Belgrade", "America/New_York", "Pacific/Kiritimati"]
OUT_OF_RANGE = (
    b"score_type lowscore\n"  # line 1
    b"game 0001-01-01 00:00\nAna 1\nEma 2\n"  # line 2
    b"game 2025-06-01 20:00\nAna 3\nEma 4\n"  # line 5
    b"game 9999-12-31 23:59\nAna 5\nEma 6\n"  # line 8
    b"game 0001-01-01 00:00\nAna 7\nEma 8\n"  # line 11
    b"game 1899-12-31 23:59\nAna 9\nEma 0\n"  # line 14
)
OUT_OF_RANGE_PROBLEMS = [
    "line 2: That date is too long ago.",
    "line 8: That date is in the future.",
    "line 11: That date is too long ago.",
    "line 14: That date is too long ago.",
]


@pytest.mark.parametrize("zone", ZONES)
def test_import_rayter_refuses_years_1_and_9999_on_every_line_in_any_time_zone(
    settings, tmp_path, zone
):
    settings.TIME_ZONE = zone
    path = tmp_path / "hearts.txt"
    path.write_bytes(OUT_OF_RANGE)

    with pytest.raises(CommandError) as refused:
        call_command("import_rayter", str(path), "--league", "hearts", "--no-progress")

    assert str(refused.value).splitlines()[1:] == OUT_OF_RANGE_PROBLEMS
    assert not League.objects.exists()
    assert not Player.objects.exists()


@pytest.mark.parametrize("zone", ZONES)
def test_the_upload_page_refuses_years_1_and_9999_on_every_line_in_any_time_zone(
    settings, hearts, importer_client, zone
):
    settings.TIME_ZONE = zone

    response = preview(importer_client, hearts, OUT_OF_RANGE)

    assert response.status_code == 200
    assert [str(problem) for problem in response.context["problems"]] == OUT_OF_RANGE_PROBLEMS
    assert "token" not in response.context
    assert not Game.objects.exists()
    assert not Player.objects.exists()


def test_a_game_from_the_first_minute_of_1900_in_belgrade_is_imported_and_shown(
    settings, hearts, client
):
    """1900-01-01 00:00 in Belgrade is 1899 in UTC: the rule reads the club's own calendar."""
    settings.TIME_ZONE = "Europe/Belgrade"
    data = b"score_type lowscore\ngame 1900-01-01 00:00\nAna 1\nEma 2\n"

    done = rayter_files.import_rayter(data=data, league_slug=hearts.slug)

    assert done.summary.games == 1
    game = Game.objects.get()
    assert timezone.localtime(game.played_at).year == 1900
    pages = [
        reverse("ratings:player", args=[Player.objects.get(name="Ana").slug]),
        reverse("ratings:leaderboard", args=[hearts.slug]),
        reverse("ratings:league_games", args=[hearts.slug]),
        reverse("ratings:game", args=[game.pk]),
        reverse("ratings:rayter_export", args=[hearts.slug]),
    ]
    assert [client.get(page).status_code for page in pages] == [200] * len(pages)


# A new player created by two forms at once is one player ----------------------------------------


def paper_form(league, names, **extra) -> PreferansGameForm:
    """The worked example's paper with these names, checked (as when the member presses Save)."""
    data = {**WORKED_EXAMPLE_FORM, "submission_key": str(uuid.uuid4()), **extra}
    for seat, name in enumerate(names):
        data[f"player_{seat}"] = name
    form = PreferansGameForm(data, league=league)
    assert form.is_valid(), form.errors
    return form


@pytest.mark.parametrize("meanwhile", ["Newbie", "NEWBIE"])
def test_a_new_player_someone_created_meanwhile_is_the_one_the_game_gets(
    make_league, make_player, member_user, meanwhile
):
    league = make_league(System.PREFKO)
    make_player("Pedja"), make_player("Marko")
    form = paper_form(league, ["Pedja", "Marko", "Newbie"])
    assert form.new_player_names == ["Newbie"]
    other = Player.objects.create_named(meanwhile)  # another table's form, a moment earlier

    game = form.save(entered_by=member_user)

    assert list(game.results.order_by("seat").values_list("player__name", flat=True)) == [
        "Pedja",
        "Marko",
        meanwhile,
    ]
    assert Player.objects.filter(name__iexact="newbie").get() == other


def take_the_slug_first(monkeypatch, name: str) -> None:
    """Make another request create ``name`` just after create_named read which slugs are taken,
    as a parallel request on PostgreSQL can (tests/test_races.py does it for real)."""
    values_list = PlayerQuerySet.values_list
    done = []

    def racing_values_list(self, *fields, **options):
        if fields != ("slug",) or done:
            return values_list(self, *fields, **options)
        taken = list(values_list(self, *fields, **options))
        done.append(Player.objects.create(name=name, slug=slugify(name)))
        return taken

    monkeypatch.setattr(PlayerQuerySet, "values_list", racing_values_list)


def test_a_slug_taken_meanwhile_by_another_name_is_retried_with_the_next(
    monkeypatch, make_league, make_player, member_user
):
    league = make_league(System.PREFKO)
    make_player("Pedja"), make_player("Marko")
    form = paper_form(league, ["Pedja", "Marko", "Sluggy 0?"])
    take_the_slug_first(monkeypatch, "Sluggy 0!")

    game = form.save(entered_by=member_user)

    sluggy = game.results.get(seat=2).player
    assert (sluggy.name, sluggy.slug) == ("Sluggy 0?", "sluggy-0-2")
    assert Player.objects.get(name="Sluggy 0!").slug == "sluggy-0"


def test_create_named_still_refuses_a_name_the_club_has(make_player):
    make_player("Ana")

    with pytest.raises(IntegrityError):
        Player.objects.create_named("ANA")


def test_the_player_form_gives_the_player_someone_added_meanwhile(make_player):
    form = PlayerForm({"name": "Newbie"})
    assert form.is_valid()
    other = make_player("newbie")  # another member's form, saved a moment earlier

    assert form.save() == other
    assert Player.objects.filter(name__iexact="newbie").count() == 1


def test_the_player_form_retries_a_slug_taken_meanwhile(monkeypatch):
    form = PlayerForm({"name": "Sluggy 0?"})
    assert form.is_valid()
    take_the_slug_first(monkeypatch, "Sluggy 0!")

    player = form.save()

    assert (player.name, player.slug) == ("Sluggy 0?", "sluggy-0-2")


# Two staff acting on one game at once -----------------------------------------------------------

GONE = "This game was changed or deleted meanwhile: reload the page and try again."


@pytest.fixture
def chess_game(make_league, make_player, record_game):
    league = make_league(System.ELO, name="Chess")
    ana, bo = make_player("Ana"), make_player("Bo")
    record_game(league, [ana, bo], scores=[1, 0], played_at=T0)
    return record_game(league, [bo, ana], scores=[1, 0], played_at=T0 + timedelta(days=1))


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


def messages_on(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def test_the_admin_tells_the_second_of_two_deleting_staff_the_game_is_gone(
    admin_client, chess_game, monkeypatch
):
    # The second staff member's admin read the game, then the first one's deletion went
    # through: their request goes on with the game as it was read.
    engine.game_delete(game=Game.objects.get(pk=chess_game.pk))
    get_object = GameAdmin.get_object
    monkeypatch.setattr(
        GameAdmin, "get_object", lambda *args, **kwargs: get_object(*args, **kwargs) or chess_game
    )

    response = admin_client.post(
        reverse("admin:ratings_game_delete", args=[chess_game.pk]), {"post": "yes"}, follow=True
    )

    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == reverse("admin:ratings_game_changelist")
    assert messages_on(response) == [f"Game {chess_game.pk}: {GONE}"]
    assert AuditEntry.objects.filter(action="delete").count() == 1  # the first one's
    assert not LogEntry.objects.exists()  # the refused deletion is not logged as done


def test_the_admin_tells_staff_editing_a_game_deleted_meanwhile(
    admin_client, chess_game, monkeypatch
):
    before = ratings_of(chess_game.league)

    def deleted_by_someone_else(self, request, obj, form, change):
        # Between the form's checks and the engine's write, another staff member deletes it.
        # (On one SQLite connection that deletion is rolled back with this request: on
        # PostgreSQL, tests/test_races.py races two real requests.)
        engine.game_delete(game=Game.objects.get(pk=obj.pk))

    monkeypatch.setattr(GameAdmin, "save_model", deleted_by_someone_else)
    results = list(chess_game.results.order_by("seat"))
    data = builders.game_post(
        chess_game.league,
        chess_game.played_at,
        [(r.player, r.seat, None, 1 - r.score) for r in results],
        bula=None,
        game=chess_game,
        results=results,
    )

    response = admin_client.post(
        reverse("admin:ratings_game_change", args=[chess_game.pk]), data, follow=True
    )

    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == reverse("admin:ratings_game_changelist")
    assert messages_on(response) == [f"Game {chess_game.pk}: {GONE}"]
    assert not AuditEntry.objects.filter(action="update").exists()
    assert ratings_of(chess_game.league) == before
