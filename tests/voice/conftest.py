"""A real endpoint for the chat channels: a local HTTP server in a thread that keeps every JSON
body Apprise's ``json://`` posts to it, and the address of a port nobody listens on."""

from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest


class Webhook:
    def __init__(self, port: int):
        self.port = port
        self.posts: list[dict] = []

    @property
    def url(self) -> str:
        return f"json://127.0.0.1:{self.port}/hook"


@pytest.fixture
def webhook():
    """A webhook receiver at ``webhook.url``; ``webhook.posts`` are the bodies it got."""
    received: list[dict] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            length = int(self.headers.get("Content-Length", 0))
            received.append({"path": self.path, **json.loads(self.rfile.read(length))})
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):  # keep the tests' output quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    hook = Webhook(server.server_address[1])
    hook.posts = received
    yield hook
    server.shutdown()
    server.server_close()
    thread.join()


@pytest.fixture
def closed_port_url() -> str:
    """A json:// URL at a local port just closed: every post to it is refused at once."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"json://127.0.0.1:{port}/hook"
