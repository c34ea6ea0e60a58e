"""What every reader shares: lines and tokens with their positions, integers and island numbers
checked with a message, grid sizes checked before anything is allocated; and the refusal the
writers of notations without rules share.

The checks raise :class:`Problem`, a position without a source: each notation has one function
that finds the first problem in its text, and its reader names the source once (the pattern of
Simon Tatham's bridges.c, where ``validate_desc`` finds the problem and the reader trusts what it
passed).
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Iterator
from typing import TypeVar

from ..errors import PuzzleError
from ..puzzle import MAX_CELLS, Puzzle

INTEGER = re.compile(r"[+-]?\d+\Z")
TOKEN = re.compile(r"\S+")
DIGITS = re.compile(r"[0-9]+\Z")  # ASCII only: str.isdigit() also takes '²'
T = TypeVar("T")


class Problem(Exception):
    """The first problem in a text, with its 1-based line and column where known: what a
    notation's ``validate`` returns, and what its reading functions raise to each other."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None):
        super().__init__(message)
        self.message, self.line, self.column = message, line, column

    def __repr__(self) -> str:
        return f"Problem({self.message!r}, line={self.line}, column={self.column})"

    def error(self, source: str) -> PuzzleError:
        """The problem as the error users see, naming the source."""
        return PuzzleError(self.message, source, self.line, self.column)


def first_problem(read: Callable[[], object], inline: str | None = None) -> Problem | None:
    """The first problem ``read()`` finds in its text, or None if it finds none; for a one-line
    notation, ``inline`` is the text, whose line the problem is then on."""
    try:
        read()
    except Problem as problem:
        # Without its traceback: that would keep the reader's frames (and its copies of a
        # text of up to 64 MiB) alive as long as the problem.
        found = problem if inline is None else on_its_line(problem, inline)
        return found.with_traceback(None)
    return None


def trusted(read: Callable[[], T], source: str, inline: str | None = None) -> T:
    """What ``read()`` makes of its text, once it has found no problem; the first problem it
    finds as the error users see, naming ``source``."""
    try:
        return read()
    except Problem as problem:
        error = (problem if inline is None else on_its_line(problem, inline)).error(source)
    # Raised outside the handler, the error holds no context: not the problem, nor through
    # its traceback the reader's frames.
    raise error


def on_its_line(problem: Problem, text: str) -> Problem:
    """A problem in a one-line notation (URL, game ID), found by its column: the line is the
    one the notation sits on."""
    if problem.column is not None and problem.line is None:
        problem.line = one_line(text)[1]
    return problem


def content_lines(text: str) -> Iterator[tuple[int, str]]:
    """Non-blank lines as (1-based line number, line without trailing space), one at a time."""
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            yield number, line.rstrip()


def tokens(line: str, limit: int) -> list[tuple[int, str]]:
    """The first ``limit`` whitespace-separated tokens of a line as (1-based column, token): a
    caller reads one past what it expects, so a line of a million tokens costs no memory."""
    return [(m.start() + 1, m.group()) for m in itertools.islice(TOKEN.finditer(line), limit)]


def count_tokens(line: str, limit: int | None = None) -> int:
    """How many tokens the line has (counting stops at ``limit``)."""
    return sum(1 for _ in itertools.islice(TOKEN.finditer(line), limit))


def integer(token: str, line: int | None, column: int | None, what: str) -> int:
    if not INTEGER.match(token):
        raise Problem(f"{what}: expected an integer, found {token[:20]!r}", line, column)
    if len(token.lstrip("+-")) > 18:
        raise Problem(f"{what}: number {token[:20]}... is too large", line, column)
    return int(token)


def positive(text: str) -> int | None:
    """A size written in ASCII digits, or None if it is not a positive integer (see
    :func:`size`)."""
    if not DIGITS.match(text):
        return None
    value = size(text)
    return value if value >= 1 else None


def size(digits: str) -> int:
    """The value of a size's ASCII digits; one too large for any grid comes back as
    MAX_CELLS + 1 without converting thousands of digits."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= 18 else MAX_CELLS + 1


def island_number(value: int, max_number: int, line: int | None, column: int | None) -> int:
    if not 1 <= value <= max_number:
        raise Problem(f"island number {value} out of range 1..{max_number}", line, column)
    return value


def check_size(rows: int, cols: int, line: int | None, column: int | None) -> None:
    if rows < 1 or cols < 1:
        raise Problem(f"grid size {rows}x{cols}: rows and columns must be positive", line, column)
    if rows * cols > MAX_CELLS:
        raise Problem(
            f"grid size {rows}x{cols} exceeds the limit of {MAX_CELLS} cells", line, column
        )


def one_line(text: str) -> tuple[str, int, int]:
    """A one-line notation (URL, game ID) without surrounding whitespace, with the line it is on
    and how many characters precede it there, so errors can name a column."""
    lead = text[: len(text) - len(text.lstrip())]
    return text.strip(), lead.count("\n") + 1, len(lead) - (lead.rfind("\n") + 1)


def line_column(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: object) -> bool:
    # (An int is finite however long: math.isfinite would overflow converting it to float.)
    return is_int(value) or (isinstance(value, float) and math.isfinite(value))


def standard_rules_only(puzzle: Puzzle, notation: str) -> None:
    """Refuse, in the writer of a notation that records the standard rules only, a puzzle posed
    under others: written there it would silently become another puzzle."""
    if not puzzle.rules.standard:
        raise PuzzleError(
            f"{notation} cannot record this puzzle's rules ({puzzle.rules}); "
            "use json or tatham, which can",
            puzzle.source,
        )
