"""backup_club and restore_club: a club written to one file comes back exactly, or not at all.

The round trip runs in a transactional test: the club is built, backed up, the database flushed
(as a new server's would be empty) and the file restored; every row must come back identical,
timestamps to the microsecond included, and the club must go on working afterwards.
"""

from __future__ import annotations

import gzip
import json
from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core.management import CommandError, call_command

from ratings import engine
from ratings.models import AuditEntry, Game, League, Player, Result, Standing, System
from tests.conftest import T0

PAPERS = [(320, -20, 160), (120, 4, 60), (20, 16, 60)]
OTHER_PAPERS = [(10, 2, 4), (6, -1, 8), (0, -1, 2)]


def build_club() -> None:
    """Three leagues of three kinds, start ratings, edits, a deletion and users with rights."""
    User = get_user_model()
    clerks = Group.objects.create(name="clerks")
    clerks.permissions.add(*Permission.objects.filter(codename__in=["change_game", "add_game"]))
    staff = User.objects.create_user("staff", password="pw-for-tests-only", is_staff=True)
    staff.groups.add(clerks)
    staff.user_permissions.add(Permission.objects.get(codename="view_auditentry"))
    member = User.objects.create_user("member", password="pw-for-tests-only")

    prefko = League.objects.create(name="Friday", slug="friday", system=System.PREFKO)
    chess = League.objects.create(name="Chess", slug="chess", system=System.FIDE, speed="blitz")
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
                entries=[
                    engine.Entry(player_id=p.pk, paper=paper)
                    for p, paper in zip(seats, PAPERS if n % 2 else OTHER_PAPERS, strict=True)
                ],
                bula=30,
                ended_early=False,
                note=f"table {n}",
                entered_by=member,
            )
        )
    engine.game_update(
        game=games[2],
        played_at=games[2].played_at,
        entries=[
            engine.Entry(player_id=p.pk, paper=pp) for p, pp in zip(people[1:], PAPERS, strict=True)
        ],
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
    for model in (League, Player, Game, Result, Standing, AuditEntry):
        fields = [field.attname for field in model._meta.concrete_fields]
        rows[model.__name__] = list(model.objects.order_by("pk").values_list(*fields))
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
def test_a_club_backed_up_and_restored_into_an_empty_database_is_identical(tmp_path):
    build_club()
    expected = club_rows()
    backup = tmp_path / "club.json.gz"

    call_command("backup_club", str(backup), stdout=StringIO())
    call_command("flush", interactive=False, verbosity=0)
    assert is_empty()
    out = StringIO()
    call_command("restore_club", str(backup), stdout=out)

    assert club_rows() == expected
    assert "Restored 3 leagues, 4 players and 18 games" in out.getvalue()
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
        entries=[
            engine.Entry(player_id=p.pk, paper=paper)
            for p, paper in zip(players, PAPERS, strict=True)
        ],
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
    rows = json.loads(gzip.decompress(good.read_bytes()))
    rows.append({"model": "ratings.game", "pk": 999, "fields": {"league": 424242}})
    broken = tmp_path / "broken.json.gz"
    broken.write_bytes(gzip.compress(json.dumps(rows).encode()))
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

    models = {row["model"] for row in json.loads(backup.read_text())}
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
