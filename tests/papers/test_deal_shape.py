"""One shape for a deal on every path: the deals the services keep are the paper module's Hand,
and draw the paper the same deals drew when the pad's taps were kept as they were tapped."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.algorithms.paper import Hand, PaperError, paper_result
from ratings.entry.models import HeldGame
from ratings.models import AuditAction, AuditEntry, League
from ratings.models.leagues import Confirmation
from ratings.papers import selectors, services
from ratings.papers.models import Deal
from tests.algorithms.paper_before import hand_before
from tests.algorithms.paper_strategies import house_rules, repealed, taps
from tests.papers.deals import REFA, SHORT_GAME, enter, played, start

pytestmark = pytest.mark.django_db


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.lists(st.tuples(taps(), repealed), min_size=1, max_size=8), house_rules)
def test_the_deals_kept_draw_the_paper_the_taps_drew_before(table, deals, rules):
    paper = start(table, bula=30)
    paper.house_rules = rules.json()
    paper.save(update_fields=["house_rules"])
    accepted = []
    for entry, crossed in deals:
        try:
            hand = Hand.from_entry(entry)
            services.deal_add(paper=paper, hand=hand, after=len(accepted))
        except (PaperError, ValidationError):
            continue  # refused: never kept, whichever way it was read
        if crossed:
            try:
                services.deal_repeal(paper=paper, number=len(accepted) + 1)
            except ValidationError:
                crossed = False
        accepted.append((entry, crossed))
    kept = list(Deal.objects.filter(paper=paper).order_by("number"))
    assert [Hand.from_json(deal.entered).to_json() for deal in kept] == [d.entered for d in kept]
    before = {
        "bula": 30,
        "refas": None,
        "hands": [hand_before(e, repealed=r, rules=rules) for e, r in accepted],
        "rules": rules.json(),
    }
    assert selectors.drawn_paper(paper).result_json() == paper_result(before)


def test_a_deal_tapped_on_the_pad_is_kept_with_its_contract(member_client, table):
    paper = start(table)
    taps = {"after": "0", "kind": "played", "declarer": "2", "contract": "tref", "kontra": "1"}
    taps |= {"play_1": "followed", "tricks_1": "2", "play_3": "invited"}
    response = member_client.post(f"/papers/{paper.pk}/deal/", taps)
    assert response.status_code == 302
    assert Deal.objects.get(paper=paper).entered == {
        "contract": {"name": "tref", "igra": False, "on_refa": False, "kontra": 1},
        "value": 20,
        "declarer": {"seat": 2, "failed": False},
        "followers": [
            {"seat": 1, "play": "followed", "tricks": 2, "failed": False},
            {"seat": 3, "play": "invited", "tricks": 0, "failed": False},
        ],
    }


def test_adding_taking_back_and_repealing_a_deal_are_each_audited(table):
    paper = start(table)
    enter(paper, SHORT_GAME[:2])
    services.deal_repeal(paper=paper, number=2)
    services.deal_repeal(paper=paper, number=2, repealed=False)
    services.deal_undo(paper=paper, after=2)
    actions = list(AuditEntry.objects.order_by("pk").values_list("action", flat=True))
    assert actions == [
        AuditAction.DEAL_ADD,
        AuditAction.DEAL_ADD,
        AuditAction.DEAL_REPEAL,
        AuditAction.DEAL_BACK,
        AuditAction.DEAL_UNDO,
    ]
    undo = AuditEntry.objects.get(action=AuditAction.DEAL_UNDO)
    assert undo.before["entered"] == SHORT_GAME[1].to_json() and undo.after is None


def test_an_edit_that_changes_nothing_writes_nothing(table):
    paper = start(table)
    enter(paper, SHORT_GAME)
    services.paper_finish(paper=paper)
    deal = Deal.objects.get(paper=paper, number=2)
    services.deal_update(deal=deal, hand=Hand.from_json(deal.entered), repealed=False)
    assert not AuditEntry.objects.filter(action=AuditAction.DEAL_EDIT).exists()


def test_an_edit_that_leaves_deals_after_the_end_is_refused(table):
    paper = start(table)
    enter(paper, SHORT_GAME)
    services.paper_finish(paper=paper)
    deal = Deal.objects.get(paper=paper, number=2)
    # Sans on the refa (28): Ana 10 -> -18, so deal 3 (Boris 10 -> 2) runs the bulas out and
    # deal 4 comes after the end.
    sans = played(1, "sans", on_refa=True)
    with pytest.raises(ValidationError, match="The bulas ran out with deal 3"):
        services.deal_update(deal=deal, hand=sans, repealed=False)
    deal.refresh_from_db()
    assert Hand.from_json(deal.entered) == SHORT_GAME[1]


def test_a_deal_of_a_paper_whose_game_waits_for_the_table_is_not_edited(table):
    league, players = table
    League.objects.filter(pk=league.pk).update(confirmation=Confirmation.ANOTHER_SEAT)
    member = get_user_model().objects.create_user("ana")
    players[0].user = member
    players[0].save(update_fields=["user"])
    paper = start((League.objects.get(pk=league.pk), players))
    enter(paper, SHORT_GAME)
    held = services.paper_finish(paper=paper, actor=member)
    assert isinstance(held, HeldGame)
    deal = Deal.objects.get(paper=paper, number=1)
    with pytest.raises(ValidationError, match="waits for the table's confirmation"):
        services.deal_update(deal=deal, hand=REFA, repealed=False)
