"""Write a league's whole history of games as CSV or JSON: the download pages' format."""

from django.core.management.base import BaseCommand, CommandError

from ratings import exports
from ratings.models import League


class Command(BaseCommand):
    help = (
        "Write every game of a league in rating order, with each seat's paper, score and "
        "ratings before and after, as CSV or JSON (to stdout, or to FILE with -o)."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", metavar="SLUG", help="the league's slug")
        parser.add_argument(
            "--format",
            dest="fmt",
            choices=exports.FORMATS,
            default="csv",
            help="csv (default) or json",
        )
        parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE, not stdout")

    def handle(self, *args, slug: str, fmt: str, output: str | None, **options):
        league = League.objects.filter(slug=slug).first()
        if league is None:
            raise CommandError(f"Unknown league: {slug}")
        pieces = exports.stream(league, fmt)
        if output is None:
            for piece in pieces:
                self.stdout.write(piece, ending="")
            return
        try:
            # newline="" writes the CSV's CRLF row ends and the JSON's LF as they are.
            with open(output, "w", encoding="utf-8", newline="") as file:
                for piece in pieces:
                    file.write(piece)
        except OSError as error:
            raise CommandError(f"Cannot write {output}: {error.strerror or error}") from error
        self.stderr.write(f"Wrote the games of {league.name} to {output}")
