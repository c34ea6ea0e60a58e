"""The islands of a puzzle read from a picture that were probably misread.

A puzzle someone publishes has exactly one solution.  When the one read from a picture has
none, or more than one, some number was misread, most likely among those the reader was least
sure of.  :func:`suspects` asks the author fix (:func:`hashi_asp.fixing.fix`) for the fewest
new numbers (or removals: a mark taken for a number) of the :data:`LEAST_CERTAIN` least
certain islands (those under :data:`CERTAIN`) that leave exactly one solution, each island's
other numbers offered from the likeliest (the reader's chances), and names them: "probably a
3, not an 8, at (4, 6)", "probably no island, not a 4, at (2, 6)".  A puzzle read with
exactly one solution has no suspects; nor has one whose islands were all read for sure (the
picture's puzzle itself may be wrong), or one no such change makes unique.
"""

from __future__ import annotations

from dataclasses import replace

from .fixing import fix
from .puzzle import Cell, Puzzle, Suspect
from .status import Verdict
from .stopping import Deadline

LEAST_CERTAIN = 6  # islands whose numbers may be changed, at most
CERTAIN = 0.98  # a number read with this confidence or more is taken as read
SECONDS = 10.0  # the longest the search takes, where no time limit is given
NOT_THERE = 0.5  # read with less confidence, an island is first suspected to be no island


def suspects(puzzle: Puzzle, *, time_limit: float | Deadline | None = None) -> tuple[Suspect, ...]:
    """The islands of ``puzzle`` (read from a picture: with a
    :class:`~hashi_asp.puzzle.Reading`) probably misread, each with the number it probably is:
    the fewest changes among its least certain islands that leave it exactly one solution
    (none when it has one already, or no such change does).  ``time_limit`` (seconds or a
    :class:`Deadline`) bounds the search, :data:`SECONDS` at most."""
    reading = puzzle.reading
    if reading is None:
        return ()
    deadline = Deadline.of(time_limit).at_most(SECONDS)
    doubtful = sorted(
        (cell for cell in puzzle.islands if reading.confidence.get(cell, 1.0) < CERTAIN),
        key=lambda cell: (reading.confidence[cell], cell),
    )[:LEAST_CERTAIN]
    if not doubtful:
        return ()
    only = {cell: _others(puzzle, cell) for cell in doubtful}
    found = fix(puzzle, only=only, time_limit=deadline)
    if found.status is not Verdict.FIXED:
        return ()
    return tuple(
        Suspect(edit.cell, edit.old, edit.new) for edit in found.edits if edit.old is not None
    )


def checked(puzzle: Puzzle, *, time_limit: float | Deadline | None = None) -> Puzzle:
    """``puzzle`` with its reading's suspects looked for (:func:`suspects`), if it was read
    from a picture and they were not looked for yet."""
    reading = puzzle.reading
    if reading is None or reading.suspects is not None:
        return puzzle
    found = suspects(puzzle, time_limit=time_limit)
    return replace(puzzle, reading=replace(reading, suspects=found))


def _others(puzzle: Puzzle, cell: Cell) -> list[int | None]:
    """What an island may be but the number read, the likeliest first: the other numbers by
    the reader's chances (up to what the rules allow), and None, no island at all (a mark
    taken for a number), first if the number read is less likely than not, else last."""
    assert puzzle.reading is not None
    read = puzzle.islands[cell]
    chances = puzzle.reading.chances.get(cell, ())
    numbers = [n for n in range(1, puzzle.rules.max_number + 1) if n != read]
    ordered: list[int | None] = [
        *sorted(numbers, key=lambda n: -(chances[n - 1] if n - 1 < len(chances) else 0.0))
    ]
    doubtful = puzzle.reading.confidence.get(cell, 1.0) < NOT_THERE
    return [None, *ordered] if doubtful else [*ordered, None]
