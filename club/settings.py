"""Settings for the club, read from the environment.

Every value a deployment changes comes from an environment variable (see the README's
"Configuration"); the defaults are a local SQLite club for development and tests. With DEBUG off
the settings are production-safe: a real SECRET_KEY and ALLOWED_HOSTS are required, cookies are
secure and HTTPS is enforced (unless PLAIN_HTTP says the club is on its own LAN).
"""

import math
import os
import sys
from collections import Counter
from importlib.util import find_spec
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.checks.security.base import (
    SECRET_KEY_INSECURE_PREFIX,
    SECRET_KEY_MIN_LENGTH,
    SECRET_KEY_MIN_UNIQUE_CHARACTERS,
)
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, got {value!r}")


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        number = int(value)
    except ValueError:
        number = -1
    if number < 0:
        raise ImproperlyConfigured(f"{name} must be a whole number of at least 0, got {value!r}")
    return number


def require_extra(extra: str, modules: tuple[str, ...], why: str) -> None:
    """Refuse to start, saying what to install, when ``why`` needs one of ``modules`` and none is
    installed: the optional dependencies are pyproject.toml's extras."""
    if not any(find_spec(module) for module in modules):
        raise ImproperlyConfigured(
            f"{why} needs {modules[0]}, which is not installed: "
            f"pip install -e '.[{extra}]' (pyproject.toml's {extra!r} extra)."
        )


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)
# pytest imports these settings before any test runs; the suite needs no secret of its own.
RUNNING_TESTS = "pytest" in sys.modules

# Below this many bits of Shannon entropy per character a key is words or a pattern, not random:
# secrets.token_urlsafe and Django's get_random_secret_key give over 4, even 50 hex digits over 3.
SECRET_KEY_MIN_BITS_PER_CHARACTER = 3.0


def secret_key_weakness(key: str) -> str | None:
    """Why ``key`` is too weak to sign sessions and password-reset links, or None.

    Django's own rule (`check --deploy`'s security.W009: 50 characters, 5 different ones, not
    "django-insecure-"), and beyond it: a key of a repeated piece ("password" seven times has
    seven different characters) or of too little entropy per character is guessable."""
    if len(key) < SECRET_KEY_MIN_LENGTH:
        return f"shorter than {SECRET_KEY_MIN_LENGTH} characters"
    if len(set(key)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS:
        return f"fewer than {SECRET_KEY_MIN_UNIQUE_CHARACTERS} different characters"
    if key.startswith(SECRET_KEY_INSECURE_PREFIX):
        return f"starts with {SECRET_KEY_INSECURE_PREFIX!r}"
    sizes = range(1, len(key) // 2 + 1)
    repeated = next((n for n in sizes if key == (key[:n] * len(key))[: len(key)]), None)
    if repeated is not None:
        return f"the same {repeated} characters repeated"
    counts = Counter(key)
    bits = -sum(n / len(key) * math.log2(n / len(key)) for n in counts.values())
    if bits < SECRET_KEY_MIN_BITS_PER_CHARACTER:
        return f"too little randomness ({bits:.1f} bits per character)"
    return None


SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not (DEBUG or RUNNING_TESTS):
        raise ImproperlyConfigured(
            "SECRET_KEY is not set: set it in the environment (DEBUG is off: production)."
        )
    SECRET_KEY = "django-insecure-development-only-key-never-use-in-production"
elif not (DEBUG or RUNNING_TESTS) and (weakness := secret_key_weakness(SECRET_KEY)):
    # Refused at start-up, not warned of: a guessable key lets anyone forge sessions and
    # password-reset links, and a warning is easy to miss. The key itself is never printed.
    raise ImproperlyConfigured(
        f"SECRET_KEY is too weak ({weakness}): use at least {SECRET_KEY_MIN_LENGTH} random "
        "characters, e.g. from `python -c 'import secrets; print(secrets.token_urlsafe(50))'`."
    )

# The key that signs backups (ratings/backup/files.py). Empty: SECRET_KEY signs them, and a
# backup then restores only where SECRET_KEY is the same; the operator who keeps a BACKUP_KEY
# with the backups can restore them on a new server with a new SECRET_KEY.
BACKUP_KEY = os.environ.get("BACKUP_KEY", "")

ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG or RUNNING_TESTS else []
)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# A form sent from an expired page gets the club's own 403 page, saying how to send it again.
CSRF_FAILURE_VIEW = "ratings.views.errors.csrf_failure"

# The club's address as its members open it (https://club.example.org), for the links made where
# there is no request to take it from (`manage.py invite`, chat posts, the digest); pages use
# the request's. Without it, the first of CSRF_TRUSTED_ORIGINS (development: the local server's).
SITE_URL = (
    os.environ.get("SITE_URL", "")
    or next(iter(CSRF_TRUSTED_ORIGINS), "http://localhost:8000" if DEBUG or RUNNING_TESTS else "")
).rstrip("/")

# A private club shows nothing to visitors who are not logged in.
CLUB_PRIVATE = env_bool("CLUB_PRIVATE", False)
CLUB_NAME = os.environ.get("CLUB_NAME", "Card club")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.forms",  # Django's form templates, for club.forms.ClubFormRenderer
    "django_tables2",
    "axes",
    # Before django_tasks_db: ratings' own db_worker (which first schedules the club's recurring
    # work) is the one manage.py runs.
    "ratings",
    # The background worker (Django's tasks framework as its backport): tasks are rows of the
    # club's own database, enqueued in the transaction that asks for them, so a rolled-back
    # write leaves no task behind. `manage.py db_worker` runs them (docs/operations.md).
    "django_tasks",
    "django_tasks_db",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages compressed for browsers that ask (all do): HTML tables compress well, and a phone's
    # connection at the table is the slow part of a page. Outside everything that writes the body
    # (the page cache fills in each visitor's CSRF token and messages first); WhiteNoise above
    # serves the static files precompressed. Django pads each response against BREACH, and
    # CSRF tokens are masked per response.
    "django.middleware.gzip.GZipMiddleware",
    # Outside everything that sets cookies, so it sees them all on the way out.
    "club.middleware.cookie_flags",
    # Outside everything that answers a page, the club's refusals (413, 429) included.
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Before anything reads the body (the CSRF check reads the form); after the language and
    # the user are known, for its page.
    "club.middleware.request_size_limit",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Below the CSRF and messages middleware: each page's token and messages go in here, so a
    # page drawn once (ratings.page_cache) serves every visitor.
    "ratings.page_cache.fill_viewer_parts",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes requires: it turns a lockout into the response below.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "club.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "ratings.context_processors.club",
                "ratings.context_processors.my_player",
            ],
        },
    },
]

WSGI_APPLICATION = "club.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Writers queue up instead of failing with "database is locked": every transaction takes the
    # write lock when it starts (IMMEDIATE) and waits up to 30 s for it; WAL lets readers go on.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 30,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django would only say so at the first query, with a traceback.
    require_extra("postgres", ("psycopg", "psycopg2"), "DATABASE_URL (PostgreSQL)")
    # No JIT compilation: the club's queries are short, and compiling a big one costs more than
    # it saves (docs/operations.md). Sent with each connection, unless DATABASE_URL gives its
    # own ?options=.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("options", "-c jit=off")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"


def cache_from_url(url: str) -> dict:
    """CACHE_URL: ``locmem://`` (the default: each server process keeps its own),
    ``redis://host:port/db`` (one cache shared by every process and server), or ``dummy://``
    (nothing cached)."""
    scheme, _, rest = url.partition("://")
    timeout = env_int("CACHE_TIMEOUT", 24 * 60 * 60)
    if scheme == "locmem":
        return {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": rest or "club",
            "TIMEOUT": timeout,
            "OPTIONS": {"MAX_ENTRIES": env_int("CACHE_MAX_ENTRIES", 1000)},
        }
    if scheme in {"redis", "rediss", "unix"}:
        require_extra("redis", ("redis",), "CACHE_URL (Redis)")
        return {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            "TIMEOUT": timeout,
        }
    if scheme == "dummy":
        return {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
    raise ImproperlyConfigured(
        "CACHE_URL must start with locmem://, redis://, rediss://, unix:// or dummy://, "
        f"got {url!r}"
    )


# Pages are cached by the club's data version (ratings/page_cache.py): never stale, whatever the
# backend, because the key changes in the same transaction as the data.
CACHES = {"default": cache_from_url(os.environ.get("CACHE_URL", "locmem://"))}

# The background worker's queue: the database backend needs no other service. A club that
# outgrows it swaps the backend here (an RQ or Celery backend) without touching the tasks.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Login throttling (django-axes): after 5 failed logins for one username from one address, that
# pair is refused for 15 minutes (429), so guessing a member's password from a browser is slow
# while nobody else is locked out. Staff unlock early in the admin ("Access attempts") or with
# `manage.py axes_reset`. The axes backend needs the request: tests log in with force_login.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # Django's ModelBackend, reading the linked player with the user (ratings/auth.py).
    "ratings.auth.ClubBackend",
]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = 0.25  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "ratings.views.errors.login_locked_out"
# Behind a reverse proxy every request comes from the proxy's address, and one client could lock
# any member out for everyone: TRUSTED_PROXY_COUNT (how many proxies append to X-Forwarded-For)
# makes the lockout count the address the proxies saw instead. 0 ignores the header, which any
# client can send. See ratings/throttling.py.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
AXES_CLIENT_IP_CALLABLE = "ratings.throttling.client_ip"

# Email, for password-reset links and the weekly digest. Without EMAIL_HOST the club sends none
# (the reset pages are not there, club/accounts.py: staff set new passwords in the admin).
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "webmaster@localhost")
# In development without a mail server, emails (the weekly digest) are printed to the console;
# tests use Django's locmem backend (pytest-django sets it).
if DEBUG and not EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "ratings:home"
LOGOUT_REDIRECT_URL = "ratings:home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("sr-latn", "Srpski"), ("ru", "Русский")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# English dates as ISO with a 24-hour clock (club/formats/en), Serbian months in the genitive
# (club/formats/sr_Latn); the rest of Serbian and Russian is Django's.
FORMAT_MODULE_PATH = ["club.formats"]
# The language picked in the header is kept for a year on that device (Django's default is the
# browser session, so a phone at the table would fall back to English every evening).
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Where collectstatic writes and the server reads them; a benchmark's server collects its own.
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
FORM_RENDERER = "club.forms.ClubFormRenderer"
# Static files under names hashed from their contents (paper.1cf21f892c98.js), written with
# their manifest by `collectstatic`, which every release runs: a changed file is a new address,
# so a phone's caches (the HTTP cache, the service worker's) can keep each file for ever and
# still never run an old script after a release; the service worker's cache and the page
# cache's key carry the manifest's hash (ratings/static_build.py). With DEBUG on Django links
# each file by its own name and WhiteNoise finds it in the source folders, so development needs
# no collectstatic.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = DEBUG or RUNNING_TESTS

# Request bodies. The club's forms are a few kilobytes: their fields (not files) may take 1 MiB,
# more is a 400. Uploaded files are kept in memory up to 5 MiB, beyond that in a temporary file.
# A rayter file may be RAYTER_UPLOAD_MAX_BYTES; a whole request, files included, at most
# MAX_REQUEST_BYTES (club.middleware.request_size_limit refuses more with 413 before reading it).
# Its default, twice the rayter limit, lets a file a little too large still reach the import
# form, which says how large it may be, and bounds what any visitor can make the server read.
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
RAYTER_UPLOAD_MAX_BYTES = env_int("RAYTER_UPLOAD_MAX_BYTES", 8 * 1024 * 1024)
MAX_REQUEST_BYTES = env_int("MAX_REQUEST_BYTES", 2 * RAYTER_UPLOAD_MAX_BYTES)
# Room for the multipart headers and the import form's other fields around the file.
_FORM_OVERHEAD = 64 * 1024
if MAX_REQUEST_BYTES < RAYTER_UPLOAD_MAX_BYTES + _FORM_OVERHEAD:
    raise ImproperlyConfigured(
        f"MAX_REQUEST_BYTES ({MAX_REQUEST_BYTES}) leaves no room for a rayter file of "
        f"RAYTER_UPLOAD_MAX_BYTES ({RAYTER_UPLOAD_MAX_BYTES}) and its form: make it at least "
        f"{RAYTER_UPLOAD_MAX_BYTES + _FORM_OVERHEAD}."
    )

DJANGO_TABLES2_TEMPLATE = "ratings/table.html"

# Production hardening: on whenever DEBUG is off, unless PLAIN_HTTP says the club is served
# over plain HTTP on its own network (a box on the club's LAN, no certificate): then no cookie can
# be Secure (the browser would never send it back) and neither HTTPS redirect nor HSTS can work.
# `check --deploy` warns of it (club/checks.py), as of each protection it turns off.
PLAIN_HTTP = env_bool("PLAIN_HTTP", False)
HTTPS_ONLY = not (DEBUG or PLAIN_HTTP)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", HTTPS_ONLY)
if PLAIN_HTTP and SECURE_SSL_REDIRECT:
    raise ImproperlyConfigured(
        "PLAIN_HTTP=true serves the club over plain HTTP, SECURE_SSL_REDIRECT=true redirects it "
        "to HTTPS: set one of them only."
    )
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("BEHIND_HTTPS_PROXY", False) else None
)
# Every cookie is Secure (HTTPS only) with DEBUG off, and SameSite=Lax: the session, the CSRF
# token, the language (which Django leaves without either unless told) and the messages (which
# follow the session's). club.middleware.cookie_flags adds the same to the headers that delete
# them and to any other cookie. Only the CSRF token is left readable by scripts, as Django does.
# Django's database sessions, loaded so that a database outage logs its own error alone.
SESSION_ENGINE = "club.sessions"
SESSION_COOKIE_SECURE = HTTPS_ONLY
CSRF_COOKIE_SECURE = HTTPS_ONLY
LANGUAGE_COOKIE_SECURE = HTTPS_ONLY
SESSION_COOKIE_SAMESITE = CSRF_COOKIE_SAMESITE = LANGUAGE_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_HTTPONLY = LANGUAGE_COOKIE_HTTPONLY = True
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000 if HTTPS_ONLY else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS_ONLY
# On with DEBUG off so `check --deploy` is clean (security.W021). The token only allows the
# domain's owner to submit it at hstspreload.org; nothing is listed until they do. A domain whose
# subdomains are not all on HTTPS sets SECURE_HSTS_PRELOAD=false.
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", HTTPS_ONLY)
# Content Security Policy (django-csp): the pages load scripts, styles, images and fonts from
# the club's own origin only, with nothing inline: no <script> or <style> elements, no on*= or
# style= attributes (the rating chart is styled by static/club.css; the admin uses its own
# static files). Forms post only to the club; no site may frame it.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

LOG_LEVEL = os.environ.get("LOG_LEVEL", "WARNING")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        }
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler"},
        "django.server": {"class": "logging.StreamHandler", "formatter": "django.server"},
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    # Django's own messages reach the console once, through the root's handler: Django's
    # default "console" handler on the "django" logger printed them a second time as they
    # propagated ("Watching for file changes with StatReloader" twice at every start).
    # Configuring "django" resets its children, so runserver's request lines are Django's
    # default again here.
    "loggers": {
        "django": {"handlers": [], "level": "INFO" if DEBUG else LOG_LEVEL},
        "django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False},
    },
}
