"""The data of club nights and tournaments: an event, its players present, rounds, tables, seats.

The events own their models: Django is shown them by ``ratings.apps`` (the core's
:mod:`ratings.models` never imports a feature), so use them from here
(``from ratings.events.models import Event``). A table, once played, is linked to exactly one
game of the league (``EventTable.game``), recorded through the engine like any other game:
ratings do not know about events. Nothing here stores a standing or a point: an event's
standings are derived from its games each time they are shown (:mod:`ratings.events.selectors`),
so editing or deleting a game in the admin changes them at once.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ratings.algorithms import event_scoring, seating
from ratings.systems import RatingSystem

# The league, players and games are named as "ratings.<Model>", not imported: ratings.models
# imports this module (Django finds an app's models there), so importing it back would be a cycle.


class DrawMethod(models.TextChoices):
    """How a round's tables are drawn (:func:`ratings.algorithms.seating.draw_round`)."""

    EVERYONE_MEETS = seating.DrawMethod.EVERYONE_MEETS.value, _("Everyone meets everyone")
    RANDOM = seating.DrawMethod.RANDOM.value, _("Random")
    BY_STANDINGS = seating.DrawMethod.BY_STANDINGS.value, _("By standings (leaders together)")


class Scoring(models.TextChoices):
    """How an event's standings count (:mod:`ratings.algorithms.event_scoring`)."""

    TOTAL = event_scoring.Scoring.TOTAL.value, _("Sum of the scores")
    PLACES = event_scoring.Scoring.PLACES.value, _("Points per place at each table")
    PREFERANS_ORG = (
        event_scoring.Scoring.PREFERANS_ORG.value,
        _("preferans.org table (3 or 4, 2 or 1, 0)"),
    )


class EventStatus(models.TextChoices):
    """Where an event stands: planned ahead (members answer whether they come), started (its
    players present are drawn into rounds, until it is closed), or cancelled before it started."""

    PLANNED = "planned", _("planned")
    STARTED = "started", _("started")
    CANCELLED = "cancelled", _("cancelled")


class Answer(models.TextChoices):
    """A member's answer to a night planned ahead."""

    COMING = "coming", _("coming")
    MAYBE = "maybe", _("maybe")
    NO = "no", _("can't come")


class Event(models.Model):
    """A club night or a tournament of one league: rounds of tables drawn from the players
    present. ``rounds_total`` empty means open-ended (the organiser draws until they close it).

    A night planned ahead (:mod:`ratings.events.planning`) has no players present until its
    organiser starts it; members answer whether they come (:class:`EventAnswer`)."""

    # Indexed by event_league_date, which it leads (as each foreign key below that leads a
    # unique constraint is by that constraint's index).
    league = models.ForeignKey(
        "ratings.League",
        verbose_name=_("league"),
        on_delete=models.CASCADE,
        related_name="events",
        db_index=False,
    )
    name = models.CharField(_("name"), max_length=100)
    starts_at = models.DateTimeField(_("starts at"))
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("organiser"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    rounds_total = models.PositiveSmallIntegerField(
        _("rounds"), null=True, blank=True, help_text=_("Empty: open-ended.")
    )
    table_size = models.PositiveSmallIntegerField(_("players per table"))
    # The bula agreed for the night: every table's paper starts with it (a Preferans league).
    bula = models.PositiveIntegerField(_("starting bula"), null=True, blank=True)
    draw_method = models.CharField(
        _("draw"), max_length=20, choices=DrawMethod.choices, default=DrawMethod.EVERYONE_MEETS
    )
    scoring = models.CharField(
        _("scoring"), max_length=20, choices=Scoring.choices, default=Scoring.TOTAL
    )
    # Points for 1st, 2nd, … place at a table, for the "points per place" rule.
    points_per_place = models.JSONField(_("points per place"), default=list, blank=True)
    # The draws' random seed: the same event draws the same tables (tests, a redraw by staff).
    seed = models.PositiveIntegerField(_("draw seed"), default=0)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # Events made before nights were planned ahead were started when made: the default.
    status = models.CharField(
        _("status"), max_length=10, choices=EventStatus.choices, default=EventStatus.STARTED
    )
    place = models.CharField(_("place"), max_length=200, blank=True)
    # The calendar feeds' SEQUENCE (RFC 5545): raised whenever the time, place or status
    # changes, so that a calendar that has the event replaces it (ratings/events/calendar.py).
    sequence = models.PositiveIntegerField(_("calendar sequence"), default=0)

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        permissions = [("run_events", _("Can run club nights and tournaments"))]
        indexes = [models.Index(fields=["league", "starts_at"], name="event_league_date")]
        constraints = [
            models.CheckConstraint(
                condition=Q(table_size__gte=seating.MIN_TABLE_SIZE)
                & Q(table_size__lte=seating.MAX_TABLE_SIZE),
                name="event_table_size_range",
            ),
            models.CheckConstraint(
                condition=Q(rounds_total__isnull=True) | Q(rounds_total__gt=0),
                name="event_rounds_positive",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("ratings:event", args=[self.pk])

    @property
    def rating_system(self) -> RatingSystem:
        return self.league.rating_system

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None

    @property
    def is_planned(self) -> bool:
        return self.status == EventStatus.PLANNED

    @property
    def is_cancelled(self) -> bool:
        return self.status == EventStatus.CANCELLED


class EventAnswer(models.Model):
    """A member's answer to a night planned ahead: coming, maybe, or can't come; one per player
    (the member's linked player), changed by answering again."""

    event = models.ForeignKey(
        Event,
        verbose_name=_("event"),
        on_delete=models.CASCADE,
        related_name="answers",
        db_index=False,
    )
    player = models.ForeignKey(
        "ratings.Player",
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="event_answers",
    )
    answer = models.CharField(_("answer"), max_length=10, choices=Answer.choices)
    answered_at = models.DateTimeField(_("answered at"), auto_now=True)

    class Meta:
        verbose_name = _("answer")
        verbose_name_plural = _("answers")
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="event_answer_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.event}: {self.answer}"


class CalendarFeed(models.Model):
    """A member's private calendar address: the key in its URL, kept hashed (as an API token
    is), so the address is shown once when it is made; revoking deletes the row. It serves the
    member's own nights and, in a private club, the club's and leagues' feeds."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("member"),
        on_delete=models.CASCADE,
        related_name="calendar_feed",
    )
    key_hash = models.CharField(_("key (hashed)"), max_length=64, unique=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("calendar address")
        verbose_name_plural = _("calendar addresses")

    def __str__(self) -> str:
        return f"calendar of {self.user}"


class EventPlayer(models.Model):
    """A player present at an event."""

    event = models.ForeignKey(
        Event,
        verbose_name=_("event"),
        on_delete=models.CASCADE,
        related_name="event_players",
        db_index=False,
    )
    player = models.ForeignKey(
        "ratings.Player",
        verbose_name=_("player"),
        on_delete=models.PROTECT,
        related_name="event_entries",
    )

    class Meta:
        verbose_name = _("player present")
        verbose_name_plural = _("players present")
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="event_player_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.event}"


class EventRound(models.Model):
    """A round of an event: its tables, and the players who sat it out (byes)."""

    event = models.ForeignKey(
        Event,
        verbose_name=_("event"),
        on_delete=models.CASCADE,
        related_name="rounds",
        db_index=False,
    )
    number = models.PositiveSmallIntegerField(_("round"))
    method = models.CharField(_("draw"), max_length=20, choices=DrawMethod.choices)
    byes = models.ManyToManyField(
        "ratings.Player", verbose_name=_("sitting out"), blank=True, related_name="+"
    )
    drawn_at = models.DateTimeField(_("drawn at"), auto_now_add=True)
    # Set when the organiser closes the round (its unplayed tables marked not played), or when
    # the next round is drawn after every table's paper is in.
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="event_round_once"),
        ]

    def __str__(self) -> str:
        return f"{self.event}, round {self.number}"


class EventTable(models.Model):
    """A table of a round: its players in seat order and, once played, its one game."""

    round = models.ForeignKey(
        EventRound,
        verbose_name=_("round"),
        on_delete=models.CASCADE,
        related_name="tables",
        db_index=False,
    )
    number = models.PositiveSmallIntegerField(_("table"))
    # Deleting the game in the admin frees the table: its paper can be entered again.
    game = models.OneToOneField(
        "ratings.Game",
        verbose_name=_("game"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="event_table",
    )
    not_played = models.BooleanField(_("not played"), default=False)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="event_table_once"),
            models.CheckConstraint(
                condition=Q(game__isnull=True) | Q(not_played=False),
                name="event_table_played_or_not",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round}, table {self.number}"

    def get_absolute_url(self) -> str:
        return reverse("ratings:event_table", args=[self.pk])

    @property
    def is_in(self) -> bool:
        """Whether the table's paper is in (its game recorded)."""
        return self.game_id is not None

    @property
    def is_open(self) -> bool:
        """Whether the table waits for its paper (reads the round's event: select it)."""
        return self.game_id is None and not self.not_played and not self.round.event.is_closed


class TableSeat(models.Model):
    """A player's seat at a table, as drawn (seat 0 is seat 1 on the pages, as for results)."""

    table = models.ForeignKey(
        EventTable,
        verbose_name=_("table"),
        on_delete=models.CASCADE,
        related_name="seats",
        db_index=False,
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(
        "ratings.Player",
        verbose_name=_("player"),
        on_delete=models.PROTECT,
        related_name="event_seats",
    )

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="table_seat_once"),
            models.UniqueConstraint(fields=["table", "player"], name="table_player_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in seat {self.seat + 1} of {self.table}"
