"""Write a scored league's games as a rayter file."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from ratings.models import League
from ratings.rayter import standings as rayter_standings


class Command(BaseCommand):
    help = (
        "Write a scored league's games as a rayter file (to stdout, or to FILE with -o); "
        "importing it into an empty league gives the same standings."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", metavar="SLUG", help="the league's slug")
        parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE, not stdout")

    def handle(self, *args, slug: str, output: str | None, **options):
        league = League.objects.filter(slug=slug).first()
        if league is None:
            raise CommandError(f"Unknown league: {slug}")
        try:
            text = rayter_standings.export_rayter(league)
        except rayter_standings.RayterExportError as error:
            raise CommandError(
                f"{league.name} cannot be written as a rayter file:\n{error}"
            ) from error
        if output is None:
            self.stdout.write(text, ending="")
            return
        try:
            # newline="" keeps the file's LF line ends on every platform.
            Path(output).write_text(text, encoding="utf-8", newline="")
        except OSError as error:
            raise CommandError(f"Cannot write {output}: {error.strerror or error}") from error
        games = text.count("\ngame ")
        self.stderr.write(f"Wrote {games} games of {league.name} to {output}")
