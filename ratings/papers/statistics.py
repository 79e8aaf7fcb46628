"""A player's deals, from the deal logs of the digital papers they sat at: declared and made, by
contract, refe played, supe written and conceded, falls as a follower. Repealed deals count for
nothing, as on the paper; deals of papers still in progress count too (they were played)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ratings.algorithms import paper as paper_rules
from ratings.models import Player
from ratings.papers.models import Deal, DigitalPaper

CONTRACTS = tuple(paper_rules.CONTRACTS)


@dataclass
class ContractLine:
    contract: str
    declared: int = 0
    made: int = 0

    @property
    def made_percent(self) -> float | None:
        return 100 * self.made / self.declared if self.declared else None


@dataclass
class DealStatistics:
    """What one player did deal by deal, over every digital paper they sat at."""

    papers: int = 0
    deals: int = 0  # played deals at their tables, refe included
    refe: int = 0  # deals all three passed
    declared: int = 0
    made: int = 0
    refe_played: int = 0  # their games on an unplayed refa
    supe_written: int = 0  # what they wrote as a follower, tricks x value
    supe_conceded: int = 0  # what the followers wrote against them as declarer
    follows: int = 0
    falls: int = 0  # as a follower
    by_contract: dict[str, ContractLine] = field(
        default_factory=lambda: {c: ContractLine(c) for c in CONTRACTS}
    )

    @property
    def made_percent(self) -> float | None:
        return 100 * self.made / self.declared if self.declared else None

    @property
    def contracts(self) -> list[ContractLine]:
        """The contracts they declared, in the order of the bids."""
        return [line for line in self.by_contract.values() if line.declared]


def player_deal_statistics(player: Player) -> DealStatistics:
    """The player's deal statistics (one query: the deals of their papers, with each paper)."""
    deals = (
        Deal.objects.filter(
            DigitalPaper.seating(player, via="paper__"),
            repealed=False,
        )
        .select_related("paper")
        .order_by("paper_id", "number")
    )
    stats = DealStatistics()
    papers = set()
    for deal in deals:
        paper = deal.paper
        papers.add(paper.pk)
        seat = (paper.player_1_id, paper.player_2_id, paper.player_3_id).index(player.pk) + 1
        _count(stats, seat, paper_rules.Hand.from_json(deal.entered))
    stats.papers = len(papers)
    return stats


def _count(stats: DealStatistics, seat: int, hand: paper_rules.Hand) -> None:
    stats.deals += 1
    if hand.refa:
        stats.refe += 1
        return
    value = hand.value
    if hand.declarer == seat:
        # A deal kept as the log says it (posted to the API) tells no contract.
        contract = hand.contract
        line = stats.by_contract.get(contract.name if contract else "", ContractLine(""))
        stats.declared += 1
        line.declared += 1
        if not hand.failed:
            stats.made += 1
            line.made += 1
        if contract is not None and contract.on_refa:
            stats.refe_played += 1
        stats.supe_conceded += sum(value * f.tricks for f in hand.followers if f.followed)
        return
    for follower in hand.followers:
        if follower.seat == seat and follower.followed:
            stats.follows += 1
            stats.supe_written += value * follower.tricks
            stats.falls += follower.failed


@dataclass
class SideDeals:
    """One of two players declaring with the other at the table (the other then defends)."""

    declared: int = 0
    made: int = 0
    followed: int = 0  # the other followed
    supe: int = 0  # what the other wrote against them, tricks x value
    falls: int = 0  # the other followed and fell

    @property
    def made_percent(self) -> float | None:
        return 100 * self.made / self.declared if self.declared else None


@dataclass
class PairDeals:
    """The deals two players played against each other in one league: one declared, the other
    defended (at a table of three, the other is always a follower)."""

    papers: int = 0
    first: SideDeals = field(default_factory=SideDeals)  # the first player declaring
    second: SideDeals = field(default_factory=SideDeals)  # the second player declaring


def pair_deal_statistics(a: Player, b: Player) -> dict[int, PairDeals]:
    """By league, the deals ``a`` and ``b`` played against each other (one query: the deals of
    the papers they both sat at, with each paper). Repealed deals count for nothing."""
    both = DigitalPaper.seating(a, via="paper__") & DigitalPaper.seating(b, via="paper__")
    deals = (
        Deal.objects.filter(both, repealed=False)
        .select_related("paper")
        .order_by("paper_id", "number")
    )
    pairs: dict[int, PairDeals] = {}
    papers: dict[int, set[int]] = {}
    for deal in deals:
        paper = deal.paper
        pair = pairs.setdefault(paper.league_id, PairDeals())
        papers.setdefault(paper.league_id, set()).add(paper.pk)
        hand = paper_rules.Hand.from_json(deal.entered)
        if hand.refa:
            continue
        seats = (paper.player_1_id, paper.player_2_id, paper.player_3_id)
        declarer = seats[hand.declarer - 1]
        if declarer not in (a.pk, b.pk):
            continue
        side, other = (pair.first, b.pk) if declarer == a.pk else (pair.second, a.pk)
        side.declared += 1
        side.made += not hand.failed
        for follower in hand.followers:
            if seats[follower.seat - 1] == other and follower.followed:
                side.followed += 1
                side.supe += hand.value * follower.tricks
                side.falls += follower.failed
    for league_id, pair in pairs.items():
        pair.papers = len(papers[league_id])
    return pairs
