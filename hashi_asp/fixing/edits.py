"""Edits and what they do to puzzles and solutions.

:func:`edited` makes edits on a puzzle; :func:`split` splits a solution's bridges at the islands
the edits add under them (keep mode's edits leave the kept solution a solution, split).  The
other way, :func:`merged` and :func:`joined_again` join a solution again through every island
its bridges pass straight through with the same count on both sides: one merged solution stands
for all its splits, which is how keep mode rules out every new island on a bridge at once, and
how the single edits rule out an edit under which two known solutions stay solutions.
:func:`differing` is where solutions differ, near which the single edits are tried first.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from ..puzzle import Bridge, Cell, Puzzle, Solution, bridge
from .results import Edit, FixFault


def edited(puzzle: Puzzle, edits: Iterable[Edit]) -> Puzzle:
    """The puzzle with the edits made."""
    islands = dict(puzzle.islands)
    for edit in edits:
        if edit.kind == "remove":
            del islands[edit.cell]
        else:
            islands[edit.cell] = edit.new
    return Puzzle(puzzle.rows, puzzle.cols, islands, puzzle.source, puzzle.rules)


def split(solution: Solution, edits: Iterable[Edit]) -> Solution:
    """The solution with its bridges split at the islands the edits add under them."""
    added = {edit.cell for edit in edits if edit.kind == "add"}
    bridges: list[Bridge] = []
    for drawn in solution.bridges:
        stops = [cell for cell in drawn.cells_between() if cell in added]
        ends = [drawn.ends[0], *stops, drawn.ends[1]]
        bridges += [bridge(a, b, drawn.count) for a, b in itertools.pairwise(ends)]
    return Solution.of(bridges)


def joined_again(solution: Solution) -> frozenset[Bridge]:
    """The solution's bridges joined again through every island they pass straight through with
    the same count on both sides: what stands for all its splits."""
    ends, _ = merged(solution)
    at = _links(solution)
    joined = set()
    for start in ends:
        for step, count in at[start]:
            previous, here = start, step
            while here not in ends:  # straight on through
                previous, here = here, next(c for c, _ in at[here] if c != previous)
            joined.add(bridge(start, here, count))
    return frozenset(joined)


def _links(solution: Solution) -> dict[Cell, list[tuple[Cell, int]]]:
    """Each island of the solution with the islands its bridges go to and their counts."""
    at: dict[Cell, list[tuple[Cell, int]]] = {}
    for drawn in solution.bridges:
        a, b = drawn.ends
        at.setdefault(a, []).append((b, drawn.count))
        at.setdefault(b, []).append((a, drawn.count))
    return at


def merged(solution: Solution) -> tuple[dict[Cell, int], dict[Cell, int]]:
    """A solution joined again through every island its bridges pass straight through with the
    same count on both sides (it stands for all its splits): the islands left with their
    bridges, and the cells under the joined bridges with their counts."""
    at = _links(solution)
    through = set()
    for cell, links in at.items():
        if len(links) == 2 and links[0][1] == links[1][1]:
            (a, _), (b, _) = links
            if (a[0] == b[0] == cell[0]) or (a[1] == b[1] == cell[1]):
                through.add(cell)
    ends = {cell: sum(k for _, k in links) for cell, links in at.items() if cell not in through}
    over: dict[Cell, int] = {}
    for drawn in solution.bridges:
        for cell in drawn.cells_between():
            over[cell] = drawn.count
    for cell in through:
        over[cell] = at[cell][0][1]
    if not ends:  # a cycle of straight runs cannot be: a rectangle has corners
        raise FixFault("internal error: a solution with no corner or end")
    return ends, over


def differing(solutions: list[Solution]) -> set[Cell]:
    """The cells where ``solutions`` differ: the ends of the bridges not all of them have, and
    the cells under those bridges."""
    first, *others = [set(s.bridges) for s in solutions]
    different = first.union(*others) - first.intersection(*others)
    return {c for b in different for c in (*b.ends, *b.cells_between())}
