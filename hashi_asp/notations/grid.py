"""The dot grid (as in the Prolog report): an optional ``ROWS COLS`` header, then one line per row
with ``.`` (or ``0``) for water, a number for each island and ``?`` for an island without one.
Cells are separated by spaces, or not at all: ``2.1..`` and ``2 . 1 . .`` are the same row.  In
a row without spaces every character is a cell, so ``12.1`` is four cells (islands 1 and 2,
water, island 1): numbers of 10 and more need spaces.  A first line holding exactly two
integers, with more lines below it, is always a header.  It holds the standard rules only.
"""

from __future__ import annotations

import itertools

from ..puzzle import MAX_CELLS, Cell, Puzzle, Rules
from .lexing import (
    INTEGER,
    TOKEN,
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

NAME = "grid"
_WATER = {".", "0"}


def detect(text: str) -> bool:
    """The fallback: any text no other notation claims is read as a dot grid."""
    return True


def validate(text: str, max_number: int | None = None) -> Problem | None:
    """The first problem in ``text``, or None if it is a valid dot grid."""
    return first_problem(lambda: _read(text, max_number))


def parse(text: str, source: str = "<grid>", max_number: int | None = None) -> Puzzle:
    rows, cols, islands = trusted(lambda: _read(text, max_number), source)
    return Puzzle(rows, cols, islands, source)


def _read(text: str, max_number: int | None) -> tuple[int, int, dict[Cell, int | None]]:
    max_number = max_number or Rules().max_number
    lines = content_lines(text)
    first = next(lines, None)
    if first is None:
        raise Problem("empty input: expected rows of '.' and island numbers")
    second = next(lines, None)
    header = None
    first_line, content = first
    first_tokens = tokens(content, 3)
    # Two integers alone on the first line, with rows below, are a ROWS COLS header.
    if (
        second is not None
        and len(first_tokens) == 2
        and all(INTEGER.match(t) for _, t in first_tokens)
    ):
        header = first_tokens
        declared = [
            integer(token, first_line, column, what)
            for (column, token), what in zip(header, ("ROWS", "COLS"))
        ]
        check_size(declared[0], declared[1], first_line, header[0][0])
        body = itertools.chain([second], lines)
    else:
        body = itertools.chain([first], [second] if second else [], lines)
    islands: dict[Cell, int | None] = {}
    rows = width = 0
    start = 0  # the line of the first row
    for line, content in body:
        start = start or line
        # No more cells are read than the limit allows, however long the line.
        limit = MAX_CELLS // (rows + 1) if not rows else width
        spaced = _spaced(content)
        cells = content.split(None, limit) if spaced else content.strip()[: limit + 1]
        if rows and len(cells) != width:
            # Point at the first surplus cell, or just past the end of a short row.
            found = _cells(content, width)
            column = found[width][0] if len(found) > width else len(content) + 1
            raise Problem(
                f"row {rows + 1} has {_count_cells(content)} cells but row 1 has {width}",
                line,
                column,
            )
        if (rows + 1) * len(cells) > MAX_CELLS:
            raise Problem(
                f"grid of {rows + 1} rows of {_count_cells(content)} cells exceeds "
                f"the limit of {MAX_CELLS} cells",
                line,
                1,
            )
        # Most rows of a large grid are mostly water: only a row with something else is read
        # cell by cell, with the positions its messages need.
        if not (set(cells) <= _WATER if isinstance(cells, list) else not cells.strip(".0")):
            for c, (column, token) in enumerate(_cells(content, len(cells))):
                value = _value(token, line, column, max_number)
                if value != 0:
                    islands[rows, c] = value
        rows, width = rows + 1, len(cells)
    if header is not None:
        (row_column, _), (col_column, _) = header
        declared_rows, declared_cols = declared
        if declared_rows != rows:
            raise Problem(
                f"header says {declared_rows} rows but the grid has {rows}", first_line, row_column
            )
        if declared_cols != width:
            raise Problem(
                f"header says {declared_cols} columns but the rows have {width}",
                first_line,
                col_column,
            )
    check_size(rows, width, start, 1)
    if not islands:
        raise Problem("puzzle has no islands")
    return rows, width, islands


def _cells(content: str, limit: int) -> list[tuple[int, str]]:
    """(column, token) per cell, at most ``limit + 1`` of them: whitespace-separated tokens,
    or one character per cell."""
    if _spaced(content):
        return tokens(content, limit + 1)
    start = len(content) - len(content.lstrip())
    return [(start + i + 1, ch) for i, ch in enumerate(content.strip()[: limit + 1])]


def _count_cells(content: str) -> int:
    return count_tokens(content) if _spaced(content) else len(content.strip())


def _spaced(content: str) -> bool:
    """Whether a grid row separates its cells by spaces (it has two tokens or more)."""
    return next(itertools.islice(TOKEN.finditer(content), 1, None), None) is not None


def _value(token: str, line: int, column: int, max_number: int) -> int | None:
    if token in _WATER:
        return 0
    if token == "?":
        return None  # an island without a number
    if token.isascii() and token.isdigit():
        return island_number(integer(token, line, column, "island"), max_number, line, column)
    shown = token if len(token) == 1 else f"{token[:20]}..." if len(token) > 20 else token
    raise Problem(
        f"unexpected {'character' if len(token) == 1 else 'token'} {shown!r}: "
        f"expected '.' for water or an island number 1..{max_number}",
        line,
        column,
    )


def write(puzzle: Puzzle) -> str:
    standard_rules_only(puzzle, "the dot grid")
    lines = [f"{puzzle.rows} {puzzle.cols}"]
    for r in range(puzzle.rows):
        lines.append(
            " ".join(
                "."
                if (r, c) not in puzzle.islands
                else "?"
                if puzzle.islands[r, c] is None
                else str(puzzle.islands[r, c])
                for c in range(puzzle.cols)
            )
        )
    return "\n".join(lines) + "\n"
