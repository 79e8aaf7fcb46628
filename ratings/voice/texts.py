"""What the voice says: a game, a drawn round, a night's standings, a night planned, moved or
cancelled, the day-before reminder and the weekly digest as a short title and text with a link,
in the league's language. Reads only."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.conf import settings
from django.db.models import Count, F, Sum
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ratings.events.models import Event, EventRound, EventStatus
from ratings.events.selectors import event_standings
from ratings.formatting import change_text, date_text, number_text, rating_text, when_text
from ratings.models import Game, League, Result


@dataclass(frozen=True)
class Text:
    title: str
    body: str


def league_language(league: League) -> str:
    """The language a league's posts are written in. A league has no language of its own yet:
    the club's (LANGUAGE_CODE), whatever the language of whoever caused the post."""
    return settings.LANGUAGE_CODE


def absolute(path: str) -> str:
    """A page's address for a chat or an email, which no request is there to build: the
    club's public address (SITE_URL) before the path."""
    return settings.SITE_URL.rstrip("/") + path


def game_text(game: Game) -> Text:
    """A game that counts: each player best place first, with the final score and the rating
    change, and the game's page."""
    league = game.league
    system = league.rating_system
    places = system.rating_places
    results = Result.objects.filter(game=game).select_related("player").order_by("place", "seat")
    with translation.override(league_language(league)):
        lines = [
            _("%(place)d. %(name)s: %(score)s, rating %(rating)s (%(change)s)")
            % {
                "place": result.place,
                "name": result.player.name,
                "score": system.score_text(result.score),
                "rating": rating_text(result.rating_after, places),
                "change": change_text(result.rating_after - result.rating_before, places),
            }
            for result in results
        ]
        title = _("%(league)s: a game of %(when)s") % {
            "league": league.name,
            "when": when_text(timezone.localtime(game.played_at)),
        }
        return Text(title, "\n".join([*lines, absolute(game.get_absolute_url())]))


def round_text(event_round: EventRound) -> Text:
    """A round just drawn: its tables, who sits out, and the night's page."""
    event = event_round.event
    tables = event_round.tables.order_by("number").prefetch_related("seats__player")
    byes = [player.name for player in event_round.byes.order_by("name")]
    with translation.override(league_language(event.league)):
        lines = [
            _("Table %(n)d: %(players)s")
            % {
                "n": table.number,
                "players": ", ".join(
                    seat.player.name for seat in sorted(table.seats.all(), key=lambda s: s.seat)
                ),
            }
            for table in tables
        ]
        if byes:
            lines.append(_("Sitting out: %(players)s") % {"players": ", ".join(byes)})
        title = _("%(event)s: round %(n)d drawn") % {
            "event": event.name,
            "n": event_round.number,
        }
        return Text(title, "\n".join([*lines, absolute(event.get_absolute_url())]))


def standings_text(event: Event) -> Text:
    """A night's final standings, and its page."""
    rows = [row for row in event_standings(event) if row.place is not None]
    places = event.league.rating_system.rating_places
    with translation.override(league_language(event.league)):
        lines = [
            _("%(place)d. %(name)s: points %(points)s, rating %(change)s")
            % {
                "place": row.place,
                "name": row.player.name,
                "points": number_text(row.points),
                "change": change_text(row.rating_change, places),
            }
            for row in rows
        ]
        title = _("%(event)s: final standings") % {"event": event.name}
        return Text(title, "\n".join([*lines, absolute(event.get_absolute_url())]))


# Nights planned ahead ---------------------------------------------------------------------------


def _where(event: Event) -> list[str]:
    return [_("Where: %(place)s") % {"place": event.place}] if event.place else []


def night_text(event: Event, change: str) -> Text:
    """A night ``planned``, ``moved`` (its new time and place) or ``cancelled``, and its page."""
    url = absolute(event.get_absolute_url())
    with translation.override(league_language(event.league)):
        values = {"event": event.name, "when": when_text(timezone.localtime(event.starts_at))}
        if change == "cancelled":
            return Text(_("%(event)s of %(when)s is cancelled") % values, url)
        if change == "moved":
            title = _("%(event)s is moved to %(when)s") % values
            return Text(title, "\n".join([*_where(event), url]))
        title = _("%(event)s is planned for %(when)s") % values
        lines = [
            *_where(event),
            _("Will you come? Answer on the night's page: %(url)s") % {"url": url},
        ]
        return Text(title, "\n".join(lines))


def reminder_text(reminder) -> Text:
    """The day-before reminder of a night (a :class:`ratings.events.planning.Reminder`): its
    time and place, who is coming and who may come, and its page."""
    event = reminder.event
    with translation.override(league_language(event.league)):
        title = _("Tomorrow: %(event)s, %(when)s") % {
            "event": event.name,
            "when": when_text(timezone.localtime(event.starts_at)),
        }
        lines = _where(event)
        if reminder.coming:
            lines.append(
                _("Coming: %(players)s") % {"players": ", ".join(p.name for p in reminder.coming)}
            )
        else:
            lines.append(_("Nobody has said they are coming yet."))
        if reminder.maybe:
            lines.append(
                _("Maybe: %(players)s") % {"players": ", ".join(p.name for p in reminder.maybe)}
            )
        lines.append(absolute(event.get_absolute_url()))
        return Text(title, "\n".join(lines))


# The weekly digest ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Mover:
    name: str
    change: float


def week_results(league_ids, start: datetime, end: datetime):
    return Result.objects.filter(league_id__in=league_ids, played_at__gte=start, played_at__lt=end)


def top_movers(league: League, start: datetime, end: datetime, count: int = 3) -> list[Mover]:
    """The league's players whose rating improved most over the week, best first (a lower
    rating is the better one in some systems: their improvement is a fall)."""
    rows = (
        week_results([league.pk], start, end)
        .values("player__name")
        .annotate(change=Sum(F("rating_after") - F("rating_before")))
    )
    sign = -1 if league.rating_system.lower_is_better else 1
    movers = sorted(
        (Mover(row["player__name"], row["change"]) for row in rows),
        key=lambda mover: (-sign * mover.change, mover.name),
    )
    return [mover for mover in movers if sign * mover.change > 0][:count]


def next_night(league: League) -> Event | None:
    """The league's next planned night (planned ahead, not started or cancelled) still to
    come."""
    return (
        Event.objects.filter(
            league=league, status=EventStatus.PLANNED, starts_at__gt=timezone.now()
        )
        .order_by("starts_at", "pk")
        .first()
    )


def movers_line(league: League, movers: list[Mover]) -> str:
    places = league.rating_system.rating_places
    return _("Top movers: %(movers)s") % {
        "movers": ", ".join(f"{m.name} {change_text(m.change, places)}" for m in movers)
    }


def night_line(event: Event) -> str:
    return _("Next night: %(name)s, %(when)s %(url)s") % {
        "name": event.name,
        "when": when_text(timezone.localtime(event.starts_at)),
        "url": absolute(event.get_absolute_url()),
    }


def league_digest_text(league: League, start: datetime, end: datetime) -> Text | None:
    """A league's week for its chat: games played, top movers, the next night; None for a
    week with nothing to say."""
    games = Game.objects.filter(league=league, played_at__gte=start, played_at__lt=end).count()
    night = next_night(league)
    if not games and night is None:
        return None
    with translation.override(league_language(league)):
        lines = [
            ngettext("%(n)s game this week.", "%(n)s games this week.", games)
            % {"n": number_text(games)},
        ]
        movers = top_movers(league, start, end)
        if movers:
            lines.append(movers_line(league, movers))
        if night is not None:
            lines.append(night_line(night))
        lines.append(absolute(league.get_absolute_url()))
        title = _("%(league)s: the week from %(day)s") % {
            "league": league.name,
            "day": date_text(start.date() if isinstance(start, datetime) else start),
        }
        return Text(title, "\n".join(lines))


def league_week_lines(league: League, start: datetime, end: datetime) -> list[str]:
    """A league's lines under a member's own in the digest: its top movers, its next night and
    its page (the same for every member: digest_send keeps them for the run)."""
    lines = []
    movers = top_movers(league, start, end)
    if movers:
        lines.append(movers_line(league, movers))
    night = next_night(league)
    if night is not None:
        lines.append(night_line(night))
    return [*lines, absolute(league.get_absolute_url())]


def member_digest_text(
    player_id: int | None,
    week: date,
    start: datetime,
    end: datetime,
    unsubscribe_url: str,
    league_lines: dict[int, list[str]] | None = None,
) -> Text | None:
    """A member's week by email: their games and rating changes per league, each of those
    leagues' top movers and next night; None when they played no game that week.
    ``league_lines`` keeps each league's lines across the members of one run."""
    league_lines = {} if league_lines is None else league_lines
    if player_id is None:
        return None
    own = list(
        Result.objects.filter(player_id=player_id, played_at__gte=start, played_at__lt=end)
        .values("league_id")
        .annotate(games=Count("pk"), change=Sum(F("rating_after") - F("rating_before")))
        .order_by("league_id")
    )
    if not own:
        return None
    leagues = League.objects.in_bulk([row["league_id"] for row in own])
    lines: list[str] = []
    for row in own:
        league = leagues[row["league_id"]]
        places = league.rating_system.rating_places
        lines.append(
            ngettext(
                "%(league)s: %(games)s game, rating %(change)s",
                "%(league)s: %(games)s games, rating %(change)s",
                row["games"],
            )
            % {
                "league": league.name,
                "games": number_text(row["games"]),
                "change": change_text(row["change"], places),
            }
        )
        if league.pk not in league_lines:
            league_lines[league.pk] = league_week_lines(league, start, end)
        lines += ["  " + line for line in league_lines[league.pk]]
    lines += ["", _("Stop these emails: %(url)s") % {"url": unsubscribe_url}]
    title = _("Your week at %(club)s from %(day)s") % {
        "club": settings.CLUB_NAME,
        "day": date_text(week),
    }
    return Text(title, "\n".join(lines))
