"""Template comments stay comments.

Django's ``{# ... #}`` ends at the end of its line: one spread over two lines is printed on the
page as text (the entry page's preview showed its own comment to members). A comment of more
than one line is ``{% comment %} ... {% endcomment %}``.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

TEMPLATES = Path(settings.BASE_DIR) / "templates"


def test_no_template_comment_runs_over_two_lines():
    broken = [
        f"{path.relative_to(TEMPLATES)}:{number}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if "{#" in line and "#}" not in line[line.index("{#") :]
    ]
    assert broken == []
