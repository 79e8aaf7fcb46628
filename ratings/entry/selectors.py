"""Reads of the games waiting for the table's confirmation, for the pages and the API."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from ratings.entry.models import HeldGame, HeldSeat, HeldStatus
from ratings.models import League, Player


def held_games() -> QuerySet[HeldGame]:
    """Held games with what their pages show: the league, who entered, the seats' players."""
    seats = HeldSeat.objects.select_related("player").order_by("seat")
    return HeldGame.objects.select_related(
        "league", "entered_by__player", "table"
    ).prefetch_related(Prefetch("seats", seats))


def waiting_in_league(league: League) -> list[HeldGame]:
    """The league's games that wait for the table (pending or disputed), newest first."""
    return list(held_games().waiting().filter(league=league).order_by("-played_at", "-pk"))


def waiting_with(player: Player) -> list[HeldGame]:
    """The waiting games ``player`` sat at, newest first."""
    return list(held_games().waiting().seating(player).order_by("-played_at", "-pk"))


def waiting_for(user) -> list[HeldGame]:
    """The pending games this member is asked to confirm: their player sat there, has not
    agreed yet, and did not enter it."""
    player = getattr(user, "player", None) if user.is_authenticated else None
    if player is None:
        return []
    return list(
        held_games()
        .filter(
            status=HeldStatus.PENDING,
            seats__player=player,
            seats__agreed_at__isnull=True,
        )
        .exclude(entered_by=user)
        .order_by("played_at", "pk")
    )


def disputed_count() -> int:
    """How many games wait for the staff's decision."""
    return HeldGame.objects.filter(status=HeldStatus.DISPUTED).count()


def waiting_at_tables(tables) -> list[HeldGame]:
    """The papers of these event tables that wait for the table's confirmation."""
    return list(held_games().waiting().filter(table__in=tables).order_by("table_id"))
