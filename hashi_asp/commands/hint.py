"""``hint``: what every solution has, where solutions differ, and what bridges drawn so far
force."""

from __future__ import annotations

from ..status import Question
from .check import one_set
from .common import SEARCHING, formats, read_program
from .unit import BRIDGES, Command, Given, Option, Outcome, Printed, Reader, lines

GIVEN = Option("given", BRIDGES, "Bridges drawn so far, as `check` reads them.", metavar="BRIDGES")
"""--given: the bridges a player has drawn (``hint``, ``steps``)."""


def hint(given: Given) -> Outcome:
    from .. import reports
    from ..reasoning import hint

    board = given.puzzle
    search = {"program": given.program, "time_limit": given.deadline, "explained": True}
    found = hint(board, given.drawn, **search)
    return Outcome.of(
        found.status,
        Question.FIND,
        found.stopped,
        document=lambda: reports.hint_json(board, found),
        printed=lambda: Printed(lines(reports.hint_text(board, found, given.look))),
        result=found,
    )


def read_given(given: Given, reader: Reader) -> None:
    """The program and the puzzle, then --given."""
    read_program(given, reader)
    given.values["drawn"] = one_set(given.values["given"], reader, "given")


COMMAND = Command(
    "hint",
    """Draw the bridges every solution of PUZZLE has, '?' where solutions differ, and list
    those pairs of islands with the counts they take.  --given takes the bridges a player has
    drawn, each a lower bound (a single bridge may still become a double): then only solutions
    extending them count, and the bridges they force are listed, or a minimal set of the drawn
    bridges that cannot all stay.  Exit 0 if there is a solution (extending --given), 1 if not,
    3 if the time limit came first.""",
    (*SEARCHING, GIVEN, formats("text", "unicode", "json")),
    hint,
    prepare=read_given,
)
