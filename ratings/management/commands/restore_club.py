"""Load a backup_club file into an empty database, all or nothing."""

import zlib
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.core.serializers.base import DeserializationError
from django.db import DatabaseError, transaction

from ratings.models import Game, League, Player


class Command(BaseCommand):
    help = "Restore a club exported by backup_club into an empty, migrated database."

    def add_arguments(self, parser):
        parser.add_argument("file", help="a file written by backup_club")

    def handle(self, *args, file: str, **options):
        if not (file.endswith(".json") or file.endswith(".json.gz")):
            raise CommandError(
                f"{file} is not a backup_club file (.json or .json.gz): nothing was restored."
            )
        if not Path(file).is_file():
            raise CommandError(f"There is no file {file}: nothing was restored.")
        if League.objects.exists() or Player.objects.exists() or get_user_model().objects.exists():
            raise CommandError(
                "This database is not empty: restore_club only loads into a new database "
                "(run migrate on an empty one first)."
            )
        try:
            with transaction.atomic():
                call_command("loaddata", file, verbosity=0)
        except (
            CommandError,
            DeserializationError,
            DatabaseError,
            ValueError,
            EOFError,
            OSError,
            zlib.error,
        ) as error:
            # loaddata names the object it could not load; the transaction left nothing behind.
            raise CommandError(
                f"{file} is damaged or not a club backup, nothing was restored: {error}"
            ) from error
        self.stdout.write(
            self.style.SUCCESS(
                f"Restored {League.objects.count()} leagues, {Player.objects.count()} players "
                f"and {Game.objects.count()} games from {file}"
            )
        )
