"""The islands of a puzzle read from a picture that were probably misread.

A puzzle someone publishes has exactly one solution.  When the one read from a picture has
none, or more than one, some number was misread, most likely among those the reader was least
sure of.  :func:`suspects` asks the author fix (:func:`hashi_asp.fixing.fix`) for the fewest
edits that leave exactly one solution, allowed only these: new numbers (or removals: a mark
taken for a number) of the :data:`LEAST_CERTAIN` least certain islands (those under
:data:`CERTAIN`), each island's other numbers offered from the likeliest (the reader's
chances), and new islands at the :data:`MISSED` likeliest places where the reader saw
something it did not take for an island (:attr:`~hashi_asp.puzzle.Reading.missed`).  An island
read without a number (a circle whose number could not be read) is always a suspect: it is
given its count in the only solution.  The suspects are named: "probably a 3, not an 8, at (4,
6)", "probably no island, not a 4, at (2, 6)", "probably a 2 at (3, 4), not read".  A puzzle
read with exactly one solution and every number read has no suspects; nor has one whose
islands were all read for sure (the picture's puzzle itself may be wrong), or one no such
change makes unique.
"""

from __future__ import annotations

from dataclasses import replace

from .errors import PuzzleError
from .fixing import fix
from .puzzle import Cell, Puzzle, Solution, Suspect
from .status import Verdict
from .stopping import Deadline

LEAST_CERTAIN = 6  # islands whose numbers may be changed, at most
MISSED = 4  # places where an island may have been missed, offered at most
CERTAIN = 0.98  # a number read with this confidence or more is taken as read
SECONDS = 10.0  # the longest the search takes, where no time limit is given
NOT_THERE = 0.5  # read with less confidence, an island is first suspected to be no island


def suspects(puzzle: Puzzle, *, time_limit: float | Deadline | None = None) -> tuple[Suspect, ...]:
    """The islands of ``puzzle`` (read from a picture: with a
    :class:`~hashi_asp.puzzle.Reading`) probably misread, each with the number it probably is:
    the fewest changes among its least certain islands and the places where an island may
    have been missed that leave it exactly one solution, and the count there of every island
    read without a number (none when it has one solution already and every number was read,
    or no such change makes it unique).  ``time_limit`` (seconds or a :class:`Deadline`)
    bounds the search, :data:`SECONDS` at most."""
    reading = puzzle.reading
    if reading is None:
        return ()
    deadline = Deadline.of(time_limit).at_most(SECONDS)
    blank = [cell for cell, n in puzzle.islands.items() if n is None]
    doubtful = sorted(
        (
            cell
            for cell, n in puzzle.islands.items()
            if n is not None and reading.confidence.get(cell, 1.0) < CERTAIN
        ),
        key=lambda cell: (reading.confidence[cell], cell),
    )[:LEAST_CERTAIN]
    missed = [cell for cell in reading.missed if cell not in puzzle.islands][:MISSED]
    if not doubtful and not blank and not missed:
        return ()
    only = {cell: _others(puzzle, cell) for cell in [*blank, *doubtful]}
    only.update({cell: _numbers(puzzle, reading.missed[cell]) for cell in missed})
    try:
        found = fix(puzzle, only=only, time_limit=deadline)
    except PuzzleError:  # (an edit that leaves no puzzle: every island taken away)
        return ()
    if found.status not in (Verdict.FIXED, Verdict.UNIQUE) or found.solution is None:
        return ()
    named = [
        Suspect(edit.cell, edit.old, edit.new)
        for edit in found.edits
        if edit.old is not None or edit.new is not None
    ]
    given = {suspect.cell for suspect in named}
    counts = _counts(found.solution)
    named += [Suspect(cell, None, counts.get(cell)) for cell in blank if cell not in given]
    return tuple(sorted(named))


def checked(puzzle: Puzzle, *, time_limit: float | Deadline | None = None) -> Puzzle:
    """``puzzle`` with its reading's suspects looked for (:func:`suspects`), if it was read
    from a picture and they were not looked for yet; first, where the reader offers the puzzle
    read on neighbouring grids (:attr:`~hashi_asp.puzzle.Reading.alternatives`: a row or a
    column more or fewer), the first of them all with exactly one solution
    (:func:`on_its_grid`)."""
    if puzzle.reading is None or puzzle.reading.suspects is not None:
        return puzzle
    deadline = Deadline.of(time_limit)
    puzzle = on_its_grid(puzzle, time_limit=deadline)
    assert puzzle.reading is not None
    found = suspects(puzzle, time_limit=deadline)
    return replace(puzzle, reading=replace(puzzle.reading, suspects=found))


def on_its_grid(puzzle: Puzzle, *, time_limit: float | Deadline | None = None) -> Puzzle:
    """Of ``puzzle`` (read from a picture) and the puzzles read on the neighbouring grids its
    numbers also fit, the first with exactly one solution, its reading saying which grid was
    read first (:attr:`~hashi_asp.puzzle.Reading.first_grid`); ``puzzle`` itself if it has one,
    or if none has (within ``time_limit``, :data:`SECONDS` at most).  A published puzzle has
    one solution: of two grids the numbers fit about as well, that says which is the page's."""
    reading = puzzle.reading
    if reading is None or not reading.alternatives:
        return puzzle
    from .solving import unique

    deadline = Deadline.of(time_limit).at_most(SECONDS)
    for candidate in (puzzle, *reading.alternatives):
        if deadline.expired():
            break
        if unique(candidate, time_limit=deadline).status is Verdict.UNIQUE:
            if candidate is puzzle:
                break
            assert candidate.reading is not None
            first = (puzzle.rows, puzzle.cols)
            return replace(candidate, reading=replace(candidate.reading, first_grid=first))
    return replace(puzzle, reading=replace(reading, alternatives=()))


def _counts(solution: Solution) -> dict[Cell, int]:
    """Each island's bridges in ``solution``: what a number there must be."""
    counts: dict[Cell, int] = {}
    for drawn in solution.bridges:
        for end in drawn.ends:
            counts[end] = counts.get(end, 0) + drawn.count
    return counts


def _numbers(puzzle: Puzzle, chances: tuple[float, ...]) -> list[int | None]:
    """The numbers the rules allow, the likeliest by ``chances`` (of 1 to 8) first."""
    numbers = range(1, puzzle.rules.max_number + 1)
    return [*sorted(numbers, key=lambda n: -(chances[n - 1] if n - 1 < len(chances) else 0.0))]


def _others(puzzle: Puzzle, cell: Cell) -> list[int | None]:
    """What an island may be but the number read, the likeliest first: the other numbers by
    the reader's chances (up to what the rules allow), and None, no island at all (a mark
    taken for a number), first if the number read is less likely than not, else last."""
    assert puzzle.reading is not None
    read = puzzle.islands[cell]
    ordered = [n for n in _numbers(puzzle, puzzle.reading.chances.get(cell, ())) if n != read]
    doubtful = puzzle.reading.confidence.get(cell, 1.0) < NOT_THERE
    return [None, *ordered] if doubtful else [*ordered, None]
