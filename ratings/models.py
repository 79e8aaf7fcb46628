"""The club's data: leagues, games, each player's result in a game, and standings; and, defined
in their own modules and imported here, the players (:mod:`ratings.player_models`) and club
nights and tournaments (:mod:`ratings.events.models`).

Ratings are written only by :mod:`ratings.engine`; nothing here computes one. A game's results
carry the rating before and after, so history is read without replaying it, and a
:class:`Standing` holds each player's current state in a league, so the leaderboard is one query.
"""

from __future__ import annotations

import math
import uuid
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ratings.player_models import Player, PlayerAlias
from ratings.systems import Kind, RatingSystem, Speed, System, rating_system

__all__ = ["Kind", "Speed", "System"]  # defined with the systems, kept importable from here
# Players: their own module, models of this app all the same (Django finds an app's models in its
# models module, so they are imported here, like the events' below; use them from here).
__all__ += ["Player", "PlayerAlias"]


class League(models.Model):
    name = models.CharField(_("name"), max_length=80, unique=True)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    system = models.CharField(_("rating system"), max_length=24, choices=System.choices)
    start_rating = models.FloatField(
        _("start rating"), default=1000, help_text=_("Every new player's first rating.")
    )
    elo_k = models.PositiveSmallIntegerField(
        _("K-factor"), default=32, help_text=_("Classic Elo only: the most a game can move.")
    )
    speed = models.CharField(
        _("speed"),
        max_length=10,
        choices=Speed.choices,
        default=Speed.STANDARD,
        help_text=_("FIDE only: rapid and blitz games use K = 20."),
    )
    game_name = models.CharField(
        _("game name"), max_length=80, blank=True, help_text=_("e.g. Hearts; used in rayter files.")
    )
    description = models.TextField(_("description"), blank=True)
    provisional_games = models.PositiveSmallIntegerField(
        _("provisional until"),
        null=True,
        blank=True,
        help_text=_(
            "Players with fewer games are listed after the ranked ones, unranked. Empty: the "
            "system's default (10 games for Preferans and scored games, 0 for head-to-head)."
        ),
    )
    inactive_days = models.PositiveSmallIntegerField(
        _("inactive after (days)"),
        null=True,
        blank=True,
        help_text=_(
            "Players without a game for this many days are hidden from the ranking (a toggle "
            "shows them). Empty: never."
        ),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        constraints = [
            models.CheckConstraint(condition=Q(elo_k__gt=0), name="league_elo_k_positive"),
            models.CheckConstraint(
                condition=Q(system__in=System.values), name="league_system_known"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("ratings:leaderboard", args=[self.slug])

    def clean(self) -> None:
        if self.start_rating is None or not math.isfinite(self.start_rating):
            raise ValidationError({"start_rating": _("The start rating must be a finite number.")})
        if self.integer_ratings and self.start_rating != int(self.start_rating):
            raise ValidationError(
                {"start_rating": _("This rating system uses whole numbers: use a whole number.")}
            )

    @property
    def rating_system(self) -> RatingSystem:
        """The object that knows this league's rules: ask it, do not compare system codes."""
        return rating_system(self.system)

    # Shortcuts to the system, for templates and queries that read the league.

    @property
    def kind(self) -> Kind:
        return self.rating_system.kind

    @property
    def lower_is_better(self) -> bool:
        """prefko ratings fall when a player wins: there a LOWER rating is better."""
        return self.rating_system.lower_is_better

    @property
    def integer_ratings(self) -> bool:
        return self.rating_system.integer_ratings

    @property
    def provisional_until(self) -> int:
        """Players with fewer games than this are provisional (0: nobody is)."""
        if self.provisional_games is None:
            return self.rating_system.default_provisional_games
        return self.provisional_games

    @property
    def has_thresholds(self) -> bool:
        return bool(self.provisional_until or self.inactive_days)

    def inactive_before(self, now=None):
        """Players whose last game is before this moment are inactive (None: nobody is)."""
        if not self.inactive_days:
            return None
        return (now or timezone.now()) - timedelta(days=self.inactive_days)


class GameQuerySet(models.QuerySet):
    def chronological(self) -> GameQuerySet:
        """Rating order: when played, then the order of entry."""
        return self.order_by("played_at", "id")

    def newest_first(self) -> GameQuerySet:
        return self.order_by("-played_at", "-id")


class Game(models.Model):
    # Indexed by game_league_order below; a separate FK index would only slow writes.
    league = models.ForeignKey(
        League,
        verbose_name=_("league"),
        on_delete=models.CASCADE,
        related_name="games",
        db_index=False,
    )
    played_at = models.DateTimeField(_("played at"))
    bula = models.PositiveIntegerField(
        _("starting bula"), null=True, blank=True, help_text=_("Preferans only.")
    )
    ended_early = models.BooleanField(
        _("ended early"),
        default=False,
        help_text=_("The bulas did not add up to zero: a time limit, or written-off bula."),
    )
    note = models.CharField(_("note"), max_length=200, blank=True)
    # Indexed by game_entered_by below, which leaves out the games nobody entered (a file's).
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_index=False,
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    # The form's one-time token: a second POST of the same form finds the game already recorded
    # (unique by game_submission_once, among the games that have one).
    submission_key = models.UUIDField(_("submission key"), null=True, blank=True, editable=False)

    objects = GameQuerySet.as_manager()

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        # The two partial indexes hold only the games entered through a form: a file's games,
        # a hundred thousand at a time, have neither a user nor a submission key, and an index
        # of them would be written for nothing.
        indexes = [
            models.Index(fields=["league", "played_at", "id"], name="game_league_order"),
            models.Index(
                fields=["entered_by"],
                condition=Q(entered_by__isnull=False),
                name="game_entered_by",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(bula__isnull=True) | Q(bula__gt=0), name="game_bula_positive"
            ),
            models.UniqueConstraint(
                fields=["submission_key"],
                condition=Q(submission_key__isnull=False),
                name="game_submission_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.league} #{self.pk} ({self.played_at:%Y-%m-%d %H:%M})"

    def get_absolute_url(self) -> str:
        return reverse("ratings:game", args=[self.pk])

    @property
    def order_key(self) -> tuple:
        return (self.played_at, self.pk)


class Result(models.Model):
    """One player's part in one game, with the ratings the engine gave them."""

    # Both foreign keys lead a unique index: the player result_player_once's (player, game),
    # which serves a player's history and keeps a player to one seat a game; the game
    # result_seat_once's (game, seat), which serves a game's results. A third index, on
    # (game, player), would hold the same rule again and cost every result written.
    game = models.ForeignKey(
        Game,
        verbose_name=_("game"),
        on_delete=models.CASCADE,
        related_name="results",
        db_index=False,
    )
    player = models.ForeignKey(
        Player,
        verbose_name=_("player"),
        on_delete=models.PROTECT,
        related_name="results",
        db_index=False,
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    # The Preferans paper, as written: points against the previous seat, bula, against the next.
    left = models.PositiveIntegerField(_("left"), null=True, blank=True)
    middle = models.IntegerField(_("middle"), null=True, blank=True)
    right = models.PositiveIntegerField(_("right"), null=True, blank=True)
    # Preferans final score, points of a scored game, or 1 / 0.5 / 0 in a head-to-head game.
    score = models.FloatField(_("score"))
    rating_before = models.FloatField(_("rating before"))
    rating_after = models.FloatField(_("rating after"))

    class Meta:
        verbose_name = _("result")
        verbose_name_plural = _("results")
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="result_player_once"),
            models.UniqueConstraint(fields=["game", "seat"], name="result_seat_once"),
            models.CheckConstraint(
                condition=(
                    Q(left__isnull=True, middle__isnull=True, right__isnull=True)
                    | Q(left__isnull=False, middle__isnull=False, right__isnull=False)
                ),
                name="result_paper_complete",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in game {self.game_id}"

    @property
    def change(self) -> float:
        return self.rating_after - self.rating_before

    @property
    def paper(self) -> tuple[int, int, int] | None:
        if self.middle is None:
            return None
        return (self.left, self.middle, self.right)


class StandingQuerySet(models.QuerySet):
    def leaderboard(self, league: League) -> StandingQuerySet:
        return (
            self.filter(league=league, games__gt=0)
            .select_related("player")
            .order_by(league.rating_system.best_first(), "player__name")
        )


class Standing(models.Model):
    """A player's current state in a league, kept by the engine so no page replays history."""

    league = models.ForeignKey(
        League,
        verbose_name=_("league"),
        on_delete=models.CASCADE,
        related_name="standings",
        db_index=False,
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="standings"
    )
    start_rating = models.FloatField(
        _("own start rating"),
        null=True,
        blank=True,
        help_text=_("Overrides the league's start rating, e.g. a rating kept on paper before."),
    )
    rating = models.FloatField(_("rating"))
    games = models.PositiveIntegerField(_("games"), default=0)
    last_change = models.FloatField(_("last change"), null=True, blank=True)
    last_played_at = models.DateTimeField(_("last played"), null=True, blank=True)
    peak_rating = models.FloatField(_("peak rating"))

    objects = StandingQuerySet.as_manager()

    class Meta:
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        constraints = [
            models.UniqueConstraint(fields=["league", "player"], name="standing_once"),
        ]
        indexes = [models.Index(fields=["league", "rating"], name="standing_board")]

    def __str__(self) -> str:
        return f"{self.player} in {self.league}: {self.rating:g}"

    def initial_rating(self, league: League | None = None) -> float:
        league = league or self.league
        return league.start_rating if self.start_rating is None else self.start_rating


class AuditAction(models.TextChoices):
    CREATE = "create", _("created")
    UPDATE = "update", _("edited")
    DELETE = "delete", _("deleted")
    RESTORE = "restore", _("restored")
    START_RATING = "start_rating", _("start rating changed")
    MERGE = "merge", _("players merged")
    RENAME = "rename", _("player renamed")
    EVENT_CREATE = "event_create", _("event created")
    EVENT_PLAYERS = "event_players", _("event's players changed")
    ROUND_DRAW = "round_draw", _("round drawn")
    TABLE_GAME = "table_game", _("table's paper in")
    ROUND_CLOSE = "round_close", _("round closed")
    EVENT_CLOSE = "event_close", _("event closed")


class AuditEntry(models.Model):
    """Who changed a game or a start rating, when, and the values before and after.

    Written by the engine in the same transaction as the change. ``game_id`` is a plain number,
    not a foreign key, so the entry outlives a deleted game (whose ``before`` snapshot is what a
    restore rebuilds it from).
    """

    at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("who"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    action = models.CharField(_("action"), max_length=16, choices=AuditAction.choices)
    # None for a change that is no league's (a rename, a merge of a player who never played).
    league = models.ForeignKey(
        League,
        verbose_name=_("league"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="audit_entries",
    )
    game_id = models.BigIntegerField(_("game"), null=True, blank=True, db_index=True)
    player = models.ForeignKey(
        Player,
        verbose_name=_("player"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit trail")
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_action_display()} {self.at:%Y-%m-%d %H:%M}"


class PendingUploadQuerySet(models.QuerySet):
    def expired(self) -> PendingUploadQuerySet:
        return self.filter(created_at__lt=timezone.now() - PendingUpload.LIFETIME)

    def waiting(self) -> PendingUploadQuerySet:
        return self.filter(created_at__gte=timezone.now() - PendingUpload.LIFETIME)


class PendingUpload(models.Model):
    """A rayter file previewed on the import page, waiting for its uploader to confirm it.

    Here rather than in the session: a previewed 4 MB file made a 1.3 MB session row, read and
    written on every page that member opened. Found by the hash of a random token that only the
    confirm form carries, and only for the same user and league; deleted when confirmed, and
    after :attr:`LIFETIME` (the next upload clears the expired ones).
    """

    LIFETIME = timedelta(days=1)

    token_hash = models.CharField(_("token hash"), max_length=64, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("who"),
        on_delete=models.CASCADE,
        related_name="+",
    )
    league = models.ForeignKey(
        League, verbose_name=_("league"), on_delete=models.CASCADE, related_name="+"
    )
    replace = models.BooleanField(_("replace the league's games"), default=False)
    # The bytes exactly as previewed (checked to be UTF-8 text), imported as they are.
    data = models.BinaryField(_("file"))
    created_at = models.DateTimeField(_("uploaded at"), auto_now_add=True, db_index=True)

    objects = PendingUploadQuerySet.as_manager()

    class Meta:
        verbose_name = _("pending upload")
        verbose_name_plural = _("pending uploads")

    def __str__(self) -> str:
        return f"{self.league} ({self.created_at:%Y-%m-%d %H:%M})"


class DataVersion(models.Model):
    """One row: a number every committed write to the club's data changes (database triggers,
    :mod:`ratings.versioning`), the key of the page cache and of the pages' ETags."""

    epoch = models.UUIDField(default=uuid.uuid4, editable=False)
    number = models.BigIntegerField(default=0)
    # PostgreSQL: the transaction that last changed the number, so it changes once per write.
    txid = models.BigIntegerField(null=True, editable=False)
    # SQLite: a bulk write is under way in this (uncommitted) transaction; ratings.versioning.
    bulk = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("data version")
        constraints = [models.CheckConstraint(condition=Q(pk=1), name="one_data_version")]

    def __str__(self) -> str:
        return f"{self.epoch}.{self.number}"


# Club nights and tournaments: their own module, models of this app all the same.
from ratings.events.models import (  # noqa: E402
    DrawMethod,
    Event,
    EventPlayer,
    EventRound,
    EventTable,
    Scoring,
    TableSeat,
)

__all__ += [
    "DrawMethod",
    "Event",
    "EventPlayer",
    "EventRound",
    "EventTable",
    "Scoring",
    "TableSeat",
]

# The digital paper (a game entered deal by deal): its own module, models of this app all the same.
from ratings.papers.models import Deal, DigitalPaper  # noqa: E402

__all__ += ["Deal", "DigitalPaper"]
