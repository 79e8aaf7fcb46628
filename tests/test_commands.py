"""The management commands: recompute_ratings and demo."""

import io
import itertools
import re
from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.urls import reverse

from ratings import engine, selectors
from ratings.events.models import Event, EventTable
from ratings.management.commands import demo
from ratings.models import Game, League, Player, Result, System
from tests.builders import make_league, run_command, table_counts
from tests.replays import assert_unchanged_by_recompute
from tests.worked_example import WORKED_EXAMPLE_PAPERS

pytestmark = pytest.mark.django_db


def ratings_by_result(league) -> dict[int, tuple[float, float]]:
    return {
        pk: (before, after)
        for pk, before, after in Result.objects.filter(game__league=league).values_list(
            "pk", "rating_before", "rating_after"
        )
    }


# recompute_ratings ------------------------------------------------------------------------------


def test_recompute_ratings_replays_every_league(prefko_league_with):
    first, _ = prefko_league_with(players=3, games=4)
    second, _ = prefko_league_with(players=3, games=2)
    expected = ratings_by_result(first), ratings_by_result(second)
    Result.objects.update(rating_before=0, rating_after=0)

    out = run_command("recompute_ratings")

    assert (ratings_by_result(first), ratings_by_result(second)) == expected
    assert f"{first.name} ({first.slug}): 4 games rated" in out
    assert f"{second.name} ({second.slug}): 2 games rated" in out


def test_recompute_ratings_replays_only_the_named_league(prefko_league_with):
    first, _ = prefko_league_with(players=3, games=3)
    second, _ = prefko_league_with(players=3, games=1)
    expected = ratings_by_result(first)
    Result.objects.update(rating_after=0)

    out = run_command("recompute_ratings", first.slug)

    assert ratings_by_result(first) == expected
    assert set(
        Result.objects.filter(game__league=second).values_list("rating_after", flat=True)
    ) == {0}
    assert out.strip() == f"{first.name} ({first.slug}): 3 games rated"


def test_recompute_ratings_refuses_an_unknown_slug_and_replays_nothing(prefko_league_with):
    league, _ = prefko_league_with(players=3, games=1)
    Result.objects.update(rating_after=0)

    with pytest.raises(CommandError, match="Unknown league: no-such-league"):
        run_command("recompute_ratings", league.slug, "no-such-league")

    assert set(Result.objects.values_list("rating_after", flat=True)) == {0}


# demo -------------------------------------------------------------------------------------------


def test_demo_builds_the_club_with_the_worked_example_first(demo_club):
    out = demo_club

    preferans = League.objects.get(slug="preferans")
    assert preferans.system == System.PREFKO
    first = Game.objects.filter(league=preferans).chronological().first()
    results = list(first.results.select_related("player").order_by("seat"))
    assert [r.player.name for r in results] == ["Pedja", "Marko", "Johnny"]
    assert [r.paper for r in results] == WORKED_EXAMPLE_PAPERS
    assert first.bula == 30
    assert [r.score for r in results] == [-500, 40, 460]
    assert [r.rating_before for r in results] == [1200, 1150, 1100]
    assert [r.rating_after for r in results] == [1173, 1152, 1125]

    assert Game.objects.count() >= 500
    assert Game.objects.filter(league=preferans).count() >= 300
    hearts, chess = League.objects.get(slug="hearts"), League.objects.get(slug="chess")
    assert hearts.system == System.RAYTER_LOWSCORE
    assert (chess.system, chess.start_rating, chess.system_settings["speed"]) == (
        System.FIDE,
        1500,
        "standard",
    )
    assert Game.objects.filter(league=hearts).count() >= 100
    assert Game.objects.filter(league=chess).count() >= 100
    assert Player.objects.filter(birth_date__isnull=False).exists()
    in_several = [p for p in Player.objects.all() if p.standings.count() > 1]
    assert len(in_several) >= 3

    user = get_user_model().objects.get(username="demo")
    assert user.is_staff and user.is_superuser
    assert user.check_password("demo-club-2026")
    assert 'password "demo-club-2026"' in out
    assert "STAFF and SUPERUSER" in out


def test_demo_prints_the_counts_the_home_page_shows(demo_club, client):
    """Each league's games as the home page counts them: the Preferans league's club nights,
    tournament and digital paper included."""
    home = client.get(reverse("ratings:home")).content.decode()
    for league in League.objects.all():
        count = Game.objects.filter(league=league).count()
        line = re.search(rf"^  {league.name} \([^\n]*?\): (\d+) games", demo_club, re.M)
        assert line is not None and int(line[1]) == count, league.name
        assert str(count) in home


def test_demo_has_a_plain_member_linked_to_pedja(demo_club):
    member = get_user_model().objects.get(username="member")
    assert not member.is_staff and not member.is_superuser
    assert member.check_password("demo-club-2026")
    assert member.player.name == "Pedja"
    assert 'Member login: username "member", password "demo-club-2026"' in demo_club

    # The leaderboard: every regular ranked, the one-game guest after them, provisional.
    preferans = League.objects.get(slug="preferans")
    *regulars, guest = selectors.league_standings(preferans)
    assert len(regulars) == 12
    assert all(s.status == selectors.Status.RANKED for s in regulars)
    assert guest.player.name == "Đorđe"
    assert (guest.games, guest.status) == (1, selectors.Status.PROVISIONAL)


def test_demo_gives_both_logins_the_password_asked_for(monkeypatch):
    # A smaller club: the logins are under test here, not the games (those: ``demo_club``).
    for games in ("PREFERANS_GAMES", "HEARTS_GAMES", "CHESS_GAMES"):
        monkeypatch.setattr(demo, games, 1)

    out = run_command("demo", password="another-secret-1")

    for username in ("demo", "member"):
        assert get_user_model().objects.get(username=username).check_password("another-secret-1")
    assert 'Demo login: username "demo", password "another-secret-1"' in out
    assert 'Member login: username "member", password "another-secret-1"' in out


def test_demo_has_a_finished_night_and_a_tournament_in_progress(client, demo_club):

    night = Event.objects.get(name="Friday club night")
    assert night.is_closed and night.event_players.count() == 9
    assert night.rounds.count() == 3
    assert EventTable.objects.filter(round__event=night, game__isnull=False).count() == 9
    met = [
        pair
        for table in EventTable.objects.filter(round__event=night)
        for pair in itertools.combinations(sorted(table.seats.values_list("player", flat=True)), 2)
    ]
    assert len(met) == len(set(met)) == 27  # nobody met anyone twice
    # Closed the evening it was played, after its last game, not when the demo was built.
    last_game = Game.objects.filter(event_table__round__event=night).latest("played_at")
    assert timedelta(0) < night.closed_at - last_game.played_at < timedelta(hours=3)
    assert set(night.rounds.values_list("closed_at", flat=True)) <= {night.closed_at}
    cup = Event.objects.get(name="Winter cup")
    assert not cup.is_closed and cup.event_players.count() == 12
    second = cup.rounds.get(number=2)
    assert second.tables.filter(game__isnull=False).count() == 2
    assert second.tables.filter(game__isnull=True, not_played=False).count() == 2
    page = client.get(cup.get_absolute_url()).content.decode()
    assert "Round 2: 2 of 4 tables in" in page
    assert "Winner" in client.get(night.get_absolute_url()).content.decode()


def test_demo_ratings_equal_a_replay_from_scratch(demo_club):
    """The demo records games in played order, the events' back-dated: every rating must match
    a full replay."""

    for league in League.objects.all():
        assert_unchanged_by_recompute(league)


def test_demo_does_nothing_when_the_club_has_data(demo_club):
    games = Game.objects.count()

    out = run_command("demo", password="another-secret-1")

    assert "already has data" in out
    assert Game.objects.count() == games
    assert League.objects.count() == 4
    assert get_user_model().objects.get(username="demo").check_password("demo-club-2026")


def test_demo_refuses_when_the_member_login_is_taken(django_user_model):
    django_user_model.objects.create_user("member")

    with pytest.raises(CommandError, match='A user "member" already exists'):
        run_command("demo")

    assert not League.objects.exists()
    assert not get_user_model().objects.filter(username="demo").exists()


def test_demo_on_a_club_with_a_league_creates_nothing():
    make_league()

    out = run_command("demo")

    assert "already has data" in out
    assert not Game.objects.exists()
    assert not get_user_model().objects.filter(username="demo").exists()


def test_merge_players_on_the_demo_club_equals_a_recompute_and_redirects(client, demo_club):
    """A typo's player (one game at a table without Pedja) merged into Pedja on the demo club."""
    preferans = League.objects.get(slug="preferans")
    pedja = Player.objects.get(name="Pedja")
    others = list(
        Player.objects.filter(results__game__league=preferans)
        .exclude(pk=pedja.pk)
        .distinct()
        .order_by("name")[:2]
    )
    pedia = Player.objects.create_named("Pedia")
    engine.game_record(
        league=preferans,
        played_at=Game.objects.filter(league=preferans).earliest("played_at").played_at,
        entries=[
            engine.Entry(player_id=p.pk, paper=paper)
            for p, paper in zip([pedia, *others], WORKED_EXAMPLE_PAPERS, strict=True)
        ],
        bula=30,
    )

    call_command("merge_players", pedia.slug, pedja.slug, stdout=StringIO())

    assert not Player.objects.filter(name="Pedia").exists()
    for league in League.objects.all():
        assert_unchanged_by_recompute(league)
    response = client.get(f"/players/{pedia.slug}/")
    assert response.status_code == 301
    assert response["Location"] == pedja.get_absolute_url()


def test_merge_players_refuses_two_who_shared_a_table_naming_the_game(demo_club):
    first = Game.objects.filter(league__slug="preferans").order_by("played_at", "pk").first()
    a, b = (r.player for r in first.results.order_by("seat")[:2])
    with pytest.raises(CommandError, match=f"game #{first.pk}"):
        call_command("merge_players", b.slug, a.slug)


# Unknown leagues ---------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", ["no-such-league", "bad slug!", "x" * 300])
def test_league_commands_refuse_unknown_leagues(slug):
    before = table_counts()

    for command in ("recompute_ratings", "export_rayter", "standings"):
        with pytest.raises(CommandError):
            call_command(command, slug, stdout=io.StringIO())

    assert table_counts() == before
