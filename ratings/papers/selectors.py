"""Reads of the digital paper: a paper's deal log, the paper it draws, the deal logs of games."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from django.db.models import Case, Count, When

from ratings.algorithms import paper as paper_rules
from ratings.models import League, Result
from ratings.papers.models import Deal, DigitalPaper


def deal_log(paper: DigitalPaper, deals: Sequence[Deal] | None = None) -> dict:
    """The paper's deal log in the format of ``manage.py paper_from_deals``.

    ``deals`` defaults to the paper's deals in order (one query); pass them when already loaded.
    Each deal's hand (:meth:`~ratings.algorithms.paper.Hand.from_json`) is written in the log's
    form under the paper's house rules, which go with the log (``"rules"``, left out when they
    are the library's). PaperError if a stored deal is malformed (the services never store one).
    """
    if deals is None:
        deals = list(paper.deals.order_by("number"))
    rules = house_rules(paper)
    hands = []
    for deal in deals:
        try:
            hand = paper_rules.Hand.from_json(deal.entered)
            hands.append(hand.log_json(repealed=deal.repealed, rules=rules))
        except paper_rules.PaperError as error:
            raise paper_rules.PaperError(f"hand {deal.number}: {error}") from None
    log = {"bula": paper.bula, "refas": paper.refas, "hands": hands}
    if not rules.is_library:
        log["rules"] = rules.json()  # the library's rules are the log's default
    return log


def house_rules(paper: DigitalPaper) -> paper_rules.HouseRules:
    """The house rules the paper is kept by (its league's when it was started). PaperError if
    the stored ones are not rules (the services never store such)."""
    try:
        return paper_rules.HouseRules.from_json(paper.house_rules or {})
    except ValueError as error:
        raise paper_rules.PaperError(str(error)) from None


def drawn_paper(paper: DigitalPaper, deals: Sequence[Deal] | None = None) -> paper_rules.Paper:
    """The paper the deals draw, as prefko's library draws it."""
    return paper_rules.draw_paper(paper_rules.parse_log(deal_log(paper, deals)))


def deal_logs_of_games(game_ids: Iterable[int]) -> dict[int, dict]:
    """Each game's deal log, for the games finished from a digital paper (two queries)."""
    return _deal_logs(DigitalPaper.objects.filter(game_id__in=list(game_ids)))


def deal_logs_of_league(league: League) -> dict[int, dict]:
    """The deal log of each game of the league finished from a digital paper, by game id."""
    return _deal_logs(DigitalPaper.objects.filter(league=league, game__isnull=False))


def _deal_logs(papers_query) -> dict[int, dict]:
    papers = list(papers_query)
    deals: dict[int, list[Deal]] = {paper.pk: [] for paper in papers}
    for deal in Deal.objects.filter(paper__in=papers).order_by("paper_id", "number"):
        deals[deal.paper_id].append(deal)
    return {paper.game_id: deal_log(paper, deals[paper.pk]) for paper in papers}


def first_paper_difference() -> str | None:
    """The first digital paper whose deals the rules refuse, or which does not give its game's
    players and columns; None when every paper agrees (restore_club's check, three queries)."""
    papers = list(DigitalPaper.objects.order_by("pk"))
    deals: dict[int, list[Deal]] = {paper.pk: [] for paper in papers}
    for deal in Deal.objects.order_by("paper_id", "number"):
        deals.setdefault(deal.paper_id, []).append(deal)
    seats: dict[int, list[tuple]] = {}
    for game_id, player_id, left, middle, right in (
        Result.objects.filter(game__digital_paper__isnull=False)
        .order_by("game_id", "seat")
        .values_list("game_id", "player_id", "left", "middle", "right")
    ):
        seats.setdefault(game_id, []).append((player_id, (left, middle, right)))
    for paper in papers:
        numbers = [deal.number for deal in deals[paper.pk]]
        if numbers != list(range(1, len(numbers) + 1)):
            return f"digital paper {paper.pk} has deals {numbers}, not 1, 2, ..."
        try:
            drawn = drawn_paper(paper, deals[paper.pk])
        except paper_rules.PaperError as error:
            return f"digital paper {paper.pk}: {error}"
        if paper.game_id is None:
            continue
        players = (paper.player_1_id, paper.player_2_id, paper.player_3_id)
        expected = list(zip(players, drawn.columns, strict=True))
        if seats.get(paper.game_id) != expected:
            return (
                f"digital paper {paper.pk} gives {expected} (player, columns), but its game "
                f"{paper.game_id} has {seats.get(paper.game_id)}"
            )
    return None


@dataclass(frozen=True)
class DealRow:
    """A deal as the paper page lists it."""

    number: int
    refa: bool
    repealed: bool
    declarer: str
    contract: str
    igra: bool
    on_refa: bool
    kontra: int
    failed: bool
    value: int | None
    defence: list[tuple[str, str, int, bool]]  # (name, play, tricks, fell)
    dealer: str = ""  # who dealt it (dealer_seat)


def dealer_seat(number: int) -> int:
    """The seat (1-based) that deals deal ``number``: seat 1 deals the first, then the deal
    passes round in seat order, a refa's included, as the cards do at the table."""
    return (number - 1) % 3 + 1


def first_bidder_seat(number: int) -> int:
    """The seat that speaks first in deal ``number``: the one after the dealer."""
    return dealer_seat(number) % 3 + 1


@dataclass(frozen=True)
class PaperPage:
    """What the paper page shows: the paper, its players, its deals and the paper they draw."""

    paper: DigitalPaper
    deals: list[DealRow]
    drawn: paper_rules.Paper
    seats: list[dict]
    # Once finished into a game: per seat its name, final score and rating change (the finish
    # every watching phone sees); empty before.
    result: list[dict] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.deals)

    @property
    def over(self) -> bool:
        """The bulas have run out: the paper takes no more deals, only its finish."""
        return self.drawn.over

    @property
    def open_refe(self) -> str:
        """The seats with a refa still to play, "1,3" (the deal form ticks "on a refa")."""
        return ",".join(str(s) for s in (1, 2, 3) if self.drawn.has_open_refa(s))

    @property
    def open_refa_counts(self) -> str:
        """How many refe each seat still has to play, "2,1,1": the phone counts the refe of
        deals it keeps on top of these (static/paper_live.js)."""
        return ",".join(
            str(sum(1 for entry in seat["middle_entries"] if entry.get("played") == 0))
            for seat in self.seats
        )

    @property
    def next_number(self) -> int:
        return self.count + 1

    @property
    def next_dealer(self) -> dict:
        return self.seats[dealer_seat(self.next_number) - 1]

    @property
    def next_first_bidder(self) -> dict:
        return self.seats[first_bidder_seat(self.next_number) - 1]


def paper_page(pk: int) -> PaperPage:
    """The paper page's data in two queries: the paper with its league and players, its deals;
    a third for a finished paper's game's results (the final scores and rating changes).

    DigitalPaper.DoesNotExist if there is no such paper.
    """
    paper = DigitalPaper.objects.select_related(
        "league", "player_1", "player_2", "player_3", "game"
    ).get(pk=pk)
    deals = list(paper.deals.order_by("number"))
    drawn = drawn_paper(paper, deals)
    names = [player.name for player in paper.players]
    rows = [
        replace(_deal_row(deal, names), dealer=names[dealer_seat(deal.number) - 1])
        for deal in deals
    ]
    seats = [
        {
            "seat": seat.seat,
            "name": name,
            "player": player,
            "left": seat.left,
            "middle": seat.middle,
            "right": seat.right,
            "final": final,
            "open_refa": drawn.has_open_refa(seat.seat),
            "left_entries": [_entry(e) for e in seat.left_entries],
            "middle_entries": [_entry(e) for e in seat.middle_entries],
            "right_entries": [_entry(e) for e in seat.right_entries],
        }
        for seat, name, player, final in zip(
            drawn.seats, names, paper.players, drawn.finals(), strict=True
        )
    ]
    result = []
    if paper.game_id is not None:
        scores = (
            Result.objects.filter(game_id=paper.game_id)
            .order_by("seat")
            .values_list("player__name", "score", "rating_before", "rating_after")
        )
        result = [
            {
                "name": name,
                "score": score,
                "before": before,
                "after": after,
                "change": after - before,
            }
            for name, score, before, after in scores
        ]
    return PaperPage(paper=paper, deals=rows, drawn=drawn, seats=seats, result=result)


def _entry(entry: object) -> dict:
    """One entry of a column as the template draws it: a number (perhaps repealed), a hat
    (perhaps crossed) or a refa triangle with this seat's mark."""
    if isinstance(entry, int):
        return {"value": entry}
    assert isinstance(entry, dict)
    if "hat" in entry:
        return {"hat": True, "crossed": entry["hat"] == -1}
    if "repealed" in entry:
        return {"value": entry["value"], "repealed": True}
    return {"refa": True, "played": entry["middle"]}


def _deal_row(deal: Deal, names: list[str]) -> DealRow:
    """A deal as the page lists it; a hand kept from a deal log (posted to the API) shows its
    value but no contract, igra, refa or kontra, which the log does not tell."""
    hand = paper_rules.Hand.from_json(deal.entered)
    if hand.refa:
        return DealRow(deal.number, True, deal.repealed, "", "", False, False, 0, False, None, [])
    contract = hand.contract
    return DealRow(
        number=deal.number,
        refa=False,
        repealed=deal.repealed,
        declarer=names[hand.declarer - 1],
        contract="" if contract is None else contract.name,
        igra=contract is not None and contract.igra,
        on_refa=contract is not None and contract.on_refa,
        kontra=0 if contract is None else contract.kontra,
        failed=hand.failed,
        value=hand.value,
        defence=[(names[f.seat - 1], f.play, f.tricks, f.failed) for f in hand.followers],
    )


def papers_in_progress(league_ids: Iterable[int]) -> dict[int, list[DigitalPaper]]:
    """The papers not yet finished of these leagues, newest first, by league id (one query).

    Each with its players and ``deal_count``, the deals entered so far (repealed ones included):
    the leaderboard and the home page list them, so another player of the table finds the
    paper to continue it.
    """
    papers: dict[int, list[DigitalPaper]] = {}
    for paper in (
        DigitalPaper.objects.filter(
            league_id__in=list(league_ids), finished_at__isnull=True, discarded_at__isnull=True
        )
        .select_related("player_1", "player_2", "player_3")
        .annotate(deal_count=Count("deals"))
        .order_by("-started_at", "-pk")
    ):
        papers.setdefault(paper.league_id, []).append(paper)
    return papers


def last_table(league: League, user) -> DigitalPaper | None:
    """The paper whose table "the same table again" starts anew: the member's last paper in the
    league (the one they started), else the league's last; discarded ones left out (one query,
    its players with it)."""
    papers = DigitalPaper.objects.filter(league=league, discarded_at__isnull=True).select_related(
        "player_1", "player_2", "player_3"
    )
    mine = Case(When(started_by_id=getattr(user, "pk", None), then=0), default=1)
    return papers.order_by(mine, "-started_at", "-pk").first()
