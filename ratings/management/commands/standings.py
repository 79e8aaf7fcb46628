"""Print a league's standings, best first: as text (the rayter command's table), or as the
leaderboard's CSV or JSON export (every player, the inactive ones included)."""

from django.core.management.base import BaseCommand, CommandError

from ratings import exports
from ratings.models import League
from ratings.rayter import standings as rayter_standings
from ratings.selectors import league_standings_rows


class Command(BaseCommand):
    help = (
        "Print a league's standings best first: name, games, rating and change (each player's "
        "change in the league's last game, 0 for those who did not play it), and in a league "
        "with thresholds, who is provisional or inactive (listed after the ranked players)."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", metavar="SLUG", help="the league's slug")
        parser.add_argument(
            "--format",
            choices=("text", "json", "csv"),
            default="text",
            help="text: rayter's table, ratings rounded as rayter rounds; json and csv: the "
            "leaderboard's export, every player included",
        )

    def handle(self, *args, slug: str, format: str, **options):
        league = League.objects.filter(slug=slug).first()
        if league is None:
            raise CommandError(f"Unknown league: {slug}")
        if format == "json":
            text = exports.standings_json(
                league, exports.standings_rows(league, show_inactive=True)
            )
            text += "\n"
        elif format == "csv":
            text = exports.standings_csv(exports.standings_rows(league, show_inactive=True))
        else:
            # A league with provisional or inactivity thresholds says who is which; one without
            # prints exactly rayter's columns.
            title = league.game_name or league.name
            text = rayter_standings.standings_text(
                title,
                league.games.count(),
                league_standings_rows(league),
                status=league.has_thresholds,
            )
        self.stdout.write(text, ending="")
