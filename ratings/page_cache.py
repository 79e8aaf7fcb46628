"""Whole pages cached, keyed by the data versions of what they show; conditional GET by the
same key.

A page costs its queries and its template once per data version: :func:`cached_page` reads the
versions (one query, :func:`ratings.versioning.current`): the club-wide one and those of the
leagues the page shows (``shows``: a league's page its league, a game's its game's league, the
home page and a player's every league), and answers from the shared cache (``CACHE_URL``) when
that page was already drawn at those versions, or 304 when the browser has it. A version changes
in the same transaction as any write to what it covers, so a cached page is never older than
the last committed write (``tests/views/test_freshness.py``), and a write in one league leaves
the other leagues' pages cached.

On a miss one request draws the page while the others asking for it at the same versions wait
for its result (:func:`drawn_once`), a little while at most, then draw it themselves: a write
does not send every worker to draw the big league's season page at once. That works across
processes with a cache they share (Redis, as docs/operations.md says to deploy).

What differs between two visitors of one address is not cached: the CSRF token and the messages
are marks in the page (:data:`CSRF_MARK`, :data:`MESSAGES_MARK`, from ``{% csrf_input %}`` and
``{% messages_here %}``) that :func:`fill_viewer_parts` fills in on every response, cached or
not. A member's own page (their name in the header, their permissions' links) is cached for
that member only; the user and permission tables are versioned like the club's own.

A page of a few players (a player's, a head to head, a night's) is keyed by their versions in
their leagues rather than by the leagues' (``versioning.Shows`` with ``players``): a burst of
other players' games leaves it cached. What it shows that no version covers is read at every
request and joins the key (``read_too``: a player's rank). The digital paper is drawn anew each
time (its deal form carries a fresh key) but answers a watching phone's refresh with 304 by the
same kind of key (:func:`conditional_page`).

Facts that change with the clock rather than the data ("games in the last 30 days", who is
inactive) are at most :data:`CLOCK_FACTS_MAX_AGE` old: the key carries the clock's period too.
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache, partial, wraps
from typing import TypeVar

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.middleware.gzip import re_accepts_gzip
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.html import escape

from ratings import page_gzip, versioning
from ratings.models import GameReport
from ratings.static_build import static_build

logger = logging.getLogger(__name__)

CSRF_MARK = b"<!--club:csrf-->"
MESSAGES_MARK = b"<!--club:messages-->"
# Staff's count of open mistake reports: a report in any league, which the versions of the
# leagues a page shows do not cover, so it is counted on every response that shows it.
REPORTS_MARK = b"<!--club:reports-->"
_ANY_MARK = b"<!--club:"

T = TypeVar("T")
# A statement of SQL with its parameters, as the database connection's cursor takes them.
Statement = tuple[str, Sequence]

# How old a page's facts that change with the clock may be: every page is drawn again at least
# once in each such period, written or not.
CLOCK_FACTS_MAX_AGE = timedelta(hours=1)


def cached_page(
    view: Callable[..., HttpResponse] | None = None,
    *,
    shows: versioning.Shows
    | Callable[[HttpRequest, dict], tuple[versioning.Shows, dict]] = versioning.EVERY_LEAGUE,
    read_too: Callable[..., str] | None = None,
    rows: Rows | None = None,
) -> Callable[..., HttpResponse]:
    """Serve ``view``'s 200 pages from the cache while the data it ``shows`` has not changed:
    the club-wide tables and the leagues ``shows`` finds from the URL's arguments (every league
    unless told), or the players it shows in their leagues. ``shows`` may be a function of the
    request and the URL's arguments that gives the ``Shows`` and its arguments (a leaderboard
    showing a season: that season's versions).

    ``read_too(request, **kwargs)``: what the page shows that no version covers, read after the
    versions at every request and part of the key (a player's rank, which other players' games
    move); it may leave what it read on the request for the view.

    ``rows``: a second key for when the versions moved (:class:`Rows`): the page is taken from
    the drawing of the same rows in the same frame, if there was one, rather than drawn.

    Goes below the decorators that may refuse the request (``club_readable``): they run on
    every request.
    """
    if view is None:
        return partial(cached_page, shows=shows, read_too=read_too, rows=rows)

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        version = None
        if not in_write_transaction(request):
            version = versioning.current(
                *(shows(request, kwargs) if callable(shows) else (shows, kwargs))
            )
        if version is None:
            return view(request, *args, **kwargs)
        page = _page(request, read_too(request, **kwargs) if read_too else "")
        etag = _etag(request, f"{page}:{version}")
        if _browser_has(request, etag):
            response = HttpResponseNotModified()
        else:

            def draw() -> HttpResponse:
                return view(request, *args, **kwargs)

            if rows is not None:
                draw = partial(_by_rows, rows, request, kwargs, page, draw)
            content, response, drawn_at = drawn_once(page, version, draw)
            if response is None:
                response = HttpResponse(content)
                response.club_from_cache = True  # the same bytes as for others: fill_viewer_parts
                etag = _etag(request, f"{page}:{drawn_at}")
            elif not _cacheable(response):
                return response
        response["ETag"] = etag
        # The browser asks again every time (a rating must never be stale), cheaply: 304.
        patch_cache_control(response, private=True, no_cache=True)
        return response

    return wrapper


@dataclass(frozen=True)
class Rows:
    """A page's second key, for a page of a few rows of a big table that most writes leave as
    they were: a league's leaderboard shows one page of its standings, and a game moves the
    standings of its three players only. The first key (``shows``) moves at every write into
    the league; when it has, this one is read: the versions of what the page shows around its
    rows (``frame(request, kwargs)``: a ``Shows`` and its arguments, or None for a page
    without a second key), then the rows themselves, by the statement
    ``statement(request, **kwargs)`` gives (:func:`ratings.pagination.page_statement`: the
    query the page's table draws from, with its count; None for a page it cannot stand for).
    Every value it reads completes the key. The same rows in the same frame are the same
    page: it is taken from the cache rather than drawn, and stored under the first key too.

    The statement is the page's own query as compiled once for the frame's versions (the
    league's settings are club-wide, in every version), kept in the cache by those: the first
    request after a write reads the versions, the statement and its rows as plain tuples,
    and builds no queryset and no model instance unless the page is drawn. Keyed by what it
    shows, the page is as fresh as its rows and its frame; the requests between two writes take
    the first key only."""

    frame: Callable[[HttpRequest, dict], tuple[versioning.Shows, dict] | None]
    statement: Callable[..., Statement | None]


def _by_rows(
    rows: Rows, request: HttpRequest, kwargs: dict, page: str, draw: Callable[[], HttpResponse]
) -> HttpResponse:
    """The page from the drawing of the same rows in the same frame (:class:`Rows`), or drawn
    and stored by that key."""
    frame = rows.frame(request, kwargs)
    version = versioning.current(*frame) if frame is not None else None
    if version is None:
        return draw()
    statement = kept_read(f"rows:{page}", version, partial(rows.statement, request, **kwargs))
    read = _read(statement)
    if read == []:
        # No row: a page past an end that moved since the statement was kept (or a league
        # without players): compiled again for this very page.
        statement = rows.statement(request, **kwargs)
        read = _read(statement)
    if read is None:
        return draw()  # a page its statement cannot stand for (kept_read keeps no None)
    digest = hashlib.sha256(repr((statement, read)).encode()).hexdigest()[:32]
    key = f"{page}.rows.{digest}:{version}"
    content = cache_call(cache.get, key)
    if content is not None:
        return HttpResponse(content)
    response = draw()
    if _cacheable(response):
        cache_call(cache.set, key, response.content)
    return response


def _read(statement: Statement | None) -> list[tuple] | None:
    """Every row the statement reads, as plain tuples, in its order."""
    if statement is None:
        return None
    with connection.cursor() as cursor:
        cursor.execute(*statement)
        return cursor.fetchall()


# How long a request waits for another drawing the page it asks for, at most, before it draws
# the page itself (and how long a drawer's mark lasts if it never finishes).
DRAW_WAIT_SECONDS = 5.0
_POLL_SECONDS = (0.005, 0.04)  # the first and the longest pause between two looks


def drawn_once(
    page: str, version: versioning.Version, draw: Callable[[], HttpResponse]
) -> tuple[bytes | None, HttpResponse | None, versioning.Version]:
    """The ``page`` at ``version`` from the cache (content, None, the versions it was drawn
    at), or (None, the response, ``version``) drawn by this request, cached if it may be.

    ``page`` is the page's address and viewer: every part of its key but the versions. On a
    miss the first request at these versions marks them as being drawn (``cache.add``: one
    wins, in one process or, with a shared cache, in all), notes them as the page's newest
    drawing, draws, stores and unmarks; the others wait and take the page as soon as it is
    drawn: in this process woken as it ends (:class:`_Drawing`), in others looking again every
    few milliseconds. A request also takes the page of a drawing at newer
    versions (:meth:`~ratings.versioning.Version.at_least`: it counts every write these count)
    rather than drawing its own: under a burst of writes into a league, a request that read
    the versions just before the last write waits for that write's drawing. So a page is drawn
    at most once per write, however many ask for it. A request draws the page itself when every
    drawing it waited for stored none (not one to cache: an error, a redirect) or after
    :data:`DRAW_WAIT_SECONDS`. A cache that fails is no cache: the page is drawn.
    """
    key = f"{page}:{version}"
    content = cache_call(cache.get, key)
    if content is not None:
        return content, None, version
    newest = f"{page}:newest"
    # Whole seconds: Redis keeps a key a whole number of seconds (0 would not keep it).
    seconds = max(1, math.ceil(DRAW_WAIT_SECONDS))
    drawing = cache_call(cache.get, newest)
    if not (isinstance(drawing, versioning.Version) and drawing.at_least(version)):
        taken = cache_call(cache.add, f"{key}:drawing", 1, seconds)
        if taken is None:
            return None, _drawn(key, draw), version  # the cache failed
        if taken:
            mine = _DRAWING_HERE[key] = _Drawing()
            cache_call(cache.set, newest, version, seconds)
            try:
                response = _drawn(key, draw)
                if _cacheable(response):
                    mine.content = response.content
                return None, response, version
            finally:
                cache_call(cache.delete, f"{key}:drawing")
                if _DRAWING_HERE.get(key) is mine:  # (not another's, after this one's mark ran out)
                    del _DRAWING_HERE[key]
                with _DRAWING_ENDED:
                    mine.ended = True
                    _DRAWING_ENDED.notify_all()
        drawing = version  # another request is drawing these very versions
    waiting = {f"{page}:{drawing}": drawing}  # the drawings as fresh as these versions
    here: dict[str, _Drawing] = {}  # those of them drawn in this process
    deadline = time.monotonic() + DRAW_WAIT_SECONDS
    pause = _POLL_SECONDS[0]
    while (left := deadline - time.monotonic()) > 0:
        for name in waiting:  # (.get: the drawing may end and leave between two looks)
            if (drawing := _DRAWING_HERE.get(name)) is not None:
                here.setdefault(name, drawing)
        all_here = len(here) == len(waiting)
        with _DRAWING_ENDED:
            if not any(drawing.ended for drawing in here.values()):
                _DRAWING_ENDED.wait(left if all_here else pause)
        for name, drawing in here.items():
            if drawing.content is not None:
                return drawing.content, None, waiting[name]
        if all_here:
            if all(drawing.ended for drawing in here.values()):
                break  # each drawn and not stored: draw it here
            continue  # another drawing of this process ended: this one is still under way
        pause = min(pause * 2, _POLL_SECONDS[1])
        found = cache_call(
            cache.get_many, [*waiting, *(f"{name}:drawing" for name in waiting), newest]
        )
        if found is None:
            break  # the cache failed
        for name, drawn_at in waiting.items():
            if found.get(name) is not None:
                return found[name], None, drawn_at
        if not any(f"{name}:drawing" in found for name in waiting):
            break  # each drawn and not stored: draw it here
        drawing = found.get(newest)
        if isinstance(drawing, versioning.Version) and drawing.at_least(version):
            waiting.setdefault(f"{page}:{drawing}", drawing)
    return None, _drawn(key, draw), version


class _Drawing:
    """A page being drawn by a thread of this process: the threads here that wait for it are
    woken when it ends (:data:`_DRAWING_ENDED`) and take its page from it, rather than looking
    for it in the cache every few milliseconds; those of other processes look."""

    __slots__ = ("content", "ended")

    def __init__(self) -> None:
        self.content: bytes | None = None  # the page, once drawn, if it is one to keep
        self.ended = False


_DRAWING_HERE: dict[str, _Drawing] = {}  # by the key of the page at its versions
_DRAWING_ENDED = threading.Condition()


def _drawn(key: str, draw: Callable[[], HttpResponse]) -> HttpResponse:
    response = draw()
    if _cacheable(response):
        cache_call(cache.set, key, response.content)
    return response


def fill_viewer_parts(get_response):
    """Middleware: fill in each page's marks with this visitor's CSRF token and messages.

    Below the CSRF and messages middleware in MIDDLEWARE, so they see the token used and the
    messages shown. A page from the cache, the same bytes for every visitor but its marks, is
    gzipped here for a browser that asks, its fixed pieces compressed once per process
    (:mod:`ratings.page_gzip`); ``GZipMiddleware`` compresses every other response. It also
    notes the transactions open when the request came in (none in a server, a test's own in a
    test): see :func:`in_write_transaction`.
    """

    def middleware(request: HttpRequest) -> HttpResponse:
        request.club_transactions_before = len(connection.atomic_blocks)
        response = get_response(request)
        if response.streaming or not response.get("Content-Type", "").startswith("text/html"):
            return response
        content = response.content
        fill = partial(_filled, request, {})
        if getattr(response, "club_from_cache", False) and _gzip_for(request, content):
            packed = page_gzip.gzipped(content, _MARKS, fill)
            if len(packed) < len(content):
                _packed_response(response, packed)
                return response
        if _ANY_MARK in content:
            response.content = _MARKS.sub(lambda match: fill(match.group()), content)
        return response

    return middleware


_MARKS = re.compile(b"|".join(re.escape(mark) for mark in (CSRF_MARK, MESSAGES_MARK, REPORTS_MARK)))


def _filled(request: HttpRequest, done: dict[bytes, bytes], mark: bytes) -> bytes:
    """What fills ``mark`` for this visitor, worked out once per response."""
    if mark not in done:
        if mark == CSRF_MARK:
            token = escape(get_token(request)).encode()
            done[mark] = b'<input type="hidden" name="csrfmiddlewaretoken" value="' + token + b'">'
        elif mark == MESSAGES_MARK:
            done[mark] = _messages_html(request)
        else:
            done[mark] = _open_reports_html(request)
    return done[mark]


def _gzip_for(request: HttpRequest, content: bytes) -> bool:
    """Whether this response is one GZipMiddleware would compress (it leaves short ones)."""
    return len(content) >= 200 and bool(
        re_accepts_gzip.search(request.headers.get("Accept-Encoding", ""))
    )


def _packed_response(response: HttpResponse, packed: bytes) -> None:
    """``response`` carrying ``packed``, with the headers GZipMiddleware would give it (which
    then leaves it, already encoded)."""
    response.content = packed
    response["Content-Length"] = str(len(packed))
    response["Content-Encoding"] = "gzip"
    patch_vary_headers(response, ("Accept-Encoding",))
    etag = response.get("ETag", "")
    if etag.startswith('"'):
        response["ETag"] = "W/" + etag  # the bytes are not the page's own


def _messages_html(request: HttpRequest) -> bytes:
    messages = get_messages(request)
    if not len(messages):
        return b""
    return render_to_string("messages.html", {"messages": messages}).encode()


def _open_reports_html(request: HttpRequest) -> bytes:
    """A link to the open mistake reports, for staff who may read them (none: nothing)."""
    user = request.user
    if not (user.is_staff and user.has_perm("ratings.view_gamereport")):
        return b""
    count = GameReport.objects.filter(resolved=False).count()
    if not count:
        return b""
    return render_to_string("ratings/open_reports.html", {"count": count}).encode()


def cache_call(method, *args):
    """A cache that is down (a Redis restarting) costs speed, never the page: drawn instead."""
    try:
        return method(*args)
    except Exception:
        logger.warning("The page cache failed; the page is drawn without it.", exc_info=True)
        return None


def in_write_transaction(request: HttpRequest) -> bool:
    """Inside a transaction the request opened (``ATOMIC_REQUESTS``, or a view's own), the
    version may be one nobody else sees yet (and may be rolled back, then reused): such a page
    is neither cached nor served from the cache. Transactions open before the request came in
    (a test's own around it) do not count; without :func:`fill_viewer_parts` every open one
    does."""
    before = getattr(request, "club_transactions_before", 0)
    return len(connection.atomic_blocks) > before


def conditional_page(
    view: Callable[..., HttpResponse] | None = None,
    *,
    shows: versioning.Shows,
) -> Callable[..., HttpResponse]:
    """Answer 304, drawing nothing, when the browser holds ``view``'s page at the versions of
    what it ``shows``; else draw it (never cached here: a page with a form of its own for each
    drawing, the digital paper's). A phone watching a paper asks every few seconds: one query
    while nothing at its table changed."""
    if view is None:
        return partial(conditional_page, shows=shows)

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        version = None if in_write_transaction(request) else versioning.current(shows, kwargs)
        if version is None:
            return view(request, *args, **kwargs)
        etag = _etag(request, f"{_page(request)}:{version}")
        if _browser_has(request, etag):
            response = HttpResponseNotModified()
        else:
            response = view(request, *args, **kwargs)
            if not _cacheable(response):
                return response
        response["ETag"] = etag
        patch_cache_control(response, private=True, no_cache=True)
        return response

    return wrapper


def kept_read(name: str, version: versioning.Version | None, read: Callable[[], T]) -> T:
    """``read()``, or what it gave at these versions, from the cache: for what a page reads at
    every request for its key (``read_too``) when ``version`` covers all it reads (a player's
    ranks, which any game of their leagues may move, by every league's versions). Kept for the
    clock's period and the release, as pages are; read afresh without a version."""
    if version is None:
        return read()
    key = f"read:{code_fingerprint()}:{clock_period(timezone.now())}:{name}:{version}"
    value = cache_call(cache.get, key)
    if value is None:
        value = read()
        cache_call(cache.set, key, value)
    return value


def _page(request: HttpRequest, read_too: str = "") -> str:
    """The page this request asks for, for this viewer: its key in the cache but the versions
    of what it shows (a page's key is ``{page}:{version}``)."""
    user = request.user
    viewer = str(user.pk) if user.is_authenticated else "-"
    period = clock_period(timezone.now())
    # The whole address, host included: a page may name its own address (a table card's QR
    # code), and a club reached at two addresses gets each its own.
    path = hashlib.sha256(request.build_absolute_uri().encode()).hexdigest()
    # A page names its static files by the build's hashed addresses: a release that changes
    # only a script must still draw the pages again, or they would load the script before it.
    build = static_build().version
    language = translation.get_language()
    if read_too:
        read_too = "." + hashlib.sha256(read_too.encode()).hexdigest()[:24]
    return f"page:{code_fingerprint()}:{build}{read_too}:{period}:{language}:{viewer}:{path}"


def clock_period(moment: datetime) -> int:
    """The number of the :data:`CLOCK_FACTS_MAX_AGE` period ``moment`` falls in: a page drawn
    in one period is not served in the next."""
    return int(moment.timestamp() // CLOCK_FACTS_MAX_AGE.total_seconds())


def _etag(request: HttpRequest, key: str) -> str:
    # The page the browser holds carries a CSRF token for the cookie it had then.
    csrf_cookie = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
    return '"' + hashlib.sha256(f"{key}:{csrf_cookie}".encode()).hexdigest()[:32] + '"'


def _browser_has(request: HttpRequest, etag: str) -> bool:
    if_none_match = request.headers.get("If-None-Match", "")
    if not if_none_match:
        return False
    offered = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
    # Messages waiting to be shown need the page drawn again.
    return etag in offered and not len(get_messages(request))


def _cacheable(response: HttpResponse) -> bool:
    return (
        response.status_code == 200
        and not response.streaming
        and not response.cookies
        and response.get("Content-Type", "").startswith("text/html")
    )


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """The templates, code and translations that draw the pages, as they are in this process:
    a shared cache never serves a page drawn by another release."""
    digest = hashlib.sha256()
    for root in ("templates", "ratings", "club", "locale"):
        for directory, _dirs, files in sorted(os.walk(settings.BASE_DIR / root)):
            for name in sorted(files):
                if name.endswith((".py", ".html", ".mo")):
                    stat = os.stat(os.path.join(directory, name))
                    digest.update(f"{directory}/{name}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    return digest.hexdigest()[:12]
