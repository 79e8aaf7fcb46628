"""One validator for every path: a game the league's rules refuse is refused wherever it comes in.

The first case was a head-to-head game both players "won" (1, 1): before the validator was one,
the bulk import checked games by a hand-written copy that left the head-to-head rule out, and
rated such a game +16/−16. The second is a Rayter league's score that is not a whole number of at
most 15 digits: taken anywhere, it would leave the league's rayter file unwritable for everyone
(ratings.rayter.standings). Each path below must refuse them and write nothing.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from io import StringIO
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import Permission
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ratings import engine
from ratings.engine import validation
from ratings.events.models import Event
from ratings.models import AuditEntry, Game, League, Player, Result, Standing, System
from ratings.systems import rating_system
from tests.builders import (
    T0,
    backup_objects,
    formset_errors,
    game_post,
    make_event,
    make_league,
    make_players,
    paper_entries,
    worked_example_players,
    write_backup,
)
from tests.worked_example import WORKED_EXAMPLE_PAPERS

WHOLE = "whole numbers of at most 15 digits"
# (the league's system, two players' scores it refuses, words of the refusal)
REFUSED = [
    pytest.param(System.ELO, (1.0, 1.0), "a win and a loss, or a draw", id="elo-both-won"),
    pytest.param(System.FIDE, (1.0, 1.0), "a win and a loss, or a draw", id="fide-both-won"),
    pytest.param(System.RAYTER_LOWSCORE, (10.5, 12.0), WHOLE, id="rayter-a-fraction"),
    pytest.param(System.RAYTER_HIGHSCORE, (1e15, 0.0), WHOLE, id="rayter-16-digits"),
]


@pytest.fixture
def two(make_player):
    return make_player("Ana"), make_player("Boris")


@pytest.fixture
def duel(make_league, two):
    return make_league(System.ELO, name="Chess"), *two


def assert_nothing_written():
    assert not Game.objects.exists()
    assert not Result.objects.exists()
    assert not AuditEntry.objects.exists()
    assert not Standing.objects.filter(games__gt=0).exists()


@pytest.mark.parametrize(("system", "scores", "words"), REFUSED)
def test_engine_refuses_the_game(system, scores, words, make_league, two):
    league = make_league(system)
    entries = [engine.Entry(player_id=p.pk, score=s) for p, s in zip(two, scores, strict=True)]
    with pytest.raises(ValidationError, match=words):
        engine.game_record(league=league, played_at=T0, entries=entries)
    assert_nothing_written()


@pytest.mark.parametrize(("system", "scores", "words"), REFUSED)
def test_bulk_import_refuses_the_game_naming_its_position(system, scores, words, make_league, two):
    league = make_league(system)
    good = engine.ImportedGame(played_at=T0, scores=[("Ana", 1.0), ("Boris", 0.0)])
    refused_game = engine.ImportedGame(
        played_at=T0 + timedelta(hours=1), scores=list(zip(("Ana", "Boris"), scores, strict=True))
    )
    with pytest.raises(engine.InvalidGame, match=words) as refused:
        engine.games_import(league=league, games=[good, refused_game])
    assert refused.value.index == 1
    assert_nothing_written()


@pytest.mark.parametrize(("system", "scores", "words"), REFUSED)
def test_admin_refuses_the_game(system, scores, words, admin_client, make_league, two):
    league = make_league(system)
    rows = [
        (player, seat, None, score)
        for seat, (player, score) in enumerate(zip(two, scores, strict=True))
    ]
    response = admin_client.post(
        reverse("admin:ratings_game_add"), game_post(league, T0, rows, bula=None)
    )
    assert response.status_code == 200
    assert any(words in error for error in formset_errors(response))
    assert_nothing_written()


def entry_form(client, league, **fields) -> tuple[str, dict]:
    """The league's entry page and a game of Ana and Boris to post to it, with ``fields``."""
    url = reverse("ratings:game_new", args=[league.slug])
    key = client.get(url).context["form"].initial["submission_key"]
    data = {"played_at": "2026-01-01T20:00", "submission_key": key, "player_0": "Ana"}
    return url, {**data, "player_1": "Boris", **fields}


def test_member_form_cannot_send_a_game_both_won(member_client, duel):
    league, _ana, _boris = duel
    url, data = entry_form(member_client, league, outcome="both", save="1")
    response = member_client.post(url, data)
    assert response.status_code == 200
    assert "outcome" in response.context["form"].errors
    assert_nothing_written()


def test_member_form_refuses_a_score_with_a_fraction(member_client, make_league, two):
    league = make_league(System.RAYTER_LOWSCORE, name="Hearts")
    url, data = entry_form(member_client, league, score_0="10.5", score_1="12", preview="1")
    response = member_client.post(url, data)
    assert response.context["form"].errors["score_0"] == ["Enter a whole number."]
    assert response.context["preview"] is None
    # A whole number written with a decimal point is that number.
    data["score_0"] = "10.0"
    response = member_client.post(url, data)
    assert not response.context["form"].errors
    assert response.context["form"].cleaned_data["score_0"] == 10
    assert response.context["preview"]
    assert_nothing_written()


def test_import_command_refuses_to_put_rayter_games_into_a_head_to_head_league(duel, tmp_path):
    league, _ana, _boris = duel
    path = tmp_path / "both.txt"
    path.write_text("game 2026-01-01 20:00\nAna 1\nBoris 1\n", encoding="utf-8")
    with pytest.raises(CommandError, match="not a scored league"):
        call_command("import_rayter", str(path), league=league.slug, no_progress=True)
    assert_nothing_written()


# One date rule (ratings.dates) ------------------------------------------------------------------
# An event at 9999-12-31 23:59 in Los Angeles is year 10000 in UTC: PostgreSQL stored it and could
# not read it back, and the league's pages answered 500 for good. Year 1 east of UTC is year 0 in
# UTC. Every path refuses both, naming the field; and the club's backup restores what the live
# rules took: a game at 1900-01-01 00:30 in Belgrade, an event next month.

LOS_ANGELES = "America/Los_Angeles"
BELGRADE = "Europe/Belgrade"
# (the club's zone, an event's start as typed, words of the refusal)
EVENT_STARTS_REFUSED = [
    pytest.param(LOS_ANGELES, "9999-12-31T23:59", "more than two years ahead", id="year-9999"),
    pytest.param(BELGRADE, "0001-01-01T00:00", "before 1900", id="year-1-east-of-utc"),
    pytest.param(LOS_ANGELES, "1899-12-31T23:59", "before 1900", id="1899"),
]


def typed_moment(text: str, zone: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=ZoneInfo(zone))


@pytest.fixture
def trio(make_league, make_player):
    return make_league(System.PREFKO, name="Fridays"), [make_player(n) for n in ("A", "B", "C")]


@pytest.mark.parametrize(("zone", "typed", "words"), EVENT_STARTS_REFUSED)
def test_the_event_service_refuses_the_start_naming_the_field(settings, trio, zone, typed, words):
    settings.TIME_ZONE = zone
    league, players = trio
    with pytest.raises(ValidationError) as refused:
        make_event(league, players, starts_at=typed_moment(typed, zone))
    assert words in " ".join(refused.value.message_dict["starts_at"])
    assert not Event.objects.exists()


@pytest.mark.parametrize(("zone", "typed", "words"), EVENT_STARTS_REFUSED)
def test_the_organisers_form_refuses_the_start_under_its_field(
    settings, trio, django_user_model, zone, typed, words
):
    settings.TIME_ZONE = zone
    league, players = trio
    organiser = django_user_model.objects.create_user("vesna", password="pw-for-tests-only")
    organiser.user_permissions.add(Permission.objects.get(codename="run_events"))
    client = Client()
    client.force_login(organiser)
    data = {
        "name": "Saturday",
        "starts_at": typed,
        "rounds_total": "",
        "table_size": "3",
        "draw_method": "random",
        "scoring": "total",
        **{f"player_{n}": p.name for n, p in enumerate(players)},
    }

    response = client.post(reverse("ratings:event_new", args=[league.slug]), data)

    assert response.status_code == 200
    assert words in " ".join(response.context["form"].errors["starts_at"])
    assert not Event.objects.exists()


@pytest.mark.parametrize(("zone", "typed", "words"), EVENT_STARTS_REFUSED)
def test_the_admin_refuses_to_re_date_an_event_naming_the_field(
    settings, trio, admin_client, zone, typed, words
):
    league, players = trio
    event = make_event(league, players)
    settings.TIME_ZONE = zone
    day, clock = typed.split("T")
    url = reverse("admin:ratings_event_change", args=[event.pk])
    data = {
        "name": event.name,
        "starts_at_0": day,
        "starts_at_1": clock,
        "organiser": "",
        "event_players-TOTAL_FORMS": "0",
        "event_players-INITIAL_FORMS": "0",
    }

    response = admin_client.post(url, data)

    assert response.status_code == 200
    assert words in " ".join(response.context["adminform"].form.errors["starts_at"])
    event.refresh_from_db()
    assert event.starts_at == T0


def test_the_admin_re_dates_an_event_within_the_rule(trio, admin_client):
    league, players = trio
    event = make_event(league, players)
    soon = timezone.localtime() + timedelta(days=30)
    data = {
        "name": event.name,
        "starts_at_0": soon.strftime("%Y-%m-%d"),
        "starts_at_1": "19:00",
        "organiser": "",
        "event_players-TOTAL_FORMS": "0",
        "event_players-INITIAL_FORMS": "0",
    }

    response = admin_client.post(reverse("admin:ratings_event_change", args=[event.pk]), data)

    assert response.status_code == 302
    event.refresh_from_db()
    assert timezone.localdate(event.starts_at) == soon.date()


def test_an_event_next_month_and_one_two_years_ahead_less_a_day_are_taken(trio):
    league, players = trio
    for ahead in (timedelta(days=31), timedelta(days=2 * 365 - 1)):
        make_event(league, players, starts_at=timezone.now() + ahead)
    assert Event.objects.count() == 2


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ({"starts_at": "9999-12-31T23:59:00-08:00"}, "is not between 1900 and two years ahead"),
        ({"starts_at": "1899-12-31T20:00:00+00:00"}, "is not between 1900 and two years ahead"),
        ({"closed_at": "2999-01-01T20:00:00+00:00"}, "is not between 1900 and tomorrow"),
    ],
)
def test_restore_refuses_an_event_date_the_live_rule_refuses(db, tmp_path, fields, says):
    backup = tmp_path / "club.json"
    with transaction.atomic():
        make_event(make_league(System.PREFKO), make_players(3))
        call_command("backup_club", str(backup), stdout=StringIO())
        transaction.set_rollback(True)
    objects = backup_objects(backup)
    next(obj for obj in objects if obj["model"] == "ratings.event")["fields"].update(fields)
    write_backup(backup, objects)

    with pytest.raises(CommandError, match=says):
        call_command("restore_club", str(backup), stdout=StringIO())
    assert not Event.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_game_at_the_first_minute_of_1900_in_belgrade_is_backed_up_and_restored(
    settings, tmp_path
):
    settings.TIME_ZONE = BELGRADE
    league = make_league(System.PREFKO)
    players = worked_example_players(league)
    first = datetime(1900, 1, 1, 0, 30, tzinfo=ZoneInfo(BELGRADE))
    engine.game_record(
        league=league,
        played_at=first,
        entries=paper_entries(players, WORKED_EXAMPLE_PAPERS),
        bula=30,
    )
    backup = tmp_path / "club.json"
    call_command("backup_club", str(backup), stdout=StringIO())
    call_command("flush", interactive=False, verbosity=0)

    call_command("restore_club", str(backup), stdout=StringIO())

    assert list(Game.objects.values_list("played_at", flat=True)) == [first]


@pytest.mark.django_db(transaction=True)
def test_the_demo_club_with_a_night_next_month_is_backed_up_and_restored(tmp_path, demo_club):
    league = League.objects.filter(system=System.PREFKO).first()
    next_month = timezone.now().replace(microsecond=0) + timedelta(days=31)
    make_event(league, Player.objects.order_by("pk")[:6], name="Next month", starts_at=next_month)
    backup = tmp_path / "club.json.gz"
    call_command("backup_club", str(backup), stdout=StringIO())
    games = Game.objects.count()
    call_command("flush", interactive=False, verbosity=0)

    call_command("restore_club", str(backup), stdout=StringIO())

    assert Event.objects.get(name="Next month").starts_at == next_month
    assert Game.objects.count() == games


# A fast path asks the rule ------------------------------------------------------------------------
# The bulk import once restated check_game's conditions and called it only when one failed: a rule
# added to one and not the other was skipped for every imported game. Both now ask one predicate
# (engine.validation.game_refusal), and each system's score rule is one predicate too
# (RatingSystem.score_refusal).


def game_rule_cases():
    now = timezone.now()
    # (the game's time, its players' names in a head-to-head league)
    return {
        "three-seats": (T0, ("Ana", "Boris", "Cveta")),
        "one-seat": (T0, ("Ana",)),
        "a-player-twice": (T0, ("Ana", "Ana")),
        "before-1900": (datetime(1899, 12, 31, 12, tzinfo=ZoneInfo("UTC")), ("Ana", "Boris")),
        "two-days-ahead": (now + timedelta(days=2), ("Ana", "Boris")),
    }


@pytest.mark.parametrize("case", list(game_rule_cases()))
def test_the_bulk_import_refuses_what_check_game_refuses_with_its_words(case, duel):
    league, ana, boris = duel
    played_at, names = game_rule_cases()[case]
    ids = {"Ana": ana.pk, "Boris": boris.pk, "Cveta": -1}
    with pytest.raises(ValidationError) as single:
        validation.check_game(league, played_at, [ids[name] for name in names])
    scores = [(name, float(seat == 0)) for seat, name in enumerate(names)]

    with pytest.raises(engine.InvalidGame) as bulk:
        engine.games_import(
            league=league, games=[engine.ImportedGame(played_at=played_at, scores=scores)]
        )

    assert bulk.value.messages == single.value.messages
    assert not Game.objects.exists()


def test_a_rule_added_to_the_game_predicate_applies_to_imported_games(monkeypatch, duel):
    league, _ana, _boris = duel
    rule = validation.game_refusal

    def no_games_on_a_sunday(seats, played_at, player_ids, latest=None):
        if played_at.weekday() == 6:
            return "No games on a Sunday."
        return rule(seats, played_at, player_ids, latest)

    monkeypatch.setattr(validation, "game_refusal", no_games_on_a_sunday)
    sunday = T0 + timedelta(days=(6 - T0.weekday()) % 7)
    game = engine.ImportedGame(played_at=sunday, scores=[("Ana", 1.0), ("Boris", 0.0)])

    with pytest.raises(engine.InvalidGame, match="No games on a Sunday"):
        engine.games_import(league=league, games=[game])
    assert not Game.objects.exists()


def test_a_rule_added_to_a_systems_score_predicate_applies_on_every_path(monkeypatch, duel):
    league, ana, boris = duel
    system = type(league.rating_system)
    rule = system.score_refusal

    def no_draws(self, scores):
        return "No draws here." if scores == [0.5, 0.5] else rule(self, scores)

    monkeypatch.setattr(system, "score_refusal", no_draws)
    draw = [engine.Entry(player_id=ana.pk, score=0.5), engine.Entry(player_id=boris.pk, score=0.5)]
    with pytest.raises(ValidationError, match="No draws here"):
        engine.game_record(league=league, played_at=T0, entries=draw)
    game = engine.ImportedGame(played_at=T0, scores=[("Ana", 0.5), ("Boris", 0.5)])
    with pytest.raises(engine.InvalidGame, match="No draws here"):
        engine.games_import(league=league, games=[game])
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("system", "scores", "taken"),
    [
        (System.RAYTER_HIGHSCORE, [3, 2], True),
        (System.RAYTER_HIGHSCORE, [3.0, -2.0], True),
        (System.RAYTER_HIGHSCORE, [10**15 - 1, 0], True),
        (System.RAYTER_HIGHSCORE, [10**15, 0], False),
        (System.RAYTER_HIGHSCORE, [10**400, 0], False),
        (System.RAYTER_HIGHSCORE, [10**400, None], False),
        (System.RAYTER_HIGHSCORE, [True, 0], False),
        (System.RAYTER_HIGHSCORE, [float("nan"), 0], False),
        (System.RAYTER_HIGHSCORE, [2.5, 0], False),
        (System.ELO, [1, 0], True),
        (System.ELO, [0.5, 0.5], True),
        (System.ELO, [1, 1], False),
        (System.ELO, [None, 1], False),
    ],
)
def test_a_systems_scores_are_checked_by_one_rule_whatever_their_type(system, scores, taken):
    try:
        checked = rating_system(system).checked_scores(scores)
    except ValidationError:
        assert not taken
    else:
        assert taken
        assert checked == [float(score) for score in scores]


# A game before a player's birth date -------------------------------------------------------------
# A FIDE game dated before a player's birth date was rated with the age clamped to 0 (the junior K
# applied silently), and the admin then refused to save the player at all.


@pytest.fixture
def fide_duel(make_league, make_player):
    league = make_league(System.FIDE, name="FIDE")
    young = make_player("Young", birth_date=(T0 + timedelta(days=2)).date())
    return league, young, make_player("Old")


def test_the_engine_refuses_a_game_before_a_players_birth(fide_duel):
    league, young, old = fide_duel
    entries = [
        engine.Entry(player_id=young.pk, score=1.0),
        engine.Entry(player_id=old.pk, score=0.0),
    ]
    with pytest.raises(ValidationError, match="born on"):
        engine.game_record(league=league, played_at=T0, entries=entries)
    assert_nothing_written()


def test_the_bulk_import_refuses_a_game_before_a_players_birth(fide_duel):
    league, _young, _old = fide_duel
    game = engine.ImportedGame(played_at=T0, scores=[("Young", 1.0), ("Old", 0.0)])
    with pytest.raises(engine.InvalidGame, match="born on"):
        engine.games_import(league=league, games=[game])
    assert_nothing_written()


def test_the_entry_form_refuses_a_game_before_a_players_birth(member_client, fide_duel):
    league, _young, _old = fide_duel
    day = T0.astimezone(timezone.get_default_timezone()).strftime("%Y-%m-%dT%H:%M")
    url, data = entry_form(
        member_client, league, player_0="Young", player_1="Old", played_at=day, outcome="0"
    )
    response = member_client.post(url, {**data, "preview": "1"})
    assert response.status_code == 200
    assert "born on" in " ".join(response.context["form"].non_field_errors())
    assert_nothing_written()
