"""JSON, for puzzles and for solutions.

A puzzle is an object with the grid size and ``[row, col, number]`` triples (0-based, row 0 at
the top; ``rows`` and ``cols`` may be left out and are then inferred; ``null`` for an island
without a number), and the optional rules ``"max_bridges": K`` and ``"no_loops": true``::

    {"rows": 5, "cols": 5, "islands": [[0, 0, 2], [0, 2, 1], [2, 0, 4]]}

or a coordinate list ``[[[x, y], number], ...]`` with arbitrary coordinates, x to the right and
y up: only their order matters to Hashi, so each distinct x becomes a column and each distinct
y a row.  The output of ``solve --format json`` is read as its ``puzzle``.

A solution is ``{"bridges": [[r1, c1, r2, c2, k], ...]}``, a bare list of bridges, or the output
of ``solve --format json`` (each of its solutions).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..puzzle import MAX_BRIDGES_LIMIT, Cell, Puzzle, Rules, Solution, bridge
from .lexing import Problem, check_size, first_problem, is_int, is_number, line_column, trusted

NAME = "json"
# Python's json is imported in the functions that use it: every puzzle given as text is first
# offered to detect() here, and reading a Tatham ID or a dot grid should not load it.

Fail = Callable[..., Problem]


def detect(text: str) -> bool:
    return text.lstrip().startswith(("{", "["))


def validate(text: str, max_number: int | None = None) -> Problem | None:
    """The first problem in ``text``, or None if it is a valid JSON puzzle."""
    return first_problem(lambda: _read(text, max_number))


def parse(text: str, source: str = "<json>", max_number: int | None = None) -> Puzzle:
    rows, cols, islands, rules = trusted(lambda: _read(text, max_number), source)
    return Puzzle(rows, cols, islands, source, rules)


def _read(text: str, max_number: int | None) -> tuple[int, int, dict[Cell, int | None], Rules]:
    data, fail = load_located(text)
    if isinstance(data, list):
        return (*_coordinate_list(data, max_number or Rules().max_number, fail), Rules())
    if not isinstance(data, dict):
        raise fail("expected a JSON object with 'islands', or a list of [[x, y], n]")
    prefix: tuple = ()
    if "islands" not in data and isinstance(data.get("puzzle"), dict):
        data, prefix = data["puzzle"], ("puzzle",)  # the output of `solve --format json`
    if "islands" not in data:
        raise fail("JSON object has no 'islands' list", *prefix)
    entries = data["islands"]
    if not isinstance(entries, list):
        raise fail("'islands' must be a list of [row, col, number]", *prefix, "islands")
    rules = Rules()
    if "max_bridges" in data:
        if not is_int(data["max_bridges"]) or not 1 <= data["max_bridges"] <= MAX_BRIDGES_LIMIT:
            raise fail(
                f"'max_bridges' must be an integer from 1 to {MAX_BRIDGES_LIMIT}",
                *prefix,
                "max_bridges",
            )
        rules = rules.overridden(max_bridges=data["max_bridges"])
    if "no_loops" in data:
        if not isinstance(data["no_loops"], bool):
            raise fail("'no_loops' must be true or false", *prefix, "no_loops")
        rules = rules.overridden(no_loops=data["no_loops"])
    max_number = max_number or rules.max_number
    size = {}
    for key in ("rows", "cols"):
        if key in data:
            value = data[key]
            if not is_int(value) or value < 1:
                raise fail(f"'{key}' must be a positive integer", *prefix, key)
            size[key] = value
    islands: dict[Cell, int | None] = {}
    where: dict[Cell, int] = {}
    for i, entry in enumerate(entries):
        path = (*prefix, "islands", i)
        if not (
            isinstance(entry, list)
            and len(entry) == 3
            and all(map(is_int, entry[:2]))
            and (entry[2] is None or is_int(entry[2]))
        ):
            raise fail(
                f"islands[{i}]: expected [row, col, number] of integers "
                "(number null for an island without one)",
                *path,
            )
        r, c, n = entry
        for value, key, what in ((r, "rows", "row"), (c, "cols", "col")):
            if value < 0 or (key in size and value >= size[key]):
                limit = f"0..{size[key] - 1}" if key in size else "0 or more"
                raise fail(f"islands[{i}]: {what} {value} outside the grid ({limit})", *path)
        if (r, c) in islands:
            raise fail(
                f"islands[{i}]: second island on cell ({r}, {c}), first at islands[{where[r, c]}]",
                *path,
            )
        if n is not None and not 1 <= n <= max_number:
            raise fail(f"islands[{i}]: island number {n} out of range 1..{max_number}", *path)
        islands[r, c], where[r, c] = n, i
    if not islands:
        raise fail("puzzle has no islands", *prefix, "islands")
    rows = size.get("rows", 1 + max(r for r, _ in islands))
    cols = size.get("cols", 1 + max(c for _, c in islands))
    check_size(rows, cols, *_position(text, prefix))
    return rows, cols, islands, rules


def _coordinate_list(
    data: list, max_number: int, fail: Fail
) -> tuple[int, int, dict[Cell, int | None]]:
    """``[[[x, y], n], ...]``: only the order of coordinates matters to Hashi, so each distinct x
    becomes a column (left to right) and each distinct y a row (top = largest y)."""
    points: dict[tuple[float, float], int | None] = {}
    for i, entry in enumerate(data):
        if not (
            isinstance(entry, list)
            and len(entry) == 2
            and isinstance(entry[0], list)
            and len(entry[0]) == 2
            and all(map(is_number, entry[0]))
            and (entry[1] is None or is_int(entry[1]))
        ):
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
    check_size(len(row_of), len(column_of), 1, 1)
    islands = {(row_of[y], column_of[x]): n for (x, y), n in points.items()}
    return len(row_of), len(column_of), islands


def write(puzzle: Puzzle) -> str:
    import json

    document = puzzle.to_json()
    islands = ",\n    ".join(json.dumps(island) for island in document.pop("islands"))
    read = document.pop("read", None)
    rules = "".join(
        f'  "{key}": {json.dumps(value)},\n'
        for key, value in document.items()
        if key not in ("rows", "cols")
    )
    text = (
        f'{{\n  "rows": {puzzle.rows},\n  "cols": {puzzle.cols},\n{rules}'
        f'  "islands": [\n    {islands}\n  ]'
    )
    if read is not None:  # a picture's: how sure its reader was of each island, one a line
        parts = [
            f'    "{key}": [' + ",".join(f"\n      {json.dumps(entry)}" for entry in entries)
            + ("\n    ]" if entries else "]")
            for key, entries in read.items()
        ]  # fmt: skip
        text += ',\n  "read": {\n' + ",\n".join(parts) + "\n  }"
    return text + "\n}\n"


def dumps(document: dict | list) -> str:
    """A JSON document as hashi-asp writes it: indented by two spaces, with each list of
    integers (a bridge, an island) kept on one line, as ``json.dumps(indent=2)`` would lay it
    out but for those lists.  Written here, not by ``json.dumps`` and a pass joining the lists
    again: that runs Python's own encoder (the fast one takes no indent), 13 times slower on
    the 8 MB of a thousand solutions of 1 000 islands."""
    out: list[str] = []
    _write(document, "", out)
    return "".join(out)


class Laid(dict):
    """A JSON object laid out once, when it is made, as :func:`dumps` lays it out: ``dumps``
    then writes that text, indented where it stands, instead of laying it out again.  Made for
    values found one at a time whose document is written at the end (the solutions of ``solve
    -n 0``): the cost is paid as each is found, within the time limit.  The text is the
    object's as made: change neither afterwards."""

    def __init__(self, value: dict) -> None:
        super().__init__(value)
        self.text = dumps(value)


def _write(value: object, indent: str, out: list[str]) -> None:
    import json

    if type(value) is Laid:
        out.append(value.text.replace("\n", "\n" + indent) if indent else value.text)
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        inner = indent + "  "
        out.append("{")
        for number, (key, item) in enumerate(value.items()):
            out.append(("\n" if number == 0 else ",\n") + inner)
            out.append(_string(key if isinstance(key, str) else json.dumps(key)) + ": ")
            _write(item, inner, out)
        out.append("\n" + indent + "}")
    elif isinstance(value, (list, tuple)):
        if _integers(value):
            out.append("[" + ", ".join(map(str, value)) + "]")
        elif not value:
            out.append("[]")
        else:
            inner = indent + "  "
            out.append("[")
            for number, item in enumerate(value):
                out.append(("\n" if number == 0 else ",\n") + inner)
                if type(item) in _LISTS and _integers(item):  # a bridge: the many, made here
                    out.append("[" + ", ".join(map(str, item)) + "]")
                else:
                    _write(item, inner, out)
            out.append("\n" + indent + "]")
    elif isinstance(value, str):
        out.append(_string(value))
    else:  # numbers, true, false, null: as json writes them
        out.append(json.dumps(value))


_LISTS = (list, tuple)


def _integers(values: list | tuple) -> bool:
    """A list of integers only (not of booleans, which Python counts as integers), not empty."""
    return bool(values) and set(map(type, values)) == {int}


def _string(text: str) -> str:
    from json.encoder import encode_basestring_ascii

    return encode_basestring_ascii(text)


# ---------------------------------------------------------------------------- solutions


def parse_solutions(text: str, source: str = "<solution>") -> list[Solution]:
    """The solutions in a JSON document (see the module docstring)."""
    return trusted(lambda: _read_solutions(text), source)


def _read_solutions(text: str) -> list[Solution]:
    data, fail = load_located(text)

    def bridges(entries: object, *path: str | int) -> Solution:
        if not isinstance(entries, list):
            raise fail("'bridges' must be a list of [r1, c1, r2, c2, count]", *path)
        found = []
        for i, entry in enumerate(entries):
            if not (isinstance(entry, list) and len(entry) == 5 and all(map(is_int, entry))):
                raise fail(f"bridge {i}: expected [r1, c1, r2, c2, count] of integers", *path, i)
            r1, c1, r2, c2, count = entry
            found.append(bridge((r1, c1), (r2, c2), count))
        return Solution.of(found)

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
    raise fail('expected {"bridges": [...]}, {"solutions": [...]} or a list of bridges')


# ---------------------------------------------------------------------------- positions


def load_located(text: str) -> tuple[object, Fail]:
    """The parsed document, and a function making a problem located at a path inside it."""
    import json

    try:
        data = loads(text)
    except Problem as duplicate:
        raise Problem(f"invalid JSON: {duplicate}", duplicate.line, duplicate.column) from None
    except json.JSONDecodeError as error:
        raise Problem(f"invalid JSON: {error.msg}", error.lineno, error.colno) from None
    except (ValueError, RecursionError) as error:  # too many digits, nested too deep
        raise Problem(
            f"invalid JSON: {str(error).splitlines()[0] or type(error).__name__}"
        ) from None

    def fail(message: str, *path: str | int) -> Problem:
        return Problem(message, *_position(text, path))

    return data, fail


def loads(text: str) -> object:
    """``text`` parsed as JSON, as :func:`json.loads` does, but an object that has a key twice
    is refused: :class:`Problem` saying which, located at the second (json.loads would keep the
    last value and silently drop the first).  JSON's own errors are json's."""
    import json

    try:
        return json.loads(text, object_pairs_hook=_unique_keys)
    except _DuplicateKey:
        raise _duplicate_key(text) from None


class _DuplicateKey(Exception):
    """An object of the document has a key twice (located afterwards by :func:`_duplicate_key`)."""


def _unique_keys(pairs: list[tuple[str, object]]) -> dict:
    """An object of the document, refused if it has a key twice: json.loads would keep the
    last value and silently drop the first, a puzzle (or a request) other than the one
    written."""
    found = dict(pairs)
    if len(found) != len(pairs):
        raise _DuplicateKey
    return found


_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\],:]|[^\s{}\[\],:"]+')


def _duplicate_key(text: str) -> Problem:
    """The first key, in reading order, that repeats a key of its object, located (in valid
    JSON ``text`` that has one): a scan of the tokens, run only when the parser found one."""
    import json

    objects: list[dict[str, int] | None] = []  # per open bracket: an object's keys, or None
    key_next = False  # after '{' or an object's ',' comes a key
    for token in _TOKEN.finditer(text):
        value = token.group()
        if value in ("{", "["):
            objects.append({} if value == "{" else None)
            key_next = value == "{"
        elif value in ("}", "]"):
            objects.pop()
            key_next = False
        elif value == ",":
            key_next = objects[-1] is not None
        elif key_next:
            key, keys = json.loads(value), objects[-1]
            assert keys is not None
            if key in keys:
                line, column = line_column(text, keys[key])
                shown = value if len(value) <= 40 else value[:36] + '..."'
                return Problem(
                    f"duplicate key {shown} (first at line {line}, column {column})",
                    *line_column(text, token.start()),
                )
            keys[key] = token.start()
            key_next = False
    raise AssertionError("the parser found a duplicate key that the scan does not")


def _position(text: str, path: tuple) -> tuple[int, int]:
    """Line and column of the value at ``path`` (keys and indices) in valid JSON ``text``;
    computed only when reporting a problem, so the happy path uses the fast C parser."""
    import json

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
                i = skip(i + 1)  # the comma
        else:
            # (Each key once: load_located refuses a document that repeats one.)
            i, found = skip(i + 1), None
            while text[i] != "}":
                key, i = decoder.raw_decode(text, i)
                i = skip(skip(i) + 1)  # the colon
                if key == step:
                    found = i
                i = skip(decoder.raw_decode(text, i)[1])
                if text[i] == ",":
                    i = skip(i + 1)
            assert found is not None  # the path was read from this text
            i = found
    return line_column(text, i)
