"""``check``: a solution judged against a puzzle without clingo, every broken rule named."""

from __future__ import annotations

from ..status import Status
from .common import READING, formats, read_puzzle
from .unit import BRIDGES, Command, Given, Option, Outcome, Printed, Reader, lines


def check(given: Given) -> Outcome:
    from .. import reports
    from ..checking import check

    board = given.puzzle
    checked = [check(board, candidate) for candidate in given.solutions]
    return Outcome(
        Status.NO if any(checked) else Status.OK,
        document=lambda: reports.check_json(board, checked),
        printed=lambda: Printed(lines("\n".join(reports.check_lines(checked)))),
        result=checked,
    )


def read_solutions(given: Given, reader: Reader) -> None:
    """The puzzle, then SOLUTION: one set of bridges or several, at least one."""
    read_puzzle(given, reader)
    given.values["solutions"] = solutions(given.values["solution"], reader, "solution")


def solutions(argument: str, reader: Reader, name: str) -> list:
    """The sets of bridges ``argument`` holds: at least one."""
    from ..puzzle import PuzzleError

    found = reader.bridges(argument, name)
    if not found:
        raise PuzzleError("no solutions in it", argument if reader.files else name)
    return found


def one_set(argument: str | None, reader: Reader, name: str) -> object:
    """The one set of bridges ``argument`` holds (``--given``: the bridges a player has
    drawn), or None."""
    from ..puzzle import PuzzleError

    if argument is None:
        return None
    found = solutions(argument, reader, name)
    if len(found) != 1:
        where = argument if reader.files else name
        raise PuzzleError(f"expected one set of bridges, found {len(found)}", where)
    return found[0]


COMMAND = Command(
    "check",
    """Check SOLUTION against PUZZLE without clingo, naming every broken rule.  Exit 0 if all
    are valid, else 1.

    SOLUTION is JSON ({"bridges": [[r1, c1, r2, c2, k], ...]}, the output of `solve --format
    json`, whose solutions are each checked, or a bare list of bridges) or a pzprv3 file with
    lines; '-' reads it from standard input.  The puzzle's own rules apply unless overridden.
    """,
    (
        *READING,
        Option("solution", BRIDGES, argument=True, required=True),
        formats("text", "json", help="One line per broken rule, or one JSON document."),
    ),
    check,
    prepare=read_solutions,
)
