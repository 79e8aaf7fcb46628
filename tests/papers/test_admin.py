"""Digital papers in the admin: a deal corrected through its own fields redraws the paper,
re-rates its game and is audited."""

from dataclasses import replace
from datetime import timedelta

import pytest
from django.urls import reverse

from ratings.algorithms.paper import Hand
from ratings.models import AuditAction, AuditEntry, System
from ratings.papers import services
from ratings.papers.models import Deal
from tests.builders import T0, formset_errors, game_post, league_post
from tests.papers.deals import REFA, SHORT_GAME, enter, played, start
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


def admin_deal_post(hand: Hand, *, repealed: bool = False) -> dict:
    """The admin's deal form posted with ``hand``'s fields, as staff fill them in."""
    data = {"repealed": "on" if repealed else "", "kind": "refa" if hand.refa else "played"}
    data |= {"kontra": "0", "declarer": "", "contract": "", "value": "", "declarer_tricks": ""}
    data |= {f"{name}_{seat}": "" for seat in (1, 2, 3) for name in ("play", "tricks", "supa")}
    if hand.refa:
        return data
    contract = hand.contract
    data |= {"declarer": str(hand.declarer), "value": str(hand.value)}
    if hand.failed:
        data["failed"] = "on"
    if hand.declarer_tricks is not None:
        data["declarer_tricks"] = str(hand.declarer_tricks)
    if contract is not None:
        data |= {"contract": contract.name, "kontra": str(contract.kontra)}
        data |= {flag: "on" for flag in ("igra", "on_refa") if getattr(contract, flag)}
    for f in hand.followers:
        data |= {f"play_{f.seat}": f.play, f"tricks_{f.seat}": str(f.tricks)}
        data |= {f"supa_{f.seat}": "" if f.supa is None else str(f.supa)}
        data |= {f"fell_{f.seat}": "on"} if f.failed else {}
    return data


def change_url(deal) -> str:
    return reverse("admin:ratings_deal_change", args=[deal.pk])


def test_a_corrected_deal_re_rates_the_game_through_the_engine_with_its_audit_entries(
    admin_client, admin_user, finished
):
    deal = Deal.objects.get(paper=finished, number=4)
    said = deal.entered
    changed = played(3, "pik", on_refa=True, kontra=2, followers=[(2, "followed", 1, False)])
    response = admin_client.post(change_url(deal), admin_deal_post(changed))
    assert response.status_code == 302
    game = finished.game
    assert [r.paper for r in game.results.order_by("seat")] == [
        (0, -2, 0),
        (24, 2, 32),
        (8, -22, 0),
    ]
    deal.refresh_from_db()
    assert deal.entered == changed.to_json()
    edit = AuditEntry.objects.get(action=AuditAction.DEAL_EDIT)
    assert (edit.user, edit.game_id) == (admin_user, game.pk)
    assert (edit.before["entered"], edit.after["entered"]) == (said, changed.to_json())
    rerated = AuditEntry.objects.get(action=AuditAction.UPDATE, game_id=game.pk)
    assert rerated.user == admin_user
    assert_unchanged_by_recompute(finished.league)


def test_the_deal_form_shows_the_deals_fields_not_its_json(admin_client, finished):
    deal = Deal.objects.get(paper=finished, number=4)  # Ceca: pik on a refa, kontra
    response = admin_client.get(change_url(deal))
    form = response.context["adminform"].form
    assert "entered" not in form.fields
    assert {name: form.initial[name] for name in ("kind", "declarer", "contract", "kontra")} == {
        "kind": "played",
        "declarer": 3,
        "contract": "pik",
        "kontra": 1,
    }
    assert (form.initial["play_2"], form.initial["tricks_2"]) == ("followed", 1)
    assert form.fields["play_2"].label == "Boris: followed, passed or invited"
    assert 'name="entered"' not in response.content.decode()


def test_the_paper_lists_its_deals_in_words_not_json(admin_client, finished):
    page = admin_client.get(reverse("admin:ratings_digitalpaper_change", args=[finished.pk]))
    text = page.content.decode()
    assert "Ceca, pik (2), On a refa (x2), kontra, Value 16, Ana: passed, Boris: followed 1" in text
    assert "refa (all passed)" in text
    assert "followers" not in text
    listed = admin_client.get(reverse("admin:ratings_deal_changelist")).content.decode()
    assert "Ana, karo (3), On a refa (x2), Value 12, Boris: followed 2, Ceca: passed" in listed


def test_a_deal_the_rules_refuse_is_a_form_error_and_changes_nothing(admin_client, finished):
    deal = Deal.objects.get(paper=finished, number=2)
    before = [r.paper for r in finished.game.results.order_by("seat")]
    response = admin_client.post(change_url(deal), admin_deal_post(REFA, repealed=True))
    assert response.status_code == 200
    assert "hand 2: a refa cannot be repealed" in response.content.decode()
    assert [r.paper for r in finished.game.results.order_by("seat")] == before
    assert not AuditEntry.objects.filter(action=AuditAction.DEAL_EDIT).exists()


def test_a_hand_the_paper_module_refuses_is_a_form_error(admin_client, finished):
    deal = Deal.objects.get(paper=finished, number=2)
    said = deal.entered
    data = admin_deal_post(played(1, "karo", on_refa=True, followers=[(2, "followed", 2, False)]))
    data["supa_2"] = "60"  # a deal with its contract writes the supa its rules give
    response = admin_client.post(change_url(deal), data)
    assert response.status_code == 200
    assert "writes the supa its rules give" in response.content.decode()
    deal.refresh_from_db()
    assert deal.entered == said


def test_an_edit_that_leaves_the_bulas_not_run_out_is_refused(admin_client, finished):
    deal = Deal.objects.get(paper=finished, number=4)
    response = admin_client.post(change_url(deal), admin_deal_post(REFA))
    assert response.status_code == 200
    assert "the game would not be over" in response.content.decode()
    assert [r.paper for r in finished.game.results.order_by("seat")] == [
        (0, -2, 0),
        (24, 2, 16),
        (8, -6, 0),
    ]


def test_a_deal_kept_from_a_posted_deal_log_is_edited_by_its_value(admin_client, finished):
    """A hand from the API's deal log tells no contract: staff correct its value and tricks."""
    deal = Deal.objects.get(paper=finished, number=4)
    logged = Hand.from_log(
        {
            "value": 16,
            "declarer": {"seat": 3, "failed": False},
            "followers": [
                {"seat": 1, "followed": False},
                {"seat": 2, "followed": True, "tricks": 1},
            ],
        }
    )[0]
    Deal.objects.filter(pk=deal.pk).update(entered=logged.to_json())
    form = admin_client.get(change_url(deal)).context["adminform"].form
    assert (form.initial["contract"], form.initial["value"]) == ("", 16)
    corrected = replace(logged, value=32)
    assert admin_client.post(change_url(deal), admin_deal_post(corrected)).status_code == 302
    deal.refresh_from_db()
    assert Hand.from_json(deal.entered) == corrected
    assert [r.paper for r in finished.game.results.order_by("seat")][2] == (8, -22, 0)


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
