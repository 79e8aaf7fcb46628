"""The API's one NinjaAPI: ``/api/v1/`` with its OpenAPI file and docs page.

The docs page is the club's own (:mod:`ratings.api.docs`): drawn on the server from the OpenAPI
file in the site's layout, it reads and passes the accessibility checks as every other page, a
club without internet still reads it, and it runs no script.
"""

from ninja import NinjaAPI

from ratings.api import errors
from ratings.api.docs import ClubDocs
from ratings.api.routers import events, games, leagues, players

api = NinjaAPI(
    title="Card club API",
    version="1",
    description=(
        "Read a club's leagues, standings, players, games and events; post a game with a "
        "token (one per device or bot, made on the site's API tokens page, /account/tokens/). "
        "Every route, with examples to paste, is on the docs page, /api/v1/docs."
    ),
    urls_namespace="api-v1",
    docs=ClubDocs(),
    docs_url="/docs",
    parser=errors.JsonParser(),
)
errors.install(api)
api.add_router("/leagues", leagues.router)
api.add_router("/players", players.router)
api.add_router("/games", games.router)
api.add_router("", events.router)
