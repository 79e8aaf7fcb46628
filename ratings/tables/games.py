"""One game's tables: its seats, and prefko's working (the pair terms and each change)."""

from __future__ import annotations

from dataclasses import dataclass

import django_tables2 as tables
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from ratings.algorithms import preferans
from ratings.formatting import change_html, decimal_text, number_text
from ratings.systems import RatingSystem
from ratings.tables.base import NUMBER, ClubTable, card


class GameResultsTable(ClubTable):
    """One game's seats: the paper (Preferans), score, and each player's rating before and after."""

    seat = tables.Column(verbose_name=_("Seat"), attrs=card("seat", _("Seat")))
    player = tables.Column(verbose_name=_("Player"), attrs=card("title", number=False))
    left = tables.Column(verbose_name=_("Left"), attrs=card("more", _("Left")))
    middle = tables.Column(verbose_name=_("Middle"), attrs=card("more", _("Middle")))
    right = tables.Column(verbose_name=_("Right"), attrs=card("more", _("Right")))
    score = tables.Column(verbose_name=_("Score"), attrs=NUMBER)
    rating_before = tables.Column(
        verbose_name=_("Rating before"), attrs=card("key", _("Rating before"))
    )
    change = tables.Column(
        verbose_name=_("Change"), accessor="change", attrs=card("key", _("Change"))
    )
    rating_after = tables.Column(
        verbose_name=_("Rating after"), attrs=card("key", _("Rating after"))
    )

    class Meta:
        # One card per seat on a phone: the final score, the ratings and the change first.
        attrs = {"class": "results cards"}
        orderable = False

    def __init__(self, results, *, system: RatingSystem):
        score = tables.Column(
            verbose_name=system.score_label, attrs=card("key", system.score_label)
        )
        super().__init__(
            results,
            exclude=() if system.has_paper else ("left", "middle", "right"),
            extra_columns=[("score", score)],
        )
        self.system = system

    def render_seat(self, value: int) -> int:
        return value + 1

    def render_player(self, value) -> SafeString:
        return self.player_link(value)

    def render_middle(self, value: int) -> str:
        return number_text(value)

    def render_score(self, value: float) -> str:
        return self.system.score_text(value)

    def render_rating_before(self, value: float) -> str:
        return self.rating_cell(value)

    render_change = ClubTable.change_cell

    def render_rating_after(self, value: float) -> str:
        return self.rating_cell(value)


class PrefkoTermsTable(ClubTable):
    """prefko's terms for each pair of players: C = D + T + N."""

    pair = tables.Column(verbose_name=_("Pair"))
    d = tables.Column(verbose_name="D", attrs=NUMBER)
    t = tables.Column(verbose_name="T", attrs=NUMBER)
    n = tables.Column(verbose_name="N", attrs=NUMBER)
    c = tables.Column(verbose_name="C", attrs=NUMBER)

    class Meta:
        attrs = {"class": "terms"}
        orderable = False

    def _term(self, value: float) -> str:
        return decimal_text(value, 3, plus=True)

    render_d = render_t = render_n = render_c = _term


@dataclass(frozen=True)
class ChangeExplained:
    """How one player's change follows from the pair terms: "(C12 + C13) / 2 = −27.4 → −27"."""

    name: str
    formula: str
    average: str
    change: SafeString | str


@dataclass(frozen=True)
class TermsExplained:
    """prefko's working for one game: the pair terms as a table and each player's change."""

    table: PrefkoTermsTable
    changes: list[ChangeExplained]


def explain_prefko_terms(results: list, terms: preferans.PrefkoTerms) -> TermsExplained:
    """The terms a game was rated with (recomputed from the stored ratings before it), for the
    game page: ``results`` in seating order, with their players."""
    names = [r.player.name for r in results]
    rows = [
        {
            "pair": f"{i + 1}–{j + 1}: {names[i]} – {names[j]}",
            "d": terms.d[k],
            "t": terms.t[k],
            "n": terms.n[k],
            "c": terms.c[k],
        }
        for k, (i, j) in enumerate(((0, 1), (0, 2), (1, 2)))
    ]
    changes = [
        ChangeExplained(
            name=name,
            formula=formula,
            average=decimal_text(average, 4),
            change=change_html(change, lower_is_better=True),
        )
        for name, formula, average, change in zip(
            names, preferans.CHANGE_FORMULAS, terms.averages, terms.changes, strict=True
        )
    ]
    return TermsExplained(table=PrefkoTermsTable(rows), changes=changes)
