"""Who may do what, per view and per method: the tables below are the club's access policy.

- Reading (every page in ``READ_PAGES``): everyone, by GET or HEAD; any write method is 405.
  With ``CLUB_PRIVATE`` on, visitors who are not logged in are sent to the login page instead.
- Entering games and adding players: logged-in members (and staff); visitors go to the login.
- Editing and deleting games: staff in the admin. A member who is not staff is sent to the
  admin's login; staff without the delete permission get 403.
- Every write staff make, in the admin or on the import page, asks Django's permission for it,
  not ``is_staff``: a staff account with only ``view_*`` permissions writes nothing anywhere.
- Every POST needs a CSRF token (403 without one), from the entry form to the admin.
- The rayter import page (staff who may add games; replacing also needs delete_game) and the
  export (readers).
- Events: everyone reads them (list, event, table, table cards); creating one takes staff with
  add_event or a member given "run events"; its buttons (draw, close, late arrivals) take POST
  and its organiser or staff with change_event; a table's paper is any member's to enter.
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import URLPattern, URLResolver, reverse

from ratings import engine
from ratings import urls as ratings_urls
from ratings.algorithms.paper import Hand
from ratings.events import services as event_services
from ratings.events.models import Event, EventPlayer, EventRound, EventTable
from ratings.models import AuditEntry, Game, League, Player, Result, Standing, System
from ratings.papers import services as paper_services
from ratings.papers.models import Deal, DigitalPaper
from tests import builders
from tests.builders import (
    PASSWORD,
    T0,
    make_event,
    make_league,
    make_players,
    paper_entries,
    play_table,
)
from tests.worked_example import (
    WORKED_EXAMPLE_FORM,
    WORKED_EXAMPLE_PAPERS,
    WORKED_EXAMPLE_PLAYERS,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_passwords")]

ROLES = ("anonymous", "member", "staff")
WRITE_METHODS = ("post", "put", "patch", "delete")

PLAYED_DEAL = Hand.from_entry(
    {
        "declarer": 1,
        "contract": "pik",
        "followers": [{"seat": 2, "play": "followed", "tricks": 2}, {"seat": 3, "play": "passed"}],
    }
)

# Every URL name of ratings/urls.py, by what it does. A new URL fails
# test_every_ratings_url_has_a_policy until it is added here.
READ_PAGES = {
    "home": lambda w: [],
    "leaderboard": lambda w: [w.league.slug],
    "leaderboard_export": lambda w: [w.league.slug, "csv"],
    "league_games": lambda w: [w.league.slug],
    "league_player_names": lambda w: [w.league.slug],
    "backtest": lambda w: [w.league.slug],
    "games_export": lambda w: [w.league.slug, "csv"],
    "game": lambda w: [w.game.pk],
    "player": lambda w: [w.players[0].slug],
    "player_list": lambda w: [],
    "event_list": lambda w: [w.league.slug],
    "event": lambda w: [w.event.pk],
    "event_table": lambda w: [w.table.pk],
    "round_cards": lambda w: [w.event.pk, 1],
    "head_to_head": lambda w: [w.players[0].slug, w.players[1].slug],
    "head_to_head_pick": lambda w: [w.players[0].slug],
    "paper": lambda w: [w.paper.pk],
    "player_deals": lambda w: [w.players[0].slug],
    "event_ics": lambda w: [w.event.pk],
}
ENTRY_PAGES = {
    "game_new": lambda w: [w.league.slug],
    "player_new": lambda w: [],
    "paper_new": lambda w: [w.league.slug],
}
# The digital paper's buttons: any member's, each a POST, with what a valid one sends.
PAPER_BUTTONS = {
    "paper_deal": (lambda w: [w.paper.pk], {"after": "1", "kind": "refa"}),
    "paper_undo": (lambda w: [w.paper.pk], {"after": "1"}),
    "paper_repeal": (lambda w: [w.paper.pk], {"number": "1", "repealed": "1"}),
    "paper_finish": (lambda w: [w.paper.pk], {"save": "1", "ended_early": "1"}),
}
# A paper started by mistake is discarded by its players only (the member who started it, a
# player whose account it is) and staff: test_a_paper_is_discarded_by_its_players_and_staff.
PAPER_DISCARD = {"paper_discard"}
RAYTER_PAGES = {
    "rayter_import": lambda w: [w.hearts.slug],
    "rayter_export": lambda w: [w.hearts.slug],
}
EVENT_FORMS = {"event_new": lambda w: [w.league.slug], "night_new": lambda w: [w.league.slug]}
# A member's own API tokens, account (their claims), calendar address and digest choice: only
# theirs, visitors to the login (tests/views/test_api_tokens.py, tests/accounts/test_views.py,
# tests/events/test_calendar.py, tests/voice/test_digest.py).
ACCOUNT_PAGES = {
    "api_tokens",
    "api_token_revoke",
    "account",
    "calendar_settings",
    "digest_settings",
}
# An invitation's link: anyone holding it, once (tests/accounts/test_views.py).
INVITATIONS = {"invitation"}
# The calendar feeds: everyone's in a public club, at a member's private address in a private
# one (tests/events/test_calendar.py).
CALENDAR_FEEDS = {"club_feed", "league_feed", "private_club_feed", "private_league_feed", "my_feed"}
# A planned night's buttons, each a POST: its organiser's (or staff's) start and cancel, and any
# member's answer.
NIGHT_BUTTONS = {
    "night_start": {},
    "night_cancel": {},
    "night_move": {"starts_at": "2026-12-31T20:00", "place": "Upstairs"},
}
NIGHT_ANSWER = {"night_answer"}
# The digest's one-click unsubscribe: a signed link, no login (tests/voice/test_digest.py).
SIGNED_LINKS = {"digest_unsubscribe"}
# A player's report of a mistake in their game (tests/views/test_game_reports.py).
GAME_REPORTS = {"game_report"}
# A game waiting for the table: read as a game; confirmed, disputed or deleted only by who may
# (seated members, its own member, staff); a round's papers by the organiser
# (tests/entry/test_held_pages.py).
WAITING_GAMES = {"held_game", "held_confirm", "held_dispute", "held_withdraw", "round_confirm"}
# Staff's button that computes a league's backtest (tests/views/test_backtest_page.py).
STAFF_BUTTONS = {"backtest_run": lambda w: [w.league.slug]}
# The organiser's buttons, each a POST, with what a valid one sends (round 2 is drawn once the
# table of round 1 is in: the tests of the buttons play it first).
EVENT_BUTTONS = {
    "round_close": (lambda w: [w.event.pk, 1], {}),
    "round_draw": (lambda w: [w.event.pk], {}),
    "event_players_add": (lambda w: [w.event.pk], {"player_0": "Zorana"}),
    "event_player_withdraw": (lambda w: [w.event.pk], {"player": "pedja"}),
    "event_close": (lambda w: [w.event.pk], {}),
}


@pytest.fixture
def table_played(world):
    play_table(world.table)


def url_names(patterns) -> set[str]:
    names = set()
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            names |= url_names(pattern.url_patterns)
        elif isinstance(pattern, URLPattern) and pattern.name:
            names.add(pattern.name)
    return names


@pytest.fixture
def world(django_user_model):
    """A league with one game, a scored league, and a member, staff and a clerk to ask."""
    league = make_league(System.PREFKO, name="Friday")
    hearts = make_league(System.RAYTER_LOWSCORE, name="Hearts", game_name="Hearts")
    players = make_players(WORKED_EXAMPLE_PLAYERS)
    game = engine.game_record(
        league=league,
        played_at=T0,
        entries=paper_entries(players, WORKED_EXAMPLE_PAPERS),
        bula=30,
    )
    member = django_user_model.objects.create_user("member", password=PASSWORD)
    staff = django_user_model.objects.create_user("staff", password=PASSWORD, is_staff=True)
    staff.user_permissions.add(*Permission.objects.filter(content_type__app_label="ratings"))
    # Staff who may look at and correct games, but not delete them.
    clerk = django_user_model.objects.create_user("clerk", password=PASSWORD, is_staff=True)
    clerk.user_permissions.add(
        *Permission.objects.filter(codename__in=["view_game", "change_game", "add_game"])
    )
    # Staff who may only look: every view_* permission of the club and nothing else.
    viewer = django_user_model.objects.create_user("viewer", password=PASSWORD, is_staff=True)
    viewer.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="ratings", codename__startswith="view_")
    )
    # A night of the three, its first round drawn: one table, waiting for its paper.
    event = make_event(league, players)
    table = event_services.round_draw(event=event).tables.get()
    # A digital paper of the three, its first deal a played game.
    paper = paper_services.paper_start(league=league, players=players, bula=30)
    paper_services.deal_add(paper=paper, hand=PLAYED_DEAL, after=0)
    return SimpleNamespace(
        league=league,
        hearts=hearts,
        players=players,
        game=game,
        event=event,
        table=table,
        paper=paper,
        users={"member": member, "staff": staff, "clerk": clerk, "viewer": viewer},
    )


def client_for(world, role: str, **kwargs) -> Client:
    client = Client(**kwargs)
    if role != "anonymous":
        client.force_login(world.users[role])
    return client


def request(client: Client, method: str, url: str):
    return getattr(client, method)(url)


def counts() -> tuple[int, int, int, int]:
    return (
        Game.objects.count(),
        Result.objects.count(),
        Player.objects.count(),
        AuditEntry.objects.count(),
    )


def assert_sent_to(response, login_url: str) -> None:
    assert response.status_code == 302, response.status_code
    assert response["Location"].startswith(login_url + "?next="), response["Location"]


# The policy covers every URL --------------------------------------------------------------------


def test_every_ratings_url_has_a_policy():
    covered = (
        set(READ_PAGES)
        | set(ENTRY_PAGES)
        | set(RAYTER_PAGES)
        | set(EVENT_FORMS)
        | set(EVENT_BUTTONS)
        | set(PAPER_BUTTONS)
        | PAPER_DISCARD
        | ACCOUNT_PAGES
        | INVITATIONS
        | GAME_REPORTS
        | WAITING_GAMES
        | CALENDAR_FEEDS
        | set(NIGHT_BUTTONS)
        | NIGHT_ANSWER
        | SIGNED_LINKS
        | set(STAFF_BUTTONS)
    )
    assert url_names(ratings_urls.urlpatterns) - covered == set()


# Reading --------------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", READ_PAGES)
@pytest.mark.parametrize("method", ["get", "head"])
def test_everyone_reads_every_page(world, name, role, method):
    url = reverse(f"ratings:{name}", args=READ_PAGES[name](world))

    assert request(client_for(world, role), method, url).status_code == 200


def test_the_json_export_is_readable_too(world, client):
    url = reverse("ratings:leaderboard_export", args=[world.league.slug, "json"])

    assert client.get(url).status_code == 200


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", READ_PAGES)
@pytest.mark.parametrize("method", WRITE_METHODS)
def test_write_methods_on_read_only_pages_are_not_allowed(world, name, role, method):
    url = reverse(f"ratings:{name}", args=READ_PAGES[name](world))
    before = counts()

    response = request(client_for(world, role), method, url)

    assert response.status_code == 405
    assert sorted(response["Allow"].split(", ")) == ["GET", "HEAD"]
    assert counts() == before


@pytest.mark.parametrize("name", READ_PAGES)
def test_a_private_club_sends_visitors_to_the_login(world, settings, name):
    settings.CLUB_PRIVATE = True
    url = reverse(f"ratings:{name}", args=READ_PAGES[name](world))

    assert_sent_to(client_for(world, "anonymous").get(url), reverse("login"))
    assert client_for(world, "member").get(url).status_code == 200
    assert client_for(world, "staff").get(url).status_code == 200


def test_a_private_club_shows_visitors_no_names(world, settings):
    settings.CLUB_PRIVATE = True
    client = client_for(world, "anonymous")

    pages = [
        client.get(reverse(f"ratings:{name}", args=args(world)), follow=True)
        for name, args in READ_PAGES.items()
    ]

    assert all(b"Pedja" not in page.content for page in pages)


# Entering games and players ---------------------------------------------------------------------


def paper_data() -> dict:
    """The worked example as the entry form posts it, once."""
    return {"submission_key": str(uuid.uuid4()), **WORKED_EXAMPLE_FORM}


def enter_game(client: Client, world):
    """Preview, then save what was previewed, as a member at the table does."""
    url = reverse("ratings:game_new", args=[world.league.slug])
    data = paper_data()
    preview = client.post(url, {**data, "preview": "1"})
    token = preview.context["form"]["previewed"].value() if preview.status_code == 200 else ""
    return client.post(url, {**data, "previewed": token, "save": "1"})


@pytest.mark.parametrize("name", ENTRY_PAGES)
@pytest.mark.parametrize("method", ["get", *WRITE_METHODS])
def test_visitors_are_sent_to_the_login_from_entry_pages(world, name, method):
    url = reverse(f"ratings:{name}", args=ENTRY_PAGES[name](world))
    before = counts()

    response = request(client_for(world, "anonymous"), method, url)

    assert_sent_to(response, reverse("login"))
    assert counts() == before


@pytest.mark.parametrize("role", ["member", "staff"])
@pytest.mark.parametrize("name", ENTRY_PAGES)
def test_members_open_entry_pages(world, name, role):
    url = reverse(f"ratings:{name}", args=ENTRY_PAGES[name](world))

    assert client_for(world, role).get(url).status_code == 200


@pytest.mark.parametrize("role", ["member", "staff"])
@pytest.mark.parametrize("name", ENTRY_PAGES)
@pytest.mark.parametrize("method", ["put", "patch", "delete"])
def test_entry_pages_take_only_get_and_post(world, name, role, method):
    url = reverse(f"ratings:{name}", args=ENTRY_PAGES[name](world))
    before = counts()

    response = request(client_for(world, role), method, url)

    assert response.status_code == 405
    assert counts() == before


@pytest.mark.parametrize("role", ["member", "staff"])
def test_members_and_staff_enter_games(world, role):
    response = enter_game(client_for(world, role), world)

    game = Game.objects.latest("id")
    assert response.status_code == 302
    assert response["Location"] == game.get_absolute_url()
    assert game.entered_by == world.users[role]


def test_a_visitor_cannot_enter_a_game(world):
    before = counts()

    response = enter_game(client_for(world, "anonymous"), world)

    assert_sent_to(response, reverse("login"))
    assert counts() == before


@pytest.mark.parametrize("role", ["member", "staff"])
def test_members_and_staff_add_players(world, role):
    response = client_for(world, role).post(reverse("ratings:player_new"), {"name": "Newcomer"})

    assert response.status_code == 302
    assert Player.objects.filter(name="Newcomer").exists()


def test_a_visitor_cannot_add_a_player(world):
    response = client_for(world, "anonymous").post(
        reverse("ratings:player_new"), {"name": "Newcomer"}
    )

    assert_sent_to(response, reverse("login"))
    assert not Player.objects.filter(name="Newcomer").exists()


def test_an_inactive_member_cannot_enter_games(world):
    member = world.users["member"]
    client = client_for(world, "member")
    member.is_active = False
    member.save()
    before = counts()

    response = enter_game(client, world)

    assert response.status_code == 302  # the session no longer counts: to the login
    assert counts() == before


# Editing and deleting: the admin ----------------------------------------------------------------

ADMIN_PAGES = {
    "admin:ratings_game_changelist": lambda w: [],
    "admin:ratings_game_add": lambda w: [],
    "admin:ratings_game_change": lambda w: [w.game.pk],
    "admin:ratings_game_delete": lambda w: [w.game.pk],
    "admin:ratings_league_change": lambda w: [w.league.pk],
    "admin:ratings_player_change": lambda w: [w.players[0].pk],
    "admin:ratings_auditentry_changelist": lambda w: [],
}


@pytest.mark.parametrize("role", ["anonymous", "member"])
@pytest.mark.parametrize("name", ADMIN_PAGES)
@pytest.mark.parametrize("method", ["get", "post"])
def test_the_admin_sends_visitors_and_members_to_its_login(world, name, role, method):
    url = reverse(name, args=ADMIN_PAGES[name](world))
    before = counts()

    response = request(client_for(world, role), method, url)

    assert_sent_to(response, reverse("admin:login"))
    assert counts() == before


@pytest.mark.parametrize("name", ADMIN_PAGES)
def test_staff_open_every_admin_page(world, name):
    url = reverse(name, args=ADMIN_PAGES[name](world))

    assert client_for(world, "staff").get(url).status_code == 200


def test_a_member_cannot_delete_a_game(world):
    url = reverse("admin:ratings_game_delete", args=[world.game.pk])

    response = client_for(world, "member").post(url, {"post": "yes"})

    assert_sent_to(response, reverse("admin:login"))
    assert Game.objects.filter(pk=world.game.pk).exists()


def test_staff_without_the_delete_permission_get_403(world):
    url = reverse("admin:ratings_game_delete", args=[world.game.pk])
    client = client_for(world, "clerk")

    assert client.get(url).status_code == 403
    assert client.post(url, {"post": "yes"}).status_code == 403
    assert Game.objects.filter(pk=world.game.pk).exists()


def test_staff_without_the_audit_permission_cannot_read_the_trail(world):
    url = reverse("admin:ratings_auditentry_changelist")

    assert client_for(world, "clerk").get(url).status_code == 403


def test_staff_delete_a_game(world):
    url = reverse("admin:ratings_game_delete", args=[world.game.pk])

    response = client_for(world, "staff").post(url, {"post": "yes"})

    assert response.status_code == 302
    assert not Game.objects.filter(pk=world.game.pk).exists()
    assert AuditEntry.objects.filter(action="delete", user=world.users["staff"]).exists()


@pytest.mark.parametrize("role", ["staff", "clerk"])
def test_staff_edit_a_game(world, role):
    game = world.game
    results = list(game.results.order_by("seat"))
    data = {
        "played_at_0": "2026-01-01",
        "played_at_1": "20:00:00",
        "bula": "50",
        "note": "corrected",
        "results-TOTAL_FORMS": "3",
        "results-INITIAL_FORMS": "3",
        "results-MIN_NUM_FORMS": "0",
        "results-MAX_NUM_FORMS": "1000",
        "_save": "Save",
    }
    for i, result in enumerate(results):
        left, middle, right = result.paper
        data |= {
            f"results-{i}-id": result.pk,
            f"results-{i}-game": game.pk,
            f"results-{i}-player": result.player_id,
            f"results-{i}-seat": result.seat + 1,  # the admin numbers seats from 1
            f"results-{i}-left": left,
            f"results-{i}-middle": middle,
            f"results-{i}-right": right,
            f"results-{i}-score": "",
        }

    response = client_for(world, role).post(
        reverse("admin:ratings_game_change", args=[game.pk]), data
    )

    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.bula, game.note) == (50, "corrected")


# Accounts -----------------------------------------------------------------------------------------


def test_logging_out_takes_a_post(world):
    client = client_for(world, "member")

    assert client.get(reverse("logout")).status_code == 405
    assert "_auth_user_id" in client.session
    assert client.post(reverse("logout")).status_code == 302
    assert "_auth_user_id" not in client.session


# CSRF: every POST needs the token ---------------------------------------------------------------


def csrf_token(client: Client, url: str) -> str:
    """The token a browser sends back: from the cookie the page set."""
    assert client.get(url).status_code == 200
    return client.cookies["csrftoken"].value


def test_the_entry_form_needs_the_csrf_token(world):
    client = client_for(world, "member", enforce_csrf_checks=True)
    url = reverse("ratings:game_new", args=[world.league.slug])
    data = {**paper_data(), "preview": "1"}
    before = counts()

    refused = client.post(url, data)
    accepted = client.post(url, {**data, "csrfmiddlewaretoken": csrf_token(client, url)})

    assert refused.status_code == 403
    assert b"That form could not be sent" in refused.content
    assert accepted.status_code == 200
    assert accepted.context["preview"]
    assert counts() == before


def test_the_player_form_needs_the_csrf_token(world):
    client = client_for(world, "member", enforce_csrf_checks=True)
    url = reverse("ratings:player_new")

    refused = client.post(url, {"name": "Newcomer"})
    assert not Player.objects.filter(name="Newcomer").exists()
    token = csrf_token(client, url)
    accepted = client.post(url, {"name": "Newcomer", "csrfmiddlewaretoken": token})

    assert refused.status_code == 403
    assert accepted.status_code == 302
    assert Player.objects.filter(name="Newcomer").exists()


def test_logging_out_needs_the_csrf_token(world):
    # Otherwise any site could log a member out with a hidden form.
    client = client_for(world, "member", enforce_csrf_checks=True)

    refused = client.post(reverse("logout"))
    assert "_auth_user_id" in client.session
    token = csrf_token(client, reverse("ratings:home"))
    accepted = client.post(reverse("logout"), {"csrfmiddlewaretoken": token})

    assert refused.status_code == 403
    assert accepted.status_code == 302
    assert "_auth_user_id" not in client.session


def test_logging_in_needs_the_csrf_token(world):
    client = Client(enforce_csrf_checks=True)
    data = {"username": "member", "password": PASSWORD}

    refused = client.post(reverse("login"), data)
    assert "_auth_user_id" not in client.session
    token = csrf_token(client, reverse("login"))
    accepted = client.post(reverse("login"), {**data, "csrfmiddlewaretoken": token})

    assert refused.status_code == 403
    assert accepted.status_code == 302


def test_changing_the_language_needs_the_csrf_token(world):
    client = Client(enforce_csrf_checks=True)

    response = client.post(reverse("set_language"), {"language": "ru", "next": "/"})

    assert response.status_code == 403


def test_the_admin_needs_the_csrf_token(world):
    client = client_for(world, "staff", enforce_csrf_checks=True)
    url = reverse("admin:ratings_game_delete", args=[world.game.pk])

    refused = client.post(url, {"post": "yes"})
    assert Game.objects.filter(pk=world.game.pk).exists()
    accepted = client.post(url, {"post": "yes", "csrfmiddlewaretoken": csrf_token(client, url)})

    assert refused.status_code == 403
    assert accepted.status_code == 302
    assert not Game.objects.filter(pk=world.game.pk).exists()


# Rayter import and export -----------------------------------------------------------------------


def rayter_url(world, name: str) -> str:
    """The page's URL, for the scored league."""
    return reverse(f"ratings:{name}", args=RAYTER_PAGES[name](world))


RAYTER_FILE = b"game 2026-01-01 20:00\nAnna 10\nBojan 3\n"
# Two files the Hearts league (lowscore) takes.
HEARTS_FILE = b"score_type lowscore\n" + RAYTER_FILE
HEARTS_FILE_2 = b"score_type lowscore\ngame 2026-01-02 20:00\nAnna 1\nBojan 7\n"


def rayter_file(name: str = "hearts.txt", data: bytes = RAYTER_FILE):
    return SimpleUploadedFile(name, data, content_type="text/plain")


@pytest.mark.parametrize("method", ["get", "post"])
def test_visitors_cannot_import_rayter_files(world, method):
    url = rayter_url(world, "rayter_import")
    before = counts()

    response = request(client_for(world, "anonymous"), method, url)

    if response.status_code == 302:
        assert response["Location"].startswith(reverse("login"))
    else:
        assert response.status_code == 403
    assert counts() == before


@pytest.mark.parametrize("method", ["get", "post"])
def test_members_cannot_import_rayter_files(world, method):
    url = rayter_url(world, "rayter_import")
    before = counts()

    response = request(client_for(world, "member"), method, url)

    assert response.status_code == 403
    assert counts() == before


def test_staff_open_the_rayter_import(world):
    url = rayter_url(world, "rayter_import")

    assert client_for(world, "staff").get(url).status_code == 200


@pytest.mark.parametrize("method", ["put", "patch", "delete"])
def test_the_rayter_import_takes_only_get_and_post(world, method):
    url = rayter_url(world, "rayter_import")
    before = counts()

    assert request(client_for(world, "staff"), method, url).status_code == 405
    assert counts() == before


def test_the_rayter_import_needs_the_csrf_token(world):
    url = rayter_url(world, "rayter_import")
    client = client_for(world, "staff", enforce_csrf_checks=True)
    before = counts()

    refused = client.post(url, {"file": rayter_file()})
    preview = client.post(
        url, {"file": rayter_file(), "csrfmiddlewaretoken": csrf_token(client, url)}
    )

    assert refused.status_code == 403
    assert preview.status_code == 200  # the preview; only its confirmation imports
    assert counts() == before


@pytest.mark.parametrize("role", ROLES)
def test_the_rayter_export_is_read_like_the_leaderboard(world, role):
    url = rayter_url(world, "rayter_export")

    response = client_for(world, role).get(url)

    assert response.status_code == 200


@pytest.mark.parametrize("method", WRITE_METHODS)
def test_the_rayter_export_refuses_write_methods(world, method):
    url = rayter_url(world, "rayter_export")

    assert request(client_for(world, "staff"), method, url).status_code == 405


def test_a_private_club_hides_the_rayter_export_from_visitors(world, settings):
    settings.CLUB_PRIVATE = True
    url = rayter_url(world, "rayter_export")

    assert_sent_to(client_for(world, "anonymous").get(url), reverse("login"))


# Staff who may only look write nothing, on any path ---------------------------------------------


def _game_form(world, *, game=None) -> dict:
    rows = list(game.results.order_by("seat")) if game else []
    data = builders.game_post(
        world.league,
        T0 + timedelta(days=1),
        [
            (p, seat, paper, None)
            for seat, (p, paper) in enumerate(
                zip(world.players, WORKED_EXAMPLE_PAPERS, strict=True)
            )
        ],
        game=game,
        results=rows,
    )
    data["note"] = "changed by a viewer"
    return data


def _league_form(world) -> dict:
    return builders.league_post(world.league, name="Renamed by a viewer", start_rating=1234)


# Each admin write a viewer might try: (URL name, its arguments, the POST data).
ADMIN_WRITES = {
    "add a game": ("admin:ratings_game_add", lambda w: [], lambda w: _game_form(w)),
    "edit a game": (
        "admin:ratings_game_change",
        lambda w: [w.game.pk],
        lambda w: _game_form(w, game=w.game),
    ),
    "delete a game": (
        "admin:ratings_game_delete",
        lambda w: [w.game.pk],
        lambda w: {"post": "yes"},
    ),
    "add a league": (
        "admin:ratings_league_add",
        lambda w: [],
        lambda w: {**_league_form(w), "name": "New", "slug": "new"},
    ),
    "edit a league": ("admin:ratings_league_change", lambda w: [w.league.pk], _league_form),
    "add a player": (
        "admin:ratings_player_add",
        lambda w: [],
        lambda w: {"name": "X", "slug": "x"},
    ),
    "edit a player": (
        "admin:ratings_player_change",
        lambda w: [w.players[0].pk],
        lambda w: {"name": "Renamed", "slug": "renamed"},
    ),
}


def everything(world) -> tuple:
    """Every row a write could touch, as it stands."""
    return (
        counts(),
        list(Game.objects.values_list("id", "played_at", "note", "bula")),
        list(League.objects.values_list("id", "name", "start_rating")),
        list(Player.objects.values_list("id", "name", "slug")),
        list(Standing.objects.values_list("id", "rating", "start_rating")),
    )


@pytest.mark.parametrize("write", ADMIN_WRITES)
def test_view_only_staff_cannot_write_in_the_admin(world, write):
    name, args, data = ADMIN_WRITES[write]
    client = client_for(world, "viewer")
    before = everything(world)

    response = client.post(reverse(name, args=args(world)), data(world))

    assert response.status_code == 403
    assert everything(world) == before


@pytest.mark.parametrize("write", ADMIN_WRITES)
def test_staff_with_the_permission_make_the_same_admin_writes(world, write):
    """The requests above are real writes: with every permission they change the club."""
    name, args, data = ADMIN_WRITES[write]
    before = everything(world)

    response = client_for(world, "staff").post(reverse(name, args=args(world)), data(world))

    assert response.status_code == 302, response.context and response.context.get("errors")
    assert everything(world) != before


@pytest.mark.parametrize(
    ("changelist", "action", "selected"),
    [
        ("admin:ratings_game_changelist", "delete_selected", lambda w: w.game.pk),
        ("admin:ratings_league_changelist", "recompute_ratings", lambda w: w.league.pk),
        ("admin:ratings_auditentry_changelist", "restore_deleted_games", None),
    ],
)
def test_view_only_staff_are_offered_no_admin_actions_and_run_none(
    world, changelist, action, selected
):
    if selected is None:  # a deleted game to restore
        engine.game_delete(game=world.game)
        selected = lambda w: AuditEntry.objects.get(action="delete").pk  # noqa: E731
    client = client_for(world, "viewer")
    before = everything(world)

    page = client.get(reverse(changelist))
    response = client.post(
        reverse(changelist),
        {"action": action, "_selected_action": [selected(world)], "post": "yes"},
    )

    assert page.status_code == 200
    offered = (
        page.context["action_form"].fields["action"].choices
        if page.context.get("action_form")
        else []
    )
    assert action not in dict(offered)
    assert response.status_code in (200, 302)
    assert everything(world) == before
    assert not engine_ran(world)


def engine_ran(world) -> bool:
    """Whether the engine recomputed or restored anything since the world was built."""
    made = ["create", "delete", "event_create", "round_draw", "deal_add"]  # by the world, the test
    return AuditEntry.objects.exclude(action__in=made).exists()


def preview_upload(client: Client, world, data: bytes = HEARTS_FILE, **fields):
    return client.post(
        rayter_url(world, "rayter_import"), {"file": rayter_file(data=data), **fields}
    )


def confirm_upload(client: Client, world, preview):
    return client.post(
        rayter_url(world, "rayter_import"), {"confirm": "1", "token": preview.context["token"]}
    )


def test_view_only_staff_cannot_open_or_use_the_rayter_import(world):
    url = rayter_url(world, "rayter_import")
    client = client_for(world, "viewer")
    before = everything(world)

    assert client.get(url).status_code == 403
    assert preview_upload(client, world, replace="on").status_code == 403
    assert client.post(url, {"confirm": "1", "token": "anything"}).status_code == 403
    assert everything(world) == before


def test_view_only_staff_cannot_confirm_an_upload_previewed_by_someone_else(world):
    preview = preview_upload(client_for(world, "staff"), world, replace="on")
    before = everything(world)

    response = confirm_upload(client_for(world, "viewer"), world, preview)

    assert response.status_code == 403
    assert everything(world) == before


def test_staff_who_may_add_games_import_without_replacing(world):
    client = client_for(world, "clerk")  # add_game, not delete_game

    response = confirm_upload(client, world, preview_upload(client, world))

    assert response.status_code == 302
    assert Game.objects.filter(league=world.hearts).count() == 1


def test_replacing_needs_the_delete_permission(world):
    client = client_for(world, "clerk")
    confirm_upload(client, world, preview_upload(client, world))
    before = everything(world)

    response = preview_upload(client, world, HEARTS_FILE_2, replace="on")

    assert response.status_code == 200
    assert response.context["form"].errors["replace"] == [
        "Replacing deletes the league's games, and you may not delete games."
    ]
    assert "token" not in response.context
    assert everything(world) == before


def test_a_replace_is_not_confirmed_once_the_delete_permission_is_gone(world):
    client = client_for(world, "staff")
    confirm_upload(client, world, preview_upload(client, world))
    preview = preview_upload(client, world, HEARTS_FILE_2, replace="on")
    world.users["staff"].user_permissions.remove(Permission.objects.get(codename="delete_game"))
    before = everything(world)

    response = confirm_upload(client, world, preview)

    assert response.status_code == 403
    assert everything(world) == before


def test_staff_without_any_permission_cannot_import(world, django_user_model):
    bare = django_user_model.objects.create_user("bare", is_staff=True)
    client = Client()
    client.force_login(bare)

    assert client.get(rayter_url(world, "rayter_import")).status_code == 403


# Events ---------------------------------------------------------------------------------------


def event_state() -> tuple:
    """Every row an event's write could touch, as it stands."""
    return (
        list(Event.objects.values_list("id", "closed_at")),
        list(EventPlayer.objects.values_list("id", flat=True)),
        list(EventRound.objects.values_list("id", "closed_at")),
        list(EventTable.objects.values_list("id", "not_played", "game_id")),
        Player.objects.count(),
    )


def new_event_data(world) -> dict:
    return {
        "name": "Saturday",
        "starts_at": "2026-03-14T19:00",
        "rounds_total": "",
        "table_size": "3",
        "draw_method": "random",
        "scoring": "total",
        **{f"player_{n}": p.name for n, p in enumerate(world.players)},
    }


@pytest.mark.parametrize("method", ["get", "post"])
def test_visitors_are_sent_to_the_login_to_create_an_event(world, method):
    url = reverse("ratings:event_new", args=[world.league.slug])

    assert_sent_to(request(client_for(world, "anonymous"), method, url), reverse("login"))


@pytest.mark.parametrize("role", ["member", "viewer", "clerk"])
def test_members_and_staff_without_the_right_cannot_create_events(world, role):
    url = reverse("ratings:event_new", args=[world.league.slug])
    before = event_state()

    assert client_for(world, role).get(url).status_code == 403
    assert client_for(world, role).post(url, new_event_data(world)).status_code == 403
    assert event_state() == before


def test_staff_with_add_event_create_events(world):
    url = reverse("ratings:event_new", args=[world.league.slug])

    assert client_for(world, "staff").get(url).status_code == 200
    assert client_for(world, "staff").post(url, new_event_data(world)).status_code == 302
    assert Event.objects.filter(name="Saturday").exists()


def test_a_member_given_the_right_to_run_events_creates_one(world):
    world.users["member"].user_permissions.add(Permission.objects.get(codename="run_events"))
    url = reverse("ratings:event_new", args=[world.league.slug])

    response = client_for(world, "member").post(url, new_event_data(world))

    assert response.status_code == 302
    assert Event.objects.get(name="Saturday").organiser == world.users["member"]


@pytest.mark.parametrize("method", ["put", "patch", "delete"])
def test_the_event_form_takes_only_get_and_post(world, method):
    url = reverse("ratings:event_new", args=[world.league.slug])

    assert request(client_for(world, "staff"), method, url).status_code == 405


def button_url(world, name: str) -> str:
    return reverse(f"ratings:{name}", args=EVENT_BUTTONS[name][0](world))


@pytest.mark.parametrize("name", EVENT_BUTTONS)
@pytest.mark.parametrize("method", ["get", "head", "put", "patch", "delete"])
def test_the_organiser_s_buttons_take_only_post(world, name, method):
    before = event_state()

    response = request(client_for(world, "staff"), method, button_url(world, name))

    # The late arrivals' address is shown after a refused name: opened again it reads the event.
    opened_again = name == "event_players_add" and method in ("get", "head")
    assert response.status_code == (302 if opened_again else 405)
    assert event_state() == before


@pytest.mark.parametrize("name", EVENT_BUTTONS)
def test_visitors_press_no_organiser_s_button(world, name):
    before = event_state()

    response = client_for(world, "anonymous").post(button_url(world, name), EVENT_BUTTONS[name][1])

    assert_sent_to(response, reverse("login"))
    assert event_state() == before


@pytest.mark.parametrize("role", ["member", "viewer", "clerk"])
@pytest.mark.parametrize("name", EVENT_BUTTONS)
def test_only_the_organiser_or_staff_who_may_change_events_press_them(world, name, role):
    before = event_state()

    response = client_for(world, role).post(button_url(world, name), EVENT_BUTTONS[name][1])

    assert response.status_code == 403
    assert event_state() == before


@pytest.mark.parametrize("name", EVENT_BUTTONS)
def test_staff_who_may_change_events_press_every_button(world, name, table_played):
    before = event_state()

    response = client_for(world, "staff").post(button_url(world, name), EVENT_BUTTONS[name][1])

    assert response.status_code == 302
    assert event_state() != before


@pytest.mark.parametrize("name", EVENT_BUTTONS)
def test_the_organiser_presses_every_button_while_they_hold_the_right(world, name, table_played):
    member = world.users["member"]
    member.user_permissions.add(Permission.objects.get(codename="run_events"))
    Event.objects.filter(pk=world.event.pk).update(organiser=member)
    data = EVENT_BUTTONS[name][1]

    assert client_for(world, "member").post(button_url(world, name), data).status_code == 302
    member.user_permissions.clear()
    assert client_for(world, "member").post(button_url(world, name), data).status_code == 403


def test_any_member_enters_a_table_s_paper(world):
    url = reverse("ratings:game_new", args=[world.league.slug]) + f"?table={world.table.pk}"
    data = {**paper_data(), "preview": "1"}
    data |= {f"player_{n}": p.name for n, p in enumerate(world.players)}

    assert_sent_to(client_for(world, "anonymous").get(url), reverse("login"))
    assert client_for(world, "member").post(url, data).status_code == 200


@pytest.mark.parametrize(
    ("name", "args", "data"),
    [
        ("event_new", lambda w: [w.league.slug], new_event_data),
        ("round_draw", lambda w: [w.event.pk], lambda w: {}),
        ("event_close", lambda w: [w.event.pk], lambda w: {}),
    ],
)
def test_the_event_forms_need_the_csrf_token(world, name, args, data, table_played):
    client = client_for(world, "staff", enforce_csrf_checks=True)
    url = reverse(f"ratings:{name}", args=args(world))
    before = event_state()

    refused = client.post(url, data(world))
    token = csrf_token(client, reverse("ratings:event", args=[world.event.pk]))
    accepted = client.post(url, {**data(world), "csrfmiddlewaretoken": token})

    assert refused.status_code == 403
    assert accepted.status_code == 302
    assert event_state() != before


# Nights planned ahead ---------------------------------------------------------------------------


def night_state(night) -> tuple:
    night = Event.objects.get(pk=night.pk)
    return (night.status, night.sequence, EventPlayer.objects.filter(event=night).count())


@pytest.mark.parametrize("name", [*NIGHT_BUTTONS, *NIGHT_ANSWER, "night_new"])
def test_visitors_press_no_night_button(world, name):
    night = builders.make_night(world.league)
    args = [world.league.slug] if name == "night_new" else [night.pk]
    before = night_state(night)

    response = client_for(world, "anonymous").post(reverse(f"ratings:{name}", args=args))

    assert_sent_to(response, reverse("login"))
    assert night_state(night) == before


@pytest.mark.parametrize("name", [*NIGHT_BUTTONS, *NIGHT_ANSWER])
@pytest.mark.parametrize("method", ["get", "head", "put", "delete"])
def test_the_night_buttons_take_only_post(world, name, method):
    night = builders.make_night(world.league)

    response = request(
        client_for(world, "staff"), method, reverse(f"ratings:{name}", args=[night.pk])
    )

    assert response.status_code == 405


@pytest.mark.parametrize("role", ["member", "viewer", "clerk"])
@pytest.mark.parametrize("name", [*NIGHT_BUTTONS, "night_new"])
def test_only_the_organiser_or_staff_who_may_change_events_start_or_cancel_a_night(
    world, name, role
):
    night = builders.make_night(world.league)
    args = [world.league.slug] if name == "night_new" else [night.pk]
    before = night_state(night)

    response = client_for(world, role).post(reverse(f"ratings:{name}", args=args))

    assert response.status_code == 403
    assert night_state(night) == before


@pytest.mark.parametrize("name", NIGHT_BUTTONS)
def test_staff_who_may_change_events_start_or_cancel_a_night(world, name):
    night = builders.make_night(world.league)
    before = night_state(night)

    url = reverse(f"ratings:{name}", args=[night.pk])
    response = client_for(world, "staff").post(url, NIGHT_BUTTONS[name])

    assert response.status_code == 302
    assert night_state(night) != before


# The digital paper's buttons --------------------------------------------------------------------


def paper_state(world) -> tuple:
    paper = DigitalPaper.objects.get(pk=world.paper.pk)
    deals = list(Deal.objects.filter(paper=paper).values_list("number", "repealed"))
    return (paper.finished_at, deals, counts())


def paper_button_url(world, name: str) -> str:
    return reverse(f"ratings:{name}", args=PAPER_BUTTONS[name][0](world))


@pytest.mark.parametrize("name", PAPER_BUTTONS)
def test_visitors_press_no_paper_button(world, name):
    before = paper_state(world)

    response = client_for(world, "anonymous").post(
        paper_button_url(world, name), PAPER_BUTTONS[name][1]
    )

    assert_sent_to(response, reverse("login"))
    assert paper_state(world) == before


@pytest.mark.parametrize("role", ["member", "staff"])
@pytest.mark.parametrize("name", PAPER_BUTTONS)
def test_members_press_every_paper_button(world, name, role):
    before = paper_state(world)

    response = client_for(world, role).post(paper_button_url(world, name), PAPER_BUTTONS[name][1])

    assert response.status_code == 302
    assert paper_state(world) != before


def test_a_paper_is_discarded_by_its_players_and_staff(world):
    url = reverse("ratings:paper_discard", args=[world.paper.pk])
    response = client_for(world, "anonymous").post(url)
    assert_sent_to(response, reverse("login"))
    # A member who neither started the paper nor sits at it: refused.
    assert client_for(world, "member").post(url).status_code == 403
    assert DigitalPaper.objects.get(pk=world.paper.pk).discarded_at is None
    # A member whose player sits at it: asked first (GET), then it is discarded (POST).
    world.players[1].user = world.users["member"]
    world.players[1].save()
    member = client_for(world, "member")
    assert member.get(url).status_code == 200
    assert member.post(url).status_code == 302
    assert DigitalPaper.objects.get(pk=world.paper.pk).discarded_at is not None
    # Gone for everyone but staff.
    paper_url = reverse("ratings:paper", args=[world.paper.pk])
    assert member.get(paper_url).status_code == 404
    assert client_for(world, "staff").get(paper_url).status_code == 200


@pytest.mark.parametrize("name", ["paper_deal", "paper_undo", "paper_repeal"])
@pytest.mark.parametrize("method", ["get", "put", "patch", "delete"])
def test_the_paper_buttons_take_only_post(world, name, method):
    before = paper_state(world)

    response = request(client_for(world, "member"), method, paper_button_url(world, name))

    if (name, method) == ("paper_deal", "get"):
        # The deal's address opened (the offline queue fetches it for a fresh CSRF token, and a
        # reload after a refused deal asks it) goes to the paper, changing nothing.
        assert response.status_code == 302
    else:
        assert response.status_code == 405
    assert paper_state(world) == before


@pytest.mark.parametrize("name", STAFF_BUTTONS)
def test_only_staff_with_the_permission_press_the_staff_buttons(world, name):
    url = reverse(f"ratings:{name}", args=STAFF_BUTTONS[name](world))

    assert_sent_to(client_for(world, "anonymous").post(url), reverse("login"))
    assert client_for(world, "member").post(url).status_code == 403
    assert client_for(world, "viewer").post(url).status_code == 403
    assert client_for(world, "staff").get(url).status_code == 405
    assert client_for(world, "staff").post(url).status_code == 302
