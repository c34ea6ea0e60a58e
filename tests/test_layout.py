"""The shape of the code: the layers import downwards only (so no import circle), one module owns
clingo's Control, no ASP rule hides in a Python string, every command is one unit whose options
are declared once and whose logic lives in its own module (the command line and the web API only
derive from it), the package runs as ``python -m hashi_asp``, the text speaks of the product,
no function is longer than 80 lines, and the linter and the type checker pass.

``python tests/test_layout.py`` prints the import graph: each module and the modules of the
package it imports.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from hashi_asp import commands
from hashi_asp.commands import declaration as units

COMMANDS = commands.NAMES
REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "hashi_asp"

# The house's one list of its layers, bottom up: a module imports only from its own layer or the
# ones below.  The layers stand on six floors, each described once, here: the package's
# docstring and the table in docs/library.md are made from this list (``python
# tests/test_layout.py --write``), and a test below finds them as made.
COMMAND_MODULES = {
    f"commands.{name}"
    for name in COMMANDS
    if commands.MODULES[name].startswith("hashi_asp.commands.")
}
# Every notation's module, on the notations' floor (one module per notation: adding one edits
# nothing here).
NOTATION_MODULES = {f"notations.{path.stem}" for path in (PACKAGE / "notations").glob("*.py")}


@dataclass(frozen=True)
class Floor:
    """Layers that the docs describe together: ``title`` and ``text`` as the package's docstring
    says them (Sphinx roles allowed), ``layers`` bottom up."""

    title: str
    text: str
    layers: tuple[frozenset[str], ...]

    def modules(self) -> list[str]:
        return [name for names in self.layers for name in sorted(names)]


def floor(title: str, text: str, *layers: set[str]) -> Floor:
    return Floor(title, text, tuple(frozenset(names) for names in layers))


FLOORS = [
    floor(
        "the ground",
        ":mod:`.status` (verdicts, stops, exit codes), :mod:`.errors`, :mod:`.puzzle` (islands, "
        "rules, bridges, where bridges can go), :mod:`.checking` (the independent checker), "
        ":mod:`.stopping` (deadlines, signals, work that cannot be interrupted), :mod:`.files`, "
        ":mod:`.graphs` (graph algorithms, each a function of its own), and :mod:`.workers` "
        "(where work is made: this process, runner processes, a Dask cluster)",
        {"graphs", "version", "cores", "catalogue"},
        {"status"},
        {"errors"},
        {"puzzle"},
        {"checking", "stopping", "files"},
        # Where work is made (this process, runner processes, a Dask cluster), whatever it is.
        {"workers", "workers.runners", "workers.executors"},
    ),
    floor(
        "puzzles in and out",
        ":mod:`.pictures` (puzzles read from pictures), :mod:`.notations` (reading and writing "
        "puzzles), :mod:`.drawing` (text, SVG, PNG), :mod:`.play` (a player's state: bridges "
        "drawn, pairs ruled out, counts narrowed)",
        # Reading pictures: the digits, the glyphs, the lattice, then the steps together.
        {"pictures.kinds", "pictures.digits", "pictures.lattice", "pictures.bridges"},
        {"pictures.glyphs"},
        {"pictures.reading"},
        {"pictures"},
        {
            "notations",
            *(NOTATION_MODULES - {"notations.__init__"}),
            "drawing",
        },
        {"play"},
    ),
    floor(
        "clingo",
        ":mod:`.asp`, the only code that knows clingo (the predicates between Python and the "
        "encodings, the one owner of ``clingo.Control``, the catalogue of formulations)",
        {
            "asp",
            "asp.predicates",
            "asp.interface",
            "asp.connectivity",
            "asp.interrupting",
            "asp.control",
            "asp.sweep",
            "asp.neighbourhood",
            "asp.enumeration",
            "asp.portfolio",
        },
    ),
    floor(
        "the capabilities",
        "a function for each, named for what it does: :func:`solve`, :func:`unique`, :func:`count` "
        "(:mod:`.solving`), :func:`hint`, :func:`explain` (:mod:`.reasoning`), :func:`steps` "
        "(:mod:`.walkthrough`, with ``difficulty`` on the scale of :mod:`.difficulty`), "
        ":func:`generate`, :func:`fix` (:mod:`.fixing`), :func:`review` (what ``unique`` "
        "prints), :func:`suspects` (:mod:`.misreading`: the islands of a puzzle read from a "
        "picture probably misread)",
        {"reasoning", "difficulty"},
        {"walkthrough.board", "walkthrough.results", "walkthrough.words", "walkthrough.forcing"},
        {"walkthrough.techniques", "walkthrough.checker", "walkthrough.reading"},
        {"walkthrough.finding"},
        {"walkthrough"},
        {"solving"},
        {"another_solution"},
        {
            "generation",
            "generation.construction",
            "generation.repair",
            "generation.generator",
            "generation.batch",
        },
        # generate's puzzles as work, made on the workers with --jobs or --scheduler.
        {"workers.puzzles"},
        {"fixing.results", "fixing.edits", "fixing.moves"},
        {"fixing.single_edits", "fixing.first_fix"},
        {"fixing.counterexamples"},
        {"fixing.alternatives"},
        {"fixing"},
        {"reviewing", "misreading"},
    ),
    floor(
        "the commands",
        "one unit per command in :mod:`.commands` (its options declared once, the function "
        "that runs it and the documents it prints)",
        # What a command is and what commands share, then the commands.
        {"commands", "commands.declaration", "commands.shared_options", "commands.output"},
        {"commands.click_options", *COMMAND_MODULES},
    ),
    floor(
        "the fronts",
        ":mod:`.cli` (the command line), :mod:`.web` (the JSON "
        "API and the page), :mod:`.study` (many runs, each a unit's, and ``bench``, a study of "
        "one variant).  A command that starts a front lives with it (``serve`` in "
        ":mod:`.web.serve`, ``study`` in :mod:`.study.command`, ``bench`` in :mod:`.study.bench`)",
        # A study, a front that runs the commands' units: its runs, its database; then its plans
        # (whose generated instances are read by generate's options), reports and the study
        # command, and bench, a study of one variant, with its command.
        {"study", "study.runs", "study.database"},
        {
            "study.variants",
            "study.plan",
            "study.report",
            "study.plots",
            "study.command",
            "study.bench",
        },
        {
            "web",
            "web.served",
            "web.api",
            "web.admission",
            "web.clients",
            "web.memory",
            "web.app",
            "web.serve",
        },
        {"cli", "__main__", "__init__"},
    ),
]
LAYERS = [names for each in FLOORS for names in each.layers]


def floors_in_the_docstring() -> str:
    """The package docstring's list of the floors, made from :data:`FLOORS`."""
    items = [
        textwrap.fill(
            f"{number}. {each.title}: {each.text}{'.' if number == len(FLOORS) else ';'}",
            width=96,
            subsequent_indent="   ",
            break_on_hyphens=False,
        )
        for number, each in enumerate(FLOORS, 1)
    ]
    return "\n".join(items)


def floors_in_the_docs() -> str:
    """docs/library.md's table of the floors and every module on each, made from :data:`FLOORS`:
    the members of a package after it, in parentheses."""
    rows = ["| floor | modules, bottom up |", "|---|---|"]
    for number, each in enumerate(FLOORS, 1):
        names = each.modules()
        members: dict[str, list[str]] = {}  # each module shown, and its members on the floor
        for name in names:
            package, _, member = name.partition(".")
            if member and package in names:
                members.setdefault(package, []).append(member)
            else:
                members.setdefault(name, [])
        cells = [
            f"`hashi_asp.{name}`" + (f" ({', '.join(inner)})" if inner else "")
            for name, inner in members.items()
            if name not in ("__init__", "__main__")
        ]
        rows.append(f"| {number}. {each.title} | {', '.join(cells)} |")
    return "\n".join(rows) + "\n"


DOCSTRING_FLOORS = ("The floors, bottom up (", "\n\n``import hashi_asp``")
DOCS_FLOORS = ("<!-- floors: made from tests/test_layout.py -->\n", "<!-- /floors -->")


def made(text: str, marks: tuple[str, str], section: str, *, after_first_line: bool) -> str:
    """``text`` with its section between ``marks`` as made (the section starts on the line after
    the first mark's line where ``after_first_line``)."""
    start = text.index(marks[0])
    if after_first_line:
        start = text.index("\n\n", start) + 2
    else:
        start += len(marks[0])
    end = text.index(marks[1], start)
    return text[:start] + section + text[end:]


def test_the_docstring_and_the_docs_list_the_floors_as_made_from_the_one_list():
    """Run ``python tests/test_layout.py --write`` after changing :data:`FLOORS`."""
    init = (PACKAGE / "__init__.py").read_text()
    assert init == made(init, DOCSTRING_FLOORS, floors_in_the_docstring(), after_first_line=True)
    docs = (REPO / "docs" / "library.md").read_text()
    assert docs == made(docs, DOCS_FLOORS, floors_in_the_docs(), after_first_line=False)


def modules() -> dict[str, Path]:
    """Every module of the package by its dotted name inside it (``asp.control``)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__" and len(parts) > 1:
            parts = parts[: len(parts) - 1]
        found[".".join(parts)] = path
    return found


def imports(name: str, path: Path) -> set[str]:
    """The package's modules that ``name`` imports when it runs, wherever the import statement
    stands (in a function too), leaving out imports only for type checkers."""
    tree = ast.parse(path.read_text(), str(path))
    package = name.split(".")
    if path.name != "__init__.py":
        package.pop()
    if name == "__init__":
        package = []
    known = modules()
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - (node.level - 1)]
            target = ".".join([*base, *(node.module.split(".") if node.module else [])])
            for alias in node.names:
                full = f"{target}.{alias.name}" if target else alias.name
                found.add(full if full in known else target)
        elif (
            isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("hashi_asp")
        ):
            found.add(node.module.removeprefix("hashi_asp").lstrip(".") or "__init__")
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return {module for module in found if module in known and module != name}


def graph() -> dict[str, set[str]]:
    return {name: imports(name, path) for name, path in modules().items()}


def test_a_puzzle_is_shown_in_a_notebook_by_a_formatter_the_drawings_register():
    """A puzzle, on the floor below the drawings, has no picture of its own: an IPython
    shell is given one for it (``import hashi_asp`` does so when IPython runs)."""
    from hashi_asp import read
    from hashi_asp.drawing import show_in_notebooks, svg

    registered = {}

    class Formatter:
        def for_type_by_name(self, module, name, func):
            registered[module, name] = func

    class Shell:
        display_formatter = type("Formatters", (), {"formatters": {"image/svg+xml": Formatter()}})

    show_in_notebooks(Shell())
    puzzle = read("7x7m2:4a4a2a2w2k4c3a1")
    assert registered["hashi_asp.puzzle", "Puzzle"](puzzle) == svg(puzzle)
    assert not hasattr(puzzle, "_repr_svg_")
    shown = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, types; shell = types.SimpleNamespace(display_formatter=types."
            "SimpleNamespace(formatters={'image/svg+xml': types.SimpleNamespace(for_type_by_name="
            "lambda *given: print(*given[:2]))})); sys.modules['IPython'] = types.SimpleNamespace("
            "get_ipython=lambda: shell); import hashi_asp",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert shown.stdout == "hashi_asp.puzzle Puzzle\n"


def layer(name: str) -> int:
    return next(i for i, names in enumerate(LAYERS) if name in names)


def test_every_module_has_a_layer():
    assert sorted(modules()) == sorted(name for names in LAYERS for name in names)


def test_the_layers_import_downwards_only():
    upward = [
        (name, other)
        for name, others in graph().items()
        for other in others
        if layer(other) > layer(name)
    ]
    assert upward == []


def test_no_import_circle():
    edges = graph()
    state: dict[str, str] = {}

    def circle_from(name: str, path: list[str]) -> list[str] | None:
        state[name] = "open"
        for other in sorted(edges[name]):
            if state.get(other) == "open":
                return [*path, name, other]
            if other not in state:
                found = circle_from(other, [*path, name])
                if found:
                    return found
        state[name] = "done"
        return None

    for name in sorted(edges):
        if name not in state:
            assert circle_from(name, []) is None


def test_exactly_one_module_makes_a_clingo_control():
    makers = [name for name, path in modules().items() if "clingo.Control(" in path.read_text()]
    assert makers == ["asp.control"]
    # ... and only the asp package imports clingo to run (others may name it for type checkers).
    users = [
        name
        for name, path in modules().items()
        if re.search(r"^(import clingo|from clingo)", path.read_text(), re.M)
        and not name.startswith("asp")
    ]
    for name in users:
        tree = ast.parse(modules()[name].read_text())
        runtime = [
            node
            for node in tree.body
            if isinstance(node, (ast.Import, ast.ImportFrom)) and "clingo" in ast.unparse(node)
        ]
        assert runtime == [], name


def test_no_asp_rule_inside_python():
    """Every ASP program the tool or its tests load is a .lp file a reader can find."""
    rule = ":" + "-"  # (spelt apart, so that this file passes its own test)
    for path in [
        *PACKAGE.rglob("*.py"),
        *(REPO / "tests").rglob("*.py"),
        *(REPO / "benchmarks").rglob("*.py"),
        *(REPO / "scripts").rglob("*.py"),
    ]:
        assert rule not in path.read_text(), path


# ---------------------------------------------------------------------------- commands as units


def test_every_command_is_one_module_of_the_table():
    """A command's module is the registry's: in the commands package, or for a command that
    starts a front, beside it."""
    inside = [name for name in COMMANDS if commands.MODULES[name] == f"hashi_asp.commands.{name}"]
    assert sorted(p.stem for p in (PACKAGE / "commands").glob("*.py")) == sorted(
        [*inside, "__init__", "declaration", "shared_options", "output", "click_options"]
    )
    assert {commands.MODULES[name] for name in COMMANDS if name not in inside} == {
        "hashi_asp.web.serve",
        "hashi_asp.study.command",
        "hashi_asp.study.bench",
    }
    for name in COMMANDS:
        unit = commands.command(name)
        assert unit.name == name and unit.help.strip() and callable(unit.run)


def test_no_option_is_declared_twice():
    """Within a command each name and each Python name once; across commands, one option is
    one declaration: no two ``Option(...)`` calls declare the same name with the same kind and
    settings (a command may reword a shared option's help with ``replace``)."""
    for name in COMMANDS:
        options = commands.command(name).options
        assert len({o.name for o in options}) == len(options), name
        assert len({o.key for o in options}) == len(options), name
    declared: dict[str, str] = {}
    for path in sorted((PACKAGE / "commands").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and ast.unparse(node.func) == "Option":
                settings = sorted(
                    ast.unparse(k) for k in node.keywords if k.arg not in ("help", "metavar")
                )
                what = f"{ast.unparse(node.args[0])} {ast.unparse(node.args[1])} {settings}"
                where = f"{path.name}:{node.lineno}"
                assert declared.setdefault(what, where) == where, f"{what}: {declared[what]}"


def test_options_are_declared_only_in_the_commands():
    """The command line makes its click options from the declarations, and the web API reads
    requests by them: neither declares an option of its own."""
    made = re.compile(r"click\.(option|argument|command)\(|(?<![.\w])Option\(")
    for path in [PACKAGE / "cli.py", *(PACKAGE / "web").glob("*.py")]:
        if path.name != "serve.py":  # (the serve command's declaration, beside the front)
            assert not made.search(path.read_text()), path.name


# What the fronts may use of the package: the commands, and the plumbing (errors, statuses,
# stopping, standard output, the JSON writer, the count of cores); never what a command does
# (solving, reasoning, reports...).
FRONT_IMPORTS = {
    "cli": {
        "commands",
        "commands.declaration",
        "commands.click_options",
        "errors",
        "puzzle",
        "status",
        "stopping",
        "files",
        "notations.json",
    },
    "web.api": {
        "commands.declaration",
        "notations.json",
        "notations.lexing",
        "errors",
        "puzzle",
        "status",
        "stopping",
        "web.served",
        # What a request's work grows with, weighed before admission, and whether its puzzle
        # is a picture (a data URL), whose reading is the work.
        "web.admission",
        "notations.picture",
    },
    # The reviewed list of what the API serves (by the commands' names), and the catalogue's
    # names of formulations, which it offers all but the race of.
    "web.served": {"asp", "commands", "commands.declaration"},
    "web.app": {
        "web",
        "web.api",
        "web.admission",
        "web.clients",
        "web.memory",
        "notations.json",
        "errors",
        "puzzle",
        "status",
        "stopping",
        "cores",
    },
    "web.admission": set(),
    "web.clients": set(),
    "web.memory": set(),
}


@pytest.mark.parametrize("front", sorted(FRONT_IMPORTS))
def test_no_command_logic_in_the_fronts(front):
    assert graph()[front] <= FRONT_IMPORTS[front]
    path = modules()[front]
    tree = ast.parse(path.read_text())
    named = {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }
    if front != "web.served":  # (the one place that says which commands the API serves)
        assert not named & set(COMMANDS), f"{front} names a command"


def test_each_command_runs_from_its_own_module():
    """A command's function is the one its module defines (not a wrapper made elsewhere), and
    it is the only module that imports the library functions it runs."""
    for name in COMMANDS:
        unit = commands.command(name)
        assert unit.run.__module__ == commands.MODULES[name]


def test_every_package_is_installed():
    """pyproject.toml lists every package of hashi_asp, so a regular install has them all."""
    import tomllib

    listed = set(
        tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {".".join(path.parent.relative_to(REPO).parts) for path in PACKAGE.rglob("__init__.py")}
    assert found <= listed


def test_every_served_option_can_be_read_from_json():
    from hashi_asp.web import api

    for name, options in api.OPTIONS.items():
        for option in options.values():
            assert option.kind not in units.NAMING_FILES, (name, option.name)


def loaded_after(statement: str) -> set[str]:
    """The modules a fresh Python holds after ``statement``."""
    shown = subprocess.run(
        [sys.executable, "-c", f"{statement}; import sys; print(' '.join(sys.modules))"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert shown.returncode == 0, shown.stderr
    return set(shown.stdout.split())


def test_start_up_loads_only_what_every_command_needs():
    """What the command line imports at the top, every command pays for, --help included: the
    modules of the searches, reports and writers load inside the commands that run them, and a
    command's declaration loads when the command is used (see benchmarks/startup.py for the
    times)."""
    package = {name for name in loaded_after("import hashi_asp") if name.startswith("hashi_asp")}
    assert package == {"hashi_asp", "hashi_asp.version"}  # each public name loads on first use
    loaded = loaded_after("import hashi_asp.cli")
    assert not loaded & {"clingo", "tqdm", "json", "statistics", "csv", "html"}
    package = {name.removeprefix("hashi_asp.") for name in loaded if name.startswith("hashi_asp.")}
    assert package == {
        "version",
        "catalogue",
        "errors",
        "status",
        "stopping",
        "files",
        "commands",
        "commands.declaration",
        "commands.click_options",
        "cli",
    }
    solve = "import hashi_asp.cli as c; c.command_of(c.commands.command('solve'))"
    loaded = loaded_after(solve)
    assert not loaded & {"clingo", "tqdm", "json", "statistics", "csv", "html"}
    package = {name.removeprefix("hashi_asp.") for name in loaded if name.startswith("hashi_asp.")}
    assert package == {
        *("version", "catalogue", "errors", "puzzle", "status", "stopping", "files"),
        *("notations", "notations.lexing", "asp"),
        *(
            "commands",
            "commands.declaration",
            "commands.shared_options",
            "commands.solve",
            "commands.click_options",
        ),
        "cli",
    }


def test_solving_a_small_puzzle_loads_neither_giant_search_nor_json():
    """``solve`` on 100 islands as the command line runs it: the neighbourhood search and the
    sweep (a giant's first solution) and the JSON notation (a document's) are not loaded."""
    solve = (
        "from click.testing import CliRunner; from hashi_asp.cli import main; "
        "done = CliRunner().invoke(main, ['solve', 'puzzles/coelho/Hs_16_100_25_00_001.has']); "
        "assert done.exit_code == 0 and 'solved' in done.output, done.output"
    )
    loaded = loaded_after(solve)
    assert "hashi_asp.asp.enumeration" in loaded  # (it ran)
    assert not loaded & {"hashi_asp.asp.neighbourhood", "hashi_asp.asp.sweep"}
    assert not loaded & {"hashi_asp.notations.json", "json"}


def test_notations_is_a_package_of_one_module_per_notation():
    from hashi_asp import notations

    assert (PACKAGE / "notations" / "__init__.py").is_file()
    assert {"has", "grid", "json", "puzzlink", "pzprv3", "tatham", "picture"} <= set(
        notations.NOTATIONS
    )
    for notation in notations.NOTATIONS.values():  # its functions, each in its module
        for function in (notation.detect, notation.validate, notation.parse, notation.write):
            module = function.__name__.split(".")[0]
            assert (PACKAGE / "notations" / f"{module}.py").is_file(), notation.name


def test_python_m_hashi_asp_is_the_command_line():
    help_text = subprocess.run(
        [sys.executable, "-m", "hashi_asp", "--help"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert help_text.returncode == 0 and help_text.stdout.startswith("Usage: hashi-asp ")
    solved = subprocess.run(
        [sys.executable, "-m", "hashi_asp", "solve", "-n", "0", "puzzles/prolog-5x5.txt"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert solved.returncode == 0
    assert solved.stdout.strip().endswith("multiple: 2 solutions; search exhausted")


# Words about how the product was made, not what it is.
PROCESS = re.compile(
    r"\b[Ss]essions?\b|\b[Ii]ssues? #?\d+|\(#\d+\)|[Ww]ork in progress|\bWIP\b"
    r"|\bTODO\b|\bFIXME\b"
)


def test_the_text_speaks_of_the_product():
    texts = [
        REPO / "README.md",
        *(REPO / "docs").glob("*.md"),
        *PACKAGE.rglob("*.py"),
        *(REPO / "encodings").glob("*.lp"),
        *(REPO / "benchmarks").glob("*.py"),
        *(REPO / "scripts").glob("*.py"),
        *(PACKAGE / "web" / "static").glob("*.*"),
    ]
    found = [
        f"{path.relative_to(REPO)}:{number}: {line.strip()}"
        for path in texts
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if PROCESS.search(line)
    ]
    assert found == []


# ---------------------------------------------------------------------------- linter, type checker


@pytest.mark.parametrize("arguments", [["check"], ["format", "--check"]], ids=["lint", "format"])
def test_ruff(arguments):
    completed = subprocess.run(
        [sys.executable, "-m", "ruff", *arguments, "hashi_asp", "tests", "benchmarks", "scripts"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_mypy():
    """The type checker over the package (configured in pyproject.toml)."""
    completed = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=REPO, capture_output=True, text=True, timeout=600
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_the_lowest_releases_ci_installs_are_the_lower_bounds():
    """.ci/lowest.txt pins every dependency and extra of pyproject.toml at its lower bound, and
    every range has an upper bound (the next major release, not tried yet): the ranges declared
    are the ranges tested (.ci/run installs the pins beside the newest releases)."""
    from packaging.requirements import Requirement
    from packaging.version import Version

    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib

    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    declared = [*project["dependencies"]]
    for extra in project["optional-dependencies"].values():
        declared += extra
    lowest: dict[str, Version] = {}
    for line in (REPO / ".ci" / "lowest.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, version = line.split("==")
            lowest[name.strip().lower()] = Version(version)
    bounds: dict[str, Version] = {}
    for text in declared:
        requirement = Requirement(text)
        if requirement.name == project["name"]:  # the test extra brings every other extra
            assert requirement.extras == set(project["optional-dependencies"]) - {"test"}, text
            continue
        specifiers = {spec.operator: Version(spec.version) for spec in requirement.specifier}
        assert set(specifiers) == {">=", "<"}, f"{text}: a lower and an upper bound"
        if requirement.marker is not None and not requirement.marker.evaluate():
            continue  # (tomli, on Python 3.10 only)
        names = [requirement.name.lower(), *sorted(requirement.extras)]
        for name in names:  # (dask[distributed]: dask and distributed at one release)
            assert bounds.setdefault(name, specifiers[">="]) == specifiers[">="], text
    assert lowest == bounds


LONGEST_FUNCTION = 80  # lines, from ``def`` to its last line: a function a reader takes in whole


def test_no_function_is_longer_than_a_reader_takes_in_whole():
    long = [
        f"{path.relative_to(REPO)}:{node.lineno} {node.name}: {node.end_lineno - node.lineno + 1}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and (node.end_lineno or node.lineno) - node.lineno + 1 > LONGEST_FUNCTION
    ]
    assert long == []


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        init, docs = PACKAGE / "__init__.py", REPO / "docs" / "library.md"
        init.write_text(
            made(
                init.read_text(), DOCSTRING_FLOORS, floors_in_the_docstring(), after_first_line=True
            )
        )
        docs.write_text(
            made(docs.read_text(), DOCS_FLOORS, floors_in_the_docs(), after_first_line=False)
        )
        sys.exit()
    for name, others in sorted(graph().items(), key=lambda item: (layer(item[0]), item[0])):
        print(f"{layer(name)} {name}: {', '.join(sorted(others, key=layer)) or '-'}")
