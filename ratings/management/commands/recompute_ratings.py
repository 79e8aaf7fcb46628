"""Replay leagues from scratch: after a rating-code fix, or to check that nothing drifted."""

from django.core.management.base import BaseCommand, CommandError

from ratings import engine
from ratings.models import League


class Command(BaseCommand):
    help = "Re-rate the given leagues (all of them when none is named) from their first game."

    def add_arguments(self, parser):
        parser.add_argument("slugs", nargs="*", metavar="LEAGUE_SLUG", help="leagues to replay")

    def handle(self, *args, slugs: list[str], **options):
        if slugs:
            found = {league.slug: league for league in League.objects.filter(slug__in=slugs)}
            unknown = [slug for slug in slugs if slug not in found]
            if unknown:
                # Checked before any replay, so a typo changes nothing.
                raise CommandError(f"Unknown league: {', '.join(unknown)}")
            leagues = [found[slug] for slug in dict.fromkeys(slugs)]
        else:
            leagues = list(League.objects.order_by("name"))
            if not leagues:
                self.stdout.write("There are no leagues.")
        for league in leagues:
            with engine.collection_paused():
                count = engine.league_recompute(league=league)
            noun = "game" if count == 1 else "games"
            self.stdout.write(f"{league.name} ({league.slug}): {count} {noun} rated")
