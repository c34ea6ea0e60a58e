"""``check``: a solution judged against a puzzle without clingo, every broken rule named."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..status import Status
from .declaration import BRIDGES, Command, Given, Option, Outcome, Printed, Reader, lines
from .shared_options import READING, TIME_LIMIT, formats, read_puzzle

if TYPE_CHECKING:
    from ..checking import Violation
    from ..puzzle import Puzzle


LISTED = 100
"""The most broken rules of one kind listed per solution; the rest are counted ("crossing: 995904
more not listed").  A hundred is more than a person reads, and every kind is listed: bridges
drawn across a 1000x1000 board cross a million times, a 200 MB report otherwise."""


def check(given: Given) -> Outcome:
    from ..checking import check

    board = given.puzzle
    checked = [
        check(board, candidate, most=LISTED, deadline=given.deadline)
        for candidate in given.deadline.looking(given.solutions, "checking the solutions", every=1)
    ]
    return Outcome(
        Status.NO if any(checked) else Status.OK,
        document=lambda: check_json(board, checked),
        printed=lambda: Printed(lines("\n".join(check_lines(checked)))),
        result=checked,
    )


def read_solutions(given: Given, reader: Reader) -> None:
    """The puzzle, then SOLUTION: one set of bridges or several, at least one."""
    read_puzzle(given, reader)
    given.values["solutions"] = solutions(given.values["solution"], reader, "solution")


def solutions(argument: str, reader: Reader, name: str) -> list:
    """The sets of bridges ``argument`` holds: at least one."""
    from ..errors import PuzzleError

    found = reader.bridges(argument, name)
    if not found:
        raise PuzzleError("no solutions in it", argument if reader.files else name)
    return found


def one_set(argument: str | None, reader: Reader, name: str) -> object:
    """The one set of bridges ``argument`` holds (``--given``: the bridges a player has
    drawn), or None."""
    from ..errors import PuzzleError

    if argument is None:
        return None
    found = solutions(argument, reader, name)
    if len(found) != 1:
        where = argument if reader.files else name
        raise PuzzleError(f"expected one set of bridges, found {len(found)}", where)
    return found[0]


# ---------------------------------------------------------------------------- its output


def check_lines(checked: list[list[Violation]]) -> list[str]:
    """``valid``, or one line per broken rule, for each solution checked."""
    said = []
    for number, violations in enumerate(checked, 1):
        label = f"solution {number}" if len(checked) > 1 else "solution"
        if not violations:
            said.append(f"{label}: valid")
        said += [f"{label}: {violation.message}" for violation in violations]
    return said


def check_json(puzzle: Puzzle, checked: list[list[Violation]]) -> dict:
    """The document ``check --format json`` prints: each solution's broken rules."""
    from .output import violation_json

    return {
        "valid": not any(checked),
        "solutions": [
            {"valid": not violations, "violations": [violation_json(v) for v in violations]}
            for violations in checked
        ],
        "puzzle": puzzle.to_json(),
    }


COMMAND = Command(
    "check",
    """Check SOLUTION against PUZZLE without clingo, naming every broken rule.  Exit 0 if all
    are valid, else 1.

    SOLUTION is JSON ({"bridges": [[r1, c1, r2, c2, k], ...]}, the output of `solve --format
    json`, whose solutions are each checked, or a bare list of bridges) or a pzprv3 file with
    lines; '-' reads it from standard input.  The puzzle's own rules apply unless overridden.
    Of each kind of broken rule at most 100 are listed, and the rest counted.
    """,
    (
        *READING,
        Option("solution", BRIDGES, argument=True, required=True),
        formats("text", "json", help="One line per broken rule, or one JSON document."),
        TIME_LIMIT,
    ),
    check,
    prepare=read_solutions,
)
