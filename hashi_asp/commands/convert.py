"""``convert``: a puzzle in another notation."""

from __future__ import annotations

from .. import notations
from ..status import Status
from .declaration import CHOICE, Command, Given, Option, Outcome, Printed
from .shared_options import FORCE, OUTPUT_FILE, READING, prepare_output, read_puzzle


def convert(given: Given) -> Outcome:
    from ..files import write_output

    board, output = given.puzzle, given.output
    prepare_output(given, output)
    text = notations.write(board, given.to)
    if output is not None:
        write_output(output, text.encode("utf-8"), force=given.force)
    return Outcome(
        Status.OK,
        document=lambda: {
            "notation": notations.named(given.to).name,
            "text": text,
            "puzzle": board.to_json(),
        },
        printed=lambda: Printed(text if output is None else ""),
    )


COMMAND = Command(
    "convert",
    """Write PUZZLE in another notation (txt is the dot grid).  A notation that cannot hold the
    puzzle (an island without a number in .has, rules other than the standard ones anywhere but
    json and tatham, a grid under 3x3 in a Tatham ID, ...) is an error (exit 2), never a silent
    change of the puzzle.""",
    (
        *READING,
        Option("to", CHOICE, "txt: grid.", choices=notations.WRITABLE, required=True),
        OUTPUT_FILE,
        FORCE,
    ),
    convert,
    prepare=read_puzzle,
)
