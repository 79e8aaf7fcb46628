"""Load a backup_club file into an empty database, all or nothing (see ratings.backup.restore)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from ratings import engine
from ratings.backup import restore as backup_restore
from ratings.backup.checks import RestoreRefused
from ratings.backup.files import MiB


class Command(BaseCommand):
    help = (
        "Restore a club exported by backup_club into an empty, migrated database. Every object "
        "and every rating is checked first; any problem restores nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="a file written by backup_club")
        parser.add_argument(
            "--max-size",
            type=int,
            default=backup_restore.DEFAULT_MAX_BYTES // MiB,
            metavar="MIB",
            help="refuse a file that expands to more than this many MiB (default %(default)s)",
        )
        parser.add_argument(
            "--unsigned",
            action="store_true",
            help=(
                "restore a file without a valid signature: a backup written before backups were "
                "signed, or one signed with a key this server does not have. Only for a file you "
                "trust: any checksum it has and its content are still checked, but a change that "
                "keeps to the rules is not detected"
            ),
        )

    def handle(self, *args, file: str, max_size: int, unsigned: bool, **options):
        try:
            with engine.collection_paused():
                summary = backup_restore.club_restore(
                    path=Path(file), max_bytes=max_size * MiB, unsigned=unsigned
                )
        except RestoreRefused as refusal:
            raise CommandError(f"{refusal}: nothing was restored.") from None
        self.stdout.write(
            self.style.SUCCESS(
                f"Restored {summary.leagues} leagues, {summary.players} players and "
                f"{summary.games} games from {file}; every rating equals a replay of the games."
            )
        )
        if summary.superusers:
            self.stdout.write(f"Superusers (full rights): {', '.join(summary.superusers)}")
