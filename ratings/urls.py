from django.urls import path

from ratings.views import entry, pages

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
    path("leagues/<slug:slug>/games/new/", entry.game_new, name="game_new"),
    path("games/<int:pk>/", pages.game_detail, name="game"),
    path("players/new/", entry.player_new, name="player_new"),
    path("players/<str:slug>/", pages.player_detail, name="player"),
]
