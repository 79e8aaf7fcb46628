"""The demo club has a digital paper finished deal by deal and one in progress."""

import pytest

from ratings.papers import selectors
from ratings.papers.models import DigitalPaper

pytestmark = pytest.mark.django_db


def test_the_demo_has_a_finished_digital_paper_and_one_in_progress(client, demo_club):
    finished, going = DigitalPaper.objects.order_by("pk")
    assert finished.game is not None and not finished.game.ended_early
    assert [r.paper for r in finished.game.results.order_by("seat")] == (
        selectors.drawn_paper(finished).columns
    )
    assert finished.deals.filter(repealed=True).count() == 1
    assert going.game is None and going.deals.count() == 3
    for paper in (finished, going):
        assert client.get(f"/papers/{paper.pk}/").status_code == 200
