"""The club's HTTP API under ``/api/v1/`` (django-ninja): reads for scoring apps and bots, and
game entry through the same forms and engine as the site. ``tokens.py`` holds the per-device
tokens, ``auth.py`` checks them, ``schemas.py`` the shapes, ``routers/`` one module per resource;
``urls.py`` puts it together.

Nothing is imported here: the token model is imported by :mod:`ratings.models` while the app
registry loads, before the API's routers (which import forms and the engine) can be.
"""
