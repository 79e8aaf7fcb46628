"""Template strings with a percent sign are found in the catalogs.

``{% translate "... 70% ..." %}`` looks its msgid up with the percent doubled ("70%%"), as
makemessages writes it; an entry appended by hand with a single "%" is never found, and the page
shows the English sentence in every language (the backtest page's calibration hint did).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template import Context, Template
from django.utils import translation

TEMPLATES = Path(settings.BASE_DIR) / "templates"
LITERAL = re.compile(r"""\{%\s*(?:translate|trans)\s+"([^"]*%[^"]*)"\s*%\}""")
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != "en"]


def percent_literals() -> list[str]:
    return sorted(
        {
            text
            for path in TEMPLATES.rglob("*.html")
            for text in LITERAL.findall(path.read_text(encoding="utf-8"))
        }
    )


def test_there_are_strings_to_check():
    assert percent_literals()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_template_string_with_a_percent_sign_is_translated(language):
    untranslated = []
    for text in percent_literals():
        with translation.override(language):
            shown = Template('{% load i18n %}{% translate "' + text + '" %}').render(Context())
        if shown == text or "%%" in shown:
            untranslated.append(text)
    assert untranslated == []
