"""The construction of Coelho, Laporte, Lindbeck & Vidal (2019): a random puzzle built with its
solution, and the checks of what may be asked of it.

The four steps of Coelho et al., on a ``rows`` x ``cols`` grid:

1. Place a first island on a random cell.  Then, until there are ``islands`` islands, pick an
   existing island, a direction and a free cell in that direction, put a new island there and
   join the two with a bridge.  "Free" means the cell and every cell on the way are water that no
   bridge passes over: a new bridge never crosses an existing one or passes over an island.
2. Add ``floor(alpha * islands)`` extra bridges, each between two islands that see each other (same
   row or column, only water between) and are not yet joined, over water no bridge uses: each
   one closes a cycle.
3. Make each bridge double with probability ``beta`` (with ``max_bridges`` K > 2: "double" means
   a count drawn uniformly from 2..K).
4. Write each island's bridge count as its number and erase the bridges.

The puzzle is solvable by construction: the erased bridges (``Generated.solution``) solve it.

Where the paper leaves a detail open, this module chooses (and the choices keep the statistics of
the authors' 1440 published instances: about 0.35 islands per cell, half of all neighbouring
islands on adjacent cells, mean gap 2.2 to 2.7 cells; see the README):

* "Pick an island and a direction" is uniform over the (island, direction) pairs that still have
  a free cell next to the island, which is exactly what drawing uniformly from all pairs and
  retrying until one fits would give, without the retries.  A pair whose neighbouring cell fills
  up is dropped for good (cells only ever fill up), so each step costs the length of one scan.
* "A free position in that direction" is uniform over the run of free cells from the island up
  to the first island, bridge or border.
* New islands may sit on cells adjacent to existing islands (the published instances have them).
* The extra bridges of step 2 are drawn uniformly from the pairs still possible at each draw.
  If fewer than ``floor(alpha * islands)`` fit, all that fit are added (``Generated.extra_bridges``
  says how many).
* If the construction runs out of free cells before placing every island, it starts again on an
  empty board (the same random stream continues), at most ``attempts`` times; then it gives up with
  a :class:`GenerationError` that says how many islands fitted.

Determinism: every random decision is drawn from one ``random.Random(seed)`` through
:meth:`random.Random.random`, the one method whose sequence Python promises to keep across
versions; integers are derived from it by IEEE arithmetic (the same everywhere), alpha is read as
an exact decimal fraction (0.29 is 29/100), and nothing depends on set or dict order.  So the same
arguments give the same puzzle on every machine.  ``--unique`` repairs also follow the alternative
solutions clingo finds, so its output is the same for the same clingo version (and encoding).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from fractions import Fraction

from ..errors import HashiError
from ..puzzle import MAX_CELLS, Geometry, Puzzle, Rules, Solution, bridge
from ..status import Status
from ..stopping import Deadline

DEFAULT_ALPHA = 0.10
DEFAULT_BETA = 0.50
DEFAULT_ATTEMPTS = 20

# Islands per cell of the default board.  The Coelho et al. instances have about 0.35 (16x16 for
# 100 islands up to 34x34 for 400).  Step 1 gets stuck at lower densities on larger boards (its
# random gaps waste more room: it fills about 0.39 of a 34x34 board, 0.33 of 100x100 and 0.27 of
# 700x700 before no free cell is left), so larger puzzles get roomier boards.
_DEFAULT_DENSITY = (
    (400, Fraction(35, 100)),
    (1_000, Fraction(33, 100)),
    (3_000, Fraction(31, 100)),
    (10_000, Fraction(28, 100)),
    (30_000, Fraction(26, 100)),
    (100_000, Fraction(24, 100)),
)
_LARGE_DENSITY = Fraction(22, 100)

_STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))  # right, down, left, up


class GenerationError(HashiError):
    """Generation cannot give what was asked: the board is too small for the islands (bad
    input), or no puzzle met the request within the allowed attempts (no answer)."""

    def __init__(self, message: str, status: Status = Status.BAD_INPUT):
        super().__init__(message)
        self.status = status

    def __reduce__(self) -> tuple:  # sent whole from a process that made the puzzle
        return GenerationError, (str(self), self.status)


def defaults(
    alpha: float | Fraction | str | None,
    beta: float | Fraction | str | None,
    rules: Rules = Rules(),
) -> tuple[Fraction, Fraction]:
    """alpha and beta as exact fractions, those not given (None) by the rules: alpha
    :data:`DEFAULT_ALPHA`, 0 without loops (a tree has no extra bridge); beta
    :data:`DEFAULT_BETA`, 0 with one bridge per pair at most."""
    if alpha is None:
        alpha = 0 if rules.no_loops else DEFAULT_ALPHA
    if beta is None:
        beta = 0 if rules.max_bridges == 1 else DEFAULT_BETA
    return _fraction(alpha, "alpha"), _fraction(beta, "beta")


def default_size(islands: int) -> tuple[int, int]:
    """The square board for ``islands`` islands: the Coelho et al. density (0.35 islands per cell)
    up to 400 islands, then gradually roomier boards (0.33 at 1 000, 0.28 at 10 000, 0.24 at
    100 000) so that step 1 reliably fits them all."""
    if islands < 1:
        raise GenerationError(f"--islands must be at least 1, got {islands}")
    density = next((d for limit, d in _DEFAULT_DENSITY if islands <= limit), _LARGE_DENSITY)
    needed = math.ceil(islands / density)  # cells, exact: density is a Fraction
    side = math.isqrt(needed - 1) + 1  # smallest side with side * side >= needed
    return side, side


# ---------------------------------------------------------------------------- steps 1 to 4


def _below(rng: random.Random, n: int) -> int:
    """A uniform integer in 0..n-1 from ``Random.random()``, whose sequence Python keeps stable
    across versions (``randrange`` and ``choice`` carry no such promise)."""
    return int(rng.random() * n)


class _Layout:
    """A board during and after construction: islands, the bridges between them and the water
    they cover.  Cells are numbered ``row * cols + col``; islands by order of placement."""

    def __init__(self, rows: int, cols: int, rules: Rules):
        self.rows, self.cols, self.rules = rows, cols, rules
        self.island_at = [-1] * (rows * cols)  # cell -> island, -1 for water
        self.covered = bytearray(rows * cols)  # water cell under a bridge: 1 horizontal, 2 vertical
        self.cells: list[int] = []  # island -> cell
        self.joined: dict[tuple[int, int], int] = {}  # (island, island), lower first -> count
        self.extra_bridges = 0

    @classmethod
    def of(cls, puzzle: Puzzle, solution: Solution) -> _Layout:
        """A finished layout: the islands of ``puzzle``, placed in reading order, and the bridges
        of ``solution`` between them."""
        layout = cls(puzzle.rows, puzzle.cols, puzzle.rules)
        placed = {(r, c): layout.place(r * puzzle.cols + c) for r, c in puzzle.islands}
        for drawn in solution.bridges:
            a, b = (placed[end] for end in drawn.ends)
            water = (r * puzzle.cols + c for r, c in drawn.cells_between())
            layout.join(a, b, water, vertical=not drawn.horizontal)
            layout.joined[a, b] = drawn.count
        return layout

    def place(self, cell: int) -> int:
        self.island_at[cell] = len(self.cells)
        self.cells.append(cell)
        return len(self.cells) - 1

    def join(self, a: int, b: int, between: Iterable[int], vertical: bool) -> None:
        for cell in between:
            self.covered[cell] = 2 if vertical else 1
        self.joined[min(a, b), max(a, b)] = 1

    def geometry(self) -> tuple[Geometry, list[tuple[int, int]]]:
        """Where bridges can go between the islands placed, and for each of its pairs the key
        of :attr:`joined` (the islands' numbers of placement, lower first)."""
        geometry = Geometry(self.rows, self.cols, (divmod(cell, self.cols) for cell in self.cells))
        placed = [self.island_at[r * self.cols + c] for r, c in geometry.cells]
        keys = [
            (placed[a], placed[b]) if placed[a] < placed[b] else (placed[b], placed[a])
            for a, b in geometry.ends
        ]
        return geometry, keys

    def puzzle(self) -> Puzzle:
        degree = [0] * len(self.cells)
        for (a, b), count in self.joined.items():
            degree[a] += count
            degree[b] += count
        return Puzzle(
            self.rows,
            self.cols,
            {divmod(cell, self.cols): degree[i] for i, cell in enumerate(self.cells)},
            rules=self.rules,
        )

    def solution(self) -> Solution:
        return Solution.of(
            bridge(divmod(self.cells[a], self.cols), divmod(self.cells[b], self.cols), k)
            for (a, b), k in self.joined.items()
            if k
        )


def _build_layout(
    islands: int,
    rows: int,
    cols: int,
    alpha: Fraction,
    beta: Fraction,
    rules: Rules,
    rng: random.Random,
    deadline: Deadline,
) -> _Layout:
    """Steps 1 to 3 (the numbers of step 4 are read off by ``_Layout.puzzle``); if step 1 runs out
    of room, the layout has fewer islands than asked and is returned as it is."""
    layout = _Layout(rows, cols, rules)
    if not _grow_tree(layout, islands, rng, deadline):
        return layout
    _add_cycles(layout, int(alpha * islands), rng, deadline)
    deadline.check("building a layout")
    _draw_counts(layout, beta, rules.max_bridges, rng)
    return layout


def _grow_tree(layout: _Layout, islands: int, rng: random.Random, deadline: Deadline) -> bool:
    """Step 1: grow a tree of islands joined by single bridges; False if no free cell is left."""
    rows, cols = layout.rows, layout.cols
    island_at, covered = layout.island_at, layout.covered
    layout.place(_below(rng, rows * cols))
    open_sides = [0, 1, 2, 3]  # island * 4 + direction, while the next cell may be free
    while len(layout.cells) < islands:
        if not open_sides:
            return False
        pick = _below(rng, len(open_sides))
        source, direction = divmod(open_sides[pick], 4)
        dr, dc = _STEPS[direction]
        r, c = divmod(layout.cells[source], cols)
        run = []  # the free cells in this direction, nearest first
        r, c = r + dr, c + dc
        while (
            0 <= r < rows
            and 0 <= c < cols
            and island_at[r * cols + c] < 0
            and not covered[r * cols + c]
        ):
            run.append(r * cols + c)
            r, c = r + dr, c + dc
        if not run:  # this side is closed for good: cells never free up
            open_sides[pick] = open_sides[-1]
            open_sides.pop()
            continue
        distance = _below(rng, len(run))
        new = layout.place(run[distance])
        layout.join(source, new, run[:distance], vertical=dc == 0)
        if new % 4096 == 0:  # 100 000 islands take seconds: look at the clock
            deadline.check("building a layout")
        open_sides.extend(range(4 * new, 4 * new + 4))
    return True


def _add_cycles(layout: _Layout, wanted: int, rng: random.Random, deadline: Deadline) -> None:
    """Step 2: up to ``wanted`` extra bridges between islands that see each other over water no
    bridge uses."""
    geometry, keys = layout.geometry()
    deadline.check("building a layout")
    covered = layout.covered
    candidates = []  # (island, island, water cells between, vertical)
    for p, ends in enumerate(keys):
        between = geometry.span(p)  # the layout numbers cells as the geometry does
        if ends not in layout.joined and not any(covered[cell] for cell in between):
            candidates.append((*ends, between, not geometry.horizontal(p)))
    while layout.extra_bridges < wanted and candidates:
        pick = _below(rng, len(candidates))
        a, b, between, vertical = candidates[pick]
        candidates[pick] = candidates[-1]
        candidates.pop()
        if any(covered[cell] for cell in between):  # an earlier extra bridge crossed it
            continue
        layout.join(a, b, between, vertical)
        layout.extra_bridges += 1


def _draw_counts(layout: _Layout, beta: Fraction, max_bridges: int, rng: random.Random) -> None:
    """Step 3: each bridge, in the order it was built, becomes double with probability beta."""
    for pair in layout.joined:
        layout.joined[pair] = _draw_count(rng, beta, max_bridges)


def _draw_count(rng: random.Random, beta: Fraction, max_bridges: int) -> int:
    """1, or with probability beta a "double" count: 2, or 2..max_bridges in that variant.
    (Compared as a double, correctly rounded from the exact beta: the same on every machine,
    and five times faster than comparing with the fraction.)"""
    if rng.random() >= float(beta):
        return 1
    return 2 if max_bridges == 2 else 2 + _below(rng, max_bridges - 1)


# ---------------------------------------------------------------------------- arguments, errors


def _fraction(value: float | Fraction | str, name: str) -> Fraction:
    """An exact fraction: 0.29 means 29/100, not the nearest binary float."""
    try:
        exact = Fraction(repr(value) if isinstance(value, float) else value)
    except (ValueError, ZeroDivisionError):
        raise GenerationError(f"--{name} must be a number between 0 and 1, got {value!r}") from None
    if not 0 <= exact <= 1:
        raise GenerationError(f"--{name} must be between 0 and 1, got {value}")
    return exact


def _validate(
    islands: int, rows: int, cols: int, alpha: Fraction, beta: Fraction, rules: Rules, attempts: int
) -> None:
    if islands < 2:
        raise GenerationError(
            f"--islands must be at least 2 (one island has no bridge), got {islands}"
        )
    if rows < 1 or cols < 1:
        raise GenerationError(f"board must be at least 1x1, got {cols}x{rows}")
    if rows * cols > MAX_CELLS:
        raise GenerationError(f"board {cols}x{rows} exceeds the limit of {MAX_CELLS} cells")
    if islands > rows * cols:
        raise GenerationError(
            f"a {cols}x{rows} board has {rows * cols} cells: it cannot hold {islands} islands"
        )
    if rules.max_bridges == 1 and beta:
        raise GenerationError("with --max-bridges 1 no bridge can be double: --beta must be 0")
    if rules.no_loops and alpha:
        raise GenerationError("--no-loops builds a tree: --alpha must be 0")
    if attempts < 1:
        raise GenerationError(f"attempts must be at least 1, got {attempts}")
