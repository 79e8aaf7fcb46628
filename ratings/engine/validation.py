"""The one validator: every game that reaches the ratings passes :func:`prepare_game` (forms,
admin, restore of a deleted game, commands) or :func:`check_game` (bulk imports, which have
scores already), and both ask the league's rating system for its own rules.

The forms check the same things field by field with friendlier messages; this is the backstop
no path can go around.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings.engine.state import Entry, GameInput
from ratings.models import League

# Games before this year are typing mistakes (and years before 1 or after 9999 break the
# calendar arithmetic of every page that shows them).
EARLIEST_YEAR = 1900


class InvalidGame(ValidationError):
    """A game of a batch was refused; ``index`` is its position in the batch as given."""

    def __init__(self, message: str, *, index: int):
        super().__init__(message)
        self.index = index


def latest_allowed() -> datetime:
    """The latest time a game may be dated: a day ahead, for clocks and time zones that differ."""
    return timezone.now() + timedelta(days=1)


def check_played_at(played_at: datetime | None, latest: datetime | None = None) -> None:
    """The one rule for a game's date, on every path: from 1900 in the club's calendar (its
    time zone, whatever zone ``played_at`` comes in) up to a day from now (``latest``, when a
    caller checking many games has worked it out once)."""
    if played_at is None:
        raise ValidationError(_("When the game was played is missing."))
    if timezone.localtime(played_at, timezone.get_default_timezone()).year < EARLIEST_YEAR:
        raise ValidationError(_("That date is too long ago."))
    if played_at > (latest or latest_allowed()):
        raise ValidationError(_("That date is in the future."))


def check_game(
    league: League,
    played_at: datetime,
    player_ids: Sequence[int],
    latest: datetime | None = None,
) -> None:
    """The rules every game has, whatever its system: its date, seat count, no player twice."""
    low, high = league.rating_system.seats
    if not low <= len(player_ids) <= high:
        if low == high:
            message = _("A game of this league has exactly %(n)d players, not %(got)d.")
        else:
            message = _("A game of this league has %(low)d to %(high)d players, not %(got)d.")
        raise ValidationError(
            message % {"n": low, "low": low, "high": high, "got": len(player_ids)}
        )
    if len(set(player_ids)) != len(player_ids):
        raise ValidationError(_("A player can take only one seat in a game."))
    check_played_at(played_at, latest)


def prepare_game(
    league: League,
    *,
    played_at: datetime,
    entries: Sequence[Entry],
    bula: int | None = None,
    ended_early: bool = False,
) -> GameInput:
    """Check a game against its league's rules and compute its scores.

    Raises ValidationError naming what is wrong.
    """
    player_ids = [entry.player_id for entry in entries]
    check_game(league, played_at, player_ids)
    scores, papers = league.rating_system.scores(entries, bula=bula, ended_early=ended_early)
    return GameInput(
        played_at=played_at,
        bula=bula,
        player_ids=player_ids,
        scores=scores,
        papers=papers,
        ended_early=ended_early,
    )


def prepare_scored_games(
    league: League, games: Iterable[tuple[datetime, list[int], Sequence[float]]]
) -> list[GameInput]:
    """Check many games given as (played_at, player ids, scores), as a file brings them.

    The same rules as :func:`prepare_game` (scores must be finite, and the system's own rules:
    a head-to-head game is a win and a loss or a draw); raises :class:`InvalidGame` with the
    position of the first game refused.
    """
    system = league.rating_system
    low, high = system.seats
    latest = latest_allowed()
    checked_scores = system.checked_scores
    prepared = []
    for index, (played_at, player_ids, scores) in enumerate(games):
        count = len(player_ids)
        try:
            # The common case in one expression (a file brings a hundred thousand games); any
            # doubt goes through check_game for its message. A time in another zone than the
            # club's may show a year one off the club's, so 1900 itself is a doubt.
            if (
                not low <= count <= high
                or len(set(player_ids)) != count
                or played_at.year <= EARLIEST_YEAR
                or played_at > latest
            ):
                check_game(league, played_at, player_ids, latest)
            if len(scores) != count:
                raise ValidationError(_("Every seat needs a score that is a finite number."))
            checked = checked_scores(scores)
        except ValidationError as error:
            raise InvalidGame(" ".join(error.messages), index=index) from error
        prepared.append(
            GameInput(played_at=played_at, bula=None, player_ids=player_ids, scores=checked)
        )
    return prepared
