"""No stampede (ratings.page_cache.drawn_once): on a miss one request draws a page while the
others asking for it wait for its result, with the local-memory cache of one process and with
Redis, which the workers of a deployment share; under a burst of writes a page is drawn one
version after another, never once per request."""

from __future__ import annotations

import socket
import threading
import time
import uuid

import pytest
from django.core.cache import cache
from django.http import HttpResponse
from django.test import override_settings

from ratings import page_cache
from ratings.versioning import Version

REDIS = ("127.0.0.1", 6379)


def redis_reachable() -> bool:
    try:
        with socket.create_connection(REDIS, timeout=0.5):
            return True
    except OSError:
        return False


@pytest.fixture(params=["locmem", "redis"])
def shared_cache(request):
    """The page cache, as one process's memory or as Redis (skipped if none answers)."""
    if request.param == "locmem":
        backend = {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"stampede-{uuid.uuid4()}",
        }
    else:
        if not redis_reachable():
            pytest.skip("no Redis at 127.0.0.1:6379")
        backend = {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:6379/0",
            "KEY_PREFIX": f"stampede-test-{uuid.uuid4()}",  # this test's keys only
        }
    with override_settings(CACHES={"default": backend}):
        yield


def version(number: int = 1, league: int = 7) -> Version:
    """The versions of a page of one league: the club's number and the league's."""
    return Version("epoch", 1, ((3, 5), (league, number)))


class Drawer:
    """A page that takes ``seconds`` to draw, counting its drawings; it shows ``shown``."""

    def __init__(self, seconds: float, status: int = 200):
        self.seconds, self.status = seconds, status
        self.drawn = 0
        self.lock = threading.Lock()

    def __call__(self, shown: bytes = b"page") -> HttpResponse:
        with self.lock:
            self.drawn += 1
        time.sleep(self.seconds)
        return HttpResponse(b"<p>" + shown + b"</p>", status=self.status, content_type="text/html")


def ask(page: str, at: Version, draw) -> bytes:
    content, response, _drawn_at = page_cache.drawn_once(page, at, draw)
    return content if response is None else response.content


def at_once(count: int, page: str, draw, at: Version | None = None) -> list[bytes]:
    """``count`` requests for ``page`` at the same moment, at versions ``at``; what each got."""
    got: list[bytes] = []
    start = threading.Barrier(count)

    def one():
        start.wait()
        got.append(ask(page, at or version(), draw))

    threads = [threading.Thread(target=one) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return got


def test_one_request_draws_while_the_others_wait_for_its_page(shared_cache):
    draw = Drawer(0.3)
    got = at_once(8, f"page:{uuid.uuid4()}", draw)
    assert got == [b"<p>page</p>"] * 8
    assert draw.drawn == 1


def test_the_waiters_in_the_drawers_process_are_woken_with_its_page(shared_cache, monkeypatch):
    """In the drawer's process the others wait for it to end and take its page from it: each
    looks in the cache at most once (if it asked before the drawer noted its drawing here),
    where looking every few milliseconds through the drawing would be a dozen looks each."""
    looks = []

    class Watched:
        def __getattr__(self, name):
            return getattr(cache, name)

        def get_many(self, keys):
            looks.append(keys)
            return cache.get_many(keys)

    monkeypatch.setattr(page_cache, "cache", Watched())
    draw = Drawer(0.3)
    got = at_once(8, f"page:{uuid.uuid4()}", draw)
    assert got == [b"<p>page</p>"] * 8
    assert draw.drawn == 1
    assert len(looks) <= 7


def test_a_page_not_to_keep_lets_the_waiters_draw_it_at_once(shared_cache):
    """A 404 is not cached: the others do not wait out the whole pause for it."""
    draw = Drawer(0.2, status=404)
    started = time.monotonic()
    got = at_once(4, f"page:{uuid.uuid4()}", draw)
    assert len(got) == 4
    assert draw.drawn == 4
    assert time.monotonic() - started < page_cache.DRAW_WAIT_SECONDS


def test_a_drawer_that_never_finishes_holds_the_others_briefly(shared_cache, monkeypatch):
    monkeypatch.setattr(page_cache, "DRAW_WAIT_SECONDS", 0.3)
    page = f"page:{uuid.uuid4()}"
    cache.add(f"{page}:{version()}:drawing", 1, 60)  # a worker that died drawing it
    draw = Drawer(0)
    started = time.monotonic()
    content, response, _at = page_cache.drawn_once(page, version(), draw)
    assert content is None and response.content == b"<p>page</p>"
    assert 0.3 <= time.monotonic() - started < 3
    assert draw.drawn == 1
    assert page_cache.drawn_once(page, version(), draw)[0] == b"<p>page</p>"  # and stored it


def test_a_cache_that_fails_is_no_cache(monkeypatch):
    """Redis restarting: every request draws its page, none waits."""

    def broken(*_args, **_kwargs):
        raise ConnectionError("the cache is down")

    for method in ("get", "add", "get_many", "set", "delete"):
        monkeypatch.setattr(cache, method, broken)
    draw = Drawer(0)
    content, response, _at = page_cache.drawn_once("page:any", version(), draw)
    assert content is None and response.status_code == 200
    assert draw.drawn == 1


def test_a_wait_shorter_than_a_second_still_marks_the_page_as_drawn(shared_cache, monkeypatch):
    """Redis keeps a key whole seconds: a mark of 0.3 s would be gone at once, and every
    request would draw."""
    monkeypatch.setattr(page_cache, "DRAW_WAIT_SECONDS", 0.9)
    draw = Drawer(0.3)
    assert at_once(4, f"page:{uuid.uuid4()}", draw) == [b"<p>page</p>"] * 4
    assert draw.drawn == 1


def test_a_burst_of_writes_draws_a_page_once_per_write(shared_cache):
    """Writes keep coming while a page is drawn: a request that read the versions before the
    last write takes the page of that write's drawing (it counts every write its own would);
    requests after a newer write draw that one, once."""
    page = f"page:{uuid.uuid4()}"
    draw = Drawer(0.2)
    got: dict[str, bytes] = {}

    def request(name: str, number: int, after: float):
        time.sleep(after)
        # The page drawn for a request shows the number of the versions it read.
        got[name] = ask(page, version(number), lambda: draw(str(number).encode()))

    # 2 draws; 1 comes while it does (it read the versions before the last write); then 3 and
    # 3' (a write came since).
    arrivals = (("2", 2, 0), ("1", 1, 0.05), ("3", 3, 0.1), ("3'", 3, 0.12))
    threads = [threading.Thread(target=request, args=args) for args in arrivals]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)

    assert got == {"2": b"<p>2</p>", "1": b"<p>2</p>", "3": b"<p>3</p>", "3'": b"<p>3</p>"}
    assert draw.drawn == 2


@pytest.mark.parametrize(
    ("newer", "older", "expected"),
    [
        (version(2), version(1), True),
        (version(1), version(1), True),
        (version(1), version(2), False),
        (version(2, league=8), version(1), False),  # another league: not comparable
        (Version("other epoch", 9, ((3, 9), (7, 9))), version(1), False),
        # A row made since (a player's first game) is newer; one missing is not.
        (
            Version("epoch", 1, (), ((7, 1, 4), (7, 2, 1))),
            Version("epoch", 1, (), ((7, 1, 3),)),
            True,
        ),
        (
            Version("epoch", 1, (), ((7, 1, 4),)),
            Version("epoch", 1, (), ((7, 1, 3), (7, 2, 1))),
            False,
        ),
        # Both numbers of a league's row: each as high.
        (Version("epoch", 1, ((7, 5, 2),)), Version("epoch", 1, ((7, 4, 3),)), False),
        (Version("epoch", 1, ((7, 5, 3),)), Version("epoch", 1, ((7, 4, 3),)), True),
    ],
)
def test_versions_at_least_count_every_write_the_others_count(newer, older, expected):
    assert newer.at_least(older) is expected
