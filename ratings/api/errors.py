"""Every refusal of the API in one shape: ``{"errors": [{"field", "message", "suggestions"}]}``.

django-ninja answers its own refusals in other shapes (``{"detail": "..."}``, a 422 with
pydantic's list) and leaves a body over DATA_UPLOAD_MAX_MEMORY_SIZE to Django's HTML 400 page.
A client reads one shape whatever went wrong, so :func:`install` replaces ninja's handlers: a
value the shapes refuse is a 400 naming its field as a game's errors do (``seats[2].left``), a
path that names nothing is a 404, a body that is not JSON a 400, a body too large a 413. The
OpenAPI file lists these statuses on each route (:func:`refusals`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, Throttled, ValidationError
from ninja.parser import Parser

from ratings import formatting
from ratings.api.schemas import Errors


def _new_name(params: Mapping) -> str:
    return _(
        "The club has no player called %(name)s. Did you mean %(matches)s? Send one of "
        'them, or list %(name)s in "new_players" to add a new member.'
    ) % {"name": params["name"], "matches": params["matches"]}


def _middle_sum(params: Mapping) -> str:
    return _(
        "The middle column sums to %(sum)s, not 0: the game ends when the bulas add up to "
        'zero. Send "ended_early": true if it was stopped before that.'
    ) % {"sum": formatting.number_text(params["sum"])}


def _bulas_left(params: Mapping) -> str:
    return _(
        "The bulas add up to %(sum)d: the game is over when they reach zero. Send "
        '"ended_early": true if the clock stopped it.'
    ) % {"sum": params["sum"]}


# Refusals the site words by its own means ("tick 'Pedia is a new member'", "mark the game as
# ended early"), worded here by the API's fields. The rule that refuses is the entry service's
# (or the paper's); it hands its code and the message's params to every interface.
_API_WORDING = {"new_name": _new_name, "middle_sum": _middle_sum, "bulas_left": _bulas_left}


def worded(message: str, code: str | None, params: Mapping | None) -> str:
    """A refusal in the API's words: the site's ``message`` unless the refusal's ``code`` says
    what to do by the site's means."""
    wording = _API_WORDING.get(code or "")
    return message if wording is None else wording(params or {})


def refusals(*statuses: int) -> dict[int, type[Errors]]:
    """A route's refusals for its ``response=``, so the OpenAPI file lists each status it may
    answer: every one an ``Errors``."""
    return dict.fromkeys(statuses, Errors)


class NotJson(ValueError):
    """A body that is not JSON, or JSON with NaN or Infinity, which no JSON client sends."""


class JsonParser(Parser):
    """ninja's parser, strict: ``NaN`` and ``Infinity`` (Python's json reads them) are refused
    rather than handed to a score."""

    def parse_body(self, request: HttpRequest) -> Any:
        try:
            return json.loads(request.body, parse_constant=_not_a_number)
        except ValueError as error:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
            raise NotJson(str(error)) from error


def _not_a_number(constant: str):
    raise NotJson(constant)


def error_body(message: str, field: str | None = None) -> dict:
    return {"errors": [{"field": field, "message": message, "suggestions": None}]}


def field_path(loc: tuple) -> str | None:
    """pydantic's location as the API names fields: ``seats[2].left``, ``limit``; None for the
    body as a whole."""
    source, *parts = loc
    if source == "body":
        parts = parts[1:]  # the view's parameter name (``game``), which the client never sees
    path = ""
    for part in parts:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += f".{part}" if path else str(part)
    return path or None


# pydantic's error types, by the kind of value expected: what a client should send instead.
_EXPECTED = {
    "int": lambda: _("Enter a whole number."),
    "float": lambda: _("Enter a number."),
    "finite": lambda: _("Enter a number."),
    "bool": lambda: _("Enter true or false."),
    "datetime": lambda: _("Enter a date and time such as 2026-03-12T21:30:00+01:00."),
    "uuid": lambda: _("Enter a UUID such as 0b6f1c8e-3d4a-4f7e-9a55-2f1c7a1e9d10."),
    "string": lambda: _("Enter a text."),
    "list": lambda: _("Enter a list."),
    "dict": lambda: _("Enter an object."),
    "model": lambda: _("Enter an object."),
}


def message(error: dict) -> str:
    """A pydantic error in the club's words, in the request's language."""
    kind, ctx = error["type"], error.get("ctx") or {}
    if kind == "missing":
        return _("This field is required.")
    if kind == "value_error":  # the shapes' own validators, whose messages are translated
        return str(ctx["error"])
    if kind in ("greater_than_equal", "greater_than"):
        return _("Enter a number of at least %(limit)s.") % {"limit": ctx.get("ge", ctx.get("gt"))}
    if kind in ("less_than_equal", "less_than"):
        return _("Enter a number of at most %(limit)s.") % {"limit": ctx.get("le", ctx.get("lt"))}
    if kind == "string_too_long":
        limit = ctx["max_length"]
        return ngettext("At most %(limit)s character.", "At most %(limit)s characters.", limit) % {
            "limit": limit
        }
    if kind == "too_long":
        limit = ctx["max_length"]
        return ngettext("At most %(limit)s item.", "At most %(limit)s items.", limit) % {
            "limit": limit
        }
    if kind == "string_pattern_mismatch":
        return _("This value is not of the form this field takes.")
    expected = _EXPECTED.get(kind.split("_")[0])
    return expected() if expected else _("Enter a valid value.")


def install(api: NinjaAPI) -> None:
    """Answer every refusal of ``api`` in the ``Errors`` shape."""

    def respond(request, status: int, body: dict) -> HttpResponse:
        return api.create_response(request, body, status=status)

    @api.exception_handler(ValidationError)
    def invalid(request, exc: ValidationError):
        # An address whose part is not one the path takes (a NUL byte in a slug) names nothing.
        if any(error["loc"][0] == "path" for error in exc.errors):
            return respond(request, 404, error_body(_("Not found.")))
        return respond(
            request,
            400,
            {
                "errors": [
                    {
                        "field": field_path(error["loc"]),
                        "message": message(error),
                        "suggestions": None,
                    }
                    for error in exc.errors
                ]
            },
        )

    @api.exception_handler(Http404)
    def not_found(request, exc: Http404):
        return respond(request, 404, error_body(_("Not found.")))

    @api.exception_handler(HttpError)
    def refused(request, exc: HttpError):
        if isinstance(exc.__cause__, NotJson):  # ninja's body parser wraps ours
            text = _("The body is not JSON.")
        elif isinstance(exc, AuthenticationError):
            text = _("A valid token is needed: Authorization: Bearer <token>.")
        elif isinstance(exc, Throttled):
            text = _("Too many requests: wait before sending again.")
        else:
            text = exc.message
        return respond(request, exc.status_code, error_body(text))

    @api.exception_handler(RequestDataTooBig)
    def too_big(request, exc: RequestDataTooBig):
        # Django's own answer would be its HTML 400 page.
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        message = ngettext(
            "The body is over %(limit)s byte.", "The body is over %(limit)s bytes.", limit
        ) % {"limit": limit}
        return respond(request, 413, error_body(message))
