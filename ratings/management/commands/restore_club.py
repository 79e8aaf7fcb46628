"""Load a backup_club file into an empty database, all or nothing."""

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from ratings.models import Game, League, Player


class Command(BaseCommand):
    help = "Restore a club exported by backup_club into an empty, migrated database."

    def add_arguments(self, parser):
        parser.add_argument("file", help="a file written by backup_club")

    def handle(self, *args, file: str, **options):
        if League.objects.exists() or Player.objects.exists() or get_user_model().objects.exists():
            raise CommandError(
                "This database is not empty: restore_club only loads into a new database "
                "(run migrate on an empty one first)."
            )
        with transaction.atomic():
            call_command("loaddata", file, verbosity=0)
        self.stdout.write(
            self.style.SUCCESS(
                f"Restored {League.objects.count()} leagues, {Player.objects.count()} players "
                f"and {Game.objects.count()} games from {file}"
            )
        )
