"""The service worker, served from the site's root (``/sw.js``): a worker's scope is the
folder it is served from, and the pages it keeps for a visit without network are all over the
site, not under ``/static/``. Its code is ``static/sw.js``."""

from django.contrib.staticfiles import finders
from django.http import FileResponse, Http404
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe


@require_safe
@cache_control(no_cache=True)
def service_worker(request):
    """The worker's script; browsers check it for a new version at each visit (no-cache)."""
    path = finders.find("sw.js")
    if path is None:
        raise Http404("sw.js")
    return FileResponse(open(path, "rb"), content_type="text/javascript")
