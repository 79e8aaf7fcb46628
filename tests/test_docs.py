"""The README and docs/ stay short, current and connected: every relative link leads to a file
(and heading) that exists, every path they name is in the repository, the README's
configuration table lists every variable the settings read, and every command they tell a reader
to run exists and takes the arguments written."""

import ast
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command, get_commands, load_command_class

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


# Commands the docs name ------------------------------------------------------------------------
#
# Collected from the Markdown itself, so a newly documented command is checked without a word
# here: `python manage.py NAME ...` and `sh|python scripts/... | bench/...` in a code block or an
# inline code span. A management command must exist and parse the arguments written (optional
# `[...]` parts included, each of `a|b|c`); a script must exist, a shell script parse (`sh -n`)
# and a Python script answer `--help` with every option written. The variables set before a
# command are the settings' or the script's own. The commands that read the club run as written
# on the demo club; the others run in the tests of each (tests/test_commands.py and beside their
# services; bench/: tests/test_bench.py).

# `python manage.py NAME ARGS` is a line to run; `manage.py NAME` in a sentence names the command.
MANAGE = re.compile(r"(?:^|\s)(\S*python3?\s+)?manage\.py\s+([\w-]+)(.*)")
SCRIPT = re.compile(r"(?:^|\s)(sh|python3?|\S*/python3?)\s+((?:bench|scripts)/[\w./-]+)(.*)")
SETTING = re.compile(r"(?:^|\s)([A-Z][A-Z0-9_]*)=\S*")
INLINE_CODE = re.compile(r"`([^`]+)`")
PYTHONS_OWN = {"PYTHONPATH"}  # read by Python itself, not by the script


@dataclass(frozen=True)
class Documented:
    """A command as a document writes it: ``program`` is a management command's name or a
    script's path, ``arguments`` the rest of the line."""

    where: str
    kind: str  # "manage.py", "sh" or "python"
    program: str
    arguments: str | None  # None: named, not written out to run
    variables: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.where} {self.program}"


def command_texts(text: str):
    """(line number, text) of each piece of code in a Markdown text: a code block's line without
    its comment (continued lines joined), and each inline code span."""
    fenced = False
    lines = text.splitlines()
    number = 0
    while number < len(lines):
        line, start = lines[number], number + 1
        number += 1
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced or line.startswith("    "):
            while line.endswith("\\") and number < len(lines):
                line = line[:-1] + " " + lines[number].strip()
                number += 1
            yield start, line.split(" #", 1)[0]
        else:
            for code in INLINE_CODE.findall(line):
                yield start, code


def documented_commands(name: str, text: str) -> list[Documented]:
    found = []
    for number, code in command_texts(text):
        before, arguments, kind, program = "", "", "", ""
        if match := MANAGE.search(code):
            kind, program, arguments = "manage.py", match[2], match[3] if match[1] else None
            before = code[: match.start()]
        elif match := SCRIPT.search(code):
            kind = "sh" if match[1] == "sh" else "python"
            program, arguments = match[2], match[3]
            before = code[: match.start()]
        if kind:
            variables = tuple(SETTING.findall(before))
            found.append(Documented(f"{name}:{number}", kind, program, arguments, variables))
    return found


def argument_lists(arguments: str) -> list[list[str]]:
    """The argument lists a documented line stands for: optional parts (``[--json]``) included,
    one list per alternative of ``a|b|c``, ``...`` and a redirection dropped."""
    words = []
    for word in shlex.split(arguments.split(">", 1)[0]):
        word = word.strip("[]")
        if word and word != "...":
            words.append(word.split("|") if re.fullmatch(r"[\w-]+(\|[\w-]+)+", word) else [word])
    variants = max((len(choices) for choices in words), default=1)
    return [[choices[min(n, len(choices) - 1)] for choices in words] for n in range(variants)]


def command_problems(documented: Documented) -> list[str]:
    """What is wrong with a documented command: nothing, or why a reader's run would fail."""
    if documented.kind == "manage.py":
        return management_command_problems(documented)
    path = ROOT / documented.program
    if not path.is_file():
        return [f"{documented}: no such file"]
    problems = [
        f"{documented}: {variable} is neither a setting nor read by the script"
        for variable in documented.variables
        if variable not in settings_variables() | PYTHONS_OWN and variable not in path.read_text()
    ]
    if documented.kind == "sh":
        checked = subprocess.run(["sh", "-n", path], capture_output=True, text=True)
        if checked.returncode:
            problems.append(f"{documented}: {checked.stderr.strip()}")
        return problems
    helped = subprocess.run(
        [sys.executable, path, "--help"], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    if helped.returncode or "usage:" not in helped.stdout:
        return [*problems, f"{documented}: --help failed: {helped.stderr.strip()[-500:]}"]
    options = re.findall(r"(?<![\w-])(--[\w-]+)", documented.arguments)
    problems += [
        f"{documented}: {option} is not an option"
        for option in options
        if option not in helped.stdout
    ]
    return problems


def management_command_problems(documented: Documented) -> list[str]:
    app = get_commands().get(documented.program)
    if app is None:
        return [f"{documented}: no such command"]
    command = load_command_class(app, documented.program)
    parser = command.create_parser("manage.py", documented.program)
    problems = []
    if "usage:" not in parser.format_help():
        problems.append(f"{documented}: no --help")
    problems += [
        f"{documented}: {variable} is not a setting"
        for variable in documented.variables
        if variable not in settings_variables()
    ]
    if documented.arguments is None:
        return problems
    for arguments in argument_lists(documented.arguments):
        try:
            parser.parse_args(arguments)
        except Exception as refused:  # CommandError, or argparse's exit for a bad choice
            problems.append(f"{documented} {shlex.join(arguments)}: {refused}")
    return problems


DOCUMENTED = [
    command
    for document in DOCUMENTS
    for command in documented_commands(document.name, document.read_text())
]


@pytest.mark.parametrize("documented", DOCUMENTED, ids=str)
def test_every_documented_command_exists_and_takes_its_arguments(documented):
    assert command_problems(documented) == []


# The documented commands that read the club (a backtest stores its figures, rolled back with the
# test): run on the demo club as the docs write them, a league named in capitals its Preferans
# league and a file written to the test's folder.
READ_COMMANDS = {"backtest", "standings", "export_rayter", "export_games"}


def as_run_on_the_demo(arguments: list[str], folder: Path) -> list[str]:
    run = []
    for word in arguments:
        if run and run[-1] == "-o":
            run.append(str(folder / Path(word).name))
        elif re.fullmatch(r"[A-Z][A-Z_]*", word):
            run.append("preferans")
        else:
            run.append(word)
    return run


@pytest.mark.parametrize(
    "documented",
    [c for c in DOCUMENTED if c.program in READ_COMMANDS and c.arguments is not None],
    ids=str,
)
def test_a_documented_command_that_reads_runs_on_the_demo_club(documented, demo_club, tmp_path):
    for number, arguments in enumerate(argument_lists(documented.arguments)):
        folder, out = tmp_path / str(number), StringIO()
        folder.mkdir()
        call_command(documented.program, *as_run_on_the_demo(arguments, folder), stdout=out)
        written = out.getvalue() or "".join(path.read_text() for path in folder.iterdir())
        assert written.strip(), arguments


def test_the_documented_commands_are_found():
    """The collector finds the commands a reader is told to run, in code blocks and in text."""
    found = {(command.kind, command.program) for command in DOCUMENTED}
    assert {
        ("manage.py", "demo"),
        ("manage.py", "backtest"),
        ("manage.py", "import_rayter"),
        ("manage.py", "makemessages"),
        ("sh", "scripts/start.sh"),
        ("sh", "bench/loadtest.sh"),
        ("python", "bench/run.py"),
        ("python", "scripts/vectors/paper_vectors.py"),
    } <= found


def test_a_command_that_is_not_there_or_takes_other_arguments_fails():
    text = """
    python manage.py no_such_command --quick
    DEBUG=1 python manage.py standings hearts [--format text|yaml]
    NO_SUCH_VARIABLE=1 python manage.py backtest LEAGUE

Then run `sh scripts/no_such_script.sh` and `python bench/seating.py --no-such-option`.
"""
    problems = [
        p for command in documented_commands("x.md", text) for p in command_problems(command)
    ]

    assert problems[0] == "x.md:2 no_such_command: no such command"
    assert problems[1].startswith("x.md:3 standings hearts --format yaml: Error: argument --format")
    assert problems[2] == "x.md:4 backtest: NO_SUCH_VARIABLE is not a setting"
    assert problems[3] == "x.md:6 scripts/no_such_script.sh: no such file"
    assert problems[4] == "x.md:6 bench/seating.py: --no-such-option is not an option"
    assert len(problems) == 5
