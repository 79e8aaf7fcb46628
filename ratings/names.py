"""Telling people's names apart the way a club does: "Peđa", "Pedja" and "pedja." are one member.

A name typed at the table is compared with the club's players by a *key*: the name written in
ASCII (anyascii, so Жанна reads Zhanna and Đorđe Dorde), case-folded, with spaces and punctuation
dropped. Serbian writes đ as "dj" as often as "d", so a name with đ has both keys (Đorđe is Dorde
and Djordje). Two names are close when a key is equal or a few edits away (rapidfuzz's
Levenshtein distance): one edit for short names, two from eight letters on.

Pure Python, no Django: the forms, the admin, the rayter import and the player directory all ask
the same functions.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from anyascii import anyascii
from rapidfuzz.distance import Levenshtein

T = TypeVar("T")
# Letters whose Serbian Latin spelling also has a digraph form (Đorđe, Djordje).
_DIGRAPHS = str.maketrans({"đ": "dj", "Đ": "Dj"})
# How many close names a suggestion lists at most.
MAX_SUGGESTIONS = 3


def _squeeze(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def name_keys(name: str) -> frozenset[str]:
    """Every key a name is known by (usually one; two for names with đ)."""
    keys = {_squeeze(anyascii(name)), _squeeze(anyascii(name.translate(_DIGRAPHS)))}
    keys.discard("")
    return frozenset(keys) or frozenset({name.casefold()})


def search_key(name: str) -> str:
    """What a player is stored under for searching by substring: every key of the name, space
    separated, so "ped" finds Pedja and Peđa, and "pedj" finds Peđa too."""
    return " ".join(sorted(name_keys(name)))


def _allowed_edits(key: str) -> int:
    if len(key) < 4:
        return 0
    return 1 if len(key) < 8 else 2


def distance(typed: str, known: str) -> int | None:
    """How many edits apart two names' keys are, or None when they are not close."""
    best = None
    for a in name_keys(typed):
        for b in name_keys(known):
            limit = _allowed_edits(min(a, b, key=len))
            edits = Levenshtein.distance(a, b, score_cutoff=limit)
            if edits <= limit and (best is None or edits < best):
                best = edits
    return best


@dataclass(frozen=True)
class Match(Generic[T]):
    item: T
    name: str
    edits: int


def close_matches(
    typed: str, known: Iterable[tuple[T, str]], *, limit: int = MAX_SUGGESTIONS
) -> list[Match[T]]:
    """The known (item, name) pairs whose names are close to ``typed``, closest first.

    A name equal to ``typed`` but for case and inner spaces is the same player, not a close one:
    callers look those up first and ask this only for a name the club does not have.
    """
    typed_keys = name_keys(typed)
    matches = []
    for item, name in known:
        edits = distance(typed, name) if not typed_keys & name_keys(name) else 0
        if edits is not None:
            matches.append(Match(item, name, edits))
    matches.sort(key=lambda match: (match.edits, match.name.casefold()))
    return matches[:limit]
