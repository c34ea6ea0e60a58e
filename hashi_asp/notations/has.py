"""The ``.has`` notation of Coelho, Laporte, Lindbeck & Vidal (2019), the format of their 1440
benchmark instances: a header ``ROWS COLS NISLANDS``, then ROWS lines of COLS integers, ``0`` for
water.  It holds numbered islands under the standard rules only.

    3 3 3
    2 0 1
    0 0 0
    1 0 0
"""

from __future__ import annotations

import itertools

from ..errors import PuzzleError
from ..puzzle import Cell, Puzzle, Rules
from .lexing import (
    INTEGER,
    Problem,
    check_size,
    content_lines,
    count_tokens,
    first_problem,
    integer,
    island_number,
    standard_rules_only,
    tokens,
    trusted,
)

NAME = "has"


def detect(text: str) -> bool:
    """A header of three integers, and a second line as wide as the header's COLS (which keeps
    a dot grid of integers without a header apart)."""
    lines = [line for _, line in itertools.islice(content_lines(text), 2)]
    header = [token for _, token in tokens(lines[0], 4)] if lines else []
    return (
        len(lines) == 2
        and len(header) == 3
        and all(INTEGER.match(t) for t in header)
        and len(header[1]) <= 18
        and int(header[1]) > 0
        and count_tokens(lines[1], int(header[1]) + 1) == int(header[1])
    )


def validate(text: str, max_number: int | None = None) -> Problem | None:
    """The first problem in ``text``, or None if it is a valid .has puzzle."""
    return first_problem(lambda: _read(text, max_number))


def parse(text: str, source: str = "<has>", max_number: int | None = None) -> Puzzle:
    rows, cols, islands = trusted(lambda: _read(text, max_number), source)
    return Puzzle(rows, cols, islands, source)


def _read(text: str, max_number: int | None) -> tuple[int, int, dict[Cell, int | None]]:
    max_number = max_number or Rules().max_number
    lines = content_lines(text)
    header_line, content = next(lines, (0, ""))
    if not content:
        raise Problem("empty input: expected a 'ROWS COLS NISLANDS' header")
    header = tokens(content, 4)
    if len(header) != 3:
        column = header[3][0] if len(header) > 3 else len(header[-1][1]) + header[-1][0]
        found = len(header) if len(header) < 4 else count_tokens(content)
        raise Problem(
            f"header must be 'ROWS COLS NISLANDS', found {found} value(s)", header_line, column
        )
    rows, cols, declared = (
        integer(token, header_line, column, what)
        for (column, token), what in zip(header, ("ROWS", "COLS", "NISLANDS"))
    )
    # The size and the island count are checked before the grid is read; then each row is read
    # up to one value past the width and reading stops at the first surplus row, so memory
    # follows what the header allows whatever the file holds.
    check_size(rows, cols, header_line, header[0][0])
    if declared < 1:
        raise Problem(
            f"header says {declared} islands; a puzzle needs at least one",
            header_line,
            header[2][0],
        )
    islands: dict[Cell, int | None] = {}
    r = 0
    for line, content in lines:
        if r == rows:
            raise Problem(f"line beyond the {rows} rows the header declares", line, 1)
        values = content.split(None, cols)  # at most one value past the width
        if len(values) != cols:
            row = tokens(content, cols + 1)
            column = row[cols][0] if len(row) > cols else row[-1][0] + len(row[-1][1])
            raise Problem(
                f"row {r + 1} has {count_tokens(content)} values; the header says {cols} columns",
                line,
                column,
            )
        # The position of a value is found only for a message.
        for c, token in enumerate(values):
            if token == "0":
                continue
            try:
                value = integer(token, line, None, "cell value")
                if value:
                    islands[r, c] = island_number(value, max_number, line, None)
            except Problem as problem:
                problem.column = tokens(content, c + 1)[c][0]
                raise
        r += 1
    if r < rows:
        raise Problem(f"header says {rows} rows but the grid has {r}", header_line, header[0][0])
    if len(islands) != declared:
        raise Problem(
            f"header says {declared} islands but the grid has {len(islands)}",
            header_line,
            header[2][0],
        )
    return rows, cols, islands


def write(puzzle: Puzzle) -> str:
    unnumbered = [cell for cell, n in puzzle.islands.items() if n is None]
    if unnumbered:
        raise PuzzleError(
            f"the .has notation cannot hold an island without a number (at "
            f"{unnumbered[0]}); use json, grid or puzzlink",
            puzzle.source,
        )
    standard_rules_only(puzzle, "the .has notation")
    lines = [f"{puzzle.rows} {puzzle.cols} {len(puzzle.islands)}"]
    for r in range(puzzle.rows):
        lines.append(" ".join(f"{puzzle.islands.get((r, c), 0):2d}" for c in range(puzzle.cols)))
    return "\n".join(lines) + "\n"
