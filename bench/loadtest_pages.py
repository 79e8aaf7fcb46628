"""The pages ``bench/loadtest.sh`` loads, from the club in ``DATABASE_URL``.

    DATABASE_URL=postgres://... python bench/loadtest_pages.py [--league big] > pages.tsv

Prints one line per page, tab-separated: a label, the path and the status the page must answer
(Django's own 404 page first, the reference of the ratios). The pages are chosen from the data:
the game page of the league's first game, the player with most games in the league, that
player's most frequent opponent, the year with most games, and the league's event with most
tables. A club built before ``bench/run.py`` made a club night gets one first, through the same
``build_event`` (after the league's last game, so no replay): the event pages need one.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import sys
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from synthetic_club import build_event  # noqa: E402


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    import django

    django.setup()


def busiest_event(league):
    from django.db.models import Count

    from ratings.events.models import Event

    return (
        Event.objects.filter(league=league)
        .annotate(tables=Count("rounds__tables", distinct=True))
        .filter(tables__gt=0)
        .order_by("-tables", "-pk")
        .first()
    )


def ensure_event(league):
    """The league's event with most tables, after making one if it has none."""
    from ratings.models import Game, Player

    event = busiest_event(league)
    if event is None:
        last = Game.objects.filter(league=league).chronological().last()
        players = list(Player.objects.order_by("pk").values_list("pk", flat=True))
        print(f"No event with tables in {league.slug}: building a club night…", file=sys.stderr)
        build_event(league, players, random.Random(2027), last.played_at + timedelta(hours=24))
        event = busiest_event(league)
    return event


def pages(slug: str) -> list[tuple[str, str, int]]:
    from django.db.models import Count
    from django.db.models.functions import ExtractYear
    from django.urls import reverse

    from ratings.models import Game, League, Player, Result
    from ratings.selectors import statistics as club_statistics

    league = League.objects.filter(slug=slug).first()
    if league is None:
        sys.exit(f"No league {slug!r} in this database: build the club (bench/run.py) first.")
    event = ensure_event(league)
    first_game = Game.objects.filter(league=league).chronological().first()
    heavy_id, heavy_games = (
        Result.objects.filter(game__league=league)
        .values_list("player_id")
        .annotate(n=Count("id"))
        .order_by("-n", "player_id")
        .first()
    )
    heavy = Player.objects.get(pk=heavy_id)
    rival = club_statistics.player_opponents(heavy)[league.pk][0]
    year, year_games = (
        Game.objects.filter(league=league)
        .annotate(year=ExtractYear("played_at"))
        .values_list("year")
        .annotate(n=Count("id"))
        .order_by("-n", "year")
        .first()
    )
    leaderboard = reverse("ratings:leaderboard", args=[slug])
    return [
        ("404 page (reference)", "/no-such-page/", 404),
        ("leaderboard", leaderboard, 200),
        ("games list", reverse("ratings:league_games", args=[slug]), 200),
        ("game page", reverse("ratings:game", args=[first_game.pk]), 200),
        (
            f"heavy player ({heavy_games:,} games)",
            reverse("ratings:player", args=[heavy.slug]),
            200,
        ),
        (
            f"head to head ({rival.games:,} games)",
            reverse("ratings:head_to_head", args=[heavy.slug, rival.slug]),
            200,
        ),
        (f"season {year} ({year_games:,} games)", f"{leaderboard}?season={year}", 200),
        ("players directory", reverse("ratings:player_list"), 200),
        ("events list", reverse("ratings:event_list", args=[slug]), 200),
        ("event page", reverse("ratings:event", args=[event.pk]), 200),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--league", default="big")
    args = parser.parse_args()
    setup_django()
    for label, path, status in pages(args.league):
        print(f"{label}\t{path}\t{status}")


if __name__ == "__main__":
    main()
