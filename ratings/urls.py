from django.urls import path, register_converter

from ratings.accounts import views as accounts
from ratings.models.players import SLUG_PATTERN
from ratings.views import (
    backtest,
    entry,
    events,
    exports,
    files,
    held,
    nights,
    pages,
    papers,
    players,
    players_vs,
    reports,
    tokens,
)
from ratings.voice import views as voice


class PlayerSlugConverter:
    """A player's slug: letters of any script, digits, "_" and "-", as slugify makes it.

    Narrower than <str:>, so a hostile path (a NUL byte, which PostgreSQL refuses in a query) is
    a 404 before any view runs.
    """

    regex = SLUG_PATTERN

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
    path(
        "leagues/<slug:slug>/players.json",
        pages.league_player_names,
        name="league_player_names",
    ),
    path("leagues/<slug:slug>/backtest/", backtest.league_backtest, name="backtest"),
    path("leagues/<slug:slug>/backtest/run/", backtest.league_backtest_run, name="backtest_run"),
    path("leagues/<slug:slug>/games.<str:fmt>", exports.games_export, name="games_export"),
    path("leagues/<slug:slug>/rayter.txt", files.rayter_export, name="rayter_export"),
    path("leagues/<slug:slug>/import/", files.rayter_import, name="rayter_import"),
    path("leagues/<slug:slug>/games/new/", entry.game_new, name="game_new"),
    path("leagues/<slug:slug>/events/", events.event_list, name="event_list"),
    path("leagues/<slug:slug>/events/new/", events.event_new, name="event_new"),
    path("events/<int:pk>/", events.event_detail, name="event"),
    path("events/<int:pk>/players/", events.event_players_add, name="event_players_add"),
    path(
        "events/<int:pk>/players/withdraw/",
        events.event_player_withdraw,
        name="event_player_withdraw",
    ),
    path("events/<int:pk>/draw/", events.round_draw, name="round_draw"),
    path("events/<int:pk>/close/", events.event_close, name="event_close"),
    path("events/<int:pk>/rounds/<int:number>/cards/", events.round_cards, name="round_cards"),
    path("events/<int:pk>/rounds/<int:number>/close/", events.round_close, name="round_close"),
    path(
        "events/<int:pk>/rounds/<int:number>/confirm/", events.round_confirm, name="round_confirm"
    ),
    path("events/tables/<int:pk>/", events.table_detail, name="event_table"),
    path("leagues/<slug:slug>/events/plan/", nights.night_new, name="night_new"),
    path("events/<int:pk>/answer/", nights.night_answer, name="night_answer"),
    path("events/<int:pk>/start/", nights.night_start, name="night_start"),
    path("events/<int:pk>/cancel/", nights.night_cancel, name="night_cancel"),
    path("events/<int:pk>/move/", nights.night_move, name="night_move"),
    path("events/<int:pk>/event.ics", nights.event_ics, name="event_ics"),
    path("events.ics", nights.club_feed, name="club_feed"),
    path("leagues/<slug:slug>/events.ics", nights.league_feed, name="league_feed"),
    path("calendar/<slug:key>/events.ics", nights.private_club_feed, name="private_club_feed"),
    path(
        "calendar/<slug:key>/leagues/<slug:slug>/events.ics",
        nights.private_league_feed,
        name="private_league_feed",
    ),
    path("calendar/<slug:key>/mine.ics", nights.my_feed, name="my_feed"),
    path("account/calendar/", nights.calendar_settings, name="calendar_settings"),
    path("leagues/<slug:slug>/papers/new/", papers.paper_new, name="paper_new"),
    path("papers/<int:pk>/", papers.paper_detail, name="paper"),
    path("papers/<int:pk>/deal/", papers.paper_deal, name="paper_deal"),
    path("papers/<int:pk>/undo/", papers.paper_undo, name="paper_undo"),
    path("papers/<int:pk>/repeal/", papers.paper_repeal, name="paper_repeal"),
    path("papers/<int:pk>/finish/", papers.paper_finish, name="paper_finish"),
    path("papers/<int:pk>/discard/", papers.paper_discard, name="paper_discard"),
    path("games/<int:pk>/", pages.game_detail, name="game"),
    path("games/<int:pk>/report/", reports.game_report, name="game_report"),
    path("games/waiting/<uuid:key>/", held.held_game, name="held_game"),
    path("games/waiting/<uuid:key>/confirm/", held.held_confirm, name="held_confirm"),
    path("games/waiting/<uuid:key>/dispute/", held.held_dispute, name="held_dispute"),
    path("games/waiting/<uuid:key>/delete/", held.held_withdraw, name="held_withdraw"),
    path("account/", accounts.account, name="account"),
    path("invitations/<slug:token>/", accounts.invitation_accept, name="invitation"),
    path("account/tokens/", tokens.token_list, name="api_tokens"),
    path("account/digest/", voice.digest_settings, name="digest_settings"),
    # A signed token (django.core.signing): letters, digits, "-", "_" and ":".
    path("digest/unsubscribe/<str:token>/", voice.digest_unsubscribe, name="digest_unsubscribe"),
    path("account/tokens/<int:pk>/revoke/", tokens.token_revoke, name="api_token_revoke"),
    path("players/", players.player_list, name="player_list"),
    path("players/new/", entry.player_new, name="player_new"),
    path("players/<player_slug:slug>/", pages.player_detail, name="player"),
    path(
        "players/<player_slug:a>/vs/<player_slug:b>/",
        players_vs.head_to_head,
        name="head_to_head",
    ),
    path("players/<player_slug:slug>/vs/", players_vs.head_to_head_pick, name="head_to_head_pick"),
    path("players/<player_slug:slug>/deals/", papers.player_deals, name="player_deals"),
]
