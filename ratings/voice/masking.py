"""A channel's URL is a secret (a bot token, a webhook's key): these keep it off pages and out
of error text. Pure: no Django."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

# Pieces of a URL long enough to be a token or a host worth hiding.
_PIECES = re.compile(r"[^/:@?&=#.\s]{4,}")


def masked_url(url: str) -> str:
    """The URL as anyone but the staff who may change it sees it: its scheme and its last four
    characters (enough to tell two channels apart), e.g. ``tgram://…9qXk``."""
    scheme, separator, rest = url.partition("://")
    if not separator:
        return "…"
    tail = rest.rstrip("/")[-4:] if len(rest) > 12 else ""
    return f"{scheme}://…{tail}"


def scrubbed(text: str, url: str) -> str:
    """``text`` (an error Apprise reported) with the URL and each of its pieces (hosts, tokens,
    paths) replaced by ``…``, so storing or showing it reveals none of the secret."""
    _scheme, _sep, rest = url.partition("://")
    text = text.replace(url, masked_url(url))
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:
        host = ""
    pieces = set(_PIECES.findall(rest)) | ({host} if host else set())
    for piece in sorted(pieces, key=len, reverse=True):
        text = text.replace(piece, "…")
    return text
