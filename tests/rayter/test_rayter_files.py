"""Rayter files in and out: the import_rayter, standings and export_rayter commands and the
services behind them (ratings.rayter.files, ratings.rayter.standings).

The rayter 2.1.0 command's own outputs are the committed fixtures in tests/algorithms/vectors/
(made by scripts/vectors/rayter_vectors.py); nothing here runs rayter.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
from datetime import UTC, datetime, timedelta
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, ManagementUtility, base, call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from ratings import engine, selectors
from ratings.algorithms import rayter_format
from ratings.models import AuditEntry, Game, League, Player, Result, Standing, System
from ratings.rayter import files as rayter_files
from ratings.rayter import names as rayter_names
from ratings.rayter import standings as rayter_standings
from ratings.selectors import league_standings_rows
from tests.algorithms import rayter_reference
from tests.builders import (
    FORMULAS,
    HEARTS_FILE,
    OUT_OF_RANGE,
    OUT_OF_RANGE_PROBLEMS,
    T0_2025,
    ZONES,
    hearts_games,
    ratings_of,
    run_command,
    score_entries,
    table_counts,
    write_file,
)

pytestmark = pytest.mark.django_db

VECTORS = Path(__file__).parents[1] / "algorithms" / "vectors"
CLI_FILES = json.loads(gzip.decompress((VECTORS / "rayter_cli.json.gz").read_bytes()))["files"]
WORKED_EXAMPLE = VECTORS / "rayter_worked_example.txt"
T0 = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)


def write(tmp_path: Path, text: str | bytes, name: str = "games.txt") -> str:
    path = tmp_path / name
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8", newline="")
    else:
        path.write_bytes(text)
    return str(path)


def import_file(path: str, league: str, *args, **options) -> str:
    return run_command("import_rayter", path, *args, league=league, no_progress=True, **options)


def standings_rows(slug: str) -> list[dict]:
    """The league's standings as the rayter command has them, unrounded: the rows the
    ``standings`` command prints as its text table."""
    league = League.objects.get(slug=slug)
    return [
        {"name": row.name, "games": row.games, "rating": row.rating, "change": row.change}
        for row in selectors.league_standings_rows(league)
    ]


def rounded_rows(rows) -> list[tuple[str, int, int, int]]:
    """As the rayter command shows them: Python's round, half to even."""
    return [(r["name"], r["games"], round(r["rating"]), round(r["change"])) for r in rows]


def cli_rows(record: dict) -> list[tuple[str, int, int, int]]:
    table = json.loads(record["json"])
    return [(r["name"], r["matches"], r["rating"], r["delta"]) for r in table.values()]


def nothing_written() -> bool:
    return not (
        League.objects.exists()
        or Player.objects.exists()
        or Game.objects.exists()
        or Standing.objects.exists()
        or AuditEntry.objects.exists()
    )


def club_state(league: League) -> tuple:
    return (
        list(Game.objects.filter(league=league).order_by("pk").values_list("pk", "played_at")),
        list(
            Result.objects.filter(game__league=league)
            .order_by("pk")
            .values_list("pk", "player_id", "score", "rating_before", "rating_after")
        ),
        list(
            Standing.objects.filter(league=league)
            .order_by("player_id")
            .values_list("player_id", "rating", "games", "last_change")
        ),
        Player.objects.count(),
    )


# The worked example and the rayter command's own outputs ------------------------------------------


def test_the_worked_example_gives_its_standings(tmp_path):
    out = import_file(str(WORKED_EXAMPLE), "example")
    assert "Games imported: 2 of 2" in out
    assert "New players: 4 (Ahmed, Dahlia, John, Lei)" in out

    text = run_command("standings", "example")

    assert text.splitlines()[2:] == [
        "Name           Games     Rating    Change    ",
        "John                 2     1058       62",
        "Dahlia               2     1029       -3",
        "Ahmed                2      962      -30",
        "Lei                  2      951      -30",
    ]


def test_new_league_is_a_scored_league_named_after_the_slug_without_a_game_name():
    import_file(str(WORKED_EXAMPLE), "example")

    league = League.objects.get(slug="example")
    assert (league.name, league.system, league.game_name) == (
        "example",
        System.RAYTER_HIGHSCORE,
        "",
    )
    assert league.start_rating == 1000


@pytest.mark.parametrize("record", CLI_FILES, ids=[r["name"] for r in CLI_FILES])
def test_cli_files_give_the_cli_standings(tmp_path, record):
    """Names, game counts, ratings and changes as the rayter command printed them.

    rayter rates in file order, the club by time: for the fixture files that are not in time
    order the import says so, and the standings are those rayter gives the same games sorted
    by time (tests/algorithms/test_rayter.py proves that its model of the command equals it).
    """
    path = write(tmp_path, record["content"], record["name"])
    parsed = rayter_format.parse(record["content"])

    out = import_file(path, "cli")

    rows = standings_rows("cli")
    if parsed.chronological:
        assert "not in time order" not in out
        assert rounded_rows(rows) == cli_rows(record)
        # The text table is the command's, line for line, apart from the title and "Change".
        ours = run_command("standings", "cli").splitlines()
        theirs = record["text"].splitlines()
        assert ours[1] == theirs[1]
        assert ours[2] == theirs[2].replace("Delta ", "Change")
        assert ours[3:] == theirs[3:]
    else:
        assert "not in time order" in out
        # sorted() is stable: games in the same minute keep their file order.
        by_time = sorted(parsed.games, key=lambda game: game.time)
        expected = rayter_reference.standings(
            rayter_format.RayterFile(tuple(by_time), parsed.score_type)
        )
        assert [(r["name"], r["games"], r["rating"], r["change"]) for r in rows] == [
            (s.name, s.games, s.rating, s.change) for s in expected
        ]
        assert sorted(row[:2] for row in rounded_rows(rows)) == sorted(
            row[:2] for row in cli_rows(record)
        )


@pytest.mark.parametrize("record", CLI_FILES, ids=[r["name"] for r in CLI_FILES])
def test_standings_text_is_the_cli_table(record):
    """standings_text prints the rayter command's table (with Change for Delta), byte for byte."""
    parsed = rayter_format.parse(record["content"])
    title = parsed.game_name or record["name"]

    text = rayter_standings.standings_text(
        title, len(parsed.games), rayter_reference.standings(parsed)
    )

    assert text == record["text"].replace("Delta     \n", "Change    \n", 1)
    assert record["text"] == rayter_reference.render_cli_text(parsed, record["name"])


def test_new_league_takes_its_system_and_names_from_the_file(tmp_path):
    path = write(
        tmp_path, "score_type winner_takes_all\ngame_name Chess\ngame 2020-01-01 10:00\na 1\nb 0\n"
    )

    import_file(path, "chess")
    import_file(path, "chess-2")  # the name Chess is taken
    import_file(path, "blitz", name="Blitz on Fridays")

    leagues = League.objects.order_by("pk").values_list("slug", "name", "system", "game_name")
    wta = System.RAYTER_WINNER_TAKES_ALL
    assert list(leagues) == [
        ("chess", "Chess", wta, "Chess"),
        ("chess-2", "Chess (chess-2)", wta, "Chess"),
        ("blitz", "Blitz on Fridays", wta, "Chess"),
    ]


def test_lowscore_file_makes_a_lowscore_league(tmp_path):
    path = write(tmp_path, "score_type lowscore\ngame 2020-01-01 10:00\na 10\nb 20\n")

    import_file(path, "hearts")

    league = League.objects.get(slug="hearts")
    assert league.system == System.RAYTER_LOWSCORE
    assert [row["name"] for row in standings_rows("hearts")] == ["a", "b"]


# Refusals: all or nothing ------------------------------------------------------------------------

BROKEN_ON_LINE_7 = """\
score_type highscore
game 2020-01-01 10:00
Anna 10
Bo 20

game 2020-01-01 11:00
Anna ten
Bo 20
"""


def test_syntax_error_on_line_7_refuses_the_whole_file(tmp_path):
    path = write(tmp_path, BROKEN_ON_LINE_7)

    with pytest.raises(CommandError, match="line 7") as refused:
        import_file(path, "broken")

    assert "nothing was written" in str(refused.value)
    assert nothing_written()


def test_refused_file_exits_non_zero(tmp_path, capsys, monkeypatch):
    path = write(tmp_path, BROKEN_ON_LINE_7)
    # run_from_argv closes the connections when done: keep the test's own open.
    monkeypatch.setattr(base.connections, "close_all", lambda: None)
    argv = ["manage.py", "import_rayter", path, "--league", "broken", "--no-progress"]

    with pytest.raises(SystemExit) as exited:
        ManagementUtility(argv).execute()

    assert exited.value.code == 1
    assert "line 7: expected 'NAME SCORE', got 'Anna ten'" in capsys.readouterr().err
    assert nothing_written()


def test_every_problem_is_reported_with_its_line(tmp_path):
    text = (
        "game 2020-01-01 10:00\n"  # 1
        "Anna 10\n"
        "Bo 20\n"
        "game 2020-13-01 10:00\n"  # 4: no month 13
        "Anna 1\n"
        "Bo 2\n"
        "game 2020-01-02 10:00\n"  # 7
        "anna 5\n"  # 8: Anna spelled differently
        "Bo 1\n"
        "game 2020-01-03 10:00\n" + "X" * 61 + " 4\n"  # 10  # 11: too long for the club
        "Bo 3\n"
    )
    path = write(tmp_path, text)

    with pytest.raises(CommandError) as refused:
        import_file(path, "broken")

    message = str(refused.value)
    assert "3 problems" in message
    assert "line 4: " in message and "not a real date" in message
    assert "line 8: 'anna' is 'Anna' (line 2) spelled differently" in message
    assert "line 11: the name XXXXXXXXXXXXXXXXXXXX… is 61 characters long" in message
    assert nothing_written()


def test_game_with_more_seats_than_the_club_allows_is_refused(tmp_path):
    players = "".join(f"P{n} {n}\n" for n in range(51))
    path = write(tmp_path, "game 2020-01-01 10:00\n" + players)

    with pytest.raises(
        CommandError, match="line 1: the game has 51 players; a game has at most 50"
    ):
        import_file(path, "big")

    assert nothing_written()


def test_file_without_games_is_refused(tmp_path):
    path = write(tmp_path, "# nothing yet\nscore_type lowscore\n")

    with pytest.raises(CommandError, match="the file has no games"):
        import_file(path, "empty")

    assert nothing_written()


def test_league_of_another_kind_is_refused(tmp_path, make_league):
    league = make_league(System.PREFKO, name="Preferans", slug="pref")
    path = write(tmp_path, WORKED_EXAMPLE.read_text(encoding="utf-8"))

    with pytest.raises(CommandError, match="is not a scored league"):
        import_file(path, "pref")

    assert not Game.objects.filter(league=league).exists()
    assert not Player.objects.exists()


def test_league_with_another_score_type_is_refused(tmp_path, make_league):
    make_league(System.RAYTER_LOWSCORE, name="Hearts", slug="hearts")
    path = write(tmp_path, WORKED_EXAMPLE.read_text(encoding="utf-8"))

    with pytest.raises(CommandError, match="score type is highscore .* but the league 'Hearts'"):
        import_file(path, "hearts")

    assert not Game.objects.exists()


def test_refusal_also_lists_the_files_own_problems(tmp_path, make_league):
    make_league(System.ELO, name="Chess", slug="chess")
    path = write(tmp_path, BROKEN_ON_LINE_7)

    with pytest.raises(CommandError) as refused:
        import_file(path, "chess")

    assert "2 problems" in str(refused.value)
    assert str(refused.value).index("not a scored league") < str(refused.value).index("line 7")


def test_bad_slug_for_a_new_league_is_refused(tmp_path):
    with pytest.raises(CommandError, match="is not a slug"):
        import_file(str(WORKED_EXAMPLE), "no spaces please")

    assert nothing_written()


def test_unreadable_file_is_refused(tmp_path):
    with pytest.raises(CommandError, match="Cannot read"):
        import_file(str(tmp_path / "missing.txt"), "x")


# Encodings and line ends ------------------------------------------------------------------------


def test_bom_crlf_and_non_ascii_names(tmp_path):
    text = (
        "score_type highscore\r\n"
        "game 2020-01-01 10:00\r\n"
        "Zoë 10\r\n"
        "李雷 20\r\n"
        "Ἀλέξανδρος 5\r\n"
        "\r\n"
        "game 2020-01-01 11:00\r\n"
        "李雷 3\r\n"
        "Zoë 7\r\n"
    )
    path = write(tmp_path, "\ufeff".encode() + text.encode("utf-8"))

    import_file(path, "unicode")

    rows = standings_rows("unicode")
    expected = rayter_reference.standings(rayter_format.parse(text))
    assert [(r["name"], r["games"], r["rating"]) for r in rows] == [
        (s.name, s.games, s.rating) for s in expected
    ]
    assert set(Player.objects.values_list("name", flat=True)) == {"Zoë", "李雷", "Ἀλέξανδρος"}


def test_invalid_utf8_is_refused_naming_the_line(tmp_path):
    data = b"game 2020-01-01 10:00\nAnna 1\nBj\xf6rn 2\n"

    with pytest.raises(CommandError, match=r"line 3: not UTF-8 text \(byte 0xF6"):
        import_file(write(tmp_path, data), "latin1")

    assert nothing_written()


def test_binary_file_is_refused(tmp_path):
    with pytest.raises(CommandError, match="binary file"):
        import_file(write(tmp_path, b"PK\x03\x04\x00\x00game"), "zip")

    assert nothing_written()


def test_file_from_stdin(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(WORKED_EXAMPLE.read_bytes())))

    out = import_file("-", "example")

    assert "Games imported: 2 of 2" in out


# Times ------------------------------------------------------------------------------------------


def test_times_are_in_the_clubs_time_zone(tmp_path, settings):
    settings.TIME_ZONE = "Europe/Belgrade"
    path = write(tmp_path, "game 2020-07-01 20:30\na 1\nb 2\ngame 2020-12-01 20:30\na 1\nb 2\n")

    import_file(path, "tz")

    times = list(Game.objects.chronological().values_list("played_at", flat=True))
    assert times == [
        datetime(2020, 7, 1, 18, 30, tzinfo=UTC),  # summer time, UTC+2
        datetime(2020, 12, 1, 19, 30, tzinfo=UTC),  # winter time, UTC+1
    ]
    assert "game 2020-07-01 20:30\n" in run_command("export_rayter", "tz")


def test_time_the_clocks_skipped_is_refused(tmp_path, settings):
    settings.TIME_ZONE = "Europe/Belgrade"
    path = write(tmp_path, "game 2021-03-28 01:59\na 1\nb 2\ngame 2021-03-28 02:30\na 1\nb 2\n")

    with pytest.raises(CommandError, match="line 4: 2021-03-28 02:30 does not exist"):
        import_file(path, "tz")

    assert nothing_written()


def test_a_day_partly_in_the_future_is_checked_time_by_time(monkeypatch):
    """Times are checked a day at a time, and one by one only on a day that is not all allowed."""
    from zoneinfo import ZoneInfo

    zone = ZoneInfo("Europe/Belgrade")
    latest = datetime(2030, 6, 1, 12, 0, tzinfo=zone)
    monkeypatch.setattr(rayter_files, "latest_allowed", lambda: latest)
    parsed = rayter_format.parse(
        "game 2030-05-31 23:59\na 1\nb 2\n"
        "game 2030-06-01 12:00\na 1\nb 2\n"
        "game 2030-06-01 12:01\na 1\nb 2\n"
        "game 2030-06-02 00:00\na 1\nb 2\n"
    )
    times, problems = rayter_files._aware_times(parsed.games, zone)
    assert [(problem.line, problem.message) for problem in problems] == [
        (7, "That date is in the future."),
        (10, "That date is in the future."),
    ]
    assert times == {
        "2030-05-31 23:59": datetime(2030, 5, 31, 23, 59, tzinfo=zone),
        "2030-06-01 12:00": latest,
    }


def test_games_in_the_same_minute_keep_file_order(tmp_path):
    text = "game 2020-01-01 10:00\na 1\nb 9\ngame 2020-01-01 10:00\na 9\nb 1\nc 4\n"
    path = write(tmp_path, text)

    import_file(path, "minute")

    expected = rayter_reference.standings(rayter_format.parse(text))
    assert [(r["name"], r["rating"], r["change"]) for r in standings_rows("minute")] == [
        (s.name, s.rating, s.change) for s in expected
    ]


# Re-imports -------------------------------------------------------------------------------------


def test_importing_twice_skips_every_game(tmp_path):
    path = write(tmp_path, WORKED_EXAMPLE.read_text(encoding="utf-8"))
    import_file(path, "example")
    league = League.objects.get(slug="example")
    before = club_state(league)

    out = import_file(path, "example")

    assert "Games imported: 0 of 2" in out
    assert (
        "Games skipped: 2\n  line 1: already in the league\n  line 7: already in the league" in out
    )
    assert "New players: 0" in out
    assert club_state(league) == before


def test_importing_more_games_adds_only_the_new_ones(tmp_path):
    text = WORKED_EXAMPLE.read_text(encoding="utf-8")
    import_file(write(tmp_path, text.split("\n\n")[0] + "\n", "first.txt"), "example")

    out = import_file(write(tmp_path, text, "both.txt"), "example")

    assert "Games imported: 1 of 2" in out
    assert "line 1: already in the league" in out
    assert [round(r["rating"]) for r in standings_rows("example")] == [1058, 1029, 962, 951]


def test_importing_twice_skips_every_game_with_non_ascii_capitals(tmp_path):
    path = write(tmp_path, "game 2020-01-01 10:00\nÅsa 10\nÖrjan 20\n")
    import_file(path, "nordic")

    out = import_file(path, "nordic")

    assert "Games imported: 0 of 1" in out
    assert Player.objects.count() == 2


def test_a_game_repeated_in_the_file_counts_twice_as_in_rayter_and_once_is_enough(tmp_path):
    """rayter rates both copies; importing the same file again still changes nothing."""
    text = "game 2020-01-01 10:00\na 1\nb 2\ngame 2020-01-01 10:00\nb 2\na 1\n"
    file = write(tmp_path, text)

    assert "Games imported: 2 of 2" in import_file(file, "twice")
    out = import_file(file, "twice")

    assert "Games imported: 0 of 2" in out
    assert "line 4: already in the league" in out
    assert Game.objects.filter(league__slug="twice").count() == 2


def test_replace_deletes_the_leagues_games_first(tmp_path):
    import_file(str(WORKED_EXAMPLE), "example")
    other = write(tmp_path, "game 2021-05-05 12:00\nJohn 1\nMaria 2\n")

    out = import_file(other, "example", replace=True)

    assert "Deleted first (--replace): 2 games" in out
    league = League.objects.get(slug="example")
    assert Game.objects.filter(league=league).count() == 1
    rows = standings_rows("example")
    assert [(r["name"], r["games"]) for r in rows] == [("Maria", 1), ("John", 1)]
    # Players of the deleted games stay in the club, without games in this league.
    assert Standing.objects.get(league=league, player__name="Dahlia").games == 0


def test_club_names_are_matched_whatever_the_case(tmp_path, make_player):
    make_player("Dahlia")
    path = write(tmp_path, WORKED_EXAMPLE.read_text(encoding="utf-8").replace("Dahlia", "DAHLIA"))

    out = import_file(path, "example")

    assert "New players: 3 (Ahmed, John, Lei)" in out
    assert "Dahlia" in [r["name"] for r in standings_rows("example")]


def test_dry_run_writes_nothing_and_shows_the_standings():
    done = rayter_files.import_rayter(
        data=WORKED_EXAMPLE.read_bytes(), league_slug="example", dry_run=True
    )

    assert done.summary.games == 2
    assert [(s.name, round(s.rating)) for s in done.standings] == [
        ("John", 1058),
        ("Dahlia", 1029),
        ("Ahmed", 962),
        ("Lei", 951),
    ]
    assert nothing_written()


# Standings formats ------------------------------------------------------------------------------


def test_standings_change_is_the_leagues_last_game_only(tmp_path):
    path = write(
        tmp_path,
        WORKED_EXAMPLE.read_text(encoding="utf-8") + "\ngame 2011-12-26 10:00\nJohn 1\nLei 2\n",
    )

    import_file(path, "example")

    changes = {r["name"]: r["change"] for r in standings_rows("example")}
    assert changes["Dahlia"] == changes["Ahmed"] == 0
    assert changes["John"] < 0 < changes["Lei"]


def test_standings_csv_neutralises_formulas(make_league, make_player, record_game):
    league = make_league(System.RAYTER_HIGHSCORE, slug="csv")
    names = ["=cmd", "-5", "+x", "@a", "ok"]
    record_game(league, [make_player(name) for name in names], scores=[1, 2, 3, 4, 5])

    rows = list(csv.reader(io.StringIO(run_command("standings", "csv", format="csv"))))

    assert [row[1] for row in rows] == ["name", "ok", "'@a", "'+x", "'-5", "'=cmd"]


def test_standings_of_an_unknown_league():
    with pytest.raises(CommandError, match="Unknown league: nope"):
        run_command("standings", "nope")


# Export -----------------------------------------------------------------------------------------


def test_export_writes_the_games_in_rating_order(make_league, make_player, record_game):
    league = make_league(System.RAYTER_LOWSCORE, name="Hearts", slug="hearts", game_name="Hearts")
    anna, bo, cy = make_player("Anna Maria"), make_player("Bo"), make_player("O'Brien")
    record_game(league, [anna, bo], scores=[10, 20.0], played_at=T0 + timedelta(hours=1))
    record_game(league, [cy, bo, anna], scores=[-3, 0, 5], played_at=T0)

    text = run_command("export_rayter", "hearts")

    assert text == (
        "score_type lowscore\n"
        "game_name Hearts\n"
        "\n"
        "game 2026-03-01 20:00\n"
        "O_Brien     -3\n"
        "Bo          0\n"
        "Anna_Maria  5\n"
        "\n"
        "game 2026-03-01 21:00\n"
        "Anna_Maria  10\n"
        "Bo          20\n"
    )


def test_export_to_a_file(tmp_path, make_league, make_player, record_game):
    league = make_league(System.RAYTER_HIGHSCORE, slug="s")
    record_game(league, [make_player("Zoë"), make_player("Bo")], scores=[1, 2])
    target = tmp_path / "out.txt"

    assert run_command("export_rayter", "s", output=str(target)) == ""

    assert target.read_bytes().decode("utf-8").startswith("score_type highscore\n\ngame ")


def test_export_refuses_scores_that_are_not_whole(make_league, make_player, record_game):
    league = make_league(System.RAYTER_HIGHSCORE, slug="s")
    # A score the engine now refuses, as a league entered before that rule may still hold.
    game = record_game(league, [make_player("Ann"), make_player("Bo")], scores=[1, 2])
    game.results.filter(seat=0).update(score=1.5)

    with pytest.raises(CommandError, match="Ann's score 1.5 is not a whole number"):
        run_command("export_rayter", "s")


def test_names_written_alike_get_a_suffix_and_come_back_to_their_players(
    client, make_league, make_player, record_game
):
    league = make_league(System.RAYTER_HIGHSCORE, slug="s")
    spaced, underscored, dotted = (
        make_player("Anna Maria"),
        make_player("Anna_Maria"),
        make_player("Anna.Maria"),
    )
    record_game(league, [spaced, underscored, dotted], scores=[1, 2, 3])

    text = run_command("export_rayter", "s")
    download = client.get(reverse("ratings:rayter_export", args=["s"]))
    done = rayter_files.import_rayter(data=text.encode(), league_slug="copy")

    assert download.status_code == 200  # it used to refuse the whole league
    assert download.content.decode() == text
    # The name that is already the word keeps it; the others, oldest first, get +2, +3.
    assert text.splitlines()[-3:] == ["Anna_Maria+2  1", "Anna_Maria    2", "Anna_Maria+3  3"]
    assert done.summary.new_players == []
    assert dict(
        Standing.objects.filter(league=done.league).values_list("player_id", "rating")
    ) == dict(Standing.objects.filter(league=league).values_list("player_id", "rating"))
    assert rayter_standings.export_rayter(done.league) == text


def test_a_players_rayter_word_stays_when_others_join():
    first = rayter_names.rayter_words([(1, "Anna Maria"), (2, "O'Brien"), (3, "Anna.Maria")])
    later = rayter_names.rayter_words(
        [(1, "Anna Maria"), (2, "O'Brien"), (3, "Anna.Maria"), (4, "Anna-Maria"), (5, "O Brien")]
    )

    assert first == {"Anna Maria": "Anna_Maria", "O'Brien": "O_Brien", "Anna.Maria": "Anna_Maria+2"}
    assert later == first | {"O Brien": "O_Brien+2", "Anna-Maria": "Anna-Maria"}
    # A suffix never takes a word another name has.
    assert rayter_names.rayter_words([(1, "a b"), (2, "a.b"), (3, "a_b+2")]) == {
        "a b": "a_b",
        "a.b": "a_b+3",
        "a_b+2": "a_b+2",
    }


def test_export_refuses_other_kinds_of_league(make_league):
    make_league(System.ELO, slug="chess")

    with pytest.raises(CommandError, match="not a scored league"):
        run_command("export_rayter", "chess")


def test_rayter_names():
    assert rayter_names.rayter_name("Anna  Maria") == "Anna_Maria"
    assert rayter_names.rayter_name("O'Brien Jr.") == "O_Brien_Jr_"
    assert rayter_names.rayter_name("Zoë+1") == "Zoë+1"
    assert rayter_names.rayter_name("game") == "game_"
    assert rayter_names.rayter_name("Jose\u0301") == "José"  # combining accent: composed first


# Round trip: any league, exported and imported into a new league, has the same standings ---------

NAMES = [
    "Ana",
    "bo",
    "Zoë",
    "Anna Maria",
    "O'Brien",
    "李雷",
    "x+y",
    "Cy-2",
    "Anna_Maria",
    "O.Brien",
]
SCORED = [System.RAYTER_HIGHSCORE, System.RAYTER_LOWSCORE, System.RAYTER_WINNER_TAKES_ALL]


@st.composite
def scored_leagues(draw):
    system = draw(st.sampled_from(SCORED))
    games, seen = [], set()
    for _ in range(draw(st.integers(1, 8))):
        seats = draw(st.permutations(range(len(NAMES))))[: draw(st.integers(2, 5))]
        scores = draw(st.lists(st.integers(-30, 150), min_size=len(seats), max_size=len(seats)))
        seconds = draw(st.integers(0, 40 * 60 - 1))  # several games may share a minute
        key = (seconds // 60, tuple(sorted(zip(seats, scores, strict=True))))
        if key in seen:
            # The same game twice in one minute is one game to an import: see the report.
            continue
        seen.add(key)
        games.append((seconds, seats, scores))
    return system, games


@hypothesis_settings(max_examples=min(30, hypothesis_settings().max_examples))
@given(case=scored_leagues())
def test_export_then_import_gives_the_same_standings(case):
    system, games = case
    with transaction.atomic():
        # Without thresholds, as a league made from a rayter file starts.
        league = League.objects.create(
            name="Original", slug="original", system=system, provisional_games=0
        )
        players = [Player.objects.create_named(name) for name in NAMES]
        # Recorded out of order on purpose: back-dated games make the engine replay.
        for seconds, seats, scores in games:
            engine.game_record(
                league=league,
                played_at=T0 + timedelta(seconds=seconds),
                entries=score_entries([players[seat] for seat in seats], scores),
            )

        text = rayter_standings.export_rayter(league)
        done = rayter_files.import_rayter(data=text.encode("utf-8"), league_slug="copy")

        assert done.league.system == system
        assert done.summary.games == len(games)
        assert done.summary.new_players == []
        assert league_standings_rows(done.league) == (league_standings_rows(league))
        assert rayter_standings.export_rayter(done.league) == text
        transaction.set_rollback(True)


def test_names_written_as_one_word_come_back_to_the_same_players(
    make_league, make_player, record_game
):
    league = make_league(System.RAYTER_HIGHSCORE, slug="original")
    anna, brien = make_player("Anna Maria"), make_player("O'Brien")
    record_game(league, [anna, brien], scores=[3, 1])
    text = rayter_standings.export_rayter(league)

    done = rayter_files.import_rayter(data=text.encode(), league_slug="copy")

    assert done.summary.new_players == []
    copy = Standing.objects.filter(league=done.league).values_list("player_id", flat=True)
    assert sorted(copy) == sorted([anna.pk, brien.pk])


def test_name_is_ignored_for_a_league_that_exists(tmp_path):
    import_file(str(WORKED_EXAMPLE), "example")

    out = import_file(str(WORKED_EXAMPLE), "example", name="Another name")

    assert "--name is ignored: the league 'example' already exists." in out
    assert League.objects.get(slug="example").name == "example"


def test_progress_is_reported_phase_by_phase():
    phases = []

    class Recorder(rayter_files.NoProgress):
        def __init__(self, *, total, desc, **options):
            phases.append([desc, total, 0])

        def update(self, n=1):
            phases[-1][2] += n

    rayter_files.import_rayter(
        data=WORKED_EXAMPLE.read_bytes(), league_slug="example", progress=Recorder
    )

    assert phases == [["Reading", 12, 12], ["Checking", 2, 2], ["Rating and saving", 2, 2]]


# Replacing a league's games keeps each of them restorable ---------------------------------------


def test_a_replace_leaves_a_deletion_entry_per_game_with_the_games_snapshot(
    hearts_league, importer
):
    engine.games_import(league=hearts_league, games=hearts_games(5))
    snapshots = {g.pk: engine.game_snapshot(g) for g in Game.objects.filter(league=hearts_league)}

    summary = engine.games_import(
        league=hearts_league,
        games=hearts_games(2, start=T0_2025 + timedelta(days=9)),
        replace=True,
        actor=importer,
    )

    assert summary.replaced == 5
    deletions = AuditEntry.objects.filter(action="delete", league=hearts_league)
    assert {entry.game_id: entry.before for entry in deletions} == snapshots
    assert {entry.user for entry in deletions} == {importer}
    assert Game.objects.filter(league=hearts_league).count() == 2


def test_the_replaced_games_come_back_with_restore_deleted_game(hearts_league, admin_client):
    engine.games_import(league=hearts_league, games=hearts_games(4))
    before = ratings_of(hearts_league)
    later = hearts_games(3, start=T0_2025 + timedelta(days=9), names=("Ana", "Ema", "Fica"))
    engine.games_import(league=hearts_league, games=later, replace=True)
    deletions = AuditEntry.objects.filter(action="delete", league=hearts_league)

    response = admin_client.post(
        reverse("admin:ratings_auditentry_changelist"),
        {"action": "restore_deleted_games", "_selected_action": [e.pk for e in deletions]},
        follow=True,
    )

    assert response.status_code == 200
    assert Game.objects.filter(league=hearts_league).count() == 4 + 3
    # The four earlier games are back under their old ids and rated as they were; the three
    # the replace imported follow them.
    old_ids = {row[0] for row in before[0]}
    results, _standings = ratings_of(hearts_league)
    assert [row for row in results if row[0] in old_ids] == before[0]
    engine.league_recompute(league=hearts_league)
    assert ratings_of(hearts_league)[0] == results


def test_a_replace_takes_the_same_queries_for_a_few_or_many_games(make_league):
    """A replace must not read or write per deleted game: 100,000 games would take minutes."""
    queries = []
    for count in (200, 400):
        league = make_league(System.RAYTER_LOWSCORE)
        engine.games_import(league=league, games=hearts_games(count))
        with CaptureQueriesContext(connection) as captured:
            engine.games_import(
                league=league,
                games=hearts_games(1, start=T0_2025 + timedelta(days=99)),
                replace=True,
            )
        assert AuditEntry.objects.filter(league=league, action="delete").count() == count
        queries.append(len(captured))

    assert queries[0] == queries[1]


def test_import_rayter_replace_on_the_command_line_is_restorable(hearts_league, tmp_path):
    engine.games_import(league=hearts_league, games=hearts_games(3))
    snapshots = {g.pk: engine.game_snapshot(g) for g in Game.objects.filter(league=hearts_league)}
    path = tmp_path / "hearts.txt"
    path.write_bytes(HEARTS_FILE)
    out = StringIO()

    call_command("import_rayter", str(path), "--league", "hearts", "--replace", stdout=out)

    assert "Deleted first (--replace): 3 games, each restorable from the audit trail" in (
        out.getvalue()
    )
    deletions = AuditEntry.objects.filter(action="delete", league=hearts_league)
    assert {entry.game_id: entry.before for entry in deletions} == snapshots
    assert {entry.user for entry in deletions} == {None}


# Years the calendar cannot hold, refused on their lines ------------------------------------------


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


def test_a_game_from_the_first_minute_of_1900_in_belgrade_is_imported_and_shown(
    settings, hearts_league, client
):
    """1900-01-01 00:00 in Belgrade is 1899 in UTC: the rule reads the club's own calendar."""
    settings.TIME_ZONE = "Europe/Belgrade"
    data = b"score_type lowscore\ngame 1900-01-01 00:00\nAna 1\nEma 2\n"

    done = rayter_files.import_rayter(data=data, league_slug=hearts_league.slug)

    assert done.summary.games == 1
    game = Game.objects.get()
    assert timezone.localtime(game.played_at).year == 1900
    pages = [
        reverse("ratings:player", args=[Player.objects.get(name="Ana").slug]),
        reverse("ratings:leaderboard", args=[hearts_league.slug]),
        reverse("ratings:league_games", args=[hearts_league.slug]),
        reverse("ratings:game", args=[game.pk]),
        reverse("ratings:rayter_export", args=[hearts_league.slug]),
    ]
    assert [client.get(page).status_code for page in pages] == [200] * len(pages)


# Formula names in the standings command ----------------------------------------------------------


def test_formula_names_are_neutralised_in_the_standings_command(
    make_league, make_player, record_game
):
    league = make_league(System.RAYTER_HIGHSCORE, name="Rummy", slug="rummy")
    players = [make_player(name) for name in FORMULAS]
    record_game(league, players, scores=[4, 3, 2, 1])
    out = io.StringIO()

    call_command("standings", league.slug, "--format", "csv", stdout=out)

    names = [row["name"] for row in csv.DictReader(io.StringIO(out.getvalue()))]
    assert sorted(names) == sorted("'" + name for name in FORMULAS)


# Hostile files on the command line ---------------------------------------------------------------


RAYTER_COMMAND_CASES = [
    ("binary", b"\x00\x01\x02\xff" * 100),
    ("not UTF-8", b"game 2026-01-01 20:00\nAnn\xe9 10\nBojan 3\n"),
    ("not rayter", b"<html><body>hello</body></html>\n"),
    ("a huge score", b"game 2026-01-01 20:00\nAnna " + b"9" * 40 + b"\nBojan 3\n"),
    ("a negative time", b"game -2026-01-01 20:00\nAnna 1\nBojan 3\n"),
    ("a player twice", b"game 2026-01-01 20:00\nAnna 10\nAnna 3\n"),
]


@pytest.mark.parametrize(
    ("case", "data"), RAYTER_COMMAND_CASES, ids=[c[0] for c in RAYTER_COMMAND_CASES]
)
def test_import_rayter_refuses_hostile_files(tmp_path, hearts_league, case, data):
    before = table_counts()

    with pytest.raises(CommandError, match="nothing was written"):
        call_command(
            "import_rayter",
            write_file(tmp_path, "f.txt", data),
            "--league",
            hearts_league.slug,
            "--no-progress",
            stdout=io.StringIO(),
        )

    assert table_counts() == before


def test_import_rayter_refuses_a_missing_file(tmp_path, hearts_league):
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_rayter", str(tmp_path / "nope.txt"), "--league", hearts_league.slug)
