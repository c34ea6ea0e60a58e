"""The predicates that cross the boundary between Python and the encodings, each declared once.

Every fact hashi-asp writes for an encoding, every atom it reads back from an answer, and every
atom it switches or assumes goes through a :class:`Predicate` declared here: its name, its
arguments, the encodings whose interface it is and its role in each.  The program parts Python
grounds (:class:`Part`) and the constants that pose the puzzle's rules (:class:`Constant`) are
declared beside them.  So a predicate is renamed, or an argument added, here and in the
encodings only; :func:`table`, the list by encoding that :mod:`hashi_asp.asp.interface` shows,
is made from the same declarations, and the tests check them against the ``.lp`` files.

The roles, as Python sees them:

- ``input``: facts Python writes (the puzzle, the solution to keep, the moves seen...);
- ``output``: atoms Python reads from an answer;
- ``external``: ``#external`` atoms Python switches on, off or free, or assumes;
- ``assumed``: atoms the encoding derives whose program literals Python assumes;
- ``hook``: an atom the file reads but leaves undefined (``#defined``), for a file loaded with
  it to define.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import clingo

INPUT, OUTPUT, EXTERNAL, ASSUMED, HOOK = "input", "output", "external", "assumed", "hook"
ROLES = (INPUT, OUTPUT, EXTERNAL, ASSUMED, HOOK)

# The encodings whose interface Python uses, by file name (in encodings/).
HASHI_LP = "hashi.lp"  # the whole encoding: what plain clingo runs
BRIDGES_LP = "bridges.lp"  # every rule but connectivity (hashi.lp includes it)
RELAX_LP = "relax.lp"
CONSEQUENCES_LP = "consequences.lp"
ANOTHER_SOLUTION_LP = "another_solution.lp"
NEAR_KNOWN_LP = "near_known.lp"  # another solution near the known one (a heuristic)
STEP_LP = "step.lp"  # one step of a walkthrough, checked; loaded on its own
FIX_LP = "fix.lp"  # the author fix's master problem; loaded on its own
SINGLE_EDIT_LP = "single_edit.lp"  # every single edit of the author fix; loaded on its own
NEIGHBOURHOOD_LP = "neighbourhood.lp"  # a round of the neighbourhood search, after bridges.lp
FILES = (
    HASHI_LP,
    BRIDGES_LP,
    RELAX_LP,
    CONSEQUENCES_LP,
    ANOTHER_SOLUTION_LP,
    NEAR_KNOWN_LP,
    STEP_LP,
    FIX_LP,
    SINGLE_EDIT_LP,
    NEIGHBOURHOOD_LP,
)

Value = int | str  # an argument: a number, or the name of a clingo constant (``any``, ``keep``)


@dataclass(frozen=True)
class Predicate:
    """A predicate of the encodings' interface.  ``arguments`` are named as the encodings'
    headers name them (``"R,C,N"``); each takes numbers, unless ``names`` lists the constants
    it takes instead (with ``int`` among them if it takes numbers too: an island's number is a
    number or ``any``).  ``uses`` gives its role, or roles, in each encoding whose interface it
    is; ``part`` the program part it belongs to, if not the base program."""

    name: str
    arguments: str
    uses: Mapping[str, str | tuple[str, ...]]
    meaning: str
    names: Mapping[str, tuple[type | str, ...]] = field(default_factory=dict)
    part: str | None = None

    def __post_init__(self) -> None:
        for file in self.uses:
            if file not in FILES or not set(self.roles(file)) <= set(ROLES):
                raise ValueError(f"{self}: {file} {self.uses[file]}: not an encoding and roles")
        for argument in self.names:
            if argument not in self.argument_names:
                raise ValueError(f"{self}: no argument {argument}")

    def __str__(self) -> str:
        return f"{self.name}/{self.arity}"

    @cached_property
    def argument_names(self) -> tuple[str, ...]:
        return tuple(self.arguments.split(",")) if self.arguments else ()

    @property
    def arity(self) -> int:
        return len(self.argument_names)

    def roles(self, file: str) -> tuple[str, ...]:
        """Its roles in the encoding ``file``: none if it is not of that file's interface."""
        roles = self.uses.get(file, ())
        return (roles,) if isinstance(roles, str) else tuple(roles)

    @property
    def signature(self) -> tuple[str, int]:
        """Name and arity, as clingo's ``symbolic_atoms.by_signature`` takes them."""
        return self.name, self.arity

    @property
    def shape(self) -> str:
        """The atom with its argument names: ``bridge(R1,C1,R2,C2,K)``."""
        return f"{self.name}({self.arguments})" if self.arity else self.name

    # ------------------------------------------------------------------ writing

    def symbol(self, *values: Value) -> clingo.Symbol:
        """The atom with these arguments, as clingo's symbol."""
        self._check(values)
        return clingo.Function(self.name, [_term(value) for value in values])

    def text(self, *values: Value) -> str:
        """The atom with these arguments as text, as ``str`` of its symbol gives it."""
        self._check(values)
        return self._text % values

    def fact(self, *values: Value) -> str:
        """The atom with these arguments as a fact, on a line of its own."""
        return self.text(*values) + ".\n"

    def facts(self, rows: Iterable[tuple[Value, ...]]) -> str:
        """A fact for each row of arguments (each a tuple), one line each: the way to write
        many, as fast as an f-string per fact (so the arguments are not checked)."""
        line = self._text + ".\n"
        return "".join([line % row for row in rows])

    # ------------------------------------------------------------------ reading

    def matches(self, symbol: clingo.Symbol) -> bool:
        """The symbol is an atom of this predicate (its name and arity)."""
        return (
            symbol.type == clingo.SymbolType.Function
            and symbol.name == self.name
            and len(symbol.arguments) == self.arity
        )

    def values(self, symbol: clingo.Symbol) -> tuple[Value, ...]:
        """The arguments of an atom of this predicate; ValueError for another atom, or one whose
        arguments are not what the declaration says."""
        if not self.matches(symbol):
            raise ValueError(f"{symbol} is not an atom of {self}")
        found = tuple(_value(term) for term in symbol.arguments)
        self._check(found)
        return found

    def numbers(self, symbol: clingo.Symbol) -> tuple[int, ...]:
        """The arguments of an atom of this predicate, which takes numbers only; the name is
        not checked again, for atoms picked by :attr:`signature` or :meth:`matches`."""
        return tuple(term.number for term in symbol.arguments)

    def read(self, symbols: Iterable[clingo.Symbol]) -> list[tuple[Value, ...]]:
        """The arguments of each of ``symbols`` of this predicate, others left out."""
        return [self.values(symbol) for symbol in symbols if self.matches(symbol)]

    def read_numbers(self, symbols: Iterable[clingo.Symbol]) -> list[tuple[int, ...]]:
        """As :meth:`read`, for a predicate that takes numbers only."""
        return [self.numbers(symbol) for symbol in symbols if self.matches(symbol)]

    def read_text(self, symbols: Iterable[clingo.Symbol]) -> list[tuple[int, ...]]:
        """As :meth:`read` for a predicate that takes numbers only, each atom read from its text:
        one call into clingo per atom instead of one per argument, several times faster, which
        counts where every one of many answers is read.  An atom of this name and another
        shape (another arity, a term where a number belongs) is a ValueError."""
        if not self._numbers_only:
            raise TypeError(f"{self} takes constants: read it with read()")
        found = []
        name, opening, pattern = self.name, self.name + "(", self._pattern
        for text in map(str, symbols):
            if not (text.startswith(opening) or text == name):
                continue
            match = pattern.fullmatch(text)
            if match is None:
                raise ValueError(f"answer shows {text}, expected {self.shape} with integers")
            found.append(tuple(map(int, match.groups())))
        return found

    # ------------------------------------------------------------------ the arguments

    @cached_property
    def _text(self) -> str:
        """The atom's text with a ``%s`` for each argument."""
        places = ",".join(["%s"] * self.arity)
        return f"{self.name}({places})" if places else self.name

    @cached_property
    def _pattern(self) -> re.Pattern[str]:
        """The atom's text, each argument a group."""
        groups = []
        for argument in self.argument_names:
            numbers, constants = self._takes(argument)
            options = [r"-?\d+"] * numbers + [re.escape(c) for c in constants]
            groups.append("(" + "|".join(options) + ")")
        return re.compile(rf"{self.name}\({','.join(groups)}\)" if groups else self.name)

    def _takes(self, argument: str) -> tuple[bool, tuple[str, ...]]:
        """Whether the argument takes numbers, and the constants it takes."""
        allowed = self.names.get(argument, (int,))
        return int in allowed, tuple(n for n in allowed if isinstance(n, str))

    @cached_property
    def _kinds(self) -> tuple[tuple[bool, tuple[str, ...]], ...]:
        return tuple(self._takes(argument) for argument in self.argument_names)

    @cached_property
    def _numbers_only(self) -> bool:
        return all(kind == (True, ()) for kind in self._kinds)

    def _check(self, values: Sequence[Value]) -> None:
        """Refuse arguments the declaration does not allow (quickly where all are numbers)."""
        if len(values) != self.arity:
            raise ValueError(f"{self} takes {self.arity} arguments, got {len(values)}")
        if self._numbers_only and all(type(value) is int for value in values):
            return
        for argument, value, (numbers, constants) in zip(self.argument_names, values, self._kinds):
            number = type(value) is int
            if not ((numbers and number) or (not number and value in constants)):
                raise ValueError(f"{self.shape}: {argument} cannot be {value!r}")


def _term(value: Value) -> clingo.Symbol:
    return clingo.Number(value) if isinstance(value, int) else clingo.Function(value)


def _value(term: clingo.Symbol) -> Value:
    if term.type == clingo.SymbolType.Number:
        return term.number
    return (
        term.name if term.type == clingo.SymbolType.Function and not term.arguments else str(term)
    )


@dataclass(frozen=True)
class Part:
    """A program part (``#program name(parameters).``) of ``file`` that Python grounds, once
    for each set of numbers it gives the parameters."""

    name: str
    parameters: str  # "a", "r,c,n", or "" for none
    file: str
    meaning: str

    def __str__(self) -> str:
        return f"{self.name}({self.parameters})" if self.parameters else self.name

    def of(self, *values: int) -> tuple[str, list[clingo.Symbol]]:
        """The part for these numbers, as clingo's ``Control.ground`` takes it."""
        wanted = len(self.parameters.split(",")) if self.parameters else 0
        if len(values) != wanted:
            raise ValueError(f"part {self} takes {wanted} numbers, got {len(values)}")
        return self.name, [clingo.Number(value) for value in values]

    def with_facts(self, text: str, *values: int) -> tuple[str, str, str, list[int]]:
        """The part for these numbers with ``text`` (its facts) added as a part of its own, as
        :meth:`hashi_asp.asp.control.Grounded.add_parts` takes it."""
        self.of(*values)
        return "_".join([self.name, *map(str, values)]), text, self.name, list(values)


@dataclass(frozen=True)
class Constant:
    """A ``#const`` of the encodings that poses a rule of the puzzle (clingo's ``-c``)."""

    name: str
    files: tuple[str, ...]
    default: int
    meaning: str


# ---------------------------------------------------------------------------- the puzzle

PUZZLE_FILES = (HASHI_LP, STEP_LP, FIX_LP)
ROWS = Predicate("rows", "H", dict.fromkeys(PUZZLE_FILES, INPUT), "rows 0..H-1, 0 at the top")
COLS = Predicate("cols", "W", dict.fromkeys(PUZZLE_FILES, INPUT), "columns 0..W-1")
ISLAND = Predicate(
    "island",
    "R,C,N",
    dict.fromkeys((*PUZZLE_FILES, SINGLE_EDIT_LP), INPUT),
    "the island on row R, column C needs N bridges; N = any for one without a number",
    names={"N": (int, "any")},
)
BRIDGE = Predicate(
    "bridge",
    "R1,C1,R2,C2,K",
    dict.fromkeys((HASHI_LP, SINGLE_EDIT_LP), OUTPUT),
    "K bridges join (R1,C1) and (R2,C2), right of or below it",
)
MAX_BRIDGES = Constant(
    "max_bridges", (HASHI_LP, STEP_LP, FIX_LP, SINGLE_EDIT_LP), 2, "most bridges on one pair"
)
NO_LOOPS = Constant(
    "no_loops", (HASHI_LP, STEP_LP, FIX_LP, SINGLE_EDIT_LP), 0, "1: the bridges form no cycle"
)
RELAX = Predicate(
    "relax",
    "R,C",
    {BRIDGES_LP: HOOK, RELAX_LP: EXTERNAL},
    "the rules that read the number of island (R,C) do not apply to it",
)

# ---------------------------------------------------------------------------- neighbourhoods

HIDDEN = Predicate(
    "hidden",
    "R,C",
    {BRIDGES_LP: (INPUT, HOOK)},
    "an island left out of the facts, where geometry.lp's scans stop",
)
BAND_ROWS = Predicate(
    "band_rows", "B", {NEIGHBOURHOOD_LP: INPUT}, "a height of bands the first candidate may take"
)
BAND = Predicate(
    "band",
    "B",
    {NEIGHBOURHOOD_LP: EXTERNAL},
    "the first candidate's lines are decided band of B rows by band, from the top",
)
SINGLES_FIRST = Predicate(
    "singles_first", "", {NEIGHBOURHOOD_LP: EXTERNAL}, "a second line is tried last"
)
FRAME = Predicate(
    "frame", "R,C", {NEIGHBOURHOOD_LP: INPUT}, "an island around the round's, bridges kept"
)
LOOSE = Predicate(
    "loose",
    "R,C",
    {BRIDGES_LP: HOOK, NEIGHBOURHOOD_LP: INPUT},
    "an island below the sweep's window: no more lines than its number from it",
)
SWEEP = Predicate("sweep", "", {NEIGHBOURHOOD_LP: INPUT}, "the program is a window of the sweep")
RELEASED = Predicate(
    "released",
    "R,C",
    {NEIGHBOURHOOD_LP: EXTERNAL},
    "the frame island's bridges need not stay as kept (the sweep assumes it false)",
)
GROUP = Predicate(
    "group", "R,C,G", {NEIGHBOURHOOD_LP: INPUT}, "the round's island is in group G (bridges kept)"
)
ANCHOR = Predicate(
    "anchor", "G", {NEIGHBOURHOOD_LP: INPUT}, "group G lies in a part other than the one to join"
)

# ---------------------------------------------------------------------------- hint, generate

PAIR = Predicate(
    "pair",
    "R1,C1,R2,C2",
    {CONSEQUENCES_LP: INPUT, SINGLE_EDIT_LP: INPUT},
    "two islands that see each other; in single_edit.lp, two cells that may under an edit",
)
STATE = Predicate(
    "state", "R1,C1,R2,C2,K", {CONSEQUENCES_LP: (OUTPUT, ASSUMED)}, "the pair has K bridges"
)
GIVEN_PART = Part("given", "", CONSEQUENCES_LP, "the bridges a player drew, as lower bounds")
AT_LEAST = Predicate(
    "at_least",
    "R1,C1,R2,C2,K",
    {CONSEQUENCES_LP: ASSUMED},
    "the pair has K bridges or more",
    part=GIVEN_PART.name,
)
WANT = Predicate(
    "want", "R1,C1,R2,C2,K", {ANOTHER_SOLUTION_LP: EXTERNAL}, "the known solution has K there"
)
NUMBER_PART = Part("number", "r,c,n", ANOTHER_SOLUTION_LP, "the island-count rule of a number")
NUMBER = Predicate(
    "number",
    "r,c,n",
    {ANOTHER_SOLUTION_LP: EXTERNAL},
    "island (r,c) has the new number n",
    part=NUMBER_PART.name,
)

# ---------------------------------------------------------------------------- steps

CLUE = Predicate("clue", "R,C", {STEP_LP: EXTERNAL}, "the number of (R,C) is in the reason")
CONNECTED = Predicate("connected", "", {STEP_LP: EXTERNAL}, "all islands must be connected")
COUNT = Predicate(
    "count", "R1,C1,R2,C2,K", {STEP_LP: (OUTPUT, ASSUMED)}, "the pair has K bridges, 0 for none"
)

# ---------------------------------------------------------------------------- the author fix

MODE = Predicate("mode", "M", {FIX_LP: INPUT}, "keep or free", names={"M": ("keep", "free")})
KEPT = Predicate(
    "kept",
    "R1,C1,R2,C2,K",
    {FIX_LP: INPUT, NEIGHBOURHOOD_LP: INPUT},
    "a bridge of the solution to keep; in neighbourhood.lp, of a pair of the frame",
)
EDITS_BELOW = Predicate("edits_below", "U", {FIX_LP: INPUT}, "only edit sets of fewer than U")
MAY_BECOME = Predicate("may_become", "R,C,N", {FIX_LP: INPUT}, "the only new numbers allowed")
MAY_GO = Predicate("may_go", "R,C", {FIX_LP: INPUT}, "the only islands that may be removed")
MAY_COME = Predicate("may_come", "R,C,N", {FIX_LP: INPUT}, "the only new islands allowed")
ALTERNATIVE_PART = Part("alternative", "a", FIX_LP, "keep mode: one other solution seen")
ALT_END = Predicate(
    "alt_end",
    "a,R,C,D",
    {FIX_LP: INPUT},
    "an island of the merged alternative with D bridges",
    part=ALTERNATIVE_PART.name,
)
ALT_OVER = Predicate(
    "alt_over",
    "a,R,C,K",
    {FIX_LP: INPUT},
    "a water cell under one of its bridges of K lines",
    part=ALTERNATIVE_PART.name,
)
AT_LEAST_PART = Part("at_least", "l", FIX_LP, "only edit sets of l edits or more")
FOUND_PART = Part("found", "f", FIX_LP, "a fix found already: not it, nor one with all its edits")
FIX_ADD = Predicate(
    "fix_add", "f,R,C,N", {FIX_LP: INPUT}, "a new island of the fix found", part=FOUND_PART.name
)
FIX_REMOVE = Predicate(
    "fix_remove", "f,R,C", {FIX_LP: INPUT}, "an island it removes", part=FOUND_PART.name
)
FIX_CHANGE = Predicate(
    "fix_change", "f,R,C,N", {FIX_LP: INPUT}, "an island it renumbers", part=FOUND_PART.name
)
MOVE_PART = Part("move", "j", FIX_LP, "free mode: a move between two solutions seen")
MOVE_WATER = Predicate(
    "move_water", "j,R,C", {FIX_LP: INPUT}, "water the move needs", part=MOVE_PART.name
)
MOVE_ISLAND = Predicate(
    "move_island", "j,R,C", {FIX_LP: INPUT}, "an island it needs", part=MOVE_PART.name
)
MOVE_BLANK = Predicate(
    "move_blank", "j,R,C", {FIX_LP: INPUT}, "an island without a number", part=MOVE_PART.name
)
MOVE_PAIR = Predicate(
    "move_pair", "j,R1,C1,R2,C2,K", {FIX_LP: INPUT}, "a pair and its count", part=MOVE_PART.name
)
MOVE_ANCHOR = Predicate(
    "move_anchor", "j,R1,C1,R2,C2", {FIX_LP: INPUT}, "a bridge it needs", part=MOVE_PART.name
)
MOVE_CLEAR = Predicate(
    "move_clear",
    "j,R,C,D",
    {FIX_LP: INPUT},
    "a cell no bridge may cross in direction D",
    names={"D": ("h", "v")},
    part=MOVE_PART.name,
)
LINE = Predicate(
    "line",
    "R,C,D,K",
    {FIX_LP: OUTPUT},
    "free mode: K lines from (R,C) to the next cell right (h) or down (v)",
    names={"D": ("h", "v")},
)
ADD = Predicate(
    "add",
    "R,C,N",
    {FIX_LP: OUTPUT, SINGLE_EDIT_LP: (ASSUMED, OUTPUT)},
    "a new island N on water",
)
REMOVE = Predicate(
    "remove", "R,C", {FIX_LP: OUTPUT, SINGLE_EDIT_LP: ASSUMED}, "the island is taken away"
)
CHANGE = Predicate(
    "change",
    "R,C,N",
    {FIX_LP: OUTPUT, SINGLE_EDIT_LP: (ASSUMED, OUTPUT)},
    "the island's number becomes N",
)
MAY_ADD = Predicate("may_add", "R,C,N", {SINGLE_EDIT_LP: INPUT}, "a new island to try")
MAY_REMOVE = Predicate("may_remove", "R,C", {SINGLE_EDIT_LP: INPUT}, "an island to try without")
MAY_CHANGE = Predicate("may_change", "R,C,N", {SINGLE_EDIT_LP: INPUT}, "a number to try")
BETWEEN = Predicate(
    "between",
    "R1,C1,R2,C2,R,C",
    {SINGLE_EDIT_LP: INPUT},
    "a cell between a pair's that may hold one",
)
CROSSES = Predicate(
    "crosses",
    "R1,C1,R2,C2,R3,C3,R4,C4",
    {SINGLE_EDIT_LP: INPUT},
    "a row pair and a column pair that cross",
)
FIRST = Predicate("first", "R,C", {SINGLE_EDIT_LP: INPUT}, "the first island in reading order")
SECOND = Predicate("second", "R,C", {SINGLE_EDIT_LP: INPUT}, "the second one")
RENUMBERED = Predicate("renumbered", "R,C", {SINGLE_EDIT_LP: ASSUMED}, "some new number at (R,C)")

# The edits of the author fix by their kind (hashi_asp.fixing.Edit.kind): the atom that makes
# one, and the fact that offers it to single_edit.lp.
EDITS = {"add": ADD, "remove": REMOVE, "change": CHANGE}
OFFERS = {"add": MAY_ADD, "remove": MAY_REMOVE, "change": MAY_CHANGE}

PREDICATES = tuple(value for value in list(globals().values()) if isinstance(value, Predicate))
PARTS = tuple(value for value in list(globals().values()) if isinstance(value, Part))
CONSTANTS = (MAX_BRIDGES, NO_LOOPS)


def table(width: int = 96) -> str:
    """The declarations by encoding: each file with the atoms of each role, the constants it
    takes and the parts Python grounds with the atoms that belong to them."""
    lines: list[str] = []

    def row(file: str, role: str, items: list[str]) -> None:
        head = f"{file:<21}{role:<12}"
        wrapped = textwrap.wrap(", ".join(items), width - len(head), break_on_hyphens=False)
        lines.append(head + wrapped[0])
        lines.extend(" " * len(head) + more for more in wrapped[1:])

    for file in FILES:
        first = len(lines)
        for part in [None, *(p.name for p in PARTS if p.file == file)]:
            if part is not None:
                named = next(p for p in PARTS if p.file == file and p.name == part)
                row("", "part", [str(named)])
            for role in ROLES:
                atoms = [p.shape for p in PREDICATES if role in p.roles(file) and p.part == part]
                if atoms:
                    row("", role if part is None else f"  {role}", atoms)
            if part is None:
                names = [c.name for c in CONSTANTS if file in c.files]
                if names:
                    row("", "constant", names)
        if len(lines) > first:
            lines[first] = f"{file:<21}" + lines[first][21:]
    return "\n".join(line.rstrip() for line in lines) + "\n"
