"""The static files' build, which the pages and the service worker name: every cache that holds
an address of a static file is keyed by it, so none outlives a release.

In production ``collectstatic`` hashes every file's name from its contents and writes them to a
manifest, whose own hash changes with any file: that hash is the build. A page names the hashed
addresses, so a cached page (``ratings.page_cache``, a shared cache such as Redis outlives a
restart) is keyed by the build too; the service worker (``ratings.views.offline``) names its cache
by it. Without hashed names (DEBUG, the test suite) the club's own files' contents are the build.
"""

import functools
import hashlib
from dataclasses import dataclass

from django.apps import apps
from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage

# The club's own files (STATICFILES_DIRS), which its pages load: not the admin's or the API
# docs', which the service worker never keeps for a visit without network.
_OWN_FILES = "django.contrib.staticfiles.finders.FileSystemFinder"


@dataclass(frozen=True)
class StaticBuild:
    """``version`` names the build; ``own_files`` are the addresses of the club's own files;
    ``hashed`` says whether an address is forever (its name is hashed from its contents)."""

    version: str
    own_files: tuple[str, ...]
    hashed: bool


@functools.cache
def static_build() -> StaticBuild:
    """The running build, read once per process: a release runs ``collectstatic``, then restarts
    the server."""
    ignored = apps.get_app_config("staticfiles").ignore_patterns
    own = sorted(finders.get_finder(_OWN_FILES).list(ignored), key=lambda found: found[0])
    own_files = tuple(staticfiles_storage.url(name) for name, _ in own)
    if isinstance(staticfiles_storage, ManifestFilesMixin) and not settings.DEBUG:
        return StaticBuild(staticfiles_storage.manifest_hash, own_files, hashed=True)
    digest = hashlib.sha256()
    for name, storage in own:
        with storage.open(name) as file:
            digest.update(hashlib.sha256(name.encode() + b"\0" + file.read()).digest())
    return StaticBuild(digest.hexdigest()[:12], own_files, hashed=False)
