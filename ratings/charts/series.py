"""A chart's series: its points (a game's time, rating, link and tooltip) and corrections."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import NamedTuple, Protocol, overload

from django.urls import reverse
from django.utils import timezone
from django.utils.html import conditional_escape, format_html
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from ratings.formatting import change_text, date_text, rating_text
from ratings.links import url_maker


class ChartPoint(NamedTuple):
    """One game on a series: when it was played (a datetime, or seconds since 1970 as the
    history reads give it: a chart needs only the number), the rating after it, its page and
    tooltip."""

    when: datetime | float
    rating: float
    url: str
    title: str


@dataclass(frozen=True, slots=True)
class ChartSeries:
    """One league's rating history, oldest point first; ``corrections`` are the moments a
    correction by staff moved the rating without a game (drawn as hollow diamonds, off the
    line: the line is the games as they stand now)."""

    label: str
    points: Sequence[ChartPoint]
    corrections: Sequence[ChartPoint] = ()


def point_title(
    when: datetime | float,
    rating: float,
    change: float | None = None,
    places: int = 0,
    *,
    days: Days | None = None,
) -> str:
    """A marker's tooltip: "March 12, 2026: 1173 (−27)", in the active language.

    The rating and the change read exactly as in the page's tables (:mod:`ratings.formatting`),
    with the system's decimals (an OpenSkill ordinal: "12.4 (+0.8)"), a change that rounds to
    zero included: "(0)". ``days`` writes the day: the one a series' tooltips share.
    """
    text = f"{(days or Days()).text(when)}: {rating_text(rating, places)}"
    if change is not None:
        text += f" ({change_text(change, places)})"
    return text


class PointTitle:
    """A chart point's tooltip, formatted only if the chart draws that point as a marker.

    The chart shows titles on its sampled markers (at most a few hundred): formatting the dates
    of thousands of games up front, or wrapping each in Django's lazy proxy, would cost more than
    the rest of the page together.
    """

    __slots__ = ("_text", "change", "days", "places", "rating", "when")

    def __init__(
        self, when, rating: float, change: float, places: int, days: Days | None = None
    ) -> None:
        self.when, self.rating, self.change, self.places = when, rating, change, places
        self.days = days
        self._text: str | None = None

    def __str__(self) -> str:
        # Once: the phone's and the wide screen's drawings mark many of the same points.
        if self._text is None:
            self._text = point_title(
                self.when, self.rating, self.change, self.places, days=self.days
            )
        return self._text


class RatedGame(Protocol):
    """A game in a player's rating history, as the history reads give it (``at``: when it was
    played, in seconds since 1970)."""

    game_id: int
    at: float
    rating_after: float
    change: float


class Correction(Protocol):
    """A correction that moved a player's rating, as the history reads give it."""

    at: datetime
    game_played_at: datetime | None
    rating: float
    change: float


class GamePoints(Sequence[ChartPoint]):
    """A player's games as a series' points, with the two columns the line is drawn from
    (``times`` in seconds since 1970, ``ratings``): a point, with its link and tooltip, is made
    only when asked for, and the chart asks only for the points it marks (a few dozen of a
    history of thousands); once, as the two layouts mark many of the same points."""

    __slots__ = ("_days", "_made", "_url", "games", "places", "ratings", "times")

    def __init__(
        self,
        games: Sequence[RatedGame],
        places: int = 0,
        times: Sequence[float] | None = None,
        ratings: Sequence[float] | None = None,
    ) -> None:
        self.games, self.places = games, places
        self.times = [game.at for game in games] if times is None else times
        self.ratings = [game.rating_after for game in games] if ratings is None else ratings
        self._url = url_maker("ratings:game")
        self._days = Days()
        self._made: dict[int, ChartPoint] = {}

    def __len__(self) -> int:
        return len(self.times)

    @overload
    def __getitem__(self, index: int) -> ChartPoint: ...
    @overload
    def __getitem__(self, index: slice) -> list[ChartPoint]: ...
    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        index = range(len(self))[index]  # a negative index counts from the end
        point = self._made.get(index)
        if point is None:
            game = self.games[index]
            point = self._made[index] = ChartPoint(
                game.at,
                game.rating_after,
                self._url(game.game_id),
                PointTitle(game.at, game.rating_after, game.change, self.places, self._days),
            )
        return point


def point_columns(points: Sequence[ChartPoint]) -> tuple[Sequence[float], Sequence[float]]:
    """A series' times (seconds since 1970) and ratings, oldest first."""
    if isinstance(points, GamePoints):
        return points.times, points.ratings
    return [seconds(p.when) for p in points], [p.rating for p in points]


def correction_text(correction: Correction, places: int = 0, *, linked: bool = False) -> str:
    """A correction's line in a player's history, in the active language: "Re-rated after a
    correction to the game of March 1, 2026: +2" (the game edited, deleted or restored), the
    change with the system's decimals (``places``). ``linked``: HTML, "the game of …" a link to
    the game while it exists (a player may play several games a day)."""
    change = change_text(correction.change, places)
    if correction.game_played_at is None:
        text = _("Re-rated after two players were merged: %(change)s") % {"change": change}
        return conditional_escape(text) if linked else text
    game = _("the game of %(date)s") % {"date": day_text(correction.game_played_at)}
    game_id = getattr(correction, "game_id", None)
    if linked:
        if game_id is not None:
            game = format_html('<a href="{}">{}</a>', reverse("ratings:game", args=[game_id]), game)
        line = _("Re-rated after a correction to %(game)s: %(change)s")
        return format_html(
            conditional_escape(line)
            .replace("{", "{{")
            .replace("}", "}}")
            .replace("%(game)s", "{game}")
            .replace("%(change)s", "{change}"),
            game=game,
            change=change,
        )
    return _("Re-rated after a correction to %(game)s: %(change)s") % {
        "game": game,
        "change": change,
    }


def history_series(
    label: str,
    games: Iterable[RatedGame],
    places: int = 0,
    corrections: Iterable[Correction] = (),
) -> ChartSeries:
    """A player's rating history in one league as a series: a point per game, oldest first,
    each linked to its game's page, and a point per correction that moved their rating;
    ``places`` is the system's decimals for a rating. A history read as columns (``times`` and
    ``ratings_after``, as :class:`~ratings.selectors.RatingLine` holds them) is drawn from them
    as it is."""
    games = games if isinstance(games, Sequence) else list(games)
    return ChartSeries(
        label,
        GamePoints(
            games,
            places,
            getattr(games, "times", None),
            getattr(games, "ratings_after", None),
        ),
        [
            ChartPoint(
                correction.at,
                correction.rating,
                "",
                f"{day_text(correction.at)}: {correction_text(correction, places)}",
            )
            for correction in corrections
        ],
    )


def seconds(when: datetime | float) -> float:
    """A point's time in seconds since 1970."""
    return when.timestamp() if type(when) is datetime else when


def moment(when: datetime | float) -> datetime:
    """A point's time as a datetime (seconds since 1970 are a moment in UTC)."""
    return when if isinstance(when, datetime) else datetime.fromtimestamp(when, UTC)


def local(when: datetime | float, zone: tzinfo | None = None) -> datetime:
    """A point's time in ``zone``, the current time zone by default (as it was, when naive)."""
    when = moment(when)
    return timezone.localtime(when, zone) if timezone.is_aware(when) else when


def day_text(when: datetime | float) -> str:
    """A point's day in the active language's date format ("March 12, 2026")."""
    return Days().text(when)


class Days:
    """Points' days as text ("March 12, 2026"), in the time zone and language active when the
    first is written. A series' tooltips share one, so both are looked up once, not per tooltip:
    each lookup (a thread-local, through asgiref) costs more than the day's text, which comes
    from a cache. (A tooltip is written once and kept: the first one fixed them before too.)"""

    __slots__ = ("_where",)

    def __init__(self) -> None:
        self._where: tuple[tzinfo, str | None] | None = None

    def text(self, when: datetime | float) -> str:
        """``when``'s day where it was played (as it was, when naive)."""
        if self._where is None:
            self._where = timezone.get_current_timezone(), get_language()
        zone, language = self._where
        return date_text(local(when, zone).date(), language)
