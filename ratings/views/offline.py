"""The service worker, served from the site's root (``/sw.js``): a worker's scope is the
folder it is served from, and the pages it keeps for a visit without network are all over the
site, not under the static files' folder. Its code is ``templates/offline/sw.js``, a template
for the static files' addresses and the build they belong to (``ratings.static_build``): the
worker names its cache by the build, never by a name kept by hand, so a release is a new worker,
which browsers install and which drops the caches of the builds before.
"""

import json

from django.shortcuts import render
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from ratings.static_build import static_build


@require_safe
@cache_control(no_cache=True)
def service_worker(request):
    """The worker's script; browsers check it for a new version at each visit (no-cache)."""
    build = static_build()
    context = {
        "version": build.version,
        "precache": json.dumps(build.own_files),
        "hashed": json.dumps(build.hashed),
    }
    return render(request, "offline/sw.js", context, content_type="text/javascript")
