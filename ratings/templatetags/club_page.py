"""The parts of a page that belong to its visitor, as marks the page cache leaves in place.

``{% csrf_input %}`` stands where ``{% csrf_token %}`` would, and ``{% messages_here %}`` where
the messages go: :func:`ratings.page_cache.fill_viewer_parts` fills both in on every response,
so a page drawn once serves every visitor with their own token and messages. So does
``{% open_reports_here %}``, staff's count of open mistake reports in the header and the admin.
"""

from django import template
from django.utils.safestring import mark_safe

from ratings.page_cache import CSRF_MARK, MESSAGES_MARK, REPORTS_MARK

register = template.Library()


@register.simple_tag
def csrf_input():
    return mark_safe(CSRF_MARK.decode())


@register.simple_tag
def messages_here():
    return mark_safe(MESSAGES_MARK.decode())


@register.simple_tag
def open_reports_here():
    return mark_safe(REPORTS_MARK.decode())
