"""A club's house rules for the paper: the rules Serbian clubs keep differently, each named, with
its source. :data:`LIBRARY`, every rule as prefko's library keeps it, is the default: with it the
paper stays entry for entry equal to the library (the vectors).

Each rule is a field of :class:`HouseRules` (passed to the paper as a value, never read from a
setting here), stored as JSON by :meth:`HouseRules.json` in a league's settings and in each paper
started under them:

- ``betl_fall_supa``: the supa each follower who followed writes on a failed betl. ``None``:
  tricks x value, as for any contract (the library); a number: that amount, whatever the tricks
  (some clubs write 60 a follower; the project's domain notes, from the Serbian sources).
- ``kontra_on_pik``: whether a kontra may be given on pik, the lowest contract. ``True``: any
  contract, as :func:`deal_value` doubles any (the library); ``False``: refused (clubs differ).
- ``double_fall``: the double fall near the end (iklub.rs, "Pravila preferansa": "Duplo
  padanje"): a declarer who plays a game worth more than the bulas left (the three added up,
  before the deal) and falls has twice the value added to their bula; the followers write their
  supe as usual. ``False``: a fall is the value (the library).
- ``max_kontra``: the highest kontra level a table gives: 4, mortkontra (the library); 2 where
  subkontra and mortkontra are not played (iklub.rs: "Subkontra i Mortkontra ne postoje").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass

MAX_KONTRA = 4


@dataclass(frozen=True)
class HouseRules:
    """The house rules a paper is kept by (:data:`LIBRARY`: the library's, the default)."""

    betl_fall_supa: int | None = None
    kontra_on_pik: bool = True
    double_fall: bool = False
    max_kontra: int = MAX_KONTRA

    @property
    def is_library(self) -> bool:
        return self == LIBRARY

    def json(self) -> dict[str, object]:
        """The rules that differ from the library's, as stored (``{}``: the library's)."""
        return {
            name: value for name, value in asdict(self).items() if value != getattr(LIBRARY, name)
        }

    @classmethod
    def from_json(cls, data: object) -> HouseRules:
        """The rules stored by :meth:`json` (a key left out: the library's); ValueError if a
        value is not one the rule takes (the deal log's PaperError says it for a log)."""
        if data is None:
            return LIBRARY
        if not isinstance(data, Mapping):
            raise ValueError("the house rules must be an object")
        unknown = set(data) - set(asdict(LIBRARY))
        if unknown:
            raise ValueError(f"unknown house rules: {', '.join(sorted(unknown))}")
        rules = cls(**{**asdict(LIBRARY), **data})
        supa = rules.betl_fall_supa
        if supa is not None and (isinstance(supa, bool) or not isinstance(supa, int) or supa <= 0):
            raise ValueError(f"betl_fall_supa is a whole number above 0 or null, got {supa!r}")
        for flag in ("kontra_on_pik", "double_fall"):
            if not isinstance(getattr(rules, flag), bool):
                raise ValueError(f"{flag} must be true or false, got {getattr(rules, flag)!r}")
        level = rules.max_kontra
        if isinstance(level, bool) or not isinstance(level, int) or not 0 <= level <= MAX_KONTRA:
            raise ValueError(f"max_kontra is 0 to {MAX_KONTRA}, got {level!r}")
        return rules

    def fall(self, value: int, bulas_left: int) -> int:
        """What a failed declarer's bula goes up by: the value, or twice it under the double
        fall when the game was worth more than the bulas left before the deal."""
        return 2 * value if self.double_fall and value > bulas_left else value


LIBRARY = HouseRules()
