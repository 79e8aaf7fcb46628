"""How the pages' tables are paged: always :data:`PER_PAGE` rows, counted or not.

Every view that pages a table hands django-tables2 one of these (``RequestConfig(request,
paginate=PAGINATION)``).
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest
from django_tables2 import LazyPaginator, Table

PER_PAGE = 50


class FixedPaginator(Paginator):
    """Pages of PER_PAGE rows, whatever ``?per_page=`` says: django-tables2 reads that from the
    request, and a visitor's -1 would crash the page while 10**9 would load a whole league."""

    def __init__(self, object_list, per_page, *args, **kwargs):
        super().__init__(object_list, PER_PAGE, *args, **kwargs)


PAGINATION = {"per_page": PER_PAGE, "paginator_class": FixedPaginator}


class FixedLazyPaginator(LazyPaginator):
    """Pages of PER_PAGE rows found without counting them all: a page fetches one row more to
    know whether another follows. Counting a 200,000-game league took longer than its page."""

    def __init__(self, object_list, per_page, *args, **kwargs):
        super().__init__(object_list, PER_PAGE, *args, **kwargs)

    def validate_number(self, number):
        """A page past any league's end is answered as one (the nearest valid page): its
        offset, 50 times the number, must still fit the database's integer (``bigint``)."""
        return min(super().validate_number(number), MAX_PAGE)


# Further than any league's games go, and well inside a 64-bit OFFSET.
MAX_PAGE = 10**9
UNCOUNTED_PAGINATION = {"per_page": PER_PAGE, "paginator_class": FixedLazyPaginator}


def page_statement(table: Table, request: HttpRequest) -> tuple[str, tuple] | None:
    """The SQL that reads the page ``table`` shows (configured for ``request``: its sort and
    page number) with the rows' count in front of each, in one statement: what the page shows
    of its rows, read without building the table (:class:`ratings.page_cache.Rows`). None when
    the page shown is not the one asked for (a number past the end, or not a number: the
    paginator shows the nearest page, which the next count may move), or when the table is
    empty (its page reads nothing)."""
    page = table.page
    if page is None or not page.paginator.count:
        return None
    if request.GET.get(table.prefixed_page_field, "1") != str(page.number):
        return None
    rows_sql, rows_params = page.object_list.data.query.sql_with_params()
    counted = table.data.data.order_by().values("pk")
    count_sql, count_params = counted.query.sql_with_params()
    return (
        f"SELECT (SELECT COUNT(*) FROM ({count_sql}) AS counted), shown.* "
        f"FROM ({rows_sql}) AS shown",
        (*count_params, *rows_params),
    )
