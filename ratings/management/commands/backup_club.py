"""Write the whole club to one file: users, players, leagues, games, results, standings, audit."""

from django.core import serializers
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from ratings import backup_json

BACKED_UP = ["auth.group", "auth.user", "ratings"]


class Command(BaseCommand):
    help = "Export the whole club to a JSON file (.json or .json.gz) that restore_club reads."

    def add_arguments(self, parser):
        parser.add_argument("file", help="where to write, e.g. club-2026-11-21.json.gz")

    def handle(self, *args, file: str, **options):
        if not (file.endswith(".json") or file.endswith(".json.gz")):
            raise CommandError("The backup file name must end in .json or .json.gz.")
        # Django's JSON with exact timestamps (see ratings.backup_json); loaddata reads it as JSON.
        serializers.register_serializer(backup_json.FORMAT, "ratings.backup_json")
        # One snapshot of the whole club, though members may be entering games meanwhile: else a
        # game recorded between reading the games and reading the results would be half in it.
        # (SQLite's IMMEDIATE transactions make writers wait for the backup instead.)
        outermost = not connection.in_atomic_block
        with transaction.atomic():
            if outermost and connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            call_command(
                "dumpdata",
                *BACKED_UP,
                format=backup_json.FORMAT,
                natural_foreign=True,
                indent=None,
                output=file,
                verbosity=0,
            )
        self.stdout.write(self.style.SUCCESS(f"Club written to {file}"))
