"""The table draw: who sits at which table, and in which seat, in one round of a club night.

A club night or tournament is played in rounds; in each round the players present are drawn into
tables of ``table_size`` (3 for Preferans, 2 for head-to-head games, the league's choice from 2 to
6 for scored games) and the extra players, when the number present is not a multiple of the table
size, sit the round out (a *bye*). :func:`draw_round` draws one round from the rounds already
played, so an event can be drawn as it goes, with late arrivals and early leavers.

Three methods:

- ``random``: any partition, byes rotated.
- ``everyone_meets``: as few repeated meetings as possible over the whole event. Drawing each round
  on its own paints itself into corners (12 players drawn at random without repeats dead-end
  before round 4 about half the time), so when ``rounds_total`` is known the draw plans every
  remaining round at once and returns the first round of the best plan it finds. The next call
  plans again from the history; because the round it got was the start of a complete plan, a plan
  as good still exists for it to find. Two searches share the work: an exact depth-first search
  for a plan without repeats, then a tabu search (the standard local search for the "social
  golfer" problem) for the plan with the fewest. Both are bounded by a number of steps rather than
  by time, so that a seed always gives the same draw. Without ``rounds_total`` the draw plans the
  one round. The planner is :mod:`ratings.algorithms.seating_plan`.
- ``by_standings``: the leaders at the first table, the next ones at the second, and so on, as in
  a playoff (the last rounds of a Preferans league).

Byes rotate the same way in every method: a round's byes go to the players present who have sat
out fewest rounds so far, so nobody sits out twice while a player present has not sat out at all.

This module is pure Python (no Django): the events code stores rounds and calls it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from ratings.algorithms import seating_plan

__all__ = [
    "MAX_TABLE_SIZE",
    "MIN_TABLE_SIZE",
    "DrawMethod",
    "MethodName",
    "Round",
    "draw_round",
]

MIN_TABLE_SIZE = 2  # head-to-head
MAX_TABLE_SIZE = 6  # the largest table a scored league may choose


class DrawMethod(StrEnum):
    """How :func:`draw_round` forms the tables; its values are the accepted method strings."""

    RANDOM = "random"
    EVERYONE_MEETS = "everyone_meets"
    BY_STANDINGS = "by_standings"


MethodName = Literal["random", "everyone_meets", "by_standings"]


@dataclass(frozen=True)
class Round:
    """One round of an event: the tables, each a tuple of player ids in seat order, and the byes.

    The first id of a table sits in seat 1 (for Preferans the seat the paper starts from).
    """

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()


def draw_round(
    players: Sequence[int],
    *,
    table_size: int,
    history: Sequence[Round | Sequence[Sequence[int]]] = (),
    method: DrawMethod | MethodName,
    rounds_total: int | None = None,
    standings: Sequence[int] | None = None,
    seed: int | None = None,
) -> Round:
    """Draw the next round for the ``players`` present.

    ``history`` holds the rounds already played, oldest first, each a :class:`Round` or just its
    tables (sequences of ids). A round given as bare tables records no byes, so the players present
    now who sat at none of its tables count as having sat it out. Players in the history who are
    not present now have left and are ignored; players present now who are not in it arrived late.

    ``rounds_total`` is how many rounds the event will have, counting those in ``history``; when it
    is known ``everyone_meets`` plans the remaining rounds together. ``standings`` lists ids best
    first, for ``by_standings``; players present but missing from it rank last, in the order of
    ``players``, and ids in it who are not present are ignored.

    Returns ``len(players) // table_size`` tables of exactly ``table_size`` players, every other
    player present among the byes. The same arguments with the same ``seed`` give the same round;
    ``seed=None`` draws afresh each time.
    """
    present = _check_players(players, table_size)
    chosen = _check_method(method)
    if rounds_total is not None and (
        isinstance(rounds_total, bool) or not isinstance(rounds_total, int) or rounds_total < 1
    ):
        raise ValueError(
            f"rounds_total must be a positive whole number or None, got {rounds_total!r}"
        )
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ValueError(f"seed must be a whole number or None, got {seed!r}")
    rank = None
    if chosen is DrawMethod.BY_STANDINGS:
        if standings is None:
            raise ValueError("the by_standings draw needs the standings (ids, best first)")
        rank = _standings_rank(present, standings)

    index = {player: i for i, player in enumerate(present)}
    past = _read_history(history, index)
    rng = random.Random(seed)
    tables_count = len(present) // table_size
    byes_count = len(present) - tables_count * table_size

    if chosen is DrawMethod.EVERYONE_MEETS:
        planned = 1
        if rounds_total is not None and rounds_total > past.rounds_played:
            planned = rounds_total - past.rounds_played
        # Beyond the round where someone must meet a player again, planning further only spreads
        # the repeats a little more and slows the search down.
        planned = min(planned, (len(present) - 1) // (table_size - 1) + 1)
        tables, byes, _ = seating_plan.everyone_meets(past, table_size, byes_count, planned, rng)
    else:
        if rank is None:
            byes = seating_plan.pick_byes(past.byes, byes_count, rng)
            seated = [p for p in range(len(present)) if p not in byes]
            rng.shuffle(seated)
        else:
            # The lowest placed among those due a bye sit out, so the leaders keep playing.
            byes = seating_plan.pick_byes(past.byes, byes_count, rng, prefer=[-r for r in rank])
            seated = sorted((p for p in range(len(present)) if p not in byes), key=rank.__getitem__)
        tables = [seated[i : i + table_size] for i in range(0, len(seated), table_size)]

    return Round(
        tables=tuple(
            tuple(present[p] for p in _seat_order(table, past.first_seats, rng)) for table in tables
        ),
        byes=tuple(present[p] for p in sorted(byes)),
    )


def _check_players(players: Sequence[int], table_size: int) -> list[int]:
    if isinstance(table_size, bool) or not isinstance(table_size, int):
        raise ValueError(f"table_size must be a whole number, got {table_size!r}")
    if not MIN_TABLE_SIZE <= table_size <= MAX_TABLE_SIZE:
        raise ValueError(
            f"table_size must be from {MIN_TABLE_SIZE} to {MAX_TABLE_SIZE}, got {table_size}"
        )
    if isinstance(players, str | bytes):
        raise ValueError("players must be a sequence of ids, not a string")
    present = list(players)
    seen: set[int] = set()
    duplicates = []
    for player in present:
        if player in seen and player not in duplicates:
            duplicates.append(player)
        seen.add(player)
    if duplicates:
        names = ", ".join(repr(p) for p in duplicates)
        raise ValueError(f"each player may be present once; given more than once: {names}")
    if len(present) < table_size:
        raise ValueError(
            f"a table of {table_size} needs at least {table_size} players, got {len(present)}"
        )
    return present


def _check_method(method: object) -> DrawMethod:
    try:
        return DrawMethod(method)
    except ValueError:
        known = ", ".join(m.value for m in DrawMethod)
        raise ValueError(f"unknown draw method {method!r}; use one of: {known}") from None


def _standings_rank(present: list[int], standings: Sequence[int]) -> list[int]:
    """Each present player's place (0 is the leader); the unranked follow in ``players`` order."""
    if isinstance(standings, str | bytes):
        raise ValueError("standings must be a sequence of ids, best first, not a string")
    place: dict[int, int] = {}
    for position, player in enumerate(standings):
        if player in place:
            raise ValueError(f"standings list player {player!r} more than once")
        place[player] = position
    unranked = len(place)
    return [place.get(player, unranked + i) for i, player in enumerate(present)]


def _read_history(
    history: Sequence[Round | Sequence[Sequence[int]]], index: dict[int, int]
) -> seating_plan.Past:
    """What the draw needs from ``history``, for the players present (``index``: id to index)."""
    if isinstance(history, str | bytes | Round):
        raise ValueError("history must be a sequence of rounds")
    n = len(index)
    past = seating_plan.Past(
        rounds_played=0, meetings=[[0] * n for _ in range(n)], byes=[0] * n, first_seats=[0] * n
    )
    for number, earlier in enumerate(history, start=1):
        tables, byes = _round_parts(earlier, number)
        seated: set[int] = set()
        for table in tables:
            for player in table:
                if player in seated:
                    raise ValueError(f"history round {number} seats player {player!r} twice")
                seated.add(player)
        if byes is None:  # bare tables: whoever present did not sit there sat out
            byes = [player for player in index if player not in seated]
        for player in byes:
            if player in seated:
                raise ValueError(f"history round {number} both seats and byes {player!r}")
        local = [[index[p] for p in table if p in index] for table in tables]
        for table, ids in zip(local, tables, strict=True):
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    past.meetings[a][b] += 1
                    past.meetings[b][a] += 1
            if ids and ids[0] in index:
                past.first_seats[index[ids[0]]] += 1
        for player in dict.fromkeys(byes):
            if player in index:
                past.byes[index[player]] += 1
        past.rounds_played += 1
    return past


def _round_parts(
    earlier: Round | Sequence[Sequence[int]], number: int
) -> tuple[list[tuple[int, ...]], list[int] | None]:
    if isinstance(earlier, Round):
        tables, byes = earlier.tables, list(earlier.byes)
    else:
        tables, byes = earlier, None
    if isinstance(tables, str | bytes):
        raise ValueError(f"history round {number} must be a sequence of tables")
    result = []
    for table in tables:
        if isinstance(table, str | bytes) or not isinstance(table, Sequence):
            raise ValueError(
                f"history round {number}: a table must be a sequence of ids, got {table!r}"
            )
        result.append(tuple(table))
    return result, byes


def _seat_order(table: Sequence[int], first_seats: Sequence[int], rng: random.Random) -> list[int]:
    """Shuffle the table, then rotate it to seat first whoever has sat first least often.

    Shuffling alone would now and then leave a player in seat 1 all night (for nine players over
    four rounds, about one night in nine); the rotation keeps the shuffled order round the table.
    """
    seats = list(table)
    rng.shuffle(seats)
    fewest = min(first_seats[p] for p in seats)
    start = next(i for i, p in enumerate(seats) if first_seats[p] == fewest)
    return seats[start:] + seats[:start]
