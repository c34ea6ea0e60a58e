"""``convert``: a puzzle in another notation."""

from __future__ import annotations

from .. import notations
from ..status import Status
from .common import OUTPUT_FILE, READING, read_puzzle
from .unit import CHOICE, Command, Given, Option, Outcome, Printed

WRITABLE = tuple(sorted([*notations.NOTATIONS, *notations.ALIASES]))


def convert(given: Given) -> Outcome:
    from ..files import not_the_input, write_atomically

    board, output = given.puzzle, given.output
    text = notations.write(board, given.to)
    if output is not None:
        not_the_input(output, given.values["puzzle"])
        write_atomically(output, text.encode("utf-8"))
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
        Option("to", CHOICE, "txt: grid.", choices=WRITABLE, required=True),
        OUTPUT_FILE,
    ),
    convert,
    prepare=read_puzzle,
)
