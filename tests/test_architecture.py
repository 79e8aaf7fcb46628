"""The shape of the code, checked: the rules docs/ARCHITECTURE.md states, so a change that breaks
one fails here instead of in review."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

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


# The layers of docs/ARCHITECTURE.md, lowest first: a module imports only from its own layer or
# the layers below it. Every module of ratings/ is in one (the longest prefix decides), so a new
# module needs a decision, and the layer's place says what it may use.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("pure mathematics", ("ratings.algorithms",)),
    (
        "pure helpers",
        (
            "ratings.formatting",
            "ratings.names",
            "ratings.links",
            "ratings.dates",
            "ratings.player_names",
            "ratings.voice.masking",
            "ratings.page_gzip",
        ),
    ),
    ("rules", ("ratings.systems",)),
    (
        "data",
        (
            "ratings.models",
            "ratings.entry.models",
            "ratings.events.models",
            "ratings.events.signals",
            "ratings.papers.models",
            "ratings.voice.models",
            "ratings.versioning",
            # the worker's queue and its recurring work: the tasks framework's rows
            "ratings.worker",
            "ratings.accounts.models",
        ),
    ),
    (
        "reads",
        (
            "ratings.selectors",
            "ratings.events.selectors",
            "ratings.events.access",
            "ratings.events.tonight",
            "ratings.events.answers",
            "ratings.papers.selectors",
            "ratings.papers.statistics",
            "ratings.entry.selectors",
            "ratings.access",
            "ratings.exports",
            # who a typed name is: the one name policy of the entry, the events' and the paper's
            "ratings.typed_names",
            # what a chat post or the digest says
            "ratings.voice.texts",
        ),
    ),
    ("writes", ("ratings.engine",)),
    (
        "services over the engine",
        (
            # the one way in for a game: it records through the engine and events' tables
            "ratings.entry",
            "ratings.events.services",
            "ratings.events.planning",
            "ratings.events.merging",
            "ratings.papers.merging",
            "ratings.papers.services",
            "ratings.accounts.services",
            "ratings.accounts.merging",
            "ratings.rayter",
            "ratings.backup",
            "ratings.backtest",
            # rates hypothetical games with the engine's state types (a place's change)
            "ratings.chances",
            # the club's voice: channels, the outbox and its sending, the digest, their tasks,
            # and the receivers of the game's and the nights' signals that queue them
            "ratings.voice",
        ),
    ),
    (
        "forms and display",
        (
            "ratings.forms",
            # the name field and the "Did you mean" suggestion of every feature's forms
            "ratings.form_fields",
            "ratings.events.forms",
            "ratings.papers.forms",
            "ratings.accounts.forms",
            "ratings.tables",
            "ratings.events.tables",
            "ratings.events.qr",
            "ratings.events.calendar",
            "ratings.charts",
            "ratings.page_cache",
            "ratings.static_build",
            "ratings.download_cache",
            "ratings.throttling",
            "ratings.pagination",
            "ratings.templatetags",
            "ratings.voice.forms",
        ),
    ),
    (
        "entry points",
        (
            "ratings.views",
            "ratings.api",
            "ratings.admin",
            "ratings.entry.admin",
            "ratings.events.admin",
            "ratings.papers.admin",
            "ratings.accounts.views",
            "ratings.accounts.admin",
            "ratings.management",
            "ratings.urls",
            "ratings.apps",
            "ratings.auth",
            "ratings.context_processors",
            "ratings.voice.views",
            "ratings.voice.admin",
        ),
    ),
]
# Packages whose __init__ only documents or re-exports: no layer of their own.
PACKAGES_ONLY = ("ratings", "ratings.events", "ratings.papers", "ratings.accounts")
# The engine is used through ratings.engine's names; these reach into one of its modules, why:
ENGINE_MODULES_USED_BY = {
    # restore_club writes a backup's stored rows with the engine's bulk insert, then the
    # results' copies of their games.
    "ratings.backup.restore": {"ratings.engine.sql", "ratings.engine.writes"},
    # the import checks a file's times against the engine's latest allowed moment, once a file.
    "ratings.rayter.files": {"ratings.engine.validation"},
}


def module_files() -> dict[str, Path]:
    """Every module of ratings/ (migrations aside), by dotted name; a package by its own name."""
    found = {}
    for path in sorted(RATINGS.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if "migrations" in parts:
            continue
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of ratings/ that ``name`` imports, at module level, in a function, or for
    type checking only (``if TYPE_CHECKING:``): such an import never runs, but it ties the two
    modules all the same (a reader, a type checker, a refactoring follows it)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def known(dotted: str) -> str | None:
        while dotted and dotted not in modules:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                found.update(filter(None, (known(alias.name) for alias in child.names)))
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    parent = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join([*parent, *([base] if base else [])])
                for alias in child.names:
                    # "from ratings.selectors import statistics" imports the module statistics.
                    target = (
                        known(f"{base}.{alias.name}")
                        if f"{base}.{alias.name}" in modules
                        else known(base)
                    )
                    if target:
                        found.add(target)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    found.discard(name)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = module_files()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def layer_of(module: str) -> int | None:
    best = None
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (
                best is None or len(prefix) > len(best[1])
            ):
                best = (index, prefix)
    return best[0] if best else None


def test_the_import_graph_has_no_cycle():
    """Not even through an import inside a function: a module imports downwards only, so each
    can be read, tested and imported without the ones above it."""
    graph = import_graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles = []

    def connect(module: str) -> None:  # Tarjan's strongly connected components
        index[module] = low[module] = len(index)
        stack.append(module)
        for imported in sorted(graph[module]):
            if imported not in index:
                connect(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            connect(module)
    assert cycles == []


def test_every_module_has_a_layer():
    unplaced = [
        module
        for module in import_graph()
        if module not in PACKAGES_ONLY and layer_of(module) is None
    ]
    assert unplaced == [], "add each to LAYERS (and to docs/ARCHITECTURE.md)"


# The core, which every feature builds on, and the features, each a package owning its models,
# forms, services and reads (docs/ARCHITECTURE.md): the core never imports a feature, so a
# feature can be read, changed or removed without the core knowing. A feature's rows take part
# in a core service through a hook it adds itself (engine.MergePart, in ratings/apps.py).
CORE = (
    "ratings.algorithms",
    "ratings.formatting",
    "ratings.names",
    "ratings.links",
    "ratings.dates",
    "ratings.player_names",
    "ratings.systems",
    "ratings.models",
    "ratings.versioning",
    "ratings.selectors",
    "ratings.access",
    "ratings.typed_names",
    "ratings.engine",
)
FEATURES = (
    "ratings.entry",
    "ratings.events",
    "ratings.papers",
    "ratings.accounts",
    "ratings.api",
    "ratings.rayter",
    "ratings.backup",
    "ratings.voice",
)


def in_any(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes)


def test_the_core_imports_no_feature():
    offences = sorted(
        f"{module} imports {imported}"
        for module, imports in import_graph().items()
        if in_any(module, CORE)
        for imported in imports
        if in_any(imported, FEATURES)
    )
    assert offences == []


def test_nothing_imports_upwards():
    """The algorithms know no Django and nothing above them, the data knows no engine, reads
    never import writes, the engine knows no forms, views or admin, and nothing below the views
    imports them."""
    upwards = sorted(
        f"{module} ({LAYERS[layer_of(module)][0]}) imports {imported} "
        f"({LAYERS[layer_of(imported)][0]})"
        for module, imported_modules in import_graph().items()
        if module not in PACKAGES_ONLY
        for imported in imported_modules
        if imported not in PACKAGES_ONLY and layer_of(imported) > layer_of(module)
    )
    assert upwards == []


def test_the_algorithms_import_only_the_algorithms():
    outside = {
        module: sorted(imported for imported in imported_modules if layer_of(imported) != 0)
        for module, imported_modules in import_graph().items()
        if layer_of(module) == 0
    }
    assert {module: found for module, found in outside.items() if found} == {}


def test_the_engine_is_used_through_its_package():
    """Callers use ``ratings.engine``'s names; its modules are its own business (the exceptions
    are named, with their reason, in ENGINE_MODULES_USED_BY)."""
    reaching_in = {
        module: sorted(
            imported
            for imported in imported_modules
            if imported.startswith("ratings.engine.")
            and imported not in ENGINE_MODULES_USED_BY.get(module, ())
        )
        for module, imported_modules in import_graph().items()
        if not module.startswith("ratings.engine")
    }
    assert {module: found for module, found in reaching_in.items() if found} == {}


def test_no_module_imports_another_modules_private_names():
    """A name starting with an underscore is its module's own: another module that needs it
    needs a public name (or the helper belongs somewhere both import)."""
    found = []
    for name, path in module_files().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ratings"):
                found += [
                    f"{name}: {node.module}.{alias.name}"
                    for alias in node.names
                    if alias.name.startswith("_")
                ]
    assert found == []


def code_map() -> dict[str, str]:
    """docs/ARCHITECTURE.md's code map: each row's path and the rest of its row."""
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = text.split("## Code map", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        match = re.match(r"\| `([^`]+)` \|(.*)", line)
        if match:
            rows[match.group(1)] = match.group(2)
    return rows


def test_every_module_is_in_the_code_map():
    """A module of ratings/ has a row of its own, or its package's row names its file."""
    rows = code_map()
    missing = []
    for path in sorted(RATINGS.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if "/migrations/" in relative:
            continue
        folder = relative.rpartition("/")[0] + "/"
        if path.name == "__init__.py":
            if not any(row.startswith(folder) for row in rows):
                missing.append(relative)
        elif relative not in rows and f"`{path.name}`" not in rows.get(folder, ""):
            missing.append(relative)
    assert missing == []


def test_the_architecture_names_only_what_exists():
    """Every path the architecture document names is in the repository (so a moved module
    leaves no stale row behind), and it links to nothing outside it."""
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    assert "../" not in text
    named = set(
        re.findall(r"`((?:ratings|tests|templates|static|club|bench|scripts|docs)/[^`\s]*)`", text)
    )
    stale = [path for path in named if "<" not in path and not (ROOT / path.rstrip("/")).exists()]
    assert sorted(stale) == []


# What writing a rating looks like in this code base: the rating columns assigned or updated,
# or a standing made or changed.
RATING_WRITES = re.compile(
    r"rating_(before|after)\s*=(?!=)(?!\s*(models|tables)\.)"
    r"|\.update\([^)]*\b(rating|rating_before|rating_after|peak_rating|state)\s*="
    r"|Standing\.objects\.(create|bulk_create|update|get_or_create|update_or_create)\("
    r"|Standing\(\s*league"
)
# restore_club loads a backup's stored ratings as they are (ratings/backup/restore.py), then
# replays every league through the engine and refuses any difference (ratings/backup/checks.py).
MAY_LOAD_STORED_RATINGS = ("ratings/backup/restore.py",)


# The fields a rating write sets: the ratings, and the state a system keeps beside them.
RATING_FIELDS = frozenset({"rating", "rating_before", "rating_after", "peak_rating", "state"})


def _names_a_rating_field(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value in RATING_FIELDS


def rating_writes_by_name(source: str) -> list[str]:
    """Writes of a rating field that name it as a string, which the regular expression above
    cannot see: ``setattr(result, "rating_after", …)``, ``.update(**{"rating": …})`` and
    ``.update(**dict(state=…))``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, ast.Name) and node.func.id == "setattr":
            write = len(node.args) > 1 and _names_a_rating_field(node.args[1])
        elif isinstance(node.func, ast.Attribute) and node.func.attr in ("update", "create"):
            spread = [keyword.value for keyword in node.keywords if keyword.arg is None]
            write = any(
                (isinstance(value, ast.Dict) and any(map(_names_a_rating_field, value.keys)))
                or (
                    isinstance(value, ast.Call)
                    and isinstance(value.func, ast.Name)
                    and value.func.id == "dict"
                    and any(keyword.arg in RATING_FIELDS for keyword in value.keywords)
                )
                for value in spread
            )
        else:
            write = False
        if write:
            found.append(f"line {node.lineno}: {ast.unparse(node)[:80]}")
    return found


@pytest.mark.parametrize(
    "source",
    [
        'setattr(result, "rating_after", 1200)',
        'Result.objects.filter(pk=1).update(**{"rating_before": 1000})',
        "Standing.objects.filter(pk=1).update(**dict(state=None))",
        'standings.update(**{"peak_rating": 1})',
    ],
)
def test_every_way_of_writing_a_rating_by_its_name_is_found(source):
    assert rating_writes_by_name(source) != []


def test_only_the_engine_writes_ratings():
    others = sources(RATINGS, skip=("ratings/engine/", *MAY_LOAD_STORED_RATINGS))
    writers = {
        name: match.group(0)
        for name, text in others.items()
        for match in [RATING_WRITES.search(text)]
        if match
    }
    writers |= {
        name: found
        for name, text in others.items()
        for found in [rating_writes_by_name(text)]
        if found
    }
    assert writers == {}


def _system_codes() -> set[str]:
    """The System and Kind codes and the RatingSystem classes, read from ratings/systems/."""
    body = [
        node
        for path in sorted((RATINGS / "systems").glob("*.py"))
        for node in ast.parse(path.read_text(encoding="utf-8")).body
    ]
    codes, classes = set(), set()
    for node in body:
        if isinstance(node, ast.ClassDef) and node.name in ("System", "Kind"):
            for statement in node.body:
                if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Tuple):
                    first = statement.value.elts[0]
                    if isinstance(first, ast.Constant) and isinstance(first.value, str):
                        codes.add(first.value)
        elif isinstance(node, ast.ClassDef) and node.name not in ("System", "Kind", "Speed"):
            classes.add(node.name)
    return codes, classes - {"RatingSystem"}


SYSTEM_CODES, SYSTEM_CLASSES = _system_codes()


# Methods that look a key up (a code as their first argument is a code used as a key), and the
# built-ins that take an attribute's name.
KEYED_LOOKUPS = ("get", "pop", "setdefault", "__getitem__", "__contains__")
ATTRIBUTE_CALLS = ("getattr", "setattr", "hasattr", "delattr")


def _names_a_system(node: ast.AST) -> bool:
    """A system or kind as a constant: ``System.ELO``, ``Kind.DUEL``, ``"prefko"``, or a
    collection of them."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.value.id in ("System", "Kind")
    if isinstance(node, ast.Constant):
        return node.value in SYSTEM_CODES
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_a_system(element) for element in node.elts)
    return False


def _part_of_a_code(node: ast.AST) -> bool:
    """A string constant that begins a system's code (``"rayter"``, ``"openskill_"``)."""
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and bool(node.value)
        and any(code.startswith(node.value) for code in SYSTEM_CODES)
    )


def _reads_a_code(node: ast.AST) -> bool:
    """A league's or system's code: ``league.system``, ``league.kind``, ``system.code``."""
    return isinstance(node, ast.Attribute) and node.attr in ("system", "kind", "code")


def system_switches(source: str) -> list[str]:
    """The places in ``source`` that decide by which system or kind a league has, instead of
    asking its RatingSystem: a comparison with a code, a ``match`` on one, a table looked up by
    one (or keyed by System members), an ``isinstance`` with a RatingSystem class, a prefix test
    of a code, or a name built from one."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            parts = (node.left, *node.comparators)
            switch = any(_names_a_system(part) for part in parts) or (
                # "rayter" in league.system: a code's part against a code.
                any(_reads_a_code(part) for part in parts)
                and any(_part_of_a_code(part) for part in parts)
            )
        elif isinstance(node, ast.Match):
            switch = _reads_a_code(node.subject) or any(
                isinstance(case.pattern, ast.MatchValue) and _names_a_system(case.pattern.value)
                for case in node.cases
            )
        elif isinstance(node, ast.Subscript):
            # RATERS[league.system], and SYSTEMS["elo"]: a table looked up by a code, or one
            # system picked out by its code.
            switch = _reads_a_code(node.slice) or _names_a_system(node.slice)
        elif isinstance(node, ast.Dict):
            switch = any(key is not None and _names_a_system(key) for key in node.keys)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            switch = (
                node.func.id == "isinstance"
                and any(
                    isinstance(name, ast.Name) and name.id in SYSTEM_CLASSES
                    for name in ast.walk(node.args[-1])
                )
            ) or (
                # getattr(rules, "elo"), setattr(..., System.FIDE, ...): a code as a name.
                node.func.id in ATTRIBUTE_CALLS
                and len(node.args) > 1
                and _names_a_system(node.args[1])
            )
        elif isinstance(node, ast.keyword):
            # rules(elo=...) or dict(prefko=...): a code as a keyword, a key by another name.
            switch = node.arg in SYSTEM_CODES
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            switch = (
                node.func.attr in ("startswith", "endswith") and _reads_a_code(node.func.value)
            ) or (
                # table.get("elo"), table.pop(System.FIDE): a code used as a key.
                node.func.attr in KEYED_LOOKUPS
                and bool(node.args)
                and _names_a_system(node.args[0])
            )
        elif isinstance(node, ast.JoinedStr):
            switch = any(
                isinstance(part, ast.FormattedValue) and _reads_a_code(part.value)
                for part in node.values
            )
        else:
            switch = False
        if switch:
            found.append(f"line {node.lineno}: {ast.unparse(node)[:80]}")
    return found


@pytest.mark.parametrize(
    "source",
    [
        'if league.system == "elo": pass',
        'if league.system in ("elo", "fide"): pass',
        "if System.ELO == league.system: pass",
        "if league.kind is not Kind.DUEL: pass",
        'if league.rating_system.code == "prefko": pass',
        'code = league.system\nif code != "rayter_winnertakesall": pass',
        'match league.system:\n    case "elo": pass',
        "rate = {System.ELO: elo, System.FIDE: fide}[league.system]",
        "rate = RATERS[league.system]",
        "if isinstance(league.rating_system, FideElo): pass",
        'if league.system.startswith("rayter"): pass',
        'getattr(self, f"rate_{league.system}")()',
        'k = SYSTEMS["elo"].pair_chance(a, b)',
        "system = SYSTEMS[System.OPENSKILL_LOWSCORE]",
        'rate = RATERS.get("fide")',
        'setattr(rules, "prefko", rate)',
        "k = getattr(settings, System.ELO)",
        "rules = dict(rayter_lowscore=rate)",
        'rules = {"openskill_highscore": rate}',
        'if "rayter" in league.system: pass',
    ],
)
def test_every_way_of_switching_on_a_system_is_found(source):
    assert system_switches(source) != []


@pytest.mark.parametrize(
    "source",
    [
        "if league.rating_system.keeps_state: pass",
        "rate = league.rating_system.rater(league, births)",
        'k = league.system_settings["elo_k"]',
        'stored = SYSTEMS[league_row["system"]]',
        "label = System(code).label",
    ],
)
def test_asking_the_system_is_no_switch(source):
    assert system_switches(source) == []


# Where system codes are at home: the systems' own module (the migrations, which keep the history
# they were written in, are never among the sources read).
SYSTEMS_OWN = ("ratings/systems/",)


def test_no_module_switches_on_a_system_or_kind_code():
    """Every rule of a system lives on its RatingSystem (ratings/systems/): code asks
    ``league.rating_system`` instead of comparing codes (read with ``ast``: a regular expression
    missed most ways of writing it)."""
    found = {
        name: switches
        for name, text in sources(RATINGS, skip=SYSTEMS_OWN).items()
        for switches in [system_switches(text)]
        if switches
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
    that waits for it (the lock order in ratings/versioning/__init__.py)."""
    # lock_rows's module, and the package's design, which names select_for_update.
    skip = ("ratings/versioning/locks.py", "ratings/versioning/__init__.py")
    for name, text in sources(RATINGS, skip=skip).items():
        assert "select_for_update" not in text, f"{name}: lock rows with versioning.lock_rows"


def test_pages_leave_the_csrf_token_to_the_page_cache():
    """A page drawn once serves every visitor: each form's token is a mark filled in per
    visitor ({% csrf_input %}, ratings.page_cache), never one visitor's token in the page."""
    for path in TEMPLATES.rglob("*.html"):
        if "admin" in path.relative_to(TEMPLATES).parts:
            continue  # the admin's pages are never cached
        assert "{% csrf_token %}" not in path.read_text(encoding="utf-8"), path
