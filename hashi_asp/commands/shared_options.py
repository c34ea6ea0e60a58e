"""The options several commands share, declared once here, and how a command that reads a puzzle
gets it: the puzzle, with the rules the user gave replacing its own, and for a searching command
the program clingo is given.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from .. import asp, notations
from ..puzzle import MAX_BRIDGES_LIMIT
from .declaration import (
    CHOICE,
    FILE,
    FLAG,
    FLOAT,
    FOLDER,
    INT,
    OUTPUT,
    PATHS,
    PUZZLE,
    SECONDS,
    TEXT,
    Given,
    Option,
    Reader,
)

# ---------------------------------------------------------------------------- reading a puzzle

PUZZLE_ARGUMENT = Option("puzzle", PUZZLE, argument=True, required=True)
NOTATION = Option(
    "notation",
    CHOICE,
    "How PUZZLE is written [default: recognised].",
    choices=notations.NAMES,  # the catalogue's names, read when they are looked at
)
MAX_BRIDGES = Option(
    "max-bridges", INT, "Most bridges between two islands [2].", low=1, high=MAX_BRIDGES_LIMIT
)
NO_LOOPS = Option("no-loops", FLAG, "Forbid (allow) cycles.", negative="loops")
RULES = (MAX_BRIDGES, NO_LOOPS)
READING = (PUZZLE_ARGUMENT, NOTATION, *RULES)

# ---------------------------------------------------------------------------- the program

PROGRAM = (
    Option("encoding", FILE, "Encoding instead of encodings/hashi.lp."),
    Option("add", FILE, "Rules to add, repeatable.", dest="additions", multiple=True),
    Option(
        "const",
        TEXT,
        "Set a clingo #const (repeatable).",
        short="-c",
        dest="constants",
        metavar="NAME=VALUE",
        multiple=True,
    ),
    Option(
        "connectivity",
        CHOICE,
        asp.help_text(),
        default=asp.AUTO,
        choices=asp.CONNECTIVITY,  # the catalogue's names, read when they are looked at
    ),
    Option(
        "clingo",
        TEXT,
        "clingo's options, e.g. '--configuration=handy -t 2'.",
        dest="solver_options",
        metavar="OPTIONS",
    ),
    Option(
        "variant",
        TEXT,
        "With --connectivity race: one raced, e.g. 'tree --configuration=handy' (repeatable).",
        dest="variants",
        metavar="VARIANT",
        multiple=True,
    ),
)
"""The searching commands' program: a study variant is these and :data:`RULES`."""

TIME_LIMIT = Option(
    "time-limit",
    SECONDS,
    "Stop after this long (the whole command).",
    low=0,
    low_open=True,
    metavar="SECONDS",
)
"""The time limit of the whole command: its deadline is counted from the moment the command
starts, before the puzzle is read."""

RUN_TIME_LIMIT = Option(
    "time-limit", FLOAT, "Time limit per puzzle.", low=0, low_open=True, metavar="SECONDS"
)
"""The time limit of each run of many (``bench``, ``study run``), not of the whole command."""

JOBS = Option("jobs", INT, "Local runner processes [the cores].", low=1, short="-j")
"""-j: how many local processes make the runs of ``study run`` or the puzzles of ``generate``."""
SCHEDULER = Option(
    "scheduler", TEXT, "A Dask scheduler instead (cluster extra).", metavar="tcp://HOST:PORT"
)
"""--scheduler: the Dask cluster that makes them instead (the ``cluster`` extra)."""

SEARCHING = (*READING, *PROGRAM, TIME_LIMIT)

VARIANT = (*RULES, *PROGRAM)
"""What a study variant may set: the searching commands' own options, but the puzzle."""

OUTPUT_FILE = Option("output", OUTPUT, "File to write [default: standard output].", short="-o")
"""-o: the file a command writes instead of printing."""
OUT_FOLDER = Option("out", FOLDER, "Folder to write.")
"""--out: the folder a command writes its files into."""
FORCE = Option("force", FLAG, "Replace the file -o names if it exists.", default=False)
"""--force: replace a file that exists (never without it)."""


@contextlib.contextmanager
def walking(given: Given, stage: str) -> Iterator[Callable[[Any], None]]:
    """A walkthrough's progress, as the front shows progress (on a terminal's stderr): yields
    the ``on_step`` that counts the pairs decided of those undecided at the start and the steps
    found; ``stage`` names the walkthrough, and the one that rates the difficulty after it
    (``rating``) starts the count again."""
    from ..puzzle import plural

    meter = "{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} pairs decided "
    meter += "[{elapsed}<{remaining}{postfix}]"
    with given.hooks.progress(desc=stage, bar_format=meter, leave=False) as bar:
        rating: list[bool] = []

        def show(progress: Any) -> None:
            if rating != [progress.rating]:
                rating[:] = [progress.rating]
                bar.set_description_str("rating" if progress.rating else stage, refresh=False)
                bar.reset(total=progress.pairs)
            bar.set_postfix_str(plural(progress.steps, "step"), refresh=False)
            bar.update(progress.decided - bar.n)

        yield show


def reads(given: Given) -> list[tuple[str, str]]:
    """Every file the command reads, named by the options that name what it reads (its puzzle,
    bridges, files and paths: :attr:`Given.reading`), each with what it is, for a message: the
    puzzle files under a folder of PATHS too."""
    from ..errors import HashiError
    from ..files import puzzle_files

    found: list[tuple[str, str]] = []
    for option in given.reading:
        value = given.values.get(option.key)
        given_names = [value] if isinstance(value, (str, os.PathLike)) else list(value or ())
        label = option.name.upper() if option.argument else f"--{option.name}"
        for name in map(str, given_names):
            files = [name]
            if option.kind == PATHS:
                with contextlib.suppress(HashiError):  # a path that names nothing: said later
                    files = puzzle_files([name])
            for file in files:
                shown = "standard input" if file == "-" else file
                found.append(
                    (file, "the puzzle" if option.kind == PUZZLE else f"{shown} ({label})")
                )
    return found


def prepare_output(given: Given, *paths: Any) -> None:
    """Refuse, before any time is spent, an output file that is a file the command reads (by
    whatever name), one that exists without --force, or one that cannot be written."""
    from ..files import prepare_output

    written = [path for path in paths if path is not None]
    read = reads(given) if written else []  # (nothing is looked up for a command writing none)
    for path in written:
        prepare_output(path, force=given.values.get("force", False), reads=read)


def prepare_folder(given: Given, folder: Path, names: list[str]) -> None:
    """Refuse, before the files ``names`` are written into ``folder``, one that is a file the
    command reads, or one that exists without --force; make the folder if it is missing."""
    from ..files import prepare_folder

    prepare_folder(folder, names, force=given.values.get("force", False), reads=reads(given))


def time_limit(help: str) -> Option:
    """:data:`TIME_LIMIT`, with the command's own words for what happens at it."""
    return replace(TIME_LIMIT, help=help)


def formats(*choices: str, help: str = "Drawing style, or one JSON document.") -> Option:
    """``--format``: the first choice is the default.  (The JSON API always answers with the
    JSON document.)"""
    return Option(
        "format",
        CHOICE,
        f"{help}  [default: {choices[0]}]",
        default=choices[0],
        choices=choices,
    )


# ---------------------------------------------------------------------------- preparing


def read_puzzle(given: Given, reader: Reader) -> None:
    """``given.puzzle``: PUZZLE read, the rules given replacing its own (``--max-bridges`` and
    ``--no-loops`` over ``-c max_bridges=K`` and ``-c no_loops=1``, over the puzzle's); one read
    from a picture with its suspects (:func:`read_from_picture`)."""
    rules = rules_given(given.values, given.rules)
    given.argument = given.values["puzzle"]
    given.puzzle = reader.puzzle(given.argument, given.values.get("notation"), rules)
    if given.puzzle.reading is not None:
        read_from_picture(given)


def read_from_picture(given: Given) -> None:
    """A puzzle read from a picture: the islands probably misread looked for (within the
    command's time limit), each said in a note (``probably a 3, not an 8, at (4, 6)``); its
    JSON says them too (``"read"``)."""
    from ..misreading import checked

    given.puzzle = checked(given.puzzle, time_limit=given.deadline)
    first = given.puzzle.reading.first_grid
    if first is not None:
        given.hooks.note(
            f"hashi-asp: {given.puzzle.source}: read on a grid of {given.puzzle.rows} x "
            f"{given.puzzle.cols}: the puzzle on the grid first read, {first[0]} x {first[1]}, "
            "has no single solution\n"
        )
    for suspect in given.puzzle.reading.suspects or ():
        given.hooks.note(f"hashi-asp: {given.puzzle.source}: {suspect.words()}\n")


def rules_given(values: dict[str, Any], rules: dict[str, Any]) -> dict[str, Any]:
    """``rules`` (those set by ``-c`` constants) with the rule options given replacing them."""
    for option in RULES:
        if values.get(option.key) is not None:
            rules[option.key] = values[option.key]
    return rules


def read_program(given: Given, reader: Reader) -> None:
    """``given.program`` of a searching command, every clingo option judged by clingo first,
    then the puzzle (whose rules ``-c`` constants may set).  A program the front gave (a
    study's variant, judged when its plan was made) is kept: its rules come as values."""
    if given.program is None:
        given.program, given.rules = program_of(given.values)
    read_puzzle(given, reader)


def program_of(values: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The program of :data:`PROGRAM`'s values (those not given: their defaults), and the rules
    set among its constants; clingo judges its options first."""
    from ..asp.control import judge_program
    from ..asp.interface import program_and_rules

    program, rules = program_and_rules(
        values.get("encoding"),
        values.get("additions") or (),
        values.get("constants") or (),
        values.get("connectivity") or "auto",
        values.get("solver_options"),
        values.get("variants") or (),
    )
    judge_program(program)
    return program, rules
