from django.urls import path, register_converter

from ratings.views import entry, files, pages, players_vs


class PlayerSlugConverter:
    """A player's slug: letters of any script, digits, "_" and "-", as slugify makes it.

    Narrower than <str:>, so a hostile path (a NUL byte, which PostgreSQL refuses in a query) is
    a 404 before any view runs.
    """

    regex = r"[-\w]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(PlayerSlugConverter, "player_slug")

app_name = "ratings"

urlpatterns = [
    path("", pages.home, name="home"),
    path("leagues/<slug:slug>/", pages.leaderboard, name="leaderboard"),
    path(
        "leagues/<slug:slug>/standings.<str:fmt>",
        pages.leaderboard_export,
        name="leaderboard_export",
    ),
    path("leagues/<slug:slug>/games/", pages.league_games, name="league_games"),
    path("leagues/<slug:slug>/rayter.txt", files.rayter_export, name="rayter_export"),
    path("leagues/<slug:slug>/import/", files.rayter_import, name="rayter_import"),
    path("leagues/<slug:slug>/games/new/", entry.game_new, name="game_new"),
    path("games/<int:pk>/", pages.game_detail, name="game"),
    path("players/new/", entry.player_new, name="player_new"),
    path("players/<player_slug:slug>/", pages.player_detail, name="player"),
    path(
        "players/<player_slug:a>/vs/<player_slug:b>/",
        players_vs.head_to_head,
        name="head_to_head",
    ),
    path("players/<player_slug:slug>/vs/", players_vs.head_to_head_pick, name="head_to_head_pick"),
]
