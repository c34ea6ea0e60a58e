"""The README's examples run as shown, for a newcomer who did the Quick start.

Every fenced block of README.md is read in order: in a transcript (lines ``$ hashi-asp ...``,
a line ending in ``\\`` going on in the next), each command is followed by what it prints; a
block of one-liners (``pip install '.[web]' && hashi-asp serve --open``) shows none.  All the
commands run in one folder, in the README's order (``check`` reads the ``answer.json`` that
``solve`` wrote, ``study plot`` the database ``study run`` made), where ``puzzles`` is the
repository's; each through ``/bin/sh`` with the venv's ``hashi-asp`` first on PATH, so that
pipes (``| head -3``) and redirections (``> answer.json``) are the shell's, its standard output
and error both read as a terminal shows them.  What a transcript shows is compared exactly but
for timings (a decimal number of seconds, ``0.46 s``, and the seconds columns of ``bench``'s
table), and the exit code is the one docs/commands.md gives (0, but where :data:`EXIT` says).

A newcomer has installed ``.`` only: each command runs with the modules of every extra hidden
(imports of them fail, as where they are not installed) but those of the extras installed
before it in its section (``pip install '.[png]' && ...``), so that an example needing an
extra it does not install fails here as it fails for them.

``puzzles/pictures/page.png`` is remade by::

    import sys; sys.path.insert(0, "benchmarks")
    import picture_material as material
    from hashi_asp import notations
    puzzle = notations.parse("7x7m2:2a1a5a2g4c6a2g4b2j2a1a4a3")  # puzzles/tatham/7x7i30e10m2d2.txt
    open("puzzles/pictures/page.png", "wb").write(material.damaged(puzzle, (6, 0), "bottom"))

(the project's drawing, 40 pixels a cell, the bottom of the 2 at (6, 0) painted over: it reads
as a 7).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path

import processes
import pytest

from hashi_asp import notations
from hashi_asp.cores import cores

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

# The exit codes of the examples that do not end in 0 (docs/commands.md, Exit codes): the
# picture's puzzle as read has no solution, which for solve is the answer no.
EXIT = {"hashi-asp solve puzzles/pictures/page.png": 1}

# Commands not run: `serve --open` serves until it is stopped (the server and the page are
# tested in test_serve.py and test_browser*.py).
NOT_RUN = {"hashi-asp serve --open"}

# The top-level modules each extra brings (those of its packages' own dependencies that
# another extra names too), hidden from a command run without an extra that brings them.
MODULES = {
    "png": ["cairosvg"],
    "image": ["cv2", "numpy"],
    "web": ["starlette", "uvicorn"],
    "cluster": ["dask", "distributed"],
    "plot": ["matplotlib", "numpy"],  # matplotlib needs numpy
}

HIDING = """\
import os, sys

class _Hidden:
    names = set(os.environ.get("README_HIDDEN", "").split())

    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in self.names:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, _Hidden())
"""

INSTALL = re.compile(r"pip install (-e )?('\.\[(?P<extras>[\w,-]+)\]'|\.)(?= )")


@dataclass
class Example:
    section: str
    line: int  # in README.md, 1-based
    command: str  # as given to the shell: from "hashi-asp", continuation lines and all
    extras: frozenset[str]  # installed before it in its section, its own line included
    shown: str | None  # what the README shows it prints (None: a one-liner, nothing shown)

    @property
    def words(self) -> str:
        """The command without pipes, redirections and continuations: its own words."""
        return " ".join(re.split(r"\s[|>]", self.command)[0].replace("\\\n", " ").split())


def examples() -> list[Example]:
    """The README's commands in its fenced blocks, in order: a transcript's (``$ ...``, with
    what follows it up to the next ``$`` line) and a one-liner's (``pip install ... &&
    hashi-asp ...``), each with the extras installed before it in its section."""
    found: list[Example] = []
    section, extras = "", set()
    lines = README.read_text(encoding="utf-8").splitlines()
    inside = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            inside = not inside
        elif not inside and line.startswith("## "):
            section, extras = line[3:], set()
        if line.startswith("```") or not inside:
            i += 1
            continue
        start = i
        text = line[2:] if line.startswith("$ ") else line
        while text.endswith("\\") and i + 1 < len(lines):
            i += 1
            text += "\n" + lines[i]
        i += 1
        shown = None
        if line.startswith("$ "):
            output = []
            while i < len(lines) and not lines[i].startswith(("$ ", "```")):
                output.append(lines[i])
                i += 1
            shown = "\n".join(output)
        for install in INSTALL.finditer(text):
            extras.update(install["extras"].split(",") if install["extras"] else ())
        command = text.rpartition("&& ")[2]
        if command.startswith("hashi-asp "):
            found.append(Example(section, start + 1, command, frozenset(extras), shown))
    return found


EXAMPLES = examples()

# ---------------------------------------------------------------------------- the comparison

SECONDS = re.compile(r"\b\d+\.\d+(?= s\b)")  # 0.46 s, total 0.10 s, 0.11 s elapsed
TIMED_TABLE = re.compile(r"\bmean s\b")  # bench's table: its seconds columns
TABLE_ROW = re.compile(r"^ *(?:all|\d+)(?: +(?:all|\d+(?:\.\d+)?))* *$")


def comparable(text: str) -> list[str]:
    """``text``'s lines, timings made ``<s>``; in bench's table (its header, the rows of
    numbers under it) every decimal number is a time and the columns are compared as words,
    their widths following the times."""
    lines, table = [], False
    for line in text.rstrip("\n").split("\n"):
        if TIMED_TABLE.search(line):
            table = True
        elif not TABLE_ROW.match(line):
            table = False
        if table:
            line = " ".join(re.sub(r"^\d+\.\d+$", "<s>", word) for word in line.split())
        else:
            line = SECONDS.sub("<s>", line)
        lines.append(line)
    return lines


def expected(example: Example) -> list[str]:
    """What the README shows, with what depends on the machine made this machine's: the local
    processes of ``study run`` (one a core; the README's is a machine with 2)."""
    assert example.shown is not None
    shown = example.shown
    if example.words.startswith("hashi-asp study run"):
        n = cores()
        shown = shown.replace("on 2 local processes", f"on {n} local process{'es' * (n != 1)}")
    return comparable(shown)


# ---------------------------------------------------------------------------- running


@dataclass
class Ran:
    output: str  # standard output and error, as a terminal shows them
    code: int  # hashi-asp's own exit code (not that of a pipe's last command)


def run(example: Example, folder: Path, hiding: Path) -> Ran:
    brought = {m for extra in example.extras for m in MODULES.get(extra, ())}
    hidden = sorted({m for names in MODULES.values() for m in names} - brought)
    status = hiding / "status"
    status.unlink(missing_ok=True)
    env = {
        **os.environ,
        "PATH": os.pathsep.join(
            [str(hiding), str(processes.script().parent), os.environ.get("PATH", "")]
        ),
        "PYTHONPATH": str(hiding),
        "README_HIDDEN": " ".join(hidden),
        "PYTHONUNBUFFERED": "1",  # the order of a terminal, standard output and error mixed
    }
    done = subprocess.run(
        ["/bin/sh", "-c", example.command],
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=300,
    )
    assert status.exists(), f"hashi-asp did not run: {done.stdout}"
    return Ran(done.stdout, int(status.read_text()))


@pytest.fixture(scope="module")
def ran(tmp_path_factory) -> dict[int, Ran]:
    """Every example run, in the README's order, in one folder: by its README line."""
    top = tmp_path_factory.mktemp("readme")
    hiding = top / "hiding"
    hiding.mkdir()
    (hiding / "sitecustomize.py").write_text(HIDING)
    # The command the shell finds: the venv's, its exit code written down (in a pipe, the
    # shell's is the last command's).
    wrapper = hiding / "hashi-asp"
    real, status = (
        shlex.quote(str(processes.script())),
        shlex.quote(str(hiding / "status")),
    )
    wrapper.write_text(f'#!/bin/sh\n{real} "$@"\ns=$?\necho $s > {status}\nexit $s\n')
    wrapper.chmod(0o755)
    folder = top / "work"
    folder.mkdir()
    (folder / "puzzles").symlink_to(ROOT / "puzzles", target_is_directory=True)
    return {e.line: run(e, folder, hiding) for e in EXAMPLES if e.words not in NOT_RUN}


# ---------------------------------------------------------------------------- the tests


def test_the_readme_has_its_examples():
    """The reading finds the examples: a transcript for most commands, the one-liners, and
    every name :data:`EXIT` and :data:`NOT_RUN` give."""
    words = {e.words for e in EXAMPLES}
    assert len([e for e in EXAMPLES if e.shown is not None]) >= 15
    assert {"hashi-asp solve puzzles/prolog-5x5.txt", "hashi-asp serve --open"} <= words
    assert set(EXIT) | NOT_RUN <= words
    commands = {e.words.split()[1] for e in EXAMPLES}
    assert {"solve", "check", "facts", "render", "convert", "unique", "fix", "count", "hint",
            "steps", "difficulty", "generate", "bench", "study", "serve"} <= commands  # fmt: skip


def test_the_extras_installed_are_the_packages():
    """Every extra a line installs is one of the package's, and each but ``test`` has its
    modules hidden where it is not installed."""
    declared = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"])  # fmt: skip
    assert set(MODULES) == declared - {"test"}
    for example in EXAMPLES:
        assert example.extras <= declared, example.command


@pytest.mark.parametrize(
    "example", [e for e in EXAMPLES if e.words not in NOT_RUN], ids=lambda e: f"L{e.line}"
)
def test_an_example_runs_as_shown(example, ran):
    done = ran[example.line]
    if example.shown is not None:
        assert comparable(done.output) == expected(example), example.command
    code = EXIT.get(example.words, 0)
    assert done.code == code, f"{example.command}: exit {done.code}\n{done.output}"


def test_the_fix_for_a_medium_puzzle_is_as_said():
    """The prose after fix's example: ``--difficulty medium`` adds an island 4 at (1, 0)."""
    text = " ".join(README.read_text(encoding="utf-8").split())
    said = re.search(
        r"`(hashi-asp fix [^`]*--difficulty medium)` adds (an island \d at \(\d, \d\))", text
    )
    assert said, "the README no longer says what fix --difficulty medium does"
    done = processes.run(*said[1].split()[1:], cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"Edits:\n  add {said[2]}\n")


def test_the_picture_is_a_bundled_puzzle_with_one_number_misread():
    """puzzles/pictures/page.png reads as the second puzzle of
    puzzles/tatham/7x7i30e10m2d2.txt but for its 2 at (6, 0), read as a 7: the one suspect,
    which puts it right."""
    page = "puzzles/pictures/page.png"
    done = processes.run("convert", page, "--to", "json", cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    read = json.loads(done.stdout)
    assert read["read"]["suspects"] == [[6, 0, 7, 2]]
    game_id = (ROOT / "puzzles/tatham/7x7i30e10m2d2.txt").read_text().splitlines()[2]
    truth = notations.parse(game_id)
    islands = {(r, c): n for r, c, n in read["islands"]}
    assert islands == {**truth.islands, (6, 0): 7}
