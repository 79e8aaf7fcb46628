"""A player's current state in a league, kept by the engine: the leaderboard in one query."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from ratings.models.games import StateField
from ratings.models.leagues import League
from ratings.models.players import Player


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
    # What the league's system keeps beside the rating (as Result.state): null for a rating
    # that is one number.
    state = StateField(_("state"), null=True, blank=True)

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


class SeasonStanding(models.Model):
    """A player's season in a league (a calendar year in the club's time zone), kept by the
    engine (:mod:`ratings.engine.seasons`) so a season's table reads one row per player instead
    of every result of the year. Derived from the games: never backed up, rebuilt by a replay.
    """

    league = models.ForeignKey(
        League,
        verbose_name=_("league"),
        on_delete=models.CASCADE,
        related_name="season_standings",
        db_index=False,
    )
    year = models.PositiveSmallIntegerField(_("year"))
    player = models.ForeignKey(
        Player,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="season_standings",
    )
    games = models.PositiveIntegerField(_("games"))
    # The player's games in the league up to the season's end, earlier seasons' included: the
    # league's provisional rule applies to these.
    career_games = models.PositiveIntegerField(_("games up to the season's end"))
    rating_before = models.FloatField(_("rating before the season"))
    rating = models.FloatField(_("rating at the season's end"))
    score_sum = models.FloatField(_("sum of scores"))
    first_places = models.PositiveIntegerField(_("first places"))
    shared_first_places = models.PositiveIntegerField(_("shared first places"))

    class Meta:
        verbose_name = _("season standing")
        verbose_name_plural = _("season standings")
        constraints = [
            models.UniqueConstraint(
                fields=["league", "year", "player"], name="season_standing_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.league}, {self.year}: {self.rating:g}"


class OpponentTally(models.Model):
    """Two players' record in a league: the games they sat at one table, and how often the first
    (``player``, the smaller id of the two) finished ahead of, level with and behind the second
    (``opponent``). Kept by the engine (:mod:`ratings.engine.opponents`) so the player page's
    opponents read a player's own rows instead of the other seats of every game they played.
    Derived from the games: never backed up, counted again on a restore.

    One row a pair: a player's rows are those where they are either of the two, read from the
    other side with ahead and behind swapped. The pair is the primary key, so the rows carry no
    id and its index."""

    pk = models.CompositePrimaryKey("player", "league", "opponent")
    league = models.ForeignKey(
        League,
        verbose_name=_("league"),
        on_delete=models.CASCADE,
        related_name="opponent_tallies",
    )
    player = models.ForeignKey(
        Player,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="opponent_tallies",
        db_index=False,  # the primary key leads with the player
    )
    opponent = models.ForeignKey(
        Player, verbose_name=_("opponent"), on_delete=models.CASCADE, related_name="+"
    )
    games = models.PositiveIntegerField(_("games together"))
    ahead = models.PositiveIntegerField(_("finished ahead"))
    level = models.PositiveIntegerField(_("finished level"))
    behind = models.PositiveIntegerField(_("finished behind"))

    class Meta:
        verbose_name = _("opponent tally")
        verbose_name_plural = _("opponent tallies")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(player__lt=models.F("opponent")),
                name="opponent_tally_pair_in_order",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} against {self.opponent} in {self.league}: {self.games} games"
