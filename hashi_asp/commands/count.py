"""``count``: how many solutions a puzzle has, each checked."""

from __future__ import annotations

from ..status import Question
from .common import SEARCHING, formats, read_program
from .unit import FLAG, Command, Given, Option, Outcome, Printed, lines


def count(given: Given) -> Outcome:
    from .. import reports
    from ..solving import count

    board, verify = given.puzzle, given.verify
    with given.hooks.progress(desc="counting", unit=" solutions") as progress:
        search = {"program": given.program, "time_limit": given.deadline, "verify": verify}
        result = count(board, on_solution=lambda n: progress.update(), **search)
    return Outcome.of(
        result.status,
        Question.FIND,
        result.stopped,
        document=lambda: reports.count_json(board, result, checked=verify),
        printed=lambda: Printed(lines(reports.count_text(result, given.look))),
        result=result,
    )


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
)
