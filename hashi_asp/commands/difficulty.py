"""``difficulty``: how hard a puzzle is for a person, on a scale calibrated against Simon
Tatham's levels."""

from __future__ import annotations

from ..status import Question, Verdict
from .common import READING, formats, read_puzzle, time_limit, walking
from .unit import Command, Given, Outcome, Printed, lines


def difficulty(given: Given) -> Outcome:
    from .. import reports
    from ..walkthrough import Unrated, difficulty

    board = given.puzzle
    try:
        with walking(given, "rating") as show:
            rated = difficulty(board, time_limit=given.deadline, on_step=show)
    except Unrated as refused:  # only a puzzle with exactly one solution has a difficulty
        verdict = refused.verdict
        return Outcome.of(
            verdict,
            Question.RATE,
            None,
            document=lambda: reports.difficulty_json(board, None, verdict),
            printed=lambda: Printed(lines(reports.unrated_line(verdict))),
            message=str(refused),
        )
    return Outcome.of(
        Verdict.RATED,
        Question.RATE,
        None,
        document=lambda: reports.difficulty_json(board, rated),
        printed=lambda: Printed(lines(reports.difficulty_line(rated))),
        result=rated,
    )


COMMAND = Command(
    "difficulty",
    """Rate how hard PUZZLE is for a person: the walkthrough of a solver who always uses the
    easiest technique that applies, from easy (the patterns a beginner sees) through medium and
    hard (Simon Tatham's levels) to expert; a terminal shows the progress on stderr.  Only a
    puzzle with exactly one solution has a difficulty: exit 1, saying so, if it has none or
    several; 3 at the time limit.""",
    (
        *READING,
        formats("text", "json", help="One line of text, or one JSON document."),
        time_limit("Stop after this long."),
    ),
    difficulty,
    prepare=read_puzzle,
)
