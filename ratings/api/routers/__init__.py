"""The API's routes, one module per resource, and what every read route shares (:func:`read`)."""

from __future__ import annotations

from collections.abc import Callable

from ninja import Router

from ratings.api.auth import READ_SECURITY, read_auth
from ratings.api.errors import refusals


def read(router: Router, path: str, body, *refused: int) -> Callable:
    """A read route of ``router``: ``body`` with 200; 401 for a token that is not valid (or
    none in a private club) and each status of ``refused``, all an ``Errors``; a token or none,
    as the OpenAPI file says."""
    return router.get(
        path,
        response={200: body, **refusals(401, *refused)},
        auth=read_auth,
        openapi_extra=READ_SECURITY,
    )
