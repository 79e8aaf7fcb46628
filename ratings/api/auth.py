"""Who is calling: a token in ``Authorization: Bearer <token>``, acting as its member.

Reads follow the site's rule (:func:`ratings.access.club_readable`): anyone may read a public
club, only members a private one. Writes need a valid token (401 without one) whose member may
do the thing (403 otherwise, asked through :mod:`ratings.access`), and are throttled per token
(429 with ``Retry-After``).
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja.errors import HttpError
from ninja.security import HttpBearer

from ratings.access import can_enter_games
from ratings.models import ApiToken
from ratings.throttling import SettingRateThrottle


class TokenAuth(HttpBearer):
    """A valid, unrevoked token of an active member: the request then acts as that member."""

    def authenticate(self, request: HttpRequest, token: str) -> ApiToken | None:
        if not token or len(token) > 200:
            return None
        row = ApiToken.objects.authenticate(token)
        if row is not None:
            request.user = row.user
        return row


class ClubReadable:
    """Reads without a token, as the site allows them: always, unless the club is private
    (then a logged-in browser session still reads). A token that was sent but is not valid
    (revoked, mistyped) is a 401 all the same: a bot learns its token stopped working."""

    def __call__(self, request: HttpRequest) -> bool | None:
        if "Authorization" in request.headers:
            return None
        if not settings.CLUB_PRIVATE or request.user.is_authenticated:
            return True
        return None


token_auth = TokenAuth()
read_auth = [token_auth, ClubReadable()]
# A read's security in the OpenAPI file: a token, or none. ninja lists only the token, which
# tells clients that every read needs one; the read routes' ``openapi_extra`` adds the empty
# requirement (ninja extends the operation's list with this one).
READ_SECURITY = {"security": [{}]}


def require_entry(request: HttpRequest) -> None:
    """403 unless the token's member may enter games (the site's entry form's rule)."""
    if not can_enter_games(request.user):
        raise HttpError(403, _("This token's member may not enter games."))


class WriteThrottle(SettingRateThrottle):
    """Writes per token: ``API_WRITE_RATE`` (default 60 a minute)."""

    scope = "api-write"
    rate_setting = "API_WRITE_RATE"
    default_rate = "60/min"

    def get_cache_key(self, request: HttpRequest) -> str | None:
        token = getattr(request, "auth", None)
        ident = f"token-{token.pk}" if isinstance(token, ApiToken) else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}
