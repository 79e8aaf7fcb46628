"""The benchmarks' club, built the same way by each of them: players drawn with a realistic skew
(a few regulars play thousands of games), Preferans leagues of random papers recorded in bulk
through the engine, and a club night played through the events' services."""

from __future__ import annotations

import random
import time
from datetime import UTC, datetime, timedelta


def random_paper(rng: random.Random) -> list[tuple[int, int, int]]:
    """A finished paper: side columns >= 0 (multiples of 2), middle column summing to zero."""
    a, b = rng.randint(-40, 40), rng.randint(-40, 40)
    middles = [a, b, -a - b]
    return [(2 * rng.randint(0, 120), middle, 2 * rng.randint(0, 120)) for middle in middles]


def skew_weights(count: int) -> list[float]:
    """Cumulative Zipf-like weights: the regulars play far more than the rest.

    With 2,000 players and 600,000 seats the busiest player gets about 4,000 games and the
    median player about 200.
    """
    cumulative, total = [], 0.0
    for rank in range(count):
        total += (rank + 20) ** -0.8
        cumulative.append(total)
    return cumulative


def skewed_players(rng: random.Random, players: list[int], count: int, weights) -> list[int]:
    """``count`` distinct players drawn with the skew of ``weights``."""
    chosen: list[int] = []
    while len(chosen) < count:
        pid = rng.choices(players, cum_weights=weights)[0]
        if pid not in chosen:
            chosen.append(pid)
    return chosen


# The big league's first game, and the time between two games when they fit before today.
START = datetime(2015, 1, 1, 19, 0, tzinfo=UTC)
GAP = timedelta(minutes=7)
# Left free before today: the club night (a day after the last game, six hours long) and the
# games recorded to time a write, all in the past when they are recorded.
ROOM = timedelta(days=3)


def game_gap(games: int, start: datetime = START, now: datetime | None = None) -> timedelta:
    """The time between two games of a league of ``games`` from ``start``: :data:`GAP`, or less
    (in whole seconds) when that many games :data:`GAP` apart would not end :data:`ROOM` before
    ``now`` (the engine refuses a game in the future: a million games 7 minutes apart from 2015
    would run into 2028)."""
    now = now or datetime.now(UTC)
    fits = int((now - ROOM - start).total_seconds()) // max(games, 1)
    if fits < 1:
        raise SystemExit(f"{games:,} games do not fit between {start:%Y-%m-%d} and today")
    return min(GAP, timedelta(seconds=fits))


def build_preferans(
    league, players, games: int, rng: random.Random, start: datetime, gap: timedelta = GAP
) -> float:
    """``games`` three-player games of ``league``, ``gap`` apart from ``start``, recorded in
    bulk 20,000 at a time."""
    from ratings import engine

    began = time.perf_counter()
    weights = skew_weights(len(players))
    batch = []
    for n in range(games):
        seats = skewed_players(rng, players, 3, weights)
        batch.append(
            engine.prepare_game(
                league,
                played_at=start + gap * n,
                entries=[
                    engine.Entry(player_id=pid, paper=paper)
                    for pid, paper in zip(seats, random_paper(rng), strict=True)
                ],
                bula=rng.choice([30, 50, 60]),
            )
        )
        if len(batch) == 20_000:
            engine.games_record_many(league=league, games=batch)
            batch = []
    engine.games_record_many(league=league, games=batch)
    return time.perf_counter() - began


# The games of the player whose page is compared across sizes of the club: about the heavy
# player's at the default size.
STEADY_GAMES = 4_000
EVENT_PLAYERS = 24
EVENT_ROUNDS = 4


def build_event(league, players: list[int], rng: random.Random, starts_at: datetime):
    """A finished club night of ``league``: EVENT_PLAYERS players (drawn with the club's skew,
    so the regulars are there), EVENT_ROUNDS rounds drawn by the events' service, every table's
    paper recorded through it, then closed. Its games come after every game of the league (give
    ``starts_at`` after the last one), so each is rated from the standings without a replay.
    Returns the event; its last game is played ``EVENT_ROUNDS`` × 90 minutes after ``starts_at``.
    """
    from ratings import engine
    from ratings.events import services
    from ratings.events.models import Scoring
    from ratings.models import Player

    present = skewed_players(rng, players, EVENT_PLAYERS, skew_weights(len(players)))
    event = services.event_create(
        league=league,
        name="Bench club night",
        starts_at=starts_at,
        organiser=None,
        players=list(Player.objects.filter(pk__in=present)),
        rounds_total=EVENT_ROUNDS,
        scoring=Scoring.TOTAL,
        seed=rng.randrange(2**31),
    )
    for number in range(1, EVENT_ROUNDS + 1):
        drawn = services.round_draw(event=event)
        for table in drawn.tables.order_by("number"):
            seats = list(table.seats.order_by("seat").values_list("player_id", flat=True))
            services.table_record_game(
                table=table,
                played_at=starts_at + timedelta(minutes=90 * number - 60 + table.number),
                entries=[
                    engine.Entry(player_id=pid, paper=paper)
                    for pid, paper in zip(seats, random_paper(rng), strict=True)
                ],
                bula=rng.choice([30, 50, 60]),
            )
    return services.event_close(event=event)


def build_club(args, rng: random.Random, start: datetime, gap: timedelta, night: datetime):
    """The benchmark's club: its players, the big and the small league, the club night.
    Returns (player ids, big, small, the event, seconds to build the big league)."""
    from django.db import connection

    from ratings.models import League, Player, System

    players = [Player(name=f"Player {n:04d}", slug=f"player-{n:04d}") for n in range(args.players)]
    Player.objects.bulk_create(players, batch_size=2000)
    player_ids = list(Player.objects.order_by("pk").values_list("pk", flat=True))
    big = League.objects.create(name="Big Preferans", slug="big", system=System.PREFKO)
    small = League.objects.create(name="Small Preferans", slug="small", system=System.PREFKO)
    build_seconds = build_preferans(big, player_ids, args.games, rng, start, gap)
    build_preferans(small, player_ids[:40], 1000, rng, start)
    # The club night after the big league's last game, with its own generator: the rest of the
    # club is the same as without it.
    event = build_event(big, player_ids, random.Random(args.seed + 1), night)
    with connection.cursor() as cursor:
        # What autovacuum does soon after a load: the planner's statistics and, on PostgreSQL,
        # the map of pages all visible that lets a read of an index skip the table.
        cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")
    return player_ids, big, small, event, build_seconds
