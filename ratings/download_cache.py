"""Downloads (the standings and games exports, rayter files) cached by the data versions of
what they show (the club's and their league's), as the pages are (:mod:`ratings.page_cache`).

A league's whole history costs seconds to read and write out; asked again at the same data
version, :func:`cached_download` answers from the shared cache (``CACHE_URL``) after reading
the version, its one query. A streamed download is sent as it is built, and kept, compressed,
as it goes by: once whole, it is stored, and sent again as a stream. One cut short (the client
left) or bigger than ``DOWNLOAD_CACHE_MAX_BYTES`` is not kept.

A download is the same for every visitor, so the key has no viewer; the reading rule
(``club_readable``) runs above, on every request. Its facts that change with the clock (who is
inactive) are as old as the pages' at most: the key carries the clock's period too.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Callable, Iterator
from functools import partial, wraps

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils import timezone, translation

from ratings import versioning
from ratings.page_cache import cache_call, clock_period, code_fingerprint, in_write_transaction

# The headers a download is sent with, kept with it.
KEPT_HEADERS = ("Content-Type", "Content-Disposition")
# The pieces a cached download is sent in, uncompressed.
PIECE_BYTES = 256 * 1024


def cached_download(
    view: Callable[..., HttpResponse] | None = None,
    *,
    shows: versioning.Shows = versioning.EVERY_LEAGUE,
) -> Callable[..., HttpResponse]:
    """Serve ``view``'s 200 downloads from the cache while the data it ``shows`` (see
    :func:`ratings.page_cache.cached_page`) has not changed.

    Goes below the decorators that may refuse the request (``club_readable``) and above the
    throttle (:func:`ratings.throttling.heavy_read`): a download from the cache costs nothing.
    """

    if view is None:
        return partial(cached_download, shows=shows)

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        version = None if in_write_transaction(request) else versioning.current(shows, kwargs)
        if version is None:
            return view(request, *args, **kwargs)
        key = _key(request, version)
        stored = cache_call(cache.get, key)
        if stored is not None:
            return _from_cache(stored)
        response = view(request, *args, **kwargs)
        if response.status_code != 200 or response.cookies:
            return response
        headers = {name: response[name] for name in KEPT_HEADERS if name in response}
        if response.streaming:
            response.streaming_content = _keeping(response.streaming_content, key, headers)
        else:
            content = response.content
            _store(key, headers, zlib.compress(content, 1), len(content), streamed=False)
        return response

    return wrapper


def _key(request: HttpRequest, version: versioning.Version) -> str:
    path = hashlib.sha256(request.get_full_path().encode()).hexdigest()
    period = clock_period(timezone.now())
    language = translation.get_language()
    return f"download:{code_fingerprint()}:{version}:{period}:{language}:{path}"


# The largest download kept, uncompressed, unless the setting DOWNLOAD_CACHE_MAX_BYTES says.
DEFAULT_MAX_BYTES = 64 * 1024 * 1024


def _max_bytes() -> int:
    return getattr(settings, "DOWNLOAD_CACHE_MAX_BYTES", DEFAULT_MAX_BYTES)


def _keeping(pieces: Iterator[bytes], key: str, headers: dict) -> Iterator[bytes]:
    """Send ``pieces`` on, compressing a copy; store it once the last piece is sent."""
    compressor = zlib.compressobj(1)
    kept: list[bytes] | None = []
    size = 0
    for piece in pieces:
        if kept is not None:
            size += len(piece)
            if size > _max_bytes():
                kept = None  # too big to keep: sent, not cached
            else:
                kept.append(compressor.compress(piece))
        yield piece
    if kept is not None:
        kept.append(compressor.flush())
        _store(key, headers, b"".join(kept), size, streamed=True)


def _store(key: str, headers: dict, compressed: bytes, size: int, *, streamed: bool) -> None:
    if size <= _max_bytes():
        cache_call(cache.set, key, (headers, compressed, streamed))


def _from_cache(stored: tuple[dict, bytes, bool]) -> HttpResponse | StreamingHttpResponse:
    """The download as it was first sent: a stream in pieces (a whole league's games), or
    whole (a leaderboard)."""
    headers, compressed, streamed = stored
    if streamed:
        response = StreamingHttpResponse(_decompressed(compressed))
    else:
        response = HttpResponse(zlib.decompress(compressed))
    for name, value in headers.items():
        response[name] = value
    return response


def _decompressed(compressed: bytes) -> Iterator[bytes]:
    decompressor = zlib.decompressobj()
    rest = compressed
    while rest:
        piece = decompressor.decompress(rest, PIECE_BYTES)
        rest = decompressor.unconsumed_tail
        if piece:
            yield piece
    tail = decompressor.flush()
    if tail:
        yield tail
