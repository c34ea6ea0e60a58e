"""Puzzle generation: the generator of Coelho, Laporte, Lindbeck & Vidal (2019), and a repair loop
that makes its puzzles unique.

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

Uniqueness (``unique=True``).  Rejection sampling does not work: almost no random dense puzzle is
unique.  Instead the puzzle is repaired.  One clingo control holds the grounded puzzle with the
island numbers and the known solution as switches (``encodings/another_solution.lp``), and asks for
a solution that differs from the known one.  Where the two differ (each connected group of
differing pairs is one ambiguity), the known solution is changed so that the alternative can no
longer be adjusted to fit, and the island numbers are recomputed from the changed solution, which
therefore stays a valid solution: the puzzle remains solvable by construction.  For a pair where
the alternative has more bridges, the known solution gets the most allowed (the alternative would
need more than that); where it has fewer, the known solution drops the pair, if it stays connected
without it (the alternative would need fewer than none); or a new bridge is added across a bridge
only the alternative uses (the alternative would have to cross it).  Every group is repaired in the
same round, then clingo looks again, keeping what it learnt, until it proves that no other solution
exists.  A final independent ``solve(puzzle, models=2)`` confirms it.

Fixing a puzzle someone wrote (:func:`fix`).  The same control answers a puzzle author's
question: which one change makes my puzzle unique?  The intended solution is the first one
found; it is the known solution, and each candidate is a question to clingo without grounding
again:

* changing one island's number (switched like the repair's numbers) makes the puzzle unique if
  the changed puzzle has exactly one solution.  Smallest changes first (a number moves by 2, as
  the numbers add up to twice the bridges), on the islands of the region where two solutions
  differ (:func:`hashi_asp.solving.region`) and those within two pairs of it.  The changed
  puzzle's solution is not the intended one: the island's bridges must add up to its new number;
* adding one island keeps the intended solution only on a water cell under one of its bridges,
  with twice that bridge's count (the bridge split in two: an island elsewhere would need
  bridges its neighbours' numbers have no room for).  It can work only under a pair where every
  other solution differs from the intended one, as any other that agrees there stays a solution
  of the new puzzle: clingo is asked, pair by pair, for another solution that agrees, and each
  one it finds rules out every pair it agrees on.  The puzzles with the new island are then
  solved afresh.

A change is proposed only once :func:`~hashi_asp.solving.unique` proves the fixed puzzle has
exactly one solution and the checker passes it.
"""

from __future__ import annotations

import math
import random
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import notations
from .asp import interface
from .asp.control import ground
from .checking import check
from .difficulty import BANDS, Difficulty, parse_request
from .files import write_output
from .notations.json import dumps
from .puzzle import (
    MAX_CELLS,
    Cell,
    Geometry,
    HashiError,
    Pair,
    Puzzle,
    Rules,
    Solution,
    bridge,
    cell_name,
    connected_groups,
    parse_size,
)
from .solving import Result, differences, region, solve, unique
from .status import Status
from .stopping import Deadline, TimeLimitReached
from .walkthrough import SeveralSolutions
from .walkthrough import difficulty as measure_difficulty

if TYPE_CHECKING:
    import clingo

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


@dataclass(frozen=True)
class Generated:
    """A generated puzzle with the solution it was built from, and how it was made."""

    puzzle: Puzzle
    solution: Solution  # the hidden construction solution (the only one if unique)
    seed: int
    alpha: Fraction
    beta: Fraction
    extra_bridges: int  # step 2 bridges actually added (at most floor(alpha * islands))
    attempts: int  # layouts built: 1 unless one got stuck, a repair failed or
    # the difficulty was missed
    repair_rounds: int | None  # --unique: searches that found another solution (0 = it was unique)
    repairs: int | None  # --unique: changes made to the hidden solution
    difficulty: Difficulty | None
    seconds: float

    @property
    def double_share(self) -> float:
        """Share of the solution's bridges (pairs) with a count of 2 or more."""
        return sum(b.count >= 2 for b in self.solution.bridges) / max(1, len(self.solution.bridges))


# ---------------------------------------------------------------------------- entry point


def generate(
    islands: int,
    rows: int | None = None,
    cols: int | None = None,
    alpha: float | Fraction | str | None = None,
    beta: float | Fraction | str | None = None,
    seed: int = 1,
    *,
    unique: bool = False,
    difficulty: str | tuple[float, float] | None = None,
    rules: Rules = Rules(),
    attempts: int = DEFAULT_ATTEMPTS,
    verify: bool = True,
    time_limit: float | Deadline | None = None,
) -> Generated:
    """A random puzzle with ``islands`` islands on a ``rows`` x ``cols`` board (default:
    :func:`default_size`), built by the four steps of Coelho et al. (see the module docstring);
    ``alpha`` and ``beta`` default to :func:`defaults` for the rules.

    ``unique`` repairs the puzzle until it has exactly one solution (``verify`` then confirms it
    with a separate :func:`solve`).  ``difficulty`` is a band name (``easy``, ``medium``,
    ``hard``, ``expert``) or a ``(low, high)`` range of scores of
    :func:`hashi_asp.walkthrough.difficulty`;
    puzzles outside it are discarded and another is built, at most ``attempts`` layouts in all.
    ``rules`` are the rules the puzzle is posed under: with ``max_bridges`` K a "double" bridge
    is 2..K, and ``no_loops`` builds a tree (``alpha`` must be 0).
    ``time_limit`` (seconds, or a :class:`Deadline`) bounds the whole generation.  Raises
    :class:`GenerationError`, or :class:`TimeLimitReached` when the time limit comes first.
    """
    started = time.perf_counter()
    deadline = Deadline.of(time_limit)
    alpha, beta = defaults(alpha, beta, rules)
    if rows is None and cols is None:
        rows, cols = default_size(islands)
    elif rows is None or cols is None:
        raise GenerationError("give both rows and cols, or neither")
    wanted = _difficulty_test(difficulty)
    _validate(islands, rows, cols, alpha, beta, rules, attempts)
    rng = random.Random(seed)
    stuck: list[int] = []  # islands placed by each layout that ran out of room
    unrepaired = 0  # layouts whose uniqueness repair did not converge
    scores: list[float] = []  # difficulty scores of the layouts outside the request
    several = 0  # layouts with several solutions, which have no difficulty
    for attempt in range(1, attempts + 1):
        deadline.check("building a layout")
        layout = _build_layout(islands, rows, cols, alpha, beta, rules, rng, deadline)
        if len(layout.cells) < islands:
            stuck.append(len(layout.cells))
            continue
        rounds = repairs = None
        if unique:
            made = _Repair(layout, rng, beta, deadline).run()
            if made is None:
                unrepaired += 1
                continue
            rounds, repairs = made
        puzzle, solution = layout.puzzle(), layout.solution()
        measured = None
        if wanted is not None:
            try:
                measured = measure_difficulty(puzzle, deadline)
            except SeveralSolutions:
                several += 1
                continue
            if not wanted(measured):
                scores.append(measured.score)
                continue
        violations = check(puzzle, solution)
        if violations:  # the construction or a repair is wrong: never emit it
            raise GenerationError(
                f"internal error: the hidden solution breaks the rules: {violations[0].message}",
                status=Status.FAULT,
            )
        if unique and verify:
            _confirm_unique(puzzle, solution, deadline)
        return Generated(
            puzzle,
            solution,
            seed,
            alpha,
            beta,
            layout.extra_bridges,
            attempt,
            rounds,
            repairs,
            measured,
            time.perf_counter() - started,
        )
    raise _failure(islands, rows, cols, attempts, stuck, unrepaired, scores, difficulty, several)


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


# ---------------------------------------------------------------------------- uniqueness


class _Repair:
    """The repair loop of ``--unique`` (see the module docstring) on one layout.

    Pairs of islands that see each other are the puzzle's geometry's pairs, islands its islands
    (in reading order); ``count[pair]`` is the known solution.  The clingo control is grounded
    once; island numbers and the known solution are switched through the externals of
    ``encodings/another_solution.lp``.
    """

    def __init__(
        self,
        layout: _Layout,
        rng: random.Random,
        beta: Fraction,
        deadline: Deadline,
        *,
        puzzle: Puzzle | None = None,
        models: int = 1,
    ):
        """``puzzle`` is the puzzle grounded (default: the layout's, numbered by its bridges);
        ``models`` the most answers one search may give."""
        self.layout, self.rng, self.beta, self.deadline = layout, rng, beta, deadline
        self.max_bridges, self.no_loops = layout.rules.max_bridges, layout.rules.no_loops
        deadline.check("preparing the uniqueness repair")
        self.geometry, self.keys = layout.geometry()
        geometry = self.geometry
        self.count = [layout.joined.get(key, 0) for key in self.keys]
        self.number = [0] * len(geometry.cells)
        for (a, b), count in zip(geometry.ends, self.count):
            self.number[a] += count
            self.number[b] += count

        # Forgetting the saved signs at each search keeps clingo from finding the next
        # alternative right beside the last answer: then alternatives differ from the known
        # solution in many separate places at once, and one round repairs them all.  (Turning
        # progress saving off altogether does that too, but makes large searches 5x slower.)
        deadline.check("preparing the uniqueness repair")
        self.grounded = ground(
            layout.puzzle() if puzzle is None else puzzle,
            extra=[interface.ANOTHER_SOLUTION],
            models=models,
            options=["--forget-on-step=2"],
            deadline=deadline,
        )
        # Externals start false: switch on the count of each pair in the known solution.
        for p, count in enumerate(self.count):
            self.grounded.switch(interface.want(geometry.pair(p), count), True)
        self.atom = {
            interface.bridge_atom(geometry.pair(p), k): (p, k)
            for p in range(len(geometry.ends))
            for k in range(1, self.max_bridges + 1)
        }
        self.renumbered: set[int] = set()  # islands whose number changed since the last search
        self.rule: dict[int, int] = {}  # island -> the number its switched-on rule has
        self.grounded_rules: set[tuple[int, int]] = set()  # (island, number) parts grounded

    def run(self) -> tuple[int, int] | None:
        """Repair until clingo proves the known solution is the only one: (rounds, repairs), or
        None if an alternative cannot be repaired or the rounds run out (a new layout is due)."""
        rounds = repairs = 0
        limit = 50 + len(self.count) // 10
        while True:
            alternative = self._alternative()
            if alternative is None:
                self.layout.joined = {key: k for key, k in zip(self.keys, self.count) if k}
                return rounds, repairs
            rounds += 1
            made = self._repair(alternative)
            if not made or rounds >= limit:
                return None
            repairs += made

    def _alternative(self) -> list[int] | None:
        """Counts per pair of a solution other than the known one, or None when clingo proves
        there is none.  (Not checked here: the finished puzzle is, by ``_confirm_unique``.)"""
        found, _ = self._others(1)
        return found[0] if found else None

    def _others(self, limit: int, assumptions: Iterable[int] = ()) -> tuple[list[list[int]], bool]:
        """Up to ``limit`` solutions other than the known one under the current numbers (and
        ``assumptions``, program literals), as counts per pair, and whether the search was
        exhausted: then they are all there are.  ``limit`` must not exceed the control's
        ``models``."""
        self._renumber()
        found: list[list[int]] = []

        def keep(model: clingo.Model) -> bool:
            counts = [0] * len(self.count)
            for symbol in self.grounded.shown(model):
                pair, count = self.atom[str(symbol)]
                counts[pair] = count
            found.append(counts)
            return len(found) < limit

        outcome = self.grounded.search(keep, assumptions=assumptions, deadline=self.deadline)
        if outcome.interrupted:
            raise KeyboardInterrupt
        if outcome.timed_out:
            raise self.deadline.reached("making the puzzle unique")
        return found, outcome.exhausted

    def _repair(self, other: list[int]) -> int:
        """Change the known solution once in every group of pairs where ``other`` differs from
        it; the number of changes made."""
        differing = [i for i, (mine, theirs) in enumerate(zip(self.count, other)) if mine != theirs]
        made = 0
        for group in self._groups(differing):
            change = self._pick(self._options(group, other))
            if change is not None:
                self._set(*change)
                made += 1
        return made

    def _pick(self, options: list[tuple[int, int | None]]) -> tuple[int, int] | None:
        """A random option that keeps the known solution valid.  Dropping a pair is checked
        only when drawn: it must leave the known solution connected."""
        while options:
            index = _below(self.rng, len(options))
            pair, count = options[index]
            if count == 0 and not self._connected_without(pair):
                options[index] = options[-1]
                options.pop()
                continue
            if count is None:  # a new bridge across: drawn as in step 3
                count = _draw_count(self.rng, self.beta, self.max_bridges)
            return pair, count
        return None

    def _groups(self, differing: list[int]) -> list[list[int]]:
        """The differing pairs in connected groups (sharing islands), in a fixed order."""
        wanted = set(differing)
        ends, at = self.geometry.ends, self.geometry.at
        return connected_groups(
            differing,
            lambda pair: (
                nearby for island in ends[pair] for nearby in at[island] if nearby in wanted
            ),
        )

    def _options(self, group: list[int], other: list[int]) -> list[tuple[int, int | None]]:
        """Changes to the known solution, each of which the alternative cannot follow."""
        count, top = self.count, self.max_bridges
        options: list[tuple[int, int | None]] = []
        for pair in group:
            if other[pair] > count[pair]:
                # The alternative would need more than the most allowed.
                if count[pair] > 0 or (not self.no_loops and self._free(pair)):
                    options.append((pair, top))
            elif not self.no_loops:
                options.append((pair, 0))  # the alternative would need fewer than none
            if other[pair] > 0 and count[pair] == 0 and not self.no_loops:
                # The alternative's bridge here would be crossed by a new bridge of ours.
                for crossing in self.geometry.crossing[pair]:
                    if count[crossing] == 0 and other[crossing] == 0 and self._free(crossing):
                        options.append((crossing, None))
        return options

    def _free(self, pair: int) -> bool:
        """No bridge of the known solution crosses this pair's water."""
        return not any(self.count[crossing] for crossing in self.geometry.crossing[pair])

    def _connected_without(self, skipped: int) -> bool:
        """The known solution stays connected without this pair (it lies on a cycle).  Breadth
        first, as cycles are mostly short."""
        ends, at = self.geometry.ends, self.geometry.at
        start, goal = ends[skipped]
        seen, todo = {start}, deque([start])
        while todo:
            island = todo.popleft()
            if island == goal:
                return True
            for pair in at[island]:
                if pair != skipped and self.count[pair]:
                    a, b = ends[pair]
                    other = b if a == island else a
                    if other not in seen:
                        seen.add(other)
                        todo.append(other)
        return False

    def _set(self, pair: int, count: int) -> None:
        cells = self.geometry.pair(pair)
        old = self.count[pair]
        self.grounded.switch(interface.want(cells, old), False)
        self.grounded.switch(interface.want(cells, count), True)
        self.count[pair] = count
        for island in self.geometry.ends[pair]:
            self.number[island] += count - old
            self.renumbered.add(island)

    def _renumber(self) -> None:
        """Give each island whose number changed the island-count rule of its new number: part
        ``number(R,C,N)`` of another_solution.lp, grounded the first time that number comes up."""
        cells = self.geometry.cells
        parts = []
        for island in sorted(self.renumbered):
            if (island, self.number[island]) not in self.grounded_rules:
                self.grounded_rules.add((island, self.number[island]))
                switch = interface.number(cells[island], self.number[island])
                parts.append((switch.name, switch.arguments))
        if parts:
            self.grounded.ground_part(parts)
        for island in sorted(self.renumbered):
            self.grounded.switch(interface.relax(cells[island]), True)
            if island in self.rule:
                self.grounded.switch(interface.number(cells[island], self.rule[island]), False)
            self.rule[island] = self.number[island]
            self.grounded.switch(interface.number(cells[island], self.number[island]), True)
        self.renumbered.clear()


def _confirm_unique(puzzle: Puzzle, solution: Solution, deadline: Deadline) -> None:
    """An independent proof: a fresh solve of the finished puzzle finds this one solution only."""
    result = solve(puzzle, models=2, time_limit=deadline)
    if result.interrupted:
        raise KeyboardInterrupt
    if result.timed_out:
        raise deadline.reached("confirming that the puzzle is unique")
    if result.status != "unique" or result.solutions[0] != solution:
        raise GenerationError(
            f"internal error: the repaired puzzle is {result.status}, not unique "
            "with the built solution",
            status=Status.FAULT,
        )


# ---------------------------------------------------------------------------- fixing a puzzle


@dataclass(frozen=True)
class Fix:
    """One change that leaves a puzzle with exactly one solution: ``kind`` ``change`` (the island
    at ``cell`` gets ``number`` instead of ``old``, None for an island without a number) or
    ``add`` (a new island ``number`` at ``cell``; ``old`` is None).  ``puzzle`` is the fixed
    puzzle and ``solution`` its only solution, proven unique and checked.  ``intended`` is the
    solution of the original puzzle the fix was made for (the first one found): an added island
    splits one of its bridges, so ``solution`` is ``intended`` with that bridge in two halves; a
    changed number changes the solution around that island.  ``region`` holds the pairs of the
    smallest region where the intended solution and another one differ
    (:func:`hashi_asp.solving.region`)."""

    kind: str
    cell: Cell
    number: int
    old: int | None
    puzzle: Puzzle
    solution: Solution
    intended: Solution
    region: tuple[Pair, ...]


def fix(
    puzzle: Puzzle, result: Result | None = None, *, time_limit: float | Deadline | None = None
) -> Fix | None:
    """One island number to change, or failing that one island to add, that makes a puzzle with
    several solutions unique (see the module docstring), checked before it is returned; None for
    a puzzle that is not ``multiple``, or when no single change was found (within
    ``time_limit``, seconds or a :class:`Deadline`).  ``result`` is the puzzle's
    :func:`~hashi_asp.solving.unique` result, if already known: its first solution is the
    intended one.  Uses the bundled encoding under the puzzle's rules."""
    deadline = Deadline.of(time_limit)
    try:
        if result is None:
            result = unique(puzzle, time_limit=deadline)
        if result.status != "multiple" or len(result.solutions) < 2:
            return None
        intended, other = result.solutions[:2]
        return _Fixing(puzzle, intended, deadline).find(other)
    except TimeLimitReached:
        return None


class _Fixing(_Repair):
    """The repair's control asked for one change instead of a loop of them: the known solution
    is the intended one; a candidate number is switched on, asked about and switched off, and
    the pairs a new island could stand on are asked about under assumptions."""

    def __init__(self, puzzle: Puzzle, intended: Solution, deadline: Deadline):
        # A fix draws nothing at random: the generator and beta are never used.
        layout = _Layout.of(puzzle, intended)
        super().__init__(layout, random.Random(0), Fraction(0), deadline, puzzle=puzzle, models=2)
        self.puzzle, self.intended = puzzle, intended
        self.degree = list(self.number)  # each island's bridges in the intended solution

    def find(self, other: Solution) -> Fix | None:
        """The first change that works, those keeping the intended solution (which becomes the
        only one) first: an island without a number given its count in it, then a new island
        on one of its bridges; then a changed number, which changes the solution around it.
        ``other`` is a second solution, which names the region and rules out the pairs it
        agrees on."""
        where = tuple(d.pair for d in region(differences(self.intended, other)))
        changes = self._changes(where)
        kept = [change for change in changes if change[0] == 0]
        found = self._first_change(kept, where)
        if found is not None:
            return found
        counts = other.counts()
        known = [[counts.get(pair, 0) for pair in self.geometry.pairs]]
        for cell, number in self._additions(where, known):
            made = self._fixed("add", cell, number, None, where)
            if made is not None:
                return made
        return self._first_change([change for change in changes if change[0] != 0], where)

    def _first_change(
        self, changes: list[tuple[int, int, int, int]], where: tuple[Pair, ...]
    ) -> Fix | None:
        cells = self.geometry.cells
        for _, _, island, number in changes:
            if self._only_one(island, number):
                cell = cells[island]
                made = self._fixed("change", cell, number, self.puzzle.islands[cell], where)
                if made is None:  # the switched control and a fresh solve disagree
                    raise GenerationError(
                        f"internal error: changing {cell_name(cell)} to {number} leaves one "
                        "solution, but a fresh solve does not agree",
                        status=Status.FAULT,
                    )
                return made
        return None

    # ------------------------------------------------------------------ changing a number

    def _changes(self, where: tuple[Pair, ...]) -> list[tuple[int, int, int, int]]:
        """The numbers to try, in order, as (change, distance, island, number): islands within two
        pairs of the region, smallest change first, nearest first.  Numbers add up to twice the
        bridges, so they move by 2, unless an island without a number can take up the odd one;
        an island without a number is offered its bridges in the intended solution (change 0:
        the intended solution stays one)."""
        index, at, ends = self.geometry.index, self.geometry.at, self.geometry.ends
        distance = {index[cell]: 0 for pair in where for cell in pair}
        frontier = list(distance)
        for far in (1, 2):  # breadth first over the pairs of neighbours
            reached = []
            for island in frontier:
                for nearby in (end for pair in at[island] for end in ends[pair]):
                    if nearby not in distance:
                        distance[nearby] = far
                        reached.append(nearby)
            frontier = reached
        numbers = self.puzzle.islands
        step = 1 if None in numbers.values() else 2
        options = []
        for island, far in distance.items():
            old = numbers[self.geometry.cells[island]]
            if old is None:
                options.append((0, far, island, self.degree[island]))
                continue
            most = self.max_bridges * len(at[island])
            options += [
                (abs(number - old), far, island, number)
                for number in range(1, most + 1)
                if number != old and (number - old) % step == 0
            ]
        return sorted(options)

    def _only_one(self, island: int, number: int) -> bool:
        """Whether the puzzle with this island's number changed has exactly one solution."""
        self.number[island] = number
        self.renumbered.add(island)
        try:
            found, exhausted = self._others(2)
        finally:
            self._restore(island)
        # The intended solution is never among those found; it solves the changed puzzle too
        # when the number is its own there.
        solutions = len(found) + (number == self.degree[island])
        return exhausted and solutions == 1

    def _restore(self, island: int) -> None:
        """Back to the puzzle's own number: the switched rule and relax off."""
        cell = self.geometry.cells[island]
        self.renumbered.discard(island)
        if island in self.rule:
            self.grounded.switch(interface.number(cell, self.rule.pop(island)), False)
        self.grounded.switch(interface.relax(cell), False)
        self.number[island] = self.degree[island]

    # ------------------------------------------------------------------ adding an island

    def _additions(
        self, where: tuple[Pair, ...], known: list[list[int]]
    ) -> Iterator[tuple[Cell, int]]:
        """New islands that keep the intended solution, each (cell, number): the water cells under
        its bridge on a pair where no other solution has the same count, the region's pairs
        first.  ``known`` are other solutions found so far (counts per pair); clingo finds the
        rest."""
        numbered = {pair: p for p, pair in enumerate(self.geometry.pairs)}
        first = {numbered[pair] for pair in where}
        order = sorted(range(len(self.count)), key=lambda p: (p not in first, p))
        pairs = [p for p in order if self.count[p] and self.geometry.span(p)]
        literal = {
            self.atom[str(symbol)]: number for symbol, number in self.grounded.atoms("bridge", 5)
        }
        while pairs:
            pairs = [p for p in pairs if all(other[p] != self.count[p] for other in known)]
            if not pairs:
                return
            pair = pairs.pop(0)
            found, _ = self._others(1, [literal[pair, self.count[pair]]])
            if found:  # another solution with this count here: the island would leave it
                known.append(found[0])
                continue
            for cell in self.geometry.between(pair):
                yield cell, 2 * self.count[pair]

    # ------------------------------------------------------------------ the proof

    def _fixed(
        self, kind: str, cell: Cell, number: int, old: int | None, where: tuple[Pair, ...]
    ) -> Fix | None:
        """The fix, once a fresh solve proves the fixed puzzle has exactly one solution and the
        checker passes it; None if it has more."""
        puzzle = self.puzzle
        fixed = Puzzle(
            puzzle.rows, puzzle.cols, {**puzzle.islands, cell: number}, puzzle.source, puzzle.rules
        )
        result = unique(fixed, time_limit=self.deadline)
        if result.interrupted:
            raise KeyboardInterrupt
        if result.timed_out:
            raise self.deadline.reached("checking a fix")
        if result.status != "unique" or check(fixed, result.solutions[0]):
            return None
        return Fix(kind, cell, number, old, fixed, result.solutions[0], self.intended, where)


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


def _difficulty_test(
    request: str | tuple[float, float] | None,
) -> Callable[[Difficulty], bool] | None:
    """Whether a measured difficulty meets the request: a band name or a (low, high) score range."""
    if request is None:
        return None
    if isinstance(request, str):
        if request not in BANDS:
            raise GenerationError(
                f"unknown difficulty {request!r}; use {', '.join(BANDS)} or a score"
            )
        return lambda measured: measured.band == request
    low, high = request
    if not 0 <= low <= high <= 1:
        raise GenerationError(
            f"difficulty range must satisfy 0 <= low <= high <= 1, got {low}-{high}"
        )
    return lambda measured: low <= measured.score <= high


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


def _failure(
    islands: int,
    rows: int,
    cols: int,
    attempts: int,
    stuck: list[int],
    unrepaired: int,
    scores: list[float],
    difficulty,
    several: int = 0,
) -> GenerationError:
    if len(stuck) == attempts:
        fits = default_size(islands)
        return GenerationError(
            f"the {cols}x{rows} board cannot hold {islands} islands: in {attempts} attempts the "
            f"construction ran out of free cells after at most {max(stuck)} islands; give a larger "
            f"--size (the default for {islands} islands is {'x'.join(map(str, fits))})"
        )
    seen = []
    if scores:
        shown = ", ".join(f"{score:.2f}" for score in scores[:8])
        seen.append(f"scores {shown}{', ...' if len(scores) > 8 else ''}")
    if several:
        seen.append(f"{several} with several solutions, which have no difficulty: add --unique")
    if unrepaired:
        seen.append(f"{unrepaired} repairs did not converge")
    if stuck:
        seen.append(f"{len(stuck)} layouts ran out of room")
    if isinstance(difficulty, tuple):
        difficulty = "{:g}-{:g}".format(*difficulty)
    wanted = f"difficulty {difficulty}" if difficulty is not None else "a unique puzzle"
    return GenerationError(
        f"no puzzle with {wanted} in {attempts} attempts ({'; '.join(seen)}); "
        "try other --alpha, --beta or --size, or more --attempts",
        status=Status.CANNOT_ANSWER,
    )


# ---------------------------------------------------------------------------- files


def file_name(
    rows: int, cols: int, islands: int, alpha, beta, seed: int, notation: str = "has"
) -> str:
    """A name in the style of the Coelho et al. dataset: ``Hs_<size>_<n>_<beta%>_<alpha%>_<seed>``
    (size: the side of a square board, else ``<cols>x<rows>``; seed: at least 3 digits), with
    the notation's extension."""
    size = str(cols) if rows == cols else f"{cols}x{rows}"
    return (
        f"Hs_{size}_{islands}_{_percent(beta)}_{_percent(alpha)}_{seed:03d}"
        f"{notations.extension(notation)}"
    )


@lru_cache(maxsize=64)
def _percent(share: float | Fraction | str) -> str:
    # Cached: `generate --count` names every file up front, and exact fractions are slow.
    return f"{round(_fraction(share, 'share') * 100):02d}"


def solution_name(name: str) -> str:
    """Where ``--solution`` writes the hidden solution of the puzzle file ``name``."""
    return name.rsplit(".", 1)[0] + ".solution.json"


def batch(
    islands: int,
    count: int = 1,
    *,
    size: str | None = None,
    alpha: float | Fraction | str | None = None,
    beta: float | Fraction | str | None = None,
    seed: int = 1,
    notation: str = "has",
    difficulty: str | None = None,
    rules: Rules = Rules(),
    **options: Any,
) -> tuple[list[str], Iterator[tuple[str, Generated, str]]]:
    """``count`` puzzles as users ask for them: the board ``size`` as ``WxH`` (default: by the
    islands), ``difficulty`` as a band or scores (:func:`~hashi_asp.difficulty.parse_request`),
    puzzle i with seed ``seed + i``.  Returns their file names at once (every request checked
    first, a notation that cannot record the rules refused), and an iterator that makes them one
    by one: (file name, the puzzle made, its text in ``notation``).  ``options`` go to
    :func:`generate` (``unique``, ``attempts``, ``time_limit``...)."""
    time_limit = options.pop("time_limit", None)
    asked = (islands, count, size, alpha, beta, seed, notation, difficulty, rules, options)
    making = Making.of(*asked)
    return list(making.names), (making.one(i, time_limit) for i in range(count))


@dataclass(frozen=True)
class Making:
    """The puzzles of one request of :func:`batch`, checked: :meth:`one` makes puzzle i (seed +
    i), the same in any process on any machine (the generate command's ``--jobs`` and
    ``--scheduler`` make them on a study's executors)."""

    islands: int
    rows: int
    cols: int
    alpha: Fraction
    beta: Fraction
    seed: int
    notation: str
    difficulty: tuple[float, float] | str | None
    rules: Rules
    options: dict[str, Any]
    names: tuple[str, ...]

    @classmethod
    def of(
        cls,
        islands: int,
        count: int,
        size: str | None,
        alpha: float | Fraction | str | None,
        beta: float | Fraction | str | None,
        seed: int,
        notation: str,
        difficulty: str | None,
        rules: Rules,
        options: dict[str, Any],
    ) -> Making:
        rows, cols = parse_size(size) if size else default_size(islands)
        alpha, beta = defaults(alpha, beta, rules)
        attempts = options.get("attempts", DEFAULT_ATTEMPTS)
        _validate(islands, rows, cols, alpha, beta, rules, attempts)
        wanted = parse_request(difficulty) if difficulty else None
        chosen = notations.named(notation)
        if not rules.standard and not chosen.rules:
            raise GenerationError(
                f"the {chosen.name} notation cannot record the rules asked for "
                f"({rules}); use json or tatham, which can"
            )
        names = tuple(
            file_name(rows, cols, islands, alpha, beta, seed + i, chosen.name) for i in range(count)
        )
        board = (islands, rows, cols, alpha, beta, seed)
        return cls(*board, chosen.name, wanted, rules, dict(options), names)

    def one(self, i: int, time_limit: float | Deadline | None = None) -> tuple[str, Generated, str]:
        """Puzzle i: (file name, the puzzle made, its text)."""
        puzzle = generate(
            self.islands,
            self.rows,
            self.cols,
            self.alpha,
            self.beta,
            self.seed + i,
            difficulty=self.difficulty,
            rules=self.rules,
            time_limit=time_limit,
            **self.options,
        )
        return self.names[i], puzzle, notations.write(puzzle.puzzle, self.notation)


def keep(
    folder: Path,
    name: str,
    made: Generated,
    text: str,
    *,
    with_solution: bool = False,
    force: bool = False,
) -> None:
    """Write a puzzle made by :func:`batch` into ``folder`` as ``name``, and with
    ``with_solution`` its hidden solution beside it (:func:`solution_name`), each whole or not at
    all; an existing file is never replaced unless ``force``."""
    save(text, folder / name, force=force)
    if with_solution:
        hidden = dumps(made.solution.to_json()) + "\n"
        save(hidden, folder / solution_name(name), force=force)


def save(text: str, path: Path, *, force: bool = False) -> None:
    """Write ``text`` to ``path`` whole or not at all (see
    :func:`~hashi_asp.files.write_output`); an existing file is never replaced unless
    ``force``."""
    write_output(path, text.encode("utf-8"), force=force)
