"""The two ways the tests check a league's stored ratings against a replay from scratch.

- :func:`assert_equals_independent_replay` replays the league with the algorithms alone, without
  the engine, and compares every stored rating and standing with that: it proves the engine.
- :func:`assert_unchanged_by_recompute` asks the engine to replay the league
  (``engine.league_recompute``) and checks that nothing stored changed: after concurrent writers
  it proves that none of them left the league in a state a replay would not reach.

Both also check the league's season standings (:func:`assert_seasons_match_results`): every
season's table read from them equals the one read from the results; and its opponents' tallies
(:func:`assert_opponents_match_results`): every pair's row equals a count of its games.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict

from django.utils import timezone

from ratings import engine
from ratings.algorithms import elo, preferans, rayter
from ratings.dates import season_of, season_start
from ratings.models import (
    Game,
    League,
    OpponentTally,
    Player,
    Result,
    SeasonStanding,
    Standing,
    System,
)
from ratings.selectors import SeasonOrder, season_standings
from ratings.selectors.seasons import period_standings
from ratings.systems import age_on


def openskill_replay(league, results, scores, skills, own) -> list[float]:
    """One OpenSkill game by the openskill package itself: each player's ordinal after it, their
    (mu, sigma) kept in ``skills``; a start rating moves the mean from the package's 25."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    keys = [s if league.rating_system.lower_score_is_better else -s for s in scores]
    ranks = [float(1 + sum(other < key for other in keys)) for key in keys]
    teams = []
    for r in results:
        start = own.get(r.player_id, league.start_rating)
        mu, sigma = skills.get(r.player_id, (model.mu + start, model.sigma))
        teams.append([model.rating(mu=mu, sigma=sigma)])
    after = []
    for r, (new,) in zip(results, model.rate(teams, ranks=ranks), strict=True):
        skills[r.player_id] = (new.mu, new.sigma)
        after.append(new.ordinal())
    return after


def independent_replay(league: League):
    """Replay the league from scratch with the algorithms alone.

    Returns each result's (rating before, rating after) by result id, and each player's rating
    and number of games by player id.
    """
    league.refresh_from_db()
    own = dict(
        Standing.objects.filter(league=league, start_rating__isnull=False).values_list(
            "player_id", "start_rating"
        )
    )
    rating, games, peak, expected = {}, {}, {}, {}
    skills = {}  # OpenSkill's (mu, sigma), by player
    births = dict(Player.objects.values_list("pk", "birth_date"))
    for game in Game.objects.filter(league=league).chronological().prefetch_related("results"):
        results = sorted(game.results.all(), key=lambda r: r.seat)
        for r in results:
            start = own.get(r.player_id, league.start_rating)
            rating.setdefault(r.player_id, start)
            games.setdefault(r.player_id, 0)
            peak.setdefault(r.player_id, start)
        before = [rating[r.player_id] for r in results]
        scores = [r.score for r in results]
        if league.system == System.PREFKO:
            changes = preferans.rating_changes(
                [int(b) for b in before], [int(s) for s in scores], game.bula
            )
            after = [b + c for b, c in zip(before, changes, strict=True)]
        elif league.system == System.ELO:
            after = list(
                elo.classic(before[0], before[1], scores[0], k=league.system_settings["elo_k"])
            )
        elif league.system == System.FIDE:
            day = timezone.localdate(game.played_at)  # the club's calendar
            ages = [age_on(births[r.player_id], day) for r in results]
            after = list(
                elo.fide(
                    int(before[0]),
                    int(before[1]),
                    scores[0],
                    games_a=games[results[0].player_id],
                    games_b=games[results[1].player_id],
                    age_a=ages[0],
                    age_b=ages[1],
                    ever_2400_a=peak[results[0].player_id] >= 2400,
                    ever_2400_b=peak[results[1].player_id] >= 2400,
                    blitz=league.system_settings["speed"] == "blitz",
                    rapid=league.system_settings["speed"] == "rapid",
                )
            )
        elif league.rating_system.keeps_state:
            after = openskill_replay(league, results, scores, skills, own)
        else:
            changes = rayter.rate_single_game(
                scores, before, score_type=league.rating_system.rayter_score_type
            )
            after = [b + c for b, c in zip(before, changes, strict=True)]
        for r, b, a in zip(results, before, after, strict=True):
            expected[r.pk] = (b, a)
            rating[r.player_id] = a
            games[r.player_id] += 1
            peak[r.player_id] = max(peak[r.player_id], a)
    return expected, rating, games


def assert_equals_independent_replay(league: League) -> None:
    """Every stored rating and standing of ``league`` equals a replay by the algorithms alone."""
    expected, rating, games = independent_replay(league)
    stored = {
        pk: (before, after)
        for pk, before, after in Result.objects.filter(game__league=league).values_list(
            "pk", "rating_before", "rating_after"
        )
    }
    assert stored == expected
    standings = {s.player_id: s for s in Standing.objects.filter(league=league)}
    for pid, value in rating.items():
        assert standings[pid].rating == value
        assert standings[pid].games == games[pid]
    for pid, standing in standings.items():
        if pid not in rating:
            assert standing.games == 0
            assert standing.rating == standing.initial_rating(league)
    assert_seasons_match_results(league)
    assert_opponents_match_results(league)


def assert_opponents_match_results(league: League) -> None:
    """The opponents' tallies the engine keeps for ``league`` (ratings/engine/opponents.py) equal
    a count of its games' seats in Python: a row per pair of players who sat at one table, the
    smaller id first, and none for any other pair."""
    seats = defaultdict(list)
    for game_id, player_id, place in Result.objects.filter(league=league).values_list(
        "game_id", "player_id", "place"
    ):
        seats[game_id].append((player_id, place))
    expected = Counter()
    for table in seats.values():
        for player, place in table:
            for opponent, other in table:
                if opponent > player:
                    expected[player, opponent, "games"] += 1
                    side = "ahead" if place < other else "level" if place == other else "behind"
                    expected[player, opponent, side] += 1
    kept = {
        (player, opponent): (games, ahead, level, behind)
        for player, opponent, games, ahead, level, behind in OpponentTally.objects.filter(
            league=league
        ).values_list("player_id", "opponent_id", "games", "ahead", "level", "behind")
    }
    pairs = {(player, opponent) for player, opponent, _side in expected}
    assert kept == {
        pair: tuple(expected[(*pair, side)] for side in ("games", "ahead", "level", "behind"))
        for pair in pairs
    }


def assert_seasons_match_results(league: League) -> None:
    """Every season's table of ``league``, read from the season standings the engine keeps,
    equals the table read from its results (the same rows, ranks and order, by rating and by
    change, with and without a minimum of games), and no season without games has rows."""
    years = {season_of(at) for (at,) in Game.objects.filter(league=league).values_list("played_at")}
    kept = set(SeasonStanding.objects.filter(league=league).values_list("year", flat=True))
    assert kept == years
    for year in sorted(years):
        start, end = season_start(year), season_start(year + 1)
        for by, min_games in (
            (SeasonOrder.RATING, None),
            (SeasonOrder.CHANGE, None),
            (SeasonOrder.RATING, 2),
        ):
            summary = season_standings(league, start, end, by=by, min_games=min_games)
            results = period_standings(league, start, end, by=by, min_games=min_games)
            assert_same_season_rows(summary, results)


def assert_same_season_rows(summary: list, results: list) -> None:
    """Season rows equal, but for the average score's last bits: a sum of fractions kept a game at
    a time and one summed by the database may round apart (the page shows two decimals)."""
    assert [_without_average(row) for row in summary] == [_without_average(row) for row in results]
    for kept, counted in zip(summary, results, strict=True):
        assert math.isclose(kept.average_score, counted.average_score, rel_tol=1e-12, abs_tol=1e-9)


def _without_average(row) -> tuple:
    return (
        row.rank,
        row.player_id,
        row.name,
        row.slug,
        row.games,
        row.rating,
        row.change,
        row.first_places,
        row.shared_first_places,
        row.status,
    )


def assert_unchanged_by_recompute(league: League) -> None:
    """The engine's own replay of ``league`` changes no stored rating, standing or game count."""

    def stored() -> tuple[list, list]:
        return (
            sorted(
                Result.objects.filter(game__league=league).values_list(
                    "pk", "rating_before", "rating_after"
                )
            ),
            sorted(
                Standing.objects.filter(league=league).values_list("player_id", "rating", "games")
            ),
        )

    before = stored()
    assert_seasons_match_results(league)
    assert_opponents_match_results(league)
    engine.league_recompute(league=league)
    assert stored() == before
    assert_seasons_match_results(league)
    assert_opponents_match_results(league)
