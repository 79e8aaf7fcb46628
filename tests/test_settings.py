"""Production settings: `check --deploy` is clean, and nothing starts without a secret key.

Each test runs manage.py in a fresh process with the environment a deployment would have: no
DEBUG, the secret key and host names from the environment, nothing else borrowed from the
developer's shell that could change a setting.
"""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Variables club/settings.py reads: a test sets those it means to, and no others leak in.
SETTINGS_VARIABLES = (
    "DEBUG",
    "SECRET_KEY",
    "BACKUP_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "CLUB_PRIVATE",
    "SECURE_SSL_REDIRECT",
    "BEHIND_HTTPS_PROXY",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_PRELOAD",
    "PLAIN_HTTP",
    "TRUSTED_PROXY_COUNT",
    "RAYTER_UPLOAD_MAX_BYTES",
    "MAX_REQUEST_BYTES",
    "EMAIL_HOST",
    "EMAIL_PORT",
    "EMAIL_HOST_USER",
    "EMAIL_HOST_PASSWORD",
    "EMAIL_USE_TLS",
    "DEFAULT_FROM_EMAIL",
    "SITE_URL",
    "CACHE_URL",
    "CACHE_TIMEOUT",
    "CACHE_MAX_ENTRIES",
    "DJANGO_SETTINGS_MODULE",
)


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def production(**env: str) -> dict[str, str]:
    return {"SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "club.example.org", **env}


def test_check_deploy_is_clean_for_production_settings():
    done = manage("check", "--deploy", "--fail-level", "WARNING", **production())

    assert done.returncode == 0, done.stdout + done.stderr
    # Nothing silenced either: clean because the settings are, not because a check is muted.
    assert "System check identified no issues (0 silenced)." in done.stdout
    assert "WARNING" not in done.stdout + done.stderr


def test_production_settings_use_the_secret_key_and_hosts_from_the_environment():
    env = production()
    script = (
        "from django.conf import settings as s;"
        "print(s.DEBUG, s.SECRET_KEY == __import__('os').environ['SECRET_KEY'], s.ALLOWED_HOSTS,"
        " s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT,"
        " s.SECURE_HSTS_SECONDS, s.AXES_FAILURE_LIMIT)"
    )

    done = manage("shell", "--verbosity", "0", "-c", script, **env)

    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [
        "False",
        "True",
        "['club.example.org']",
        "True",
        "True",
        "True",
        "31536000",
        "5",
    ]


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"DEBUG": "true"}, "console http://localhost:8000"),
        ({"DEBUG": "true", "EMAIL_HOST": "smtp.example.org"}, "smtp http://localhost:8000"),
        (
            production(CSRF_TRUSTED_ORIGINS="https://club.example.org"),
            "smtp https://club.example.org",
        ),
        (production(SITE_URL="https://cards.example.org"), "smtp https://cards.example.org"),
    ],
)
def test_email_backend_and_site_url(env, expected):
    """Development without a mail server prints emails (the digest) to the console; the links
    in what is sent without a request start with SITE_URL, else the trusted origin."""
    script = (
        "from django.conf import settings as s;print(s.EMAIL_BACKEND.split('.')[-2], s.SITE_URL)"
    )
    done = manage("shell", "--verbosity", "0", "-c", script, **env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == expected


def test_production_serves_the_static_files_under_hashed_names():
    """The suite draws its pages with unhashed names (conftest.py); production hashes them, so
    a release's changed file is a new address that no phone has kept."""
    script = "from django.conf import settings as s; print(s.STORAGES['staticfiles']['BACKEND'])"

    done = manage("shell", "--verbosity", "0", "-c", script, **production())

    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "whitenoise.storage.CompressedManifestStaticFilesStorage"


def test_settings_refuse_to_start_without_a_secret_key_when_debug_is_off():
    for env in ({}, {"DEBUG": "false"}, {"DEBUG": "0", "SECRET_KEY": ""}):
        done = manage("check", ALLOWED_HOSTS="club.example.org", **env)

        assert done.returncode != 0, env
        assert "SECRET_KEY is not set" in done.stderr, env


def test_development_runs_without_a_secret_key():
    done = manage("check", DEBUG="true")

    assert done.returncode == 0, done.stderr


def test_settings_refuse_a_weak_secret_key_when_debug_is_off():
    # Django's own rule (security.W009): 50 characters, 5 different ones, not "django-insecure-".
    weak = {
        "a word": "anything",
        "short": secrets.token_urlsafe(30)[:49],
        "few characters": "abcd" * 20,
        "django's placeholder": "django-insecure-" + secrets.token_urlsafe(50),
        # Past Django's rule: seven different characters, but a word seven times.
        "a repeated word": "password" * 7,
    }
    for why, key in weak.items():
        done = manage("check", **production(SECRET_KEY=key))

        assert done.returncode != 0, why
        assert "ImproperlyConfigured" in done.stderr, why
        assert "SECRET_KEY is too weak" in done.stderr, why
        assert key not in done.stderr, why  # even a weak key is not printed


def test_a_weak_key_is_named_with_its_weakness_and_how_to_make_one():
    done = manage("check", **production(SECRET_KEY="password" * 7))

    assert "SECRET_KEY is too weak (the same 8 characters repeated)" in done.stderr
    assert "python -c 'import secrets; print(secrets.token_urlsafe(50))'" in done.stderr


def test_random_keys_pass_and_patterned_ones_do_not():
    from django.core.management.utils import get_random_secret_key

    from club.settings import secret_key_weakness

    for _ in range(200):
        assert secret_key_weakness(secrets.token_urlsafe(50)) is None
        assert secret_key_weakness(get_random_secret_key()) is None
        assert secret_key_weakness(secrets.token_hex(25)) is None
    piece = secrets.token_urlsafe(20)
    assert secret_key_weakness((piece * 3)[:55]) == "the same 27 characters repeated"
    assert secret_key_weakness("aaaaaaaaaabbbbbbbbbbccccccccccddddddddddeeeeeeeeeeff") == (
        "too little randomness (2.5 bits per character)"
    )


def test_development_accepts_a_weak_secret_key():
    done = manage("check", DEBUG="true", SECRET_KEY="anything")

    assert done.returncode == 0, done.stderr


def cookie_flags(**env: str) -> list[str]:
    script = (
        "from django.conf import settings as s;"
        "print(*[getattr(s, f'{c}_COOKIE_{f}') for c in ('SESSION', 'CSRF', 'LANGUAGE')"
        " for f in ('SECURE', 'SAMESITE')], s.LANGUAGE_COOKIE_HTTPONLY)"
    )
    done = manage("shell", "--verbosity", "0", "-c", script, **env)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_production_cookies_are_secure_and_samesite_lax_the_language_one_too():
    assert cookie_flags(**production()) == ["True", "Lax"] * 3 + ["True"]


def test_development_cookies_work_over_plain_http():
    assert cookie_flags(DEBUG="true") == ["False", "Lax"] * 3 + ["True"]


def test_plain_http_on_a_club_lan_turns_off_secure_cookies_the_redirect_and_hsts():
    script = (
        "from django.conf import settings as s;"
        "print(s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_PRELOAD)"
    )
    done = manage("shell", "--verbosity", "0", "-c", script, **production(PLAIN_HTTP="true"))

    assert cookie_flags(**production(PLAIN_HTTP="true")) == ["False", "Lax"] * 3 + ["True"]
    assert done.stdout.split() == ["False", "0", "False"], done.stderr


def test_check_deploy_warns_of_plain_http_by_name():
    done = manage("check", "--deploy", **production(PLAIN_HTTP="true"))

    assert done.returncode == 0, done.stderr
    assert "(club.W001) PLAIN_HTTP is on" in done.stderr
    assert "the club's own LAN" in done.stderr


def test_plain_http_with_the_https_redirect_refuses_to_start():
    done = manage("check", **production(PLAIN_HTTP="true", SECURE_SSL_REDIRECT="true"))

    assert done.returncode != 0
    assert "PLAIN_HTTP=true serves the club over plain HTTP" in done.stderr


def test_the_trusted_proxy_count_comes_from_the_environment():
    script = "from django.conf import settings as s; print(s.TRUSTED_PROXY_COUNT)"

    unset = manage("shell", "--verbosity", "0", "-c", script, **production())
    two = manage("shell", "--verbosity", "0", "-c", script, **production(TRUSTED_PROXY_COUNT="2"))
    wrong = manage("check", **production(TRUSTED_PROXY_COUNT="nginx"))

    assert unset.stdout.split() == ["0"], unset.stderr
    assert two.stdout.split() == ["2"], two.stderr
    assert wrong.returncode != 0
    assert "TRUSTED_PROXY_COUNT must be a whole number" in wrong.stderr


def request_limits(**env: str) -> subprocess.CompletedProcess:
    script = (
        "from django.conf import settings as s;"
        "print(s.RAYTER_UPLOAD_MAX_BYTES, s.MAX_REQUEST_BYTES)"
    )
    return manage("shell", "--verbosity", "0", "-c", script, **production(**env))


def test_the_request_limit_leaves_room_for_the_largest_rayter_file():
    default = request_limits()
    bigger_files = request_limits(RAYTER_UPLOAD_MAX_BYTES="20000000")
    explicit = request_limits(MAX_REQUEST_BYTES="9000000")
    too_small = request_limits(MAX_REQUEST_BYTES="8388608")

    assert default.stdout.split() == ["8388608", "16777216"], default.stderr
    assert bigger_files.stdout.split() == ["20000000", "40000000"], bigger_files.stderr
    assert explicit.stdout.split() == ["8388608", "9000000"], explicit.stderr
    assert too_small.returncode != 0
    assert "MAX_REQUEST_BYTES (8388608) leaves no room for a rayter file" in too_small.stderr


def email_settings(**env: str) -> list[str]:
    script = (
        "from django.conf import settings as s; from club.accounts import email_configured;"
        "print(email_configured(), s.EMAIL_HOST or '-', s.EMAIL_PORT, s.EMAIL_USE_TLS,"
        " s.DEFAULT_FROM_EMAIL)"
    )
    done = manage("shell", "--verbosity", "0", "-c", script, **production(**env))
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_without_email_host_the_club_sends_no_email():
    # Django's own default would be a mail server on localhost, and the reset pages on.
    assert email_settings()[:2] == ["False", "-"]


def test_the_mail_server_comes_from_the_environment():
    env = {"EMAIL_HOST": "smtp.example.org", "DEFAULT_FROM_EMAIL": "club@example.org"}

    assert email_settings(**env) == ["True", "smtp.example.org", "587", "True", "club@example.org"]
    assert email_settings(**env, EMAIL_PORT="25", EMAIL_USE_TLS="false")[2:4] == ["25", "False"]


def test_cache_url_picks_the_page_cache():
    from club.settings import cache_from_url

    assert cache_from_url("locmem://")["BACKEND"].endswith("LocMemCache")
    assert cache_from_url("dummy://")["BACKEND"].endswith("DummyCache")
    redis = cache_from_url("redis://127.0.0.1:6379/2")
    assert redis["BACKEND"].endswith("RedisCache")
    assert redis["LOCATION"] == "redis://127.0.0.1:6379/2"


def test_an_unknown_cache_url_refuses_to_start():
    result = manage("check", **production(CACHE_URL="memcached://127.0.0.1:11211"))
    assert result.returncode != 0
    assert "CACHE_URL must start with locmem://" in result.stderr


OPTIONAL = ("psycopg", "psycopg2", "redis", "gunicorn")


def run_without(modules: tuple[str, ...], script: str, **env: str) -> subprocess.CompletedProcess:
    """``script`` in a fresh process of production settings where ``modules`` are not
    installed (marked missing before anything imports them)."""
    hide = "import sys\n" + "".join(f"sys.modules[{m!r}] = None\n" for m in modules)
    return subprocess.run(
        [sys.executable, "-c", hide + script],
        cwd=ROOT,
        env={
            **{k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES},
            **production(**env),
            "DJANGO_SETTINGS_MODULE": "club.settings",
        },
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_club_on_sqlite_runs_without_the_optional_dependencies():
    """PostgreSQL's driver, Redis's client and gunicorn are extras (pyproject.toml): the
    URLs, django-tables2 and the system checks load without them; the rest of the suite draws
    every page on SQLite."""
    script = (
        "import django; django.setup()\n"
        "import ratings.urls, django_tables2\n"
        "from django.core.management import call_command\n"
        "call_command('check')\n"
    )
    done = run_without(OPTIONAL, script, DATABASE_URL="sqlite:///:memory:")
    assert done.returncode == 0, done.stderr


def test_django_starts_without_importing_the_api_or_apprise():
    """Every command starts Django, an import of a rayter file too (issue #45): django-ninja
    and pydantic (the API) and Apprise (the chats) are imported by the URLs and by sending,
    where they are used, not by the apps' loading, which every command waits for."""
    script = (
        "import sys, django; django.setup()\n"
        "print(sorted(m for m in ('ninja', 'pydantic', 'apprise') if m in sys.modules))\n"
    )
    done = run_without((), script, DATABASE_URL="sqlite:///:memory:")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"


def test_manage_py_spares_the_exit_its_collections():
    """A command run by manage.py leaves its objects frozen (gc.freeze) as the process ends:
    Python's exit then skips them in its full collections."""
    script = (
        "import gc, runpy, sys\n"
        "sys.argv = ['manage.py', 'check']\n"
        "runpy.run_path('manage.py', run_name='__main__')\n"
        "print(gc.get_freeze_count() > 0)\n"
    )
    done = run_without((), script, DATABASE_URL="sqlite:///:memory:")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "True"


def test_postgresql_without_its_driver_says_which_extra_to_install():
    done = run_without(
        ("psycopg", "psycopg2"),
        "import django; django.setup()",
        DATABASE_URL="postgres://club@127.0.0.1:5432/club",
    )
    assert done.returncode != 0
    assert "DATABASE_URL (PostgreSQL) needs psycopg, which is not installed" in done.stderr
    assert "pip install -e '.[postgres]'" in done.stderr


def test_a_redis_cache_without_its_client_says_which_extra_to_install():
    done = run_without(
        ("redis",),
        "import django; django.setup()",
        DATABASE_URL="sqlite:///:memory:",
        CACHE_URL="redis://127.0.0.1:6379/0",
    )
    assert done.returncode != 0
    assert "pip install -e '.[redis]'" in done.stderr


@pytest.mark.django_db
def test_postgresql_connections_turn_jit_off():
    """Set per connection, so no server setting is needed; a ``?options=`` in DATABASE_URL
    replaces it. On PostgreSQL (DATABASE_URL set) the test's own connection has it."""
    # The settings refuse a PostgreSQL URL without its driver: the SQLite run has none.
    pytest.importorskip("psycopg", reason="the postgres extra, which the PostgreSQL run installs")
    script = "from django.conf import settings as s; print(s.DATABASES['default']['OPTIONS'])"
    url = "postgres://club@127.0.0.1:5432/club"
    done = manage("shell", "-c", script, **production(DATABASE_URL=url))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "{'options': '-c jit=off'}"
    done = manage(
        "shell", "-c", script, **production(DATABASE_URL=f"{url}?options=-c%20work_mem%3D8MB")
    )
    assert done.stdout.splitlines()[-1] == "{'options': '-c work_mem=8MB'}"

    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SHOW jit")
            assert cursor.fetchone() == ("off",)


def test_django_s_own_messages_are_printed_once_in_development():
    """The autoreloader's "Watching for file changes" reached the console twice (Django's
    handler on the "django" logger, then the root's); runserver's request lines keep theirs."""
    script = (
        "import logging, django; django.setup();"
        "logging.getLogger('django.utils.autoreload').info('Watching once');"
        "logging.getLogger('django.server').info('GET / 200')"
    )
    done = manage("shell", "-c", script, DEBUG="1")

    assert done.returncode == 0, done.stderr
    assert done.stderr.count("Watching once") == 1
    assert done.stderr.count("GET / 200") == 1
