"""Displaying puzzles and solutions: text drawings, JSON and ASP facts."""

from __future__ import annotations

import json
import re
from typing import Callable, Mapping

from .puzzle import Cell, Puzzle, Solution
from .solving import Result

# Characters per style: water, one and two horizontal bridges, one and two vertical bridges.
# The text style follows Simon Tatham's bridges.c ('"' for a double vertical bridge).
STYLES = {
    "text": {"water": ".", "h": "-=", "v": '|"'},
    "unicode": {"water": "·", "h": "─═", "v": "│║"},
}
_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def draw(puzzle: Puzzle, solution: Solution | None = None, style: str = "text", *,
         marks: Mapping[Cell | tuple[Cell, Cell], Callable[[str], str]] | None = None) -> str:
    """The grid with islands as numbers (10 and up as A, B, ...; ``?`` for an island without
    one) and the solution's bridges.

    Cells sit two characters apart so that a horizontal bridge also fills the gap between them.
    ``marks`` maps an island ``(r, c)`` or a pair of islands ``((r1, c1), (r2, c2))`` to a
    function applied to each character drawn for it (the island's number; the bridge or water
    between the pair), e.g. to colour it or to draw an undecided pair as ``?``.
    """
    chars = STYLES[style]
    canvas = [[chars["water"] if c % 2 == 0 else " " for c in range(2 * puzzle.cols - 1)]
              for _ in range(puzzle.rows)]
    for b in solution.bridges if solution else ():
        count = min(b.count, 2) - 1
        if b.horizontal:
            for x in range(2 * b.c1 + 1, 2 * b.c2):
                canvas[b.r1][x] = chars["h"][count]
        else:
            for r in range(b.r1 + 1, b.r2):
                canvas[r][2 * b.c1] = chars["v"][count]
    for (r, c), n in puzzle.islands.items():
        canvas[r][2 * c] = "?" if n is None else _DIGITS[n] if n < len(_DIGITS) else "#"
    for key, mark in (marks or {}).items():
        for r, x in _positions(key):
            canvas[r][x] = mark(canvas[r][x])
    return "\n".join("".join(row) for row in canvas)


def _positions(key: Cell | tuple[Cell, Cell]) -> list[tuple[int, int]]:
    """Where on the canvas an island, or the line between a pair of islands, is drawn."""
    if isinstance(key[0], int):
        return [(key[0], 2 * key[1])]
    (r1, c1), (r2, c2) = sorted(key)
    if r1 == r2:
        return [(r1, x) for x in range(2 * c1 + 1, 2 * c2)]
    return [(r, 2 * c1) for r in range(r1 + 1, r2)]


def result_json(puzzle: Puzzle, result: Result, *, stats: bool = False) -> dict:
    """The JSON document ``solve --format json`` prints (schema in the README)."""
    document = {
        "status": result.status,
        "exhausted": result.exhausted,
        "count": len(result.solutions),
        "timed_out": result.timed_out,
        "solutions": [s.to_json() for s in result.solutions],
        "puzzle": puzzle.to_json(),
    }
    if stats:
        document["stats"] = result.stats
    return document


def dumps(document: dict) -> str:
    """Indented JSON with each list of integers (a bridge, an island) kept on one line."""
    text = json.dumps(document, indent=2)
    # Inside JSON strings newlines are escaped, so this only ever joins lists of plain integers.
    return _INTEGER_LIST.sub(lambda m: "[" + re.sub(r"\s+", "", m.group(1)).replace(",", ", ") + "]",
                             text)


_INTEGER_LIST = re.compile(r"\[\s*(-?\d+(?:,\s*-?\d+)*)\s*\]")


def solution_facts(solution: Solution) -> str:
    """A solution as ``bridge/5`` facts, the encoding's output predicate."""
    return " ".join(f"bridge({b.r1},{b.c1},{b.r2},{b.c2},{b.count})." for b in solution.bridges)
