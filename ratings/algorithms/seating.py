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
  one round.
- ``by_standings``: the leaders at the first table, the next ones at the second, and so on, as in
  a playoff (the last rounds of a Preferans league).

Byes rotate the same way in every method: a round's byes go to the players present who have sat
out fewest rounds so far, so nobody sits out twice while a player present has not sat out at all.

This module is pure Python (no Django): the events code stores rounds and calls it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

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

# How much work one ``everyone_meets`` draw may do, in units of about one player looked at (the
# searches' ``work``). It keeps a draw for 30 players well under a second while the perfect
# schedules of the club's sizes (9 and 12 players in tables of three) are found every time;
# bench/seating.py measures both.
SEARCH_BUDGET = 400_000

# One meeting of a pair that has met before costs this much; on top of it, the n-th meeting costs
# n, so among plans with the same number of repeats the one that spreads them (two pairs meeting
# twice rather than one pair three times) wins. The weight dwarfs any sum of the spread terms.
_REPEAT_WEIGHT = 1 << 24


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
    past = _Past.read(history, index)
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
        tables, byes, _ = _everyone_meets(past, table_size, byes_count, planned, rng)
    else:
        if rank is None:
            byes = _pick_byes(past.byes, byes_count, rng)
            seated = [p for p in range(len(present)) if p not in byes]
            rng.shuffle(seated)
        else:
            # The lowest placed among those due a bye sit out, so the leaders keep playing.
            byes = _pick_byes(past.byes, byes_count, rng, prefer=[-r for r in rank])
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


@dataclass
class _Past:
    """What the draw needs from the history, for the players present (by their index)."""

    rounds_played: int
    meetings: list[list[int]]  # meetings[a][b]: how often a and b shared a table
    byes: list[int]  # rounds each player sat out
    first_seats: list[int]  # times each player sat in seat 1

    @classmethod
    def read(
        cls, history: Sequence[Round | Sequence[Sequence[int]]], index: dict[int, int]
    ) -> _Past:
        if isinstance(history, str | bytes | Round):
            raise ValueError("history must be a sequence of rounds")
        n = len(index)
        past = cls(
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


def _pick_byes(
    byes_so_far: Sequence[int], count: int, rng: random.Random, prefer: Sequence[int] | None = None
) -> list[int]:
    """``count`` players among those who sat out least; ties by ``prefer`` (lower first), or luck.

    Taking the fewest byes first is what keeps anyone from sitting out twice while someone present
    has not sat out at all.
    """
    order = list(range(len(byes_so_far)))
    rng.shuffle(order)
    if prefer is None:
        order.sort(key=byes_so_far.__getitem__)
    else:
        order.sort(key=lambda p: (byes_so_far[p], prefer[p]))
    return sorted(order[:count])


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


def _everyone_meets(
    past: _Past, table_size: int, byes_count: int, rounds: int, rng: random.Random
) -> tuple[list[list[int]], list[int], int]:
    """The next round's tables and byes, planning ``rounds`` rounds, and the work spent.

    Two searches, because each finds what the other misses. An exact search for a plan without
    repeats goes first, on a quarter of the budget: it is quick when such plans are plentiful or
    very few (the last rounds of an event at the limit). Failing that (none exists, or it ran out
    of steps), the tabu search looks for the plan with the fewest repeats with what is left.
    """
    exact = _Completion(past, table_size, byes_count, rounds, rng)
    found = exact.search(SEARCH_BUDGET // 4)
    if found is not None:
        return found[0], found[1], exact.work
    planner = _Planner(past, table_size, byes_count, rounds, rng, SEARCH_BUDGET - exact.work)
    tables, byes = planner.best_first_round()
    return tables, byes, exact.work + planner.work


class _Planner:
    """Plans the remaining rounds of an ``everyone_meets`` event and keeps the best plan found.

    The cost of a plan adds, for every meeting it gives a pair, nothing if the pair has not met,
    else ``_REPEAT_WEIGHT`` plus the number of times it has met (history included). So the plan
    with the fewest repeated meetings wins, and when nobody meets three times that is the plan
    with the fewest pairs who share a table twice.

    The search (after Dotu and Van Hentenryck's tabu search for the social golfer problem): start
    from a greedy plan; then, again and again, among the swaps of a player who meets someone again
    in some planned round with a player at another table of that round (or one sitting out it,
    when the bye rotation allows), make the one that lowers the cost most or raises it least,
    except swaps of a pair swapped in that round a few steps ago. When it stops improving for a
    while, a few random swaps shake it. It stops at a plan without repeats, or when the budget is
    spent. Byes are part of the search so that a later call, planning again, can still reach the
    byes of this plan: fixing them by luck in each call breaks the plans of events with byes.
    """

    def __init__(
        self,
        past: _Past,
        table_size: int,
        byes_count: int,
        rounds: int,
        rng: random.Random,
        budget: int,
    ) -> None:
        self.size = table_size
        self.rng = rng
        self.budget = budget
        self.n = len(past.byes)
        self.byes_before = past.byes
        self.meetings = [row[:] for row in past.meetings]
        # add[c]: what one more meeting costs a pair that has met c times.
        most = max((max(row) for row in past.meetings), default=0) + rounds + 2
        self.add = [0] + [_REPEAT_WEIGHT + c for c in range(1, most + 1)]
        self.work = 0
        byes_so_far = past.byes[:]
        self.plan: list[list[list[int]]] = []
        self.byes: list[list[int]] = []
        self.where: list[list[int]] = []  # where[t][p]: p's table in planned round t, -1: a bye
        for _ in range(rounds):
            byes = _pick_byes(byes_so_far, byes_count, rng)
            for p in byes:
                byes_so_far[p] += 1
            tables = self._greedy_round([p for p in range(self.n) if p not in byes])
            spot = [-1] * self.n
            for number, table in enumerate(tables):
                for p in table:
                    spot[p] = number
            self.plan.append(tables)
            self.byes.append(byes)
            self.where.append(spot)
        # conflicts[t][p]: how many of p's tablemates in planned round t p has met before; the
        # (t, p) with some are listed in self.conflicted (position in self.conflict_at).
        self.conflicts = [[0] * self.n for _ in self.plan]
        self.conflicted: list[tuple[int, int]] = []
        self.conflict_at: dict[tuple[int, int], int] = {}
        for t, tables in enumerate(self.plan):
            for table in tables:
                self._recount(t, table)

    def best_first_round(self) -> tuple[list[list[int]], list[int]]:
        """The tables and byes of the first round of the best plan the budget allows."""
        plan, byes = self._improve()
        return plan[0], byes[0]

    def _greedy_round(self, seated: list[int]) -> list[list[int]]:
        """Fill tables one at a time with whoever adds the least cost to the table so far."""
        left = seated[:]
        self.rng.shuffle(left)
        tables = []
        add, m = self.add, self.meetings
        while left:
            table = [left.pop()]
            while len(table) < self.size:
                best_cost, best_at = None, 0
                for at, candidate in enumerate(left):
                    row = m[candidate]
                    cost = sum(add[row[p]] for p in table)
                    if best_cost is None or cost < best_cost:
                        best_cost, best_at = cost, at
                        if cost == 0:
                            break
                self.work += len(left) * len(table)
                table.append(left.pop(best_at))
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    m[a][b] += 1
                    m[b][a] += 1
            tables.append(table)
        return tables

    def _snapshot(self) -> tuple[list[list[list[int]]], list[list[int]]]:
        self.work += len(self.plan) * self.n
        return [[t[:] for t in tables] for tables in self.plan], [b[:] for b in self.byes]

    def _improve(self) -> tuple[list[list[list[int]]], list[list[int]]]:
        rng = self.rng
        cost = 0  # relative to the greedy plan: only differences matter
        best_cost, best = 0, self._snapshot()
        # tabu[(t, a, b)]: the step until which a and b may not be swapped again in round t.
        tabu: dict[tuple[int, int, int], int] = {}
        stale = 0
        step = 0
        while self.conflicted and self.work < self.budget:
            step += 1
            # The best move of any player who meets someone again, ties by luck.
            chosen: tuple[int, int, int] | None = None
            chosen_delta, ties = 0, 0
            for t, a in self.conflicted:
                if self.work >= self.budget:
                    break
                move = self._best_move(t, a, tabu, step, best_cost - cost)
                if move is None:
                    continue
                delta, b, count = move
                if chosen is None or delta < chosen_delta:
                    chosen, chosen_delta, ties = (t, a, b), delta, count
                elif delta == chosen_delta:
                    ties += count
                    if rng.randrange(ties) < count:
                        chosen = (t, a, b)
            if chosen is None or self.work >= self.budget:
                continue  # (a step cut short by the budget is not taken)
            t, a, b = chosen
            if self.where[t][b] == -1:
                self._sit_out(t, a, b)
            else:
                self._swap(t, a, b)
            tabu[(t, min(a, b), max(a, b))] = step + 4 + rng.randrange(9)
            cost += chosen_delta
            if cost < best_cost:
                best_cost, best, stale = cost, self._snapshot(), 0
            else:
                stale += 1
            if stale > 30 + 4 * self.n:
                stale = 0
                cost += self._shake()
        return (self.plan, self.byes) if not self.conflicted else best

    def _best_move(
        self, t: int, a: int, tabu: dict[tuple[int, int, int], int], step: int, gain: int
    ) -> tuple[int, int, int] | None:
        """The best swap of a, in planned round t: (change in cost, partner, number of ties).

        The partner is one of the ties, by luck. A tabu swap counts only when it improves on the
        best plan (its change is below ``gain``). The partner may be a player sitting out the
        round when the bye rotation allows it.
        """
        rng, add, m = self.rng, self.add, self.meetings
        tables = self.plan[t]
        home = self.where[t][a]
        mates = [q for q in tables[home] if q != a]
        row_a = m[a]
        leave_a = sum(add[row_a[q] - 1] for q in mates)
        chosen, chosen_delta, ties = -1, 0, 0
        for other, table in enumerate(tables):
            if other == home:
                continue
            join_a = sum(add[row_a[q]] for q in table)
            for b in table:
                row_b = m[b]
                delta = (
                    join_a
                    - add[row_a[b]]
                    - leave_a
                    + sum(add[row_b[q]] for q in mates)
                    - sum(add[row_b[q] - 1] for q in table if q != b)
                )
                if ties and delta > chosen_delta:
                    continue
                if delta >= gain and tabu.get((t, min(a, b), max(a, b)), 0) > step:
                    continue
                if not ties or delta < chosen_delta:
                    chosen, chosen_delta, ties = b, delta, 1
                else:
                    ties += 1
                    if rng.randrange(ties) == 0:
                        chosen = b
        self.work += len(row_a) * 2 * self.size
        for x in self.byes[t]:  # a sits out and x, who sat out, takes the seat
            row_x = m[x]
            delta = sum(add[row_x[q]] for q in mates) - leave_a
            if ties and delta > chosen_delta:
                continue
            if delta >= gain and tabu.get((t, min(a, x), max(a, x)), 0) > step:
                continue
            if not self._fair_rotation(t, a, x):
                continue
            if not ties or delta < chosen_delta:
                chosen, chosen_delta, ties = x, delta, 1
            else:
                ties += 1
                if rng.randrange(ties) == 0:
                    chosen = x
        return (chosen_delta, chosen, ties) if ties else None

    def _fair_rotation(self, t: int, out: int, back: int) -> bool:
        """Whether ``out`` may sit out planned round t instead of ``back`` under the bye rule.

        The rule, in every planned round from t on: nobody sitting out has sat out more often
        than anyone playing.
        """
        self.work += (len(self.plan) + 1) * self.n
        counts = self.byes_before[:]
        for byes in self.byes[:t]:
            for p in byes:
                counts[p] += 1
        if counts[out] != counts[back]:
            return False
        for later in range(t, len(self.plan)):
            byes = self.byes[later]
            if later == t:
                byes = [out if p == back else p for p in byes]
            most = max(counts[p] for p in byes)
            if any(counts[p] < most for p in range(self.n) if p not in byes):
                return False
            for p in byes:
                counts[p] += 1
        return True

    def _delta(self, t: int, a: int, b: int) -> int:
        """How much swapping a and b (at different tables of planned round t) changes the cost."""
        add, m = self.add, self.meetings
        home, other = self.plan[t][self.where[t][a]], self.plan[t][self.where[t][b]]
        change = 0
        for mover, leaving, joining in ((a, home, other), (b, other, home)):
            row = m[mover]
            change -= sum(add[row[q] - 1] for q in leaving if q != mover)
            change += sum(add[row[q]] for q in joining if q not in (a, b))
        return change

    def _swap(self, t: int, a: int, b: int) -> None:
        """Swap a and b, at two tables of planned round t."""
        spot = self.where[t]
        home, other = spot[a], spot[b]
        table_a, table_b = self.plan[t][home], self.plan[t][other]
        changed = [(a, q, -1) for q in table_a if q != a] + [(b, q, -1) for q in table_b if q != b]
        changed += [(b, q, +1) for q in table_a if q != a] + [(a, q, +1) for q in table_b if q != b]
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        spot[a], spot[b] = other, home
        self._meetings_change(t, changed)
        self._recount(t, table_a)
        self._recount(t, table_b)

    def _sit_out(self, t: int, a: int, x: int) -> None:
        """In planned round t, a sits out and x, who sat out, takes a's seat."""
        spot = self.where[t]
        home = spot[a]
        table = self.plan[t][home]
        changed = [(a, q, -1) for q in table if q != a] + [(x, q, +1) for q in table if q != a]
        table[table.index(a)] = x
        byes = self.byes[t]
        byes[byes.index(x)] = a
        spot[a], spot[x] = -1, home
        self._meetings_change(t, changed)
        self._count(t, a, -self.conflicts[t][a])
        self._recount(t, table)

    def _meetings_change(self, t: int, changed: list[tuple[int, int, int]]) -> None:
        """Count the meetings a move in planned round t added or removed.

        A pair that becomes, or stops being, a repeat gains or loses a conflict for both its
        players in every other planned round where they share a table.
        """
        m = self.meetings
        for u, v, step in changed:
            before = m[u][v]
            m[u][v] = m[v][u] = before + step
            if (before > 1) == (before + step > 1):
                continue
            sign = 1 if before + step > 1 else -1
            for later, where in enumerate(self.where):
                if later != t and where[u] == where[v] != -1:
                    self._count(later, u, sign)
                    self._count(later, v, sign)
            self.work += len(self.where)
        self.work += 8 * self.size

    def _recount(self, t: int, table: list[int]) -> None:
        m = self.meetings
        for p in table:
            row = m[p]
            now = sum(1 for q in table if q != p and row[q] > 1)
            self._count(t, p, now - self.conflicts[t][p])

    def _count(self, t: int, p: int, change: int) -> None:
        if not change:
            return
        was = self.conflicts[t][p]
        self.conflicts[t][p] = was + change
        key = (t, p)
        if was == 0:
            self.conflict_at[key] = len(self.conflicted)
            self.conflicted.append(key)
        elif was + change == 0:
            at = self.conflict_at.pop(key)
            last = self.conflicted.pop()
            if last != key:
                self.conflicted[at] = last
                self.conflict_at[last] = at

    def _shake(self) -> int:
        """A few random swaps to leave a local minimum; returns the change in cost."""
        change = 0
        for _ in range(1 + len(self.plan) // 2):
            t = self.rng.randrange(len(self.plan))
            tables = self.plan[t]
            if len(tables) < 2:
                continue
            home, other = self.rng.sample(range(len(tables)), 2)
            a, b = self.rng.choice(tables[home]), self.rng.choice(tables[other])
            change += self._delta(t, a, b)
            self._swap(t, a, b)
        return change


class _OutOfSteps(Exception):
    """The exact search spent its share of the budget."""


class _Completion:
    """An exact search for the last rounds of an event with no pair meeting twice.

    Near the end of an event drawn at the limit (the last rounds of fifteen players' seven) the
    plans that complete it may be very few, which a local search can miss while a depth-first
    search finds one at once: seat first the player with the fewest possible tablemates, and give
    up a branch as soon as someone left has too few. Byes follow the rotation: whoever has sat out
    least must sit out, the ties share what byes remain. Sets of players are bit masks.
    """

    def __init__(
        self, past: _Past, table_size: int, byes_count: int, rounds: int, rng: random.Random
    ) -> None:
        self.size = table_size
        self.byes_count = byes_count
        self.rounds = rounds
        self.rng = rng
        self.n = len(past.byes)
        # met[p]: p and everyone p has shared a table with.
        self.met = [
            sum(1 << q for q, count in enumerate(row) if count or q == p)
            for p, row in enumerate(past.meetings)
        ]
        self.sat_out = past.byes[:]
        self.plan: list[tuple[list[list[int]], list[int]]] = []
        self.work = 0
        self.budget = 0

    def search(self, budget: int) -> tuple[list[list[int]], list[int]] | None:
        """The first round of a plan without repeats, or None (none exists, or out of budget)."""
        self.budget = budget
        try:
            found = self._round()
        except _OutOfSteps:
            return None
        return self.plan[0] if found else None

    def _round(self) -> bool:
        if len(self.plan) == self.rounds:
            return True
        counts = self.sat_out
        forced, may_sit_out = [], 0
        if self.byes_count:
            threshold = sorted(counts)[self.byes_count - 1]
            forced = [p for p in range(self.n) if counts[p] < threshold]
            may_sit_out = sum(1 << p for p in range(self.n) if counts[p] == threshold)
        unplaced = [p for p in range(self.n) if p not in forced]
        self.rng.shuffle(unplaced)  # which of the equally constrained players goes first
        return self._place(
            sum(1 << p for p in unplaced),
            unplaced,
            [],
            forced,
            self.byes_count - len(forced),
            may_sit_out,
        )

    def _place(
        self,
        left: int,
        order: list[int],
        tables: list[list[int]],
        byes: list[int],
        byes_left: int,
        may_sit_out: int,
    ) -> bool:
        self.work += len(order) + 1
        if self.work > self.budget:
            raise _OutOfSteps
        if not left:
            return self._next_round(tables, byes)
        met, size = self.met, self.size
        player, partners, fewest = -1, 0, self.n
        for p in order:
            if not left >> p & 1:
                continue
            options = left & ~met[p]
            count = options.bit_count()
            if count < size - 1 and not (byes_left and may_sit_out >> p & 1):
                return False
            if count < fewest:
                player, partners, fewest = p, options, count
        candidates = _members(partners)
        self.rng.shuffle(candidates)
        for mates in self._cliques(candidates, size - 1):
            table = [player, *mates]
            if self._place(
                left & ~sum(1 << q for q in table),
                order,
                [*tables, table],
                byes,
                byes_left,
                may_sit_out,
            ):
                return True
        if byes_left and may_sit_out >> player & 1:
            return self._place(
                left & ~(1 << player), order, tables, [*byes, player], byes_left - 1, may_sit_out
            )
        return False

    def _cliques(self, candidates: list[int], count: int) -> Iterator[list[int]]:
        """Every ``count`` of the candidates who have not met one another, in the list's order."""
        if count == 0:
            yield []
            return
        met = self.met
        for i, first in enumerate(candidates):
            if len(candidates) - i < count:
                return
            self.work += len(candidates) - i
            if self.work > self.budget:
                raise _OutOfSteps
            row = met[first]
            rest = [q for q in candidates[i + 1 :] if not row >> q & 1]
            if len(rest) >= count - 1:
                for more in self._cliques(rest, count - 1):
                    yield [first, *more]

    def _next_round(self, tables: list[list[int]], byes: list[int]) -> bool:
        met = self.met
        saved = met[:]
        for table in tables:
            together = sum(1 << p for p in table)
            for p in table:
                met[p] |= together
        for p in byes:
            self.sat_out[p] += 1
        self.plan.append((tables, byes))
        if self._round():
            return True
        self.plan.pop()
        for p in byes:
            self.sat_out[p] -= 1
        met[:] = saved
        return False


def _members(mask: int) -> list[int]:
    """The players in a bit mask, lowest first."""
    members = []
    while mask:
        low = mask & -mask
        members.append(low.bit_length() - 1)
        mask ^= low
    return members
