"""``count``: how many solutions a puzzle has, each checked."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..status import Question
from .declaration import FLAG, Command, Given, Option, Outcome, Printed, lines
from .shared_options import SEARCHING, formats, read_program

if TYPE_CHECKING:
    from ..puzzle import Puzzle
    from ..solving import Result
    from .output import Look


def count(given: Given) -> Outcome:
    from ..solving import count

    board, verify = given.puzzle, given.verify
    with given.hooks.progress(desc="counting", unit=" solutions") as progress:
        search = {"program": given.program, "time_limit": given.deadline, "verify": verify}
        result = count(board, on_solution=lambda n: progress.update(), **search)
    return Outcome.of(
        result.status,
        Question.FIND,
        result.stopped,
        document=lambda: count_json(board, result, checked=verify),
        printed=lambda: Printed(lines(count_text(result, given.look))),
        result=result,
    )


# ---------------------------------------------------------------------------- its output


def count_text(result: Result, look: Look | None = None) -> str:
    """The count, exact or "at least", in one line."""
    from ..puzzle import plural
    from .output import TEXT, stopped

    if result.exhausted:
        return f"{plural(result.count, 'solution')}; search exhausted"
    cut = stopped(result.timed_out, (look or TEXT).signal)
    seconds = result.stats["solve_seconds"]
    return f"at least {plural(result.count, 'solution')} ({cut} after {seconds:.1f} s)"


def count_json(puzzle: Puzzle, result: Result, *, checked: bool) -> dict:
    """The document ``count --format json`` prints."""
    return {
        "status": result.status,
        "count": result.count,
        "exhausted": result.exhausted,
        "timed_out": result.timed_out,
        "checked": checked,
        "seconds": result.stats["solve_seconds"],
        "puzzle": puzzle.to_json(),
    }


COMMAND = Command(
    "count",
    """Count the solutions of PUZZLE by enumerating them all, each checked by the independent
    checker unless --no-check; a live count shows on stderr when it is a terminal.  Exit 0 with
    the exact count, 1 for none, 3 with "at least N" when the time limit cut the count short.""",
    (
        *SEARCHING,
        formats("text", "json", help="One line of text, or one JSON document."),
        Option(
            "check",
            FLAG,
            "Check each (about 2 ms).",
            default=True,
            negative="no-check",
            dest="verify",
        ),
    ),
    count,
    prepare=read_program,
    asks=Question.FIND,
    detail=lambda result: {"count": result.count},  # a study's row: the count
)
