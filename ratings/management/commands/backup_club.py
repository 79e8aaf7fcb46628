"""Write the whole club to one file: users, players, leagues, games, results, standings, audit."""

import os

from django.core import serializers
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from ratings.backup import files as backup_json


class Command(BaseCommand):
    help = "Export the whole club to a JSON file (.json or .json.gz) that restore_club reads."

    def add_arguments(self, parser):
        parser.add_argument("file", help="where to write, e.g. club-2026-11-21.json.gz")

    def handle(self, *args, file: str, **options):
        if not (file.endswith(".json") or file.endswith(".json.gz")):
            raise CommandError("The backup file name must end in .json or .json.gz.")
        # Django's JSON with exact timestamps, one object a line (see ratings.backup.files).
        serializers.register_serializer(backup_json.FORMAT, "ratings.backup.files")
        # Written under another name and renamed when complete: a backup that fails halfway
        # leaves no half a file under the name (nor in place of an older backup of that name).
        stem, dot, extension = file.rpartition(".json")
        partial = f"{stem}.partial{dot}{extension}"  # dumpdata gzips by the extension
        # One snapshot of the whole club, though members may be entering games meanwhile: else a
        # game recorded between reading the games and reading the results would be half in it.
        # (SQLite's IMMEDIATE transactions make writers wait for the backup instead.)
        outermost = not connection.in_atomic_block
        try:
            with transaction.atomic():
                if outermost and connection.vendor == "postgresql":
                    with connection.cursor() as cursor:
                        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                call_command(
                    "dumpdata",
                    *backup_json.BACKED_UP,
                    exclude=list(backup_json.NOT_BACKED_UP),
                    format=backup_json.FORMAT,
                    natural_foreign=True,
                    indent=None,
                    output=partial,
                    verbosity=0,
                )
            os.replace(partial, file)
        except BaseException:
            if os.path.exists(partial):
                os.remove(partial)
            raise
        self.stdout.write(self.style.SUCCESS(f"Club written to {file}"))
