"""The pieces of the offline queue the server serves: the service worker at the site's root,
and the banner every page carries for static/offline.js."""

import json
import re
import shutil
from pathlib import Path

import pytest
from django.conf import settings

from ratings.static_build import static_build
from tests.builders import OTHER_APPS_STATIC, production_static_files, release_static_files

# The club's own files (static/), which the worker fetches when it installs.
OWN_FILES = [path.name for path in Path(settings.STATICFILES_DIRS[0]).iterdir()]

pytestmark = pytest.mark.django_db


def test_the_service_worker_is_served_from_the_root_and_never_stale(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"]
    assert 'importScripts("/static/offline-store.js")' in response.content.decode()
    assert client.post("/sw.js").status_code == 405


def test_every_page_carries_the_banner_and_the_scripts(client, settings):
    page = client.get("/").content.decode()
    assert 'id="offline-queue"' in page
    assert 'data-papers-one="{count} paper waiting to be sent"' in page
    assert 'data-worker="/sw.js"' in page
    assert page.index("offline-store.js") < page.index("offline.js")


@pytest.mark.parametrize(
    ("code", "one", "few", "many"),
    [
        ("en", "{count} deal waiting", "{count} deals waiting", "{count} deals waiting"),
        ("ru", "{count} раздача ждёт", "{count} раздачи ждут", "{count} раздач ждут"),
        ("sr-latn", "{count} deljenje čeka", "{count} deljenja čekaju", "{count} deljenja čeka"),
    ],
)
def test_the_banner_counts_a_papers_deals_as_deals_in_each_plural_form(
    client, settings, code, one, few, many
):
    """Deals kept on the phone are deals, not papers (static/offline.js picks the form)."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = code
    page = client.get("/").content.decode()
    for form, words in (("one", one), ("few", few), ("many", many)):
        assert f'data-deals-{form}="{words}' in page
    assert "data-refused-deal=" in page


# With production's static files: hashed names and their manifest -----------------------------


@pytest.fixture
def released(tmp_path):
    """The static files collected as a release collects them (the club's own files only: the
    worker keeps no other); yields the copy of static/ they were collected from."""
    with production_static_files(tmp_path, ignore=OTHER_APPS_STATIC) as source:
        yield source


def worker(client) -> str:
    return client.get("/sw.js").content.decode()


def test_the_worker_is_named_by_the_manifest_and_fetches_the_hashed_files(client, released):
    manifest = json.loads((Path(settings.STATIC_ROOT) / "staticfiles.json").read_text())
    script = worker(client)

    assert f'var CACHE = "club-{manifest["hash"]}";' in script
    assert "var HASHED = true;" in script
    hashed = manifest["paths"]["offline-store.js"]
    assert re.fullmatch(r"offline-store\.[0-9a-f]{12}\.js", hashed)
    assert f'importScripts("/static/{hashed}")' in script
    precache = json.loads(re.search(r"var PRECACHE = (.*);", script).group(1))
    assert precache == [f"/static/{manifest['paths'][name]}" for name in sorted(OWN_FILES)]


def test_a_release_that_changes_a_script_is_a_new_worker_with_a_new_cache(client, released):
    before = worker(client)
    (released / "paper.js").write_text((released / "paper.js").read_text() + "\n// changed\n")
    release_static_files(ignore=OTHER_APPS_STATIC)
    after = worker(client)

    cache_name = re.compile(r'var CACHE = "(club-[0-9a-f]+)";')
    assert cache_name.search(after).group(1) != cache_name.search(before).group(1)
    paper = re.compile(r'"/static/paper\.[0-9a-f]{12}\.js"')
    assert paper.search(after).group() != paper.search(before).group()


@pytest.fixture
def unhashed_copy(settings, tmp_path):
    """The suite's unhashed static files, found in a copy of static/ (yielded) that a test may
    change; the build is read again afterwards, as a new process would."""
    source = tmp_path / "static"
    shutil.copytree(settings.STATICFILES_DIRS[0], source)
    settings.STATICFILES_DIRS = [source]
    static_build.cache_clear()
    yield source
    static_build.cache_clear()


def test_without_hashed_names_the_worker_asks_the_network_and_follows_the_files(
    client, unhashed_copy
):
    """Development and the suite link each file by its own name, which an edit keeps: the worker
    then asks the network first, and its cache is still named by the files' contents."""
    before = worker(client)
    script = unhashed_copy / "forms.js"
    script.write_text(script.read_text() + "\n// changed\n")
    static_build.cache_clear()  # a new process
    after = worker(client)

    assert "var HASHED = false;" in after
    assert '"/static/forms.js"' in after
    cache_name = re.compile(r'var CACHE = "(club-[0-9a-f]+)";')
    assert cache_name.search(after).group(1) != cache_name.search(before).group(1)
