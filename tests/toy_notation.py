"""A notation of the tests' own, in one module, as a program of one's own adds a notation to
hashi-asp at run time (tests/test_added_notation.py): ``toy``, a puzzle on one line,
``toy:RxC:r,c,n;r,c,n;...`` (rows and columns counted from 0), in files ending ``.toy``.

Run as a program, it is hashi-asp with the notation registered:
``python tests/toy_notation.py solve PUZZLE.toy``, ``python tests/toy_notation.py serve``.
"""

from __future__ import annotations

from hashi_asp.errors import PuzzleError
from hashi_asp.notations import Notation
from hashi_asp.notations.lexing import (
    Problem,
    check_size,
    first_problem,
    island_number,
    standard_rules_only,
    trusted,
)
from hashi_asp.puzzle import Cell, Puzzle, Rules

PREFIX = "toy:"


def detect(text: str) -> bool:
    return text.lstrip().startswith(PREFIX)


def validate(text: str, max_number: int | None = None) -> Problem | None:
    return first_problem(lambda: _read(text, max_number))


def parse(text: str, source: str = "<toy>", max_number: int | None = None) -> Puzzle:
    rows, cols, islands = trusted(lambda: _read(text, max_number), source)
    return Puzzle(rows, cols, islands, source)


def _read(text: str, max_number: int | None) -> tuple[int, int, dict[Cell, int | None]]:
    body = text.strip()
    if not body.startswith(PREFIX) or "\n" in body:
        raise Problem("expected one line, 'toy:RxC:r,c,n;...'", 1, 1)
    size, _, cells = body.removeprefix(PREFIX).partition(":")
    try:
        rows, cols = (int(value) for value in size.split("x"))
        islands: dict[Cell, int | None] = {}
        for cell in filter(None, cells.split(";")):
            r, c, n = (int(value) for value in cell.split(","))
            if not (0 <= r < rows and 0 <= c < cols):
                raise Problem(f"island {r},{c} is off the {rows}x{cols} grid", 1, None)
            islands[r, c] = island_number(n, max_number or Rules().max_number, 1, None)
    except ValueError:
        raise Problem("expected 'toy:RxC:r,c,n;...', in integers", 1, None) from None
    check_size(rows, cols, 1, len(PREFIX) + 1)
    if not islands:
        raise Problem("a toy puzzle needs at least one island", 1, None)
    return rows, cols, islands


def write(puzzle: Puzzle) -> str:
    standard_rules_only(puzzle, "the toy notation")
    if None in puzzle.islands.values():
        raise PuzzleError("the toy notation cannot hold an island without a number")
    cells = ";".join(f"{r},{c},{n}" for (r, c), n in sorted(puzzle.islands.items()))
    return f"{PREFIX}{puzzle.rows}x{puzzle.cols}:{cells}\n"


NOTATION = Notation(
    "toy", detect, validate, parse, write, rules=False, extensions=(".toy",), inline=True
)


if __name__ == "__main__":
    from hashi_asp import notations
    from hashi_asp.__main__ import main

    notations.register(NOTATION)
    main()
