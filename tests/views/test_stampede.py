"""No stampede (ratings.page_cache.drawn_once): on a miss one request draws a page while the
others asking for it wait for its result, with the local-memory cache of one process and with
Redis, which the workers of a deployment share."""

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


class Drawer:
    """A page that takes ``seconds`` to draw, counting its drawings."""

    def __init__(self, seconds: float, status: int = 200):
        self.seconds, self.status = seconds, status
        self.drawn = 0
        self.lock = threading.Lock()

    def __call__(self) -> HttpResponse:
        with self.lock:
            self.drawn += 1
        time.sleep(self.seconds)
        return HttpResponse(b"<p>page</p>", status=self.status, content_type="text/html")


def at_once(count: int, key: str, draw) -> list[bytes]:
    """``count`` requests for the page at ``key`` at the same moment; what each one got."""
    got: list[bytes] = []
    start = threading.Barrier(count)

    def ask():
        start.wait()
        content, response = page_cache.drawn_once(key, draw)
        got.append(content if response is None else response.content)

    threads = [threading.Thread(target=ask) for _ in range(count)]
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
    key = f"page:{uuid.uuid4()}"
    cache.add(f"{key}:drawing", 1, 60)  # a worker that died drawing it
    draw = Drawer(0)
    started = time.monotonic()
    content, response = page_cache.drawn_once(key, draw)
    assert content is None and response.content == b"<p>page</p>"
    assert 0.3 <= time.monotonic() - started < 3
    assert draw.drawn == 1
    assert page_cache.drawn_once(key, draw)[0] == b"<p>page</p>"  # and stored it


def test_a_cache_that_fails_is_no_cache(monkeypatch):
    """Redis restarting: every request draws its page, none waits."""

    def broken(*_args, **_kwargs):
        raise ConnectionError("the cache is down")

    for method in ("get", "add", "get_many", "set", "delete"):
        monkeypatch.setattr(cache, method, broken)
    draw = Drawer(0)
    content, response = page_cache.drawn_once("page:any", draw)
    assert content is None and response.status_code == 200
    assert draw.drawn == 1


def test_a_wait_shorter_than_a_second_still_marks_the_page_as_drawn(shared_cache, monkeypatch):
    """Redis keeps a key whole seconds: a mark of 0.3 s would be gone at once, and every
    request would draw."""
    monkeypatch.setattr(page_cache, "DRAW_WAIT_SECONDS", 0.9)
    draw = Drawer(0.3)
    assert at_once(4, f"page:{uuid.uuid4()}", draw) == [b"<p>page</p>"] * 4
    assert draw.drawn == 1
