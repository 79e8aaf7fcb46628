"""The players' data: :class:`Player` (with its queryset: finding players by name, creating them
with free slugs) and :class:`PlayerAlias` (an old address that redirects to the player's page).

Imported by :mod:`ratings.models` (Django finds an app's models there), so use the models from
there: ``from ratings.models import Player``. :func:`normalise_name` (a name as stored) and
:class:`PlayerQuerySet` are imported from here.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from ratings.names import search_key

# How often a new player's slug is tried when other requests keep taking the one chosen.
SLUG_ATTEMPTS = 10


def normalise_name(name: str) -> str:
    """A display name as stored: trimmed, inner whitespace runs collapsed to one space."""
    return " ".join(name.split())


class PlayerQuerySet(models.QuerySet):
    def by_names(self, names) -> dict[str, Player]:
        """Existing players by case-insensitive name, keyed by the lower-cased name."""
        wanted = {normalise_name(name).lower() for name in names}
        ascii_keys = {key for key in wanted if key.isascii()}
        found = {}
        if ascii_keys:
            players = self.annotate(lower_name=Lower("name")).filter(lower_name__in=ascii_keys)
            found = {player.lower_name: player for player in players}
        if wanted - ascii_keys:
            # SQLite's LOWER() folds only ASCII letters: in SQL "Đorđe" would not find "Đorđe",
            # and creating her again would break player_name_unique_ci. Python folds them all.
            ids = [pk for pk, name in self.values_list("pk", "name") if name.lower() in wanted]
            found |= {player.name.lower(): player for player in self.filter(pk__in=ids)}
        return found

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

        Raises IntegrityError when the club has a player of that name in any case, even one
        another request created a moment ago. A slug another name took meanwhile ("Sluggy 0!"
        and "Sluggy 0?" make the same one) is retried with the next free one. Each attempt runs
        in a savepoint, so the caller's transaction goes on after a refusal.
        """
        name = normalise_name(name)
        for _attempt in range(SLUG_ATTEMPTS):
            slug = self.free_slug(name)
            try:
                with transaction.atomic():
                    return self.create(name=name, slug=slug, **fields)
            except IntegrityError:
                if self.by_names([name]):
                    raise  # the name is taken: only the caller knows what that means
        raise IntegrityError(f"no free slug for {name!r} after {SLUG_ATTEMPTS} tries")

    def create_many_named(self, names: Iterable[str]) -> dict[str, Player]:
        """New players for names the club does not have yet (an import's hundreds), by their
        lower-cased name: one INSERT, the slugs found free against one read of those taken.

        If another request took one of the names or slugs meanwhile, they are created one at a
        time by :meth:`create_named` instead, with its rules.
        """
        unique = {normalise_name(name).lower(): normalise_name(name) for name in names}
        taken = set(self.values_list("slug", flat=True))
        taken |= set(PlayerAlias.objects.values_list("slug", flat=True))
        players = []
        for name in unique.values():
            slug = _first_free(slugify(name, allow_unicode=True)[:70] or "player", taken)
            taken.add(slug)
            players.append(Player(name=name, slug=slug, search_key=search_key(name)))
        try:
            with transaction.atomic():
                created = self.bulk_create(players)
        except IntegrityError:
            created = [self.create_named(name) for name in unique.values()]
        return {player.name.lower(): player for player in created}

    def get_or_create_named(self, name: str) -> Player:
        """The player called ``name`` (in any case), created if the club has none: when two
        requests create the same new player at once, both get the one that was created."""
        key = normalise_name(name).lower()
        found = self.by_names([name]).get(key)
        if found is not None:
            return found
        try:
            return self.create_named(name)
        except IntegrityError:
            found = self.by_names([name]).get(key)
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

    objects = PlayerQuerySet.as_manager()

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(Lower("name"), name="player_name_unique_ci"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        # Derived from the name, so it can never disagree with it.
        self.search_key = search_key(self.name)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("ratings:player", args=[self.slug])


class PlayerAlias(models.Model):
    """An address a player had before a rename or a merge: it redirects to their page."""

    slug = models.SlugField(_("slug"), max_length=80, unique=True, allow_unicode=True)
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="aliases"
    )

    class Meta:
        verbose_name = _("old address")
        verbose_name_plural = _("old addresses")

    def __str__(self) -> str:
        return f"{self.slug} → {self.player}"
