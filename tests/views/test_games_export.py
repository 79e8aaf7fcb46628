"""The games export (``/leagues/<slug>/games.csv|json``, ``export_games``): its format, that it
streams in a fixed number of queries, and that a replay from the export alone with the rating
algorithms gives every ``rating_after`` in it, as another tool would replay it."""

from __future__ import annotations

import csv
import io
import json
import random
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings
from django.urls import reverse
from hypothesis import example, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from ratings import engine, exports
from ratings.algorithms import elo, preferans, rayter
from ratings.models import (
    League,
    Player,
    Speed,
    System,
)
from tests.builders import FORMULAS, SYSTEM_CODES, game_data
from tests.views.pages import VERSION
from tests.worked_example import (
    WORKED_EXAMPLE_PAPERS,
    WORKED_EXAMPLE_PLAYERS,
    WORKED_EXAMPLE_START_RATINGS,
    random_paper,
)

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 1, 1, 20, 0, tzinfo=UTC)


@pytest.fixture
def worked_example_club(make_league, make_player, record_game):
    """A Preferans league whose first game is the worked example, and a second game after it."""
    league = make_league(System.PREFKO, name="Friday Preferans")
    players = [make_player(name) for name in WORKED_EXAMPLE_PLAYERS]
    for player, rating in zip(players, WORKED_EXAMPLE_START_RATINGS, strict=True):
        engine.standing_set_start_rating(league=league, player=player, rating=rating)
    record_game(league, players, papers=WORKED_EXAMPLE_PAPERS, bula=30, played_at=T0)
    record_game(
        league, players[::-1], papers=WORKED_EXAMPLE_PAPERS, bula=30, played_at=T0 + timedelta(1)
    )
    return league


def scored(players, scores) -> list[engine.Entry]:
    return [engine.Entry(player_id=p.pk, score=s) for p, s in zip(players, scores, strict=True)]


def download(client, league: League, fmt: str):
    response = client.get(reverse("ratings:games_export", args=[league.slug, fmt]))
    assert response.status_code == 200
    assert response.streaming
    return response, b"".join(response.streaming_content).decode("utf-8")


def exported_json(league: League) -> list[dict]:
    return json.loads("".join(exports.stream(league, "json")))


def exported_csv(league: League) -> list[dict]:
    return list(csv.DictReader(io.StringIO("".join(exports.stream(league, "csv")))))


def openskill_from_export(seats: list[dict], skills: dict) -> list[float]:
    """An OpenSkill game replayed by the package from its export: each seat's place as its rank,
    a player's first mu_before and sigma_before as their start; checks the skills after."""
    model = PlackettLuce()
    teams = []
    for seat in seats:
        skills.setdefault(seat["slug"], (seat["mu_before"], seat["sigma_before"]))
        assert skills[seat["slug"]] == (seat["mu_before"], seat["sigma_before"])
        teams.append([model.rating(*skills[seat["slug"]])])
    after = []
    for seat, (new,) in zip(
        seats, model.rate(teams, ranks=[s["place"] for s in seats]), strict=True
    ):
        assert (new.mu, new.sigma) == (seat["mu_after"], seat["sigma_after"])
        skills[seat["slug"]] = (new.mu, new.sigma)
        after.append(new.ordinal())
    return after


def replay(league: League, games: list[dict], *, without_ages: bool = False) -> int:
    """Replay exported games from scratch with the algorithms alone and check every rating.

    It knows what docs/files.md says a replayer knows: the league's system and settings (K,
    speed), each player's start rating as their first game's ``rating_before``, and in a FIDE
    league each seat's ``age`` (``without_ages`` ignores them, to show they are needed).
    Returns the number of seats checked.
    """
    rating, played, peak = {}, {}, {}
    skills = {}  # OpenSkill's (mu, sigma) by slug, from each player's first mu_before
    checked = 0
    for game in games:
        seats = game["results"]
        assert [seat["seat"] for seat in seats] == list(range(1, len(seats) + 1))
        for seat in seats:
            slug = seat["slug"]
            if slug not in rating:
                rating[slug] = peak[slug] = seat["rating_before"]
                played[slug] = 0
        slugs = [seat["slug"] for seat in seats]
        before = [rating[slug] for slug in slugs]
        scores = [seat["score"] for seat in seats]
        if league.system == System.PREFKO:
            changes = preferans.rating_changes(before, scores, game["bula"])
            after = [b + c for b, c in zip(before, changes, strict=True)]
        elif league.system == System.ELO:
            after = list(
                elo.classic(before[0], before[1], scores[0], k=league.system_settings["elo_k"])
            )
        elif league.system == System.FIDE:
            age = [None if without_ages else seat["age"] for seat in seats]
            after = list(
                elo.fide(
                    before[0],
                    before[1],
                    scores[0],
                    games_a=played[slugs[0]],
                    games_b=played[slugs[1]],
                    age_a=age[0],
                    age_b=age[1],
                    ever_2400_a=peak[slugs[0]] >= 2400,
                    ever_2400_b=peak[slugs[1]] >= 2400,
                    blitz=league.system_settings["speed"] == Speed.BLITZ,
                    rapid=league.system_settings["speed"] == Speed.RAPID,
                )
            )
        elif league.rating_system.keeps_state:
            after = openskill_from_export(seats, skills)
        else:
            score_type = league.rating_system.rayter_score_type
            changes = rayter.rate_single_game(scores, before, score_type)
            after = [b + c for b, c in zip(before, changes, strict=True)]
        assert [seat["rating_before"] for seat in seats] == before, game["id"]
        assert [seat["rating_after"] for seat in seats] == after, game["id"]
        for slug, new in zip(slugs, after, strict=True):
            rating[slug], played[slug], peak[slug] = new, played[slug] + 1, max(peak[slug], new)
        checked += len(seats)
    return checked


# The format -------------------------------------------------------------------------------------


def test_the_json_export_starts_with_the_worked_example(client, worked_example_club):
    response, text = download(client, worked_example_club, "json")

    games = json.loads(text)
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == 'attachment; filename="friday-preferans-games.json"'
    assert len(games) == 2
    first = games[0]
    assert first == {
        "id": first["id"],
        "played_at": "2026-01-01T20:00:00+00:00",
        "bula": 30,
        "ended_early": False,
        "results": [
            {
                "seat": 1,
                "name": "Pedja",
                "slug": "pedja",
                "left": 320,
                "middle": -20,
                "right": 160,
                "score": -500,
                "rating_before": 1200,
                "rating_after": 1173,
            },
            {
                "seat": 2,
                "name": "Marko",
                "slug": "marko",
                "left": 120,
                "middle": 4,
                "right": 60,
                "score": 40,
                "rating_before": 1150,
                "rating_after": 1152,
            },
            {
                "seat": 3,
                "name": "Johnny",
                "slug": "johnny",
                "left": 20,
                "middle": 16,
                "right": 60,
                "score": 460,
                "rating_before": 1100,
                "rating_after": 1125,
            },
        ],
    }
    # prefko's numbers are whole: written as ints, not 1173.0.
    assert '"rating_before":1200,"rating_after":1173}' in text
    assert [r["name"] for r in games[1]["results"]] == ["Johnny", "Marko", "Pedja"]


def test_the_demo_preferans_league_starts_with_the_worked_example(client, demo_club):

    _response, text = download(client, League.objects.get(slug="preferans"), "json")

    first = json.loads(text)[0]["results"]
    assert [(r["name"], r["left"], r["middle"], r["right"]) for r in first] == [
        ("Pedja", 320, -20, 160),
        ("Marko", 120, 4, 60),
        ("Johnny", 20, 16, 60),
    ]
    assert [(r["rating_before"], r["rating_after"]) for r in first] == [
        (1200, 1173),
        (1150, 1152),
        (1100, 1125),
    ]


def test_the_demo_club_replays_from_its_exports(client, demo_club):
    """Every league of the demo, from its download alone."""

    for league in League.objects.all():
        _response, text = download(client, league, "json")
        assert replay(league, json.loads(text)) > 0


def test_the_csv_export_has_a_header_and_a_row_per_seat(client, worked_example_club):
    response, text = download(client, worked_example_club, "csv")

    rows = list(csv.reader(io.StringIO(text)))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="friday-preferans-games.csv"'
    assert rows[0] == [
        *("game_id", "played_at", "bula", "ended_early", "seat", "name", "slug"),
        *("left", "middle", "right", "score", "rating_before", "rating_after"),
    ]
    assert len(rows) == 1 + 2 * 3
    game_id = rows[1][0]
    assert rows[1:4] == [
        [game_id, "2026-01-01T20:00:00+00:00", "30", "False", "1", "Pedja", "pedja"]
        + ["320", "-20", "160", "-500", "1200", "1173"],
        [game_id, "2026-01-01T20:00:00+00:00", "30", "False", "2", "Marko", "marko"]
        + ["120", "4", "60", "40", "1150", "1152"],
        [game_id, "2026-01-01T20:00:00+00:00", "30", "False", "3", "Johnny", "johnny"]
        + ["20", "16", "60", "460", "1100", "1125"],
    ]
    assert text.endswith("\r\n")


def test_csv_cells_that_a_spreadsheet_would_run_are_neutralised(make_league, make_player):
    league = make_league(System.RAYTER_HIGHSCORE)
    players = [
        make_player("=HYPERLINK(1)"),
        make_player("@SUM(1)"),
        Player.objects.create(name="Plain", slug="-cmd"),
    ]
    engine.game_record(
        league=league,
        played_at=T0,
        entries=scored(players, (-3, 5, 1)),
    )

    rows = exported_csv(league)
    games = exported_json(league)

    assert [(r["name"], r["slug"]) for r in rows] == [
        ("'=HYPERLINK(1)", "hyperlink1"),
        ("'@SUM(1)", "sum1"),
        ("Plain", "'-cmd"),
    ]
    # Numbers are numbers: a negative score is not text to neutralise.
    assert rows[0]["score"] == "-3.0"
    # JSON is not opened by spreadsheets: names as they are.
    assert [r["name"] for r in games[0]["results"]] == ["=HYPERLINK(1)", "@SUM(1)", "Plain"]


def test_a_scored_league_exports_scores_without_paper_columns(make_league, make_player):
    league = make_league(System.RAYTER_LOWSCORE)
    players = [make_player("Dahlia"), make_player("Jовaн"), make_player("Lei")]
    engine.game_record(
        league=league,
        played_at=T0,
        entries=scored(players, (12, 40, 0)),
    )

    game = exported_json(league)[0]
    rows = exported_csv(league)

    assert game["bula"] is None
    assert [(r["left"], r["middle"], r["right"]) for r in game["results"]] == [(None,) * 3] * 3
    assert [r["score"] for r in game["results"]] == [12.0, 40.0, 0.0]
    assert [r["rating_before"] for r in game["results"]] == [1000.0] * 3
    assert [r["rating_after"] for r in game["results"]][0] > 1000
    assert game["results"][1]["name"] == "Jовaн"  # ensure_ascii=False: the letters as they are
    assert [(r["bula"], r["left"], r["middle"], r["right"]) for r in rows] == [("",) * 4] * 3
    assert [r["score"] for r in rows] == ["12.0", "40.0", "0.0"]


def test_an_elo_league_keeps_every_digit_of_its_ratings(make_league, make_player):
    league = make_league(System.ELO, start_rating=1500)
    players = [make_player(), make_player()]
    engine.standing_set_start_rating(league=league, player=players[0], rating=2100)
    engine.standing_set_start_rating(league=league, player=players[1], rating=1200)
    engine.game_record(
        league=league,
        played_at=T0,
        entries=scored(players, (0, 1)),
    )

    results = exported_json(league)[0]["results"]
    rows = exported_csv(league)

    # Chess::Elo's seed example: elo(2100, 0, 1200).
    assert [(r["score"], r["rating_after"]) for r in results] == [
        (0.0, 2068.1789429538826),
        (1.0, 1231.8210570461172),
    ]
    assert [r["rating_after"] for r in rows] == ["2068.1789429538826", "1231.8210570461172"]
    assert [r["score"] for r in rows] == ["0.0", "1.0"]


def test_times_are_written_in_the_clubs_time_zone_with_the_offset(settings, worked_example_club):
    settings.TIME_ZONE = "Europe/Belgrade"

    games = exported_json(worked_example_club)

    assert [game["played_at"] for game in games] == [
        "2026-01-01T21:00:00+01:00",
        "2026-01-02T21:00:00+01:00",
    ]


def test_games_come_in_rating_order_not_the_order_of_entry(make_league, make_player, record_game):
    league = make_league(System.PREFKO)
    players = [make_player() for _ in range(3)]
    late = record_game(
        league, players, papers=WORKED_EXAMPLE_PAPERS, played_at=T0 + timedelta(days=2)
    )
    early = record_game(league, players, papers=WORKED_EXAMPLE_PAPERS, played_at=T0)
    tie = record_game(league, players, papers=WORKED_EXAMPLE_PAPERS, played_at=T0)
    ended = record_game(
        league,
        players,
        papers=[(0, 3, 0), (0, 0, 0), (0, 0, 0)],
        played_at=T0 + timedelta(days=3),
        ended_early=True,
    )

    games = exported_json(league)

    assert [game["id"] for game in games] == [early.pk, tie.pk, late.pk, ended.pk]
    assert [game["ended_early"] for game in games] == [False, False, False, True]
    assert replay(league, games) == 12


def test_an_empty_league_exports_an_empty_list_and_a_header(client, make_league):
    league = make_league(System.ELO)

    assert download(client, league, "json")[1] == "[\n]\n"
    assert download(client, league, "csv")[1] == ",".join(exports.csv_columns(league)) + "\r\n"


def test_an_unknown_league_or_format_is_404(client, worked_example_club):
    for args in (["nobody", "csv"], ["nobody", "json"], [worked_example_club.slug, "xml"]):
        assert client.get(reverse("ratings:games_export", args=args)).status_code == 404


@pytest.mark.parametrize("fmt", exports.FORMATS)
def test_a_private_club_sends_visitors_to_the_login_and_lets_members_read(
    settings, client, member_client, worked_example_club, fmt
):
    settings.CLUB_PRIVATE = True
    url = reverse("ratings:games_export", args=[worked_example_club.slug, fmt])

    response = client.get(url)

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login") + "?next=")
    assert "Pedja" in download(member_client, worked_example_club, fmt)[1]


@pytest.mark.parametrize("page", ["ratings:league_games", "ratings:leaderboard"])
def test_the_games_page_and_the_leaderboard_link_both_downloads(client, worked_example_club, page):
    html = client.get(reverse(page, args=[worked_example_club.slug])).content.decode()

    assert "Download all games:" in html
    for fmt in exports.FORMATS:
        assert f'href="/leagues/friday-preferans/games.{fmt}" download' in html


# Streaming --------------------------------------------------------------------------------------


def _big_league(players: list[Player], games: int) -> League:
    """A Preferans league of ``games`` random games, recorded in one batch (seconds, not
    minutes, for hundreds of games)."""
    rng = random.Random(games)
    league = League.objects.create(name=f"Big {games}", slug=f"big-{games}", system=System.PREFKO)
    prepared = [
        engine.prepare_game(
            league,
            played_at=T0 + timedelta(hours=n),
            entries=[
                engine.Entry(player_id=p.pk, paper=paper)
                for p, paper in zip(rng.sample(players, 3), random_paper(rng), strict=True)
            ],
            bula=30,
        )
        for n in range(games)
    ]
    engine.games_record_many(league=league, games=prepared)
    return league


@pytest.mark.parametrize("fmt", exports.FORMATS)
def test_the_export_runs_two_queries_however_many_games(
    client, make_player, fmt, django_assert_num_queries
):
    """No N+1 and no query per chunk: the league, then one query whose rows are read in chunks
    (fetchmany from one cursor on SQLite; one server-side cursor on PostgreSQL). The JSON asks
    once more for the league's digital papers (their deal logs: none here). First of all, the
    data version the download is cached by (ratings.download_cache)."""
    players = [make_player() for _ in range(8)]
    for games in (5, 500):
        league = _big_league(players, games)
        with django_assert_num_queries(VERSION + (2 if fmt == "csv" else 3)):
            _response, text = download(client, league, fmt)
        assert text.count("\n") == (games + 2 if fmt == "json" else 3 * games + 1)


def test_the_stream_is_sent_in_pieces_of_about_piece_rows(make_player, monkeypatch):
    monkeypatch.setattr(exports, "PIECE_ROWS", 10)
    league = _big_league([make_player() for _ in range(4)], 30)

    csv_pieces = list(exports.stream(league, "csv"))
    json_pieces = list(exports.stream(league, "json"))

    # Whole games a piece: up to PIECE_ROWS rows (or games), plus the rest of the last game.
    assert len(csv_pieces) > 5
    assert max(piece.count("\n") for piece in csv_pieces) <= 10 + 2
    assert len(json_pieces) > 2
    assert max(piece.count("\n") for piece in json_pieces) <= 10 + 1
    assert json.loads("".join(json_pieces)) == exported_json(league)


# The command ------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", exports.FORMATS)
def test_export_games_writes_the_same_as_the_download(client, worked_example_club, tmp_path, fmt):
    target = tmp_path / f"out.{fmt}"
    stdout, stderr = io.StringIO(), io.StringIO()

    call_command(
        "export_games", worked_example_club.slug, format=fmt, output=str(target), stderr=stderr
    )
    call_command("export_games", worked_example_club.slug, format=fmt, stdout=stdout)

    downloaded = download(client, worked_example_club, fmt)[1]
    assert target.read_bytes().decode("utf-8") == downloaded
    assert stdout.getvalue() == downloaded
    assert f"to {target}" in stderr.getvalue()


def test_export_games_writes_csv_unless_asked_for_json(worked_example_club):
    stdout = io.StringIO()

    call_command("export_games", worked_example_club.slug, stdout=stdout)

    assert stdout.getvalue().startswith("game_id,played_at,")


def test_export_games_refuses_an_unknown_league_and_an_unwritable_file(
    worked_example_club, tmp_path
):
    with pytest.raises(CommandError, match="Unknown league: nobody"):
        call_command("export_games", "nobody")
    with pytest.raises(CommandError, match="Cannot write"):
        call_command(
            "export_games", worked_example_club.slug, output=str(tmp_path / "no" / "such.csv")
        )
    with pytest.raises(CommandError, match="invalid choice"):
        call_command("export_games", worked_example_club.slug, "--format", "xml")


# Replaying the export ---------------------------------------------------------------------------


def test_a_fide_replay_needs_the_games_peaks_and_juniors_ages(make_league, make_player):
    """Past 30 games FIDE's K depends on the player's peak (ever 2400: K = 10) and age (under
    18 and under 2300: K = 40): a replay counts games and peaks from the export, and reads each
    seat's age at the game (the birth date itself stays out)."""
    league = make_league(System.FIDE, start_rating=2000)
    veteran, peer = make_player("Veteran"), make_player("Peer")
    junior = make_player("Junior", birth_date=date(2014, 3, 1))
    engine.standing_set_start_rating(league=league, player=veteran, rating=2395)
    # The veteran passes 2400 and falls back; the junior plays 40 even games; the veteran 40 more.
    pairs = [(veteran, peer)] * 10 + [(peer, veteran)] * 10
    pairs += [(junior, peer), (peer, junior)] * 20 + [(veteran, peer), (peer, veteran)] * 20
    for n, (winner, loser) in enumerate(pairs):
        engine.game_record(
            league=league,
            played_at=T0 + timedelta(hours=n),
            entries=scored([winner, loser], (1, 0)),
        )

    games = exported_json(league)

    veteran_ratings = [
        seat["rating_after"]
        for game in games
        for seat in game["results"]
        if seat["slug"] == "veteran"
    ]
    assert max(veteran_ratings) >= 2400 > veteran_ratings[-1]
    assert {seat["age"] for game in games for seat in game["results"]} == {None, 11}
    assert replay(league, games) == 2 * len(pairs)
    with pytest.raises(AssertionError):
        replay(league, games, without_ages=True)


@override_settings(TIME_ZONE="Europe/Belgrade")
def test_a_fide_age_is_on_the_clubs_date_of_the_game(make_league, make_player):
    """At 00:30 in Belgrade on a junior's 18th birthday it is still the day before in UTC: the
    export gives the age the engine rated with, the club's day."""
    zone = ZoneInfo("Europe/Belgrade")
    league = make_league(System.FIDE, start_rating=2000)
    junior = make_player("Junior", birth_date=date(2008, 3, 10))
    peer = make_player("Peer")
    for played_at in (
        datetime(2026, 3, 9, 20, 0, tzinfo=zone),
        datetime(2026, 3, 10, 0, 30, tzinfo=zone),
    ):
        engine.game_record(
            league=league, played_at=played_at, entries=scored([junior, peer], (1, 0))
        )

    games = exported_json(league)

    assert [game["results"][0]["age"] for game in games] == [17, 18]
    assert replay(league, games) == 4


@st.composite
def seated_game(draw, system: str):
    """(players' indexes among six, the game's data) of one game of ``system``."""
    seats, data = draw(game_data(system))
    return draw(st.permutations(range(6)))[:seats], data


@st.composite
def clubs(draw):
    """A small league: its system and settings, own start ratings, and games entered out of
    their played order (so the engine replays back-dated games) on a few days."""
    system = draw(SYSTEM_CODES)
    league = {
        "system": system,
        "start_rating": draw(st.sampled_from([1000, 1500, 2350])),
    }
    # The settings of the two systems that have ones a replay reads.
    if system == System.ELO:
        league["settings"] = {"elo_k": draw(st.sampled_from([16, 32, 40]))}
    elif system == System.FIDE:
        league["settings"] = {"speed": draw(st.sampled_from(list(Speed)))}
    starts = draw(st.lists(st.one_of(st.none(), st.integers(800, 2600)), min_size=6, max_size=6))
    games = draw(
        st.lists(st.tuples(st.integers(0, 5), seated_game(system)), min_size=1, max_size=12)
    )
    return league, starts, games


# A game put before others moves a later OpenSkill seat's sigma by one ulp while its ordinal, the
# rating, stays the same float: the replay must still write the new sigma (it once compared the
# rating and mu alone, and the export then disagreed with the package in the last digit).
SIGMA_ALONE = (
    {"system": System.OPENSKILL_LOWSCORE, "start_rating": 1000},
    [None, None, 2411, 1938, None, None],
    [*[(0, ([0, 1], {"scores": [0, 0]}))] * 10]
    + [(1, ([2, 3, 0, 1, 4], {"scores": [0, 2, 0, 0, 0]})), (0, ([0, 2], {"scores": [0, -1]}))],
)


@settings(max_examples=60, deadline=None)
@given(clubs())
@example(SIGMA_ALONE)
def test_a_replay_of_the_json_export_gives_every_rating_after(club):
    league_fields, starts, games = club
    league = League.objects.create(
        name=f"Club {League.objects.count()}",
        slug=f"club-{League.objects.count()}",
        **league_fields,
    )
    players = [Player.objects.create_named(f"P {Player.objects.count()}") for _ in range(6)]
    # Two juniors: FIDE gives them K = 40; the export says their age at each game.
    births = {players[4].slug: date(2012, 5, 17), players[5].slug: date(2010, 1, 2)}
    for player in players[4:]:
        player.birth_date = births[player.slug]
        player.save()
    for player, start in zip(players, starts, strict=True):
        if start is not None:
            engine.standing_set_start_rating(league=league, player=player, rating=start)
    for day, (chosen, data) in games:
        kind, values = ("paper", data["papers"]) if "papers" in data else ("score", data["scores"])
        engine.game_record(
            league=league,
            played_at=T0 + timedelta(days=day),
            entries=[
                engine.Entry(player_id=players[i].pk, **{kind: value})
                for i, value in zip(chosen, values, strict=True)
            ],
            bula=data.get("bula"),
        )

    exported = exported_json(league)

    assert replay(league, exported) == sum(len(chosen) for _day, (chosen, _v) in games)
    assert [row["rating_after"] for row in exported_csv(league)] == [
        repr(seat["rating_after"]) for game in exported for seat in game["results"]
    ]


# Names that look like formulas: neutralised in the CSV export ------------------------------------


def test_formula_names_are_neutralised_in_the_csv_export(
    client, make_league, make_player, record_game
):
    league = make_league(System.ELO, name="Chess", slug="chess")
    players = [make_player(name) for name in FORMULAS]
    for first, second in zip(players, players[1:], strict=False):
        record_game(league, [first, second], scores=[1, 0])

    response = client.get(reverse("ratings:leaderboard_export", args=[league.slug, "csv"]))

    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert sorted(row["name"] for row in rows) == sorted("'" + name for name in FORMULAS)
    # JSON is data, not a spreadsheet: the names as they are.
    data = client.get(reverse("ratings:leaderboard_export", args=[league.slug, "json"])).json()
    assert sorted(row["name"] for row in data["standings"]) == sorted(FORMULAS)


# Standings -------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_the_standings_command_writes_the_leaderboards_export(
    client, make_league, make_player, record_game, fmt
):
    """One standings export: the command's CSV and JSON are the leaderboard's download (every
    player shown), the same columns and the same rounding."""
    league = make_league(System.ELO, name="Chess", slug="chess")
    players = [make_player(name) for name in ("Ana", "=Bojan", "Ceca")]
    for day, (a, b, score) in enumerate([(0, 1, 1), (1, 2, 0.5), (2, 0, 0), (0, 1, 0.5)]):
        record_game(
            league,
            [players[a], players[b]],
            scores=[score, 1 - score],
            played_at=T0 + timedelta(day),
        )
    out = io.StringIO()

    call_command("standings", league.slug, "--format", fmt, stdout=out)

    url = reverse("ratings:leaderboard_export", args=[league.slug, fmt])
    page = client.get(url, {"inactive": "on"}).content.decode()
    assert out.getvalue() == page + ("\n" if fmt == "json" else "")
    if fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(page)))
        assert list(rows[0]) == list(exports.STANDINGS_COLUMNS)
        assert all(len(row["rating"].partition(".")[2]) <= 2 for row in rows)
        assert "'=Bojan" in [row["name"] for row in rows]
