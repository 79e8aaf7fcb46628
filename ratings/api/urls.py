"""The API's one NinjaAPI: ``/api/v1/`` with its OpenAPI file and docs page.

The docs page is django-ninja's Swagger UI from its own static files (``ninja`` is in
INSTALLED_APPS, which makes ninja render it with the app's static files rather than a CDN's):
a club without internet still reads its API's docs, and the page keeps to the site's CSP.
"""

from ninja import NinjaAPI
from ninja.openapi.docs import Swagger

from ratings.api import errors
from ratings.api.routers import events, games, leagues, players

api = NinjaAPI(
    title="Card club API",
    version="1",
    description=(
        "Read a club's leagues, standings, players, games and events; post a game with a "
        "token (one per device or bot, made on the site's API tokens page, /account/tokens/). "
        "See docs/api.md."
    ),
    urls_namespace="api-v1",
    docs=Swagger(),
    docs_url="/docs",
    parser=errors.JsonParser(),
)
errors.install(api)
api.add_router("/leagues", leagues.router)
api.add_router("/players", players.router)
api.add_router("/games", games.router)
api.add_router("", events.router)
