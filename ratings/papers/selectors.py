"""Reads of the digital paper: a paper's deal log, the paper it draws, the deal logs of games."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ratings.algorithms import paper as paper_rules
from ratings.models import Deal, DigitalPaper


def deal_log(paper: DigitalPaper, deals: Sequence[Deal] | None = None) -> dict:
    """The paper's deal log in the format of ``manage.py paper_from_deals``.

    ``deals`` defaults to the paper's deals in order (one query); pass them when already loaded.
    PaperError if a stored deal is malformed (the services never store one).
    """
    if deals is None:
        deals = list(paper.deals.order_by("number"))
    hands = []
    for deal in deals:
        try:
            hands.append(paper_rules.hand_from_entry(deal.entered, repealed=deal.repealed))
        except paper_rules.PaperError as error:
            raise paper_rules.PaperError(f"hand {deal.number}: {error}") from None
    return {"bula": paper.bula, "refas": paper.refas, "hands": hands}


def drawn_paper(paper: DigitalPaper, deals: Sequence[Deal] | None = None) -> paper_rules.Paper:
    """The paper the deals draw, as prefko's library draws it."""
    return paper_rules.draw_paper(paper_rules.parse_log(deal_log(paper, deals)))


def deal_logs_of_games(game_ids: Iterable[int]) -> dict[int, dict]:
    """Each game's deal log, for the games finished from a digital paper (two queries)."""
    papers = list(DigitalPaper.objects.filter(game_id__in=list(game_ids)))
    deals: dict[int, list[Deal]] = {paper.pk: [] for paper in papers}
    for deal in Deal.objects.filter(paper__in=papers).order_by("paper_id", "number"):
        deals[deal.paper_id].append(deal)
    return {paper.game_id: deal_log(paper, deals[paper.pk]) for paper in papers}
