"""The base of the pages' tables: ``ClubTable`` (django-tables2 with the rows rendered in one
pass) and the column attributes and labels the tables share."""

from __future__ import annotations

import html
from collections.abc import Callable

import django_tables2 as tables
from django.core.exceptions import ImproperlyConfigured
from django.utils.formats import localize
from django.utils.functional import cached_property
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import template_localtime
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop
from django_tables2.rows import BoundRow
from django_tables2.utils import Accessor, signature

from ratings.formatting import change_html, rating_text
from ratings.links import url_maker
from ratings.systems import RatingSystem

NUMBER = {"td": {"class": "num"}, "th": {"class": "num"}}


def card(part: str, label=None, *, number: bool = True) -> dict:
    """A column's attributes in a table that turns into one card per row on a phone
    (``table.cards`` in static/club.css): its part of the card (``title``, ``key`` for the
    numbers a player came for, ``more``) and its header again as the cell's ``data-label``,
    which the card writes above the value once the header row is hidden."""
    td = {"class": f"num card-{part}" if number else f"card-{part}"}
    if label is not None:
        td["data-label"] = label
    return {"td": td, "th": {"class": "num"} if number else {}}


# django-tables2's pager says "previous" and "next" but has no Serbian catalog: ours supplies
# these two words (catalogs in LOCALE_PATHS come first).
PAGER_WORDS = (gettext_noop("previous"), gettext_noop("next"))


# The base table ---------------------------------------------------------------------------------


class ClubTable(tables.Table):
    """django-tables2's columns, headers, ordering and pagination, with the rows rendered in one
    pass of Python (``templates/ratings/table.html`` puts :meth:`body_html` in the ``tbody``).

    django-tables2 renders every cell through the template engine, recomputing the column's
    attributes and inspecting its render method's signature each time, which a drawn page with
    many rows feels (``bench/tables_drawn.py``; figures in docs/performance.md). Here each column's
    ``<td>`` attributes and render arguments are worked out once per page, and a cell costs its
    ``render_<column>`` call. The HTML is the same (tests/views/test_tables.py compares it with
    django-tables2's own rendering) for what these tables use: a value from the column's
    accessor, ``empty_values`` and ``default``, ``render_<column>`` or ``Column.render`` taking
    any of value, record, column, bound_column, bound_row and table, and static cell attributes.
    A column with ``linkify`` or ``localize``, or with attributes computed per cell, is refused
    rather than rendered differently; links come from :meth:`player_link` and the ``*_url``
    makers (one ``reverse()`` per page).
    """

    @cached_property
    def player_url(self) -> Callable[[object], str]:
        return url_maker("ratings:player")

    @cached_property
    def game_url(self) -> Callable[[object], str]:
        return url_maker("ratings:game")

    def player_link(self, player) -> SafeString:
        return link_html(self.player_url(player.slug), player.name)

    # How every table of a league writes a rating and a change: in its system's direction and
    # places (a subclass sets ``system``). Its ``render_<column>`` methods name these.
    def rating_cell(self, value: float) -> str:
        return rating_text(value, self.system.rating_places)

    def change_cell(self, value: float) -> SafeString | str:
        return change_html(
            value, lower_is_better=self.system.lower_is_better, places=self.system.rating_places
        )

    def body_html(self) -> SafeString:
        cells = [self._cell_renderer(column) for column in self.columns]
        rows = []
        # Without row_attrs a row's attributes are django-tables2's even or odd class only:
        # each of the two openings is written once.
        openings: dict[str, str] | None = None if self.row_attrs else {}
        for row in self.paginated_rows:
            if openings is None:
                opening = f"<tr {row.attrs.as_html()}>"
            else:
                parity = row.get_even_odd_css_class()
                opening = openings.get(parity) or openings.setdefault(
                    parity, f"<tr {row.attrs.as_html()}>"
                )
            html = [opening]
            html += [render(row) for render in cells]
            html.append("</tr>")
            rows.append("".join(html))
        if not rows and self.empty_text:
            colspan = len(self.columns)
            rows.append(format_html('<tr><td colspan="{}">{}</td></tr>', colspan, self.empty_text))
        return mark_safe("\n".join(rows))

    def _cell_renderer(self, bound_column) -> Callable[[BoundRow], str]:
        """The function that renders this column's cell of a row: its ``<td>`` as HTML."""
        column = bound_column.column
        td_attrs = column.attrs.get("td", column.attrs.get("cell", {}))
        if (
            bound_column.link
            or column.localize is not None
            or any(callable(value) for value in td_attrs.values())
        ):
            raise ImproperlyConfigured(
                f"{type(self).__name__}.{bound_column.name}: ClubTable renders static cell"
                " attributes and unlocalised values without linkify only"
            )
        opening = f"<td {bound_column.attrs['td'].as_html()}>"
        accessor = Accessor(bound_column.accessor)
        render = bound_column.render
        wanted, everything = _signature(render)
        empty, default = column.empty_values, bound_column.default

        def cell(row: BoundRow) -> str:
            record = row.record
            value = accessor.resolve(record, quiet=True)
            if value in empty:
                content = default
            else:
                arguments = {
                    "value": value,
                    "record": record,
                    "column": column,
                    "bound_column": bound_column,
                    "bound_row": row,
                    "table": self,
                }
                if not everything:
                    arguments = {name: arguments[name] for name in wanted}
                content = render(**arguments)
            return opening + cell_html(content) + "</td>"

        return cell


def cell_html(content) -> str:
    """What the template engine does to a value it prints: localise, then escape. Markup and
    text, most of a table's cells, go straight through (localising either gives it back): a page
    writes hundreds of cells, and Django's escape checks each argument for a lazy string."""
    kind = type(content)
    if kind is SafeString:
        return content
    if kind is str:
        return html.escape(content)  # Django's escape, without the check
    return conditional_escape(localize(template_localtime(content)))


def link_html(url: str, text) -> SafeString:
    """``<a href="url">text</a>``, both escaped (as ``format_html`` would)."""
    return SafeString(f'<a href="{html.escape(url)}">{cell_html(text)}</a>')


def _signature(render: Callable) -> tuple[tuple[str, ...], str | None]:
    """django-tables2's ``signature`` of a column's render method, worked out once per
    function rather than once per table (``inspect`` takes its time): a bound method's
    arguments are its function's."""
    function = getattr(render, "__func__", None)
    if function is None:
        return signature(render)
    found = _SIGNATURES.get(function)
    if found is None:
        found = _SIGNATURES[function] = signature(render)
    return found


_SIGNATURES: dict[Callable, tuple[tuple[str, ...], str | None]] = {}


# Numbers in the cells only: the headers of these tables are long and may wrap on a phone (a
# header with the "num" class never does).
NUMBER_CELLS = {"td": {"class": "num"}}


def score_labels(system: RatingSystem) -> tuple[str, str]:
    """What a sum and an average of a league's game scores are called: final scores in
    Preferans, points (1 a win, ½ a draw) in a league of two-player games, scores otherwise."""
    if system.has_paper:
        return _("Final scores, in all"), _("Average final score")
    if system.wins_draws_losses:
        return _("Points"), _("Points per game")
    return _("Scores, in all"), _("Average score")
