"""Many games at once: a file's games imported into a league, all or nothing.

The games go through the same validator as a single game (:mod:`ratings.engine.validation`);
when they all come after the league's latest game they are rated in memory and each row written
once, otherwise written and the league replayed from the earliest of them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from operator import attrgetter, itemgetter
from typing import NamedTuple

from django.db import connection, transaction
from django.db.models import SET_NULL, Max

from ratings.engine import opponents, seasons, sql, writes
from ratings.engine.audit import audit, audit_league_deletion, audit_user
from ratings.engine.games import league_lock
from ratings.engine.replay import replay
from ratings.engine.state import (
    GameInput,
    current_states,
    league_player_ids,
    rater,
    states_before,
)
from ratings.engine.validation import birth_dates, prepare_scored_games
from ratings.models import AuditAction, Game, League, OpponentTally, Player, Result
from ratings.player_names import name_key
from ratings.versioning import bulk_write, row_triggers_dropped

# Games rated and written at a time by games_record_many.
RESULTS_CHUNK = 10_000


class ImportedGame(NamedTuple):
    """A game from a file: when, and (player name, score) in seat order. (A named tuple: a file
    brings a hundred thousand of them, and a tuple is made fastest.)"""

    played_at: datetime
    scores: Sequence[tuple[str, float]]


@dataclass
class ImportSummary:
    games: int = 0
    # Positions (in the games given) of the games skipped as already in the league.
    skipped: list[int] = field(default_factory=list)
    players: int = 0
    new_players: list[str] = field(default_factory=list)
    replaced: int = 0


def games_import(
    *,
    league: League,
    games: Sequence[ImportedGame],
    replace: bool = False,
    actor=None,
) -> ImportSummary:
    """Add many games to a league at once (a rayter file), all or nothing.

    Players are found by name (case-insensitive) or created. Without ``replace`` a game already in
    the league at the same time with the same players and scores is skipped, so importing a file
    twice changes nothing; with ``replace`` the league's games are deleted first, each leaving a
    deletion entry in the audit trail to restore it from. Raises
    :class:`~ratings.engine.validation.InvalidGame` (its ``index`` is the game's position in
    ``games``) for a game the league's rules refuse; then nothing is written.
    """
    summary = ImportSummary()
    # The club-wide version first: the file's new players are club-wide rows.
    with transaction.atomic(), bulk_write([league], club=True):
        league = league_lock(league, club=True)
        if replace:
            # Each deleted game stays restorable from the audit trail, as a single deletion is.
            summary.replaced = audit_league_deletion(league, actor)
            Result.objects.filter(game__league=league).delete()
            opponents.forget(league)
            _delete_games(league)
            writes.save_states(league, states_before(league, None, league_player_ids(league)))
            seasons.rebuild(league)

        names = {name for game in games for name, _score in game.scores}
        keys = {name: name_key(name) for name in names}
        players = Player.objects.by_names(names)
        new = {}
        for name in sorted(names, key=keys.__getitem__):
            if keys[name] not in players and keys[name] not in new:
                new[keys[name]] = name
        created = Player.objects.create_many_named(new.values())
        for key in new:
            players[key] = created[key]
        summary.new_players.extend(new.values())
        summary.players = len(names)

        ids = {name: players[keys[name]].pk for name in names}
        prepared = prepare_scored_games(
            league, _with_ids(games, ids), born=birth_dates(ids.values())
        )
        existing = _game_fingerprints(league, prepared) if not replace else set()
        fresh: list[GameInput] = []
        for index, game in enumerate(prepared):
            if existing and _fingerprint(game.played_at, game.player_ids, game.scores) in existing:
                summary.skipped.append(index)
                continue
            fresh.append(game)
        if not fresh:
            return summary

        summary.games = games_record_many(league=league, games=fresh, actor=actor)
        audit(
            AuditAction.CREATE,
            league,
            actor,
            after={"imported_games": summary.games, "replaced": summary.replaced},
        )
    return summary


def _with_ids(games: Sequence[ImportedGame], ids: dict[str, int]) -> Iterator[tuple]:
    """Each game as :func:`prepare_scored_games` takes it: (played_at, player ids, scores)."""
    id_of, name_of, score_of = ids.__getitem__, itemgetter(0), itemgetter(1)
    for played_at, scores in games:
        yield played_at, list(map(id_of, map(name_of, scores))), list(map(score_of, scores))


def games_record_many(*, league: League, games: Sequence[GameInput], actor=None) -> int:
    """Record many checked games (see :mod:`ratings.engine.validation`) in one transaction.

    Games that all come after the league's latest are rated in memory and each result written
    once, with no replay; otherwise they are written and the league is replayed from the earliest
    of them. Games at the same time keep the order given. Returns the number of games recorded.
    """
    if not games:
        return 0
    games = sorted(games, key=attrgetter("played_at"))
    with (
        transaction.atomic(),
        bulk_write([league]),
        row_triggers_dropped([Game, Result, OpponentTally]),
        writes.bulk_page_cache(),
    ):
        league = league_lock(league)
        latest = Game.objects.filter(league=league).aggregate(latest=Max("played_at"))["latest"]
        involved = {pid for prepared in games for pid in prepared.player_ids}
        out_of_order = latest is not None and games[0].played_at < latest
        states = {} if out_of_order else current_states(league, involved)
        # Only the games, their results and their players' tallies inside, which refer to
        # nothing else: see references_locked_at_once. The tallies too: otherwise each of their
        # rows queues three foreign-key checks for the commit.
        user = audit_user(actor)
        user_id = user.pk if user else None
        with writes.references_locked_at_once(involved, user_id):
            counted = opponents.NewGames(league)
            places: list[list[int]] = []  # each game's seats' places, in order
            places_of = league.rating_system.places

            def count(prepared: GameInput) -> None:
                # The places and the opponents' tallies need neither ids nor ratings: worked out
                # while the database stores the games.
                seat_places = places_of(prepared.scores)
                places.append(seat_places)
                counted.add(prepared.player_ids, seat_places)

            game_ids = writes.insert_games(league, games, user_id, each=count)
            if out_of_order:
                rows = []
                times = writes.adapted_datetimes([prepared.played_at for prepared in games])
                result_rows = writes.result_rows_of(league)
                for game_id, prepared, at, seat_places in zip(
                    game_ids, games, times, places, strict=True
                ):
                    rows += result_rows(game_id, prepared, at=at, places=seat_places)
                writes.insert_results(rows)
                opponent_rows = counted.rows()
            else:
                with writes.results_streamed() as insert_results:
                    tally = _rate_and_insert(
                        league, games, game_ids, places, states, involved, insert_results
                    )
                    # Counted while the database stores the last results.
                    opponent_rows = counted.rows()
            _write_opponents(league, opponent_rows)
        if out_of_order:
            replay(league, since=(games[0].played_at, game_ids[0]))
        else:
            writes.save_states(league, states, create=False)
            tally.write()
    return len(games)


def _rate_and_insert(
    league, games, game_ids, places, states, involved, insert_results
) -> seasons.SeasonTally:
    """Rate games that all come after the league's latest, in memory from ``states`` (advanced
    as they go), and insert their results with ``insert_results`` (``places``: each game's
    seats' places); returns their seasons, counted."""
    state_of, rating_of = states.__getitem__, attrgetter("rating")
    rate, result_rows = rater(league, involved), writes.result_rows_of(league)
    tally = seasons.SeasonTally(league)
    count = tally.add
    # Written a chunk of games at a time, so a file's rows are never all held at once, and
    # (streamed) stored by the server while the next chunk is rated.
    for start in range(0, len(games), RESULTS_CHUNK):
        rows: list[tuple] = []
        end = start + RESULTS_CHUNK
        chunk = games[start:end]
        times = writes.adapted_datetimes([prepared.played_at for prepared in chunk])
        for game_id, prepared, at, seat_places in zip(
            game_ids[start:end], chunk, times, places[start:end], strict=True
        ):
            # In C where it can be: this loop runs once a game, a hundred thousand times.
            game_states = list(map(state_of, prepared.player_ids))
            before = list(map(rating_of, game_states))
            after = rate(prepared, game_states)
            rows += result_rows(game_id, prepared, before, after, at=at, places=seat_places)
            played_at = prepared.played_at
            for state, new in zip(game_states, after, strict=True):
                state.advance(new, played_at)
            count(prepared, before, after, game_states)
        insert_results(rows)
    return tally


def _write_opponents(league: League, rows: list[tuple]) -> None:
    """Add the new games' tallies (:meth:`opponents.NewGames.rows`) to the league's opponents'
    tallies: straight in when it has none yet (a new league's import)."""
    if OpponentTally.objects.filter(league=league).exists():
        sql.add_rows(
            OpponentTally,
            opponents.COLUMNS,
            rows,
            key=opponents.KEY,
            adds=opponents.COUNTS,
        )
    else:
        sql.write(OpponentTally, opponents.COLUMNS, rows)


def _delete_games(league: League) -> None:
    """Delete the league's games, whose results are gone, in one statement.

    What refers to a game and lets it go (an event's table: ``SET_NULL``) is freed first, as
    deleting one game frees it; found from the models, so the engine names no feature's model.
    The audit trail keeps plain ids, so nothing else cascades: ``QuerySet.delete()`` would load
    every game to find that out and delete them a hundred at a time, a thousand statements for a
    league of 100,000 games.
    """
    for relation in Game._meta.related_objects:
        if relation.on_delete is SET_NULL:
            field = relation.field.name
            relation.related_model.objects.filter(**{f"{field}__league": league}).update(
                **{field: None}
            )
    with connection.cursor() as cursor:
        cursor.execute(
            f"DELETE FROM {connection.ops.quote_name(Game._meta.db_table)} WHERE league_id = %s",
            [league.pk],
        )


def _fingerprint(played_at: datetime, player_ids, scores) -> tuple:
    return (played_at, tuple(sorted(zip(player_ids, scores, strict=True))))


def _game_fingerprints(league: League, games: Sequence[GameInput]) -> set[tuple]:
    """Fingerprints of the league's games in the time span of ``games``."""
    if not games:
        return set()
    start = min(game.played_at for game in games)
    end = max(game.played_at for game in games)
    rows = (
        Result.objects.filter(
            game__league=league, game__played_at__gte=start, game__played_at__lte=end
        )
        .order_by("game_id")
        .values_list("game_id", "game__played_at", "player_id", "score")
    )
    by_game: dict[int, tuple[datetime, list, list]] = {}
    for game_id, played_at, player_id, score in rows:
        entry = by_game.setdefault(game_id, (played_at, [], []))
        entry[1].append(player_id)
        entry[2].append(score)
    return {_fingerprint(*entry) for entry in by_game.values()}
