"""How the site's forms draw a field: Django's own templates, read through the project's
template settings, with one change of ours (``templates/forms/field.html``)."""

from django.forms.renderers import TemplatesSetting


class ClubFormRenderer(TemplatesSetting):
    # A checkbox's label follows the box and reads as a sentence: no colon after it.
    field_template_name = "forms/field.html"
