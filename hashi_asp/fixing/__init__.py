"""The author's fix: the fewest edits that leave a puzzle with exactly one solution.

An edit adds an island (with a number), removes one, or changes an island's number (an island
without a number gets one).  By default the solution the author meant is kept: the first one
found, or the one given.  It stays a solution only under two kinds of edit: a new island on a
water cell under one of its bridges of K lines, numbered 2K (the bridge is split there), and an
island without a number given its count in that solution.  With ``free`` any edit is allowed and
the solution may change.

This module is :func:`fix`, which runs the modes and shares the time between them; the work is
in the modules beside it:

- :mod:`.results`: what the fix returns (:class:`Fix`, :class:`Edit`), what its stages hand
  each other, its errors, and the proof every fix passes before it is returned;
- :mod:`.edits`: edits and what they do to puzzles and solutions;
- :mod:`.counterexamples`: the loop that searches for the fewest edits, in either mode;
- :mod:`.moves`: what free mode's loop learns from two solutions;
- :mod:`.first_fix`: free mode's first fix, from the generator's uniqueness repair;
- :mod:`.single_edits`: the proof that no single edit will do (or a fix of one).

A fix is returned only once a fresh :func:`~hashi_asp.solving.unique` proves the edited puzzle
has exactly one solution and the independent checker passes it.  When the time limit or a
signal comes first, the best fix found (a master answer not yet proven least) is returned with
the lower bound of the last proven optimum and ``stopped`` set.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

from ..checking import check
from ..difficulty import BANDS
from ..puzzle import Cell, Puzzle, Solution
from ..solving import Result, unique
from ..status import Stop, Verdict
from ..stopping import Deadline, Stopped
from .alternatives import offered
from .counterexamples import CounterexampleSearch
from .edits import edited, split
from .first_fix import repaired_fix
from .results import IMPOSSIBLE, NOT_FOUND, Edit, Fix, FixError, FixFault, FoundFix, Searched
from .single_edits import proven_bound, single_edit, single_fix

__all__ = ["Edit", "Fix", "FixError", "FixFault", "edited", "fix", "split"]

MARGIN = 0.05  # of the time left, kept back from the searches to finish in time
KEEP_SHARE = 0.5  # of the time limit, for keep mode before free mode by default
KEEP_HINT = 0.2  # of the time limit, for keep mode's fix as a first fix in free mode
OFFER_SHARE = 0.6  # of the time limit, for the fix itself when alternatives are asked for
SINGLE_SHARE = 0.8  # of the time left, for the proof that no single edit will do (the loop
# proves it too, but slower on most puzzles)


def fix(
    puzzle: Puzzle,
    *,
    keep: Solution | None = None,
    free: bool = False,
    time_limit: float | Deadline | None = None,
    first: Result | None = None,
    only: Mapping[Cell, Sequence[int | None]] | None = None,
    alternatives: int = 0,
    band: str | None = None,
) -> Fix:
    """The fewest edits that leave ``puzzle`` with exactly one solution (see the module
    docstring), under the puzzle's rules and the bundled encoding.  ``keep`` is the solution to
    keep, strictly: without a fix that keeps it, ``no fix found`` (``keeping`` says proven) or
    ``unknown`` (stopped first).  Without ``keep`` the first
    solution found is kept if some fix keeps it; when keep mode proves none does (or does not
    finish in its share of the time), free mode follows and ``keeping`` says why.  ``free``
    allows any edit from the start.  ``first`` is the puzzle's
    :func:`~hashi_asp.solving.unique` result, if already known.  ``time_limit`` (seconds, or a
    :class:`Deadline`) bounds the whole search.  Raises :class:`FixError` for a ``keep`` that
    does not solve the puzzle.

    ``only`` allows no edit but new numbers of the islands it names, each one of the numbers
    given, the likeliest first, None for the island removed, and new islands of the numbers
    given on the water cells it names (free mode, for a puzzle read from a picture: its least
    certain islands and what else they may be, and where an island may have been missed); the
    puzzle may then have no solution to start from.

    ``alternatives`` K offers up to K fixes (:mod:`.alternatives`): the fewest edits first,
    each proven and checked, each with the difficulty the fixed puzzle would have; ``band``
    (a band of :data:`hashi_asp.difficulty.BANDS`) keeps only the fixes that leave the
    puzzle in it, the fix being the first of them.  The fix's search then has
    :data:`OFFER_SHARE` of the time, the alternatives the rest."""
    started = time.perf_counter()
    deadline = Deadline.of(time_limit)
    if only is not None:
        return _renumbered(puzzle, only, deadline, started, first)
    if band is not None and band not in BANDS:
        raise FixError(f"difficulty {band!r}: expected one of {', '.join(BANDS)}")
    if not alternatives and band is None:
        return _fix(puzzle, keep, free, deadline, first, started, [])
    searches: list[CounterexampleSearch] = []
    found = _fix(puzzle, keep, free, deadline.part(OFFER_SHARE), first, started, searches)
    count = max(1, alternatives)
    made = offered(puzzle, found, searches, count, band, deadline.part(1 - MARGIN))
    return replace(made, seconds=time.perf_counter() - started)


def _fix(
    puzzle: Puzzle,
    keep: Solution | None,
    free: bool,
    deadline: Deadline,
    first: Result | None,
    started: float,
    searches: list[CounterexampleSearch],
) -> Fix:
    """The fix (see :func:`fix`); the loops it ran join ``searches``."""
    if keep is not None and not free:
        broken = check(puzzle, keep)
        if broken:
            raise FixError(f"the solution to keep does not solve the puzzle: {broken[0].message}")
    unkept = NOT_FOUND if keep is not None and not free else None  # said if it ends unknown
    opened = _first(puzzle, first, deadline, started, free=free, keeping=unkept)
    if isinstance(opened, Fix):
        return opened
    first = opened
    if first.status is Verdict.UNSOLVABLE:
        return Fix(Verdict.UNSOLVABLE, free=free, seconds=time.perf_counter() - started)
    if first.status is Verdict.UNIQUE and (keep is None or free or first.solutions[0] == keep):
        return _nothing_to_fix(puzzle, first.solutions[0], free, started)
    if first.status not in (Verdict.UNIQUE, Verdict.MULTIPLE):
        return _unknown(started, free=free, keeping=unkept, stopped=first.stopped)
    keeping, kept_fix = None, None
    work = deadline.part(1 - MARGIN)  # the rest: to confirm and return the last fix in time
    if not free:
        kept = keep or first.solutions[0]
        # Keep mode mostly ends fast (a fix, or the proof that none keeps the solution); by
        # default it gets half the time, so that free mode has the rest.
        share = work if keep is not None else work.part(KEEP_SHARE)
        found = _keep(puzzle, kept, first.solutions, share, searches)
        if found.status is not Verdict.FIXED:
            keeping = IMPOSSIBLE if found.status is Verdict.NO_FIX else NOT_FOUND
        if keep is not None or found.status is Verdict.FIXED:
            return _cut(found.fix(kept, False, time.perf_counter() - started, keeping), work)
    else:  # keep mode's fix, if found soon, is a first fix for free mode
        found = _keep(puzzle, first.solutions[0], first.solutions, work.part(KEEP_HINT))
        kept_fix = found.best if found.status is Verdict.FIXED else None
    found = _free(puzzle, first.solutions, work, kept_fix, searches)
    seconds = time.perf_counter() - started
    return _cut(found.fix(first.solutions[0], True, seconds, keeping), work)


def _first(
    puzzle: Puzzle,
    first: Result | None,
    deadline: Deadline,
    started: float,
    *,
    free: bool,
    keeping: str | None = None,
) -> Result | Fix:
    """The first search of ``puzzle`` (``first``, when the caller ran it already): whether it
    has one solution, several or none; or, if it stopped short, the fix of status unknown that
    says why (``keeping`` what keep mode is to say then)."""
    try:
        return first if first is not None else unique(puzzle, time_limit=deadline)
    except Stopped as stop:
        return _unknown(started, free=free, keeping=keeping, stopped=stop.why)


def _unknown(
    started: float, *, free: bool, keeping: str | None = None, stopped: Stop | None = None
) -> Fix:
    """No fix found, for the reason ``stopped`` says: the fix of status unknown."""
    seconds = time.perf_counter() - started
    return Fix(Verdict.UNKNOWN, free=free, seconds=seconds, keeping=keeping, stopped=stopped)


def _nothing_to_fix(puzzle: Puzzle, solution: Solution, free: bool, started: float) -> Fix:
    """``puzzle`` has one solution, ``solution``, already: a fix of no edits, proven fewest."""
    return Fix(
        Verdict.UNIQUE,
        edits=(),
        fewest=True,
        lower_bound=0,
        puzzle=puzzle,
        solution=solution,
        kept=solution,
        free=free,
        rounds=0,
        seconds=time.perf_counter() - started,
    )


def _renumbered(
    puzzle: Puzzle,
    only: Mapping[Cell, Sequence[int | None]],
    deadline: Deadline,
    started: float,
    first: Result | None,
) -> Fix:
    """The fewest new numbers of the islands ``only`` names that leave ``puzzle`` with exactly
    one solution: every single one tried first, the first offered of each island first (the
    first that does is the fix), then the loop of free mode, allowed those edits alone."""
    opened = _first(puzzle, first, deadline, started, free=True)
    if isinstance(opened, Fix):
        return opened
    first = opened
    if first.status is Verdict.UNIQUE:
        return _nothing_to_fix(puzzle, first.solutions[0], True, started)
    if first.status not in (Verdict.MULTIPLE, Verdict.UNSOLVABLE):
        return _unknown(started, free=True, stopped=first.stopped)
    # The first number offered of each island, then the second of each, and so on.
    ranked = [
        (rank, place, _offered(puzzle, cell, n))
        for place, (cell, numbers) in enumerate(only.items())
        for rank, n in enumerate(numbers)
        if _edits(puzzle, cell, n)
    ]
    offered = [edit for _, _, edit in sorted(ranked, key=lambda ranked: ranked[:2])]
    work = deadline.part(1 - MARGIN)
    solutions = first.solutions
    try:
        one = single_edit(puzzle, solutions, work, offered) if offered else None
    except Stopped:
        return _unknown(started, free=True, stopped=work.stopped)
    if one is not None:
        found = Searched(Verdict.FIXED, one, True, 1)
    elif len({edit.cell for edit in offered}) < 2:
        found = Searched(Verdict.NO_FIX, None, False, 2)
    else:
        try:
            search = CounterexampleSearch(
                puzzle, solutions[0] if solutions else None, True, work, only=only
            )
            found = search.run(solutions, lower=2)
        except Stopped:
            found = Searched(Verdict.UNKNOWN, lower_bound=2)
    kept = solutions[0] if solutions else None
    return _cut(found.fix(kept, True, time.perf_counter() - started), work)


def _edits(puzzle: Puzzle, cell: Cell, number: int | None) -> bool:
    """Whether giving ``cell`` the ``number`` offered changes the puzzle."""
    if cell not in puzzle.islands:
        return number is not None
    return number is None or number != puzzle.islands[cell]


def _offered(puzzle: Puzzle, cell: Cell, number: int | None) -> Edit:
    """The edit that gives ``cell`` the ``number`` offered: a new island on water, a new
    number of an island, or the island removed (None)."""
    if cell not in puzzle.islands:
        return Edit("add", cell, None, number)
    return Edit("change" if number else "remove", cell, puzzle.islands[cell], number)


def _cut(found: Fix, work: Deadline) -> Fix:
    """The fix, saying why the search stopped short (the time limit, a signal) unless what it
    found is proven: a fix of the fewest edits, or no fix at all."""
    proven = found.fewest or found.status == Verdict.NO_FIX
    return found if proven else replace(found, stopped=work.stopped)


def _keep(
    puzzle: Puzzle,
    kept: Solution,
    solutions: list[Solution],
    deadline: Deadline,
    searches: list[CounterexampleSearch] | None = None,
) -> Searched:
    """Keep mode: the loop keeping ``kept`` (which joins ``searches``)."""
    try:
        search = CounterexampleSearch(puzzle, kept, False, deadline)
    except Stopped:
        return Searched(Verdict.UNKNOWN, lower_bound=1)
    if searches is not None:
        searches.append(search)
    return search.run([s for s in solutions if s != kept])


def _free(
    puzzle: Puzzle,
    solutions: list[Solution],
    deadline: Deadline,
    kept: FoundFix | None = None,
    searches: list[CounterexampleSearch] | None = None,
) -> Searched:
    """Free mode: a first fix from the uniqueness repair (its edits as few as reverting them
    one by one allows) or ``kept`` (keep mode's fix, if smaller); then the loop, told that only
    fixes with fewer edits than the first matter, while every single edit is tried beside it
    in a thread of its own (:func:`~.single_edits.single_edit`, in a share of the time): its
    proof that no single edit will do tells the loop that two are needed, which the loop proves
    too but mostly slower.  A proof that no fix has fewer edits makes the first fix the
    fewest."""
    try:
        upper = repaired_fix(puzzle, solutions, deadline)
    except Stopped:
        upper = None
    # A fix that keeps a solution is one that may change it, often a small one.
    if kept is not None and (upper is None or len(kept.edits) < len(upper.edits)):
        upper = kept
    lower = 1  # the puzzle is ambiguous: some edit is needed
    if upper is not None and len(upper.edits) == lower:
        return Searched(Verdict.FIXED, upper, True, lower)
    proof = deadline.part(SINGLE_SHARE)
    with ThreadPoolExecutor(1, thread_name_prefix="hashi-asp: single edits") as pool:
        single = pool.submit(single_edit, puzzle, solutions, proof)
        try:
            below = None if upper is None else upper.edits
            search = CounterexampleSearch(puzzle, solutions[0], True, deadline, fewer_than=below)
            if searches is not None:
                searches.append(search)
            found = search.run(solutions, lower, single)
        except Stopped:
            found = Searched(Verdict.UNKNOWN, lower_bound=proven_bound(single, lower))
        finally:
            proof.stop()  # the single edits stop at their next look if still at work
    one = single_fix(single)
    if one is not None:  # the single edits found a fix of one edit
        return Searched(Verdict.FIXED, one, True, 1)
    found = replace(found, lower_bound=proven_bound(single, found.lower_bound))
    if found.status is Verdict.FIXED and found.lower_bound >= len(found.edits):
        found = replace(found, fewest=True)
    if upper is None:
        return found
    if found.status is Verdict.NO_FIX:  # no fix with fewer edits than the first: it is the fewest
        return replace(
            found, status=Verdict.FIXED, best=upper, fewest=True, lower_bound=len(upper.edits)
        )
    if found.status is Verdict.FIXED and len(found.edits) < len(upper.edits):
        return found
    lower = max(lower, found.lower_bound)
    fewest = lower >= len(upper.edits)
    return replace(found, status=Verdict.FIXED, best=upper, fewest=fewest, lower_bound=lower)
