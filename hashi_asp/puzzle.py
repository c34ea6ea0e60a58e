"""The puzzle model: islands on a grid, bridges between them, and the errors users can meet.

A puzzle is a grid of ``rows`` x ``cols`` cells; some cells hold an island with a number (or
``None`` for an island drawn without one, which needs at least one bridge), the rest are water.
A solution is a set of bridges, each joining two islands in the same row or column with a count
of 1 or 2.  A puzzle carries its own rules: ``max_bridges`` (most bridges between one pair,
Simon Tatham's ``mK``) and ``no_loops`` (the bridges may not form a cycle, Tatham's ``L``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Hashable, Iterable, Mapping, NamedTuple, TypeVar

Cell = tuple[int, int]
"""(row, column), both 0-based, row 0 at the top."""

MAX_CELLS = 10_000_000
"""Largest grid any reader accepts; checked before anything of that size is allocated."""

MAX_BRIDGES_LIMIT = 64
"""Largest ``max_bridges`` any rule may set: the encoding grounds one atom per count of every
pair of islands, so a huge limit would keep clingo grounding for ever (64 grounds a 400-island
puzzle in under a second; Tatham's Bridges goes up to 4)."""


class HashiError(Exception):
    """Base class for the errors the command line reports as one line with an exit code."""

    exit_code = 2


class PuzzleError(HashiError):
    """Malformed input: says what is wrong and where (source, 1-based line and column)."""

    def __init__(self, message: str, source: str | None = None,
                 line: int | None = None, column: int | None = None):
        super().__init__(message)
        self.message = message
        self.source = source
        self.line = line
        self.column = column

    def __str__(self) -> str:
        where = [str(part) for part in (self.source, self.line, self.column) if part is not None]
        return ":".join(where) + ": " + self.message if where else self.message


class Bridge(NamedTuple):
    """``count`` bridges between the islands at (r1, c1) and (r2, c2), (r1, c1) first in reading order."""

    r1: int
    c1: int
    r2: int
    c2: int
    count: int

    @property
    def ends(self) -> tuple[Cell, Cell]:
        return (self.r1, self.c1), (self.r2, self.c2)

    @property
    def horizontal(self) -> bool:
        return self.r1 == self.r2

    def cells_between(self) -> list[Cell]:
        """The cells strictly between the two ends (empty for a diagonal, which has no line)."""
        if self.r1 == self.r2:
            low, high = sorted((self.c1, self.c2))
            return [(self.r1, c) for c in range(low + 1, high)]
        if self.c1 == self.c2:
            low, high = sorted((self.r1, self.r2))
            return [(r, self.c1) for r in range(low + 1, high)]
        return []


def bridge(a: Cell, b: Cell, count: int) -> Bridge:
    """A bridge between cells ``a`` and ``b`` in either order, normalised to reading order."""
    (r1, c1), (r2, c2) = sorted((tuple(a), tuple(b)))
    return Bridge(r1, c1, r2, c2, count)


@dataclass(frozen=True)
class Solution:
    """The bridges of one answer, in reading order of their first end."""

    bridges: tuple[Bridge, ...]

    @classmethod
    def of(cls, bridges: Iterable[Bridge]) -> "Solution":
        return cls(tuple(sorted(bridges)))

    def counts(self) -> dict[tuple[Cell, Cell], int]:
        """Bridge count by pair of ends, for comparing solutions."""
        return {b.ends: b.count for b in self.bridges}

    def to_json(self) -> dict:
        return {"bridges": [list(b) for b in self.bridges]}


DEFAULT_MAX_BRIDGES = 2


@dataclass(frozen=True, eq=True)
class Puzzle:
    """A rectangular grid with islands; ``islands`` maps (row, col) to the island's number, or
    to ``None`` for an island without a number.  ``max_bridges`` and ``no_loops`` are the rules
    the puzzle is posed under (the standard rules unless its notation says otherwise)."""

    rows: int
    cols: int
    islands: Mapping[Cell, int | None] = field(compare=True)
    source: str = field(default="<puzzle>", compare=False)
    max_bridges: int = DEFAULT_MAX_BRIDGES
    no_loops: bool = False

    def __post_init__(self) -> None:
        # Readers report errors with a line and column before building a Puzzle; these checks
        # guard puzzles built directly through the library.
        if self.rows < 1 or self.cols < 1:
            raise PuzzleError(f"grid must be at least 1x1, got {self.rows}x{self.cols}", self.source)
        if self.rows * self.cols > MAX_CELLS:
            raise PuzzleError(f"grid {self.rows}x{self.cols} exceeds the limit of {MAX_CELLS} cells",
                              self.source)
        if not self.islands:
            raise PuzzleError("puzzle has no islands", self.source)
        for (r, c), n in self.islands.items():
            if not (0 <= r < self.rows and 0 <= c < self.cols):
                raise PuzzleError(f"island ({r}, {c}) lies outside the {self.rows}x{self.cols} grid",
                                  self.source)
            if n is not None and n < 1:
                raise PuzzleError(f"island ({r}, {c}) has number {n}; numbers start at 1", self.source)
        if not 1 <= self.max_bridges <= MAX_BRIDGES_LIMIT:
            raise PuzzleError(f"max_bridges must be 1..{MAX_BRIDGES_LIMIT}, got {self.max_bridges}",
                              self.source)
        # Keep islands in reading order so every output built from them is deterministic.
        object.__setattr__(self, "islands", dict(sorted(self.islands.items())))

    def __hash__(self) -> int:
        return hash((self.rows, self.cols, tuple(self.islands.items()), self.max_bridges,
                     self.no_loops))

    @property
    def standard_rules(self) -> bool:
        """True when the puzzle is posed under the standard rules (at most 2 bridges, loops allowed)."""
        return self.max_bridges == DEFAULT_MAX_BRIDGES and not self.no_loops

    def rules_text(self) -> str:
        """The rules in words, for messages: e.g. ``max_bridges=3, no loops``."""
        return ", ".join([f"max_bridges={self.max_bridges}"] + ["no loops"] * self.no_loops)

    def to_json(self) -> dict:
        """The JSON notation; the rules appear only when they differ from the standard ones."""
        document = {"rows": self.rows, "cols": self.cols,
                    "islands": [[r, c, n] for (r, c), n in self.islands.items()]}
        if self.max_bridges != DEFAULT_MAX_BRIDGES:
            document["max_bridges"] = self.max_bridges
        if self.no_loops:
            document["no_loops"] = True
        return document


Node = TypeVar("Node", bound=Hashable)


def connected_groups(nodes: Iterable[Node],
                     neighbours: Callable[[Node], Iterable[Node]]) -> list[list[Node]]:
    """The connected groups of a graph, each sorted, in the order of their first node in
    ``nodes`` (depth first, so that the same input always gives the same groups)."""
    groups, seen = [], set()
    for start in nodes:
        if start in seen:
            continue
        seen.add(start)
        group, stack = [], [start]
        while stack:
            node = stack.pop()
            group.append(node)
            for other in neighbours(node):
                if other not in seen:
                    seen.add(other)
                    stack.append(other)
        groups.append(sorted(group))
    return groups
