"""Checking a submission: every rule a game breaks, each addressed to what the member typed."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from ratings import engine
from ratings.entry.submission import SeatIn, Submission
from ratings.events.services import table_players_refusal
from ratings.models import Player
from ratings.systems import Refusal
from ratings.typed_names import ResolvedNames, resolve_names


@dataclass
class Checked:
    """A submission checked: its refusals (none: it may be recorded), the players its names
    stand for, and the game as it would be rated (new players stand in with negative ids)."""

    submission: Submission
    refusals: list[Refusal]
    # The club's player in each seat, in seating order; None for a new one (or a refused name).
    players: list[Player | None] = field(default_factory=list)
    new_names: list[str] = field(default_factory=list)
    # Seat -> the club's names close to the seat's new name, whether confirmed or not.
    suggestions: dict[int, tuple[str, ...]] = field(default_factory=dict)
    prepared: engine.GameInput | None = None

    @property
    def ok(self) -> bool:
        return not self.refusals

    def stand_in_ids(self) -> list[int]:
        """Each seat's player id, new players standing in as -1, -2…: the game as it would be
        rated, before anything is written."""
        ids, fresh = [], 0
        for seat, player in zip(self.submission.seats, self.players, strict=True):
            if seat.player_id is not None:
                ids.append(seat.player_id)
            elif player is not None:
                ids.append(player.pk)
            else:
                fresh -= 1
                ids.append(fresh)
        return ids

    def entries(self, player_ids: list[int]) -> list[engine.Entry]:
        seats = self.submission.seats
        return [_entry(pid, seat) for pid, seat in zip(player_ids, seats, strict=True)]


def _entry(player_id: int, seat: SeatIn) -> engine.Entry:
    paper = None if seat.middle is None else (seat.left, seat.middle, seat.right)
    return engine.Entry(player_id=player_id, score=seat.score, paper=paper)


def _name_refusal(n: int, message: str, names: ResolvedNames, name: str) -> Refusal:
    """Seat ``n``'s name refused. A name close to a player's, refused only until confirmed as a
    new member, has a code: each interface says how to confirm it (a box to tick on the site,
    ``"new_players"`` in the API)."""
    path, matches = f"seats[{n}].player", names.suggestions.get(n, ())
    if n not in names.unconfirmed:
        return Refusal(path, message, suggestions=matches)
    params = {"name": name, "matches": ", ".join(matches)}
    return Refusal(path, message, code="new_name", params=params, suggestions=matches)


def check(submission: Submission) -> Checked:
    """Check ``submission`` against every rule of its league: the date, the names (one policy,
    :func:`ratings.typed_names.resolve_names`), the rating system's own rules on each value,
    then, for a game that passes those, the table's players, the birth dates, and the engine's
    own check as the backstop. Reads only; nothing is written."""
    league = submission.league
    system = league.rating_system
    seats = submission.seats
    refusals: list[Refusal] = []
    try:
        engine.check_played_at(submission.played_at)
    except ValidationError as error:
        refusals.append(Refusal("played_at", " ".join(error.messages)))
    for n, seat in enumerate(seats):
        if seat.player_id is None and not seat.player:
            refusals.append(Refusal(f"seats[{n}].player", _("Every seat needs a player.")))
    names = resolve_names(
        [seat.player if seat.player_id is None else None for seat in seats],
        duplicate=lambda name, first: (
            system.duplicate_seat_message % {"name": name, "seat": first + 1}
        ),
        confirmed_new=submission.new_names,
    )
    refusals += [
        _name_refusal(n, message, names, seats[n].player) for n, message in names.refusals.items()
    ]
    refusals += system.entry_refusals(
        [seat.values() for seat in seats],
        bula=submission.bula,
        ended_early=submission.ended_early,
    )
    checked = Checked(
        submission=submission,
        refusals=refusals,
        players=names.players,
        new_names=names.new_names,
        suggestions=names.suggestions,
    )
    if refusals:
        return checked
    ids = checked.stand_in_ids()
    try:
        if submission.table is not None:
            refusal = table_players_refusal(submission.table, ids)
            if refusal is not None:
                raise ValidationError(refusal)
        engine.check_births(submission.played_at, ids)
        checked.prepared = engine.prepare_game(
            league,
            played_at=submission.played_at,
            entries=checked.entries(ids),
            bula=submission.bula,
            ended_early=submission.ended_early,
            note=submission.note,
        )
    except ValidationError as error:
        refusals += [Refusal(None, message) for message in error.messages]
    return checked
