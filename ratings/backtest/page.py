"""What a league's backtest page shows: a small league replayed while the page is drawn, a big
one's stored figures (:class:`~ratings.models.StoredBacktest`) with how many games came since,
and whether staff may compute it from the page while the request waits.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import OuterRef

from ratings.backtest.run import league_backtest
from ratings.backtest.stored import as_json
from ratings.models import Game, League
from ratings.selectors.sql import count_subquery
from ratings.systems import PAIRWISE_ELO, SYSTEMS

# A league of at most this many games is replayed when its page is drawn (a few hundred
# milliseconds at most); a bigger one's page shows its stored backtest (StoredBacktest).
LIVE_GAMES = 300
# A bigger league's backtest is computed by staff from its page while the request waits, up to
# this many games (a few seconds); beyond it, by the backtest command (the worker will take it).
REQUEST_GAMES = 5_000


def label_of(code: str) -> str:
    """A tried system's name, in the reader's language, from its code in the stored figures."""
    return PAIRWISE_ELO.label if code == PAIRWISE_ELO.code else SYSTEMS[code].label


@dataclass(frozen=True)
class ShownBacktest:
    """What the page shows: the figures, live or stored, and how old they are."""

    figures: dict | None  # as_json's; None: a big league never backtested
    computed_at: object  # a datetime for stored figures, None for figures replayed now
    games_now: int

    @property
    def games_since(self) -> int:
        # Games deleted since can make it negative: then nothing new is missing.
        return max(0, self.games_now - (self.figures or {}).get("games", 0))

    @property
    def systems(self) -> list[dict]:
        if self.figures is None:
            return []
        return [{**system, "label": label_of(system["code"])} for system in self.figures["systems"]]


def league_for_page(slug: str) -> League | None:
    """The league with its game count and stored backtest (one query)."""
    games = Game.objects.filter(league=OuterRef("pk"))
    return (
        League.objects.select_related("stored_backtest")
        .annotate(game_count=count_subquery(games, "league"))
        .filter(slug=slug)
        .first()
    )


def shown_backtest(league: League) -> ShownBacktest:
    """The page's backtest of a league from :func:`league_for_page`: replayed now if the
    league is small (one or two queries more), else its stored figures (no query): a page view
    never replays a big league."""
    if league.game_count <= LIVE_GAMES:
        return ShownBacktest(
            figures=as_json(league_backtest(league)), computed_at=None, games_now=league.game_count
        )
    stored = getattr(league, "stored_backtest", None)
    if stored is None:
        return ShownBacktest(figures=None, computed_at=None, games_now=league.game_count)
    return ShownBacktest(
        figures=stored.figures, computed_at=stored.computed_at, games_now=league.game_count
    )


def runs_in_request(league: League) -> bool:
    """Whether staff may compute ``league``'s backtest from its page (:func:`league_for_page`'s
    league): one small enough to replay while the request waits."""
    return league.game_count <= REQUEST_GAMES
