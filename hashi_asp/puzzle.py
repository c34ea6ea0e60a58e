"""The ground floor: islands on a grid, the rules a puzzle is posed under, bridges, solutions,
and where bridges can go.

A puzzle is a grid of ``rows`` x ``cols`` cells; some cells hold an island with a number (or
``None`` for an island drawn without one, which needs at least one bridge), the rest are water.
A solution is a set of bridges, each joining two islands in the same row or column with a count
of 1 or more.  Every layer above reads the puzzle's :class:`Rules` and its :class:`Geometry`
(which pairs of islands see each other, which of their bridges would cross) from the puzzle
itself: the geometry is computed once, on first use, and shared by all.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import NamedTuple

from .errors import PuzzleError

Cell = tuple[int, int]
"""(row, column), both 0-based, row 0 at the top."""

Pair = tuple[Cell, Cell]
"""Two islands that see each other, the first one first in reading order."""

MAX_CELLS = 10_000_000
"""Largest grid any reader accepts; checked before anything of that size is allocated."""

MAX_BRIDGES_LIMIT = 64
"""Largest ``max_bridges`` a rule may set: the encoding grounds one atom per count of every
pair of islands, so a huge limit would keep clingo grounding for ever (64 grounds a 400-island
puzzle in under a second; Simon Tatham's Bridges goes up to 4)."""


def parse_size(text: str) -> tuple[int, int]:
    """A board as users write it: ``WxH`` (columns x rows), or one number for a square; as
    (rows, cols)."""
    import re

    shown = repr(text) if len(text) <= 40 else repr(text[:36]) + "..."
    match = re.fullmatch(r"\s*(\d+)\s*(?:[xX]\s*(\d+)\s*)?", text)
    if not match:
        raise PuzzleError(f"size {shown}: expected WxH (e.g. 16x16) or a single side")
    if any(len(side) > 9 for side in match.groups() if side):  # (beyond any board's limit)
        raise PuzzleError(f"size {shown}: a side of more than 9 digits")
    cols, rows = int(match.group(1)), int(match.group(2) or match.group(1))
    if rows < 1 or cols < 1:
        raise PuzzleError(f"size {shown}: width and height must be at least 1")
    return rows, cols


def cell_name(cell: Cell) -> str:
    """``(r, c)``: how every message names a cell."""
    return f"({cell[0]}, {cell[1]})"


def plural(count: int, words: str) -> str:
    """``1 solution``, ``2 solutions``, ``1 more bridge``: how every message counts."""
    return f"{count} {words}{'s' * (count != 1)}"


def pair_name(a: Cell, b: Cell) -> str:
    """``(r1, c1)-(r2, c2)``: how every message names a pair of islands."""
    return f"{cell_name(a)}-{cell_name(b)}"


# ---------------------------------------------------------------------------- rules


@dataclass(frozen=True)
class Rules:
    """The rules a puzzle is posed under: at most ``max_bridges`` bridges between one pair of
    islands (Simon Tatham's ``mK``), and with ``no_loops`` no cycle of bridges (Tatham's ``L``).
    The standard rules are ``Rules()``."""

    max_bridges: int = 2
    no_loops: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.max_bridges, bool) or not isinstance(self.max_bridges, int):
            raise PuzzleError(f"max_bridges must be an integer, got {self.max_bridges!r}")
        if not 1 <= self.max_bridges <= MAX_BRIDGES_LIMIT:
            raise PuzzleError(f"max_bridges must be 1..{MAX_BRIDGES_LIMIT}, got {self.max_bridges}")

    @property
    def standard(self) -> bool:
        return self == Rules()

    @property
    def max_number(self) -> int:
        """The largest island number these rules allow: max_bridges to each of 4 neighbours."""
        return 4 * self.max_bridges

    def overridden(self, max_bridges: int | None = None, no_loops: bool | None = None) -> Rules:
        """These rules with the ones given (not None) replaced."""
        return Rules(
            self.max_bridges if max_bridges is None else max_bridges,
            self.no_loops if no_loops is None else no_loops,
        )

    def __str__(self) -> str:
        """The rules in words, for messages: e.g. ``max_bridges=3, no loops``."""
        return ", ".join([f"max_bridges={self.max_bridges}"] + ["no loops"] * self.no_loops)


# ---------------------------------------------------------------------------- bridges, solutions


class Bridge(NamedTuple):
    """``count`` bridges between the islands at (r1, c1) and (r2, c2), (r1, c1) first in reading
    order."""

    r1: int
    c1: int
    r2: int
    c2: int
    count: int  # type: ignore[assignment]  # (the number of lines; tuple.count is never needed)

    @property
    def ends(self) -> Pair:
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
    """The bridges of one answer (or of a player's partial state), in reading order of their
    first end."""

    bridges: tuple[Bridge, ...]

    @classmethod
    def of(cls, bridges: Iterable[Bridge]) -> Solution:
        return cls(tuple(sorted(bridges)))

    def counts(self) -> dict[Pair, int]:
        """Bridge count by pair of ends, for comparing solutions."""
        return {b.ends: b.count for b in self.bridges}

    def to_json(self) -> dict:
        return {"bridges": [list(b) for b in self.bridges]}


# ---------------------------------------------------------------------------- a picture read


class Suspect(NamedTuple):
    """An island probably misread: the number ``read`` at ``cell`` (None: no number read
    there, an island whose number could not be read or one not taken for an island at all),
    and the one ``suggested`` (None: probably no island there, but a mark taken for one)."""

    cell: Cell
    read: int | None
    suggested: int | None

    def words(self) -> str:
        """``probably a 3, not an 8, at (4, 6)``; ``probably no island, not a 4, at (2, 6)``;
        ``probably a 2 at (3, 4), not read``."""
        place = cell_name(self.cell)
        meant = "no island" if self.suggested is None else _a(self.suggested)
        if self.read is None:
            return f"probably {meant} at {place}, not read"
        return f"probably {meant}, not {_a(self.read)}, at {place}"


def _a(number: int) -> str:
    return f"{'an' if number in (8, 11, 18) else 'a'} {number}"


@dataclass(frozen=True)
class Reading:
    """How a puzzle was read from a picture: the ``confidence`` of each island's number (0 to
    1, the reader's chance that it is right), and once looked for, the ``suspects``: the
    fewest changes among the least certain islands that leave the puzzle exactly one solution
    (None: not looked for; empty: none needed, or none found)."""

    confidence: Mapping[Cell, float]
    suspects: tuple[Suspect, ...] | None = None
    chances: Mapping[Cell, tuple[float, ...]] = field(default_factory=dict)
    """Per island, the reader's chance of each number from 1 to 8 (what else it may be)."""
    missed: Mapping[Cell, tuple[float, ...]] = field(default_factory=dict)
    """Cells where the reader saw something it did not take for an island (a faint or
    damaged number, a mark), the likeliest first, each with the chance of each number from 1
    to 8 it would be: islands the suspects may add."""
    alternatives: tuple[Puzzle, ...] = ()
    """The puzzle read on the neighbouring grids the picture's numbers also fit, a row or a
    column more or fewer where the reader was unsure, the likelier first: of these and the
    puzzle read, the one with exactly one solution is the picture's
    (:func:`hashi_asp.misreading.checked`)."""
    first_grid: tuple[int, int] | None = None
    """The rows and columns of the grid first read, where the puzzle is the one read on a
    neighbouring grid instead (the first had no single solution, this one has)."""
    bridges: tuple[Bridge, ...] = ()
    """The bridges drawn in the picture between neighbouring islands (a game going on), in
    reading order; empty when none are drawn.  As they were seen: a count may be more than
    the rules allow, two may cross."""

    def to_json(self, puzzle: Puzzle) -> dict:
        """The ``"read"`` member of a picture's JSON: ``islands`` as ``[r, c, n, confidence]``,
        ``suspects`` as ``[r, c, n_read, n_suggested]`` (``null``: no island there), and, only
        when some are drawn, ``bridges`` as ``[r1, c1, r2, c2, k]``."""
        document: dict = {
            "islands": [
                [r, c, n, self.confidence.get((r, c), 1.0)] for (r, c), n in puzzle.islands.items()
            ],
            "suspects": [[*s.cell, s.read, s.suggested] for s in self.suspects or ()],
        }
        if self.bridges:
            document["bridges"] = [list(b) for b in self.bridges]
        return document


# ---------------------------------------------------------------------------- the puzzle


@dataclass(frozen=True)
class Puzzle:
    """A rectangular grid with islands; ``islands`` maps (row, col) to the island's number, or to
    ``None`` for an island without a number.  ``rules`` are the rules the puzzle is posed under
    (the standard rules unless its notation says otherwise).  ``reading``: how it was read
    from a picture, when it was (its JSON then has a ``"read"`` member)."""

    rows: int
    cols: int
    islands: Mapping[Cell, int | None]
    source: str = field(default="<puzzle>", compare=False)
    rules: Rules = Rules()
    reading: Reading | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        # Readers report errors with a line and column before building a Puzzle; these checks
        # guard puzzles built directly through the library.
        if self.rows < 1 or self.cols < 1:
            raise PuzzleError(
                f"grid must be at least 1x1, got {self.rows}x{self.cols}", self.source
            )
        if self.rows * self.cols > MAX_CELLS:
            raise PuzzleError(
                f"grid {self.rows}x{self.cols} exceeds the limit of {MAX_CELLS} cells", self.source
            )
        if not self.islands:
            raise PuzzleError("puzzle has no islands", self.source)
        for (r, c), n in self.islands.items():
            if not (0 <= r < self.rows and 0 <= c < self.cols):
                raise PuzzleError(
                    f"island ({r}, {c}) lies outside the {self.rows}x{self.cols} grid", self.source
                )
            if n is not None and n < 1:
                raise PuzzleError(
                    f"island ({r}, {c}) has number {n}; numbers start at 1", self.source
                )
        if not isinstance(self.rules, Rules):
            raise PuzzleError(f"rules must be a Rules value, got {self.rules!r}", self.source)
        # Keep islands in reading order so every output built from them is deterministic.
        object.__setattr__(self, "islands", dict(sorted(self.islands.items())))

    def __hash__(self) -> int:
        return hash((self.rows, self.cols, tuple(self.islands.items()), self.rules))

    def with_rules(self, max_bridges: int | None = None, no_loops: bool | None = None) -> Puzzle:
        """This puzzle with the rules given (not None) replacing its own."""
        rules = self.rules.overridden(max_bridges, no_loops)
        return self if rules == self.rules else replace(self, rules=rules)

    @cached_property
    def geometry(self) -> Geometry:
        """Where bridges can go: computed on first use, then kept with the puzzle."""
        return Geometry(self.rows, self.cols, self.islands)

    def to_json(self) -> dict:
        """The JSON notation; the rules appear only when they differ from the standard ones."""
        document: dict = {
            "rows": self.rows,
            "cols": self.cols,
            "islands": [[r, c, n] for (r, c), n in self.islands.items()],
        }
        if self.rules.max_bridges != Rules().max_bridges:
            document["max_bridges"] = self.rules.max_bridges
        if self.rules.no_loops:
            document["no_loops"] = True
        if self.reading is not None:
            document["read"] = self.reading.to_json(self)
        return document


# ---------------------------------------------------------------------------- geometry


def water_between(islands: Iterable[Cell]) -> int:
    """The water cells between neighbouring islands, summed over the pairs: what building the
    :class:`Geometry` walks, and what a search grounds over besides the islands (a bridge's
    cells, and every crossing is one of them).  Found by sorting, without walking the water,
    so that a request is weighed before that work: two islands at the ends of a row of a million
    cells are a million cells of work, though two islands."""
    cells = sorted(islands)
    across = sum(b[1] - a[1] - 1 for a, b in itertools.pairwise(cells) if a[0] == b[0])
    by_column = sorted(cells, key=lambda cell: (cell[1], cell[0]))
    down = sum(b[0] - a[0] - 1 for a, b in itertools.pairwise(by_column) if a[1] == b[1])
    return across + down


class Geometry:
    """The pairs of islands that see each other along a row or column with only water between
    (the only pairs a bridge can join) and the pairs whose bridges would cross.

    Islands are numbered in reading order (``cells[i]``, ``index[cell]``); pair ``p`` joins
    islands ``ends[p]`` (the first one first in reading order), pairs are in reading order of
    their ends, ``at[i]`` lists the pairs of island ``i`` and ``crossing[p]`` the pairs whose
    bridges would cross a bridge of pair ``p``.
    """

    def __init__(self, rows: int, cols: int, islands: Iterable[Cell]):
        self.rows, self.cols = rows, cols
        cells: list[Cell] = sorted(islands)
        self.cells = cells
        self.index: dict[Cell, int] = {cell: i for i, cell in enumerate(cells)}
        # Neighbours are consecutive islands of a row, or of a column: sorting finds them
        # without walking over the water.
        across = [(i, i + 1) for i in range(len(cells) - 1) if cells[i][0] == cells[i + 1][0]]
        by_column = sorted(range(len(cells)), key=lambda i: cells[i][1] * rows + cells[i][0])
        down = [(a, b) for a, b in itertools.pairwise(by_column) if cells[a][1] == cells[b][1]]
        self.ends: list[tuple[int, int]] = sorted(across + down)
        self.at: list[list[int]] = [[] for _ in cells]
        for p, (a, b) in enumerate(self.ends):
            self.at[a].append(p)
            self.at[b].append(p)
        self._across = [cells[a][0] == cells[b][0] for a, b in self.ends]
        self._flat = [r * cols + c for r, c in cells]  # cells numbered row * cols + col
        # Crossings: a vertical pair crosses the horizontal pairs over the water cells it passes.
        self.crossing: list[list[int]] = [[] for _ in self.ends]
        under: dict[int, int] = {}  # water cell -> the horizontal pair over it
        for p, horizontal in enumerate(self._across):
            if horizontal:
                under.update(dict.fromkeys(self.span(p), p))
        for p, horizontal in enumerate(self._across):
            if not horizontal:
                for cell in self.span(p):
                    other = under.get(cell)
                    if other is not None:
                        self.crossing[p].append(other)
                        self.crossing[other].append(p)

    @property
    def pairs(self) -> list[Pair]:
        """Every pair of neighbours as cells, in reading order."""
        return [self.pair(p) for p in range(len(self.ends))]

    def pair(self, p: int) -> Pair:
        a, b = self.ends[p]
        return self.cells[a], self.cells[b]

    def horizontal(self, p: int) -> bool:
        return self._across[p]

    def between(self, p: int) -> list[Cell]:
        """The water cells a bridge of pair ``p`` passes over."""
        return [divmod(cell, self.cols) for cell in self.span(p)]

    def span(self, p: int) -> range:
        """The water cells a bridge of pair ``p`` passes over, numbered ``row * cols + col``."""
        a, b = self.ends[p]
        first, last = self._flat[a], self._flat[b]
        return (
            range(first + 1, last) if self._across[p] else range(first + self.cols, last, self.cols)
        )

    def neighbours(self, cell: Cell) -> list[Cell]:
        """The islands ``cell`` sees, in reading order."""
        i = self.index[cell]
        return sorted(self.cells[b if a == i else a] for a, b in (self.ends[p] for p in self.at[i]))
