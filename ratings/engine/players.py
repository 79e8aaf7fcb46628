"""A member's identity: merging a typo's player into the real one, and renaming a player.

A merge moves every result of one player to another in every league, so it changes ratings: it
runs in one transaction with every affected league locked (in id order, so two merges cannot
deadlock), replays those leagues, and leaves an audit entry per league with what it moved. It
moves every other row that names the merged player too: the core's here (standings, tallies,
corrections, the audit trail, aliases), a feature's by its :class:`MergePart` (club nights,
digital papers), which the feature adds when the app is ready, so the engine names no feature's
model. ``tests/test_players_identity.py`` finds every such row from the models, so a new model
that points at a player fails there until the merge moves it. Both keep the old address working:
the old slug becomes an alias that redirects (HTTP 301).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings.engine import opponents
from ratings.engine.audit import audit
from ratings.engine.replay import replay_correction
from ratings.models import (
    AuditAction,
    AuditEntry,
    Game,
    League,
    Player,
    PlayerAlias,
    RatingCorrection,
    Result,
    Standing,
)
from ratings.player_names import clean_player_name
from ratings.versioning import lock_rows


def _player_data(player: Player) -> dict:
    return {"id": player.pk, "name": player.name, "slug": player.slug}


def merge_refusal(
    message: str, source: Player, target: Player, *, at=None, **where
) -> ValidationError:
    """A merge refused: ``message`` with the two players' names, ``where`` it happened and the
    club's date of ``at``."""
    if at is not None:
        where["date"] = timezone.localdate(at).isoformat()
    return ValidationError(message % {"source": source.name, "target": target.name, **where})


@dataclass(frozen=True)
class MergePart:
    """A feature's rows that name players, in a merge of ``source`` into ``target``: the leagues
    whose lock its writes take (locked by the merge too, in the one lock order), why the two
    cannot be one person (a :func:`merge_refusal`, or None), and the move of its rows. Each is
    asked with the leagues and both players locked."""

    leagues: Callable[[Player], set[int]]
    refusal: Callable[[Player, Player], ValidationError | None]
    move: Callable[[Player, Player], None]


# The features' parts, in the order they were added (their apps' ready()).
_MERGE_PARTS: list[MergePart] = []


def merge_part_add(part: MergePart) -> None:
    """Make ``part`` a part of every merge (once, however often the app is made ready)."""
    if part not in _MERGE_PARTS:
        _MERGE_PARTS.append(part)


def leagues_of(player: Player) -> tuple[set[int], set[int]]:
    """The ids of the leagues where ``player`` has a standing or a game (a merge re-rates
    those), and of the other leagues the features' parts write in (a merge locks those too:
    a digital paper's writes take its league's lock before the paper's row)."""
    rated = set(Standing.objects.filter(player=player).values_list("league_id", flat=True))
    rated |= set(Game.objects.filter(results__player=player).values_list("league_id", flat=True))
    written = set().union(*(part.leagues(player) for part in _MERGE_PARTS))
    return rated, written


def player_merge(*, source: Player, target: Player, actor=None) -> list[League]:
    """Merge ``source`` into ``target``: every result of ``source`` becomes ``target``'s.

    Refused (ValidationError, nothing written) when the two sat at the same table, naming the
    game, when a feature's part refuses (both present at one event, both at one digital paper),
    or when both have their own start rating in a league. The features' rows (events' seats and
    presence, digital papers' seats: a paper in progress goes on with ``target``) move with the
    results. ``source``'s own start rating in a league where ``target`` has none is kept.
    Returns the leagues re-rated.
    """
    if source.pk == target.pk:
        raise ValidationError(_("A player cannot be merged into themselves."))
    with transaction.atomic():
        # The lock order of ratings.versioning: the club's row, the leagues', and only then the
        # players' own rows. A game or a paper being finished holds its league while it writes
        # its players' results (which waits for a player's row locked here): a merge that took
        # the players first and then waited for that league would wait in a circle with it.
        rated_ids, paper_ids = leagues_of(source)
        locked = list(
            lock_rows(League.objects.all(), leagues=rated_ids | paper_ids, club=True)
            .filter(pk__in=rated_ids | paper_ids)
            .order_by("pk")
        )
        players = {
            p.pk: p for p in lock_rows(Player.objects.all()).filter(pk__in=[source.pk, target.pk])
        }
        if len(players) != 2:
            raise ValidationError(_("That player was changed or deleted meanwhile."))
        source, target = players[source.pk], players[target.pk]
        # Read again now that nobody can write the source's rows: a league whose first game or
        # paper of theirs came in before that and is not locked would be written unlocked.
        rated_ids, paper_ids = leagues_of(source)
        if not rated_ids | paper_ids <= {league.pk for league in locked}:
            raise ValidationError(
                _("A game or paper of %(source)s was entered meanwhile: merge them again.")
                % {"source": source.name}
            )
        leagues = [league for league in locked if league.pk in rated_ids]

        shared = (
            Game.objects.filter(results__player=source)
            .filter(results__player=target)
            .select_related("league")
            .order_by("played_at", "pk")
            .first()
        )
        if shared is not None:
            raise merge_refusal(
                _(
                    "%(source)s and %(target)s sat at the same table in game #%(game)d "
                    "(%(league)s, %(date)s): they are two people."
                ),
                source,
                target,
                at=shared.played_at,
                game=shared.pk,
                league=shared.league.name,
            )
        for part in _MERGE_PARTS:
            refused = part.refusal(source, target)
            if refused is not None:
                raise refused
        theirs = {s.league_id: s for s in Standing.objects.filter(player=source)}
        ours = {s.league_id: s for s in Standing.objects.filter(player=target)}
        for league_id, standing in theirs.items():
            mine = ours.get(league_id)
            if (
                mine is not None
                and standing.start_rating is not None
                and mine.start_rating is not None
            ):
                raise merge_refusal(
                    _(
                        "%(source)s and %(target)s both have their own start rating in "
                        "%(league)s: clear one of them first."
                    ),
                    source,
                    target,
                    league=standing.league.name,
                )

        moved = {
            league.pk: list(
                Result.objects.filter(player=source, game__league=league)
                .order_by("game_id")
                .values_list("game_id", flat=True)
            )
            for league in leagues
        }
        before = {"source": _player_data(source), "target": _player_data(target)}
        after = {"target": _player_data(target)}
        Result.objects.filter(player=source).update(player=target)
        opponents.merge(source.pk, target.pk)
        # The features' rows: none refused above, so nothing collides.
        for part in _MERGE_PARTS:
            part.move(source, target)
        # What corrections did to the source's rating is now the target's history.
        RatingCorrection.objects.filter(player=source).update(player=target)
        # What the trail says about the source (a start rating set, a rename) is the target's.
        AuditEntry.objects.filter(player=source).update(player=target)
        # The leagues where the target takes the source's own start rating: rated anew.
        new_start: set[int] = set()
        for league_id, standing in theirs.items():
            mine = ours.get(league_id)
            if mine is None:
                Standing.objects.filter(pk=standing.pk).update(player=target)
                continue
            if mine.start_rating is None and standing.start_rating is not None:
                Standing.objects.filter(pk=mine.pk).update(start_rating=standing.start_rating)
                new_start.add(league_id)
            standing.delete()
        if source.user_id is not None and target.user_id is None:
            user_id = source.user_id
            Player.objects.filter(pk=source.pk).update(user=None)
            Player.objects.filter(pk=target.pk).update(user_id=user_id)
        PlayerAlias.objects.filter(player=source).update(player=target)
        # The old address redirects, and the name typed again finds the target.
        PlayerAlias.objects.create(
            slug=source.slug, player=target, name=source.name, merged_id=source.pk
        )
        source.delete()

        if not leagues:
            audit(AuditAction.MERGE, None, actor, player=target, before=before, after=after)
        for league in leagues:
            # Without the source's games or start rating the league's ratings stand as they
            # are (the target's own games included).
            rerated = None
            if moved[league.pk] or league.pk in new_start:
                rerated = replay_correction(league, since=None)
            audit(
                AuditAction.MERGE,
                league,
                actor,
                player=target,
                before=before,
                after={**after, "games": moved[league.pk]},
                rerated=rerated,
            )
    return leagues


def player_rename(*, player: Player, name: str, actor=None) -> Player:
    """Give a player a new name (as :func:`~ratings.player_names.clean_player_name` stores it)
    and the slug made from it; the old address redirects. Refused (ValidationError) for a name
    the rule refuses or another player has."""
    name = clean_player_name(name)
    with transaction.atomic():
        player = lock_rows(Player.objects.all(), club=True).get(pk=player.pk)
        Player.objects.check_free(name, keep=player)
        old_slug, before = player.slug, _player_data(player)
        player.name = name
        player.slug = Player.objects.free_slug(name, keep=player)
        player.save(update_fields=["name", "slug", "search_key", "name_key"])
        if player.slug != old_slug:
            PlayerAlias.objects.filter(slug=player.slug).delete()
            PlayerAlias.objects.create(slug=old_slug, player=player)
        audit(
            AuditAction.RENAME,
            None,
            actor,
            player=player,
            before={"name": before["name"], "slug": old_slug},
            after={"name": player.name, "slug": player.slug},
        )
    return player
