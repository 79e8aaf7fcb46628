"""A player's name as the club stores it, and the one identity two spellings of a name share.

- :func:`clean_player_name`: the one rule for a name, on every path that names a player (the
  entry and event forms, the services, the admin, a rename, rayter files, restore_club): trimmed,
  inner whitespace runs collapsed to one space, composed (NFC), something readable in it, and no
  character that shows nothing or changes how the text around it shows (control characters,
  direction overrides, zero-width characters, a combining mark with no letter to sit on).
- :func:`name_key`: the one identity of a name. Two names with the same key are one player: the
  Python lookups (``Player.objects.named``, ``by_names``) and the database's unique constraint
  use this same key, stored in ``Player.name_key``, so they cannot disagree (SQL ``LOWER`` folds
  only ASCII on SQLite and by the collation on PostgreSQL: "ΟΔΟΣ" and "οδοσ", "İvo" and "Ivo"
  were one name to one and two to the other, and a save answered 500).

Telling *close* names apart (typos, transliteration) is :mod:`ratings.names`' work.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

# The longest name a player may have (Player.name's max_length).
MAX_LENGTH = 60
# Invisible characters that reverse or isolate the direction of the text after them.
DIRECTION_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
# Characters that are not "Cc"/"Cf" but show nothing in a name all the same.
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f")


def _refusal(name: str) -> str | None:
    if not name:
        return _("A name needs at least one letter or digit.")
    if "\ufffd" in name:
        # What a browser's bytes that were not UTF-8 decode to: the name was mangled.
        return _("A name cannot contain characters that could not be read (�): retype it.")
    previous = " "
    for ch in name:
        category = unicodedata.category(ch)
        if category == "Cc":
            return _("A name cannot contain control characters.")
        if ch in DIRECTION_CONTROLS:
            # They reorder the text around them: a name could pose as another on the boards.
            return _("A name cannot contain text-direction controls.")
        if category in ("Cf", "Co", "Cn", "Cs", "Zl", "Zp") or ch in _INVISIBLE:
            # Zero-width characters and the like show nothing: "Mar\u200bko" reads as "Marko".
            return _("A name cannot contain invisible characters.")
        if category.startswith("M") and not (
            previous.isalnum() or unicodedata.category(previous).startswith("M")
        ):
            return _("A name cannot start a word with an accent that has no letter to sit on.")
        previous = ch
    if not any(ch.isalnum() for ch in name):
        return _("A name needs at least one letter or digit.")
    if len(name) > MAX_LENGTH:
        return ngettext(
            "A name has at most %(max)d character.",
            "A name has at most %(max)d characters.",
            MAX_LENGTH,
        ) % {"max": MAX_LENGTH}
    return None


def clean_player_name(name: str) -> str:
    """The name as stored: trimmed, one space between words, composed; raises ValidationError
    saying what is wrong with it."""
    cleaned = unicodedata.normalize("NFC", " ".join(str(name).split()))
    message = _refusal(cleaned)
    if message is not None:
        raise ValidationError(message)
    return cleaned


def name_key(name: str) -> str:
    """The identity of a name: one key for every spelling of the same name (case folded, any
    spacing, compatibility forms such as full-width letters unified)."""
    return unicodedata.normalize("NFKC", " ".join(name.split())).casefold()
