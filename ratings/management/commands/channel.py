"""A league's chat channels from the command line (docs/club-voice.md):

python manage.py channel add LEAGUE URL [--posts games,nights,digest] [--name NAME]
python manage.py channel list [LEAGUE]     # URLs masked
python manage.py channel test ID           # a test post, sent now
python manage.py channel resume ID         # unpause; its waiting posts are queued
python manage.py channel remove ID
"""

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from ratings.models import League
from ratings.voice import services
from ratings.voice.models import ALL_KINDS, Channel, PostState


class Command(BaseCommand):
    help = "Add, list, test, resume or remove a league's chat channels (Apprise URLs)."

    def add_arguments(self, parser):
        actions = parser.add_subparsers(dest="action", required=True)
        add = actions.add_parser("add", help="Add a channel to a league.")
        add.add_argument("league", help="The league's slug.")
        add.add_argument("url", help="An Apprise URL, e.g. tgram://BOT_TOKEN/CHAT_ID.")
        add.add_argument(
            "--posts",
            default=",".join(ALL_KINDS),
            help=f"What it posts, comma-separated, of {','.join(ALL_KINDS)} (default: all).",
        )
        add.add_argument("--name", default="", help="A name to know it by.")
        listing = actions.add_parser("list", help="The channels, their URLs masked.")
        listing.add_argument("league", nargs="?", help="Only this league's (its slug).")
        for name, text in (
            ("test", "Send a test post now."),
            ("resume", "Unpause a channel; its waiting posts are queued."),
            ("remove", "Delete a channel and its posts."),
        ):
            actions.add_parser(name, help=text).add_argument("channel_id", type=int)

    def handle(self, *args, action, **options):
        if action == "add":
            league = self._league(options["league"])
            try:
                channel = services.channel_add(
                    league=league,
                    url=options["url"],
                    posts=options["posts"].split(","),
                    name=options["name"],
                )
            except ValidationError as error:
                raise CommandError(" ".join(error.messages)) from None
            self.stdout.write(f"Channel {channel.pk} {channel.masked_url} posts {channel.posts}.")
            return
        if action == "list":
            channels = Channel.objects.select_related("league").order_by("league__slug", "pk")
            if options["league"]:
                channels = channels.filter(league=self._league(options["league"]))
            for channel in channels:
                state = "paused" if channel.paused else "active"
                sent = channel.last_sent_at.isoformat() if channel.last_sent_at else "never"
                self.stdout.write(
                    f"{channel.pk}\t{channel.league.slug}\t{channel.masked_url}\t{channel.posts}"
                    f"\t{state}\tfailures {channel.failures}\tlast sent {sent}"
                )
            return
        channel = Channel.objects.select_related("league").filter(pk=options["channel_id"]).first()
        if channel is None:
            raise CommandError(f"No channel {options['channel_id']}.")
        if action == "test":
            post = services.channel_test(channel=channel)
            if post.status != PostState.SENT:
                raise CommandError(f"Channel {channel.pk} failed: {post.last_error}")
            self.stdout.write(f"Channel {channel.pk}: test post sent.")
        elif action == "resume":
            queued = services.channel_resume(channel=channel)
            self.stdout.write(f"Channel {channel.pk} resumed; {queued} waiting posts queued.")
        else:
            services.channel_remove(channel=channel)
            self.stdout.write(f"Channel {options['channel_id']} removed.")

    def _league(self, slug: str) -> League:
        league = League.objects.filter(slug=slug).first()
        if league is None:
            raise CommandError(f"No league {slug!r}.")
        return league
