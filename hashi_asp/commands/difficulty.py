"""``difficulty``: how hard a puzzle is for a person, on a scale calibrated against Simon
Tatham's levels."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..status import Question, Verdict
from .declaration import Command, Given, Outcome, Printed, lines
from .shared_options import READING, formats, read_puzzle, time_limit, walking

if TYPE_CHECKING:
    from ..difficulty import Difficulty
    from ..puzzle import Puzzle


def difficulty(given: Given) -> Outcome:
    from ..walkthrough import Unrated, difficulty
    from .output import difficulty_line

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
            document=lambda: difficulty_json(board, None, verdict),
            printed=lambda: Printed(lines(unrated_line(verdict))),
        )
    return Outcome.of(
        Verdict.RATED,
        Question.RATE,
        None,
        document=lambda: difficulty_json(board, rated),
        printed=lambda: Printed(lines(difficulty_line(rated))),
        result=rated,
    )


# ---------------------------------------------------------------------------- its output


def unrated_line(status: str) -> str:
    """Why a puzzle has no difficulty, by its ``status`` (as ``unique`` says it)."""
    why = {"multiple": "several solutions", "unsolvable": "no solution"}.get(status, status)
    hint = " (`hashi-asp unique` shows where two differ)" if status == "multiple" else ""
    return f"{status}: {why}; only a puzzle with exactly one solution has a difficulty{hint}"


def difficulty_json(puzzle: Puzzle, rated: Difficulty | None, status: str = "rated") -> dict:
    """The document ``difficulty --format json`` prints: ``status`` ``rated`` and the rating,
    or why there is none (``multiple``, ``unsolvable``) and the rating's fields null."""
    fields = rated.to_json() if rated else dict.fromkeys(("score", "band", "steps", "finished"))
    return {"status": status, **fields, "puzzle": puzzle.to_json()}


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
    asks=Question.RATE,
    detail=lambda rated: rated.to_json() if rated else {},  # a study's row: the rating
)
