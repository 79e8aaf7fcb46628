"""The players' data: :class:`Player` (with its queryset: finding players by name, creating them
with free slugs) and :class:`PlayerAlias` (an old address that redirects to the player's page).

Imported by :mod:`ratings.models` (Django finds an app's models there), so use the models from
there: ``from ratings.models import Player``. A name as stored and its identity are
:mod:`ratings.player_names`' rule; the queryset's ``named``, ``by_names`` and
``get_or_create_named`` are the one way to find or name a player.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from ratings.names import search_key
from ratings.player_names import clean_player_name, name_key

# How often a new player's slug is tried when other requests keep taking the one chosen.
SLUG_ATTEMPTS = 10
# A slug as ``free_slug`` makes it (letters of any script, digits, "_" and "-"): the site's and
# the API's addresses take nothing else, so a hostile path is a 404 before any query.
SLUG_PATTERN = r"[-\w]+"


class PlayerQuerySet(models.QuerySet):
    def bulk_create(self, objs, *args, **kwargs):
        """As Django's, with each player's keys derived from the name first (as ``save`` does),
        so no path can store a player whose keys disagree with the name."""
        players = list(objs)
        for player in players:
            player.derive_keys()
        return super().bulk_create(players, *args, **kwargs)

    def named(self, name: str) -> Player | None:
        """The player called ``name`` in any case or spacing (one identity: ``name_key``), or
        the player a player of that name was merged into."""
        return self.by_names([name]).get(name_key(name))

    def by_names(self, names) -> dict[str, Player]:
        """Existing players by name in any case or spacing, keyed by :func:`name_key`; a name
        merged into another player (an alias's name) finds that player."""
        keys = {name_key(name) for name in names}
        found = {player.name_key: player for player in self.filter(name_key__in=keys)}
        missing = keys - found.keys()
        if missing:
            merged = PlayerAlias.objects.filter(name_key__in=missing).order_by("pk")
            aliases = {alias.name_key: alias.player_id for alias in merged}
            if aliases:
                players = self.in_bulk(set(aliases.values()))
                found |= {key: players[pk] for key, pk in aliases.items() if pk in players}
        return found

    def check_free(self, name: str, *, keep: Player | None = None) -> None:
        """Raise ValidationError if the club has a player called ``name`` (in any case or
        spacing, or merged under that name), other than ``keep``: the one "already has a player
        called" check of the forms, the admin and a rename."""
        same = self.named(name)
        if same is not None and (keep is None or same.pk != keep.pk):
            raise ValidationError(
                _("The club already has a player called %(name)s.") % {"name": name}
            )

    def free_slug(self, name: str, *, keep: Player | None = None) -> str:
        """A slug made from the name (non-ASCII letters kept) that no other player uses, nor an
        old address that redirects (``keep``: the player being renamed, whose own may stay)."""
        base = slugify(name, allow_unicode=True)[:70] or "player"
        others = self.exclude(pk=keep.pk) if keep is not None else self
        taken = set(others.filter(slug__startswith=base).values_list("slug", flat=True))
        aliases = PlayerAlias.objects.filter(slug__startswith=base)
        if keep is not None:
            aliases = aliases.exclude(player=keep)
        taken |= set(aliases.values_list("slug", flat=True))
        return _first_free(base, taken)

    def create_named(self, name: str, **fields) -> Player:
        """Create a player with a unique slug made from the name (non-ASCII letters kept).

        The name passes :func:`clean_player_name` (ValidationError if it is refused). Raises
        IntegrityError when the club has a player of that name in any case, even one another
        request created a moment ago: :meth:`get_or_create_named` is the way that takes that
        player instead. A slug another name took meanwhile ("Sluggy 0!" and "Sluggy 0?" make the
        same one) is retried with the next free one. Each attempt runs in a savepoint, so the
        caller's transaction goes on after a refusal.
        """
        name = clean_player_name(name)
        for _attempt in range(SLUG_ATTEMPTS):
            slug = self.free_slug(name)
            try:
                with transaction.atomic():
                    return self.create(name=name, slug=slug, **fields)
            except IntegrityError:
                if self.named(name) is not None:
                    raise  # the name is taken: only the caller knows what that means
        raise IntegrityError(f"no free slug for {name!r} after {SLUG_ATTEMPTS} tries")

    def create_many_named(self, names: Iterable[str]) -> dict[str, Player]:
        """New players for names the club does not have yet (an import's hundreds), by their
        :func:`name_key`: one INSERT, the slugs found free against one read of those taken.

        If another request took one of the names or slugs meanwhile, they are found or created
        one at a time by :meth:`get_or_create_named` instead, with its rules.
        """
        unique = {}
        for name in names:
            cleaned = clean_player_name(name)
            unique.setdefault(name_key(cleaned), cleaned)
        taken = set(self.values_list("slug", flat=True))
        taken |= set(PlayerAlias.objects.values_list("slug", flat=True))
        players = []
        for name in unique.values():
            slug = _first_free(slugify(name, allow_unicode=True)[:70] or "player", taken)
            taken.add(slug)
            player = Player(name=name, slug=slug)
            player.derive_keys()
            players.append(player)
        try:
            with transaction.atomic():
                created = self.bulk_create(players)
        except IntegrityError:
            created = [self.get_or_create_named(name) for name in unique.values()]
        return {player.name_key: player for player in created}

    def get_or_create_named(self, name: str, **fields) -> Player:
        """The player called ``name`` (in any case or spacing), created if the club has none:
        the one way to name a player who may be new. When two requests create the same new
        player at once, both get the one that was created."""
        found = self.named(name)
        if found is not None:
            return found
        try:
            return self.create_named(name, **fields)
        except IntegrityError:
            found = self.named(name)
            if found is None:
                raise
            return found


def _first_free(base: str, taken: set[str]) -> str:
    slug, n = base, 1
    while slug in taken:
        n += 1
        slug = f"{base}-{n}"
    return slug


class Player(models.Model):
    name = models.CharField(_("name"), max_length=60)
    slug = models.SlugField(_("slug"), max_length=80, unique=True, allow_unicode=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    birth_date = models.DateField(
        _("birth date"), null=True, blank=True, help_text=_("Used only for FIDE's junior K-factor.")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # The name's keys (ratings.names.search_key), kept with the name for the directory's search.
    search_key = models.CharField(max_length=200, editable=False, default="", db_index=True)
    # The name's identity (ratings.player_names.name_key): one player per key, checked by the
    # database with the very key Python looks names up by.
    name_key = models.TextField(editable=False, default="")

    objects = PlayerQuerySet.as_manager()

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(fields=["name_key"], name="player_name_key_unique"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        self.derive_keys()
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("ratings:player", args=[self.slug])

    def derive_keys(self) -> None:
        """The keys derived from the name, so they can never disagree with it."""
        self.search_key = search_key(self.name)
        self.name_key = name_key(self.name)


class PlayerAlias(models.Model):
    """An address a player had before a rename or a merge: it redirects to their page. After a
    merge it also keeps the merged player's name (``name``), so typing that name again finds the
    player it was merged into instead of creating a new one."""

    slug = models.SlugField(_("slug"), max_length=80, unique=True, allow_unicode=True)
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="aliases"
    )
    name = models.CharField(_("merged name"), max_length=60, blank=True, default="")
    # The id the merged player had: a save that read it before the merge is recorded for
    # ``player`` (ratings.engine.games.players_now).
    merged_id = models.PositiveIntegerField(null=True, blank=True, editable=False, db_index=True)
    name_key = models.TextField(editable=False, blank=True, default="", db_index=True)

    class Meta:
        verbose_name = _("old address")
        verbose_name_plural = _("old addresses")

    def __str__(self) -> str:
        return f"{self.slug} → {self.player}"

    def save(self, *args, **kwargs):
        self.name_key = name_key(self.name) if self.name else ""
        super().save(*args, **kwargs)
