"""The shape of the code, checked: the rules docs/ARCHITECTURE.md states, so a change that breaks
one fails here instead of in review."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RATINGS = ROOT / "ratings"
TEMPLATES = ROOT / "templates"


def sources(folder: Path, *, skip: tuple[str, ...] = ()) -> dict[str, str]:
    found = {}
    for path in sorted(folder.rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        if "/migrations/" in name or any(name.startswith(prefix) for prefix in skip):
            continue
        found[name] = path.read_text(encoding="utf-8")
    return found


def test_the_algorithms_import_no_django():
    for name, text in sources(RATINGS / "algorithms").items():
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                modules = [node.module or ""]
            else:
                continue
            for module in modules:
                assert not module.startswith(("django", "ratings.models")), (name, module)


def algorithm_imports() -> dict[str, set[str]]:
    """Each module of ratings/algorithms/ and the modules of the package it imports."""
    package = "ratings.algorithms"
    found: dict[str, set[str]] = {}
    for path in sorted((RATINGS / "algorithms").glob("*.py")):
        imported = found.setdefault(path.stem, set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == package:
                imported.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(package + "."):
                imported.add(node.module.removeprefix(package + "."))
            elif isinstance(node, ast.Import):
                imported.update(
                    alias.name.removeprefix(package + ".")
                    for alias in node.names
                    if alias.name.startswith(package + ".")
                )
    return found


def test_the_algorithms_import_each_other_one_way():
    """A module split along a seam imports the other half, never back (rayter_format.py imports
    rayter.py, seating.py imports seating_plan.py): no import cycles among the algorithms."""
    imports = algorithm_imports()
    assert "rayter" in imports["rayter_format"]
    assert "seating_plan" in imports["seating"]

    def reaches(start: str, target: str, seen: set[str]) -> bool:
        for module in imports.get(start, ()):
            if module == target or (
                module not in seen and reaches(module, target, seen | {module})
            ):
                return True
        return False

    cycles = sorted(name for name in imports if reaches(name, name, set()))
    assert cycles == []


# What writing a rating looks like in this code base: the rating columns assigned or updated,
# or a standing made or changed.
RATING_WRITES = re.compile(
    r"rating_(before|after)\s*=(?!=)(?!\s*(models|tables)\.)"
    r"|\.update\([^)]*\b(rating|rating_before|rating_after|peak_rating)\s*="
    r"|Standing\.objects\.(create|bulk_create|update|get_or_create|update_or_create)\("
    r"|Standing\(\s*league"
)
# restore_club loads a backup's stored ratings as they are (ratings/backup/restore.py), then
# replays every league through the engine and refuses any difference (ratings/backup/checks.py).
MAY_LOAD_STORED_RATINGS = ("ratings/backup/restore.py",)


def test_only_the_engine_writes_ratings():
    others = sources(RATINGS, skip=("ratings/engine/", *MAY_LOAD_STORED_RATINGS))
    writers = {
        name: match.group(0)
        for name, text in others.items()
        for match in [RATING_WRITES.search(text)]
        if match
    }
    assert writers == {}


def test_no_module_switches_on_a_system_or_kind_code():
    """Every rule of a system lives on its RatingSystem (ratings/systems.py): code asks
    ``league.rating_system`` instead of comparing codes."""
    switch = re.compile(
        r"(\.system|\.kind)\s*(==|!=|in)\s*(System\.|Kind\.|[\"'(\[])"
        r"|(==|!=)\s*(System|Kind)\.|(kind|system)\s*==\s*[\"'](preferans|scored|duel|prefko|elo|fide|rayter)"
    )
    found = {
        name: match.group(0)
        for name, text in sources(RATINGS, skip=("ratings/systems.py",)).items()
        for match in [switch.search(text)]
        if match
    }
    for path in sorted(TEMPLATES.rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        match = re.search(r"\.(kind|system)\s*==", text)
        if match:
            found[path.relative_to(ROOT).as_posix()] = match.group(0)
    assert found == {}


def test_rows_are_locked_only_after_the_writers_lock():
    """``select_for_update`` only through ratings.versioning.lock_rows, which takes the data
    version's row first: every writer takes the locks in one order, so none waits for another
    that waits for it (the lock order in ratings/versioning.py)."""
    for name, text in sources(RATINGS, skip=("ratings/versioning.py",)).items():
        assert "select_for_update" not in text, f"{name}: lock rows with versioning.lock_rows"


def test_pages_leave_the_csrf_token_to_the_page_cache():
    """A page drawn once serves every visitor: each form's token is a mark filled in per
    visitor ({% csrf_input %}, ratings.page_cache), never one visitor's token in the page."""
    for path in TEMPLATES.rglob("*.html"):
        if "admin" in path.relative_to(TEMPLATES).parts:
            continue  # the admin's pages are never cached
        assert "{% csrf_token %}" not in path.read_text(encoding="utf-8"), path
