"""The data version's row (:mod:`ratings.versioning` keeps its number)."""

from __future__ import annotations

import uuid

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


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


class LeagueVersion(models.Model):
    """A league's row: a number every committed write to that league's games, results,
    standings and events changes, and another its digital papers and their deals change
    (:mod:`ratings.versioning`); a page of the league is keyed by both and the club-wide
    :class:`DataVersion`, a paper before its first deal by the first only.

    No foreign key: the row is written by the database's triggers, and a league's deletion (a
    club-wide write) changes every page anyway.
    """

    league_id = models.BigIntegerField(primary_key=True)
    number = models.BigIntegerField(default=0)
    # What the league's digital papers' rows change instead (versioning.PAPER_TABLES): at a
    # club night a deal comes every few seconds, and a paper waiting for its first deal shows
    # the league's games (its players' chances), not the other tables' deals.
    papers = models.BigIntegerField(db_default=0)
    # PostgreSQL: the transaction that last changed each number, so it changes once per write.
    txid = models.BigIntegerField(null=True, editable=False)
    papers_txid = models.BigIntegerField(null=True, editable=False)
    # SQLite: a bulk write of this league is under way in this (uncommitted) transaction.
    bulk = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("league data version")

    def __str__(self) -> str:
        return f"{self.league_id}.{self.number}.{self.papers}"


class PlayerVersion(models.Model):
    """A player's row in a league: a number every committed write to what that player's pages
    show of the league changes (their results, standing, season standings, tallies, corrections,
    papers and deals, the events and games they sat at: :mod:`ratings.versioning`); the player's
    page, a head to head, a digital paper and a club night's page are keyed by their players'
    rows and :class:`DataVersion`, so a game of other players leaves them cached.

    Made by the database's triggers at the pair's first write, never deleted (a missing row and
    a row made later differ, and a rollback takes the row away with the data it covered). No
    foreign key, as :class:`LeagueVersion`.
    """

    pk = models.CompositePrimaryKey("player_id", "league_id")
    player_id = models.BigIntegerField()
    league_id = models.BigIntegerField()
    number = models.BigIntegerField(db_default=0)
    # (Defaults in the database: the triggers insert a row with one of the two numbers.)
    # What their digital papers' rows change instead (versioning.PAPER_TABLES): a deal at a
    # table moves the paper's and the head to head's keys, not the club night's page.
    papers = models.BigIntegerField(db_default=0)
    # PostgreSQL: the transaction that last changed each number, so it changes once per write.
    txid = models.BigIntegerField(null=True, editable=False)
    papers_txid = models.BigIntegerField(null=True, editable=False)

    class Meta:
        verbose_name = _("player data version")

    def __str__(self) -> str:
        return f"{self.league_id}.{self.player_id}.{self.number}.{self.papers}"


class SeasonVersion(models.Model):
    """A league's season's row: a number every committed write to what a season's table shows
    changes (:mod:`ratings.versioning`, "Seasons' versions"). ``year`` is the season; year 0 is
    the frame every season page of the league shows around its table: which seasons have games
    (a season's first or last row made or deleted), the league's events and its papers in
    progress. A season page is keyed by its season's row, the frame's and :class:`DataVersion`,
    so a game of this season leaves last season's page cached.

    Made by the database's triggers at the first write, never deleted, as
    :class:`PlayerVersion`; no foreign key.
    """

    pk = models.CompositePrimaryKey("league_id", "year")
    league_id = models.BigIntegerField()
    year = models.IntegerField()
    number = models.BigIntegerField(db_default=0)
    # PostgreSQL: the transaction that last changed the number, so it changes once per write.
    txid = models.BigIntegerField(null=True, editable=False)

    class Meta:
        verbose_name = _("season data version")

    def __str__(self) -> str:
        return f"{self.league_id}.{self.year}.{self.number}"
