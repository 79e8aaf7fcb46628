"""Import a rayter file into a scored league: a thin wrapper over ratings.rayter.files."""

import sys
from functools import partial
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from ratings import engine
from ratings.rayter import files as rayter_files

NAMES_SHOWN = 50


class Command(BaseCommand):
    help = (
        "Import a rayter file into a scored league, creating the league when the slug is new. "
        "All or nothing: a file with any problem is refused with every problem and its line."
    )
    # Django's system checks look at URLs, templates and the admin, none of which an import
    # uses, at every run (`manage.py check` still runs them).
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FILE", help="the rayter file ('-' reads stdin)")
        parser.add_argument("--league", required=True, metavar="SLUG", help="the league's slug")
        parser.add_argument(
            "--replace", action="store_true", help="delete the league's games first"
        )
        parser.add_argument(
            "--name",
            help="the new league's name (default: the file's game_name, else the slug)",
        )
        parser.add_argument("--no-progress", action="store_true", help="no progress bars on stderr")

    def handle(self, *args, file: str, league: str, replace: bool, name, no_progress, **options):
        try:
            data = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror or error}") from error
        # tqdm hides itself when stderr is not a terminal (disable=None) and for quick phases.
        # Without progress no bar is made at all: even a disabled one starts tqdm's monitor
        # thread and a multiprocessing lock.
        progress = (
            rayter_files.NoProgress
            if no_progress
            else partial(tqdm, file=sys.stderr, disable=None, leave=False, delay=0.5)
        )
        try:
            with engine.collection_paused():
                done = rayter_files.import_rayter(
                    data=data, league_slug=league, replace=replace, name=name, progress=progress
                )
        except rayter_files.RayterImportError as error:
            count = len(error.problems)
            raise CommandError(
                f"{file} was not imported; nothing was written. "
                f"{count} problem{'s' if count != 1 else ''}:\n{error}"
            ) from error
        self.report(done, file)

    def report(self, done: rayter_files.RayterImport, file: str) -> None:
        league, summary = done.league, done.summary
        created = " (new league)" if done.league_created else ""
        write = self.stdout.write
        write(f"{file} -> {league.name} ({league.slug}){created}, {league.get_system_display()}")
        for notice in done.notices:
            write(self.style.WARNING(f"Note: {notice}"))
        if summary.replaced:
            write(
                f"Deleted first (--replace): {summary.replaced} games, each restorable from the"
                " audit trail (Admin > Audit trail > Restore deleted game)"
            )
        write(f"Games imported: {summary.games} of {done.file_games}")
        write(f"Games skipped: {len(done.skipped)}")
        for game in done.skipped:
            write(f"  line {game.line}: already in the league")
        write(f"Players: {summary.players}")
        new = summary.new_players
        shown = ", ".join(new[:NAMES_SHOWN]) + (
            f", and {len(new) - NAMES_SHOWN} more" if len(new) > NAMES_SHOWN else ""
        )
        write(f"New players: {len(new)}" + (f" ({shown})" if new else ""))
        for name, matches in done.close_names.items():
            write(
                self.style.WARNING(
                    f"Note: {name!r} is a new player, but the club has {', '.join(matches)}:"
                    " a typo in the file?"
                )
            )
