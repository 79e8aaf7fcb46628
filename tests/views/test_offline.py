"""The pieces of the offline queue the server serves: the service worker at the site's root,
and the banner every page carries for static/offline.js."""

import pytest

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
    assert 'data-one="1 paper waiting to be sent"' in page
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
