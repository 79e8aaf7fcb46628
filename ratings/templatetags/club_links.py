"""``{% href 'ratings:player' player.slug %}``: ``{% url %}`` for a link repeated down a page.

``{% url %}`` walks the URLconf at every call: a club night's page made one call a seat.
``href`` makes each view's URLs with :func:`ratings.links.url_maker`, one ``reverse()`` per view
and page (kept in the template's render context), for the views whose path takes one argument.
"""

from __future__ import annotations

from django import template

from ratings.links import url_maker

register = template.Library()

_MAKERS = "club_links.url_makers"  # the render context's key for this page's url makers


@register.simple_tag(takes_context=True)
def href(context, viewname: str, arg) -> str:
    """``reverse(viewname, args=[arg])``, the same URL ``{% url viewname arg %}`` gives."""
    makers = context.render_context.setdefault(_MAKERS, {})
    make = makers.get(viewname)
    if make is None:
        make = makers[viewname] = url_maker(viewname)
    return make(arg)
