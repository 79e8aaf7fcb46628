"""API tokens from the command line, for a bot's deployment script:

python manage.py api_token create USERNAME --name NAME   # the token is the last line
python manage.py api_token list USERNAME
python manage.py api_token revoke TOKEN_ID
"""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from ratings.models import ApiToken


class Command(BaseCommand):
    help = "Create, list or revoke a member's API tokens."

    def add_arguments(self, parser):
        actions = parser.add_subparsers(dest="action", required=True)
        create = actions.add_parser("create", help="Make a token; it is printed once, last.")
        create.add_argument("username")
        create.add_argument("--name", required=True, help="Which device or bot holds it.")
        listing = actions.add_parser("list", help="A member's tokens (never their values).")
        listing.add_argument("username")
        revoke = actions.add_parser("revoke", help="Stop a token from working.")
        revoke.add_argument("token_id", type=int)

    def handle(self, *args, action, **options):
        if action == "create":
            user = self._user(options["username"])
            name = options["name"].strip()
            if not name or len(name) > 80:
                raise CommandError("--name must be 1 to 80 characters.")
            row, token = ApiToken.objects.create_for(user, name)
            self.stdout.write(f"Token {row.pk} “{row.name}” for {user.get_username()}:")
            self.stdout.write(token)
        elif action == "list":
            user = self._user(options["username"])
            for row in ApiToken.objects.filter(user=user):
                state = "revoked" if row.revoked_at else "active"
                used = row.last_used_at.isoformat() if row.last_used_at else "never"
                self.stdout.write(f"{row.pk}\t{row}\t{state}\tlast used {used}")
        else:
            row = ApiToken.objects.filter(pk=options["token_id"]).first()
            if row is None:
                raise CommandError(f"No token {options['token_id']}.")
            row.revoke()
            self.stdout.write(f"Token {row.pk} revoked.")

    def _user(self, username: str):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No user {username!r}.")
        return user
