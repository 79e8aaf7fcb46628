"""The statistics against a brute-force computation in Python over a random club.

Hypothesis draws a club: six players and random games in four leagues (Preferans with small
papers, so final scores tie now and then; a lowscore and a highscore scored game with scores from
0 to 4; classic Elo with wins, draws and losses), played on random days in any order. The games go
through the engine; then every statistic of :mod:`ratings.selectors.statistics` and every season
table is worked out again here, game by game, from the stored results, and compared.

Which way a score and a rating are better is written out below rather than read from
``ratings.systems``, so a wrong direction there fails here.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings import engine, selectors
from ratings.models import Game, League, Player, Result, System
from ratings.selectors import statistics
from ratings.systems import rating_system
from tests.builders import T0

pytestmark = pytest.mark.django_db

PLAYERS = 6
NOW = T0 + timedelta(days=60)
# For each league of the club: is a lower game score better, is a lower rating better.
LEAGUES = {
    System.PREFKO: (True, True),
    System.RAYTER_LOWSCORE: (True, False),
    System.RAYTER_HIGHSCORE: (False, False),
    System.ELO: (False, False),
}


@st.composite
def game(draw):
    system = draw(st.sampled_from(list(LEAGUES)))
    day = draw(st.integers(0, 90))
    hour = draw(st.integers(0, 2))
    if system == System.PREFKO:
        seats = draw(st.permutations(range(PLAYERS)))[:3]
        a, b = draw(st.integers(-3, 3)), draw(st.integers(-3, 3))
        sides = st.sampled_from([0, 10, 20])
        papers = [(draw(sides), middle, draw(sides)) for middle in (a, b, -a - b)]
        return system, seats, day, hour, {"papers": papers}
    if system == System.ELO:
        seats = draw(st.permutations(range(PLAYERS)))[:2]
        scores = draw(st.sampled_from([(1.0, 0.0), (0.0, 1.0), (0.5, 0.5)]))
        return system, seats, day, hour, {"scores": scores}
    size = draw(st.integers(2, 4))
    seats = draw(st.permutations(range(PLAYERS)))[:size]
    scores = draw(st.lists(st.integers(0, 4), min_size=size, max_size=size))
    return system, seats, day, hour, {"scores": scores}


def club_of(games) -> tuple[dict[str, League], list[Player]]:
    """The club in the test's transaction: each example makes leagues and players of its own."""
    number = League.objects.count()
    leagues = {
        system: League.objects.create(
            name=f"C{number} {system}", slug=f"c{number}-{n}", system=system
        )
        for n, system in enumerate(LEAGUES)
    }
    players = [Player.objects.create_named(f"C{number} P{n}") for n in range(PLAYERS)]
    for system, seats, day, hour, entry in games:
        seated = [players[i] for i in seats]
        if "papers" in entry:
            entries = [
                engine.Entry(player_id=p.pk, paper=paper)
                for p, paper in zip(seated, entry["papers"], strict=True)
            ]
            bula = 30
        else:
            entries = [
                engine.Entry(player_id=p.pk, score=score)
                for p, score in zip(seated, entry["scores"], strict=True)
            ]
            bula = None
        engine.game_record(
            league=leagues[system],
            played_at=T0 + timedelta(days=day, hours=hour),
            entries=entries,
            bula=bula,
        )
    return leagues, players


# The brute force ------------------------------------------------------------------------------


@dataclass
class Seat:
    league_id: int
    game_id: int
    played_at: object
    player_id: int
    score: float
    before: float
    after: float
    place: int = 0
    shared: bool = False

    @property
    def change(self) -> float:
        return self.after - self.before


def seats_of(leagues: dict[str, League]) -> tuple[list[Seat], dict[int, tuple[bool, bool]]]:
    """Every seat of the club's games in rating order, each with its place worked out here."""
    direction = {league.pk: LEAGUES[system] for system, league in leagues.items()}
    rows = (
        Result.objects.filter(game__league__in=leagues.values())
        .order_by("game__played_at", "game_id", "seat")
        .values_list(
            "game__league_id",
            "game_id",
            "game__played_at",
            "player_id",
            "score",
            "rating_before",
            "rating_after",
        )  # fmt: skip
    )
    seats = [Seat(*row) for row in rows]
    by_game = defaultdict(list)
    for seat in seats:
        by_game[seat.game_id].append(seat)
    for table in by_game.values():
        for seat in table:
            key = score_key(seat, direction)
            seat.place = 1 + sum(score_key(other, direction) < key for other in table)
            seat.shared = sum(other.score == seat.score for other in table) > 1
    return seats, direction


def score_key(seat: Seat, direction) -> float:
    return seat.score if direction[seat.league_id][0] else -seat.score


def rating_key(value: float, seat: Seat, direction) -> float:
    return value if direction[seat.league_id][1] else -value


def expected_statistics(seats, direction, player_id) -> dict:
    mine = defaultdict(list)
    for seat in seats:
        if seat.player_id == player_id:
            mine[seat.league_id].append(seat)
    expected = {}
    for league_id, games in mine.items():
        longest = run = 0
        for seat in games:
            run = run + 1 if seat.place == 1 else 0
            longest = max(longest, run)

        def moment(seat, value):
            return (seat.game_id, seat.played_at, value)

        def when(s):
            return (s.played_at, s.game_id)

        best_rating = min(games, key=lambda s: (rating_key(s.after, s, direction), *when(s)))
        worst_rating = min(games, key=lambda s: (-rating_key(s.after, s, direction), *when(s)))
        best_game = min(
            games,
            key=lambda s: (score_key(s, direction), rating_key(s.change, s, direction), *when(s)),
        )
        worst_game = min(
            games,
            key=lambda s: (-score_key(s, direction), -rating_key(s.change, s, direction), *when(s)),
        )
        expected[league_id] = {
            "games": len(games),
            "first_places": sum(s.place == 1 for s in games),
            "shared_first_places": sum(s.place == 1 and s.shared for s in games),
            "average_place": pytest.approx(sum(s.place for s in games) / len(games)),
            "average_score": pytest.approx(sum(s.score for s in games) / len(games)),
            "recent_games": sum(s.played_at >= NOW - timedelta(days=30) for s in games),
            "best_rating": moment(best_rating, best_rating.after),
            "worst_rating": moment(worst_rating, worst_rating.after),
            "best_game": moment(best_game, best_game.score),
            "worst_game": moment(worst_game, worst_game.score),
            "current_streak": run,
            "longest_streak": longest,
        }
    return expected


def actual_statistics(player) -> dict:
    found = {}
    for league_id, stats in statistics.player_statistics(player, now=NOW).items():
        found[league_id] = {
            name: getattr(stats, name)
            for name in (
                "games",
                "first_places",
                "shared_first_places",
                "average_place",
                "average_score",
                "recent_games",
                "current_streak",
                "longest_streak",
            )  # fmt: skip
        }
        for name in ("best_rating", "worst_rating", "best_game", "worst_game"):
            moment = getattr(stats, name)
            found[league_id][name] = (moment.game_id, moment.played_at, moment.value)
    return found


def seat_pairs(seats) -> dict[tuple[int, int, int], list[tuple[Seat, Seat]]]:
    """(league, a, b) -> [(a's seat, b's seat)] for every game a and b played together."""
    by_game = defaultdict(list)
    for seat in seats:
        by_game[seat.game_id].append(seat)
    together = defaultdict(list)
    for table in by_game.values():
        for a in table:
            for b in table:
                if a is not b:
                    together[a.league_id, a.player_id, b.player_id].append((a, b))
    return together


def expected_opponents(together, names, player_id) -> dict:
    found = defaultdict(list)
    for (league_id, a, b), games in together.items():
        if a == player_id:
            found[league_id].append(
                (
                    b,
                    len(games),
                    sum(x.place < y.place for x, y in games),
                    sum(x.place == y.place for x, y in games),
                    sum(x.place > y.place for x, y in games),
                )
            )
    return {
        league_id: sorted(rows, key=lambda r: (-r[1], names[r[0]], r[0]))[: statistics.MOST_MET]
        for league_id, rows in found.items()
    }


def expected_companions(seats, names, a, b) -> dict:
    by_game = defaultdict(list)
    for seat in seats:
        by_game[seat.game_id].append(seat)
    counts = defaultdict(lambda: defaultdict(int))
    for table in by_game.values():
        players = {seat.player_id for seat in table}
        if {a, b} <= players:
            for other in players - {a, b}:
                counts[table[0].league_id][other] += 1
    return {
        league_id: sorted(c.items(), key=lambda item: (-item[1], names[item[0]], item[0]))[
            : statistics.MOST_MET
        ]
        for league_id, c in counts.items()
        if c
    }


def expected_season(
    seats, direction, league_id, start, end, by, min_games, provisional_until=0
) -> list[tuple]:
    players, career = defaultdict(list), defaultdict(int)
    for seat in seats:
        if seat.league_id == league_id and start <= seat.played_at < end:
            players[seat.player_id].append(seat)
        if seat.league_id == league_id and seat.played_at < end:
            career[seat.player_id] += 1
    rows = []
    for player_id, games in players.items():
        if len(games) < min_games:
            continue
        rating, change = games[-1].after, games[-1].after - games[0].before
        rows.append(
            {
                "player_id": player_id,
                "games": len(games),
                "rating": rating,
                "change": change,
                "average_score": pytest.approx(sum(s.score for s in games) / len(games)),
                "first_places": sum(s.place == 1 for s in games),
                "shared_first_places": sum(s.place == 1 and s.shared for s in games),
                "key": rating_key(rating if by == "rating" else change, games[0], direction),
                # The provisional rule: the league's games up to the period's end.
                "status": int(career[player_id] < provisional_until),
            }
        )
    for row in rows:
        row["rank"] = 1 + sum(
            other["key"] < row["key"] for other in rows if other["status"] == row["status"]
        )
    return sorted(rows, key=lambda row: (row["status"], row["rank"], row["player_id"]))


# The test -------------------------------------------------------------------------------------


@given(
    games=st.lists(game(), max_size=30),
    period=st.tuples(st.integers(0, 90), st.integers(1, 40)),
    by=st.sampled_from(["rating", "change"]),
    min_games=st.integers(0, 3),
)
def test_every_statistic_equals_a_brute_force_count(games, period, by, min_games):
    leagues, players = club_of(games)
    seats, direction = seats_of(leagues)
    names = {player.pk: player.name for player in players}
    together = seat_pairs(seats)

    for player in players:
        assert actual_statistics(player) == expected_statistics(seats, direction, player.pk)
        opponents = {
            league_id: [(r.player_id, r.games, r.ahead, r.level, r.behind) for r in rows]
            for league_id, rows in statistics.player_opponents(player).items()
        }
        assert opponents == expected_opponents(together, names, player.pk)

    for a in players:
        for b in players:
            if a == b:
                continue
            records = statistics.head_to_head(a, b)
            games_together = statistics.head_to_head_games(a, b)
            expected = {}
            for (league_id, x, y), shared in together.items():
                if (x, y) != (a.pk, b.pk):
                    continue
                expected[league_id] = statistics.PairRecord(
                    league_id=league_id,
                    games=len(shared),
                    a_ahead=sum(p.place < q.place for p, q in shared),
                    b_ahead=sum(p.place > q.place for p, q in shared),
                    level=sum(p.place == q.place for p, q in shared),
                    a_score_sum=sum(p.score for p, _q in shared),
                    b_score_sum=sum(q.score for _p, q in shared),
                )
                newest_first = sorted(shared, key=lambda pq: (pq[0].played_at, pq[0].game_id))
                assert [
                    (g.game_id, g.a_score, g.a_change, g.b_score, g.b_change)
                    for g in games_together[league_id]
                ] == [
                    (p.game_id, p.score, p.change, q.score, q.change)
                    for p, q in reversed(newest_first)
                ]
            assert records == expected
            assert set(games_together) == set(expected)
            companions = {
                league_id: [(c.player_id, c.games) for c in rows]
                for league_id, rows in statistics.head_to_head_companions(a, b).items()
            }
            assert companions == expected_companions(seats, names, a.pk, b.pk)

    start_day, length = period
    start, end = T0 + timedelta(days=start_day), T0 + timedelta(days=start_day + length)
    for system, league in leagues.items():
        season = selectors.season_standings(league, start, end, by=by, min_games=min_games)
        expected = expected_season(
            seats, direction, league.pk, start, end, by, max(min_games, 1), league.provisional_until
        )
        assert sorted(
            (
                {
                    "player_id": row.player_id,
                    "games": row.games,
                    "rating": row.rating,
                    "change": row.change,
                    "average_score": row.average_score,
                    "first_places": row.first_places,
                    "shared_first_places": row.shared_first_places,
                    "rank": row.rank,
                    "status": row.status,
                }
                for row in season
            ),
            key=lambda row: (row["status"], row["rank"], row["player_id"]),
        ) == [{k: v for k, v in row.items() if k != "key"} for row in expected], system
        order = [(row.status, row.rank) for row in season]
        assert order == sorted(order)


@pytest.mark.parametrize(
    ("system", "lower_score_wins", "reads_as_wins"),
    [
        (System.PREFKO, True, False),
        (System.RAYTER_LOWSCORE, True, False),
        (System.RAYTER_HIGHSCORE, False, False),
        (System.RAYTER_WINNER_TAKES_ALL, False, False),
        (System.ELO, False, True),
        (System.FIDE, False, True),
    ],
)
def test_each_system_says_which_score_wins(system, lower_score_wins, reads_as_wins):
    assert rating_system(system).lower_score_is_better is lower_score_wins
    assert rating_system(system).wins_draws_losses is reads_as_wins


def test_open_periods_take_everything_before_or_after(make_league, make_player, record_game):
    league = make_league(System.RAYTER_HIGHSCORE)
    ana, bojan = make_player("Ana"), make_player("Bojan")
    for day, scores in ((0, [3, 1]), (10, [0, 2]), (20, [5, 5])):
        record_game(league, [ana, bojan], scores=scores, played_at=T0 + timedelta(days=day))
    middle = T0 + timedelta(days=10)

    before = selectors.season_standings(league, None, middle)
    after = selectors.season_standings(league, middle, None)
    everything = selectors.season_standings(league, None, None)

    assert [(row.name, row.games, row.first_places) for row in before] == [
        ("Ana", 1, 1),
        ("Bojan", 1, 0),
    ]
    assert sorted((row.name, row.games, row.first_places) for row in after) == [
        ("Ana", 2, 1),
        ("Bojan", 2, 2),
    ]
    assert sum(row.games for row in everything) == 6


def test_histories_read_every_game_as_the_orm_does(make_league, make_player, record_game):
    """The player page's history, head to head's rating lines and games: read in SQL (times as
    text on SQLite), they give what the ORM reads, times to the microsecond and aware."""
    scored, elo = make_league(System.RAYTER_HIGHSCORE), make_league(System.ELO)
    ana, bojan, cveta = make_player("Ana"), make_player("Bojan"), make_player("Cveta")
    for n, (league, players, scores) in enumerate(
        [
            (scored, [ana, bojan, cveta], [3, 1, 2]),
            (elo, [bojan, ana], [1, 0]),
            (scored, [cveta, ana], [0, 4]),
            (scored, [ana, bojan], [2, 2]),
        ]
    ):
        when = T0 + timedelta(days=n, microseconds=123_457 * (n + 1))
        record_game(league, players, scores=scores, played_at=when)

    def orm(player, league_ids):
        rows = (
            Result.objects.filter(player=player, game__league_id__in=league_ids)
            .order_by("game__played_at", "game_id")
            .values_list(
                "game__league_id", "game_id", "game__played_at", "score", "rating_before",
                "rating_after",
            )
        )  # fmt: skip
        by_league = defaultdict(list)
        for row in rows:
            by_league[row[0]].append(row)
        return by_league

    leagues = [scored.pk, elo.pk]
    for player in (ana, bojan, cveta):
        expected = orm(player, leagues)
        history = selectors.player_history(player)
        assert {
            league_id: [
                (r.league_id, r.game_id, r.played_at, r.score, r.rating_before, r.rating_after)
                for r in rows
            ]
            for league_id, rows in history.items()
        } == expected
        assert all(r.played_at.utcoffset() is not None for rows in history.values() for r in rows)
        lines = selectors.rating_histories([player, ana], leagues)
        assert {
            league_id: [(league_id, p.game_id, p.played_at, p.rating_before, p.rating_after)
                        for p in points]
            for (league_id, player_id), points in lines.items() if player_id == player.pk
        } == {
            league_id: [(row[0], row[1], row[2], row[4], row[5]) for row in rows]
            for league_id, rows in expected.items()
        }  # fmt: skip
    together = statistics.head_to_head_games(ana, bojan)
    shared = Game.objects.filter(results__player=ana).filter(results__player=bojan)
    assert {
        league_id: [(g.game_id, g.played_at) for g in games]
        for league_id, games in together.items()
    } == {
        league.pk: [
            (game.pk, game.played_at)
            for game in shared.filter(league=league).order_by("-played_at", "-pk")
        ]
        for league in (scored, elo)
    }


def test_rating_lines_come_in_order_whatever_order_the_database_gives(
    make_league, make_player, record_game, monkeypatch
):
    """SQL keeps no order of a UNION's parts: rows given back to front still make each
    player's line oldest first, and each line's rows, columns and slices agree; a chart's read
    leaves the places out."""
    from ratings.selectors import players as reads

    league, other = make_league(System.ELO), make_league(System.ELO)
    ana, bojan = make_player("Ana"), make_player("Bojan")
    for n in range(5):
        record_game(league, [ana, bojan], scores=[n % 2, 1 - n % 2], played_at=T0 + timedelta(n))
    record_game(other, [bojan, ana], scores=[1, 0], played_at=T0)
    in_order = selectors.rating_histories([ana, bojan], [league.pk, other.pk])
    given = reads.sql.sql_rows
    monkeypatch.setattr(reads.sql, "sql_rows", lambda *args: given(*args)[::-1])
    reversed_rows = selectors.rating_histories([ana, bojan], [league.pk, other.pk])
    assert (
        list(reversed_rows)
        == list(in_order)
        == [
            (league.pk, ana.pk),
            (other.pk, ana.pk),
            (league.pk, bojan.pk),
            (other.pk, bojan.pk),
        ]
    )
    for key, line in in_order.items():
        rows = list(line)
        assert list(reversed_rows[key]) == rows
        assert [row.at for row in rows] == sorted(row.at for row in rows)
        assert [line[i] for i in range(-len(line), len(line))] == rows + rows
        assert line[1:3] == rows[1:3]
        newest = line.newest_first()
        assert list(newest) == rows[::-1]
        assert [newest[i] for i in range(-len(line), len(line))] == rows[::-1] * 2
        assert newest[1:3] == rows[::-1][1:3]
        with pytest.raises(IndexError):
            newest[len(line)]
        assert list(line.times) == [row.at for row in rows]
        assert list(line.ratings_after) == [row.rating_after for row in rows]
    # Without places (a chart's read): the same games, no place looked up.
    lines = selectors.rating_histories([ana, bojan], [league.pk, other.pk], places=False)

    def games(read):
        return {
            key: [(r.game_id, r.at, r.rating_after) for r in rows] for key, rows in read.items()
        }

    assert games(lines) == games(in_order)
    assert {r.place for line in lines.values() for r in line} == {None}
    assert {r.place for line in in_order.values() for r in line} == {1, 2}


def test_a_players_reads_never_read_the_games(make_league, make_player, record_game):
    """History, statistics, opponents and head to head read the players' own results (their
    league, time and place are copies on each): their cost follows the players' games, not the
    club's, however many games the club has."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    scored = make_league(System.RAYTER_HIGHSCORE)
    ana, bojan, cveta = make_player("Ana"), make_player("Bojan"), make_player("Cveta")
    record_game(scored, [ana, bojan, cveta], scores=[3, 1, 3])
    record_game(scored, [bojan, ana], scores=[2, 2])
    game_table = Game._meta.db_table
    with CaptureQueriesContext(connection) as queries:
        assert selectors.player_history(ana)[scored.pk]
        assert selectors.player_history_and_corrections(ana)[0][scored.pk]
        assert selectors.rating_histories([ana, bojan], [scored.pk])
        assert statistics.player_statistics(ana)[scored.pk].shared_first_places == 2
        assert statistics.player_opponents(ana)[scored.pk]
        assert statistics.head_to_head(ana, bojan)[scored.pk].level == 1
        assert len(statistics.head_to_head_games(ana, bojan)[scored.pk]) == 2
        assert statistics.head_to_head_companions(ana, bojan)[scored.pk][0].player_id == cveta.pk
    # One each; the statistics three: the history, its leagues' systems, the shared first
    # places (from the season standings).
    assert len(queries) == 10
    assert not [query["sql"] for query in queries if game_table in query["sql"]]
