"""Write the whole club to one file: users, players, leagues, games, results, standings, audit."""

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

BACKED_UP = ["auth.group", "auth.user", "ratings"]


class Command(BaseCommand):
    help = "Export the whole club to a JSON file (.json or .json.gz) that restore_club reads."

    def add_arguments(self, parser):
        parser.add_argument("file", help="where to write, e.g. club-2026-11-21.json.gz")

    def handle(self, *args, file: str, **options):
        if not (file.endswith(".json") or file.endswith(".json.gz")):
            raise CommandError("The backup file name must end in .json or .json.gz.")
        call_command(
            "dumpdata",
            *BACKED_UP,
            natural_foreign=True,
            indent=None,
            output=file,
            verbosity=0,
        )
        self.stdout.write(self.style.SUCCESS(f"Club written to {file}"))
