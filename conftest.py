"""Repository-wide test settings: hypothesis profiles (CI runs a bounded number of examples)."""

import os

import pytest
from django.conf import settings
from django.test import override_settings
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

hypothesis_settings.register_profile(
    "default",
    max_examples=int(os.environ.get("HYPOTHESIS_MAX_EXAMPLES", 60)),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
hypothesis_settings.load_profile("default")


# A password's hash is not under test (production keeps Django's default hashers):
# the cheapest hasher saves each test that makes or logs in a user a costly hash.
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# The suite draws pages without running collectstatic first: each static file by its own name,
# found in the source folders (WHITENOISE_USE_FINDERS), as in development. Production's hashed
# names and their manifest are tested on a collected copy (tests/test_static_files.py,
# tests/views/test_offline.py, tests/e2e/test_release.py).
UNHASHED_STATIC_FILES = {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"}


@pytest.fixture(scope="session", autouse=True)
def _plain_http_live_server():
    """The same for pytest-django's live server, whose middleware reads the settings once, when
    the session starts it (before any function-scoped ``settings`` override below); the cheap
    password hasher for the whole session, the live server's requests included; and the static
    files by their own names."""
    with override_settings(
        SECURE_SSL_REDIRECT=False,
        PASSWORD_HASHERS=FAST_HASHERS,
        STORAGES={**settings.STORAGES, "staticfiles": UNHASHED_STATIC_FILES},
    ):
        yield


@pytest.fixture(autouse=True)
def _plain_http(settings):
    """Tests talk plain HTTP to the test client and live server; production redirects to HTTPS."""
    settings.SECURE_SSL_REDIRECT = False
