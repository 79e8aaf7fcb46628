"""The one rule for each kind of moment the club keeps, in the club's calendar (``TIME_ZONE``).

- A game (:data:`GAME`): from 1900 up to a day from now, for clocks and time zones that differ.
- An event's start (:data:`EVENT`): from 1900 up to two years ahead: a club schedules its nights
  in advance, but a year such as 9999 is a typing mistake (and 9999-12-31 23:59 west of UTC is
  year 10000 in UTC, which the database stores and then cannot read back).
- Anything else recorded (:data:`RECORDED`: when a row was created, closed, logged in): the
  game's bounds, since it happened.
- When an invitation's link expires (:data:`INVITATION_EXPIRY`): up to a day more than the
  :data:`INVITATION_DAYS` a link is good for.
- A season (:func:`season_start`, :func:`season_of`): a calendar year in the club's time zone,
  from 1 January at midnight to the next; the season tables the engine keeps and the periods of
  the leaderboard both count years this way.

Every path takes its rule from here: the engine and the game forms, the event service, the
organiser's form and the admin, and restore_club (a backup holds what the live rules took, no
more, no less). Django only: no import from the rest of the project.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo
from functools import cache

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

# Moments before this year in the club's calendar are typing mistakes (years before 1 or after
# 9999 also break the calendar arithmetic of every page that shows them).
EARLIEST_YEAR = 1900


def earliest() -> datetime:
    """The first moment of EARLIEST_YEAR in the club's time zone (given in UTC)."""
    return _earliest_in(timezone.get_default_timezone())


@cache
def _earliest_in(zone: tzinfo) -> datetime:
    # In UTC, as the times the club keeps are: comparing two times in one zone looks up no
    # offset, and an import compares a hundred thousand.
    return datetime(EARLIEST_YEAR, 1, 1, tzinfo=zone).astimezone(UTC)


@dataclass(frozen=True)
class MomentRule:
    """A range of moments: from 1900 in the club's calendar to ``ahead`` from now."""

    ahead: timedelta
    # How the upper bound reads in restore_club's messages ("tomorrow").
    until: str
    missing: Promise
    too_early: Promise
    too_late: Promise

    def latest(self) -> datetime:
        return timezone.now() + self.ahead

    def refusal(self, moment: datetime | None, latest: datetime | None = None) -> str | None:
        """Why ``moment`` is refused, or None (``latest``: the bound when a caller checking
        many moments worked it out once)."""
        if moment is None:
            return str(self.missing)
        try:
            if moment < earliest():
                return str(self.too_early)
        except OverflowError:  # year 1 east of UTC: before year 1 in UTC
            return str(self.too_early)
        if moment > (latest or self.latest()):
            return str(self.too_late)
        return None

    def check(self, moment: datetime | None, latest: datetime | None = None) -> None:
        """Raise ValidationError naming the problem, if ``moment`` is refused."""
        message = self.refusal(moment, latest)
        if message is not None:
            raise ValidationError(message)


GAME = MomentRule(
    ahead=timedelta(days=1),
    until="tomorrow",
    missing=_("When the game was played is missing."),
    too_early=_("That date is too long ago."),
    too_late=_("That date is in the future."),
)
EVENT = MomentRule(
    # Two years of nights planned ahead (leap days included).
    ahead=timedelta(days=2 * 366),
    until="two years ahead",
    missing=_("When the event starts is missing."),
    too_early=_("An event cannot start before 1900."),
    too_late=_("An event cannot start more than two years ahead."),
)
RECORDED = MomentRule(
    ahead=GAME.ahead,
    until=GAME.until,
    missing=GAME.missing,
    too_early=_("That date is too long ago."),
    too_late=_("That date is in the future."),
)

# How long an invitation's link stays good (ratings.accounts), and the rule of when it expires:
# up to that many days ahead, with a day's room for a link made at the end of a day.
INVITATION_DAYS = 7
INVITATION_EXPIRY = MomentRule(
    ahead=timedelta(days=INVITATION_DAYS + 1),
    until=f"{INVITATION_DAYS + 1} days ahead",
    missing=RECORDED.missing,
    too_early=RECORDED.too_early,
    too_late=RECORDED.too_late,
)

# The rule of each date-and-time field that has its own, by "app_label.model.field"; every other
# one follows RECORDED.
FIELD_RULES = {
    "ratings.game.played_at": GAME,
    "ratings.event.starts_at": EVENT,
    "ratings.invitation.expires_at": INVITATION_EXPIRY,
}


def rule_for(label: str) -> MomentRule:
    """The rule of a date-and-time field named "app_label.model.field"."""
    return FIELD_RULES.get(label, RECORDED)


def season_start(year: int) -> datetime:
    """When a season (a calendar year in the club's time zone) starts: 1 January at midnight."""
    return timezone.make_aware(datetime(year, 1, 1))


def season_of(moment: datetime) -> int:
    """The season (the year in the club's time zone) a moment falls in."""
    return seasons_of()(moment)


def seasons_of() -> Callable[[datetime], int]:
    """:func:`season_of` for many moments (an import's games): the zone is looked up once, not
    once a game."""
    zone = timezone.get_current_timezone()
    return lambda moment: moment.astimezone(zone).year


def earliest_day() -> date:
    """The first day a date (a birth date) may be."""
    return date(EARLIEST_YEAR, 1, 1)
