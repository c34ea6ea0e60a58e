"""``fix``: the fewest edits (islands added, removed or renumbered) that leave a puzzle with
exactly one solution, keeping the solution the author meant unless ``--free``."""

from __future__ import annotations

import os

from .. import notations
from ..puzzle import HashiError
from ..status import Question
from .check import one_set
from .common import READING, TIME_LIMIT, formats, read_puzzle
from .convert import WRITABLE
from .unit import BRIDGES, CHOICE, FLAG, Command, Given, Option, Outcome, Printed, Reader, lines


def fix(given: Given) -> Outcome:
    from .. import reports
    from ..fixing import fix

    board = given.puzzle
    found = fix(board, keep=given.kept, free=given.free, time_limit=given.deadline)

    def printed() -> Printed:
        written = None
        if found.puzzle is not None:
            notation = given.to or input_notation(given)
            try:
                written = notations.write(found.puzzle, notation)
            except HashiError:  # the notation cannot hold it (its rules): JSON can
                written = notations.write(found.puzzle, "json")
        return Printed(lines(reports.fix_text(found, written, given.look)))

    return Outcome.of(
        found.status,
        Question.ONE,
        found.stopped,
        document=lambda: reports.fix_json(found),
        printed=printed,
        result=found,
    )


def input_notation(given: Given) -> str:
    """The notation PUZZLE was written in (``--notation``, else recognised again)."""
    chosen = given.values.get("notation")
    if chosen:
        return str(chosen)
    argument = str(given.argument)
    try:
        if notations.is_text(argument) or not os.path.isfile(argument):
            return notations.detect(argument)
        with open(argument, encoding="utf-8", errors="replace") as file:
            return notations.detect(file.read(1_000_000), argument)
    except (OSError, StopIteration, HashiError):
        return "json"


def read_kept(given: Given, reader: Reader) -> None:
    """The puzzle, then --keep: the solution to keep (not with --free)."""
    from ..puzzle import PuzzleError

    read_puzzle(given, reader)
    given.values["kept"] = one_set(given.values["keep"], reader, "keep")
    if given.values["kept"] is not None and given.values["free"]:
        raise PuzzleError("--keep and --free exclude each other: --free may change the solution")


COMMAND = Command(
    "fix",
    """Find the fewest edits that leave PUZZLE with exactly one solution, each fix checked by a
    fresh solve and the independent checker before it is shown.  --keep SOLUTION keeps the
    solution the author meant: an edit is a new island on one of its bridges, numbered twice
    the bridge's count (the bridge is split), or an island without a number given its count.
    --free allows any edit (add, remove or renumber an island) and the solution may change.  By
    default the first solution found is kept, and where no fix keeps it (proven, or none found
    in half the time) the fewest edits that change it are shown, said as such.  The fewest is
    proven where the search finishes; else the best fix found is shown with a lower bound.
    Exit 0 fixed or already unique, 1 no fix keeps the --keep solution, 4 unsolvable, 3 time
    limit before a fix; 2 for a --keep that does not solve the puzzle.

    SOLUTION is read as `check` reads it: the output of `solve --format json`, or
    {"bridges": [[r1, c1, r2, c2, k], ...]}.""",
    (
        *READING,
        Option("keep", BRIDGES, "The solution to keep, as `check` reads it.", metavar="SOLUTION"),
        Option("free", FLAG, "Allow any edit; the solution may change.", default=False),
        Option(
            "to", CHOICE, "Write the fixed puzzle in this notation [the input's].", choices=WRITABLE
        ),
        formats("text", "unicode", "json"),
        TIME_LIMIT,
    ),
    fix,
    prepare=read_kept,
)
