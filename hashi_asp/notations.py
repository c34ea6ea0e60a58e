"""Reading and writing puzzles in the common text notations.

One parser per notation, each validating its input and raising :class:`PuzzleError` with the
source, line and column of the first problem (in the spirit of Simon Tatham's bridges.c):

``has``    Coelho et al. (2019): ``ROWS COLS NISLANDS``, then ROWS lines of COLS integers, 0 = water.
``grid``   dot grid: optional ``ROWS COLS`` header, then rows of ``.`` (or ``0``) for water and
           island numbers, separated by spaces or not.
``json``   ``{"rows": R, "cols": C, "islands": [[r, c, n], ...]}``, or the coordinate list
           ``[[[x, y], n], ...]`` whose distinct x and y values become columns and rows (y up).
``puzzlink``  puzz.link / pzv.jp URLs (module :mod:`.puzzlink`); ``pzprv3`` their editor's files.
``tatham``    Simon Tatham's Bridges game IDs (module :mod:`.tatham`).

An island without a number is ``None`` in :attr:`Puzzle.islands`: ``?`` in the dot grid,
``null`` in JSON, ``.`` in a puzz.link URL.  The .has notation cannot hold one.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import os
import re
from pathlib import Path
from typing import Callable, Iterator

from .puzzle import DEFAULT_MAX_BRIDGES, MAX_BRIDGES_LIMIT, MAX_CELLS, Cell, Puzzle, PuzzleError, Solution, bridge
MAX_FILE_BYTES = 64 * 1024 * 1024
"""Largest input any reader accepts: room for a 10 000 000-cell grid in every notation (the
largest, a pzprv3 file with its lines, takes about 60 MB), while a JSON document, which is parsed
whole, stays around 1 GB of memory at worst."""

_INTEGER = re.compile(r"[+-]?\d+\Z")
_TOKEN = re.compile(r"\S+")


# ---------------------------------------------------------------------------- entry points

def read(source: str | os.PathLike, *, notation: str | None = None,
         max_bridges: int | None = None, no_loops: bool | None = None) -> Puzzle:
    """Read a puzzle from a file path, or from the puzzle itself: text (anything with a newline
    or starting with ``{`` or ``[``), a puzz.link URL or a Simon Tatham game ID (when no file
    of that name exists).  ``max_bridges`` and ``no_loops``, when given, override the rules the
    puzzle's notation states (island numbers may then go up to ``4 * max_bridges``)."""
    if isinstance(source, str) and (_is_puzzle_text(source)
                                    or (is_inline_puzzle(source) and not os.path.exists(source))):
        return parse(source, notation=notation, source="<text>", max_bridges=max_bridges,
                     no_loops=no_loops)
    path = Path(source)
    return parse(read_text(path), notation=notation, source=str(path), max_bridges=max_bridges,
                 no_loops=no_loops)


def parse(text: str, *, notation: str | None = None, source: str = "<text>",
          max_bridges: int | None = None, no_loops: bool | None = None) -> Puzzle:
    """Parse puzzle text in ``notation`` (detected from ``source``'s extension or the text if
    None).  Without ``max_bridges`` island numbers go up to 8, or to what the notation's own
    rules allow (a Tatham ID's ``mK``, a JSON ``max_bridges``)."""
    if "\0" in text:
        line, column = _line_column(text, text.index("\0"))
        raise PuzzleError("NUL byte in input: not a text puzzle", source, line, column)
    notation = notation or detect(text, source)
    if notation not in PARSERS:
        raise PuzzleError(f"unknown notation {notation!r}; known: {', '.join(PARSERS)}", source)
    puzzle = PARSERS[notation](text, source, None if max_bridges is None else 4 * max_bridges)
    return with_rules(puzzle, max_bridges, no_loops)


def with_rules(puzzle: Puzzle, max_bridges: int | None = None,
               no_loops: bool | None = None) -> Puzzle:
    """``puzzle`` with the rules that are given (not None) replacing its own."""
    changes = {key: value for key, value in (("max_bridges", max_bridges), ("no_loops", no_loops))
               if value is not None}
    return dataclasses.replace(puzzle, **changes) if changes else puzzle


def write(puzzle: Puzzle, notation: str) -> str:
    """``puzzle`` in ``notation``; raises :class:`PuzzleError` if the notation cannot hold it."""
    if notation not in WRITERS:
        raise PuzzleError(f"unknown notation {notation!r}; known: {', '.join(WRITERS)}")
    return WRITERS[notation](puzzle)


def detect(text: str, name: str = "") -> str:
    """The notation of ``text``: by the file extension of ``name`` first, then by content."""
    extension = os.path.splitext(name)[1].lower()
    if extension in EXTENSIONS:
        return EXTENSIONS[extension]
    if text.lstrip().startswith(("{", "[")):
        return "json"
    if text.lstrip().startswith("pzprv3"):
        return "pzprv3"
    if puzzlink.is_url(text):
        return "puzzlink"
    if tatham.is_game_id(text):
        return "tatham"
    lines = [line for _, line in itertools.islice(_content_lines(text), 2)]
    header = [token for _, token in _tokens(lines[0], 4)] if lines else []
    # A .has header is three integers and announces the width of the row after it; a dot grid's
    # optional header has two integers.  Checking the width keeps headerless integer grids apart.
    if (len(lines) == 2 and len(header) == 3 and all(_INTEGER.match(t) for t in header)
            and len(header[1]) <= 18 and int(header[1]) > 0
            and _count_tokens(lines[1], int(header[1]) + 1) == int(header[1])):
        return "has"
    return "grid"


def read_text(path: Path) -> str:
    """The UTF-8 text of a file, with one-line errors for everything that can go wrong."""
    try:
        if path.is_dir():
            raise PuzzleError("is a directory, not a puzzle file", str(path))
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise PuzzleError(f"file is {size} bytes; the limit is {MAX_FILE_BYTES}", str(path))
        with path.open("rb") as stream:
            return read_stream(stream, str(path))
    except FileNotFoundError:
        raise PuzzleError("no such file", str(path)) from None
    except OSError as error:
        raise PuzzleError(f"cannot read file: {error.strerror or error}", str(path)) from None
    except ValueError:                       # a NUL character in the path
        raise PuzzleError("cannot read file: the path contains a NUL character", str(path)) from None


def read_stream(stream, source: str) -> str:
    """The UTF-8 text of a binary stream (standard input, or a file whose size the file system
    does not tell, such as /dev/zero), refused beyond :data:`MAX_FILE_BYTES` without reading
    more than that."""
    data = stream.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise PuzzleError(f"input is over the limit of {MAX_FILE_BYTES} bytes", source)
    return decode(data, source)


def decode(data: bytes, source: str) -> str:
    """Bytes as UTF-8 text (a BOM is dropped); other encodings get a clear error."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise PuzzleError("file is UTF-16; save it as UTF-8", source)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line, column = _line_column(data[:error.start].decode("utf-8", "replace"), error.start)
        raise PuzzleError(f"not UTF-8 text (byte 0x{data[error.start]:02x})", source, line, column) from None


def _is_puzzle_text(source: str) -> bool:
    return "\n" in source or source.lstrip().startswith(("{", "["))


def is_inline_puzzle(argument: str) -> bool:
    """Whether a one-line argument is a puzzle in itself: a puzz.link URL or a Tatham game ID
    (or a Tatham parameter string, so that its reader can say why that is not a puzzle)."""
    return puzzlink.is_url(argument) or tatham.is_game_id(argument)


# ---------------------------------------------------------------------------- .has (Coelho et al.)

def parse_has(text: str, source: str = "<has>", max_number: int | None = None) -> Puzzle:
    max_number = max_number or 4 * DEFAULT_MAX_BRIDGES
    lines = _content_lines(text)
    header_line, content = next(lines, (None, None))
    if content is None:
        raise PuzzleError("empty input: expected a 'ROWS COLS NISLANDS' header", source)
    header = _tokens(content, 4)
    if len(header) != 3:
        column = header[3][0] if len(header) > 3 else len(header[-1][1]) + header[-1][0]
        found = len(header) if len(header) < 4 else _count_tokens(content)
        raise PuzzleError(f"header must be 'ROWS COLS NISLANDS', found {found} value(s)",
                          source, header_line, column)
    rows, cols, declared = (_integer(token, source, header_line, column, what)
                            for (column, token), what in zip(header, ("ROWS", "COLS", "NISLANDS")))
    # The size is checked before the grid is read; then each row is read up to one value past
    # the width and reading stops at the first surplus row, so memory follows what the header
    # allows whatever the file holds.
    _check_size(rows, cols, source, header_line, header[0][0])
    islands: dict[Cell, int] = {}
    r = 0
    for line, content in lines:
        if r == rows:
            raise PuzzleError(f"line beyond the {rows} rows the header declares", source, line, 1)
        tokens = _tokens(content, cols + 1)
        if len(tokens) != cols:
            column = tokens[cols][0] if len(tokens) > cols else tokens[-1][0] + len(tokens[-1][1])
            raise PuzzleError(f"row {r + 1} has {_count_tokens(content)} values; the header says "
                              f"{cols} columns", source, line, column)
        for c, (column, token) in enumerate(tokens):
            if token == "0":
                continue
            value = _integer(token, source, line, column, "cell value")
            if value:
                islands[r, c] = _island_number(value, max_number, source, line, column)
        r += 1
    if r < rows:
        raise PuzzleError(f"header says {rows} rows but the grid has {r}",
                          source, header_line, header[0][0])
    if len(islands) != declared:
        raise PuzzleError(f"header says {declared} islands but the grid has {len(islands)}",
                          source, header_line, header[2][0])
    return _puzzle(rows, cols, islands, source)


def format_has(puzzle: Puzzle) -> str:
    unnumbered = [cell for cell, n in puzzle.islands.items() if n is None]
    if unnumbered:
        raise PuzzleError(f"the .has notation cannot hold an island without a number (at "
                          f"{unnumbered[0]}); use json, grid or puzzlink", puzzle.source)
    _require_standard_rules(puzzle, "the .has notation")
    lines = [f"{puzzle.rows} {puzzle.cols} {len(puzzle.islands)}"]
    for r in range(puzzle.rows):
        lines.append(" ".join(f"{puzzle.islands.get((r, c), 0):2d}" for c in range(puzzle.cols)))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- dot grid

def parse_grid(text: str, source: str = "<grid>", max_number: int | None = None) -> Puzzle:
    max_number = max_number or 4 * DEFAULT_MAX_BRIDGES
    lines = _content_lines(text)
    first = next(lines, None)
    if first is None:
        raise PuzzleError("empty input: expected rows of '.' and island numbers", source)
    second = next(lines, None)
    header = None
    first_line, content = first
    first_tokens = _tokens(content, 3)
    # Two integers alone on the first line, with rows below, are a ROWS COLS header.
    if second is not None and len(first_tokens) == 2 \
            and all(_INTEGER.match(t) for _, t in first_tokens):
        header = first_tokens
        declared = [_integer(token, source, first_line, column, what)
                    for (column, token), what in zip(header, ("ROWS", "COLS"))]
        _check_size(*declared, source, first_line, header[0][0])
        body = itertools.chain([second], lines)
    else:
        body = itertools.chain([first], [second] if second else [], lines)
    grid: list[list[int | None]] = []
    start = None                        # the line of the first row
    for line, content in body:
        start = start or line
        width = len(grid[0]) if grid else None
        # No more cells are read than the limit allows, however long the line.
        cells = _grid_cells(content, MAX_CELLS // (len(grid) + 1) if width is None else width)
        if width is not None and len(cells) != width:
            # Point at the first surplus cell, or just past the end of a short row.
            column = cells[width][0] if len(cells) > width else len(content) + 1
            raise PuzzleError(f"row {len(grid) + 1} has {_count_cells(content)} cells but row 1 "
                              f"has {width}", source, line, column)
        if (len(grid) + 1) * len(cells) > MAX_CELLS:
            raise PuzzleError(f"grid of {len(grid) + 1} rows of {_count_cells(content)} cells "
                              f"exceeds the limit of {MAX_CELLS} cells", source, line, 1)
        grid.append([_grid_value(token, source, line, column, max_number) for column, token in cells])
    rows, cols = len(grid), len(grid[0])
    if header is not None:
        (row_column, _), (col_column, _) = header
        declared_rows, declared_cols = declared
        if declared_rows != rows:
            raise PuzzleError(f"header says {declared_rows} rows but the grid has {rows}",
                              source, first_line, row_column)
        if declared_cols != cols:
            raise PuzzleError(f"header says {declared_cols} columns but the rows have {cols}",
                              source, first_line, col_column)
    _check_size(rows, cols, source, start, 1)
    islands = {(r, c): value for r, row in enumerate(grid) for c, value in enumerate(row)
               if value != 0}
    return _puzzle(rows, cols, islands, source)


def _grid_cells(content: str, limit: int) -> list[tuple[int, str]]:
    """(column, token) per cell, at most ``limit + 1`` of them: whitespace-separated tokens,
    or one character per cell."""
    if _spaced(content):
        return _tokens(content, limit + 1)
    start = len(content) - len(content.lstrip())
    return [(start + i + 1, ch) for i, ch in enumerate(content.strip()[:limit + 1])]


def _count_cells(content: str) -> int:
    return _count_tokens(content) if _spaced(content) else len(content.strip())


def _spaced(content: str) -> bool:
    """Whether a grid row separates its cells by spaces (it has two tokens or more)."""
    return next(itertools.islice(_TOKEN.finditer(content), 1, None), None) is not None


def _grid_value(token: str, source: str, line: int, column: int, max_number: int) -> int | None:
    if token in (".", "0"):
        return 0
    if token == "?":
        return None                     # an island without a number
    if token.isascii() and token.isdigit():
        return _island_number(_integer(token, source, line, column, "island"), max_number,
                              source, line, column)
    shown = token if len(token) == 1 else f"{token[:20]}..." if len(token) > 20 else token
    raise PuzzleError(f"unexpected {'character' if len(token) == 1 else 'token'} {shown!r}: "
                      f"expected '.' for water or an island number 1..{max_number}",
                      source, line, column)


def format_grid(puzzle: Puzzle) -> str:
    _require_standard_rules(puzzle, "the dot grid")
    lines = [f"{puzzle.rows} {puzzle.cols}"]
    for r in range(puzzle.rows):
        lines.append(" ".join("." if (r, c) not in puzzle.islands else
                              "?" if puzzle.islands[r, c] is None else str(puzzle.islands[r, c])
                              for c in range(puzzle.cols)))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- JSON

def parse_json(text: str, source: str = "<json>", max_number: int | None = None) -> Puzzle:
    data, fail = _load_json(text, source)

    if isinstance(data, list):
        return _coordinate_list(data, source, max_number or 4 * DEFAULT_MAX_BRIDGES, fail)
    if not isinstance(data, dict):
        raise fail("expected a JSON object with 'islands', or a list of [[x, y], n]")
    prefix: tuple = ()
    if "islands" not in data and isinstance(data.get("puzzle"), dict):
        data, prefix = data["puzzle"], ("puzzle",)    # the output of `solve --format json`
    if "islands" not in data:
        raise fail("JSON object has no 'islands' list", *prefix)
    entries = data["islands"]
    if not isinstance(entries, list):
        raise fail("'islands' must be a list of [row, col, number]", *prefix, "islands")
    rules = {}
    if "max_bridges" in data:
        if not _is_int(data["max_bridges"]) or not 1 <= data["max_bridges"] <= MAX_BRIDGES_LIMIT:
            raise fail(f"'max_bridges' must be an integer from 1 to {MAX_BRIDGES_LIMIT}", *prefix,
                       "max_bridges")
        rules["max_bridges"] = data["max_bridges"]
    if "no_loops" in data:
        if not isinstance(data["no_loops"], bool):
            raise fail("'no_loops' must be true or false", *prefix, "no_loops")
        rules["no_loops"] = data["no_loops"]
    max_number = max_number or 4 * rules.get("max_bridges", DEFAULT_MAX_BRIDGES)
    size = {}
    for key in ("rows", "cols"):
        if key in data:
            value = data[key]
            if not _is_int(value) or value < 1:
                raise fail(f"'{key}' must be a positive integer", *prefix, key)
            size[key] = value
    islands: dict[Cell, int | None] = {}
    where: dict[Cell, int] = {}
    for i, entry in enumerate(entries):
        path = (*prefix, "islands", i)
        if not (isinstance(entry, list) and len(entry) == 3 and all(map(_is_int, entry[:2]))
                and (entry[2] is None or _is_int(entry[2]))):
            raise fail(f"islands[{i}]: expected [row, col, number] of integers "
                       "(number null for an island without one)", *path)
        r, c, n = entry
        for value, key in ((r, "rows"), (c, "cols")):
            if value < 0 or (key in size and value >= size[key]):
                limit = f"0..{size[key] - 1}" if key in size else "0 or more"
                raise fail(f"islands[{i}]: {key[:-1]} {value} outside the grid ({limit})", *path)
        if (r, c) in islands:
            raise fail(f"islands[{i}]: second island on cell ({r}, {c}), first at islands[{where[r, c]}]",
                       *path)
        if n is not None and not 1 <= n <= max_number:
            raise fail(f"islands[{i}]: island number {n} out of range 1..{max_number}", *path)
        islands[r, c], where[r, c] = n, i
    if not islands:
        raise fail("puzzle has no islands", *prefix, "islands")
    rows = size.get("rows", 1 + max(r for r, _ in islands))
    cols = size.get("cols", 1 + max(c for _, c in islands))
    _check_size(rows, cols, source, *_json_position(text, prefix))
    return with_rules(_puzzle(rows, cols, islands, source), **rules)


def _coordinate_list(data: list, source: str, max_number: int,
                     fail: Callable[..., PuzzleError]) -> Puzzle:
    """``[[[x, y], n], ...]``: only the order of coordinates matters to Hashi, so each distinct x
    becomes a column (left to right) and each distinct y a row (top = largest y)."""
    points: dict[tuple[float, float], int | None] = {}
    for i, entry in enumerate(data):
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], list)
                and len(entry[0]) == 2 and all(map(_is_number, entry[0]))
                and (entry[1] is None or _is_int(entry[1]))):
            raise fail(f"entry {i}: expected [[x, y], number] with finite x and y", i)
        (x, y), n = entry
        if (x, y) in points:
            raise fail(f"entry {i}: second island at ({x}, {y})", i)
        if n is not None and not 1 <= n <= max_number:
            raise fail(f"entry {i}: island number {n} out of range 1..{max_number}", i)
        points[x, y] = n
    if not points:
        raise fail("puzzle has no islands")
    column_of = {x: c for c, x in enumerate(sorted({x for x, _ in points}))}
    row_of = {y: r for r, y in enumerate(sorted({y for _, y in points}, reverse=True))}
    _check_size(len(row_of), len(column_of), source, 1, 1)
    islands = {(row_of[y], column_of[x]): n for (x, y), n in points.items()}
    return _puzzle(len(row_of), len(column_of), islands, source)


def format_json(puzzle: Puzzle) -> str:
    document = puzzle.to_json()
    islands = ",\n    ".join(json.dumps(island) for island in document.pop("islands"))
    rules = "".join(f'  "{key}": {json.dumps(value)},\n' for key, value in document.items()
                    if key not in ("rows", "cols"))
    return (f'{{\n  "rows": {puzzle.rows},\n  "cols": {puzzle.cols},\n{rules}'
            f'  "islands": [\n    {islands}\n  ]\n}}\n')


def read_solutions(source: str | os.PathLike) -> list[Solution]:
    """Solutions from a JSON file (or JSON text): ``{"bridges": [...]}``, the output of
    ``solve --format json`` (every entry of ``"solutions"``), or a bare list of bridges."""
    if isinstance(source, str) and _is_puzzle_text(source):
        return parse_solutions(source, "<text>")
    return parse_solutions(read_text(Path(source)), str(source))


def parse_solutions(text: str, source: str = "<solution>") -> list[Solution]:
    if text.lstrip().startswith("pzprv3"):        # a pzprjs editor's file: its lines are a solution
        return [puzzlink.parse_pzprv3_solution(text, source)]
    data, fail = _load_json(text, source)

    def bridges(entries, *path) -> Solution:
        if not isinstance(entries, list):
            raise fail("'bridges' must be a list of [r1, c1, r2, c2, count]", *path)
        result = []
        for i, entry in enumerate(entries):
            if not (isinstance(entry, list) and len(entry) == 5 and all(map(_is_int, entry))):
                raise fail(f"bridge {i}: expected [r1, c1, r2, c2, count] of integers", *path, i)
            r1, c1, r2, c2, count = entry
            result.append(bridge((r1, c1), (r2, c2), count))
        return Solution.of(result)

    if isinstance(data, list):
        return [bridges(data)]
    if isinstance(data, dict) and "bridges" in data:
        return [bridges(data["bridges"], "bridges")]
    if isinstance(data, dict) and isinstance(data.get("solutions"), list):
        solutions = []
        for i, entry in enumerate(data["solutions"]):
            if not (isinstance(entry, dict) and "bridges" in entry):
                raise fail(f"solutions[{i}]: expected an object with 'bridges'", "solutions", i)
            solutions.append(bridges(entry["bridges"], "solutions", i, "bridges"))
        return solutions
    raise fail("expected {\"bridges\": [...]}, {\"solutions\": [...]} or a list of bridges")


def _load_json(text: str, source: str) -> tuple[object, Callable[..., PuzzleError]]:
    """The parsed document, and a function making an error located at a path inside it."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise PuzzleError(f"invalid JSON: {error.msg}", source, error.lineno, error.colno) from None
    except (ValueError, RecursionError) as error:     # too many digits, nested too deep
        raise PuzzleError(f"invalid JSON: {str(error).splitlines()[0] or type(error).__name__}",
                          source) from None

    def fail(message: str, *path) -> PuzzleError:
        line, column = _json_position(text, path)
        return PuzzleError(message, source, line, column)

    return data, fail


def _json_position(text: str, path: tuple) -> tuple[int, int]:
    """Line and column of the value at ``path`` (keys and indices) in valid JSON ``text``;
    computed only when reporting an error, so the happy path uses the fast C parser."""
    decoder = json.JSONDecoder()

    def skip(i: int) -> int:
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        return i

    i = skip(0)
    for step in path:
        if text[i] == "[":
            i = skip(i + 1)
            for _ in range(step):
                i = skip(decoder.raw_decode(text, i)[1])
                i = skip(i + 1)                         # the comma
        else:
            # json.loads keeps the last of repeated keys: so does the position.
            i, found = skip(i + 1), None
            while text[i] != "}":
                key, i = decoder.raw_decode(text, i)
                i = skip(skip(i) + 1)                   # the colon
                if key == step:
                    found = i
                i = skip(decoder.raw_decode(text, i)[1])
                if text[i] == ",":
                    i = skip(i + 1)
            i = found
    return _line_column(text, i)


# ---------------------------------------------------------------------------- shared helpers

def _content_lines(text: str) -> Iterator[tuple[int, str]]:
    """Non-blank lines as (1-based line number, line without trailing space), one at a time."""
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            yield number, line.rstrip()


def _tokens(line: str, limit: int) -> list[tuple[int, str]]:
    """The first ``limit`` whitespace-separated tokens of a line as (1-based column, token): a
    caller reads one past what it expects, so a line of a million tokens costs no memory."""
    return [(m.start() + 1, m.group()) for m in itertools.islice(_TOKEN.finditer(line), limit)]


def _count_tokens(line: str, limit: int | None = None) -> int:
    """How many tokens the line has (counting stops at ``limit``)."""
    return sum(1 for _ in itertools.islice(_TOKEN.finditer(line), limit))


def _integer(token: str, source: str, line: int, column: int, what: str) -> int:
    if not _INTEGER.match(token):
        raise PuzzleError(f"{what}: expected an integer, found {token[:20]!r}", source, line, column)
    if len(token.lstrip("+-")) > 18:
        raise PuzzleError(f"{what}: number {token[:20]}... is too large", source, line, column)
    return int(token)


def _island_number(value: int, max_number: int, source: str, line: int, column: int) -> int:
    if not 1 <= value <= max_number:
        raise PuzzleError(f"island number {value} out of range 1..{max_number}", source, line, column)
    return value


def _check_size(rows: int, cols: int, source: str, line: int | None, column: int | None) -> None:
    if rows < 1 or cols < 1:
        raise PuzzleError(f"grid size {rows}x{cols}: rows and columns must be positive",
                          source, line, column)
    if rows * cols > MAX_CELLS:
        raise PuzzleError(f"grid size {rows}x{cols} exceeds the limit of {MAX_CELLS} cells",
                          source, line, column)


def _require_standard_rules(puzzle: Puzzle, notation: str) -> None:
    if not puzzle.standard_rules:
        raise PuzzleError(f"{notation} cannot record this puzzle's rules ({puzzle.rules_text()}); "
                          "use json or tatham, which can", puzzle.source)


def _puzzle(rows: int, cols: int, islands: dict[Cell, int | None], source: str) -> Puzzle:
    if not islands:
        raise PuzzleError("puzzle has no islands", source)
    return Puzzle(rows, cols, islands, source)


def one_line(text: str) -> tuple[str, int, int]:
    """A one-line notation (URL, game ID) without surrounding whitespace, with the line it is
    on and how many characters precede it there, so errors can name a column."""
    lead = text[:len(text) - len(text.lstrip())]
    return text.strip(), lead.count("\n") + 1, len(lead) - (lead.rfind("\n") + 1)


def _line_column(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value) -> bool:
    # (An int is finite however long: math.isfinite would overflow converting it to float.)
    return _is_int(value) or (isinstance(value, float) and math.isfinite(value))


# The notations in their own modules use the helpers above, so they are imported here, last.
from . import puzzlink, tatham  # noqa: E402

PARSERS: dict[str, Callable[[str, str, int | None], Puzzle]] = {
    "has": parse_has,
    "grid": parse_grid,
    "json": parse_json,
    "puzzlink": puzzlink.parse_url,
    "pzprv3": puzzlink.parse_pzprv3,
    "tatham": tatham.parse_game_id,
}
WRITERS: dict[str, Callable[[Puzzle], str]] = {
    "has": format_has,
    "grid": format_grid,
    "json": format_json,
    "puzzlink": puzzlink.format_url,
    "pzprv3": puzzlink.format_pzprv3,
    "tatham": tatham.format_game_id,
}
EXTENSIONS = {".has": "has", ".json": "json"}
