"""Displaying puzzles and solutions: text drawings, JSON and ASP facts."""

from __future__ import annotations

import json
import re

from .puzzle import Puzzle, Solution
from .solving import Result

# Characters per style: water, one and two horizontal bridges, one and two vertical bridges.
# The text style follows Simon Tatham's bridges.c ('"' for a double vertical bridge).
STYLES = {
    "text": {"water": ".", "h": "-=", "v": '|"'},
    "unicode": {"water": "·", "h": "─═", "v": "│║"},
}
_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def draw(puzzle: Puzzle, solution: Solution | None = None, style: str = "text") -> str:
    """The grid with islands as numbers (10 and up as A, B, ...; ``?`` for an island without
    one) and the solution's bridges.

    Cells sit two characters apart so that a horizontal bridge also fills the gap between them.
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
    return "\n".join("".join(row) for row in canvas)


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
