"""Keep the paper of each deal log in a JSON file, as prefko's paper library keeps it.

The format (``docs/digital-paper.md``): a JSON list of deal logs in, a JSON list of results out,
one per log, in order: ``{"seats": [...]}`` with each seat's columns, every entry and its final
score, or ``{"error": "..."}`` naming the hand of a log the rules refuse.
"""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from ratings.algorithms.paper import paper_results


class Command(BaseCommand):
    help = (
        "Read a JSON list of deal logs ({bula, refas, hands}) from FILE ('-' for standard input) "
        "and print a JSON list with each log's paper: every seat's left, middle and right "
        "columns entry by entry and its final score, or an error naming the hand."
    )
    requires_system_checks: list[str] = []

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FILE", help="a JSON file of deal logs, - for stdin")
        parser.add_argument(
            "--indent", type=int, default=None, help="indent the JSON printed (default: one line)"
        )

    def handle(self, *args, file: str, indent: int | None, **options):
        try:
            if file == "-":
                text = sys.stdin.read()
            else:
                with open(file, encoding="utf-8") as stream:
                    text = stream.read()
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror}") from None
        try:
            logs = json.loads(text)
        except ValueError as error:
            raise CommandError(f"{file}: not JSON ({error})") from None
        if not isinstance(logs, list):
            raise CommandError(f"{file}: expected a JSON list of deal logs")
        self.stdout.write(json.dumps(paper_results(logs), indent=indent))
