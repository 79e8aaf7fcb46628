"""How much a request may carry: MAX_REQUEST_BYTES for the whole body, files included.

Anything larger is refused with 413 before a byte of it is read; the rayter import's largest
file (RAYTER_UPLOAD_MAX_BYTES) with its form still fits. A body without Content-Length is never
read under WSGI; under ASGI it is counted as it arrives and cut off at the limit.
"""

from __future__ import annotations

import asyncio
import io
import json
import sys
import uuid
from wsgiref.util import setup_testing_defaults

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.handlers.wsgi import WSGIHandler
from django.test import Client
from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart
from django.urls import reverse

from club.middleware import limit_asgi_body
from ratings.models import League, Player, System
from tests.builders import MB, entry_url, table_counts
from tests.worked_example import WORKED_EXAMPLE_FORM

pytestmark = pytest.mark.django_db

MiB = 1024 * 1024


def multipart(size: int) -> bytes:
    """A login form with a file of ``size`` bytes, as a browser would post it."""
    upload = io.BytesIO(b"x" * size)
    upload.name = "big.bin"
    return encode_multipart(BOUNDARY, {"username": "member", "password": "x", "file": upload})


def post_raw(client: Client, url: str, body: bytes, **extra):
    return client.generic("POST", url, body, MULTIPART_CONTENT, **extra)


def test_an_anonymous_multipart_post_above_the_limit_is_refused_with_413(client):
    body = multipart(17 * MiB)  # the default limit is 16 MiB, twice the largest rayter file

    response = post_raw(client, reverse("login"), body)

    assert response.status_code == 413
    assert "That request was too large" in response.content.decode()
    assert "16.0\xa0MB" in response.content.decode()  # the limit, as the page says it


def test_the_limit_is_checked_before_the_body_is_read(client, settings):
    settings.MAX_REQUEST_BYTES = MiB
    # The test client's payload fails the test if anything reads past the 10 bytes it holds.
    response = post_raw(client, reverse("login"), b"0123456789", CONTENT_LENGTH=str(50 * MiB))

    assert response.status_code == 413


@pytest.mark.parametrize("name", ["login", "admin:login", "ratings:player_new"])
def test_every_page_is_under_the_limit(client, settings, name):
    settings.MAX_REQUEST_BYTES = MiB

    response = post_raw(client, reverse(name), multipart(MiB))

    assert response.status_code == 413


def test_a_request_at_the_limit_is_read(client, settings, member_user):
    settings.MAX_REQUEST_BYTES = MiB
    body = multipart(MiB - 2000)
    assert len(body) <= MiB

    response = post_raw(client, reverse("login"), body)

    assert response.status_code == 200  # the login form again: a wrong password


def test_the_largest_rayter_file_fits_the_default_limit(admin_client, settings):
    hearts = League.objects.create(name="Hearts", slug="hearts", system=System.RAYTER_LOWSCORE)
    # NUL bytes: the import form reads the whole file and refuses it quickly, saying why.
    upload = io.BytesIO(b"\x00" * settings.RAYTER_UPLOAD_MAX_BYTES)
    upload.name = "hearts.txt"

    response = admin_client.post(
        reverse("ratings:rayter_import", args=[hearts.slug]), {"file": upload, "replace": "on"}
    )

    assert response.status_code == 200
    assert "not a text file" in response.content.decode()


def test_form_fields_above_a_megabyte_are_a_400(member_client):
    body = b"name=" + b"x" * (MiB + 1)

    response = member_client.post(
        reverse("ratings:player_new"), body, content_type="application/x-www-form-urlencoded"
    )

    assert response.status_code == 400
    assert not Player.objects.exists()


# A body without Content-Length (Transfer-Encoding: chunked) -----------------------------------


class CountingInput(io.RawIOBase):
    """A request body of ``size`` bytes that counts how many of them the app read."""

    def __init__(self, size: int):
        self.left = size
        self.read_bytes = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = min(len(buffer), self.left)
        buffer[:n] = b"x" * n
        self.left -= n
        self.read_bytes += n
        return n


def test_under_wsgi_a_body_without_content_length_is_not_read(settings):
    body = CountingInput(50 * MiB)
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": reverse("login"),
        "CONTENT_TYPE": MULTIPART_CONTENT,
        "HTTP_TRANSFER_ENCODING": "chunked",
        "wsgi.input": body,
        "wsgi.errors": sys.stderr,
    }
    setup_testing_defaults(environ)
    environ.pop("CONTENT_LENGTH", None)
    statuses = []

    WSGIHandler()(environ, lambda status, headers: statuses.append(status))

    assert statuses == ["403 Forbidden"]  # nothing read: not even a CSRF token
    assert body.read_bytes == 0


# ASGI: the body is counted as it arrives -------------------------------------------------------


def run_asgi(app, headers: list, chunks: list[bytes]):
    """Send a POST with these body chunks through ``app``; what it sent and how much it read."""
    messages = [
        {"type": "http.request", "body": chunk, "more_body": n < len(chunks) - 1}
        for n, chunk in enumerate(chunks)
    ]
    sent, read = [], []

    async def receive():
        message = messages.pop(0) if messages else {"type": "http.disconnect"}
        read.append(len(message.get("body", b"")))
        return message

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/", "headers": headers}
    asyncio.run(app(scope, receive, send))
    return sent, sum(read)


async def reads_the_whole_body(scope, receive, send):
    """Like Django's ASGI handler: read to the end (stop at a disconnect), then answer 200."""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return
        if not message.get("more_body"):
            break
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


def test_under_asgi_a_declared_length_above_the_limit_is_refused_unread(settings):
    settings.MAX_REQUEST_BYTES = MiB
    headers = [(b"content-length", str(50 * MiB).encode())]

    sent, read = run_asgi(limit_asgi_body(reads_the_whole_body), headers, [b"x" * MiB] * 50)

    assert sent[0]["status"] == 413
    assert read == 0


def test_under_asgi_a_chunked_body_is_cut_off_at_the_limit(settings):
    settings.MAX_REQUEST_BYTES = MiB
    chunks = [b"x" * (256 * 1024)] * 200  # 50 MiB, no Content-Length

    sent, read = run_asgi(limit_asgi_body(reads_the_whole_body), [], chunks)

    assert [m["status"] for m in sent if m["type"] == "http.response.start"] == [413]
    assert read <= MiB + 256 * 1024


def test_under_asgi_a_body_within_the_limit_goes_through(settings):
    settings.MAX_REQUEST_BYTES = MiB

    sent, _read = run_asgi(limit_asgi_body(reads_the_whole_body), [], [b"x" * 1000] * 3)

    assert sent[0]["status"] == 200


def asgi_post(path: str, headers: list, chunks: list[bytes]):
    """POST through the site's own ASGI application (club/asgi.py): status, headers and body."""
    from club.asgi import application

    scope_headers = [(b"host", b"testserver"), *headers]
    messages = [
        {"type": "http.request", "body": chunk, "more_body": n < len(chunks) - 1}
        for n, chunk in enumerate(chunks)
    ]
    sent = []

    async def receive():
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http", "method": "POST", "path": path, "query_string": b"",
        "headers": scope_headers, "server": ("testserver", 80), "client": ("127.0.0.1", 1),
    }  # fmt: skip
    asyncio.run(application(scope, receive, send))
    [start] = [m for m in sent if m["type"] == "http.response.start"]
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], dict(start["headers"]), body


@pytest.mark.parametrize(
    ("language", "message"),
    [("en", "The body is over 1048576 bytes."), ("ru", "Тело запроса превышает 1048576 байт.")],
)
def test_under_asgi_a_huge_api_body_is_refused_in_the_api_shape(settings, language, message):
    settings.MAX_REQUEST_BYTES = MiB
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(50 * MiB).encode()),
        (b"accept-language", language.encode()),
    ]

    status, sent_headers, body = asgi_post("/api/v1/leagues/any/games", headers, [b"{"])

    assert status == 413
    assert sent_headers[b"Content-Type"].startswith(b"application/json")
    [error] = json.loads(body)["errors"]
    assert error == {"field": None, "message": message, "suggestions": None}


def test_under_asgi_a_streamed_api_body_over_the_limit_is_refused_in_the_api_shape(settings):
    settings.MAX_REQUEST_BYTES = MiB
    chunks = [b"x" * (256 * 1024)] * 20  # 5 MiB, no Content-Length

    status, _headers, body = asgi_post("/api/v1/leagues/any/games", [], chunks)

    assert status == 413
    assert json.loads(body)["errors"][0]["field"] is None


def test_under_asgi_a_huge_page_post_is_refused_with_the_413_page(settings):
    settings.MAX_REQUEST_BYTES = MiB
    headers = [
        (b"content-type", MULTIPART_CONTENT.encode()),
        (b"content-length", str(50 * MiB).encode()),
        (b"cookie", b"django_language=sr-latn"),
    ]

    status, sent_headers, body = asgi_post(reverse("login"), headers, [b"x"])

    assert status == 413
    assert sent_headers[b"Content-Type"].startswith(b"text/html")
    assert "Taj zahtev je bio prevelik" in body.decode()
    assert '<html lang="sr-latn"' in body.decode()


# Bodies: too big, too many fields, binary, not UTF-8 ----------------------------------------------


def big_form_body(size: int) -> bytes:
    return (
        b"note="
        + b"x" * size
        + b"&"
        + "&".join(f"{k}={v}" for k, v in WORKED_EXAMPLE_FORM.items()).encode()
    )


@pytest.mark.parametrize(
    ("url", "who"),
    [
        (lambda friday_league: entry_url(friday_league), "member_user"),
        (lambda friday_league: reverse("ratings:player_new"), "member_user"),
        (lambda friday_league: reverse("login"), None),
        (lambda friday_league: reverse("admin:ratings_game_add"), "admin_user"),
    ],
    ids=["entry", "player", "login", "admin"],
)
def test_a_ten_megabyte_form_post_is_a_clear_400(request, friday_league, url, who):
    client = Client()
    if who:
        client.force_login(request.getfixturevalue(who))
    before = table_counts()

    response = client.post(
        url(friday_league), big_form_body(10 * MB), content_type="application/x-www-form-urlencoded"
    )

    assert response.status_code == 400
    assert b"That request could not be read" in response.content
    assert table_counts() == before


def test_a_ten_megabyte_multipart_field_is_a_clear_400(member_client, friday_league):
    before = table_counts()

    response = member_client.post(
        entry_url(friday_league), {**WORKED_EXAMPLE_FORM, "note": "x" * (10 * MB)}
    )

    assert response.status_code == 400
    assert table_counts() == before


def test_a_ten_megabyte_file_sent_to_the_entry_form_is_ignored(member_client, friday_league):
    before = table_counts()
    upload = SimpleUploadedFile("paper.bin", b"\x00" * (10 * MB))

    response = member_client.post(
        entry_url(friday_league), {**WORKED_EXAMPLE_FORM, "paper": upload, "preview": "1"}
    )

    assert response.status_code == 200
    assert table_counts() == before


def test_thousands_of_fields_are_a_400(member_client, friday_league):
    body = "&".join(f"f{n}=1" for n in range(5000))
    before = table_counts()

    response = member_client.post(
        entry_url(friday_league), body, content_type="application/x-www-form-urlencoded"
    )

    assert response.status_code == 400
    assert table_counts() == before


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("application/octet-stream", bytes(range(256)) * 40),
        ("application/x-www-form-urlencoded", bytes(range(256)) * 40),
        ("multipart/form-data; boundary=xyz", b"--xyz\r\n\x00\xff garbage \r\n--xy"),
        ("multipart/form-data", b"no boundary at all"),
        ("multipart/form-data; boundary=" + "b" * 200, b"--" + b"b" * 200),
        ("application/json", b'{"player_0": "Pedja"}'),
        ("application/x-www-form-urlencoded; charset=no-such-charset", b"player_0=Pedja"),
    ],
    ids=[
        "octet-stream",
        "binary-form",
        "broken-multipart",
        "no-boundary",
        "long-boundary",
        "json",
        "unknown-charset",
    ],
)
def test_binary_and_malformed_bodies_write_nothing(
    member_client, friday_league, content_type, body
):
    before = table_counts()

    # generic() sends the bytes as they are; post_raw() would re-encode them in the charset.
    response = member_client.generic(
        "POST", entry_url(friday_league), body, content_type=content_type
    )

    assert response.status_code in (200, 400)
    assert table_counts() == before


def form_body(player_0: bytes) -> bytes:
    fields = {**WORKED_EXAMPLE_FORM, "submission_key": str(uuid.uuid4()), "preview": "1"}
    fields.pop("player_0")
    return b"player_0=" + player_0 + b"&" + "&".join(f"{k}={v}" for k, v in fields.items()).encode()


@pytest.mark.parametrize("name", [b"Ped%FFja", b"Ana%C3%28", b"%ED%A0%80x", b"Ana%C0%AF"])
def test_a_name_that_is_not_utf8_is_refused(member_client, friday_league, name):
    before = table_counts()

    response = member_client.generic(
        "POST",
        entry_url(friday_league),
        form_body(name),
        content_type="application/x-www-form-urlencoded",
    )

    assert response.status_code == 200
    assert "could not be read" in " ".join(response.context["form"].errors["player_0"])
    assert table_counts() == before


def test_raw_bytes_that_are_not_utf8_are_read_as_latin_1(member_client, friday_league):
    """No browser sends them unencoded; Django then reads the whole body as Latin-1.

    "Pedÿja" is close to the club's Pedja: the member confirms a new member."""
    before = table_counts()

    response = member_client.generic(
        "POST",
        entry_url(friday_league),
        form_body(b"Ped\xffja") + b"&new_player_0=1",
        content_type="application/x-www-form-urlencoded",
    )

    assert response.status_code == 200
    assert [row["name"] for row in response.context["preview"]][0] == "Pedÿja"
    assert table_counts() == before
