"""``difficulty``: how hard a puzzle is for a person, on a scale calibrated against Simon
Tatham's levels."""

from __future__ import annotations

from ..status import Status
from .common import READING, formats, read_puzzle, time_limit
from .unit import Command, Given, Outcome, Printed, lines


def difficulty(given: Given) -> Outcome:
    from .. import reports
    from ..walkthrough import difficulty

    board = given.puzzle
    rated = difficulty(board, time_limit=given.deadline)
    return Outcome(
        Status.OK,
        document=lambda: reports.difficulty_json(board, rated),
        printed=lambda: Printed(lines(reports.difficulty_line(rated))),
        result=rated,
    )


COMMAND = Command(
    "difficulty",
    """Rate how hard PUZZLE is for a person: the walkthrough of a solver who always uses the
    easiest technique that applies, from easy (the patterns a beginner sees) through medium and
    hard (Simon Tatham's levels) to expert.  Exit 1 if the puzzle has no solution.""",
    (
        *READING,
        formats("text", "json", help="One line of text, or one JSON document."),
        time_limit("Stop after this long."),
    ),
    difficulty,
    prepare=read_puzzle,
)
