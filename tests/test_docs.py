"""The README and docs/ stay short, current and connected: every relative link leads to a file
(and heading) that exists, every path they name is in the repository, and the README's
configuration table lists every variable the settings read."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCUMENTS = [README, *sorted((ROOT / "docs").glob("*.md"))]
README_MAX_LINES = 200

# [text](target) and ![alt](target), not inside code.
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
# `ratings/engine/`, `tests/builders.py`, `bench/run.py`...: a path in the repository.
TOP = ("ratings", "club", "tests", "bench", "scripts", "static", "templates", "locale", "docs")
PATH = re.compile(r"`((?:" + "|".join(TOP) + r")/[\w./-]*)`")


def without_code_blocks(text: str) -> str:
    """The text without its indented code blocks (commands, file excerpts)."""
    return "\n".join(line for line in text.splitlines() if not line.startswith("    "))


def anchors(document: Path) -> set[str]:
    """GitHub's anchors for the headings of a Markdown file."""
    found = set()
    for line in document.read_text().splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            title = re.sub(r"[^\w\- ]", "", title)
            found.add(title.replace(" ", "-"))
    return found


def links(document: Path) -> list[str]:
    return LINK.findall(without_code_blocks(document.read_text()))


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_relative_link_leads_to_a_file_and_heading_that_exist(document):
    broken = []
    for target in links(document):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        path, _hash, anchor = target.partition("#")
        file = (document.parent / path).resolve() if path else document
        if not file.exists() or (anchor and file.suffix == ".md" and anchor not in anchors(file)):
            broken.append(target)
    assert broken == []


# docs/ARCHITECTURE.md's code map is the layout's to keep (issue 26, point 8); its links are
# checked above.
@pytest.mark.parametrize(
    "document", [d for d in DOCUMENTS if d.name != "ARCHITECTURE.md"], ids=lambda path: path.name
)
def test_every_path_named_is_in_the_repository(document):
    # A template may be named as the template loader names it (`ratings/game_paper.html`).
    missing = [
        path
        for path in PATH.findall(document.read_text())
        if "*" not in path
        and not any((base / path.rstrip(".")).exists() for base in (ROOT, ROOT / "templates"))
    ]
    assert missing == []


def test_the_readme_is_short():
    assert len(README.read_text().splitlines()) < README_MAX_LINES


def settings_variables() -> set[str]:
    """Every environment variable club/settings.py reads by name."""
    tree = ast.parse((ROOT / "club" / "settings.py").read_text())
    readers = {"env_bool", "env_int", "env_list", "get"}
    found = {"DATABASE_URL"}  # read by dj_database_url.config()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args:
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            first = node.args[0]
            if (
                name in readers
                and isinstance(first, ast.Constant)
                and isinstance(first.value, str)
                and first.value.isupper()
            ):
                found.add(first.value)
    return found


def test_the_readme_lists_every_variable_the_settings_read():
    table = README.read_text().split("## Configuration", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `([A-Z_]+)`(?:, `([A-Z_]+)`)?", table, re.MULTILINE))
    names = {name for pair in listed for name in pair if name}
    assert settings_variables() - names == set()
    assert "SECRET_KEY" in settings_variables()
