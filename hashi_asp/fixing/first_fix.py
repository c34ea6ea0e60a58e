"""The repair's first fix: a fix found fast, from which free mode looks for fewer edits.

The generator's uniqueness repair (:mod:`hashi_asp.generation.repair`) makes a puzzle unique by
renumbering islands until a known solution is the only one.  Run from a solution of the
ambiguous puzzle, it gives a fix of changed numbers, mostly too many; giving islands back their
numbers while the puzzle stays unique leaves only edits that are each needed.  Free mode then
asks its loop only for fixes with fewer edits than this one: a proof that none exists makes it
the fewest.
"""

from __future__ import annotations

from ..puzzle import Puzzle, Solution
from ..stopping import Deadline, Stopped
from .edits import edited
from .results import Edit, FixFault, FoundFix, only_solution


def repaired_fix(puzzle: Puzzle, solutions: list[Solution], deadline: Deadline) -> FoundFix | None:
    """A fix found fast, not the fewest: the generator's uniqueness repair from each known
    solution in turn (seeded: the same puzzle gets the same fix), renumbering islands; then
    renumbered islands given back their numbers while the puzzle stays unique.  Proven unique
    by a fresh solve and passed by the checker; None if the repair gives up."""
    # Here, not at the top: the generator brings the walkthrough and more with it, which keep
    # mode and the other users of this package do not need.
    from ..generation.repair import repaired

    for seed, solution in enumerate(solutions):
        made = repaired(puzzle, solution, seed, deadline)
        if made is None:
            continue
        fixed, _ = made
        edits = [
            Edit("change", cell, old, fixed.islands[cell])
            for cell, old in sorted(puzzle.islands.items())
            if fixed.islands[cell] != old
        ]
        only = only_solution(edited(puzzle, edits), deadline)
        if only is None:
            raise FixFault("internal error: the repaired puzzle is not unique")
        # Fewer edits: give islands back their numbers while the puzzle stays unique, until
        # every edit left is needed (or the time is up: each smaller set was proven unique).
        try:
            reverted = True
            while reverted and len(edits) > 1:
                reverted = False
                for edit in list(edits):
                    fewer = [e for e in edits if e != edit]
                    found = only_solution(edited(puzzle, fewer), deadline)
                    if found is not None:
                        edits, only, reverted = fewer, found, True
                        if len(edits) == 1:
                            break
        except Stopped:
            pass
        return FoundFix(tuple(edits), edited(puzzle, edits), only)
    return None
