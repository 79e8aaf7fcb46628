"""Reads for the event pages: an event's rounds, tables and standings, derived from its games.

Nothing about an event's results is stored twice: its standings are worked out from the results
of the games linked to its tables each time a page shows them (by the pure rules of
:mod:`ratings.algorithms.event_scoring`), so a game edited or deleted in the admin changes them
at once. Every function here runs a fixed number of queries whatever the number of rounds,
tables and players (pinned in ``tests/views/test_page_queries.py``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import OuterRef, QuerySet, Subquery

from ratings.algorithms import event_scoring
from ratings.algorithms.event_scoring import TablePlay
from ratings.events.models import Event, EventPlayer, EventRound, EventTable
from ratings.events.models import TableSeat as TableSeatModel
from ratings.models import League, Player, Result
from ratings.selectors.sql import count_subquery
from ratings.systems import rating_system

# The columns of an event game's result that the standings and the pages read.
_RESULT_COLUMNS = ("game_id", "player_id", "seat", "score", "rating_before", "rating_after")


@dataclass(frozen=True)
class PlayerRef:
    """A player as the event pages link them: id, name and address."""

    pk: int
    name: str
    slug: str


@dataclass(frozen=True)
class SeatView:
    """A seat of a table as drawn, with its game result once the paper is in."""

    seat: int
    player: PlayerRef
    score: float | None = None
    points: float | None = None
    change: float | None = None


@dataclass
class TableView:
    pk: int
    number: int
    game_id: int | None
    not_played: bool
    seats: list[SeatView] = field(default_factory=list)

    @property
    def is_in(self) -> bool:
        return self.game_id is not None

    @property
    def is_open(self) -> bool:
        """Still waiting for its paper."""
        return self.game_id is None and not self.not_played


@dataclass
class RoundView:
    pk: int
    number: int
    method: str
    closed_at: datetime | None
    tables: list[TableView] = field(default_factory=list)
    byes: list[PlayerRef] = field(default_factory=list)

    @property
    def tables_in(self) -> int:
        return sum(table.is_in for table in self.tables)

    @property
    def open_tables(self) -> int:
        return sum(table.is_open for table in self.tables)

    @property
    def is_complete(self) -> bool:
        """Every table is in or marked not played: the next round may be drawn."""
        return self.closed_at is not None or self.open_tables == 0


@dataclass(frozen=True)
class StandingRow:
    """A player's line in an event's standings; ``place`` None: no game yet."""

    place: int | None
    player: PlayerRef
    points: float
    total: float
    games: int
    rating_change: float


@dataclass
class EventPage:
    """Everything the event page shows."""

    event: Event
    players: list[PlayerRef]
    rounds: list[RoundView]
    standings: list[StandingRow]

    @property
    def current_round(self) -> RoundView | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def winners(self) -> list[StandingRow]:
        """The players in first place (more than one when they tie on points and total)."""
        return [row for row in self.standings if row.place == 1]

    @property
    def rounds_left(self) -> int | None:
        if self.event.rounds_total is None:
            return None
        return max(0, self.event.rounds_total - len(self.rounds))

    @property
    def may_draw(self) -> bool:
        """Whether the next round may be drawn now (the page offers the button)."""
        if self.event.is_closed or self.rounds_left == 0:
            return False
        current = self.current_round
        return current is None or current.is_complete


def _ref(pk: int, name: str, slug: str) -> PlayerRef:
    return PlayerRef(pk, name, slug)


def _event_results(event_ids) -> QuerySet:
    """The results of the games at the tables of these events (a list, or a subquery)."""
    return Result.objects.filter(game__event_table__round__event__in=event_ids).order_by(
        "game_id", "seat"
    )


def _plays(rows: Iterable[Sequence]) -> tuple[list[TablePlay], dict[int, float]]:
    """The tables' plays, one per game, and each player's rating change over them, from result
    rows in (game, seat) order."""
    by_game: dict[int, list[Sequence]] = defaultdict(list)
    changes: dict[int, float] = defaultdict(float)
    for row in rows:
        game_id, player_id, _seat, _score, before, after = row[:6]
        by_game[game_id].append(row)
        changes[player_id] += after - before
    plays = [
        TablePlay(tuple(r[1] for r in seats), tuple(r[3] for r in seats))
        for seats in by_game.values()
    ]
    return plays, changes


def _standings(
    event: Event,
    players: Sequence[PlayerRef],
    rows: Sequence[Sequence],
    names: dict[int, PlayerRef],
) -> list[StandingRow]:
    plays, changes = _plays(rows)
    table = event_scoring.standings(
        [p.pk for p in players],
        plays,
        scoring=event.scoring,
        lower_is_better=event.rating_system.lower_score_is_better,
        points_per_place=event.points_per_place,
    )
    standings = [
        StandingRow(
            place=line.place,
            player=names[line.player],
            points=line.points,
            total=line.total,
            games=line.games,
            rating_change=changes.get(line.player, 0.0),
        )
        for line in table
    ]
    # Players sharing a place by name; the unplaced (no game yet) last, by name.
    last = len(standings) + 1
    return sorted(
        standings, key=lambda row: (row.place or last, row.player.name.casefold(), row.player.pk)
    )


def _players_present(event: Event) -> list[PlayerRef]:
    rows = (
        EventPlayer.objects.filter(event=event)
        .order_by("player__name", "player_id")
        .values_list("player_id", "player__name", "player__slug")
    )
    return [_ref(*row) for row in rows]


def event_standings(event: Event) -> list[StandingRow]:
    """The event's standings, best first: two queries (the players present, the results)."""
    players = _players_present(event)
    names = {p.pk: p for p in players}
    rows = list(
        _event_results([event.pk]).values_list(*_RESULT_COLUMNS, "player__name", "player__slug")
    )
    for row in rows:  # a player at a table who is no longer listed as present
        names.setdefault(row[1], _ref(row[1], row[6], row[7]))
    return _standings(event, players, rows, names)


def _rounds(
    seats: QuerySet, names: dict[int, PlayerRef]
) -> tuple[dict[int, RoundView], dict[int, TableView]]:
    """The rounds of these seats with their tables, and the tables by id, in round, table and
    seat order: one query. Each seat's player is taken from ``names`` (added there if missing)."""
    rows = seats.order_by("table__round__number", "table__number", "seat").values_list(
        "table__round_id",
        "table__round__number",
        "table__round__method",
        "table__round__closed_at",
        "table_id",
        "table__number",
        "table__game_id",
        "table__not_played",
        "seat",
        "player_id",
        "player__name",
        "player__slug",
    )
    rounds: dict[int, RoundView] = {}
    tables: dict[int, TableView] = {}
    for (
        round_id,
        number,
        method,
        closed_at,
        table_id,
        table_number,
        game_id,
        not_played,
        seat,
        player_id,
        name,
        slug,
    ) in rows:
        if round_id not in rounds:
            rounds[round_id] = RoundView(round_id, number, method, closed_at)
        if table_id not in tables:
            tables[table_id] = TableView(table_id, table_number, game_id, not_played)
            rounds[round_id].tables.append(tables[table_id])
        player = names.setdefault(player_id, _ref(player_id, name, slug))
        tables[table_id].seats.append(SeatView(seat, player))
    return rounds, tables


def event_page(pk: int) -> EventPage:
    """The event with its players, rounds, tables, seats, results and standings: five queries
    whatever the number of rounds. Raises Event.DoesNotExist."""
    event = Event.objects.select_related("league", "organiser").get(pk=pk)
    players = _players_present(event)
    names = {p.pk: p for p in players}
    rounds, tables = _rounds(TableSeatModel.objects.filter(table__round__event=event), names)
    byes = (
        EventRound.byes.through.objects.filter(eventround__event=event)
        .order_by("player__name")
        .values_list("eventround_id", "player_id", "player__name", "player__slug")
    )
    for round_id, player_id, name, slug in byes:
        if round_id in rounds:
            rounds[round_id].byes.append(names.setdefault(player_id, _ref(player_id, name, slug)))

    rows = list(_event_results([event.pk]).values_list(*_RESULT_COLUMNS))
    standings = _standings(event, players, rows, names)
    _fill_results(event, tables.values(), rows)
    return EventPage(
        event=event, players=players, rounds=list(rounds.values()), standings=standings
    )


def _fill_results(event: Event, tables: Iterable[TableView], rows: Sequence[Sequence]) -> None:
    """Each played table's seats get their player's score, points and rating change.

    A seat is matched to the game's result by player: at the table the players may have sat in
    another order than drawn (the paper's order is the game's), and the table shows the draw.
    """
    by_game: dict[int, list[Sequence]] = defaultdict(list)
    for row in rows:
        by_game[row[0]].append(row)
    lower = event.rating_system.lower_score_is_better
    for table in tables:
        results = by_game.get(table.game_id) if table.game_id else None
        if not results:
            continue
        scores = [r[3] for r in results]
        points = event_scoring.table_points(
            scores,
            scoring=event.scoring,
            lower_is_better=lower,
            points_per_place=event.points_per_place,
        )
        got = {r[1]: (r[3], float(p), r[5] - r[4]) for r, p in zip(results, points, strict=True)}
        table.seats = [
            SeatView(s.seat, s.player, *got[s.player.pk]) if s.player.pk in got else s
            for s in table.seats
        ]


@dataclass(frozen=True)
class TablePage:
    """One table: its event and round, its seats as drawn, and its game's results once in."""

    table: EventTable
    seats: list[SeatView]


def table_page(pk: int) -> TablePage:
    """One table with its round, event and league, and its seats with their player's result in
    the table's game once it is in: two queries. Raises EventTable.DoesNotExist."""
    table = EventTable.objects.select_related("round__event__league").get(pk=pk)
    event = table.round.event
    result = Result.objects.filter(
        game_id=OuterRef("table__game_id"), player_id=OuterRef("player_id")
    )
    rows = list(
        table.seats.order_by("seat")
        .annotate(
            result_game=Subquery(result.values("game_id")[:1]),
            result_score=Subquery(result.values("score")[:1]),
            result_before=Subquery(result.values("rating_before")[:1]),
            result_after=Subquery(result.values("rating_after")[:1]),
        )
        .values_list(
            "seat",
            "player_id",
            "player__name",
            "player__slug",
            "result_game",
            "result_score",
            "result_before",
            "result_after",
        )
    )
    view = TableView(table.pk, table.number, table.game_id, table.not_played)
    view.seats = [SeatView(row[0], _ref(*row[1:4])) for row in rows]
    played = [(row[4], row[1], row[0], row[5], row[6], row[7]) for row in rows if row[4]]
    _fill_results(event, [view], played)
    return TablePage(table=table, seats=view.seats)


def table_seat_names(table: EventTable) -> list[str]:
    """The table's players' names in seat order (the entry form's prefill): one query."""
    return list(table.seats.order_by("seat").values_list("player__name", flat=True))


def round_cards(event: Event, number: int) -> RoundView:
    """A round's tables and seats, for its printable table cards: one query.
    Raises EventRound.DoesNotExist."""
    seats = TableSeatModel.objects.filter(table__round__event=event, table__round__number=number)
    rounds, _ = _rounds(seats, {})
    if not rounds:
        raise EventRound.DoesNotExist
    return next(iter(rounds.values()))


# Lists --------------------------------------------------------------------------------------------


def league_events(league: League) -> QuerySet[Event]:
    """The league's events, newest first, each with its number of players and rounds drawn:
    one query (slice it for a page)."""
    return (
        Event.objects.filter(league=league)
        .annotate(
            player_count=count_subquery(EventPlayer.objects.filter(event=OuterRef("pk")), "event"),
            round_count=count_subquery(EventRound.objects.filter(event=OuterRef("pk")), "event"),
        )
        .order_by("-starts_at", "-pk")
    )


@dataclass(frozen=True)
class PlayedEvent:
    """An event on a player's page: where they finished, of how many who played."""

    pk: int
    name: str
    starts_at: datetime
    league_name: str
    closed: bool
    place: int | None
    placed: int
    points: float
    scoring: str


def player_events(player: Player) -> list[PlayedEvent]:
    """The events the player played a game in, newest first, with their place: one query.

    Their place needs everyone's results in those events, so the query reads all of them (the
    events a player played, not the league's history), and the standings are worked out here.
    """
    played = Event.objects.filter(rounds__tables__game__results__player=player).values("pk")
    rows = (
        _event_results(played)
        .order_by("-game__event_table__round__event__starts_at", "game_id", "seat")
        .values_list(
            *_RESULT_COLUMNS,
            "game__event_table__round__event_id",
            "game__event_table__round__event__name",
            "game__event_table__round__event__starts_at",
            "game__event_table__round__event__closed_at",
            "game__event_table__round__event__scoring",
            "game__event_table__round__event__points_per_place",
            "game__league__name",
            "game__league__system",
        )
    )
    by_event: dict[int, list[Sequence]] = {}
    for row in rows:
        by_event.setdefault(row[6], []).append(row)
    events = []
    for event_id, event_rows in by_event.items():
        first = event_rows[0]
        _pk, name, starts_at, closed_at, scoring, points_per_place, league_name, system = first[6:]
        plays, _changes = _plays(event_rows)
        table = event_scoring.standings(
            [],
            plays,
            scoring=scoring,
            lower_is_better=rating_system(system).lower_score_is_better,
            points_per_place=points_per_place or (),
        )
        mine = next(line for line in table if line.player == player.pk)
        events.append(
            PlayedEvent(
                pk=event_id,
                name=name,
                starts_at=starts_at,
                league_name=league_name,
                closed=closed_at is not None,
                place=mine.place,
                placed=len(table),
                points=mine.points,
                scoring=scoring,
            )
        )
    return events
