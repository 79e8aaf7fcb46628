"""An invitation from the command line: a single-use link for a person to join as a player.

python manage.py invite PLAYER [--base-url https://club.example.org]

PLAYER is the player's slug or name. The link is printed once, last; it is good for 7 days.
"""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from ratings.accounts import services
from ratings.models import Player


class Command(BaseCommand):
    help = "Invite a person to a player: prints a single-use link, good for 7 days."

    def add_arguments(self, parser):
        parser.add_argument("player", help="The player's slug or name.")
        parser.add_argument(
            "--base-url",
            default=None,
            help="The club's address, e.g. https://club.example.org (default: SITE_URL).",
        )

    def handle(self, *args, player, base_url, **options):
        base = (base_url or settings.SITE_URL).rstrip("/")
        if not base.startswith(("https://", "http://")):
            raise CommandError(
                "Set SITE_URL or pass --base-url with the club's address, "
                "e.g. --base-url https://club.example.org"
            )
        found = Player.objects.filter(slug=player).first() or Player.objects.named(player)
        if found is None:
            raise CommandError(f"No player {player!r}: nobody was invited.")
        try:
            invitation, token = services.invitation_create(player=found)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        expires = invitation.expires_at.isoformat(timespec="minutes")
        self.stdout.write(f"Invitation to {found.name}, good until {expires}:")
        self.stdout.write(base + reverse("ratings:invitation", args=[token]))
