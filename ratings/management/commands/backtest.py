"""Print how well each fitting rating system predicted a league's own games."""

import json

from django.core.management.base import BaseCommand, CommandError

from ratings import backtest
from ratings.models import League


class Command(BaseCommand):
    help = (
        "Replay a league's games in time order under every rating system that fits it and "
        "print, per system, how well the ratings before each game predicted it: pairwise "
        "accuracy, log loss and Brier score (docs/backtest.md)."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", metavar="LEAGUE", help="the league's slug")
        parser.add_argument(
            "--json",
            action="store_true",
            dest="as_json",
            help="everything, calibration included, as JSON",
        )

    def handle(self, *args, slug: str, as_json: bool, **options):
        league = League.objects.filter(slug=slug).first()
        if league is None:
            raise CommandError(f"Unknown league: {slug}")
        result = backtest.league_backtest(league)
        if as_json:
            self.stdout.write(json.dumps(backtest.as_json(result), indent=2))
        else:
            self.stdout.write(backtest.as_text(result), ending="")
