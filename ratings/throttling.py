"""Rate limits: the one throttle the site's heavy reads and the API's writes share, and the
address every limit counts a client by.

:class:`SettingRateThrottle` is django-ninja's sliding-window throttle (its history in the shared
cache, ``CACHE_URL``) with the rate read from a setting at every request, so a deployment (or a
test) changes it without a restart, and the client known by :func:`client_ip`: the address
behind the proxies the club trusts, never an X-Forwarded-For any client can write.

:func:`client_ip` is also django-axes' (``AXES_CLIENT_IP_CALLABLE``), which keys its login
lockout on it. Behind a proxy the socket's address is the proxy's, the same for everyone; each
trusted proxy appends the address it was reached from to X-Forwarded-For, so with
``TRUSTED_PROXY_COUNT`` = n the client is the n-th entry from the end. Entries before it were
sent by the client and prove nothing. With no trusted proxy the header is ignored altogether:
anyone can send one. (django-axes would read the proxy count itself through django-ipware, which
the club does not install; without it axes silently keeps to the socket's address.)

:func:`heavy_read` puts it on a view: an anonymous visitor past ``HEAVY_READ_RATE`` gets a 429
that says how long to wait (``Retry-After``). Members and staff are not throttled: they are
known accounts, and one that abused the site would be deactivated (docs/operations.md).
"""

from __future__ import annotations

import ipaddress
import logging
import math
from functools import wraps

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.translation import ngettext
from ninja.throttling import SimpleRateThrottle

from ratings.page_cache import cache_call

logger = logging.getLogger(__name__)


def client_ip(request: HttpRequest) -> str | None:
    """The client's address: from X-Forwarded-For behind trusted proxies, else the socket's."""
    remote = request.META.get("REMOTE_ADDR")
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies <= 0:
        return remote
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    entries = [entry.strip() for entry in forwarded.split(",")] if forwarded else []
    if len(entries) < proxies:
        # Not through every trusted proxy (sent to the app directly): only the socket is known.
        return remote
    candidate = entries[-proxies]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        logger.warning(
            "X-Forwarded-For entry %r is not an address: check TRUSTED_PROXY_COUNT and the "
            "proxy's header; counting the request by the socket's address %s",
            candidate,
            remote,
        )
        return remote


class SettingRateThrottle(SimpleRateThrottle):
    """A sliding window of ``rate_setting`` requests (``"10/min"``) per client, in the cache."""

    rate_setting: str
    default_rate: str

    def __init__(self):
        self.rate = None

    def allow_request(self, request: HttpRequest) -> bool:
        self.rate = getattr(settings, self.rate_setting, self.default_rate)
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request)

    def wait(self) -> float:
        """Seconds until the oldest request in the window leaves it (always a number, so the
        429 carries ``Retry-After``)."""
        if not self.history:
            return float(self.duration)
        return max(1.0, self.duration - (self.now - self.history[-1]))

    def get_ident(self, request: HttpRequest) -> str | None:
        return client_ip(request)

    def get_cache_key(self, request: HttpRequest) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class HeavyReadThrottle(SettingRateThrottle):
    """Anonymous requests that make the server read a whole league (an export not in the cache,
    the backtest): ``HEAVY_READ_RATE`` per address, all such pages together."""

    scope = "heavy-read"
    rate_setting = "HEAVY_READ_RATE"
    default_rate = "10/min"

    def get_cache_key(self, request: HttpRequest) -> str | None:
        if request.user.is_authenticated:
            return None  # not throttled: see the module's docstring
        return super().get_cache_key(request)


def heavy_read(view):
    """Throttle ``view`` with :class:`HeavyReadThrottle`. Goes below the page or download cache
    (``cached_page``, ``cached_download``), so what the cache answers is never counted."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        throttle = HeavyReadThrottle()
        # A cache that is down (a Redis restarting) lets every request through: it costs
        # protection for a while, never the page.
        if cache_call(throttle.allow_request, request) is not False:
            return view(request, *args, **kwargs)
        seconds = math.ceil(throttle.wait())
        response = HttpResponse(
            ngettext(
                "Too many downloads from your address. Please try again in %(seconds)d "
                "second, or log in.",
                "Too many downloads from your address. Please try again in %(seconds)d "
                "seconds, or log in.",
                seconds,
            )
            % {"seconds": seconds},
            status=429,
            content_type="text/plain; charset=utf-8",
        )
        response["Retry-After"] = str(seconds)
        return response

    return wrapper
