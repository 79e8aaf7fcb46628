"""ASGI entry point."""

import os

from django.core.asgi import get_asgi_application

from club.middleware import limit_asgi_body

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
# Django's ASGI handler reads a whole body before any middleware could refuse it: the size
# limit comes first.
application = limit_asgi_body(get_asgi_application())
