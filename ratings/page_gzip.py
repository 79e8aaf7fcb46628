"""Gzip for a page that is the same for every visitor but a few marks filled in for each: its
fixed pieces compressed once, its visitor's few bytes at each request.

A cached page (:mod:`ratings.page_cache`) is the same bytes for thousands of requests but for
its marks (the CSRF token, the messages), so compressing all of it for each request, as Django's
``GZipMiddleware`` does, compresses the same hundred kilobytes again and again: on a player's
page of 4,000 games it was a third of a cached request's work. Here each fixed piece (the bytes
between two marks) is deflated on its own and ended by a full flush, which aligns it to a byte
and lets nothing after it refer back into it; the pieces are kept (:func:`_pieces`, by the
page's bytes), and a request deflates only what fills its marks, the same way, then joins them
into one gzip member with the CRC and length of the whole page as filled. A deflate stream may
be cut into blocks anywhere, so the joined stream is what any gzip reader reads.

Since no piece refers to another, a visitor's token is compressed with nothing but itself: the
length of the response tells nothing about how the token relates to the rest of the page, the
leak the BREACH attack measures (against which Django pads a response it compresses whole).

No Django import: bytes in, bytes out.
"""

from __future__ import annotations

import re
import struct
import zlib
from collections.abc import Callable
from functools import lru_cache

LEVEL = 6  # zlib's default, which Django's GZipMiddleware uses too
# The gzip header (RFC 1952): its magic, deflate, no flags, no time, no extra flags, "unknown"
# system; and a raw deflate stream (no zlib header) for the pieces.
_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
_RAW_DEFLATE = -zlib.MAX_WBITS
# The last block of every stream: empty, marked final.
_END = zlib.compressobj(LEVEL, zlib.DEFLATED, _RAW_DEFLATE).flush(zlib.Z_FINISH)
# A page's pieces for this many pages (two worker threads' most asked pages).
KEPT_PAGES = 64


def gzipped(content: bytes, marks: re.Pattern[bytes], fill: Callable[[bytes], bytes]) -> bytes:
    """``content`` with each match of ``marks`` replaced by ``fill(match)``, gzipped: the fixed
    pieces deflated once per page (:func:`_pieces`), the fills at each call."""
    fixed, found = _pieces(content, marks)
    crc, size, parts = 0, 0, [_HEADER]
    for index, (piece, packed) in enumerate(fixed):
        crc = zlib.crc32(piece, crc)
        size += len(piece)
        parts.append(packed)
        if index < len(found):
            filled = fill(found[index])
            crc = zlib.crc32(filled, crc)
            size += len(filled)
            parts.append(_deflated(filled))
    parts.append(_END)
    parts.append(struct.pack("<II", crc, size & 0xFFFFFFFF))
    return b"".join(parts)


@lru_cache(maxsize=KEPT_PAGES)
def _pieces(
    content: bytes, marks: re.Pattern[bytes]
) -> tuple[tuple[tuple[bytes, bytes], ...], tuple[bytes, ...]]:
    """The page's fixed pieces, each with its deflated bytes, and the marks between them."""
    pieces, found, start = [], [], 0
    for match in marks.finditer(content):
        pieces.append(content[start : match.start()])
        found.append(match.group())
        start = match.end()
    pieces.append(content[start:])
    return tuple((piece, _deflated(piece)) for piece in pieces), tuple(found)


def _deflated(piece: bytes) -> bytes:
    """``piece`` as deflate blocks that end on a byte and refer to nothing before them, so that
    any such blocks may follow."""
    packer = zlib.compressobj(LEVEL, zlib.DEFLATED, _RAW_DEFLATE)
    return packer.compress(piece) + packer.flush(zlib.Z_FULL_FLUSH)
