"""Print how well each fitting rating system predicted a league's own games."""

import json

from django.core.management.base import BaseCommand, CommandError

from ratings.backtest import run, stored
from ratings.models import League


class Command(BaseCommand):
    help = (
        "Replay a league's games in time order under every rating system that fits it and "
        "print, per system, how well the ratings before each game predicted it: pairwise "
        "accuracy, log loss and Brier score (docs/backtest.md). The figures are stored for the "
        "league's backtest page, which shows them for a league too big to replay on a page view."
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
        result = run.league_backtest(league)
        stored.backtest_stored(league=league, result=result)
        if as_json:
            self.stdout.write(json.dumps(stored.as_json(result), indent=2))
        else:
            self.stdout.write(as_text(result), ending="")


def as_text(result: run.LeagueBacktest) -> str:
    """The backtest as the command prints it: a line per system, established pairs, then all
    pairs."""

    def figure(value: float | None) -> str:
        return "-" if value is None else f"{value:.3f}"

    lines = [
        f"{result.league.name}: {result.games} games"
        + ("" if result.conclusive else " (too few to tell the systems apart)"),
        f"{'system':<45} {'pairs':>6} {'accuracy':>8} {'log loss':>8} {'Brier':>6}"
        f" | {'all pairs':>9} {'accuracy':>8} {'log loss':>8} {'Brier':>6}",
    ]
    for r in result.results:
        e, a = r.report.established, r.report.all
        name = str(r.label) + (" *" if r.own else "")
        lines.append(
            f"{name:<45} {e.pairs:>6} {figure(e.accuracy):>8} {figure(e.log_loss):>8}"
            f" {figure(e.brier):>6} | {a.pairs:>9} {figure(a.accuracy):>8}"
            f" {figure(a.log_loss):>8} {figure(a.brier):>6}"
        )
    lines.append(
        f"* the league's own system; established pairs: both players with {run.NEW_GAMES} games "
        "or more before the game."
    )
    return "\n".join(lines) + "\n"
