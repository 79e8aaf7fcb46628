"""The tests' own layout: no test module imports another test module or a conftest.

Helpers shared by several test modules live in tests/builders.py (tests/e2e/builders.py for the
browser tests, tests/views/pages.py for the pages' URLs and query counts) or are fixtures in a
conftest; a test module that imports another one runs that module's tests' imports and fixtures
too, and hides a helper where nobody looks for it.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def is_test_module(name: str) -> bool:
    """``tests.views.test_pages`` or ``tests.conftest``: a module pytest collects or loads."""
    last = name.rsplit(".", 1)[-1]
    return last.startswith("test_") or last == "conftest"


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(TESTS.parent).with_suffix("").parts)


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """Every module ``path`` imports, as (line, dotted name), relative imports resolved; a
    ``from package import name`` counts ``package.name`` too (it may be a module)."""
    package = module_name(path).rsplit(".", 1)[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")
                parent = parent[: len(parent) - (node.level - 1)]
                base = ".".join([*parent, base] if base else parent)
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def checked_modules() -> list[Path]:
    return sorted(
        path
        for path in TESTS.rglob("*.py")
        if is_test_module(path.stem) and "vectors" not in path.parts
    )


def test_no_test_module_imports_another_test_module_or_a_conftest():
    offences = [
        f"{path.relative_to(TESTS.parent)}:{line} imports {name}"
        for path in checked_modules()
        for line, name in imported_modules(path)
        if name.startswith("tests.") and is_test_module(name)
    ]
    assert offences == []


def test_the_check_sees_each_way_of_importing_a_test_module(tmp_path, monkeypatch):
    """Absolute and relative, module and name: each is found (the check is not a regex)."""
    package = tmp_path / "tests" / "views"
    package.mkdir(parents=True)
    module = package / "test_example.py"
    module.write_text(
        "import tests.test_engine\n"
        "from tests import conftest\n"
        "from tests.views.test_pages import text\n"
        "from .test_tables import club_tables\n"
        "from . import test_seasons\n"
        "from ..conftest import T0\n"
        "from .pages import QUERIES\n"
        "from tests.builders import T0\n"
    )
    monkeypatch.setattr(f"{__name__}.TESTS", tmp_path / "tests")
    names = {name for _line, name in imported_modules(module) if is_test_module(name)}
    assert names == {
        "tests.test_engine",
        "tests.conftest",
        "tests.views.test_pages",
        "tests.views.test_tables",
        "tests.views.test_seasons",
    }
