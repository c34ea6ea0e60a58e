"""``steps``: a walkthrough, one step at a time, each with its reason, checked."""

from __future__ import annotations

from dataclasses import replace

from ..status import Question
from .check import one_set
from .common import (
    FORCE,
    OUT_FOLDER,
    READING,
    formats,
    prepare_folder,
    read_puzzle,
    time_limit,
    walking,
)
from .hint import GIVEN
from .unit import FLAG, INT, Command, Given, Option, Outcome, Printed, Reader, lines


def steps(given: Given) -> Outcome:
    from .. import reports
    from ..files import write_output
    from ..puzzle import PuzzleError
    from ..walkthrough import steps

    board, out = given.puzzle, given.out
    if (given.format == "svg") != (out is not None):
        raise PuzzleError("--format svg writes pictures: give it --out FOLDER, and only it")
    with walking(given, "walking") as show:
        walk = steps(board, given.drawn, limit=given.limit, time_limit=given.deadline, on_step=show)
    written = 0
    if out is not None:
        pictures = reports.step_pictures(board, walk)
        prepare_folder(given, out, [name for name, _ in pictures])
        for name, picture in pictures:
            write_output(out / name, picture.encode("utf-8"), force=given.force)
        written = len(pictures)

    def printed() -> Printed:
        if out is not None:
            verdict = reports.steps_verdict(walk, given.look)
            return Printed(lines(verdict + f"\n{written} pictures in {out}"))
        return Printed(lines(reports.steps_text(board, walk, given.look, brief=given.brief)))

    return Outcome.of(
        walk.status,
        Question.FIND,
        walk.stopped,
        document=lambda: reports.steps_json(board, walk),
        printed=printed,
        result=walk,
    )


def read_given(given: Given, reader: Reader) -> None:
    """The puzzle, then --given."""
    read_puzzle(given, reader)
    given.values["drawn"] = one_set(given.values["given"], reader, "given")


COMMAND = Command(
    "steps",
    """Walk through PUZZLE one step at a time, from the empty board or the bridges --given: each
    step narrows the bridge counts of one pair of islands, with the smallest set of island
    numbers that forces it (and whether it needs all islands connected), easiest first; each is
    confirmed by clingo before it is shown.  -n 1 is the next move.  --format svg writes one
    picture per step into --out.  Ends with the difficulty when solved; a terminal shows the
    progress on stderr.  Exit 0 when solved (or after the -n steps asked), 1 when stuck (several
    solutions) or in a contradiction (none), 3 at the time limit.""",
    (
        *READING,
        GIVEN,
        Option("steps", INT, "Stop after N steps.", low=1, short="-n", dest="limit"),
        formats("text", "unicode", "json", "svg", help="Boards as text, JSON, or SVG pictures."),
        replace(OUT_FOLDER, help="SVG folder."),
        Option("brief", FLAG, "One line per step, no boards.", default=False),
        replace(FORCE, help="Replace pictures that exist in --out."),
        time_limit("Stop after this long, keeping the steps found."),
    ),
    steps,
    prepare=read_given,
)
