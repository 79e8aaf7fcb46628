"""Who may do what, per view and per method: the tables below are the club's access policy.

- Reading (every page in ``READ_PAGES``): everyone, by GET or HEAD; any write method is 405.
  With ``CLUB_PRIVATE`` on, visitors who are not logged in are sent to the login page instead.
- Entering games and adding players: logged-in members (and staff); visitors go to the login.
- Editing and deleting games: staff in the admin. A member who is not staff is sent to the
  admin's login; staff without the delete permission get 403.
- Every POST needs a CSRF token (403 without one), from the entry form to the admin.
- The rayter import page (staff) and export (readers) are checked once they exist.
"""

from __future__ import annotations

import uuid
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import NoReverseMatch, URLPattern, URLResolver, reverse

from ratings import engine
from ratings import urls as ratings_urls
from ratings.models import AuditEntry, Game, League, Player, Result, System
from tests.conftest import PASSWORD, T0

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "member", "staff")
WRITE_METHODS = ("post", "put", "patch", "delete")
PAPERS = [(320, -20, 160), (120, 4, 60), (20, 16, 60)]

# Every URL name of ratings/urls.py, by what it does. A new URL fails
# test_every_ratings_url_has_a_policy until it is added here.
READ_PAGES = {
    "home": lambda w: [],
    "leaderboard": lambda w: [w.league.slug],
    "leaderboard_export": lambda w: [w.league.slug, "csv"],
    "league_games": lambda w: [w.league.slug],
    "game": lambda w: [w.game.pk],
    "player": lambda w: [w.players[0].slug],
    "head_to_head": lambda w: [w.players[0].slug, w.players[1].slug],
    "head_to_head_pick": lambda w: [w.players[0].slug],
}
ENTRY_PAGES = {
    "game_new": lambda w: [w.league.slug],
    "player_new": lambda w: [],
}
# Being added by the rayter work; tested here as soon as the names resolve.
RAYTER_PAGES = ("rayter_import", "rayter_export")


def url_names(patterns) -> set[str]:
    names = set()
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            names |= url_names(pattern.url_patterns)
        elif isinstance(pattern, URLPattern) and pattern.name:
            names.add(pattern.name)
    return names


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    """Three users per test: a cheap hasher keeps the file fast (the hash is not under test)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def world(django_user_model):
    """A league with one game, a scored league, and a member, staff and a clerk to ask."""
    league = League.objects.create(name="Friday", slug="friday", system=System.PREFKO)
    hearts = League.objects.create(
        name="Hearts", slug="hearts", system=System.RAYTER_LOWSCORE, game_name="Hearts"
    )
    players = [Player.objects.create_named(name) for name in ("Pedja", "Marko", "Johnny")]
    game = engine.game_record(
        league=league,
        played_at=T0,
        entries=[
            engine.Entry(player_id=p.pk, paper=paper)
            for p, paper in zip(players, PAPERS, strict=True)
        ],
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
    return SimpleNamespace(
        league=league,
        hearts=hearts,
        players=players,
        game=game,
        users={"member": member, "staff": staff, "clerk": clerk},
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
    covered = set(READ_PAGES) | set(ENTRY_PAGES) | set(RAYTER_PAGES)
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


def paper_data(world) -> dict:
    data = {
        "submission_key": str(uuid.uuid4()),
        "played_at": "2026-03-12T21:30",
        "bula": "30",
    }
    for seat, (player, (left, middle, right)) in enumerate(zip(world.players, PAPERS, strict=True)):
        data |= {
            f"player_{seat}": player.name,
            f"left_{seat}": left,
            f"middle_{seat}": middle,
            f"right_{seat}": right,
        }
    return data


def enter_game(client: Client, world):
    """Preview, then save what was previewed, as a member at the table does."""
    url = reverse("ratings:game_new", args=[world.league.slug])
    data = paper_data(world)
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
            f"results-{i}-seat": result.seat,
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
    data = {**paper_data(world), "preview": "1"}
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


# Rayter import and export (skipped until those pages exist) -------------------------------------


def rayter_url(world, name: str) -> str:
    """The page's URL, for the scored league when it takes one; skip if it is not there yet."""
    if name not in url_names(ratings_urls.urlpatterns):
        pytest.skip(f"ratings:{name} is not defined yet")
    for args in ([], [world.hearts.slug]):
        try:
            return reverse(f"ratings:{name}", args=args)
        except NoReverseMatch:
            continue
    pytest.fail(f"ratings:{name} takes arguments this test does not know")


RAYTER_FILE = b"game 2026-01-01 20:00\nAnna 10\nBojan 3\n"


def upload(name: str = "hearts.txt", data: bytes = RAYTER_FILE):
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

    refused = client.post(url, {"file": upload()})
    preview = client.post(url, {"file": upload(), "csrfmiddlewaretoken": csrf_token(client, url)})

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
