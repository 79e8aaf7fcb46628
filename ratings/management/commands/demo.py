"""A demo club on an empty database: four leagues (the fourth a small OpenSkill one), a few hundred
games, two events of the Preferans league (a finished club night of 3 rounds for 9 players, and
a tournament in its second round), a digital paper finished deal by deal and one in progress, and
two logins to try it: ``demo`` (staff, for the admin) and ``member`` (a plain member, linked to the
player Pedja, so a newcomer sees what a member sees).

Every game goes through the rating engine, recorded in the order it was played (so each one is
the league's newest and takes the engine's fast path), the events' games last, through the
events' service, each re-rating the league from its date on. The random choices come from a seeded
generator, so every run makes the same club; only the dates follow today's date, so the club
always looks recently active.
"""

import random
from datetime import date, datetime, time, timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from ratings import engine
from ratings.algorithms import paper as paper_rules
from ratings.backtest import page, run, stored
from ratings.events import services as event_services
from ratings.events.models import Event, EventRound, Scoring
from ratings.models import League, Player, Speed, System
from ratings.papers import services as paper_services

DEMO_USERNAME = "demo"
MEMBER_USERNAME = "member"
# The member's own player: the demo's plain login is Pedja's.
MEMBER_PLAYER = "Pedja"
DEFAULT_PASSWORD = "demo-club-2026"
SEED = 2026
HISTORY_DAYS = 180

# The seed document's worked example, the first game of the Preferans league: own start ratings,
# then the paper (left, middle, right) of each seat. Its page shows -500/40/460, 1173/1152/1125.
SEED_BULA = 30
SEED_GAME = [
    ("Pedja", 1200, (320, -20, 160)),
    ("Marko", 1150, (120, 4, 60)),
    ("Johnny", 1100, (20, 16, 60)),
]
PREFERANS_PLAYERS = [
    "Pedja", "Marko", "Johnny", "Ana", "Bojan", "Dragan",
    "Jelena", "Milica", "Nikola", "Stefan", "Vesna", "Zoran",
]  # fmt: skip
HEARTS_PLAYERS = ["Ana", "Marko", "Jelena", "Nikola", "Dahlia", "John", "Ahmed", "Lei"]
CHESS_PLAYERS = ["Stefan", "Nikola", "Bojan", "Ivan", "Petar", "Luka", "Sara", "Mia"]
# Juniors (under 18 for the whole history): FIDE gives them K = 40.
JUNIOR_AGES = {"Luka": 14, "Sara": 15, "Mia": 16}
# A guest who sat in for one Preferans game, the evening before the demo was made: the regulars
# have dozens of games each and are ranked, the guest is listed after them as provisional (the
# league keeps the system's threshold of 10 games). Not drawn from the generator, so the rest of
# the club is the same as without the guest.
GUEST = "Đorđe"
GUEST_TABLE = [("Đorđe", (40, 10, 20)), ("Ana", (60, -4, 30)), ("Zoran", (10, -6, 0))]

# The events: a club night a week ago, all 3 rounds played and closed; a tournament that began
# yesterday afternoon, round 1 played and round 2 drawn with half of its papers in.
NIGHT = "Friday club night"
NIGHT_DAYS_AGO = 7
NIGHT_PLAYERS = ["Pedja", "Marko", "Johnny", "Ana", "Bojan", "Dragan", "Jelena", "Milica", "Nikola"]
TOURNAMENT = "Winter cup"
TOURNAMENT_ROUNDS = 4
TOURNAMENT_PAPERS_IN = 2  # of round 2's four tables
EVENT_SEED = 7

# Digital papers (a game entered deal by deal on a phone): one finished yesterday, the league's
# last game, with a deal entered by mistake and repealed; one in progress at another table.
# Not drawn from the generator, so the rest of the club is the same as without them.
FINISHED_PAPER = ("Marko", "Ana", "Zoran")
FINISHED_PAPER_BULA = 10


def _said(declarer, contract, *, failed=False, on_refa=False, kontra=0, igra=False, **defence):
    """A deal as the table says it; ``defence`` maps a follower's seat (``s1``..``s3``) to their
    tricks (who is not named passed)."""
    followers = []
    for seat in (1, 2, 3):
        if seat == declarer:
            continue
        tricks = defence.get(f"s{seat}")
        play = "passed" if tricks is None else "followed"
        followers.append({"seat": seat, "play": play, "tricks": tricks or 0, "failed": False})
    return {
        "declarer": declarer,
        "contract": contract,
        "igra": igra,
        "on_refa": on_refa,
        "kontra": kontra,
        "failed": failed,
        "followers": followers,
    }


REFA = {"refa": True}
# (what was said, repealed), seats 1 Marko, 2 Ana, 3 Zoran, bula 10: the bulas end at -2, 2 and
# 0, adding up to zero (the game is over).
FINISHED_PAPER_DEALS = [
    (REFA, False),
    (_said(1, "karo", on_refa=True, s2=2), False),
    (_said(2, "pik", on_refa=True, s3=1), False),
    (_said(1, "sans", s2=1, s3=1), True),  # entered for the wrong table: repealed
    (_said(3, "herc", on_refa=True, failed=True, s1=3, s2=2), False),
    (_said(3, "tref", kontra=1, s2=1), False),
    (_said(3, "karo", s1=1, s2=1), False),
]
PAPER_IN_PROGRESS = ("Pedja", "Jelena", "Nikola")
PAPER_IN_PROGRESS_DEALS = [
    (REFA, False),
    (_said(1, "herc", on_refa=True, s2=2), False),
    (_said(3, "pik", on_refa=True, kontra=1, s1=1, s2=1), False),
]

PREFERANS_GAMES = 300
HEARTS_GAMES = 150
CHESS_GAMES = 150
# A small OpenSkill league, from its own generator so the rest of the club stays as it was.
YAMB_PLAYERS = ["Ana", "Bojan", "Dahlia", "Ivan", "Lei", "Sara", "Vesna"]
YAMB_GAMES = 60
YAMB_SEED = 32


class Command(BaseCommand):
    help = "Fill an empty database with a demo club: leagues, players, games and a demo login."

    def add_arguments(self, parser):
        parser.add_argument(
            "--password",
            default=DEFAULT_PASSWORD,
            help=f"the demo logins' password (default: {DEFAULT_PASSWORD})",
        )

    def handle(self, *args, password: str, **options):
        if League.objects.exists():
            self.stdout.write(
                "The club already has data (it has leagues): the demo was not created."
            )
            return
        taken = (
            get_user_model()
            .objects.filter(username__in=(DEMO_USERNAME, MEMBER_USERNAME))
            .values_list("username", flat=True)
            .first()
        )
        if taken is not None:
            raise CommandError(f'A user "{taken}" already exists: the demo was not created.')
        with transaction.atomic():
            summary = DemoClub(random.Random(SEED), timezone.localdate()).build(password)
        # A page replays only a small league; the bigger ones show the figures the backtest
        # command stores, so the demo stores them too (else Preferans's page has none).
        for league in League.objects.all():
            if league.games.count() > page.LIVE_GAMES:
                stored.backtest_stored(league=league, result=run.league_backtest(league))
        self.stdout.write(self.style.SUCCESS("Demo club created:"))
        for line in summary:
            self.stdout.write(f"  {line}")
        self.stdout.write(
            f'Demo login: username "{DEMO_USERNAME}", password "{password}".\n'
            "  This account is STAFF and SUPERUSER, so the admin (/admin/) works in the demo.\n"
            "  Change its password or delete it before the club is used for real.\n"
            f'Member login: username "{MEMBER_USERNAME}", password "{password}".\n'
            f"  A plain member (not staff), linked to the player {MEMBER_PLAYER}: "
            '"My page" in the header.'
        )


class DemoClub:
    def __init__(self, rng: random.Random, today: date):
        self.rng = rng
        self.today = today
        self.first_day = today - timedelta(days=HISTORY_DAYS)
        self.players: dict[str, Player] = {}
        # A hidden strength per player, so some players really are better than others.
        self.skill: dict[str, float] = {}

    def build(self, password: str) -> list[str]:
        self.user = get_user_model().objects.create_superuser(
            username=DEMO_USERNAME, email="", password=password
        )
        for name in dict.fromkeys(PREFERANS_PLAYERS + HEARTS_PLAYERS + CHESS_PLAYERS):
            birth_date = None
            if name in JUNIOR_AGES:
                birth_date = date(self.today.year - JUNIOR_AGES[name], 1, 1)
            self.players[name] = Player.objects.create_named(name, birth_date=birth_date)
            self.skill[name] = self.rng.gauss(0, 1)
        member = get_user_model().objects.create_user(
            username=MEMBER_USERNAME, email="", password=password
        )
        self.players[MEMBER_PLAYER].user = member
        self.players[MEMBER_PLAYER].save(update_fields=["user"])
        self.players[GUEST] = Player.objects.create_named(GUEST)
        self.preferans()
        summary = [self.hearts(), self.chess(), f"{len(self.players)} players"]
        later = [self.club_night(), self.tournament(), self.yamb(), self.digital_papers()]
        # Counted once every game is in, as the home page counts them: the Preferans league's
        # games include its club nights', its tournament's and its digital paper's.
        return [self.preferans_line(), *summary, *later]

    # Leagues ------------------------------------------------------------------------------------

    def preferans(self) -> None:
        league = self.preferans_league = League.objects.create(
            name="Preferans",
            slug="preferans",
            system=System.PREFKO,
            start_rating=1000,
            game_name="Preferans",
            # No "lower is better" here: the leaderboard says it (the system's name and order).
            description=gettext_noop("Three players, papers as written at the table."),
        )
        for name, start, _paper in SEED_GAME:
            engine.standing_set_start_rating(
                league=league, player=self.players[name], rating=start, actor=self.user
            )
        self.record(
            league,
            datetime.combine(self.first_day, time(19, 30)),
            [
                engine.Entry(player_id=self.players[name].pk, paper=paper)
                for name, _start, paper in SEED_GAME
            ],
            bula=SEED_BULA,
            note="The worked example of the prefko seed document.",
        )
        for played_at in self.evenings(PREFERANS_GAMES):
            seats = self.rng.sample(PREFERANS_PLAYERS, 3)
            bula, papers = self.preferans_paper(seats)
            entries = [
                engine.Entry(player_id=self.players[name].pk, paper=paper)
                for name, paper in zip(seats, papers, strict=True)
            ]
            self.record(league, played_at, entries, bula=bula)
        # After every evening above (the last of them is yesterday, by 23:00 at the latest).
        self.record(
            league,
            datetime.combine(self.today - timedelta(days=1), time(23, 30)),
            [
                engine.Entry(player_id=self.players[name].pk, paper=paper)
                for name, paper in GUEST_TABLE
            ],
            bula=SEED_BULA,
            note="A guest's only game: provisional on the leaderboard.",
        )

    def preferans_line(self) -> str:
        games = self.preferans_league.games.count()
        papers = PREFERANS_GAMES + 2
        players = len(PREFERANS_PLAYERS) + 1
        return (
            f"Preferans (prefko): {games} games ({papers} entered as papers, {games - papers} "
            f"at club nights, tournaments and on digital papers), {players} players (one a "
            "guest, provisional)"
        )

    def hearts(self) -> str:
        league = League.objects.create(
            name="Hearts",
            slug="hearts",
            system=System.RAYTER_LOWSCORE,
            start_rating=1000,
            game_name="Hearts",
            description=gettext_noop("Three to five players; the lowest score wins."),
        )
        for played_at in self.evenings(HEARTS_GAMES):
            seats = self.rng.sample(HEARTS_PLAYERS, self.rng.randint(3, 5))
            entries = [
                engine.Entry(
                    player_id=self.players[name].pk,
                    score=min(130, max(0, round(self.rng.gauss(60 - 15 * self.skill[name], 30)))),
                )
                for name in seats
            ]
            self.record(league, played_at, entries)
        players = len(HEARTS_PLAYERS)
        return f"Hearts (Rayter, lowest score wins): {HEARTS_GAMES} games, {players} players"

    def chess(self) -> str:
        league = League.objects.create(
            name="Chess",
            slug="chess",
            system=System.FIDE,
            start_rating=1500,
            settings={"speed": Speed.STANDARD},
            game_name="Chess",
            description=gettext_noop("Standard time control, FIDE rules; juniors get K = 40."),
        )
        for played_at in self.evenings(CHESS_GAMES):
            white, black = self.rng.sample(CHESS_PLAYERS, 2)
            gap = 200 * (self.skill[black] - self.skill[white])
            white_wins = 1 / (1 + 10 ** (gap / 400))
            roll = self.rng.random()
            if roll < 0.2:
                scores = (0.5, 0.5)
            elif roll < 0.2 + 0.8 * white_wins:
                scores = (1, 0)
            else:
                scores = (0, 1)
            entries = [
                engine.Entry(player_id=self.players[name].pk, score=score)
                for name, score in zip((white, black), scores, strict=True)
            ]
            self.record(league, played_at, entries)
        juniors = ", ".join(JUNIOR_AGES)
        return (
            f"Chess (FIDE, standard): {CHESS_GAMES} games, {len(CHESS_PLAYERS)} players "
            f"(juniors: {juniors})"
        )

    def yamb(self) -> str:
        """Yamb, a dice game for two or more: the highest score wins, rated by OpenSkill."""
        league = League.objects.create(
            name="Yamb",
            slug="yamb",
            system=System.OPENSKILL_HIGHSCORE,
            start_rating=0,
            game_name="Yamb",
            description="Dice, three to five players; the highest score wins.",
        )
        rng = random.Random(YAMB_SEED)
        for played_at in self.evenings(YAMB_GAMES, rng):
            seats = rng.sample(YAMB_PLAYERS, rng.randint(3, 5))
            entries = [
                engine.Entry(
                    player_id=self.players[name].pk,
                    score=round(rng.gauss(800 + 60 * self.skill[name], 80)),
                )
                for name in seats
            ]
            self.record(league, played_at, entries)
        players = len(YAMB_PLAYERS)
        return f"Yamb (OpenSkill, highest score wins): {YAMB_GAMES} games, {players} players"

    # Events -------------------------------------------------------------------------------------

    def club_night(self) -> str:
        """A finished night: 9 players, 3 rounds drawn so that nobody meets anyone twice, every
        paper in, the sum of the final scores, closed with its winner."""
        starts = datetime.combine(self.today - timedelta(days=NIGHT_DAYS_AGO), time(19, 0))
        event = event_services.event_create(
            league=self.preferans_league,
            name=NIGHT,
            starts_at=timezone.make_aware(starts),
            organiser=self.user,
            players=[self.players[name] for name in NIGHT_PLAYERS],
            rounds_total=3,
            scoring=Scoring.TOTAL,
            seed=EVENT_SEED,
        )
        for number in range(1, 4):
            drawn = event_services.round_draw(event=event, actor=self.user)
            self.play_tables(drawn, starts + timedelta(hours=1.5 * number))
        event_services.event_close(event=event, actor=self.user)
        # Closed when the night ended, as its organiser would have, not when the demo was built.
        ended = timezone.make_aware(starts + timedelta(hours=1.5 * 3 + 1))
        EventRound.objects.filter(event=event).update(closed_at=ended)
        Event.objects.filter(pk=event.pk).update(closed_at=ended)
        return f"{NIGHT}: 9 players, 3 rounds (9 Preferans games), finished"

    def tournament(self) -> str:
        """A tournament in progress: 12 players, preferans.org's points, round 1 played and
        round 2 drawn with two of its four papers in."""
        starts = datetime.combine(self.today - timedelta(days=1), time(13, 0))
        event = event_services.event_create(
            league=self.preferans_league,
            name=TOURNAMENT,
            starts_at=timezone.make_aware(starts),
            organiser=self.user,
            players=[self.players[name] for name in PREFERANS_PLAYERS],
            rounds_total=TOURNAMENT_ROUNDS,
            scoring=Scoring.PREFERANS_ORG,
            seed=EVENT_SEED,
        )
        first = event_services.round_draw(event=event, actor=self.user)
        self.play_tables(first, starts + timedelta(hours=1))
        second = event_services.round_draw(event=event, actor=self.user)
        self.play_tables(second, starts + timedelta(hours=3), limit=TOURNAMENT_PAPERS_IN)
        return (
            f"{TOURNAMENT}: 12 players, round 2 of {TOURNAMENT_ROUNDS} in progress "
            f"({4 + TOURNAMENT_PAPERS_IN} Preferans games, {TOURNAMENT_PAPERS_IN} of 4 papers in)"
        )

    def digital_papers(self) -> str:
        """A paper finished yesterday (rated as the league's last game) and one in progress."""
        finished = self.paper(FINISHED_PAPER, FINISHED_PAPER_BULA, FINISHED_PAPER_DEALS)
        game = paper_services.paper_finish(
            paper=finished,
            played_at=timezone.make_aware(
                datetime.combine(self.today - timedelta(days=1), time(23, 50))
            ),
            actor=self.user,
        )
        self.paper(PAPER_IN_PROGRESS, 30, PAPER_IN_PROGRESS_DEALS, refas=2)
        return (
            f"Digital papers: one finished deal by deal (game #{game.pk}), one in progress "
            f"({len(PAPER_IN_PROGRESS_DEALS)} deals)"
        )

    def paper(self, names, bula, deals, *, refas=None):
        paper = paper_services.paper_start(
            league=self.preferans_league,
            players=[self.players[name] for name in names],
            bula=bula,
            refas=refas,
            actor=self.user,
        )
        for after, (said, repealed) in enumerate(deals):
            hand = paper_rules.Hand.from_entry(said)
            paper_services.deal_add(paper=paper, hand=hand, after=after, actor=self.user)
            if repealed:
                paper_services.deal_repeal(paper=paper, number=after + 1, actor=self.user)
        return paper

    def play_tables(self, drawn, finished: datetime, *, limit: int | None = None) -> None:
        """Each table's paper, as its players would write it, through the events' service."""
        names = {player.pk: name for name, player in self.players.items()}
        for table in list(drawn.tables.order_by("number"))[:limit]:
            seats = [
                names[pid]
                for pid in table.seats.order_by("seat").values_list("player_id", flat=True)
            ]
            bula, papers = self.preferans_paper(seats)
            event_services.table_record_game(
                table=table,
                played_at=timezone.make_aware(finished + timedelta(minutes=5 * table.number)),
                entries=[
                    engine.Entry(player_id=self.players[name].pk, paper=paper)
                    for name, paper in zip(seats, papers, strict=True)
                ],
                bula=bula,
                entered_by=self.user,
            )

    # Building blocks ----------------------------------------------------------------------------

    def record(self, league, played_at, entries, *, bula=None, note="") -> None:
        engine.game_record(
            league=league,
            played_at=timezone.make_aware(played_at),
            entries=entries,
            bula=bula,
            note=note,
            entered_by=self.user,
        )

    def evenings(self, count: int, rng: random.Random | None = None) -> list[datetime]:
        """``count`` club evenings after the first day and before today, in the order played."""
        rng = rng or self.rng
        moments = []
        for _ in range(count):
            day = self.first_day + timedelta(days=rng.randint(1, HISTORY_DAYS - 1))
            minutes = rng.randrange(18 * 60, 23 * 60, 15)
            moments.append(datetime.combine(day, time(minutes // 60, minutes % 60)))
        return sorted(moments)

    def preferans_paper(self, seats: list[str]) -> tuple[int, list[tuple[int, int, int]]]:
        """A finished game's paper: bulas summing to zero, side columns as written at a table."""
        rng = self.rng
        bula = rng.choice((30, 30, 50, 60))
        while True:
            middles = [rng.randint(-bula, bula) for _ in range(2)]
            middles.append(-sum(middles))
            if abs(middles[2]) <= bula:
                break
        # The stronger the player (with luck), the lower their final bula.
        form = sorted(seats, key=lambda name: self.skill[name] + rng.gauss(0, 1.5), reverse=True)
        middle_of = dict(zip(form, sorted(middles), strict=True))
        papers = []
        for name in seats:
            # Whoever finished low played (and won) many hands, so wrote more on their sides.
            activity = 1.5 if middle_of[name] < 0 else 1.0
            papers.append((self.side(activity), middle_of[name], self.side(activity)))
        return bula, papers

    def side(self, activity: float) -> int:
        """Points written against a neighbour: tens, now and then a two-point soup."""
        if self.rng.random() < 0.15:
            return 2 * self.rng.randint(0, 10)
        return 10 * min(60, int(self.rng.expovariate(1 / (6 * activity))))
