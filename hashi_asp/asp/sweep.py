"""The sweep: the neighbourhood search's first candidate of a giant with double bridges, drawn
window by window from the top and connected by construction, so that no round of mending
follows (:mod:`.neighbourhood` runs it where :func:`swept` says so).  What ``auto`` reads of a
puzzle to choose a giant's first search is here too (:class:`Features`), with the sweep's own
rule (:func:`swept`: doubles forced by few numbers, a crowded board, the longer side).

A window is the islands of :data:`STEP` + :data:`LOOK` rows not yet settled.  Its program is
``bridges.lp`` and ``neighbourhood.lp`` on those islands (:meth:`Sweep.window_program`), with
the settled islands it sees as the frame (their bridges kept, each island held by an
assumption), the islands it sees below its last row loose (bounded from above only), and every
group the settled bridges join made to reach a loose island, so that nothing above closes off
into a part of its own; the last window joins them all.  After an answer the window settles its
top rows (:meth:`Sweep.settle`).  A window with no answer asks clingo's cores which settled
islands it could not keep, lets go of those and searches the same grounding again until no
more are blamed, then unsettles them and their settled neighbours and searches again
(:meth:`Sweep.reopen`); blaming none, or out of its budget, it goes back a step with a deeper
window.  Measured in docs/benchmarks.md, "The sweep".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from ..graphs import connected_groups
from ..puzzle import Geometry, Puzzle, Solution
from .predicates import RELEASED, SINGLES_FIRST

if TYPE_CHECKING:  # (at run time this module imports nothing that imports the package)
    from ..stopping import Deadline
    from .control import Grounded

SWEPT_SHARE = 0.18
"""The largest share of islands whose number forces a double bridge (more than the island has
neighbours) at which the sweep is taken: generated puzzles (docs/benchmarks.md, "The giants:
families"), the share is 0.11 at a quarter of the bridges double, 0.24 at half, 0.34 at three
quarters; at half double reach beats the sweep on every family of 5 000 and 10 000 islands
measured, every density and shape (5 000: 1.3-2.1 s against 2.8-17.8 s of CPU; 10 000: 3.8-6.9 s
against 18.5-29.5 s or none in 30 s), at a quarter the sweep wins where the board is crowded
(:data:`CROWDED`)."""

CROWDED = 1500
"""The crowding (islands times islands per cell: the square of the islands a row of a square
board holds) from which a puzzle with doubles is swept.  Generated puzzles with a quarter of
the bridges double (docs/benchmarks.md, "The giants: families"; CPU seconds, reach against the
sweep): swept where crowded, 5 000 islands at 0.31 per cell (1 540): 15.1 s against 3.2 s;
10 000 at 0.28 (2 800): none in 30 s against 13.5 s; 10 000 at 0.31 (3 100): none in 90 s
against 39.7 s; boards of 3:1, 10 000 at 0.28: none in 30 s against 8.1 and 16.1 s along the
longer side (:attr:`Features.side`); a held-out puzzle of 8 550 on 169x169 (2 560): 43 s
against 4.5 s (wall seconds).  Left to reach below: 5 000 at 0.28 (1 390): 6.1 against 9.6 s;
5 000 at 0.14 (695): 2.8 against 8.4 s; 10 000 at 0.14 (1 400): 14.4 s against none in 30 s;
2 000 at 0.31 (675): 1.0 against 0.9 s."""

FORCED = 0.01
"""The share of islands whose number forces a double bridge above which a puzzle counts as
having doubles: none at all (0.000) on every generated puzzle without doubles, whatever its
alpha; 0.11 with a quarter double, about 0.02 with one bridge in 25 double."""


@dataclass(frozen=True)
class Features:
    """What ``auto`` reads of a puzzle to choose its first search (:func:`swept`,
    :func:`hashi_asp.asp.enumeration.giant`): its islands, its board, and the share of its
    islands whose number forces a double bridge (more than the island has neighbours)."""

    islands: int
    rows: int
    cols: int
    forced: float

    @classmethod
    def of(cls, puzzle: Puzzle) -> Features:
        geometry, numbers = puzzle.geometry, puzzle.islands
        forced = sum(
            (numbers[cell] or 0) > len(geometry.at[i]) for i, cell in enumerate(geometry.cells)
        )
        islands = len(puzzle.islands)
        return cls(islands, puzzle.rows, puzzle.cols, forced / max(1, islands))

    @property
    def density(self) -> float:
        """Islands per cell."""
        return self.islands / max(1, self.rows * self.cols)

    @property
    def crowding(self) -> float:
        """Islands times islands per cell: the square of the islands a row of a square board of
        that density holds, which grows with the size and with the density both."""
        return self.islands * self.density

    @property
    def doubles(self) -> bool:
        """Whether some numbers force double bridges (more than :data:`FORCED` of them)."""
        return self.forced > FORCED

    @property
    def side(self) -> str:
        """The side ``auto``'s sweep starts from, of :data:`SIDES`: along the longer side, so
        that each window runs across the shorter (from the top of a tall board, from the left of
        a wide one).  Generated puzzles of 10 000 islands with a quarter double, boards of 3:1
        (docs/benchmarks.md, "The giants: families"; CPU seconds, along against across): wide
        16.1 against 28.4 s, tall 8.1 against 10.8 s; at 5 000 islands across won both (3.7
        against 8.0 s, 5.4 against 8.0 s), where ``auto`` takes reach (6.1 and 5.0 s).  A
        square's sides are alike: from the top."""
        return SIDES[0] if self.rows >= self.cols else SIDES[1]


SIDE = "sweep_from"
"""neighbourhood.lp's constant naming the side the sweep starts from, one of :data:`SIDES`:
from the left, the puzzle with rows and columns exchanged is swept from the top.  Which side has
fewer dead ends is chance (ten puzzles of 10 000 islands, a quarter double: 8.0 to 17.0 s from
the top, 6.6 to 19.1 s from the left, two runs side by side), so a race sweeps from both."""

SIDES = ("top", "left")

FORCE = "sweep_first"
"""neighbourhood.lp's constant saying whether the first candidate is swept, one of
:data:`FORCES`: ``auto`` as :func:`swept` says, ``yes`` wherever the puzzle is more than a
window high, ``no`` never (what a study compares the rule with)."""

FORCES = ("auto", "yes", "no")

STEP = 16
"""Rows the sweep settles with each window."""

LOOK = 16
"""Rows below those each window meets exactly, so that what it settles suits them too."""

HOLD = 2
"""Pairs around an island the sweep cannot settle yet (it sees below the window) within which
islands wait with it: settling them would fix its other bridges before its own is known."""

REOPEN = 1
"""Pairs around the settled islands a window blames within which settled islands are searched
again with them."""

BLAME_CONFLICTS = 1_000
"""The budget of each search for more islands to blame, once a window has none (most end
within a few conflicts; one that runs on has found what it can)."""

WINDOW_CONFLICTS = 20_000
"""A window's budget of conflicts (most take a few hundred to a few thousand)."""

LAST = 4
"""The last window's budget, in windows' budgets."""

WINDOWS = 6
"""The sweep gives up after this many times the windows it takes without a dead end."""


def swept(puzzle: Puzzle | Features) -> bool:
    """Whether the first candidate of ``puzzle`` is swept: one the sweep suits
    (:func:`sweepable`) on a crowded board (:data:`CROWDED`), where reach's search of the whole
    puzzle wanders and the windows' pairs are short."""
    seen = puzzle if isinstance(puzzle, Features) else Features.of(puzzle)
    return sweepable(seen) and seen.crowding >= CROWDED


def sweepable(seen: Features) -> bool:
    """Whether the sweep suits a puzzle of these features, however crowded: more than a window
    long from the side it is swept from (:attr:`Features.side`), its numbers forcing doubles
    (so that single bridges first are of no use), no more than :data:`SWEPT_SHARE` of them."""
    length = seen.rows if seen.side == SIDES[0] else seen.cols
    # (a puzzle a window long would be one window: the whole puzzle)
    return length > STEP + LOOK and seen.doubles and seen.forced <= SWEPT_SHARE


def sweeps(puzzle: Puzzle, force: str = FORCES[0]) -> bool:
    """Whether the neighbourhood search sweeps the first candidate of ``puzzle``, its program's
    :data:`FORCE` being ``force``: :func:`swept`'s rule for ``auto``, or forced (``yes``: any
    puzzle more than a window high; ``no``: none)."""
    if force == "auto":
        return swept(puzzle)
    return force == "yes" and puzzle.rows > STEP + LOOK


def transposed(puzzle: Puzzle) -> Puzzle:
    """``puzzle`` with its rows as columns: swept from the top, it is ``puzzle`` swept from the
    left."""
    islands = {(c, r): number for (r, c), number in puzzle.islands.items()}
    return Puzzle(puzzle.cols, puzzle.rows, islands, rules=puzzle.rules)


class CandidateSearch(Protocol):
    """What a sweep needs of the search it draws a candidate for
    (:class:`~.neighbourhood.Neighbourhoods`): the puzzle's islands and pairs, the candidate's
    count of bridges on each pair, and the search's programs and figures."""

    puzzle: Puzzle
    geometry: Geometry
    cells: list[tuple[int, int]]
    ends: list[tuple[int, int]]
    seen: list[list[tuple[int, int]]]  # the islands each one sees, with the pair between them
    counts: list[int]
    free_pairs: list[int]  # the pairs the last program searched
    core: list[int]  # the assumptions clingo blamed in the last search
    deadline: Deadline
    rounds: int
    windows: int

    def stated(
        self,
        free_pairs: list[int],
        searched: set[int],
        frame: set[int],
        groups: dict[int, int],
        anchors: set[int],
        *,
        loose: set[int] | None = None,
    ) -> tuple[Puzzle, str]: ...

    def grounded(self, puzzle: Puzzle, text: str, budget: int | None) -> Grounded: ...

    def solve(
        self, grounded: Grounded, assumptions: list[int] | None = None
    ) -> tuple[Solution | None, bool]: ...

    def take(self, found: Solution, *, first: bool = False) -> None: ...

    def joins(
        self, skipped: set[int] | frozenset[int] = frozenset()
    ) -> Callable[[int], list[int]]: ...


class Sweep:
    """One sweep of a search's candidate (its pairs' counts, its programs and searches): which
    islands are settled, window after window."""

    def __init__(self, search: CandidateSearch):
        self.search = search
        self.row = [r for r, _ in search.cells]  # each island's row
        self.settled = [False] * len(search.cells)
        self.waited: set[int] = set()  # islands that waited once across a waiting pair

    def run(self) -> bool:
        """The candidate drawn window by window from the top, in one part by construction;
        False when the sweep gives up (after :data:`WINDOWS` times the windows it takes without
        a dead end).  Each window settles its top :data:`STEP` rows, and none leaves fewer rows
        than that below it (the last window joins every group, and needs the room: on ten
        puzzles of 10 000 islands, 247 windows against 274 with a last window of 29 rows); a
        window with no answer either unsettles the settled islands clingo blames
        (:meth:`window`, :meth:`reopen`) and searches again, or (blaming none, or out of budget)
        goes back a step with a window :data:`STEP` rows deeper."""
        search, rows, row = self.search, self.search.puzzle.rows, self.row
        search.counts = [0] * len(search.ends)
        top, deeper = 0, dict[int, int]()
        # (the state before each window's answer was taken: a step back restores it whole)
        history: list[tuple[int, list[int], list[bool], set[int]]] = []
        for _ in range(WINDOWS * -(-rows // STEP)):
            bottom = min(rows, top + STEP + LOOK + deeper.get(top, 0))
            if rows - bottom < STEP:  # (the last window joins every group: room to)
                bottom = rows
            window = [i for i, done in enumerate(self.settled) if not done and row[i] < bottom]
            found, exhausted, blamed = self.window(window, bottom)
            if found is not None:
                history.append((top, list(search.counts), list(self.settled), set(self.waited)))
                search.take(found)
                if bottom == rows:
                    return True
                self.settle(window, top + STEP, bottom)
                top += STEP
            elif blamed:
                self.reopen(blamed)
            elif exhausted and bottom == rows and not history:
                return False  # (the whole puzzle, nothing settled: there is no answer)
            else:
                if history:
                    top, search.counts, self.settled, self.waited = history.pop()
                deeper[top] = deeper.get(top, 0) + STEP
        return False

    def window(self, window: list[int], bottom: int) -> tuple[Solution | None, bool, set[int]]:
        """One window: its islands (above row ``bottom``, not settled) searched with the settled
        bridges around them kept.  Its answer or None, whether the search was exhausted, and
        then the settled islands whose bridges clingo blamed (in the core of the search, and of
        further searches that let go of those blamed before)."""
        search = self.search
        search.deadline.check("sweeping a first candidate")
        search.rounds += 1
        search.windows += 1
        puzzle, text = self.window_program(window, bottom)
        # (the last window joins every group, the hardest demand: a larger budget)
        budget = WINDOW_CONFLICTS * (LAST if bottom == search.puzzle.rows else 1)
        grounded = search.grounded(puzzle, text, budget)
        grounded.switch(SINGLES_FIRST.symbol(), False)  # (a quarter double: no use)
        # Each island of the frame held by an assumption, so that clingo's core names those
        # whose bridges the window cannot keep (an external left fixed could not be assumed).
        index, held = search.geometry.index, {}
        for symbol, literal in grounded.atoms(RELEASED.name, RELEASED.arity):
            grounded.switch(symbol, None)
            row, col = RELEASED.numbers(symbol)
            held[index[(row, col)]] = literal
        answer, exhausted = search.solve(grounded, [-literal for literal in held.values()])
        if answer is not None or not exhausted:
            return answer, exhausted, set()
        # No answer: the islands blamed, and those blamed once they are let go (each such search
        # is over in a few conflicts), so that one grounding of the window finds every place
        # where it cannot keep the frame, not one at a time.
        blamed: set[int] = set()
        grounded.limit(BLAME_CONFLICTS)
        while exhausted:
            core = {abs(literal) for literal in search.core}
            more = {i for i, literal in held.items() if literal in core and i not in blamed}
            if not more:
                break
            blamed |= more
            _, exhausted = search.solve(
                grounded, [-literal for i, literal in held.items() if i not in blamed]
            )
        return None, True, blamed

    def window_program(self, window: list[int], bottom: int) -> tuple[Puzzle, str]:
        """A window's islands, the settled ones around them (the frame) and the loose ones below
        row ``bottom`` that they see, as a puzzle, and the facts of neighbourhood.lp: every group
        the settled bridges join must reach a loose island, or in the last window the first
        island's group."""
        search, settled, inside = self.search, self.settled, set(window)
        ends, seen, row = search.ends, search.seen, self.row
        loose = {j for i in window for j, _ in seen[i] if not settled[j] and j not in inside}
        free_pairs = [
            p for i in window for j, p in seen[i] if (j in inside and ends[p][0] == i) or j in loose
        ]
        frame = {j for i in window for j, _ in seen[i] if settled[j]}
        # The groups the settled bridges join; those that reach below the window are anchors.
        starts = sorted(inside | loose)
        found = connected_groups(starts, search.joins())
        groups = {i: g for g, group in enumerate(found) for i in group}
        if bottom < search.puzzle.rows:
            anchors = {g for g, group in enumerate(found) if row[group[-1]] >= bottom}
        else:
            anchors = {groups[window[0]]}
        return search.stated(
            free_pairs, inside, frame, {i: groups[i] for i in starts}, anchors, loose=loose
        )

    def reopen(self, blamed: set[int]) -> None:
        """The settled islands a window blamed, and those within :data:`REOPEN` pairs of them,
        unsettled: the next window searches their pairs again."""
        settled, seen, counts = self.settled, self.search.seen, self.search.counts
        freed = set(blamed)
        for _ in range(REOPEN):
            freed |= {j for i in freed for j, _ in seen[i] if settled[j]}
        for i in freed:
            settled[i] = False
        for i in freed:
            for j, p in seen[i]:
                if not settled[j]:
                    counts[p] = 0

    def settle(self, window: list[int], line: int, bottom: int) -> None:
        """After a window's answer: its islands above row ``line`` are settled, with all their
        bridges, but those that see an island below the window (a bridge into rows not yet met),
        those whose bridges would cross such a bridge (once each), and the islands within
        :data:`HOLD` pairs of either; the other pairs are searched again.  (Ten puzzles of
        10 000 islands, a quarter double: 204 windows, 133.9 s, against 247 and 143.7 s with
        no island waiting across; waiting every time instead, 195 windows, but windows grew to
        5 600 islands on two: 196.2 s.)"""
        search, settled, row = self.search, self.settled, self.row
        seen, ends, counts = search.seen, search.ends, search.counts
        near = [i for i in window if row[i] < line]
        ready = {i for i in near if all(row[j] < bottom for j, _ in seen[i])}
        held = set(near) - ready
        # The islands whose bridges would cross a pair still waiting (from an island that sees
        # below the window) wait with it, once: settling them decides whether that pair can be
        # drawn before its lower island is met (the dead ends' usual cause), and letting them
        # wait only once keeps them from piling up along a long vertical pair.
        crossing = search.geometry.crossing
        waiting = [p for i in held for j, p in seen[i] if row[j] >= bottom]
        across = {end for p in waiting for q in crossing[p] for end in ends[q] if end in ready}
        across -= self.waited
        self.waited |= across
        held |= across
        for _ in range(HOLD):
            held |= {j for i in held for j, _ in seen[i] if j in ready}
        for i in ready - held:
            settled[i] = True
        for p in search.free_pairs:
            a, b = ends[p]
            if not settled[a] and not settled[b]:
                counts[p] = 0
