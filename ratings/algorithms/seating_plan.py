"""The ``everyone_meets`` planner: the remaining rounds of an event planned at once, so that as few
pairs as possible meet twice (the method is described in :mod:`ratings.algorithms.seating`).

:func:`everyone_meets` runs two searches within a budget of steps, ``SEARCH_BUDGET``: an exact
depth-first search for a plan without repeats (``_Completion``), then a tabu search for the plan
with the fewest (``_Planner``). It also holds the two pieces it shares with
:func:`~ratings.algorithms.seating.draw_round`, so that seating.py imports this module and never
the other way round: what a draw knows of the rounds played (:class:`Past`) and the bye rotation
(:func:`pick_byes`).

This module is pure Python (no Django).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

__all__ = ["SEARCH_BUDGET", "Past", "everyone_meets", "pick_byes"]

# How much work one ``everyone_meets`` draw may do, in units of about one player looked at (the
# searches' ``work``). It keeps a draw for 30 players well under a second while the perfect
# schedules of the club's sizes (9 and 12 players in tables of three) are found every time;
# bench/seating.py measures both.
SEARCH_BUDGET = 400_000

# One meeting of a pair that has met before costs this much; on top of it, the n-th meeting costs
# n, so among plans with the same number of repeats the one that spreads them (two pairs meeting
# twice rather than one pair three times) wins. The weight dwarfs any sum of the spread terms.
_REPEAT_WEIGHT = 1 << 24


@dataclass
class Past:
    """What the draw needs from the history, for the players present (by their index)."""

    rounds_played: int
    meetings: list[list[int]]  # meetings[a][b]: how often a and b shared a table
    byes: list[int]  # rounds each player sat out
    first_seats: list[int]  # times each player sat in seat 1


def pick_byes(
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


def everyone_meets(
    past: Past, table_size: int, byes_count: int, rounds: int, rng: random.Random
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
        past: Past,
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
            byes = pick_byes(byes_so_far, byes_count, rng)
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
        self, past: Past, table_size: int, byes_count: int, rounds: int, rng: random.Random
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
