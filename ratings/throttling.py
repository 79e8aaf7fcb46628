"""Rate limits: the one throttle the site's heavy reads and the API's writes share.

:class:`SettingRateThrottle` is django-ninja's sliding-window throttle (its history in the shared
cache, ``CACHE_URL``) with the rate read from a setting at every request, so a deployment (or a
test) changes it without a restart, and the client known by :func:`club.proxies.client_ip`: the
address behind the proxies the club trusts, never an X-Forwarded-For any client can write.

:func:`heavy_read` puts it on a view: an anonymous visitor past ``HEAVY_READ_RATE`` gets a 429
that says how long to wait (``Retry-After``). Members and staff are not throttled: they are
known accounts, and one that abused the site would be deactivated (docs/operations.md).
"""

from __future__ import annotations

import math
from functools import wraps

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.translation import ngettext
from ninja.throttling import SimpleRateThrottle

from club.proxies import client_ip
from ratings.page_cache import cache_call


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
