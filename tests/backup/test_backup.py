"""backup_club and restore_club: a club written to one file comes back exactly, or not at all.

The round trip runs in a transactional test: the club is built, backed up, the database flushed
(as a new server's would be empty) and the file restored; every row must come back identical,
timestamps to the microsecond included, and the club must go on working afterwards.

restore_club trusts nothing in the file: the tests after the round trip change one thing in a
good backup (a rating, a number, a model, a game) or hand it a damaged file or a zip bomb, and
each must be refused with a message saying what is wrong, leaving the database empty.
"""

from __future__ import annotations

import copy
import gzip
import io
import json
import tracemalloc
from datetime import date, timedelta
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core.management import CommandError, call_command
from django.db import transaction
from django.test import override_settings
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings import engine
from ratings.backtest import page as backtest_page
from ratings.backtest.run import league_backtest
from ratings.backtest.stored import backtest_stored
from ratings.backup.files import MiB
from ratings.models import (
    ApiToken,
    AuditEntry,
    Game,
    League,
    Player,
    PlayerAlias,
    Result,
    SeasonStanding,
    Standing,
    StoredBacktest,
    System,
)
from ratings.systems import SYSTEMS
from tests.builders import (
    SYSTEM_CODES,
    T0,
    backup_objects,
    backup_signature,
    game_data,
    paper_entries,
    table_counts,
    write_backup,
    write_file,
    write_forged_backup,
)
from tests.worked_example import SMALL_PAPERS, WORKED_EXAMPLE_PAPERS


def build_club() -> None:
    """Three leagues of three kinds, start ratings, edits, a deletion and users with rights."""
    User = get_user_model()
    clerks = Group.objects.create(name="clerks")
    clerks.permissions.add(*Permission.objects.filter(codename__in=["change_game", "add_game"]))
    staff = User.objects.create_user("staff", password="pw-for-tests-only", is_staff=True)
    staff.groups.add(clerks)
    staff.user_permissions.add(Permission.objects.get(codename="view_auditentry"))
    member = User.objects.create_user("member", password="pw-for-tests-only")
    member.groups.add(clerks)
    referee = User.objects.create_user("referee", password="pw-for-tests-only")
    referee.groups.add(Group.objects.create(name="referees"))

    prefko = League.objects.create(name="Friday", slug="friday", system=System.PREFKO)
    chess = League.objects.create(
        name="Chess", slug="chess", system=System.FIDE, settings={"speed": "blitz"}
    )
    hearts = League.objects.create(
        name="Hearts", slug="hearts", system=System.RAYTER_LOWSCORE, game_name="Hearts"
    )
    people = [Player.objects.create_named(name) for name in ("Pedja", "Marko", "Johnny", "Đorđe")]
    people[0].user = member
    people[0].save()
    people[3].birth_date = T0.date() - timedelta(days=16 * 365)
    people[3].save()
    for player, start in zip(people, (1200, 1150, 1100, 1000), strict=True):
        engine.standing_set_start_rating(league=prefko, player=player, rating=start, actor=staff)

    games = []
    for n in range(8):
        seats = [people[(n + i) % 4] for i in range(3)]
        games.append(
            engine.game_record(
                league=prefko,
                # Microseconds: a backup that rounds them could reorder games on a replay.
                played_at=T0 + timedelta(days=n, microseconds=123_457 * n),
                entries=paper_entries(seats, WORKED_EXAMPLE_PAPERS if n % 2 else SMALL_PAPERS),
                bula=30,
                ended_early=False,
                note=f"table {n}",
                entered_by=member,
            )
        )
    engine.game_update(
        game=games[2],
        played_at=games[2].played_at,
        entries=paper_entries(people[1:], WORKED_EXAMPLE_PAPERS),
        bula=50,
        actor=staff,
    )
    engine.game_delete(game=games[5], actor=staff)
    for n in range(6):
        engine.game_record(
            league=chess,
            played_at=T0 + timedelta(hours=n),
            entries=[
                engine.Entry(player_id=people[n % 2].pk, score=1.0 if n % 3 else 0.5),
                engine.Entry(player_id=people[3].pk, score=0.0 if n % 3 else 0.5),
            ],
        )
    engine.games_import(
        league=hearts,
        games=[
            engine.ImportedGame(
                played_at=T0 + timedelta(hours=n),
                scores=[(p.name, (n * 7 + i * 5) % 26) for i, p in enumerate(people)],
            )
            for n in range(5)
        ],
        actor=staff,
    )
    # A typo's player merged into the real one, a rename (old addresses, audit entries that are
    # no league's), and a league with its own thresholds.
    pedia = Player.objects.create_named("Pedia")
    engine.game_record(
        league=chess,
        played_at=T0 + timedelta(hours=7),
        entries=[
            engine.Entry(player_id=pedia.pk, score=1),
            engine.Entry(player_id=people[1].pk, score=0),
        ],
    )
    engine.player_merge(source=pedia, target=people[0], actor=staff)
    engine.player_rename(player=people[2], name="Johnny B", actor=staff)
    League.objects.filter(pk=hearts.pk).update(provisional_games=3, inactive_days=30)
    # What the backtest command stores for a league's page.
    backtest_stored(league=prefko, result=league_backtest(prefko))


def club_rows() -> dict[str, list]:
    """Every row that makes the club, in primary-key order, with every column."""
    User = get_user_model()
    users = [
        (
            u.username,
            u.password,
            u.is_staff,
            u.is_superuser,
            u.date_joined,
            sorted(u.groups.values_list("name", flat=True)),
            sorted(u.user_permissions.values_list("codename", flat=True)),
        )
        for u in User.objects.order_by("username")
    ]
    groups = [
        (g.name, sorted(g.permissions.values_list("codename", flat=True)))
        for g in Group.objects.order_by("name")
    ]
    rows = {"users": users, "groups": groups}
    for model in (League, Player, PlayerAlias, Game, Result, Standing, AuditEntry, StoredBacktest):
        fields = [field.attname for field in model._meta.concrete_fields]
        rows[model.__name__] = list(model.objects.order_by("pk").values_list(*fields))
    # Not in the file: the restore's replay rebuilds them, under new ids.
    fields = [f.attname for f in SeasonStanding._meta.concrete_fields if f.attname != "id"]
    rows["season standings"] = sorted(SeasonStanding.objects.values_list(*fields))
    rows["audit users"] = list(
        AuditEntry.objects.order_by("pk").values_list("user__username", flat=True)
    )
    rows["player users"] = list(
        Player.objects.order_by("pk").values_list("user__username", flat=True)
    )
    return rows


def is_empty() -> bool:
    return not any(
        model.objects.exists()
        for model in (get_user_model(), Group, League, Player, Game, Result, Standing, AuditEntry)
    )


@pytest.mark.django_db(transaction=True)
def test_a_club_backed_up_and_restored_into_an_empty_database_is_identical(tmp_path, client):
    build_club()
    expected = club_rows()
    assert expected["season standings"]
    backup = tmp_path / "club.json.gz"

    call_command("backup_club", str(backup), stdout=StringIO())
    call_command("flush", interactive=False, verbosity=0)
    assert is_empty()
    out = StringIO()
    call_command("restore_club", str(backup), stdout=out)

    assert club_rows() == expected
    assert "Restored 3 leagues, 4 players and 19 games" in out.getvalue()
    assert client.get("/players/pedia/").status_code == 301
    assert AuditEntry.objects.filter(action="delete").get().before["note"] == "table 5"


@pytest.mark.django_db(transaction=True)
def test_the_restored_club_goes_on(tmp_path):
    """Ratings equal a replay, and new games get fresh ids (the id sequences follow the data)."""
    build_club()
    backup = tmp_path / "club.json"
    call_command("backup_club", str(backup), stdout=StringIO())
    call_command("flush", interactive=False, verbosity=0)
    call_command("restore_club", str(backup), stdout=StringIO())
    stored = club_rows()

    for league in League.objects.all():
        engine.league_recompute(league=league)
    assert club_rows() == stored

    highest = max(Game.objects.values_list("pk", flat=True))
    friday = League.objects.get(slug="friday")
    players = list(Player.objects.order_by("pk")[:3])
    game = engine.game_record(
        league=friday,
        played_at=T0 + timedelta(days=30),
        entries=paper_entries(players, WORKED_EXAMPLE_PAPERS),
        bula=30,
    )
    assert game.pk > highest
    deleted = AuditEntry.objects.get(action="delete")
    assert engine.game_restore(entry=deleted).pk == deleted.game_id


@pytest.mark.django_db(transaction=True)
def test_restoring_into_a_database_that_has_a_club_is_refused(tmp_path):
    build_club()
    backup = tmp_path / "club.json.gz"
    call_command("backup_club", str(backup), stdout=StringIO())
    Game.objects.filter(pk=Game.objects.order_by("pk").first().pk).delete()
    before = club_rows()

    with pytest.raises(CommandError, match="not empty"):
        call_command("restore_club", str(backup), stdout=StringIO())

    assert club_rows() == before


@pytest.mark.django_db(transaction=True)
def test_a_backup_that_breaks_halfway_restores_nothing(tmp_path):
    """loaddata runs in one transaction: a bad row at the end leaves no half a club behind."""
    build_club()
    good = tmp_path / "club.json.gz"
    call_command("backup_club", str(good), stdout=StringIO())
    rows = backup_objects(good)
    rows.append({"model": "ratings.game", "pk": 999, "fields": {"league": 424242}})
    broken = tmp_path / "broken.json.gz"
    write_backup(broken, rows)
    call_command("flush", interactive=False, verbosity=0)

    with pytest.raises(CommandError, match="nothing was restored"):
        call_command("restore_club", str(broken), stdout=StringIO())

    assert is_empty()


@pytest.mark.django_db
def test_the_backup_holds_users_and_the_club_but_no_sessions(tmp_path, client, django_user_model):
    user = django_user_model.objects.create_user("member")
    client.force_login(user)
    League.objects.create(name="Friday", slug="friday", system=System.PREFKO)
    backup = tmp_path / "club.json"

    call_command("backup_club", str(backup), stdout=StringIO())

    models = {row["model"] for row in backup_objects(backup)}
    assert models == {"auth.user", "ratings.league"}


@pytest.mark.django_db(transaction=True)
def test_a_failed_backup_leaves_no_file_behind(tmp_path):
    """A rating that is not a number fails the backup itself (restore_club would refuse the
    file), and the older backup under that name is kept."""
    build_club()
    Standing.objects.filter(pk=Standing.objects.first().pk).update(rating=float("inf"))
    backup = tmp_path / "club.json.gz"
    backup.write_bytes(b"yesterday's backup")

    with pytest.raises(CommandError, match="Out of range float values"):
        call_command("backup_club", str(backup), stdout=StringIO())

    assert backup.read_bytes() == b"yesterday's backup"
    assert [path.name for path in tmp_path.iterdir()] == ["club.json.gz"]


@pytest.mark.django_db(transaction=True)
def test_a_restored_league_shows_its_stored_backtest(tmp_path, client, monkeypatch):
    """A big league's backtest page shows the figures the backtest command stored: a restore
    that left them out made the page say they were never computed."""
    build_club()
    stored = list(StoredBacktest.objects.values_list("league__slug", "computed_at", "figures"))
    backup = tmp_path / "club.json.gz"
    call_command("backup_club", str(backup), stdout=StringIO())
    call_command("flush", interactive=False, verbosity=0)
    call_command("restore_club", str(backup), stdout=StringIO())
    # Every league is big enough to show its stored figures instead of replaying.
    monkeypatch.setattr(backtest_page, "LIVE_GAMES", 0)

    page = client.get("/leagues/friday/backtest/").content.decode()

    assert list(StoredBacktest.objects.values_list("league__slug", "computed_at", "figures")) == (
        stored
    )
    assert "has not been computed yet" not in page
    assert "Computed " in page


# Signed backups -----------------------------------------------------------------------------------


def small_club_backup(tmp_path, **settings_overrides) -> object:
    """A backup of a league with one game and a member's revoked API token, the database rolled
    back to empty; the file's path."""
    backup = tmp_path / "club.json"
    with transaction.atomic(), override_settings(**settings_overrides):
        member = get_user_model().objects.create_user("member")
        token, _raw = ApiToken.objects.create_for(member, "old phone")
        token.revoke()
        league = League.objects.create(name="Chess", slug="chess", system=System.ELO)
        ann, bob = (Player.objects.create_named(name) for name in ("Ann", "Bob"))
        engine.game_record(
            league=league,
            played_at=T0,
            entries=[
                engine.Entry(player_id=ann.pk, score=1.0),
                engine.Entry(player_id=bob.pk, score=0.0),
            ],
        )
        call_command("backup_club", str(backup), stdout=StringIO())
        transaction.set_rollback(True)
    return backup


@pytest.mark.django_db
def test_a_backup_is_signed_and_restores_intact(tmp_path):
    backup = small_club_backup(tmp_path)
    assert set(backup_signature(backup)["signature"]) == {"sha256", "hmac_sha256", "key"}

    call_command("restore_club", str(backup), stdout=StringIO())

    assert ApiToken.objects.get().revoked_at is not None


@pytest.mark.django_db
def test_a_revoked_token_revoked_no_more_fails_the_checksum(tmp_path):
    backup = small_club_backup(tmp_path)
    text = backup.read_text()
    revoked = next(
        obj["fields"]["revoked_at"]
        for obj in backup_objects(backup)
        if obj["model"] == "ratings.apitoken"
    )
    backup.write_text(text.replace(f'"revoked_at": "{revoked}"', '"revoked_at": null'))

    message = refusal(tmp_path, raw=backup.read_bytes())

    assert "fails its integrity check: its checksum (SHA-256) does not match its content" in (
        message
    )


@pytest.mark.django_db
def test_a_change_with_its_checksum_made_again_fails_the_signature(tmp_path):
    """Anyone can compute a checksum again; the HMAC needs the key."""
    backup = small_club_backup(tmp_path)
    objects = backup_objects(backup)
    next(obj for obj in objects if obj["model"] == "ratings.apitoken")["fields"]["revoked_at"] = (
        None
    )
    forged = tmp_path / "forged.json"
    write_forged_backup(forged, objects, signed=backup_signature(backup))

    message = refusal(tmp_path, raw=forged.read_bytes())

    assert "its signature (HMAC-SHA256) does not match: it was changed after it was signed" in (
        message
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("written_with", "restored_with", "says"),
    [
        ("", "another key", "signed with a SECRET_KEY and this server checks with its BACKUP_KEY"),
        ("a key", "", "signed with a BACKUP_KEY and this server checks with its SECRET_KEY"),
        ("a key", "another key", "or signed with another BACKUP_KEY"),
    ],
)
def test_a_backup_signed_with_another_key_is_refused_unless_vouched_for(
    tmp_path, written_with, restored_with, says
):
    backup = small_club_backup(tmp_path, BACKUP_KEY=written_with)

    with override_settings(BACKUP_KEY=restored_with):
        message = refusal(tmp_path, raw=backup.read_bytes())
        assert says in message
        assert "Set BACKUP_KEY to the key the backup was written with" in message
        call_command("restore_club", str(backup), "--unsigned", stdout=StringIO())

    assert Game.objects.count() == 1


@pytest.mark.django_db
def test_a_damaged_file_is_refused_even_when_vouched_for(tmp_path):
    backup = small_club_backup(tmp_path)
    backup.write_text(backup.read_text().replace('"Ann"', '"Anna"'))

    message = refusal(tmp_path, raw=backup.read_bytes(), args=["--unsigned"])

    assert "its checksum (SHA-256) does not match" in message


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("signature", "says"),
    [
        ({"signature": "yes"}, "its signature is not one backup_club writes"),
        ({"signature": {"sha256": "0"}}, "its signature is not one backup_club writes"),
        (
            {"signature": {"sha256": "é", "hmac_sha256": "é", "key": "é"}},
            "its checksum (SHA-256) does not match",
        ),
    ],
)
def test_a_signature_not_of_backup_club_is_refused(tmp_path, signature, says):
    backup = small_club_backup(tmp_path)
    lines = backup.read_text().split("\n")
    lines[-3] = json.dumps(signature)
    assert says in refusal(tmp_path, raw="\n".join(lines).encode())


@pytest.mark.django_db
def test_an_object_after_the_signature_is_refused(tmp_path):
    backup = small_club_backup(tmp_path)
    objects = backup_objects(backup)
    lines = backup.read_text().split("\n")
    lines[-3] += ",\n" + json.dumps(objects[-1])
    message = refusal(tmp_path, raw="\n".join(lines).encode())
    assert "an object follows its signature, which must come last" in message


# Files restore_club must refuse -----------------------------------------------------------------


@pytest.fixture(scope="module")
def club_objects(django_db_setup, django_db_blocker, tmp_path_factory) -> list[dict]:
    """build_club's backup as a list of objects, made once for the tests that change it (the
    club is rolled back, so each test starts with an empty database)."""
    backup = tmp_path_factory.mktemp("backup") / "club.json"
    with django_db_blocker.unblock(), transaction.atomic():
        build_club()
        call_command("backup_club", str(backup), stdout=StringIO())
        transaction.set_rollback(True)
    return backup_objects(backup)


def changed(objects: list[dict], model: str, pk: int | None = None, **fields) -> list[dict]:
    """A copy of the objects with fields of one object of ``model`` changed (the first one, or
    the one with that pk)."""
    objects = copy.deepcopy(objects)
    target = next(obj for obj in objects if obj["model"] == model and pk in (None, obj["pk"]))
    target["fields"].update(fields)
    return objects


def find(objects: list[dict], model: str, **fields) -> list[dict]:
    return [
        obj
        for obj in objects
        if obj["model"] == model and all(obj["fields"][k] == v for k, v in fields.items())
    ]


def refusal(tmp_path, objects=None, *, raw: bytes | None = None, name="club.json", args=()):
    """restore_club's message refusing the file; the database must still be empty. ``objects``
    are written signed (as if their operator changed them), so that the content's own checks
    are what refuses them."""
    path = tmp_path / name
    if raw is None:
        write_backup(path, objects)
    else:
        path.write_bytes(raw)
    with pytest.raises(CommandError) as refused:
        call_command("restore_club", str(path), *args, stdout=StringIO())
    message = str(refused.value)
    assert message.endswith(": nothing was restored."), message
    assert is_empty()
    return message


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("model", "field", "value"),
    [
        ("ratings.standing", "rating", float("nan")),
        ("ratings.result", "rating_after", float("inf")),
        ("ratings.league", "start_rating", float("-inf")),
    ],
)
def test_a_rating_that_is_not_a_finite_number_is_refused(
    tmp_path, club_objects, model, field, value
):
    """PostgreSQL stores NaN in a float column, after which the league's pages answer 500."""
    message = refusal(tmp_path, changed(club_objects, model, **{field: value}))

    assert f"{model} " in message
    assert f"{field} {value!r} is not a finite number" in message


@pytest.mark.django_db
def test_a_changed_rating_after_is_refused_naming_the_league_game_and_player(
    tmp_path, club_objects
):
    friday = find(club_objects, "ratings.league", slug="friday")[0]["pk"]
    games = sorted(find(club_objects, "ratings.game", league=friday), key=lambda g: g["pk"])
    game = games[3]["pk"]
    result = find(club_objects, "ratings.result", game=game, seat=1)[0]
    player = find(club_objects, "ratings.player")
    name = next(p["fields"]["name"] for p in player if p["pk"] == result["fields"]["player"])
    after = result["fields"]["rating_after"]

    message = refusal(
        tmp_path, changed(club_objects, "ratings.result", result["pk"], rating_after=after + 1)
    )

    assert f'In the league "Friday", game {game} ' in message
    assert f"{name}'s rating goes from" in message
    assert f"to {after + 1!r} in the file" in message
    assert f"to {after!r} by a replay of the games (1 result(s) differ in all)" in message
    assert "A backup holds the ratings exactly as they were" in message


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "shift", "says"),
    [
        ("rating", 1, "has the rating"),
        ("games", 1, "has the games"),
        ("peak_rating", -1, "has the peak rating"),
    ],
)
def test_a_changed_standing_is_refused(tmp_path, club_objects, field, shift, says):
    pedja = find(club_objects, "ratings.player", name="Pedja")[0]["pk"]
    friday = find(club_objects, "ratings.league", slug="friday")[0]["pk"]
    standing = find(club_objects, "ratings.standing", league=friday, player=pedja)[0]
    value = standing["fields"][field] + shift

    message = refusal(
        tmp_path, changed(club_objects, "ratings.standing", standing["pk"], **{field: value})
    )

    assert f"""In the league "Friday", Pedja's standing {says}""" in message
    assert f"{value!r} in the file" in message


@pytest.mark.django_db
def test_a_changed_score_of_a_scored_game_is_refused_by_the_replay(tmp_path, club_objects):
    hearts = find(club_objects, "ratings.league", slug="hearts")[0]["pk"]
    game = find(club_objects, "ratings.game", league=hearts)[2]["pk"]
    result = find(club_objects, "ratings.result", game=game, seat=0)[0]

    message = refusal(
        tmp_path,
        changed(club_objects, "ratings.result", result["pk"], score=result["fields"]["score"] + 3),
    )

    assert f'In the league "Hearts", game {game} ' in message


@pytest.mark.django_db
@pytest.mark.parametrize(
    "label",
    [
        "sessions.session",
        "admin.logentry",
        "axes.accessattempt",
        "auth.permission",
        "contenttypes.contenttype",
        "ratings.ghost",
    ],
)
def test_objects_a_club_backup_never_holds_are_refused(tmp_path, club_objects, label):
    session = {"model": label, "pk": 1, "fields": {"session_data": "x", "expire_date": None}}

    message = refusal(tmp_path, [*club_objects[:5], session, *club_objects[5:]])

    assert f"object 6 is a '{label}', which a club backup does not hold" in message


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("figures", "says"),
    [
        ({"games": 8}, "its figures lack the games, the conclusion or the systems"),
        (
            {"games": 8, "conclusive": False, "systems": [{"code": "chess960"}]},
            "its figures name a system the club does not know",
        ),
        (
            {"games": 8, "conclusive": False, "systems": [{"code": "prefko", "own": True}]},
            "the figures of prefko are not what the backtest writes",
        ),
    ],
)
def test_a_stored_backtest_the_page_could_not_show_is_refused(
    tmp_path, club_objects, figures, says
):
    message = refusal(tmp_path, changed(club_objects, "ratings.storedbacktest", figures=figures))
    assert f'the stored backtest of the league "Friday": {says}' in message


@pytest.mark.django_db
def test_superusers_in_the_file_are_restored_and_named(tmp_path, club_objects):
    """The club's admins are superusers: legitimate, but restore_club says who they are."""
    path = tmp_path / "club.json"
    write_backup(path, changed(club_objects, "auth.user", is_superuser=True))
    out = StringIO()

    call_command("restore_club", str(path), stdout=out)

    boss = get_user_model().objects.get(is_superuser=True)
    assert out.getvalue().splitlines()[-1] == f"Superusers (full rights): {boss.username}"


@pytest.mark.django_db
def test_a_backup_from_before_the_leagues_settings_restores_each_its_own(tmp_path, club_objects):
    """Before migration 0024 every league had a column for each system's setting: a league
    restores with its own system's (FIDE's speed, Preferans's refe cap), the rest dropped."""
    objects = copy.deepcopy(club_objects)
    for obj in find(objects, "ratings.league"):
        own = obj["fields"].pop("settings")
        obj["fields"].update({"elo_k": 32, "speed": "standard", "refas": None, **own})
    find(objects, "ratings.league", system=System.PREFKO)[0]["fields"]["refas"] = 2
    path = tmp_path / "club.json"
    write_backup(path, objects)

    call_command("restore_club", str(path), stdout=StringIO())

    assert dict(League.objects.values_list("slug", "settings")) == {
        "friday": {"refas": 2},
        "chess": {"speed": "blitz"},
        "hearts": {},
    }


@pytest.mark.django_db
def test_a_backup_from_before_the_leagues_settings_with_a_wrong_one_is_refused(
    tmp_path, club_objects
):
    objects = copy.deepcopy(club_objects)
    for obj in find(objects, "ratings.league"):
        obj["fields"].pop("settings")
        obj["fields"].update({"elo_k": 32, "speed": "bullet", "refas": None})
    assert "speed: Select a valid choice" in refusal(tmp_path, objects)


@pytest.mark.django_db
@pytest.mark.parametrize("indent", [None, 2])
def test_older_backups_with_all_objects_on_one_line_restore_when_vouched_for(
    tmp_path, club_objects, indent
):
    """backup_club used to write the whole array on one line, as loaddata's JSON does, and
    signed nothing: such a file restores only with --unsigned, the operator's word for it."""
    path = tmp_path / "club.json"
    path.write_text(json.dumps(club_objects, indent=indent))
    assert "add --unsigned" in refusal(tmp_path, raw=path.read_bytes())

    call_command("restore_club", str(path), "--unsigned", stdout=StringIO())

    assert Game.objects.count() == len(find(club_objects, "ratings.game"))


HOSTILE_VALUES = [
    ("ratings.game", {"bula": 10**30}, f"bula {10**30} is out of range (0 to 2147483647)"),
    ("ratings.result", {"seat": -1}, "seat -1 is out of range (0 to 32767)"),
    ("ratings.standing", {"games": 2**40}, "is out of range (0 to 2147483647)"),
    ("ratings.result", {"rating_after": 1e300}, "1e+300 is not a finite number within"),
    ("ratings.result", {"score": "12"}, "score '12' is not a number"),
    ("ratings.game", {"played_at": "1850-06-01T20:00:00+00:00"}, "not between 1900 and tomorrow"),
    ("ratings.game", {"played_at": "2999-06-01T20:00:00+00:00"}, "not between 1900 and tomorrow"),
    ("ratings.game", {"played_at": "2026-01-01T20:00:00"}, "has no time zone"),
    ("ratings.game", {"played_at": "yesterday"}, "'yesterday' is not a date and time"),
    ("ratings.player", {"birth_date": "2999-01-01"}, "not between 1900 and today"),
    ("ratings.player", {"name": "x" * 61}, "at most 60 characters (it has 61)"),
    ("ratings.game", {"note": "table\x001"}, "note holds a NUL character"),
    ("ratings.league", {"system": "chess960"}, "system 'chess960' is not one of"),
    ("ratings.league", {"start_rating": 1000.5}, "uses whole numbers"),
    ("ratings.game", {"ended_early": 1}, "ended_early 1 is not true or false"),
    ("ratings.game", {"entered_by": ["nobody"]}, "['nobody'], which is not in the file"),
    ("ratings.game", {"entered_by": 3.5}, "is not a reference to a auth.user"),
    ("ratings.game", {"league": 424242}, "breaks a rule of the database"),
    ("ratings.game", {"colour": "red"}, "ratings.game has no field 'colour'"),
    ("ratings.game", {"submission_key": "not-a-uuid"}, "'not-a-uuid' is not a UUID"),
    ("ratings.auditentry", {"after": {"rating": float("nan")}}, "number that is not finite"),
    ("auth.user", {"username": "no spaces please"}, "Enter a valid username"),
    ("auth.group", {"permissions": [["fly", "ratings", "game"]]}, "not in the file"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("model", "fields", "says"), HOSTILE_VALUES)
def test_a_value_out_of_its_fields_bounds_is_refused(tmp_path, club_objects, model, fields, says):
    message = refusal(tmp_path, changed(club_objects, model, **fields))

    assert says in message


@pytest.mark.django_db
def test_a_missing_field_or_primary_key_is_refused(tmp_path, club_objects):
    objects = copy.deepcopy(club_objects)
    del find(objects, "ratings.game")[0]["fields"]["played_at"]
    assert "played_at is missing" in refusal(tmp_path, objects)

    objects = copy.deepcopy(club_objects)
    find(objects, "ratings.player")[0]["pk"] = "1"
    assert "the primary key is not a whole number above zero" in refusal(tmp_path, objects)


def without(objects: list[dict], model: str, **fields) -> list[dict]:
    gone = find(objects, model, **fields)
    return [obj for obj in objects if obj not in gone]


@pytest.mark.django_db
def test_games_that_break_their_leagues_rules_are_refused(tmp_path, club_objects):
    """As the engine checks a game it records: else the replay could fail halfway."""
    ids = {
        slug: find(club_objects, "ratings.league", slug=slug)[0]["pk"]
        for slug in ("friday", "chess", "hearts")
    }
    friday = find(club_objects, "ratings.game", league=ids["friday"])[0]["pk"]
    chess = find(club_objects, "ratings.game", league=ids["chess"])[0]["pk"]
    hearts = find(club_objects, "ratings.game", league=ids["hearts"])[0]["pk"]
    pedja = find(club_objects, "ratings.player", name="Pedja")[0]["pk"]

    def result(game, seat):
        return find(club_objects, "ratings.result", game=game, seat=seat)[0]["pk"]

    cases = [
        (
            without(club_objects, "ratings.result", game=friday, seat=2),
            f'game {friday} of the league "Friday": A game of this league has exactly 3 players',
        ),
        (
            without(club_objects, "ratings.result", game=friday),
            f'game {friday} of the league "Friday" has no players',
        ),
        (
            changed(club_objects, "ratings.result", result(chess, 0), score=0.25),
            "A head-to-head game is a win and a loss, or a draw.",
        ),
        (
            changed(club_objects, "ratings.result", result(friday, 0), score=-499.0),
            f'game {friday} of the league "Friday" has the scores [-499.0, ',
        ),
        (
            changed(club_objects, "ratings.result", result(friday, 2), seat=5),
            "has seats [0, 1, 5], not 0, 1, ...",
        ),
        (
            changed(club_objects, "ratings.result", result(hearts, 0), left=1, middle=0, right=1),
            f'game {hearts} of the league "Hearts" has papers',
        ),
        (
            changed(club_objects, "ratings.game", hearts, bula=30),
            "Only Preferans games have a bula.",
        ),
        (
            without(club_objects, "ratings.standing", league=ids["hearts"], player=pedja),
            """In the league "Hearts", Pedja's standing is missing from the file, though they""",
        ),
    ]
    for objects, says in cases:
        assert says in refusal(tmp_path, objects)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "raw", "says"),
    [
        ("club.json", b"", "does not start with '['"),
        ("club.json", b'{"model": "ratings.league"}', "does not start with '['"),
        ("club.json", b"[]", "the file holds no club"),
        ("club.json", b"[1]", "item 1 of the array is not an object"),
        ("club.json", b'[{"model": "ratings.league", "pk": 1', "object 1 is not valid JSON"),
        ("club.json", b"[{}]", "object 1 is not a Django object"),
        ("club.json", b"\xff\xfe[\x00]\x00", "the file is not UTF-8 text"),
        ("club.json", b"[" + b'{"a": ' + b"[" * 100_000, "object 1 is nested too deeply"),
        ("club.json.gz", b"[]", "the gzip stream is damaged"),
        ("club.json.gz", gzip.compress(b"[" + b" " * 100_000)[:-30], "gzip stream is damaged"),
        ("club.txt", b"[]", "is not a backup_club file (.json or .json.gz)"),
    ],
)
def test_a_damaged_file_is_refused(tmp_path, name, raw, says):
    """Even with --unsigned (without it the first refusal would be the missing signature)."""
    assert says in refusal(tmp_path, raw=raw, name=name, args=["--unsigned"])


def write_gzip(path, head: bytes, body: bytes, repeat: int, tail: bytes) -> None:
    with gzip.open(path, "wb") as stream:
        stream.write(head)
        for _ in range(repeat):
            stream.write(body)
        stream.write(tail)


def peak_memory_of(function) -> tuple[object, int]:
    """What ``function()`` returns and the most memory Python held meanwhile."""
    tracemalloc.start()
    try:
        value = function()
        return value, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.django_db
def test_a_zip_bomb_is_refused_once_it_expands_past_the_limit_in_bounded_memory(tmp_path):
    bomb = tmp_path / "club.json.gz"
    write_gzip(bomb, b"[", b" " * MiB, 100, b"]")  # 100 MiB of nothing
    assert bomb.stat().st_size < 200_000

    message, peak = peak_memory_of(
        lambda: refusal(tmp_path, raw=bomb.read_bytes(), name=bomb.name, args=["--max-size=1"])
    )

    # (Under the 1 MiB of whitespace in a row that is refused whatever the limit, below.)
    assert "it expands to more than 1 MiB, the limit" in message
    assert peak < 12 * MiB


@pytest.mark.django_db
def test_a_whitespace_bomb_is_refused_at_its_first_mebibyte_whatever_the_limit(tmp_path):
    """2 GiB of spaces took 23.5 s to be refused at the default size limit."""
    bomb = tmp_path / "club.json.gz"
    write_gzip(bomb, b"[", b" " * MiB, 100, b"]")

    message = refusal(tmp_path, raw=bomb.read_bytes(), name=bomb.name)

    assert "after object 0 comes more than 1 MiB of whitespace" in message


@pytest.mark.django_db
def test_an_endless_object_is_refused_in_bounded_memory_whatever_the_limit(tmp_path):
    bomb = tmp_path / "club.json.gz"
    head = b'[{"model": "ratings.league", "pk": 1, "fields": {"description": "'
    write_gzip(bomb, head, b"a" * MiB, 100, b'"}}]')

    message, peak = peak_memory_of(lambda: refusal(tmp_path, raw=bomb.read_bytes(), name=bomb.name))

    assert "object 1 is longer than 1 MiB, more than any object of a club" in message
    assert peak < 12 * MiB


@pytest.mark.django_db
def test_a_bomb_of_one_object_repeated_is_refused_at_its_first_batch(tmp_path):
    """The file ends in a way the reader would refuse: the database's refusal comes first."""
    player = b'{"model": "ratings.player", "pk": 1, "fields": {"name": "Bomb", "slug": "bomb", '
    player += b'"user": null, "birth_date": null, "created_at": "2026-01-01T20:00:00+00:00"}},\n'
    bomb = tmp_path / "club.json.gz"
    write_gzip(bomb, b"[", player * 1000, 200, b"not JSON")  # 30 MiB of one player

    message, peak = peak_memory_of(lambda: refusal(tmp_path, raw=bomb.read_bytes(), name=bomb.name))

    assert "the ratings.player objects break a rule of the database" in message
    assert peak < 12 * MiB


# The invariant: whatever the club, restore(backup(club)) == club --------------------------------

NAMES = ["Pedja", "Đorđe", "Анна", "O'Brien <b>", "Zoë", "marko"]


@st.composite
def club_operations(draw) -> list[dict]:
    """Games in a league of each system at any moment (microseconds, ties), with edits,
    deletions and own start ratings; scores of any size and any bula a form takes."""
    operations = []
    for _ in range(draw(st.integers(1, 12))):
        system = draw(SYSTEM_CODES)
        seats, data = draw(game_data(system, bulas=st.integers(1, 10_000)))
        moment = st.integers(0, 4).map(lambda day: day * 86_400_000_000) | st.integers(0, 10**12)
        operations.append(
            {
                "kind": draw(st.sampled_from(["add", "add", "add", "edit", "delete", "start"])),
                "system": system,
                "at": T0 + timedelta(microseconds=draw(moment)),
                "seats": draw(st.permutations(range(len(NAMES))))[:seats],
                "data": data,
                "pick": draw(st.integers(0, 100)),
                "start": draw(st.integers(800, 2600)),
            }
        )
    return operations


def build_random_club(operations: list[dict]) -> None:
    leagues = {
        system: League.objects.create(name=f"League {system}", slug=system, system=system)
        for system in SYSTEMS
    }
    players = [
        Player.objects.create_named(name, birth_date=date(2010, 5, 17) if n % 2 else None)
        for n, name in enumerate(NAMES)
    ]
    for op in operations:
        league = leagues[op["system"]]
        chosen = [players[i] for i in op["seats"]]
        if "papers" in op["data"]:
            entries = [
                engine.Entry(player_id=p.pk, paper=tuple(paper))
                for p, paper in zip(chosen, op["data"]["papers"], strict=True)
            ]
        else:
            entries = [
                engine.Entry(player_id=p.pk, score=score)
                for p, score in zip(chosen, op["data"]["scores"], strict=True)
            ]
        bula = op["data"].get("bula")
        games = list(Game.objects.filter(league=league).chronological())
        if op["kind"] == "add" or not games and op["kind"] != "start":
            engine.game_record(league=league, played_at=op["at"], entries=entries, bula=bula)
        elif op["kind"] == "edit":
            game = games[op["pick"] % len(games)]
            engine.game_update(game=game, played_at=op["at"], entries=entries, bula=bula)
        elif op["kind"] == "delete":
            engine.game_delete(game=games[op["pick"] % len(games)])
        else:
            player = players[op["pick"] % len(players)]
            engine.standing_set_start_rating(league=league, player=player, rating=op["start"])


def empty_the_club() -> None:
    for model in (AuditEntry, Result, Standing, Game, League, Player, get_user_model(), Group):
        model.objects.all().delete()


@pytest.mark.django_db
@settings(max_examples=15)
@given(club_operations())
def test_any_club_the_engine_makes_comes_back_exactly(tmp_path, operations):
    """restore_club's checks never refuse a club the app made, and it comes back identical."""
    empty_the_club()
    build_random_club(operations)
    expected = club_rows()
    backup = tmp_path / "club.json.gz"
    call_command("backup_club", str(backup), stdout=StringIO())
    empty_the_club()

    call_command("restore_club", str(backup), stdout=StringIO())

    assert club_rows() == expected


# Broken backup files and unwritable places -------------------------------------------------------


RESTORE_CASES = [
    ("not gzip", "club.json.gz", b"this is not gzip"),
    ("gzip of garbage", "club.json.gz", gzip.compress(b"\x00\xff not json")),
    ("truncated json", "club.json", b'[{"model": "ratings.league", "pk": 1, "fields": {'),
    ("an unknown model", "club.json", json.dumps([{"model": "evil.thing", "pk": 1}]).encode()),
    (
        "a broken league",
        "club.json",
        json.dumps(
            [{"model": "ratings.league", "pk": 1, "fields": {"name": "x", "system": "nope"}}]
        ).encode(),
    ),
    ("not a list", "club.json", b'{"model": "ratings.league"}'),
    ("binary", "club.json", bytes(range(256))),
    ("a spreadsheet", "club.xlsx", b"PK\x03\x04"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("case", "name", "data"), RESTORE_CASES, ids=[c[0] for c in RESTORE_CASES])
def test_restore_club_refuses_broken_files_with_a_clear_message(tmp_path, case, name, data):
    with pytest.raises(CommandError) as refused:
        call_command("restore_club", write_file(tmp_path, name, data), stdout=io.StringIO())

    assert "nothing was restored" in str(refused.value) or "json" in str(refused.value)
    assert table_counts() == {name: 0 for name in table_counts()}


@pytest.mark.django_db
def test_restore_club_refuses_a_missing_file(tmp_path):
    with pytest.raises(CommandError):
        call_command("restore_club", str(tmp_path / "nope.json.gz"), stdout=io.StringIO())


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["club.txt", "club", "club.json.zip"])
def test_backup_club_wants_a_json_file_name(tmp_path, name):
    with pytest.raises(CommandError, match=r"\.json"):
        call_command("backup_club", str(tmp_path / name))


@pytest.mark.django_db
def test_backup_club_reports_a_folder_it_cannot_write(tmp_path):
    with pytest.raises(CommandError, match="No such file or directory"):
        call_command("backup_club", str(tmp_path / "missing" / "club.json.gz"))
