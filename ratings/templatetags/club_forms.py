"""The error summary at the top of a form that failed (``templates/ratings/error_summary.html``),
and the options of a field's list of names (:func:`name_options`).

Modelled on the GOV.UK design system's error summary: after a failed submit the page opens on a
box that lists every problem once, each a link to the field it is about, and that box takes the
focus (``static/forms.js``, and ``autofocus`` for a browser without scripts). The fields keep
their own message beside them, tied to them by ``aria-describedby`` (Django adds it, with
``aria-invalid``, to a field with errors).

A form's non-field errors link to a field too when their code says which:
``form.error_targets`` maps an error code to a field name (the Preferans paper's middle-column
sum goes to the first Middle box); :data:`DEFAULT_TARGETS` does the same for Django's own forms
(a wrong password goes to the username). A form names its fields in the summary with
``form.error_label(name)`` when a label alone is ambiguous ("Left" in which seat?).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from django import forms, template
from django.forms.forms import NON_FIELD_ERRORS
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

# Non-field error codes of Django's forms (login, password reset) and the field each is about.
DEFAULT_TARGETS = {
    "invalid_login": "username",
    "inactive": "username",
}


@dataclass(frozen=True)
class ErrorItem:
    """One line of the summary: the message, the field's name in words, and its link."""

    message: str
    label: str = ""
    href: str = ""


def _anchor(bound: forms.BoundField) -> str:
    # A radio group's label points nowhere (Django leaves it without "for"): its first choice.
    target = bound.id_for_label or (f"{bound.auto_id}_0" if bound.auto_id else "")
    return f"#{target}" if target else ""


def _label(form: forms.Form, bound: forms.BoundField) -> str:
    label = getattr(form, "error_label", None)
    return str(label(bound.name) if label else bound.label or "")


def error_items(form: object) -> list[ErrorItem]:
    """Every error of a bound form, once each: non-field errors first, then the fields' in the
    form's order, each with a link to its field where there is one."""
    if not isinstance(form, forms.BaseForm) or not form.is_bound or not form.errors:
        return []
    targets = {**DEFAULT_TARGETS, **getattr(form, "error_targets", {})}
    items = []
    for error in form.errors.as_data().get(NON_FIELD_ERRORS, []):
        target = targets.get(error.code)
        bound = form[target] if target in form.fields else None
        for message in error:
            items.append(ErrorItem(str(message), href=_anchor(bound) if bound else ""))
    for bound in form:
        for message in bound.errors:
            if bound.is_hidden:  # nothing to link to or fix by hand: say it plainly
                items.append(ErrorItem(str(message)))
            else:
                items.append(ErrorItem(str(message), _label(form, bound), _anchor(bound)))
    return items


@register.simple_tag
def form_error_items(*forms_shown: object) -> list[ErrorItem]:
    """``{% form_error_items form other_form as items %}``: the summary's lines for the forms
    of a page (anything else, such as a variable the page does not have, adds none)."""
    return [item for form in forms_shown for item in error_items(form)]


@register.simple_tag
def name_options(names) -> SafeString:
    """A ``<datalist>``'s options, one ``<option>`` per name, escaped as Django escapes (it
    calls the same ``html.escape``), in one pass: a template loop over a club's thousands of
    names, or ``format_html`` for each, would cost more than the rest of the games list."""
    return mark_safe("".join([f'<option value="{escape(name)}">' for name in names]))
