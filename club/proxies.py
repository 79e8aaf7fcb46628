"""The address a request came from, behind as many reverse proxies as the club trusts.

django-axes keys its lockout on this address (AXES_CLIENT_IP_CALLABLE). Behind a proxy the
socket's address is the proxy's, the same for everyone; each trusted proxy appends the address
it was reached from to X-Forwarded-For, so with ``TRUSTED_PROXY_COUNT`` = n the client is the
n-th entry from the end. Entries before it were sent by the client and prove nothing. With no
trusted proxy the header is ignored altogether: anyone can send one.

(django-axes would read the proxy count itself through django-ipware, which the club does not
install; without it axes silently keeps to the socket's address.)
"""

from __future__ import annotations

import ipaddress
import logging

from django.conf import settings
from django.http import HttpRequest

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
