"""The encoding's interface: what clingo is given and what comes back.

The one place that knows the encodings' files and predicate names:

=======================  =========  ========================================================
``rows/1``, ``cols/1``   input      grid size (:func:`facts`)
``island/3``             input      ``island(R,C,N)``, ``N = any`` for an island without one
``max_bridges``          constant   the puzzle's :class:`~hashi_asp.puzzle.Rules`
``no_loops``             constant   (:func:`rule_constants`)
``bridge/5``             output     an answer's bridges (:func:`solution`)
``relax/2``              external   switches an island's number off (``relax.lp``)
``pair/4``, ``state/5``  in, out    the state of every pair of neighbours (``consequences.lp``)
``at_least/5``           assumed    a player's bridge as a lower bound (``consequences.lp``)
``want/5``, ``number/3`` external   the known solution and changed numbers of the uniqueness
                                    repair (``another_solution.lp``)
``count/5``              out, asm.  a pair's bridge count, 0 for none (``step.lp``)
``clue/2``, ``connected``  external the islands of a step's reason, and connectivity on
                                    (``step.lp``)
=======================  =========  ========================================================

Python states only the raw puzzle: every rule, including which islands can be joined, lives in
the encodings, so editing them (or passing another with ``Program(encoding=...)``) changes the
rules without touching Python.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

import clingo

from ..puzzle import (
    MAX_BRIDGES_LIMIT,
    Bridge,
    Cell,
    HashiError,
    Pair,
    Puzzle,
    Rules,
    Solution,
    bridge,
)
from ..status import Status
from . import AUTO, FORMULATIONS, MODES, PLAIN, RACE, Formulation, auto, raceable

_PACKAGE = Path(__file__).resolve().parent.parent

ENCODING = "hashi.lp"  # the whole encoding: what plain clingo runs
RELAX = "relax.lp"
CONSEQUENCES = "consequences.lp"
ANOTHER_SOLUTION = "another_solution.lp"
STEP = "step.lp"  # checks one step of a walkthrough; loaded on its own, not with hashi.lp


def chosen(program: Program, puzzle: Puzzle) -> Program:
    """``program`` with ``auto`` connectivity resolved for ``puzzle`` by the catalogue's rule
    (:func:`hashi_asp.asp.auto`).  A ``race`` resolves the same way where one search is run
    (hint, explanations), and so does its program in a worker (whose connectivity is the
    variant's)."""
    if program.connectivity not in MODES:
        return program
    return replace(program, connectivity=auto(puzzle, program.encoding is not None), variants=())


class EncodingError(HashiError):
    """An encoding (or added rules, or a constant) that clingo cannot load or ground."""

    status = Status.BAD_INPUT


class InvalidAnswer(HashiError):
    """An answer set that breaks the rules: the encoding is wrong, the answer is not shown."""

    status = Status.FAULT

    def __init__(self, number: int, violations: list):
        shown = "; ".join(v.message for v in violations[:3])
        more = f" (and {len(violations) - 3} more)" if len(violations) > 3 else ""
        super().__init__(f"encoding error: answer {number} breaks the rules: {shown}{more}")
        self.number = number
        self.violations = violations

    def __reduce__(self) -> tuple:  # sent whole from a worker process of a race
        return InvalidAnswer, (self.number, self.violations)


def encoding_path(name: str = ENCODING) -> Path:
    """A bundled encoding: the source checkout's ``encodings/`` when there is one, so that an
    editable install runs the file being edited, else the copy installed inside the package."""
    for folder in (_PACKAGE.parent / "encodings", _PACKAGE / "encodings"):
        if (folder / name).is_file():
            return folder / name
    raise EncodingError(f"bundled encoding {name} not found; reinstall hashi-asp")


@dataclass(frozen=True)
class Program:
    """The rules clingo is given besides the puzzle: ``encoding`` replaces the first file of the
    formulation (the bundled ``hashi.lp`` or ``bridges.lp``), ``additions`` are rule files loaded
    with it, ``constants`` are clingo ``#const`` values (other than the puzzle's rules, which the
    puzzle carries), and ``connectivity`` is ``auto``, a formulation of the catalogue
    (:data:`hashi_asp.asp.FORMULATIONS`) or ``race``; ``options`` are clingo's own options (for
    the search: ``--configuration``, ``--parallel-mode``/``-t``, ``--seed``...), which replace
    hashi-asp's defaults of the same name; ``variants`` are what a ``race`` runs, each a
    formulation and clingo options (``"reach --configuration=jumpy"``), by default chosen by
    :func:`hashi_asp.asp.portfolio.variants`."""

    encoding: str | os.PathLike | None = None
    additions: tuple[str | os.PathLike, ...] = ()
    constants: Mapping[str, str | int] = field(default_factory=dict)
    connectivity: str = "auto"
    options: tuple[str, ...] = ()  # clingo's own options (--configuration=handy, -t 2, ...)
    variants: tuple[str, ...] = ()  # a race's: "tree", "reach --configuration=jumpy", ...

    def __post_init__(self) -> None:
        object.__setattr__(self, "additions", tuple(self.additions))
        object.__setattr__(self, "options", tuple(self.options))
        object.__setattr__(self, "variants", tuple(" ".join(v.split()) for v in self.variants))
        for variant in self.variants:
            if not variant or variant.split()[0] not in raceable():
                raise EncodingError(
                    f"a variant is {' or '.join(raceable())}, then clingo options; got {variant!r}"
                )
        if self.variants and self.connectivity != RACE:
            raise EncodingError("variants are raced: they need connectivity race")
        object.__setattr__(self, "constants", {str(k): str(v) for k, v in self.constants.items()})
        if self.connectivity not in (*FORMULATIONS, *MODES):
            known = ", ".join([AUTO, *FORMULATIONS, RACE])
            raise EncodingError(f"connectivity must be one of {known}, got {self.connectivity!r}")
        for name in RULE_CONSTANTS:
            if name in self.constants:
                raise EncodingError(
                    f"{name} is a rule of the puzzle, not a constant of the "
                    "program: set it on the puzzle (Puzzle.with_rules, or "
                    "--max-bridges and --no-loops)"
                )

    @property
    def formulation(self) -> Formulation:
        """The catalogue's formulation of the program's connectivity; ``auto`` and ``race``
        (unresolved, as plain clingo runs them) stand for the whole encoding's
        (:data:`~hashi_asp.asp.PLAIN`)."""
        return FORMULATIONS[self.connectivity if self.connectivity not in MODES else PLAIN]

    @property
    def projected(self) -> bool:
        """Whether enumerations count answers as sets of shown atoms: where the program may
        choose more than the bridges (a user's rules may; the tree's parent links and the
        flow's values do), so that one solution can come as several answers."""
        return self.own_rules or self.formulation.projected

    @property
    def own_rules(self) -> bool:
        """Whether rules of the user's are loaded (a replacement encoding, or additions)."""
        return self.encoding is not None or bool(self.additions)

    def files(self) -> list[Path]:
        """The rule files clingo loads, in order: the formulation's, the first replaced by the
        user's encoding (which then must leave connectivity out if the formulation adds it),
        then the user's additions."""
        main, *parts = self.formulation.files
        first = Path(self.encoding) if self.encoding is not None else encoding_file(main)
        return [first, *map(encoding_file, parts), *map(Path, self.additions)]


def encoding_file(name: str) -> Path:
    """A formulation's file: a bundled encoding by its name, else a path."""
    return Path(name) if Path(name).name != name else encoding_path(name)


# ---------------------------------------------------------------------------- input


def facts(puzzle: Puzzle) -> str:
    """The puzzle as ASP facts: the input of the encoding, and nothing derived from it.  An
    island without a number is ``island(R,C,any)``.  The puzzle's rules are clingo constants,
    not facts: for other than the standard rules a comment says which ``-c`` options to give."""
    # The source (a file name) is shown printable only: a line break in it would end the comment.
    source = "".join(ch if ch.isprintable() else "?" for ch in puzzle.source)
    lines = [f"% {source}: {puzzle.rows}x{puzzle.cols}, {len(puzzle.islands)} islands"]
    if not puzzle.rules.standard:
        lines.append(
            f"% rules: {puzzle.rules}; run clingo with "
            + " ".join(f"-c {name}={value}" for name, value in rule_constants(puzzle.rules).items())
        )
    lines.append(f"rows({puzzle.rows}). cols({puzzle.cols}).")
    lines.extend(
        f"island({r},{c},{'any' if n is None else n})." for (r, c), n in puzzle.islands.items()
    )
    return "\n".join(lines) + "\n"


def pair_facts(puzzle: Puzzle) -> str:
    """``pair/4`` for every two islands that see each other: the input of ``consequences.lp``."""
    return "".join(f"pair({r1},{c1},{r2},{c2}).\n" for (r1, c1), (r2, c2) in puzzle.geometry.pairs)


RULE_CONSTANTS = ("max_bridges", "no_loops")


def rule_constants(rules: Rules) -> dict[str, str]:
    """The encoding constants that pose the rules, where they differ from the defaults."""
    constants = {}
    if rules.max_bridges != Rules().max_bridges:
        constants["max_bridges"] = str(rules.max_bridges)
    if rules.no_loops:
        constants["no_loops"] = "1"
    return constants


def program_and_rules(
    encoding: str | os.PathLike | None = None,
    additions: Iterable[str | os.PathLike] = (),
    constants: Iterable[str] = (),
    connectivity: str = "auto",
    solver_options: str | None = None,
    variants: Iterable[str] = (),
) -> tuple[Program, dict[str, int | bool]]:
    """The program from options as users give them (constants as ``NAME=VALUE`` strings, as in
    clingo's ``-c``; clingo's options as one string, split as a shell would), and the rules set
    among the constants (``max_bridges=3``, ``no_loops=1``), as keyword arguments of
    :meth:`Puzzle.with_rules`."""
    named = {}
    for pair in constants:
        name, equals, value = pair.partition("=")
        if not equals or not name or not value:
            raise EncodingError(f"-c {pair[:40]!r}: expected NAME=VALUE")
        named[name] = value
    rules = rules_of_constants(named)
    others = {name: value for name, value in named.items() if name not in RULE_CONSTANTS}
    try:
        options = tuple(shlex.split(solver_options or ""))
    except ValueError as error:  # an unclosed quote
        raise EncodingError(f"clingo options {solver_options!r}: {error}") from None
    program = Program(encoding, tuple(additions), others, connectivity, options, tuple(variants))
    return program, rules


def rules_of_constants(constants: Mapping[str, str]) -> dict[str, int | bool]:
    """The rules given as constants (``-c max_bridges=3``, ``-c no_loops=1``), as keyword
    arguments of :meth:`Puzzle.with_rules`; a value the encoding cannot mean is refused."""
    rules: dict[str, int | bool] = {}
    if "max_bridges" in constants:
        value = str(constants["max_bridges"]).strip()
        if not re.fullmatch(r"[+-]?[0-9]+", value):
            raise EncodingError(f"max_bridges must be an integer, got {value[:40]!r}")
        limit = int(value) if len(value) <= 18 else MAX_BRIDGES_LIMIT + 1
        if not 1 <= limit <= MAX_BRIDGES_LIMIT:
            raise EncodingError(f"max_bridges must be 1..{MAX_BRIDGES_LIMIT}, got {value[:40]}")
        rules["max_bridges"] = limit
    if "no_loops" in constants:
        value = str(constants["no_loops"])
        if value not in ("0", "1"):
            raise EncodingError(f"no_loops must be 0 or 1, got {value!r}")
        rules["no_loops"] = value == "1"
    return rules


_CONSTANT_NAME = re.compile(r"[a-z_][A-Za-z0-9_']*\Z")


def constant_arguments(puzzle: Puzzle, program: Program, words: set[str]) -> list[str]:
    """clingo's ``-c`` options for the puzzle's rules and the program's constants, each name and
    value checked first; ``words`` are the names the rules loaded use (:func:`read_rules`): a
    constant none of them mentions would be ignored without a word, so it is refused."""
    arguments = []
    for name, value in {**rule_constants(puzzle.rules), **program.constants}.items():
        value = str(value)
        if not _CONSTANT_NAME.match(name):
            raise EncodingError(f"constant name {name[:40]!r} is not a clingo identifier")
        problem = _not_a_term(value)
        if problem is not None:
            raise EncodingError(f"-c {name}={value[:40]}: not a clingo term: {problem}")
        if name in program.constants and name not in words:
            raise EncodingError(
                f"-c {name}: no rules loaded use {name}, so it would change "
                "nothing (is it misspelt?)"
            )
        arguments += ["-c", f"{name}={value}"]
    return arguments


def _not_a_term(value: str) -> str | None:
    """What clingo's term reader finds wrong with ``value``, or None for a term.  (clingo would
    report a value it cannot read through its logger with bytes that are not text, and stop the
    process; its own term reader says what is wrong instead.)"""
    messages: list[str] = []
    try:
        clingo.parse_term(value, logger=lambda code, message: messages.append(message))
    except RuntimeError as error:
        return first_error(messages, " ".join(str(error).split()))
    return None


def read_rules(paths: Iterable[Path]) -> set[str]:
    """Check that clingo can load the rule files (:func:`check_rules_file`, their includes too)
    and return the names they use, comments left out."""
    texts: list[str] = []
    for path in paths:
        check_rules_file(path, texts=texts)
    code = _COMMENT.sub(" ", "\n".join(texts))
    return set(_NAME.findall(code))


_COMMENT = re.compile(r"%\*.*?\*%|%[^\n]*", re.S)
_NAME = re.compile(r"[a-z_][A-Za-z0-9_']*")


def check_rules_file(
    path: Path, seen: set[Path] | None = None, texts: list[str] | None = None
) -> None:
    """A rules file clingo can load: a file of UTF-8 text, as are the files it ``#include``s.
    (clingo passes its messages on as they are, and one quoting bytes that are not UTF-8 would
    stop the process inside clingo's Python module; so those are refused here, with their
    place.)  The texts read are added to ``texts``."""
    seen = set() if seen is None else seen
    if path.is_dir():
        raise EncodingError(f"{path}: is a directory, not an encoding file")
    if not path.is_file():
        raise EncodingError(
            f"{path}: {'not a regular file' if path.exists() else 'no such encoding file'}"
        )
    try:
        data = path.read_bytes()
    except (OSError, ValueError) as error:
        raise EncodingError(
            f"{path}: cannot read: {getattr(error, 'strerror', None) or error}"
        ) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise EncodingError(
            f"{path}:{line}:{column}: not UTF-8 text (byte "
            f"0x{data[error.start]:02x}); clingo reads rules as UTF-8"
        ) from None
    seen.add(path.resolve())
    if texts is not None:
        texts.append(text)
    for name in _INCLUDE.findall(text):
        # clingo looks beside the including file, then in the working directory; a file it
        # cannot find is its own error, reported when it loads.
        for candidate in (path.parent / name, Path(name)):
            if candidate.is_file():
                if candidate.resolve() not in seen:
                    check_rules_file(candidate, seen, texts)
                break


_INCLUDE = re.compile(r'#include\s*"((?:[^"\\\n]|\\.)*)"')


def first_error(messages: list[str], fallback: str) -> str:
    """clingo's first error, on one line (it names file, line and column)."""
    for message in messages:
        if "error:" in message:
            return " ".join(message.split())
    return " ".join(messages[0].split()) if messages else fallback


# ---------------------------------------------------------------------------- output


def solution(symbols: Iterable[clingo.Symbol]) -> Solution:
    """The ``bridge/5`` atoms of an answer set as a solution (other shown atoms are ignored).
    Each atom is read from its text: one call into clingo per atom instead of one per argument
    makes this several times faster, which counts when every one of many answers is checked."""
    bridges = []
    for text in map(str, symbols):
        if not (text == "bridge" or text.startswith("bridge(")):
            continue
        match = _BRIDGE_ATOM.fullmatch(text)
        if match is None:
            raise ValueError(f"answer shows {text}, expected bridge(R1,C1,R2,C2,K) with integers")
        r1, c1, r2, c2, k = map(int, match.groups())
        bridges.append(bridge((r1, c1), (r2, c2), k))
    return Solution.of(bridges)


_BRIDGE_ATOM = re.compile(r"bridge\((-?\d+),(-?\d+),(-?\d+),(-?\d+),(-?\d+)\)")


def states(symbols: Iterable[clingo.Symbol]) -> dict[Pair, tuple[int, ...]]:
    """The ``state/5`` atoms of a brave answer: the counts each pair takes, pairs in reading
    order, counts ascending."""
    options: dict[Pair, set[int]] = {}
    for symbol in symbols:
        if symbol.name == "state" and len(symbol.arguments) == 5:
            r1, c1, r2, c2, k = (a.number for a in symbol.arguments)
            options.setdefault(((r1, c1), (r2, c2)), set()).add(k)
    return {pair: tuple(sorted(ks)) for pair, ks in sorted(options.items())}


# ---------------------------------------------------------------------------- switches

GIVEN = "given"  # the part of consequences.lp with at_least/5
NUMBER = "number"  # the part of another_solution.lp, one per new number


def at_least(drawn: Bridge) -> clingo.Symbol:
    """The atom assumed for a player's bridge: at least that many bridges on its pair."""
    return clingo.Function("at_least", [clingo.Number(v) for v in drawn])


def relax(cell: Cell) -> clingo.Symbol:
    return clingo.Function("relax", [clingo.Number(v) for v in cell])


def relaxed_cell(symbol: clingo.Symbol) -> Cell:
    """The island a ``relax/2`` atom switches."""
    r, c = (a.number for a in symbol.arguments)
    return r, c


def want(pair: Pair, count: int) -> clingo.Symbol:
    """The switch saying the known solution has ``count`` bridges on ``pair``."""
    (r1, c1), (r2, c2) = pair
    return clingo.Function("want", [clingo.Number(v) for v in (r1, c1, r2, c2, count)])


def number(cell: Cell, value: int) -> clingo.Symbol:
    """The switch (and the part's arguments) giving island ``cell`` the number ``value``."""
    return clingo.Function(NUMBER, [clingo.Number(v) for v in (*cell, value)])


def edit_switch(kind: str, cell: Cell, value: int | None) -> clingo.Symbol:
    """The atom of ``single_edit.lp`` making one edit (assumed): ``add(R,C,N)``,
    ``remove(R,C)`` (``value`` None) or ``change(R,C,N)``."""
    numbers = [*cell] if value is None else [*cell, value]
    return clingo.Function(kind, [clingo.Number(v) for v in numbers])


def renumbered(cell: Cell) -> clingo.Symbol:
    """The atom of ``single_edit.lp`` for some new number at ``cell`` (assumed)."""
    return clingo.Function("renumbered", [clingo.Number(v) for v in cell])


def bridge_atom(pair: Pair, count: int) -> str:
    """An answer's ``bridge/5`` atom as text, as :func:`str` of the symbol gives it."""
    (r1, c1), (r2, c2) = pair
    return f"bridge({r1},{c1},{r2},{c2},{count})"


def count(pair: Pair, k: int) -> clingo.Symbol:
    """``count/5`` of ``step.lp``: ``pair`` has ``k`` bridges (0 for none)."""
    (r1, c1), (r2, c2) = pair
    return clingo.Function("count", [clingo.Number(v) for v in (r1, c1, r2, c2, k)])


def clue(cell: Cell) -> clingo.Symbol:
    """The switch of ``step.lp`` putting the number of island ``cell`` into the reason."""
    return clingo.Function("clue", [clingo.Number(v) for v in cell])


CONNECTED = clingo.Function("connected")  # step.lp: all islands must be connected
