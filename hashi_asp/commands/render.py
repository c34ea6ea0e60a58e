"""``render``: a puzzle, and the bridges of a solution if given, as an SVG or PNG picture."""

from __future__ import annotations

from dataclasses import replace

from ..drawing import CELL
from ..status import Status
from .check import LISTED, solutions
from .declaration import BRIDGES, FLOAT, Command, Given, Option, Outcome, Printed, Reader
from .shared_options import (
    FORCE,
    OUTPUT_FILE,
    READING,
    TIME_LIMIT,
    prepare_output,
    read_puzzle,
)


def render(given: Given) -> Outcome:
    from ..checking import check
    from ..drawing import render, svg
    from .output import violation_json

    board, drawn, output = given.puzzle, given.drawn, given.output
    source = str(given.values["solution"])
    # (the output was judged before any work: prepare_output in read_drawn)
    picture = render(board, drawn, cell=given.cell_size, output=output, source=source)
    violations = (
        check(board, drawn, most=LISTED, deadline=given.deadline) if drawn is not None else []
    )
    if violations:
        broken = f"{len(violations)} rule(s), first: {violations[0].message}"
        given.hooks.note(f"warning: the solution breaks {broken}")
    return Outcome(
        Status.OK,
        document=lambda: {
            "svg": picture if picture is not None else svg(board, drawn, cell=given.cell_size),
            "violations": [violation_json(v) for v in violations],
            "puzzle": board.to_json(),
        },
        printed=lambda: Printed(picture or ""),
    )


def read_drawn(given: Given, reader: Reader) -> None:
    """The puzzle, the output file checked, then the first set of bridges of SOLUTION, if
    given."""
    read_puzzle(given, reader)
    prepare_output(given, given.values["output"])
    argument = given.values["solution"]
    given.values["drawn"] = solutions(argument, reader, "solution")[0] if argument else None


COMMAND = Command(
    "render",
    """Draw PUZZLE, with the bridges of SOLUTION if given, as a picture: SVG on standard output,
    or the .svg or .png file -o names (PNG needs the [png] extra).  SOLUTION is what `check`
    takes; of several solutions the first is drawn, and one that breaks a rule is drawn all the
    same, with a warning.""",
    (
        *READING,
        Option("solution", BRIDGES, argument=True),
        replace(OUTPUT_FILE, help="Picture file, .svg or .png [default: stdout]."),
        FORCE,
        Option("cell-size", FLOAT, f"Pixels per cell [{CELL}].", default=CELL, low=4, high=1000),
        TIME_LIMIT,
    ),
    render,
    prepare=read_drawn,
)
