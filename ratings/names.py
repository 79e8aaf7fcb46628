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
from rapidfuzz import process
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
    """How many edits two keys may be apart and still be one name typed two ways."""
    if len(key) < 4:
        return 0
    return 1 if len(key) < 8 else 2


@dataclass(frozen=True)
class Match(Generic[T]):
    item: T
    name: str
    edits: int


class NameIndex(Generic[T]):
    """The club's names with their keys worked out once, to look up many typed names against
    (a rayter file's hundreds of new names against a club of thousands): rapidfuzz compares a
    typed key with every stored key in C."""

    def __init__(self, known: Iterable[tuple[T, str]]):
        self._items: list[tuple[T, str]] = []
        self._keys: list[str] = []
        self._owners: list[int] = []
        for item, name in known:
            for key in name_keys(name):
                self._keys.append(key)
                self._owners.append(len(self._items))
            self._items.append((item, name))

    def close_matches(self, typed: str, *, limit: int = MAX_SUGGESTIONS) -> list[Match[T]]:
        """The known names close to ``typed``, closest first (see :func:`close_matches`)."""
        edits_by_owner: dict[int, int] = {}
        for key in name_keys(typed):
            found = process.extract_iter(
                key, self._keys, scorer=Levenshtein.distance, score_cutoff=_allowed_edits(key)
            )
            for other, edits, index in found:
                if edits <= _allowed_edits(min(key, other, key=len)):
                    owner = self._owners[index]
                    edits_by_owner[owner] = min(edits, edits_by_owner.get(owner, edits))
        matches = [
            Match(self._items[owner][0], self._items[owner][1], edits)
            for owner, edits in edits_by_owner.items()
        ]
        matches.sort(key=lambda match: (match.edits, match.name.casefold()))
        return matches[:limit]


def close_matches(
    typed: str, known: Iterable[tuple[T, str]], *, limit: int = MAX_SUGGESTIONS
) -> list[Match[T]]:
    """The known (item, name) pairs whose names are close to ``typed``, closest first.

    A name equal to ``typed`` but for case and inner spaces is the same player, not a close one:
    callers look those up first and ask this only for a name the club does not have.
    """
    return NameIndex(known).close_matches(typed, limit=limit)
