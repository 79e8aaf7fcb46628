"""A game of a league, and each player's result in it, with the rating before and after."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ratings.models.leagues import League
from ratings.models.players import Player


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


class StateField(models.JSONField):
    """The slot a rating system keeps its state in (``Result.state``, ``Standing.state``): JSON,
    without SQLite's per-row ``JSON_VALID`` check. A function in a column's check makes SQLite
    keep a statement journal for every bulk INSERT of results, which multiplies an import's
    writes (docs/performance.md); only the engine and a restore write the slot, always as
    Django's own JSON."""

    def db_check(self, connection):
        return None


class Result(models.Model):
    """One player's part in one game, with the ratings the engine gave them."""

    # Both foreign keys lead a unique index: the player result_player_once's (player, league,
    # played_at, game), which keeps a player to one seat a game (league and time follow from
    # the game) and holds a player's history in a league as one range in rating order; the
    # game result_seat_once's (game, seat), which serves a game's results. A third index, on
    # (game, player), would hold the same rule again and cost every result written. On
    # PostgreSQL both also carry the columns a player's reads take (migration 0020), so those
    # reads never visit the table.
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
    # Copies of the game's league and time, and the seat's place at the table (1 + the seats
    # with a better score, by the league's system: RatingSystem.places), written by the engine
    # with the result and kept in step with the game, so that reads of a player's games need
    # neither the games nor the other seats. Indexed by result_player_once, after the player:
    # no index leads with the league (tests/test_schema.py), as nothing looks results up by it
    # alone; a league's results go with its games (CASCADE there), so DO_NOTHING here.
    league = models.ForeignKey(
        League,
        verbose_name=_("league"),
        on_delete=models.DO_NOTHING,
        related_name="+",
        db_index=False,
        editable=False,
    )
    played_at = models.DateTimeField(_("played at"), editable=False)
    place = models.PositiveSmallIntegerField(_("place"), editable=False)
    seat = models.PositiveSmallIntegerField(_("seat"))
    # The Preferans paper, as written: points against the previous seat, bula, against the next.
    left = models.PositiveIntegerField(_("left"), null=True, blank=True)
    middle = models.IntegerField(_("middle"), null=True, blank=True)
    right = models.PositiveIntegerField(_("right"), null=True, blank=True)
    # Preferans final score, points of a scored game, or 1 / 0.5 / 0 in a head-to-head game.
    score = models.FloatField(_("score"))
    rating_before = models.FloatField(_("rating before"))
    rating_after = models.FloatField(_("rating after"))
    # What the league's system keeps beside the ratings above (OpenSkill: the mean and the
    # uncertainty before and after, the ratings being the numbers shown), keyed as the system
    # declares (RatingSystem.result_state_fields); null for a system whose rating is one number.
    # The core never reads inside it: the system does.
    state = StateField(_("state"), null=True, blank=True)

    class Meta:
        verbose_name = _("result")
        verbose_name_plural = _("results")
        constraints = [
            models.UniqueConstraint(
                fields=["player", "league", "played_at", "game"], name="result_player_once"
            ),
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
