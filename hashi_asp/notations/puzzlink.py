"""puzz.link URLs and pzprv3 files: the notations of pzprjs, the editor behind puzz.link and pzv.jp.

A URL is ``https://puzz.link/p?hashikake/COLS/ROWS/BODY`` (also ``hashi`` or ``bridges`` for
the type, the pzv.jp host, or the bare ``hashikake/COLS/ROWS/BODY``).  BODY lists the cells
in reading order, pzprjs's "number16" encoding:

========================  ==================================================================
``0``..``9``, ``a``..``f``  an island with that hexadecimal number
``-XX``, ``+XXX``           an island with a 2- or 3-digit hexadecimal number (16 and up)
``.``                       an island without a number (any count of 1 or more)
``g``..``z``                a run of 1..20 water cells
========================  ==================================================================

A pzprv3 file (what pzprjs's editors save) is ``pzprv3``, ``hashikake``, ROWS, COLS, a line
per row of cells (``3``, ``-`` for an island without a number, ``.`` for water), then the
bridges as lines over cell borders: ROWS lines of COLS-1 values for the borders between
horizontal neighbours, then ROWS-1 lines of COLS values for vertical ones (``0`` none, ``1``
or ``2`` bridges, ``-1`` a "no bridge" mark).  A ``/`` may stand for each line break.

:func:`validate_url` and :func:`validate_pzprv3` find the first problem in their notation;
the readers use them and trust what they pass.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..errors import PuzzleError
from ..puzzle import MAX_CELLS, Bridge, Cell, Puzzle, Solution, bridge
from .lexing import (
    DIGITS,
    Problem,
    count_tokens,
    first_problem,
    one_line,
    positive,
    tokens,
    trusted,
)

TYPES = ("hashikake", "hashi", "bridges")  # pzprjs's name for Hashi and its aliases
HOST = "https://puzz.link/p?"
MAX_NUMBER = 8  # pzprjs's hashikake: Cell.maxnum

# A web address, a host and path with a query (puzz.link/p?...), or a bare "hashikake/...".
# Each is tried on the part before the first '?' with one pass and no nested repetition, so
# that a long line is rejected in linear time.
_SCHEME = re.compile(r"https?://")
_HOST_PATH = re.compile(r"[\w.-]+\.\w+/[^?]*")
# Longer numbers: prefix -> (hexadecimal digits, value added)
_NUMBER_PREFIXES = {
    "-": (2, 0),
    "+": (3, 0),
    "=": (3, 4096),
    "%": (3, 8192),
    "*": (4, 12240),
    "$": (5, 77776),
}


# A field after the type that is a size, however mistaken ("-3", "1e3", "+2"), rather than an
# option flag of pzprjs's (letters).
_NUMBER_LIKE = re.compile(r"[0-9+-]")


def _size(field: str, what: str, line: int | None, column: int | None) -> int:
    """The number of rows or columns ``field`` gives (``what``: ROWS or COLS), a positive
    integer no larger than a grid may have; a mistake says what was given, and where."""
    value = positive(field)
    if value is None:
        raise Problem(f"{what}: expected a positive integer, found {field[:20]!r}", line, column)
    if value > MAX_CELLS:  # (too large for any grid, however few its other side's cells)
        digits = field.lstrip("0")
        shown = digits if len(digits) <= 20 else f"{digits[:12]}... ({len(digits)} digits)"
        raise Problem(
            f"{what} {shown} is too large: a grid has at most {MAX_CELLS} cells", line, column
        )
    return value


def _bad_url(message: str, column: int | None = None) -> Problem:
    """A problem in a URL, which is one line: its column is enough."""
    return Problem(message, None, column)


def is_url(text: str) -> bool:
    """Whether one-line ``text`` is a web address or a bare ``hashikake/...`` description."""
    url = text.strip()
    if not url or any(ch.isspace() for ch in url):
        return False
    head, question, _ = url.partition("?")
    return bool(
        _SCHEME.match(url)
        or (url.split("/", 1)[0] in TYPES and "/" in url)
        or (question and _HOST_PATH.fullmatch(head))
    )


# ---------------------------------------------------------------------------- URLs


def validate_url(url: str, max_number: int | None = None) -> Problem | None:
    """The first problem in ``url`` as (message, 1-based column), or None if it is a valid
    Hashi URL.  Island numbers may go up to ``max_number`` (default 8)."""
    return first_problem(lambda: _read_url(url, max_number or MAX_NUMBER), inline=url)


def parse_url(text: str, source: str = "<url>", max_number: int | None = None) -> Puzzle:
    rows, cols, islands = trusted(
        lambda: _read_url(text, max_number or MAX_NUMBER), source, inline=text
    )
    return Puzzle(rows, cols, islands, source)


def _read_url(text: str, max_number: int) -> tuple[int, int, dict[Cell, int | None]]:
    url, _, offset = one_line(text)
    query = url.find("?") + 1  # 0 for the bare form
    if query == 0 and re.match(r"\w+://", url):
        raise _bad_url(
            "URL has no '?': a puzz.link URL looks like "
            "https://puzz.link/p?hashikake/COLS/ROWS/BODY",
            offset + 1,
        )
    fields, starts, start = [], [], query
    for field in url[query:].split("/"):
        fields.append(field)
        starts.append(offset + start + 1)
        start += len(field) + 1
    kind = fields[0]
    if kind not in TYPES:
        raise _bad_url(
            f"puzz.link type {kind[:30]!r} is not Hashi (expected {', '.join(TYPES)})", starts[0]
        )
    if len(fields) > 1 and fields[1] and not _NUMBER_LIKE.match(fields[1]):
        del fields[1], starts[1]  # a pzprjs option flag; Hashi has none to heed
    if len(fields) < 4:
        raise _bad_url(f"expected COLS/ROWS/BODY after '{kind}/'", starts[-1] + len(fields[-1]))
    if len(fields) == 5 and not fields[4]:
        del fields[4], starts[4]  # a trailing '/', as pzprjs reads it: nothing
    if len(fields) > 4:
        raise _bad_url("unexpected '/' after the body", starts[4] - 1)
    cols, rows = (
        _size(field, what, None, start)
        for field, start, what in zip(fields[1:3], starts[1:3], ("COLS", "ROWS"))
    )
    if rows * cols > MAX_CELLS:
        raise _bad_url(f"grid {cols}x{rows} exceeds the limit of {MAX_CELLS} cells", starts[1])
    return rows, cols, _body(fields[3], starts[3], rows, cols, max_number)


def _body(body: str, start: int, rows: int, cols: int, max_number: int) -> dict[Cell, int | None]:
    cells = rows * cols
    islands: dict[Cell, int | None] = {}
    i = position = 0
    while position < len(body):
        ch, column = body[position], start + position
        if i >= cells:
            raise _bad_url(
                f"body runs past the last of the {cols}x{rows} = {cells} cells at {ch!r}", column
            )
        if "g" <= ch <= "z":
            i += ord(ch) - ord("g") + 1
            position += 1
            continue
        if ch == ".":
            number, width = None, 1
        elif ch in "0123456789abcdef":
            number, width = int(ch, 16), 1
        elif ch in _NUMBER_PREFIXES:
            digits, base = _NUMBER_PREFIXES[ch]
            text = body[position + 1 : position + 1 + digits]
            if len(text) < digits or not all(d in "0123456789abcdef" for d in text):
                raise _bad_url(
                    f"{ch!r} must be followed by {digits} hexadecimal digits, found {text!r}",
                    column,
                )
            number, width = int(text, 16) + base, 1 + digits
        else:
            raise _bad_url(
                f"unexpected character {ch!r} in the body: expected 1..9 or a..f "
                "for an island, '.' for one without a number, g..z for water",
                column,
            )
        if number is not None and not 1 <= number <= max_number:
            raise _bad_url(
                f"island number {number} at {divmod(i, cols)} out of range 1..{max_number}", column
            )
        islands[divmod(i, cols)] = number
        i += 1
        position += width
    if i < cells:
        raise _bad_url(
            f"body describes {i} of the {cols}x{rows} = {cells} cells (is the URL cut off?)",
            start + len(body),
        )
    if i > cells:
        raise _bad_url(
            f"body's last water run goes {i - cells} cell(s) past the end of the grid",
            start + len(body) - 1,
        )
    if not islands:
        raise _bad_url("puzzle has no islands", start)
    return islands


def format_url(puzzle: Puzzle) -> str:
    """A puzz.link URL that opens the puzzle; raises :class:`PuzzleError` for what puzz.link's
    Hashi cannot pose (other rules, numbers over 8)."""
    _require_pzprjs_rules(puzzle, "a puzz.link URL")
    body, run = [], 0
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            if (r, c) not in puzzle.islands:
                run += 1
                if run == 20:  # 'z', the longest run
                    body.append("z")
                    run = 0
                continue
            if run:
                body.append(chr(ord("g") + run - 1))
                run = 0
            number = puzzle.islands[r, c]
            body.append("." if number is None else format(number, "x"))
    if run:
        body.append(chr(ord("g") + run - 1))
    return f"{HOST}hashikake/{puzzle.cols}/{puzzle.rows}/{''.join(body)}\n"


def _require_pzprjs_rules(puzzle: Puzzle, notation: str) -> None:
    if not puzzle.rules.standard:
        raise PuzzleError(
            f"{notation} cannot pose this puzzle's rules ({puzzle.rules}): "
            "puzz.link's Hashi has the standard rules; use tatham or json",
            puzzle.source,
        )
    for (r, c), number in puzzle.islands.items():
        if number is not None and number > MAX_NUMBER:
            raise PuzzleError(
                f"{notation} cannot hold island number {number} at ({r}, {c}): "
                f"puzz.link's Hashi takes 1..{MAX_NUMBER}",
                puzzle.source,
            )


# ---------------------------------------------------------------------------- pzprv3 files


def is_pzprv3(text: str) -> bool:
    return text.lstrip().startswith("pzprv3")


def validate_pzprv3(text: str, max_number: int | None = None) -> Problem | None:
    """The first problem in a pzprv3 file (its bridge lines included), or None if it is valid."""
    return first_problem(lambda: _read_pzprv3(text, max_number or MAX_NUMBER))


def parse_pzprv3(text: str, source: str = "<pzprv3>", max_number: int | None = None) -> Puzzle:
    rows, cols, islands, _ = trusted(lambda: _read_pzprv3(text, max_number or MAX_NUMBER), source)
    return Puzzle(rows, cols, islands, source)


def parse_pzprv3_solution(text: str, source: str = "<pzprv3>") -> Solution:
    """The bridges drawn in a pzprv3 file (each island number up to 4 * 4 is accepted here:
    the puzzle the solution is checked against decides)."""
    return trusted(lambda: _read_pzprv3(text, 16), source)[3]


class _Row(NamedTuple):
    """One line of values: the values, and where the line's text starts."""

    values: list[str]
    line: int
    column: int
    content: str

    def at(self, k: int) -> tuple[int, int]:
        """Line and column of value ``k`` (found only for a message)."""
        return self.line, self.column + tokens(self.content, k + 1)[k][0] - 1


def _read_pzprv3(text: str, max_number: int) -> tuple[int, int, dict[Cell, int | None], Solution]:
    # pzprjs reads '/' as a line break; keep each piece's own line and column for messages.
    pieces = []
    for line, content in enumerate(text.splitlines(), 1):
        column = 1
        for piece in content.split("/"):
            pieces.append((line, column, piece))
            column += len(piece) + 1
    remaining = iter(pieces)

    def next_piece(what: str) -> tuple[int, int, str]:
        try:
            return next(remaining)
        except StopIteration:
            raise Problem(f"file ends before {what}") from None

    line, column, header = next_piece("the 'pzprv3' header")
    if not re.fullmatch(r"pzprv3(\.\d+)?", header.strip()):
        raise Problem(f"expected the header 'pzprv3', found {header.strip()[:20]!r}", line, column)
    line, column, kind = next_piece("the puzzle type")
    if kind.strip() not in TYPES:
        raise Problem(
            f"pzprv3 type {kind.strip()[:30]!r} is not Hashi (expected {', '.join(TYPES)})",
            line,
            column,
        )
    size = []
    for what in ("ROWS", "COLS"):
        line, column, value = next_piece(what)
        size.append(_size(value.strip(), what, line, column))
    rows, cols = size
    if rows * cols > MAX_CELLS:
        raise Problem(f"grid {cols}x{rows} exceeds the limit of {MAX_CELLS} cells", line, column)

    def values(count: int, per_line: int, what: str) -> list[_Row]:
        table = []
        for index in range(count):
            line, column, content = next_piece(f"{what} {index + 1} of {count}")
            # At most one value past the expected count is kept, however long the line.
            found = content.split(None, per_line)
            if len(found) != per_line:
                raise Problem(
                    f"{what} {index + 1} has {count_tokens(content)} values, expected {per_line}",
                    line,
                    column,
                )
            table.append(_Row(found, line, column, content))
        return table

    islands: dict[Cell, int | None] = {}
    for r, row in enumerate(values(rows, cols, "cell row")):
        if set(row.values) == {"."}:  # water only: most rows of a large grid
            continue
        for c, token in enumerate(row.values):
            if token == ".":
                continue
            if token == "-":
                islands[r, c] = None
            elif DIGITS.match(token) and len(token) <= 18 and 1 <= int(token) <= max_number:
                islands[r, c] = int(token)
            else:
                raise Problem(
                    f"unexpected cell {token[:20]!r}: expected '.' for water, '-' for "
                    f"an island without a number, or a number 1..{max_number}",
                    *row.at(c),
                )
    if not islands:
        raise Problem("puzzle has no islands")
    rest = list(remaining)
    if not any(content.strip() for _, _, content in rest):
        return rows, cols, islands, Solution.of([])  # a puzzle without its line data
    remaining = iter(rest)
    across = values(rows, cols - 1, "horizontal line row")
    down = values(rows - 1, cols, "vertical line row")
    return rows, cols, islands, Solution.of(_bridges(islands, rows, cols, across, down))


def _bridges(
    islands: dict[Cell, int | None], rows: int, cols: int, across: list[_Row], down: list[_Row]
) -> list[Bridge]:
    """Bridges from lines over cell borders: each stretch between two neighbouring islands must
    carry one count all along, and no line may run where no two islands face each other."""
    found: list[Bridge] = []
    # Each lane is a row (its horizontal borders) or a column (its vertical ones): a border is
    # (value, (the Row holding it, its index there)), for a message's position.
    for horizontal, count, length in ((True, rows, cols), (False, cols, rows)):
        for lane in range(count):
            if horizontal:
                row = across[lane]
                borders = [(v, (row, k)) for k, v in enumerate(row.values)]
            else:
                borders = [(down[k].values[lane], (down[k], lane)) for k in range(length - 1)]
            if all(value in _NO_LINE for value, _ in borders):
                continue  # no line: nothing to read (most lanes of a large grid)
            found += _lane(islands, horizontal, lane, length, borders)
    return found


_NO_LINE = {"0", "-1"}  # -1 is the player's "no bridge here" mark


def _lane(
    islands: dict[Cell, int | None],
    horizontal: bool,
    lane: int,
    length: int,
    borders: list[tuple[str, tuple[_Row, int]]],
) -> list[Bridge]:
    def cell(k: int) -> Cell:
        return (lane, k) if horizontal else (k, lane)

    def count(k: int) -> int:
        value, (row, index) = borders[k]
        if value in _NO_LINE:
            return 0
        if DIGITS.match(value) and len(value) < 3:
            return int(value)
        raise Problem(
            f"unexpected line value {value[:20]!r}: expected 0, -1 or a bridge count",
            *row.at(index),
        )

    def position(k: int) -> tuple[int, int]:
        row, index = borders[k][1]
        return row.at(index)

    found = []
    start: int | None = None  # the islands before and after the current border
    end: int | None = None
    for k in range(length - 1):
        if cell(k) in islands:
            start = k
            end = next((j for j in range(k + 1, length) if cell(j) in islands), None)
        value = count(k)
        if start is None or end is None or k >= end:
            if value:
                raise Problem(
                    f"a line between {cell(k)} and {cell(k + 1)} does not join two islands",
                    *position(k),
                )
        elif value != count(start):
            raise Problem(
                f"the line from {cell(start)} to {cell(end)} changes its count at {cell(k)}",
                *position(k),
            )
        elif value and k == start:
            found.append(bridge(cell(start), cell(end), value))
    return found


def format_pzprv3(puzzle: Puzzle, solution: Solution | None = None) -> str:
    """The puzzle, and the bridges of ``solution`` if given, as a pzprv3 file that pzprjs's
    editors (puzz.link, pzv.jp) open."""
    _require_pzprjs_rules(puzzle, "a pzprv3 file")
    rows, cols = puzzle.rows, puzzle.cols
    across = [[0] * (cols - 1) for _ in range(rows)]
    down = [[0] * cols for _ in range(rows - 1)]
    for b in solution.bridges if solution else ():
        if b.horizontal:
            for c in range(b.c1, b.c2):
                across[b.r1][c] = b.count
        else:
            for r in range(b.r1, b.r2):
                down[r][b.c1] = b.count
    lines = ["pzprv3", "hashikake", str(rows), str(cols)]
    # pzprjs ends every value with a space, so each line of values ends in one.
    for r in range(rows):
        lines.append(
            "".join(
                "{} ".format(
                    "."
                    if (r, c) not in puzzle.islands
                    else "-"
                    if puzzle.islands[r, c] is None
                    else puzzle.islands[r, c]
                )
                for c in range(cols)
            )
        )
    lines += ["".join(f"{v} " for v in row) for row in across]
    lines += ["".join(f"{v} " for v in row) for row in down]
    return "\n".join(lines) + "\n"
