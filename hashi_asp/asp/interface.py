"""The encoding's interface: what clingo is given and what comes back.

What clingo is given: the rule files (a :class:`Program`: the bundled encodings, or a user's,
with further rules and constants), the puzzle as facts (:func:`facts`) and its rules as
constants (:func:`rule_constants`).  What comes back: an answer's bridges as a
:class:`~hashi_asp.puzzle.Solution` (:func:`solution`), a brave answer's pair states
(:func:`states`).

Every predicate that crosses the boundary, here and in the modules that switch and assume
atoms, is declared once in :mod:`hashi_asp.asp.predicates` (a test checks the declaration
against the ``.lp`` files, and that no other module writes or parses a predicate's name).  By
encoding, the role each plays for Python (this list is :func:`~hashi_asp.asp.predicates.table`,
and a test checks that they agree)::

    hashi.lp             input       rows(H), cols(W), island(R,C,N)
                         output      bridge(R1,C1,R2,C2,K)
                         constant    max_bridges, no_loops
    bridges.lp           input       hidden(R,C)
                         hook        relax(R,C), hidden(R,C), loose(R,C)
    relax.lp             external    relax(R,C)
    consequences.lp      input       pair(R1,C1,R2,C2)
                         output      state(R1,C1,R2,C2,K)
                         assumed     state(R1,C1,R2,C2,K)
                         part        given
                           assumed   at_least(R1,C1,R2,C2,K)
    another_solution.lp  external    want(R1,C1,R2,C2,K)
                         part        number(r,c,n)
                           external  number(r,c,n)
    step.lp              input       rows(H), cols(W), island(R,C,N)
                         output      count(R1,C1,R2,C2,K)
                         external    clue(R,C), connected
                         assumed     count(R1,C1,R2,C2,K)
                         constant    max_bridges, no_loops
    fix.lp               input       rows(H), cols(W), island(R,C,N), mode(M), kept(R1,C1,R2,C2,K),
                                     edits_below(U), may_become(R,C,N), may_go(R,C), may_come(R,C,N)
                         output      line(R,C,D,K), add(R,C,N), remove(R,C), change(R,C,N)
                         constant    max_bridges, no_loops
                         part        alternative(a)
                           input     alt_end(a,R,C,D), alt_over(a,R,C,K)
                         part        at_least(l)
                         part        found(f)
                           input     fix_add(f,R,C,N), fix_remove(f,R,C), fix_change(f,R,C,N)
                         part        move(j)
                           input     move_water(j,R,C), move_island(j,R,C), move_blank(j,R,C),
                                     move_pair(j,R1,C1,R2,C2,K), move_anchor(j,R1,C1,R2,C2),
                                     move_clear(j,R,C,D)
    single_edit.lp       input       island(R,C,N), pair(R1,C1,R2,C2), may_add(R,C,N),
                                     may_remove(R,C), may_change(R,C,N), between(R1,C1,R2,C2,R,C),
                                     crosses(R1,C1,R2,C2,R3,C3,R4,C4), first(R,C), second(R,C)
                         output      bridge(R1,C1,R2,C2,K), add(R,C,N), change(R,C,N)
                         assumed     add(R,C,N), remove(R,C), change(R,C,N), renumbered(R,C)
                         constant    max_bridges, no_loops
    neighbourhood.lp     input       band_rows(B), frame(R,C), loose(R,C), sweep, group(R,C,G),
                                     anchor(G), kept(R1,C1,R2,C2,K)
                         external    band(B), singles_first, released(R,C)

Why a table of our own in :mod:`~hashi_asp.asp.predicates`, not clorm (Potassco's
object-relational mapping for clingo, made for this): measured on a generated puzzle of 100 000
islands (docs/benchmarks.md, "The interface to the encodings"), where clingo takes 30 s of
processor time to ground it and find an answer, clorm took 1.0 s to write the facts and 1.7 s
to read the answer's bridges, against 0.03 s and 0.6 s the way the declaration does it (an
f-string's cost per fact, each atom read from its text): 7 % of clingo's time added to a
``solve``, and 1.1 s more for each further answer ``count`` or ``unique`` reads.  clorm's
classes would also not say which file and role a predicate has, which the tests and the list
above need.

Python states only the raw puzzle: every rule, including which islands can be joined, lives in
the encodings, so editing them (or passing another with ``Program(encoding=...)``) changes the
rules without touching Python.  An encoding copied out of the bundled folder finds the files it
includes there (:func:`included_file`).
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

import clingo

from ..errors import HashiError
from ..puzzle import MAX_BRIDGES_LIMIT, Pair, Puzzle, Rules, Solution, bridge
from ..status import Status
from . import AUTO, FORMULATIONS, MODES, PLAIN, RACE, Formulation, auto, raceable
from .predicates import BRIDGE, COLS, CONSTANTS, HASHI_LP, ISLAND, PAIR, ROWS, STATE

_PACKAGE = Path(__file__).resolve().parent.parent

ENCODING = HASHI_LP  # the whole encoding: what plain clingo runs


def chosen(program: Program, puzzle: Puzzle) -> Program:
    """``program`` with ``auto`` connectivity resolved for ``puzzle`` by the catalogue's rule
    (:func:`hashi_asp.asp.auto`).  A ``race`` resolves the same way where one search is run
    (hint, explanations), and so does its program in a worker (whose connectivity is the
    variant's); an enumeration resolves it once, in :func:`hashi_asp.asp.enumeration.plan`,
    which takes the neighbourhood search first for a first solution of a giant."""
    if program.connectivity not in MODES:
        return program
    name = auto(puzzle, program.encoding is not None)
    return replace(program, connectivity=name, variants=())


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
    path = encodings_folder() / name
    if not path.is_file():
        raise EncodingError(f"bundled encoding {name} not found; reinstall hashi-asp")
    return path


def encodings_folder() -> Path:
    """The folder of the bundled encodings (see :func:`encoding_path`)."""
    for folder in (_PACKAGE.parent / "encodings", _PACKAGE / "encodings"):
        if (folder / ENCODING).is_file():
            return folder
    raise EncodingError(f"bundled encoding {ENCODING} not found; reinstall hashi-asp")


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
    lines.append(f"{ROWS.text(puzzle.rows)}. {COLS.text(puzzle.cols)}.")
    islands = ((r, c, "any" if n is None else n) for (r, c), n in puzzle.islands.items())
    return "\n".join(lines) + "\n" + ISLAND.facts(islands)


def pair_facts(puzzle: Puzzle) -> str:
    """``pair/4`` for every two islands that see each other: the input of ``consequences.lp``."""
    return PAIR.facts((r1, c1, r2, c2) for (r1, c1), (r2, c2) in puzzle.geometry.pairs)


RULE_CONSTANTS = tuple(constant.name for constant in CONSTANTS)


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
    """A rules file clingo can load: a file of UTF-8 text, as are the files it ``#include``s
    (found where clingo finds them, or among the bundled encodings: :func:`included_file`).
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
        included = included_file(path, name)
        if included is not None and included.resolve() not in seen:
            check_rules_file(included, seen, texts)


_INCLUDE = re.compile(r'#include\s*"((?:[^"\\\n]|\\.)*)"')
CLINGO_PATH = "CLINGOPATH"  # clingo's own search path for #include, after its two places


def included_file(path: Path, name: str) -> Path | None:
    """The file clingo loads for ``#include "name".`` in ``path``.  clingo looks in the working
    folder, then beside the including file, then in the folders of the environment variable
    CLINGOPATH.  A name found in none of them but among the bundled encodings is loaded from
    there: the bundled folder is added at the end of CLINGOPATH (in this process, once), so
    that an encoding copied out of it (``cp encodings/hashi.lp my.lp``) still finds
    ``bridges.lp`` and the rest, while a file of the user's, beside it or in the working
    folder, keeps coming first.  None when no place has it: clingo then reports it."""
    folders = [folder for folder in os.environ.get(CLINGO_PATH, "").split(os.pathsep) if folder]
    for candidate in (Path(name), path.parent / name, *(Path(f) / name for f in folders)):
        if candidate.is_file():
            return candidate
    bundled = encodings_folder()
    if not (bundled / name).is_file() or Path(name).is_absolute():
        return None
    os.environ[CLINGO_PATH] = os.pathsep.join([*folders, str(bundled)])
    return bundled / name


def first_error(messages: list[str], fallback: str) -> str:
    """clingo's first error, on one line (it names file, line and column)."""
    for message in messages:
        if "error:" in message:
            return " ".join(message.split())
    return " ".join(messages[0].split()) if messages else fallback


# ---------------------------------------------------------------------------- output


def solution(symbols: Iterable[clingo.Symbol]) -> Solution:
    """The ``bridge/5`` atoms of an answer set as a solution (other shown atoms are ignored).
    Each atom is read from its text (:meth:`~hashi_asp.asp.predicates.Predicate.read_text`):
    several times faster, which counts when every one of many answers is checked.  A
    ``bridge`` atom of another shape is a ValueError."""
    return Solution.of(
        bridge((r1, c1), (r2, c2), k) for r1, c1, r2, c2, k in BRIDGE.read_text(symbols)
    )


def states(symbols: Iterable[clingo.Symbol]) -> dict[Pair, tuple[int, ...]]:
    """The ``state/5`` atoms of a brave answer: the counts each pair takes, pairs in reading
    order, counts ascending."""
    options: dict[Pair, set[int]] = {}
    for r1, c1, r2, c2, k in STATE.read_text(symbols):
        options.setdefault(((r1, c1), (r2, c2)), set()).add(k)
    return {pair: tuple(sorted(ks)) for pair, ks in sorted(options.items())}


def bridge_atom(pair: Pair, count: int) -> str:
    """An answer's ``bridge/5`` atom as text, as :func:`str` of the symbol gives it."""
    (r1, c1), (r2, c2) = pair
    return BRIDGE.text(r1, c1, r2, c2, count)
