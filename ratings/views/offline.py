"""The service worker, served from the site's root (``/sw.js``): a worker's scope is the
folder it is served from, and the pages it keeps for a visit without network are all over the
site, not under the static files' folder. Its code is ``templates/offline/sw.js``, a template
for the static files' addresses."""

from django.shortcuts import render
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe


@require_safe
@cache_control(no_cache=True)
def service_worker(request):
    """The worker's script; browsers check it for a new version at each visit (no-cache)."""
    return render(request, "offline/sw.js", content_type="text/javascript")
