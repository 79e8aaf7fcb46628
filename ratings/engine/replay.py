"""Rating games in order: the league's newest game from the standings, anything else by
replaying the league from the earliest game it changes."""

from __future__ import annotations

import gc
from collections.abc import Iterable
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.db.models import Q

from ratings.engine import seasons, writes
from ratings.engine.state import (
    GameInput,
    OrderKey,
    current_states,
    rater,
    states_before,
)
from ratings.models import Game, League, Result, Standing
from ratings.versioning import bulk_write


@contextmanager
def collection_paused():
    """Pause Python's cyclic garbage collector for a bulk command (import, recompute, restore).

    A hundred thousand games make millions of small objects, none of them garbage until the job
    ends, and the collector would walk them all again and again. Reference counting still frees
    everything as usual. The switch is process-wide, so only the management commands use it: in
    a server it would stop collection for every other request the process serves meanwhile.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def rate_newest(league: League, game: Game, prepared: GameInput) -> None:
    """Rate the league's newest game from its players' standings, and count it in their
    seasons: no replay, whatever the history's length."""
    states = current_states(league, set(prepared.player_ids))
    game_states = [states[pid] for pid in prepared.player_ids]
    before = [state.rating for state in game_states]
    after = rater(league, prepared.player_ids)(prepared, game_states)
    writes.insert_results(writes.result_rows(league, game.pk, prepared, before, after))
    for state, new in zip(game_states, after, strict=True):
        state.advance(new, prepared.played_at)
    writes.save_states(league, states, create=False)
    seasons.record(league, prepared, before, after, game_states)


def _after(since: OrderKey, game: str = "id") -> Q:
    """From ``since`` on, in (played_at, id) order; ``game`` names the game's id."""
    played_at, game_id = since
    return Q(played_at__gt=played_at) | Q(played_at=played_at, **{f"{game}__gte": game_id})


def replay(league: League, since: OrderKey | None, touched: Iterable[int] = ()) -> int:
    """Re-rate the league's games from ``since`` on (all of them when None), and count its
    seasons again from the one ``since`` falls in, holding the league's writers' lock only:
    other leagues' writers go on meanwhile.

    ``touched`` names players whose standing must be refreshed even if they play no game from
    ``since`` on (e.g. the players of a deleted game). Returns the number of games rated.
    """
    with bulk_write([league]):
        return _replay(league, since, touched)


def _replay(league: League, since: OrderKey | None, touched: Iterable[int]) -> int:
    games = Game.objects.filter(league=league)
    # Results carry their game's league and time (see Result): read without a join to games.
    results = Result.objects.filter(league=league)
    if since is not None:
        games = games.filter(_after(since))
        results = results.filter(_after(since, game="game_id"))

    player_ids = set(results.values_list("player_id", flat=True).distinct()) | set(touched)
    if since is None:
        player_ids |= set(
            Standing.objects.filter(league=league).values_list("player_id", flat=True)
        )
    states = states_before(league, since, player_ids)
    rate = rater(league, player_ids)
    seasons.replaced_from(league, since)
    tally = seasons.SeasonTally(league)

    # Two cursors walk the same (played_at, id) order: the games, and their results by seat.
    result_rows = results.order_by("played_at", "game_id", "seat").values_list(
        *("game_id", "id", "player_id", "score", "rating_before", "rating_after", "state"),
    )
    result_state = league.rating_system.result_state
    keeps_state = league.rating_system.keeps_state
    pending = iter(result_rows.iterator(chunk_size=20_000))
    row = next(pending, None)
    updates = []
    # Results of a system that keeps no state holding one still (the league's system changed
    # from one that keeps it): emptied.
    stale = False
    game_count = 0
    for game_id, played_at, bula in (
        games.chronological().values_list("id", "played_at", "bula").iterator(chunk_size=20_000)
    ):
        seats = []
        while row is not None and row[0] == game_id:
            seats.append(row)
            row = next(pending, None)
        game_states = [states[seat[2]] for seat in seats]
        prepared = GameInput(
            played_at=played_at,
            bula=bula,
            player_ids=[seat[2] for seat in seats],
            scores=[seat[3] for seat in seats],
        )
        before = [state.rating for state in game_states]
        after = rate(prepared, game_states)
        for seat, state, new in zip(seats, game_states, after, strict=True):
            old = state.rating
            # A rating with a state (OpenSkill's mean and uncertainty) can move in its state
            # alone while the rating, its ordinal, stays the same float: compare what the row
            # stores, all of it.
            moved = (
                seat[4] != old
                or seat[5] != new
                or seat[6] != (result_state(old, new) if keeps_state else None)
            )
            if moved:
                updates.append((old, new, seat[1]))
                stale = stale or (seat[6] is not None and not keeps_state)
            state.advance(new, played_at)
        tally.add(prepared, before, after, game_states)
        game_count += 1

    writes.update_ratings(league, updates)
    if stale:
        results.filter(state__isnull=False).update(state=None)
    writes.save_states(league, states)
    tally.write()
    return game_count


# A replay gives the same floats from the same games; a difference below this is no move.
MOVED = 1e-9


@dataclass(frozen=True)
class Rerated:
    """What a correction's replay changed: the games it rated, and each player whose current
    rating it moved, with the new rating and the change."""

    games: int
    moved: dict[int, tuple[float, float]] = field(default_factory=dict)


def replay_correction(
    league: League, since: OrderKey | None, touched: Iterable[int] = ()
) -> Rerated:
    """:func:`replay` for a correction (an edit, deletion, restore or merge): also which
    players' current ratings it moved, and by how much, read from the standings before and
    after (two queries), for the audit entry to keep."""
    before = dict(Standing.objects.filter(league=league).values_list("player_id", "rating"))
    games = replay(league, since, touched)
    after = Standing.objects.filter(league=league, player_id__in=list(before)).values_list(
        "player_id", "rating"
    )
    moved = {
        player_id: (rating, rating - before[player_id])
        for player_id, rating in after
        if abs(rating - before[player_id]) > MOVED
    }
    return Rerated(games, moved)
