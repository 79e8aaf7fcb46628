"""Phones tapping at once on one paper (PostgreSQL, a live server, real parallel clients).

Every phone at the table saw the same number of deals and sends the same deal: one is recorded,
the others are told that another phone was first. Then all of them press "Save game" at once:
one game is rated.
"""

import threading
import uuid

import pytest
from django.db import connection
from django.urls import reverse

from ratings import engine
from ratings.algorithms.paper import Hand
from ratings.models import Game, Player, System
from ratings.papers import services
from ratings.papers.models import Deal, DigitalPaper
from tests.builders import Browser, make_league
from tests.papers.deals import SHORT_GAME, enter
from tests.replays import assert_unchanged_by_recompute

PHONES = 6


def in_parallel(work, count: int) -> list:
    results: list = [None] * count
    errors: list[BaseException] = []
    barrier = threading.Barrier(count)

    def run(n):
        try:
            barrier.wait(timeout=60)
            results[n] = work(n)
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not any(thread.is_alive() for thread in threads), "a phone hung: deadlock?"
    assert not errors, errors
    return results


@pytest.mark.django_db(transaction=True)
def test_phones_tapping_the_same_deal_at_once_record_it_once(live_server, django_user_model):
    if connection.vendor != "postgresql":
        pytest.skip("concurrency is tested on PostgreSQL (set DATABASE_URL)")
    league = make_league(System.PREFKO)
    players = [Player.objects.create_named(name) for name in ("Ana", "Boris", "Ceca")]
    paper = services.paper_start(league=league, players=players, bula=10)
    enter(paper, SHORT_GAME[:3])
    phones = [
        Browser(live_server.url, django_user_model.objects.create_user(f"member{n}"))
        for n in range(PHONES)
    ]
    page = reverse("ratings:paper", args=[paper.pk])
    for phone in phones:
        assert phone.get(page)[0] == 200
    deal = {
        "after": "3",
        "kind": "played",
        "declarer": "3",
        "contract": "pik",
        "on_refa": "on",
        "kontra": "1",
        "play_1": "passed",
        "tricks_1": "0",
        "play_2": "followed",
        "tricks_2": "1",
    }
    url = reverse("ratings:paper_deal", args=[paper.pk])
    answers = in_parallel(lambda n: phones[n].post(url, deal), PHONES)

    assert sorted(status for status, _ in answers) == [200] * (PHONES - 1) + [302]
    told = [html for status, html in answers if status == 200]
    assert all("another phone entered one meanwhile" in html for html in told)
    assert list(Deal.objects.filter(paper=paper).values_list("number", flat=True)) == [1, 2, 3, 4]

    finish = reverse("ratings:paper_finish", args=[paper.pk])
    answers = in_parallel(lambda n: phones[n].post(finish, {"save": "1"}), PHONES)

    assert {status for status, _ in answers} == {302}
    game = Game.objects.get()
    assert DigitalPaper.objects.get().game == game
    assert [r.paper for r in game.results.order_by("seat")] == [
        (0, -2, 0),
        (24, 2, 16),
        (8, -6, 0),
    ]
    assert_unchanged_by_recompute(league)


@pytest.mark.django_db(transaction=True)
def test_one_deal_sent_at_once_from_several_clients_with_its_key_is_recorded_once(
    live_server, django_user_model
):
    """The phone's offline queue and a retry may send one deal, under one key, at the same
    moment from several connections: every copy is answered as recorded, one deal is."""
    if connection.vendor != "postgresql":
        pytest.skip("concurrency is tested on PostgreSQL (set DATABASE_URL)")
    league = make_league(System.PREFKO)
    players = [Player.objects.create_named(name) for name in ("Ana", "Boris", "Ceca")]
    paper = services.paper_start(league=league, players=players, bula=10)
    user = django_user_model.objects.create_user("member")
    phones = [Browser(live_server.url, user) for _ in range(PHONES)]
    page = reverse("ratings:paper", args=[paper.pk])
    for phone in phones:
        assert phone.get(page)[0] == 200
    deal = {"after": "0", "kind": "refa", "submission_key": "0b6f1c8e-3d4a-4f7e-9a55-2f1c7a1e9d10"}
    url = reverse("ratings:paper_deal", args=[paper.pk])
    answers = in_parallel(lambda n: phones[n].post(url, deal), PHONES)

    assert [status for status, _ in answers] == [302] * PHONES
    assert [str(k) for k in Deal.objects.values_list("submission_key", flat=True)] == [
        deal["submission_key"]
    ]


@pytest.mark.django_db(transaction=True)
def test_merging_players_while_their_papers_take_deals_and_finish(django_user_model):
    """Staff merge typos into the real player while phones enter the typos' papers and finish
    them: every write queues on the league, none fails or waits for ever, and each paper goes
    on with the player merged into."""
    if connection.vendor != "postgresql":
        pytest.skip("concurrency is tested on PostgreSQL (set DATABASE_URL)")
    league = make_league(System.PREFKO)
    real, bora, ceca = (Player.objects.create_named(name) for name in ("Pedja", "Bora", "Ceca"))
    typos = [Player.objects.create_named(f"Pedia {n}") for n in range(PHONES - 1)]
    papers = [
        services.paper_start(league=league, players=[bora, typo, ceca], bula=10) for typo in typos
    ]

    def work(n):
        if n == 0:
            for typo in typos:
                engine.player_merge(source=typo, target=real)
            return None
        paper = papers[n - 1]
        enter(paper, SHORT_GAME)
        return services.paper_finish(paper=paper)

    games = in_parallel(work, PHONES)[1:]

    assert not Player.objects.filter(pk__in=[typo.pk for typo in typos]).exists()
    assert set(DigitalPaper.objects.values_list("player_2", flat=True)) == {real.pk}
    for game in games:
        assert [r.player_id for r in game.results.order_by("seat")] == [bora.pk, real.pk, ceca.pk]
    assert_unchanged_by_recompute(league)


@pytest.mark.django_db(transaction=True)
def test_one_deals_key_sent_at_once_to_several_papers_records_it_on_one():
    """Papers of several leagues do not queue on one league's lock, so copies of one key sent
    to them at once pass the key's check together: the first to commit has it, the others are
    told which deal has it."""
    if connection.vendor != "postgresql":
        pytest.skip("concurrency is tested on PostgreSQL (set DATABASE_URL)")
    players = [Player.objects.create_named(name) for name in ("Ana", "Boris", "Ceca")]
    papers = [
        services.paper_start(league=make_league(System.PREFKO), players=players, bula=10)
        for _ in range(PHONES)
    ]
    key = uuid.uuid4()

    def work(n):
        try:
            services.deal_add(paper=papers[n], hand=Hand(refa=True), after=0, key=key)
        except services.DealKeyReused as refused:
            return refused.deal.paper_id
        return "recorded"

    answers = in_parallel(work, PHONES)

    [deal] = Deal.objects.all()
    assert sorted(answers, key=str) == sorted(
        [deal.paper_id] * (PHONES - 1) + ["recorded"], key=str
    )
