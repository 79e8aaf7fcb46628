"""Downloads of a league's whole history of games (CSV, JSON), streamed as they are read.

The format is :mod:`ratings.exports`'s; these views only find the league and send the stream.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_safe

from ratings import exports, versioning
from ratings.access import club_readable
from ratings.download_cache import cached_download
from ratings.models import League
from ratings.throttling import heavy_read


@require_safe
@club_readable
@cached_download(shows=versioning.LEAGUE_BY_SLUG)
@heavy_read
def games_export(request: HttpRequest, slug: str, fmt: str) -> StreamingHttpResponse:
    """Every game of the league in rating order, as a CSV or JSON download (two queries: the
    league, then its results read in chunks while the response is sent)."""
    if fmt not in exports.FORMATS:
        raise Http404("Unknown export format")
    league = get_object_or_404(League, slug=slug)
    response = StreamingHttpResponse(
        exports.stream(league, fmt), content_type=exports.CONTENT_TYPES[fmt]
    )
    response["Content-Disposition"] = content_disposition_header(
        True, exports.filename(league, fmt)
    )
    return response
