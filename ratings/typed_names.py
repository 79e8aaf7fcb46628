"""Typed names to the club's players: the one policy every entry of names follows (a game's
seats, an event's rows, a paper's three seats).

A name the club knows (in any case or spacing, or a merged player's old name) is that player.
A name it does not know is a new member, unless it is close to a player's name: then it is a
typo until the member confirms it ("Did you mean Pedja?"). Where only the club's players may
stand (``existing_only``), an unknown name is refused. A name typed twice is refused where it
repeats.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from ratings.models import Player
from ratings.names import NameIndex
from ratings.player_names import name_key


@dataclass
class ResolvedNames:
    """What the names stand for, by their position in the list given."""

    # The club's player each name is; None for a new one, a refused one or an empty place.
    players: list[Player | None]
    # The names that become new players when the entry is recorded, in the order given.
    new_names: list[str] = field(default_factory=list)
    # Position -> why that name is refused.
    refusals: dict[int, str] = field(default_factory=dict)
    # Positions of the names refused only until the member confirms them as new members (the
    # refusal an interface words by its own means of confirming: a box, the API's list).
    unconfirmed: set[int] = field(default_factory=set)
    # Position -> the club's names close to a new name, whether confirmed or not.
    suggestions: dict[int, tuple[str, ...]] = field(default_factory=dict)


def resolve_names(
    names: Sequence[str | None],
    *,
    duplicate: Callable[[str, int], str],
    confirmed_new: Collection[str] = (),
    existing_only: bool = False,
) -> ResolvedNames:
    """Resolve ``names`` (empty places are left alone); ``confirmed_new`` holds the
    :func:`name_key` of names confirmed as new members, ``duplicate(name, first)`` words the
    refusal of a name repeated from position ``first``."""
    known = Player.objects.by_names([name for name in names if name])
    resolved = ResolvedNames(players=[None] * len(names))
    club: NameIndex | None = None
    seen: dict[str, int] = {}
    for index, name in enumerate(names):
        if not name:
            continue
        key = name_key(name)
        if key in seen:
            resolved.refusals[index] = duplicate(name, seen[key])
            continue
        seen[key] = index
        player = known.get(key)
        if player is not None:
            resolved.players[index] = player
            continue
        if existing_only:
            resolved.refusals[index] = _(
                "The club has no player called %(name)s: add them first."
            ) % {"name": name}
            continue
        if club is None:
            club = NameIndex(Player.objects.values_list("pk", "name"))
        matches = tuple(match.name for match in club.close_matches(name))
        if matches:
            resolved.suggestions[index] = matches
            if key not in confirmed_new:
                resolved.unconfirmed.add(index)
                resolved.refusals[index] = _(
                    "The club has no player called %(name)s. Did you mean %(matches)s? Choose "
                    "one, or tick “%(name)s is a new member”."
                ) % {"name": name, "matches": ", ".join(matches)}
                continue
        resolved.new_names.append(name)
    return resolved
