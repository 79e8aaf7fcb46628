"""The session engine (club/sessions.py): a database outage logs its own error, once."""

import logging
import traceback
from importlib import import_module

import pytest
from django.conf import settings
from django.db import OperationalError

pytestmark = pytest.mark.django_db


def test_a_database_outage_logs_the_database_error_once_per_request(client, caplog, monkeypatch):
    """A database restart logged "'SessionStore' object has no attribute '_session_cache'" with
    every request's error: Django loaded the session inside ``except AttributeError``."""

    def load(self):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(import_module(settings.SESSION_ENGINE).SessionStore, "load", load)
    client.raise_request_exception = False
    client.cookies["sessionid"] = "k" * 32
    urls = ["/", "/players/", "/accounts/login/"]

    with caplog.at_level(logging.ERROR):
        statuses = [client.get(url).status_code for url in urls]

    assert statuses == [500] * len(urls)
    logged = [record for record in caplog.records if record.exc_info]
    assert len(logged) == len(urls)
    for record in logged:
        error = record.exc_info[1]
        text = "".join(traceback.format_exception(error))
        assert isinstance(error, OperationalError)
        assert error.__context__ is None
        assert "_session_cache" not in text


def test_sessions_still_work(client, django_user_model):
    user = django_user_model.objects.create_user("ann", password="a long password 1")
    client.force_login(user)

    response = client.get("/")

    assert response.wsgi_request.user == user
    assert response.wsgi_request.session.session_key == client.session.session_key
