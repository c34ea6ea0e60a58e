"""``unique``: whether a puzzle has exactly one solution; for two, where they differ and one
edit that leaves one; for none, why."""

from __future__ import annotations

from ..status import Question
from .common import SEARCHING, formats, read_program
from .unit import FLAG, Command, Given, Option, Outcome, Printed, lines


def unique(given: Given) -> Outcome:
    from .. import reports
    from ..reviewing import review

    board = given.puzzle
    reviewed = review(board, program=given.program, time_limit=given.deadline, rate=given.rate)
    result, found = reviewed.result, reviewed.fix
    sought, rated = reviewed.sought, reviewed.difficulty

    def printed() -> Printed:
        text = reports.unique_text(board, result, given.look, fix=found, sought=sought, rated=rated)
        return Printed(lines(text))

    return Outcome.of(
        result.status,
        Question.ONE,
        result.stopped,
        document=lambda: reports.unique_json(board, result, fix=found, sought=sought, rated=rated),
        printed=printed,
        result=result,
    )


COMMAND = Command(
    "unique",
    """Decide whether PUZZLE has exactly one solution, by searching for two: for two, draw both,
    list the pairs of islands where they differ, name the smallest region of them and propose
    the fewest edits that leave one solution, as `fix` finds them in a short time (checked
    first); for none,
    say why.  --difficulty rates a unique puzzle (as `difficulty`).  Exit 0 unique, 1 multiple,
    4 unsolvable, 3 time limit before a verdict.""",
    (
        *SEARCHING,
        formats("text", "unicode", "json"),
        Option(
            "difficulty",
            FLAG,
            "Also rate a unique puzzle's difficulty.",
            default=False,
            dest="rate",
        ),
    ),
    unique,
    prepare=read_program,
)
