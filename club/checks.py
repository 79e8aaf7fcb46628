"""The club's own system checks, beside Django's."""

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security, deploy=True)
def plain_http(app_configs, **kwargs) -> list[Warning]:
    """Say, in `check --deploy`, that PLAIN_HTTP sends passwords and sessions unencrypted.

    Django's own warnings name each protection that is off (Secure cookies, the HTTPS redirect,
    HSTS); this one names the setting that turned them all off, and when it is acceptable."""
    if not getattr(settings, "PLAIN_HTTP", False) or settings.DEBUG:
        return []
    return [
        Warning(
            "PLAIN_HTTP is on: the club is served over plain HTTP, so passwords and session "
            "cookies cross the network unencrypted.",
            hint="Only on a network you trust (the club's own LAN); anywhere else serve HTTPS "
            "and unset PLAIN_HTTP (docs/operations.md).",
            id="club.W001",
        )
    ]
