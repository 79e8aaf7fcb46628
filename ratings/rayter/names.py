"""A club player's name as one word of a rayter file, for the export to write and the import to
read back (:mod:`ratings.rayter.standings`, :mod:`ratings.rayter.files`): rayter names cannot hold
spaces or punctuation, and two of the club's names may come out as the same word."""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Iterable

from ratings.algorithms import rayter_format
from ratings.player_names import name_key

# What a rayter word keeps of a name besides letters and digits.
_NAME_MARKS = "_+-"


def rayter_name(name: str) -> str:
    """How a club player's name is written in a rayter file (names there are one word).

    Letters, digits, ``_``, ``+`` and ``-`` are kept; anything else (a space, an apostrophe, a
    dot) becomes ``_``; a name that is one of the file's keywords gets a trailing ``_``. So
    "Anna Maria" is ``Anna_Maria`` and "O'Brien" is ``O_Brien``.
    """
    name = unicodedata.normalize("NFC", "_".join(name.split()))
    written = "".join(c if c.isalnum() or c in _NAME_MARKS else "_" for c in name) or "_"
    return written + "_" if written in rayter_format.KEYWORDS else written


def rayter_words(players: Iterable[tuple[int, str]]) -> dict[str, str]:
    """Each of the club's players (id, name) as one word of a rayter file, no two words the same
    name to the club (:func:`ratings.player_names.name_key`), so the export never refuses a
    league and its import reads each word back as its own player (``ratings.rayter.files``).

    A name's word is :func:`rayter_name`'s. Where names share a word ("Anna Maria" and
    "Anna_Maria"), the player whose name is already that word keeps it, else the oldest (lowest
    id); the others get ``+2``, ``+3``... in the order they joined, skipping any word another
    name has. Depending only on the club's names and their order, a player's word stays the same
    from one export to the next, whatever players join later.
    """
    groups: dict[str, list[tuple[bool, int, str, str]]] = defaultdict(list)
    taken: set[str] = set()
    for pk, name in players:
        word = rayter_name(name)
        groups[name_key(word)].append((word != name, pk, name, word))
        taken.add(name_key(name))
    taken.update(groups)
    words = {}
    for members in groups.values():
        (_renamed, _pk, name, word), *others = sorted(members)
        words[name] = word
        number = 2
        for _renamed, _pk, name, word in others:
            while name_key(f"{word}+{number}") in taken:
                number += 1
            words[name] = f"{word}+{number}"
            taken.add(name_key(words[name]))
            number += 1
    return words
