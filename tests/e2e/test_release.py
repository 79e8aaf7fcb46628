"""A phone that visited before runs a release's new script, with production's static files.

The server is the live server's WSGI app as production runs it: the static files collected
with hashed names and WhiteNoise serving them from the collected folder. A phone visits (its
service worker keeps the pages and the club's files), a release changes ``offline.js`` (in a
copy of the static files) and collects again, the server restarts; two reloads later the page
runs the new script, the worker's cache is the new build's alone, and the page still opens with
the new script without network.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import closing, contextmanager

import pytest
from django.core.handlers.wsgi import WSGIHandler
from pytest_django.live_server_helper import LiveServer

from ratings.static_build import static_build
from tests.builders import OTHER_APPS_STATIC, production_static_files, release_static_files

from .builders import PHONE

pytestmark = pytest.mark.django_db(transaction=True)

RELEASE_MARK = "document.documentElement.dataset.release"
KEPT_BUILDS = "caches.keys()"


@contextmanager
def production_server() -> Iterator[LiveServer]:
    """A live server whose requests all go through Django's WSGI app, WhiteNoise included (the
    live server's own static handler would look the files up in the source folders)."""
    server = LiveServer("localhost")
    restart(server)
    try:
        yield server
    finally:
        server.stop()


def restart(server: LiveServer) -> None:
    """What a release's restart does: a new app, whose WhiteNoise reads the collected folder."""
    server.thread.httpd.set_app(WSGIHandler())


def test_a_phone_that_visited_before_runs_the_new_script_after_a_release(browser, tmp_path):
    with (
        production_static_files(tmp_path, ignore=OTHER_APPS_STATIC) as source,
        production_server() as server,
        closing(browser.new_context(viewport=PHONE)) as context,
    ):
        context.set_default_timeout(15_000)
        page = context.new_page()
        page.goto(server.url + "/")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.reload()  # through the worker, which keeps the page and its files
        assert page.evaluate("navigator.serviceWorker.controller !== null")
        before = static_build().version
        assert page.evaluate(KEPT_BUILDS) == [f"club-{before}"]
        assert page.evaluate(RELEASE_MARK) is None

        script = source / "offline.js"
        script.write_text(script.read_text() + f'\n{RELEASE_MARK} = "new";\n')
        release_static_files(ignore=OTHER_APPS_STATIC)
        restart(server)
        after = static_build().version
        assert after != before

        page.reload()
        # The release's worker has taken over and dropped the build before.
        page.wait_for_function(f"{KEPT_BUILDS}.then((names) => names.join() === 'club-{after}')")
        page.reload()
        assert page.evaluate(RELEASE_MARK) == "new"

        context.set_offline(True)
        page.reload()
        assert page.evaluate(RELEASE_MARK) == "new"
