"""How the pages' tables are paged: always :data:`PER_PAGE` rows, counted or not.

Every view that pages a table hands django-tables2 one of these (``RequestConfig(request,
paginate=PAGINATION)``).
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django_tables2 import LazyPaginator

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


UNCOUNTED_PAGINATION = {"per_page": PER_PAGE, "paginator_class": FixedLazyPaginator}
