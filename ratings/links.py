"""URLs for every row of a page at the cost of one reverse().

reverse() walks the URLconf each time, and a page of 50 rows with two or three links each would
walk it a hundred times or more. :func:`url_maker` reverses once with a marker argument and
fills each row's argument in, quoted exactly as reverse() quotes it.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import quote

from django.urls import reverse
from django.utils.http import RFC3986_SUBDELIMS

# Digits only: a valid argument for every converter these URLs use (int, slug, player_slug).
_MARKER = "9876543210"
_SAFE = RFC3986_SUBDELIMS + "/~:@"  # what reverse() leaves unquoted in a path


def url_maker(viewname: str) -> Callable[[object], str]:
    """A function giving ``reverse(viewname, args=[arg])`` for any ``arg``.

    Made per request (reverse() depends on the request's script prefix), for a view whose path
    has one argument.
    """
    head, _marker, tail = reverse(viewname, args=[_MARKER]).rpartition(_MARKER)

    def url(arg: object) -> str:
        if isinstance(arg, int):  # a game's id: nothing to quote (a chart has thousands)
            return f"{head}{arg}{tail}"
        return f"{head}{quote(str(arg), safe=_SAFE)}{tail}"

    return url
