"""Merge a player into another: every result of the first becomes the second's, in every league."""

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from ratings import engine
from ratings.models import Player


class Command(BaseCommand):
    help = (
        "Merge player SOURCE_SLUG into TARGET_SLUG (a typo's player into the real one): their "
        "results move, every affected league is re-rated, and the old address redirects."
    )

    def add_arguments(self, parser):
        parser.add_argument("source", metavar="SOURCE_SLUG", help="the player who goes away")
        parser.add_argument("target", metavar="TARGET_SLUG", help="the player who stays")

    def handle(self, *args, source: str, target: str, **options):
        players = {p.slug: p for p in Player.objects.filter(slug__in=[source, target])}
        for slug in (source, target):
            if slug not in players:
                raise CommandError(f"There is no player {slug!r}: nothing was merged.")
        try:
            leagues = engine.player_merge(source=players[source], target=players[target])
        except ValidationError as error:
            raise CommandError(" ".join(error.messages) + " Nothing was merged.") from error
        names = ", ".join(league.name for league in leagues) or "no league"
        self.stdout.write(
            self.style.SUCCESS(
                f"Merged {players[source].name} into {players[target].name}; re-rated: {names}."
            )
        )
