"""Digital papers in the admin: a corrected deal redraws the paper and re-rates its game."""

import json
from datetime import timedelta

import pytest
from django.urls import reverse

from ratings.models import System
from ratings.papers import services
from ratings.papers.models import Deal
from tests.builders import T0, formset_errors, game_post, league_post
from tests.papers.deals import SHORT_GAME, enter, played, start
from tests.replays import assert_unchanged_by_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(make_league, make_player):
    league = make_league(System.PREFKO)
    table = (league, [make_player(name) for name in ("Ana", "Boris", "Ceca")])
    paper = start(table)
    enter(paper, SHORT_GAME)
    services.paper_finish(paper=paper, played_at=T0)
    paper.refresh_from_db()
    return paper


def test_a_corrected_deal_re_rates_the_game_through_the_engine(admin_client, finished):
    deal = Deal.objects.get(paper=finished, number=4)
    changed = played(3, "pik", on_refa=True, kontra=2, followers=[(2, "followed", 1, False)])
    response = admin_client.post(
        reverse("admin:ratings_deal_change", args=[deal.pk]),
        {"entered": json.dumps(changed), "repealed": ""},
    )
    assert response.status_code == 302
    game = finished.game
    assert [r.paper for r in game.results.order_by("seat")] == [
        (0, -2, 0),
        (24, 2, 32),
        (8, -22, 0),
    ]
    assert_unchanged_by_recompute(finished.league)


def test_a_deal_the_rules_refuse_is_a_form_error_and_changes_nothing(admin_client, finished):
    deal = Deal.objects.get(paper=finished, number=2)
    before = [r.paper for r in finished.game.results.order_by("seat")]
    response = admin_client.post(
        reverse("admin:ratings_deal_change", args=[deal.pk]),
        {"entered": json.dumps({"refa": True}), "repealed": "on"},
    )
    assert response.status_code == 200
    assert "hand 2: a refa cannot be repealed" in response.content.decode()
    assert [r.paper for r in finished.game.results.order_by("seat")] == before


def test_the_paper_and_deal_pages_render(admin_client, finished):
    for url in (
        reverse("admin:ratings_digitalpaper_changelist"),
        reverse("admin:ratings_digitalpaper_change", args=[finished.pk]),
        reverse("admin:ratings_deal_changelist"),
        reverse("admin:ratings_deal_change", args=[finished.deals.first().pk]),
    ):
        assert admin_client.get(url).status_code == 200, url


def test_the_game_admin_refuses_columns_out_of_step_with_the_deals(admin_client, finished):
    game = finished.game
    results = list(game.results.order_by("seat"))
    columns = [(0, -2, 0), (24, 2, 16), (8, -6, 0)]
    edited = [(0, -2, 0), (24, 4, 16), (8, -8, 0)]
    seats = [(r.player, r.seat, paper, None) for r, paper in zip(results, edited, strict=True)]
    url = reverse("admin:ratings_game_change", args=[game.pk])
    response = admin_client.post(
        url, game_post(game.league, T0, seats, bula=10, results=results, game=game)
    )
    assert response.status_code == 200
    [error] = formset_errors(response)
    assert "Correct the deal instead" in error
    assert reverse("admin:ratings_digitalpaper_change", args=[finished.pk]) in error
    assert [r.paper for r in game.results.order_by("seat")] == columns


def test_the_game_admin_takes_a_digital_papers_date_and_note_but_not_its_bula(
    admin_client, finished
):
    game = finished.game
    results = list(game.results.order_by("seat"))
    seats = [(r.player, r.seat, r.paper, None) for r in results]
    url = reverse("admin:ratings_game_change", args=[game.pk])
    later = T0 + timedelta(hours=1)
    data = game_post(game.league, later, seats, bula=30, results=results, game=game)
    assert admin_client.post(url, data | {"note": "Late table"}).status_code == 302
    game.refresh_from_db()
    assert (game.played_at, game.note, game.bula) == (later, "Late table", 10)


def test_the_league_admin_holds_the_refe_cap(admin_client, finished):
    league = finished.league
    url = reverse("admin:ratings_league_change", args=[league.pk])
    assert 'name="refas"' in admin_client.get(url).content.decode()
    assert admin_client.post(url, league_post(league, refas=3)).status_code == 302
    league.refresh_from_db()
    assert league.system_settings["refas"] == 3


def test_staff_find_discarded_papers_with_the_admins_filter(admin_client, make_league, make_player):
    league = make_league(System.PREFKO)
    table = (league, [make_player(name) for name in ("Ana", "Boris", "Ceca")])
    kept, discarded = start(table), start(table)
    services.paper_discard(paper=discarded)
    url = reverse("admin:ratings_digitalpaper_changelist")
    listed = admin_client.get(url + "?discarded_at__isempty=0")
    assert [paper.pk for paper in listed.context["cl"].result_list] == [discarded.pk]
    assert admin_client.get(url).context["cl"].result_count == 2
    assert kept.pk != discarded.pk
