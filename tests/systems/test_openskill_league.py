"""An OpenSkill league end to end: the engine's ratings against the openskill package itself,
replays after an edit, the export a replay reads, the pages, backup and restore."""

from __future__ import annotations

import json
import random
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from openskill.models import PlackettLuce

from ratings import engine, exports, formatting, selectors
from ratings.models import Result, Standing, System
from tests.builders import T0, backup_objects, score_entries, write_backup

pytestmark = pytest.mark.django_db


@pytest.fixture
def hearts(make_league, make_player, record_game):
    """A low-score OpenSkill league: 6 players, 30 games of 3 or 4 seats, ties included."""
    rng = random.Random(5)
    league = make_league(System.OPENSKILL_LOWSCORE, name="Hearts", start_rating=0)
    players = [make_player() for _ in range(6)]
    for _ in range(30):
        seated = rng.sample(players, rng.choice((3, 4)))
        record_game(league, seated, scores=[rng.randint(0, 4) * 13 for _ in seated])
    return league, players


def package_replay(league):
    """The league replayed with the package from scratch: (mu, sigma) after each result by id,
    and each player's last; places worked out here (ties share)."""
    model = PlackettLuce()
    skill, after = {}, {}
    for game in league.games.chronological().prefetch_related("results"):
        results = sorted(game.results.all(), key=lambda r: r.seat)
        lowest_first = league.rating_system.lower_score_is_better
        ordered = sorted((r.score for r in results), reverse=not lowest_first)
        ranks = [float(ordered.index(r.score) + 1) for r in results]
        teams = [[skill.get(r.player_id, model.rating())] for r in results]
        for r, (new,) in zip(results, model.rate(teams, ranks=ranks), strict=True):
            skill[r.player_id] = new
            after[r.pk] = (new.mu, new.sigma)
    return after, {pid: (s.mu, s.sigma) for pid, s in skill.items()}


def assert_matches_the_package(league):
    after, last = package_replay(league)
    for r in Result.objects.filter(game__league=league):
        mu, sigma = r.state["mu_after"], r.state["sigma_after"]
        assert (mu, sigma) == after[r.pk]
        assert r.rating_after == mu - 3 * sigma
    for s in Standing.objects.filter(league=league, games__gt=0):
        assert (s.state["mu"], s.state["sigma"]) == last[s.player_id]
        assert s.rating == s.state["mu"] - 3 * s.state["sigma"]


def test_recorded_games_rate_as_the_package_does(hearts):
    league, _players = hearts
    assert_matches_the_package(league)


def test_an_edit_of_an_early_game_replays_to_the_packages_numbers(hearts):
    league, players = hearts
    game = league.games.chronological()[2]
    seated = [r.player for r in game.results.order_by("seat")]
    engine.game_update(
        game=game, played_at=game.played_at, entries=score_entries(seated, [0] * len(seated))
    )
    assert_matches_the_package(league)
    engine.game_delete(game=league.games.chronological()[5])
    assert_matches_the_package(league)


def test_a_back_dated_game_and_a_bulk_import_rate_as_the_package_does(hearts):
    league, players = hearts
    engine.game_record(
        league=league,
        played_at=T0 - timedelta(days=1),
        entries=score_entries(players[:3], [0, 13, 26]),
    )
    engine.games_import(
        league=league,
        games=[
            engine.ImportedGame(
                played_at=T0 + timedelta(days=10, hours=n),
                scores=[(p.name, (n * 7 + i) % 5) for i, p in enumerate(players[:4])],
            )
            for n in range(5)
        ],
    )
    assert_matches_the_package(league)


def test_the_export_replays_with_the_package_to_the_same_numbers(hearts):
    league, _players = hearts
    games = json.loads("".join(exports.stream(league, "json")))
    model = PlackettLuce()
    skill = {}
    for game in games:
        seats = game["results"]
        teams = [
            [
                skill.get(
                    seat["slug"], model.rating(mu=seat["mu_before"], sigma=seat["sigma_before"])
                )
            ]
            for seat in seats
        ]
        for seat, (team,) in zip(seats, teams, strict=True):
            assert (team.mu, team.sigma) == (seat["mu_before"], seat["sigma_before"])
        rated = model.rate(teams, ranks=[float(seat["place"]) for seat in seats])
        for seat, (new,) in zip(seats, rated, strict=True):
            assert (new.mu, new.sigma) == (seat["mu_after"], seat["sigma_after"])
            assert seat["rating_after"] == new.ordinal()
            skill[seat["slug"]] = new
    assert games[0]["results"][0]["mu_before"] == 25.0


def test_the_csv_export_has_the_skill_columns(hearts):
    league, _players = hearts
    header = "".join(exports.stream(league, "csv")).splitlines()[0].split(",")
    assert header[-5:] == ["place", "mu_before", "sigma_before", "mu_after", "sigma_after"]


def test_players_are_provisional_while_sigma_is_high(make_league, make_player, record_game):
    league = make_league(System.OPENSKILL_HIGHSCORE, start_rating=0)
    regulars, guest = [make_player() for _ in range(3)], make_player("Guest")
    for n in range(25):
        record_game(league, regulars, scores=[n % 3, (n + 1) % 3, (n + 2) % 3])
    record_game(league, [*regulars[:2], guest], scores=[1, 2, 3])
    rows = {s.player.name: s.status for s in selectors.league_standings(league)}
    assert rows["Guest"] == selectors.Status.PROVISIONAL
    assert {rows[p.name] for p in regulars} == {selectors.Status.RANKED}


def test_every_page_of_the_league_opens(client, hearts):
    league, players = hearts
    game = league.games.first()
    urls = [
        reverse("ratings:leaderboard", args=[league.slug]),
        reverse("ratings:leaderboard", args=[league.slug]) + "?season=2026",
        reverse("ratings:league_games", args=[league.slug]),
        reverse("ratings:game", args=[game.pk]),
        reverse("ratings:player", args=[players[0].slug]),
        reverse("ratings:head_to_head", args=[players[0].slug, players[1].slug]),
        reverse("ratings:leaderboard_export", args=[league.slug, "json"]),
    ]
    for url in urls:
        assert client.get(url).status_code == 200, url


@pytest.mark.django_db(transaction=True)  # flush and restore, as the backup tests do
def test_a_backup_restores_the_skills(tmp_path, hearts):
    league, _players = hearts
    before = list(Result.objects.order_by("pk").values_list("state", flat=True))
    backup = tmp_path / "club.json"
    call_command("backup_club", str(backup), stdout=StringIO())
    call_command("flush", interactive=False, verbosity=0)
    call_command("restore_club", str(backup), stdout=StringIO())
    assert list(Result.objects.order_by("pk").values_list("state", flat=True)) == before
    assert Standing.objects.filter(state__sigma__isnull=False).count() == 6


def test_a_member_enters_a_game_through_the_preview(member_client, make_league):
    league = make_league(System.OPENSKILL_HIGHSCORE, start_rating=0)
    url = reverse("ratings:game_new", args=[league.slug])
    data = {
        "submission_key": "6f2c8f0e-8a55-4d1f-9a55-0d7f0e1b2c3d",
        "played_at": "2026-03-12T21:30",
        **{"player_0": "Ana", "score_0": "812", "player_1": "Bo", "score_1": "640"},
        **{"player_2": "Cy", "score_2": "640"},
    }
    preview = member_client.post(url, {**data, "preview": "1"})
    rows = preview.context["preview"]
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(3)], ranks=[1.0, 2.0, 2.0])
    assert [row["after"] for row in rows] == [team[0].ordinal() for team in expected]
    token = preview.context["form"]["previewed"].value()
    member_client.post(url, {**data, "previewed": token, "save": "1"})
    assert_matches_the_package(league)


def test_a_club_night_of_the_league_rates_its_tables(client, make_league, make_player):
    from ratings.events import services as event_services
    from tests.builders import make_event, play_table

    league = make_league(System.OPENSKILL_LOWSCORE, start_rating=0)
    players = [make_player() for _ in range(8)]
    event = make_event(league, players, table_size=4)
    drawn = event_services.round_draw(event=event)
    for table in drawn.tables.all():
        play_table(table, scores=[0, 13, 13, 26])
    assert_matches_the_package(league)
    assert client.get(reverse("ratings:event", args=[event.pk])).status_code == 200


def test_the_leaderboard_shows_ordinals_to_one_decimal(client, hearts):
    league, _players = hearts
    standing = Standing.objects.filter(league=league, games__gt=0).first()
    html = client.get(reverse("ratings:leaderboard", args=[league.slug])).content.decode()
    assert formatting.rating_text(standing.rating, 1) in html
    assert f"{standing.rating:.1f}".replace("-", formatting.MINUS) in html


def test_the_chart_tooltips_show_ordinals_to_one_decimal(client, hearts):
    """A marker's tooltip reads as the tables do: one decimal and its change, not a whole number."""
    league, players = hearts
    result = Result.objects.filter(player=players[0]).order_by("-game__played_at").first()
    html = client.get(reverse("ratings:player", args=[players[0].slug])).content.decode()
    change = result.rating_after - result.rating_before
    tooltip = (
        f"{formatting.rating_text(result.rating_after, 1)} ({formatting.change_text(change, 1)})"
    )
    assert f"{tooltip}</title>" in html


def test_a_replay_through_copy_writes_the_packages_numbers(hearts, monkeypatch):
    """A big replay's new ratings and states travel by COPY on PostgreSQL (a temporary table
    one UPDATE reads): the state slot goes that way too."""
    from ratings.engine import sql

    league, _players = hearts
    monkeypatch.setattr(sql, "COPY_MIN_ROWS", 1)
    Result.objects.filter(league=league).update(rating_after=0, state=None)
    engine.league_recompute(league=league)
    assert_matches_the_package(league)


def test_a_change_to_a_system_without_state_empties_the_results_state(hearts):
    """A league moved from OpenSkill to Rayter (the same kind of game) keeps no OpenSkill
    numbers: a state its system does not keep would be a second, stale truth."""
    league, _players = hearts
    league.system = System.RAYTER_LOWSCORE
    league.save()
    engine.league_recompute(league=league)
    assert not Result.objects.filter(league=league, state__isnull=False).exists()
    assert not Standing.objects.filter(league=league, state__isnull=False).exists()


@pytest.mark.django_db(transaction=True)
def test_a_backup_from_before_the_state_slot_restores_the_skills(tmp_path, hearts):
    """A file written before migration 0023 has OpenSkill's numbers in columns of their own:
    restored into the state slot, as the migration moves them."""
    before = list(Result.objects.order_by("pk").values_list("state", flat=True))
    backup = tmp_path / "club.json"
    call_command("backup_club", str(backup), stdout=StringIO())
    objects = backup_objects(backup)
    for obj in objects:
        if obj["model"] in ("ratings.result", "ratings.standing"):
            obj["fields"].update(obj["fields"].pop("state") or {})
    assert "mu_before" in next(o for o in objects if o["model"] == "ratings.result")["fields"]
    write_backup(backup, objects)
    call_command("flush", interactive=False, verbosity=0)
    call_command("restore_club", str(backup), stdout=StringIO())
    assert list(Result.objects.order_by("pk").values_list("state", flat=True)) == before
    assert Standing.objects.filter(state__sigma__isnull=False).count() == 6
