"""The tests' own layout: tests mirror the code, each helper is defined once, and no test module
imports another test module or a conftest.

Tests live in the folder of the code they test (``tests/engine/`` for ``ratings/engine/``,
``tests/events/`` for ``ratings/events/``...), not in a file named after the issue or walkthrough
that prompted them. Helpers shared by several test modules live in tests/builders.py
(tests/e2e/builders.py for the browser tests, tests/views/pages.py for the pages' URLs and query
counts) or are fixtures in a conftest; a test module that imports another one runs that module's
tests' imports and fixtures too, and hides a helper where nobody looks for it.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent
CODE = TESTS.parent / "ratings"
# Names of a grab-bag or of the occasion, not of the code under test.
OCCASION = re.compile(r"^test_(issue|round|misc|small_things|regression|walkthrough|review)")


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


# Tests by code area ------------------------------------------------------------------------------


def misplaced(tests: Path, code: Path) -> list[str]:
    """Test files directly under ``tests`` named for a code package that has its own folder of
    tests (``test_events_x.py`` beside ``tests/events/``): they belong in that folder."""
    folders = {
        folder.name
        for folder in tests.iterdir()
        if (folder / "__init__.py").exists() and (code / folder.name).is_dir()
    }
    found = []
    for path in sorted(tests.glob("test_*.py")):
        name = path.stem.removeprefix("test_")
        for folder in folders:
            # The package's name or its singular: test_event_backup.py is the events' too.
            if any(name == n or name.startswith(f"{n}_") for n in {folder, folder.rstrip("s")}):
                found.append(f"{path.name} belongs in {tests.name}/{folder}/")
    return found


def test_no_test_file_beside_the_folder_of_its_code():
    assert misplaced(TESTS, CODE) == []


def test_no_test_file_is_named_after_an_occasion():
    named = [
        str(path.relative_to(TESTS.parent))
        for path in checked_modules()
        if OCCASION.match(path.stem)
    ]
    assert named == []


def test_the_layout_check_sees_a_test_file_beside_its_folder(tmp_path):
    tests, code = tmp_path / "tests", tmp_path / "ratings"
    for folder in (tests / "events", code / "events", tests / "e2e"):
        folder.mkdir(parents=True)
    (tests / "events" / "__init__.py").touch()
    (tests / "e2e" / "__init__.py").touch()
    for name in ("test_events_x.py", "test_event_backup.py", "test_eventful.py", "test_e2e.py"):
        (tests / name).touch()
    assert misplaced(tests, code) == [
        "test_event_backup.py belongs in tests/events/",
        "test_events_x.py belongs in tests/events/",
    ]


# One copy of each helper -------------------------------------------------------------------------


def helpers(path: Path) -> list[str]:
    """The top-level functions of a module that are neither tests nor fixtures."""
    return [
        node.name
        for node in ast.parse(path.read_text(), str(path)).body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and not node.name.startswith("test_")
        and not any("fixture" in ast.unparse(d) for d in node.decorator_list)
    ]


def copied_helpers(modules: list[Path], shared: Path) -> dict[str, list[str]]:
    """Helper names defined in more than one test module, or in a test module and in ``shared``
    (tests/builders.py): a copy, or a second helper under the first one's name. Fixtures may
    share a name (a module overrides a conftest's), tests may too (each module's own)."""
    where = defaultdict(list)
    for path in [shared, *modules]:
        for name in helpers(path):
            where[name].append(str(path.relative_to(shared.parent.parent)))
    return {name: paths for name, paths in where.items() if len(paths) > 1}


def test_no_helper_is_defined_twice():
    """Move a shared helper to tests/builders.py, or name each for what it does."""
    assert copied_helpers(checked_modules(), TESTS / "builders.py") == {}


def test_the_copy_check_sees_a_helper_copied_or_shadowing_a_builder(tmp_path):
    tests = tmp_path / "tests"
    (tests / "views").mkdir(parents=True)
    (tests / "builders.py").write_text("def make_club():\n    pass\n")
    copy = "import pytest\n\ndef in_language(client, code):\n    return client\n"
    (tests / "test_a.py").write_text(copy + "\n@pytest.fixture\ndef league():\n    pass\n")
    (tests / "views" / "test_b.py").write_text(copy + "\ndef make_club():\n    pass\n")
    (tests / "views" / "test_c.py").write_text(
        "import pytest\n\n@pytest.fixture\ndef league():\n    pass\n\ndef test_it():\n    pass\n"
    )
    modules = sorted(tests.rglob("test_*.py"))
    assert copied_helpers(modules, tests / "builders.py") == {
        "in_language": ["tests/test_a.py", "tests/views/test_b.py"],
        "make_club": ["tests/builders.py", "tests/views/test_b.py"],
    }
