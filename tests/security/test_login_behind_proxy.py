"""Login throttling behind a reverse proxy: each client is counted by its own address.

Behind nginx every request comes from the proxy's address, so a lockout keyed on that address
would let anyone lock any member out. With ``TRUSTED_PROXY_COUNT`` set, the client's address is
the one the proxies wrote into X-Forwarded-For; without it the header is ignored, since anyone
can send one.
"""

import pytest
from axes.models import AccessAttempt
from django.test import RequestFactory

from ratings.throttling import client_ip
from tests.builders import PASSWORD, fail_five_times, log_in

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_passwords")]

PROXY = "10.0.0.2"
ALICE = "203.0.113.7"
BOB = "198.51.100.2"


@pytest.fixture
def behind_one_proxy(settings):
    settings.TRUSTED_PROXY_COUNT = 1


def via_proxy(forwarded_for: str) -> dict:
    """What the app sees of a request nginx passed on: its own address, the client's in XFF."""
    return {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": forwarded_for}


def test_behind_a_proxy_two_clients_are_counted_separately(client, member_user, behind_one_proxy):
    statuses = fail_five_times(client, "member", **via_proxy(ALICE))

    bob = log_in(client, "member", PASSWORD, **via_proxy(BOB))
    client.logout()
    alice = log_in(client, "member", PASSWORD, **via_proxy(ALICE))

    assert statuses[-1] == 429
    assert bob.status_code == 302
    assert alice.status_code == 429
    assert list(AccessAttempt.objects.values_list("ip_address", flat=True)) == [ALICE]


def test_behind_a_proxy_a_client_cannot_pose_as_another(client, member_user, behind_one_proxy):
    # Alice sends "X-Forwarded-For: <Bob>"; nginx appends the address Alice really came from.
    fail_five_times(client, "member", **via_proxy(f"{BOB}, {ALICE}"))

    alice = log_in(client, "member", PASSWORD, **via_proxy(ALICE))
    bob = log_in(client, "member", PASSWORD, **via_proxy(BOB))

    assert alice.status_code == 429
    assert bob.status_code == 302


def test_without_a_trusted_proxy_x_forwarded_for_is_ignored(client, member_user):
    # Otherwise a guesser would dodge the lockout by sending a new header with every try.
    fail_five_times(client, "member", HTTP_X_FORWARDED_FOR=ALICE)

    response = log_in(client, "member", PASSWORD, HTTP_X_FORWARDED_FOR=BOB)

    assert response.status_code == 429
    assert list(AccessAttempt.objects.values_list("ip_address", flat=True)) == ["127.0.0.1"]


# Which address counts ----------------------------------------------------------------------------


def address(settings, proxies: int, **meta: str) -> str | None:
    settings.TRUSTED_PROXY_COUNT = proxies
    return client_ip(RequestFactory().get("/", **meta))


@pytest.mark.parametrize(
    ("proxies", "forwarded_for", "expected"),
    [
        (0, f"{ALICE}", PROXY),  # no proxy trusted: the socket's address
        (1, f"{ALICE}", ALICE),
        (1, f"{BOB}, {ALICE}", ALICE),  # the client's own entry is not trusted
        (1, f"{BOB},{ALICE}", ALICE),
        (2, f"{BOB}, {ALICE}, 10.0.0.9", ALICE),  # two proxies: the first one wrote Alice
        (1, "2001:db8::7", "2001:db8::7"),
    ],
)
def test_the_client_is_the_entry_the_nearest_trusted_proxy_wrote(
    settings, proxies, forwarded_for, expected
):
    meta = via_proxy(forwarded_for)

    assert address(settings, proxies, **meta) == expected


@pytest.mark.parametrize(
    "forwarded_for",
    ["", "unknown", "203.0.113.7:4711", "<script>", f"{ALICE}, "],
    ids=["missing", "unknown", "with a port", "junk", "empty entry"],
)
def test_a_request_the_proxy_did_not_describe_counts_by_the_sockets_address(
    settings, forwarded_for
):
    """Sent past the proxy, or a header the proxy did not write: nothing is read from it."""
    meta = via_proxy(forwarded_for) if forwarded_for else {"REMOTE_ADDR": PROXY}

    assert address(settings, 1, **meta) == PROXY


def test_too_few_entries_for_the_proxies_count_by_the_sockets_address(settings):
    assert address(settings, 2, **via_proxy(ALICE)) == PROXY
