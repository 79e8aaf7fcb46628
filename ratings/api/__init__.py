"""The club's HTTP API under ``/api/v1/`` (django-ninja): reads for scoring apps and bots, and
game entry through the same forms and engine as the site. The per-device tokens are a model
(:mod:`ratings.models.api_tokens`); ``auth.py`` checks them, ``schemas.py`` holds the shapes,
``entry.py`` hands a posted game to the entry form, ``errors.py`` answers every refusal in one
shape, ``routers/`` has one module per resource;
``urls.py`` puts it together.
"""
