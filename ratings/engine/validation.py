"""The one validator: every game that reaches the ratings passes :func:`prepare_game` (forms,
admin, restore of a deleted game, commands) or :func:`check_game` (bulk imports, which have
scores already), and both ask the league's rating system for its own rules.

The forms check the same things field by field with friendlier messages; this is the backstop
no path can go around.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ratings import dates
from ratings.engine.state import Entry, GameInput
from ratings.models import League, Player

# The date rule is ratings.dates.GAME (events and restore take theirs from there too).
EARLIEST_YEAR = dates.EARLIEST_YEAR


class InvalidGame(ValidationError):
    """A game of a batch was refused; ``index`` is its position in the batch as given."""

    def __init__(self, message: str, *, index: int):
        super().__init__(message)
        self.index = index


def latest_allowed() -> datetime:
    """The latest time a game may be dated: a day ahead, for clocks and time zones that differ."""
    return dates.GAME.latest()


def check_played_at(played_at: datetime | None, latest: datetime | None = None) -> None:
    """The one rule for a game's date, on every path (:data:`ratings.dates.GAME`): from 1900 in
    the club's calendar (its time zone, whatever zone ``played_at`` comes in) up to a day from
    now (``latest``, when a caller checking many games has worked it out once)."""
    dates.GAME.check(played_at, latest)


def game_refusal(
    seats: tuple[int, int],
    played_at: datetime,
    player_ids: Sequence[int],
    latest: datetime | None = None,
) -> str | None:
    """The rules every game has, whatever its system, as one predicate: why a game of a league
    seating ``seats`` (low, high) is refused, or None. :func:`check_game` raises its answer, and
    :func:`prepare_scored_games` asks it of every imported game, so no path has its own copy."""
    low, high = seats
    count = len(player_ids)
    if not low <= count <= high:
        if low == high:
            message = ngettext(
                "A game of this league has exactly %(n)d player, not %(got)d.",
                "A game of this league has exactly %(n)d players, not %(got)d.",
                low,
            )
        else:
            message = ngettext(
                "A game of this league has %(low)d to %(high)d player, not %(got)d.",
                "A game of this league has %(low)d to %(high)d players, not %(got)d.",
                high,
            )
        return message % {"n": low, "low": low, "high": high, "got": count}
    if len(set(player_ids)) != count:
        return _("A player can take only one seat in a game.")
    return dates.GAME.refusal(played_at, latest)


def check_game(
    league: League,
    played_at: datetime,
    player_ids: Sequence[int],
    latest: datetime | None = None,
) -> None:
    """The rules every game has, whatever its system: its date, seat count, no player twice."""
    message = game_refusal(league.rating_system.seats, played_at, player_ids, latest)
    if message is not None:
        raise ValidationError(message)


def birth_refusal(
    played_at: datetime, player_ids: Sequence[int], born: dict[int, date]
) -> str | None:
    """Why a game is refused by its players' birth dates (``born``, by player id): a game
    cannot be played before a player was born (FIDE counts their age from the birth date, and
    the admin would then refuse to save the player at all). None if it is not."""
    day = None
    for player_id in player_ids:
        birth = born.get(player_id)
        if birth is None:
            continue
        day = day or timezone.localdate(played_at)
        if day < birth:
            return _("A player of this game was born on %(born)s, after the day of the game.") % {
                "born": birth.isoformat()
            }
    return None


def birth_dates(player_ids) -> dict[int, date]:
    """The birth dates the club knows of these players, by id."""
    return dict(
        Player.objects.filter(pk__in=set(player_ids), birth_date__isnull=False).values_list(
            "pk", "birth_date"
        )
    )


def check_births(played_at: datetime, player_ids: Sequence[int]) -> None:
    """Raise ValidationError if a player of the game was born after it (:func:`birth_refusal`)."""
    message = birth_refusal(played_at, player_ids, birth_dates(player_ids))
    if message is not None:
        raise ValidationError(message)


def prepare_game(
    league: League,
    *,
    played_at: datetime,
    entries: Sequence[Entry],
    bula: int | None = None,
    ended_early: bool = False,
    note: str = "",
) -> GameInput:
    """Check a game against its league's rules and compute its scores; ``note`` is carried
    along for :func:`ratings.engine.resubmitted`.

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
        note=note,
    )


def prepare_scored_games(
    league: League,
    games: Iterable[tuple[datetime, list[int], Sequence[float]]],
    *,
    born: dict[int, date],
) -> list[GameInput]:
    """Check many games given as (played_at, player ids, scores), as a file brings them.

    The same rules as :func:`prepare_game` (scores must be finite, and the system's own rules:
    a head-to-head game is a win and a loss or a draw, and no player born after the game:
    ``born`` holds the players' :func:`birth_dates`, read once); raises :class:`InvalidGame` with
    the position of the first game refused.
    """
    games = list(games)
    system = league.rating_system
    seats = system.seats
    latest = latest_allowed()
    # Every game's scores at once where the system's rule allows (a file's hundred thousand
    # games in a few passes in C); else, or when a score is refused, each game's on its own,
    # which says which game and why.
    checked_at_once = system.checked_scores_of_games([scores for _at, _ids, scores in games])
    checked_scores = system.checked_scores
    prepared = []
    for index, (played_at, player_ids, scores) in enumerate(games):
        try:
            # The very predicate check_game raises (looked up here, not copied), then the
            # system's own score rule.
            message = game_refusal(seats, played_at, player_ids, latest)
            if message is None and born:
                message = birth_refusal(played_at, player_ids, born)
            if message is not None:
                raise ValidationError(message)
            if len(scores) != len(player_ids):
                raise ValidationError(_("Every seat needs a score that is a finite number."))
            checked = checked_scores(scores) if checked_at_once is None else checked_at_once[index]
        except ValidationError as error:
            raise InvalidGame(" ".join(error.messages), index=index) from error
        # Positional (played_at, bula, player_ids, scores): a file's hundred thousand games
        # are made faster so than by keywords.
        prepared.append(GameInput(played_at, None, player_ids, checked))
    return prepared
