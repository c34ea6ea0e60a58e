"""Alternatives: other fixes of a puzzle for the author to choose from, each with the difficulty
the fixed puzzle would have.

After :func:`hashi_asp.fixing.fix` has found its fix, the counterexample loop goes on from
what the fix's search learnt (:class:`~.counterexamples.CounterexampleSearch` with
``learnt``): each fix found is ruled out, together with every edit set that makes all its edits
and more (one of its edits would be needless there), and the master asked again.  Its answers
come with the fewest edits first, so the alternatives are the other fixes of the fewest size,
then of the next size (an answer not proven least, or of more edits than that, ends the
search).
Each is confirmed as every fix is (a fresh solve proves it unique, the checker passes it) and
rated as ``difficulty`` rates a puzzle (:func:`hashi_asp.walkthrough.difficulty`).  With a
band, only fixes that leave the puzzle in it are kept, and the fix is the first of them.
"""

from __future__ import annotations

from dataclasses import replace

from ..difficulty import Difficulty
from ..puzzle import Puzzle
from ..status import Verdict
from ..stopping import Deadline, Stopped
from .counterexamples import CounterexampleSearch
from .results import Fix

RATING_SHARE = 0.5  # of the time left, for rating one fixed puzzle at most


def offered(
    puzzle: Puzzle,
    best: Fix,
    searches: list[CounterexampleSearch],
    count: int,
    band: str | None,
    deadline: Deadline,
) -> Fix:
    """``best`` (a fix of ``puzzle``) with up to ``count`` fixes as ``alternatives``, itself
    among them, the fewest edits first, each rated; with ``band`` only the fixes that leave
    the puzzle in it, and the fix the first of those (status ``unknown`` if none was found:
    no proof, the loop does not try edit sets that hold all of another fix's edits).
    ``searches`` are the fix's searches, whose counterexamples the loop starts from."""
    if best.status is not Verdict.FIXED:
        return best
    count = max(1, count)
    found = [_rated(best, deadline)]
    learnt = next((s for s in reversed(searches) if s.free == best.free), None)
    kept = best.kept
    try:
        if kept is not None or best.free:
            search = CounterexampleSearch(puzzle, kept, best.free, deadline, learnt=learnt)
            search.exclude(best.edits)
            lower = best.lower_bound
            while _kept(found, band) < count and not deadline.expired():
                searched = search.run([], lower)
                if searched.status is not Verdict.FIXED or searched.best is None:
                    break  # none left (proven), or the time is up
                fewest = min(len(f.edits) for f in found)
                if not searched.fewest or len(searched.edits) > fewest + 1:
                    # An answer the optimisation did not prove least (cut short by the time),
                    # or past the next size: not what the author asked for.
                    break
                lower = max(lower, searched.lower_bound)  # (this search's: others ruled out)
                search.exclude(searched.edits)
                other = replace(
                    best,
                    edits=searched.edits,
                    fewest=len(searched.edits) <= best.lower_bound,
                    puzzle=searched.best.puzzle,
                    solution=searched.best.solution,
                    rounds=searched.rounds,
                    seen=searched.seen,
                )
                found.append(_rated(other, deadline))
    except Stopped:
        pass
    fixes = sorted(
        (f for f in found if band is None or (f.difficulty and f.difficulty.band == band)),
        key=lambda f: len(f.edits),
    )[:count]
    outside = len(found) - len([f for f in found if band is None or _in(f, band)])
    if not fixes:  # none in the band
        return Fix(
            Verdict.UNKNOWN,
            lower_bound=best.lower_bound,
            kept=best.kept,
            free=best.free,
            seconds=best.seconds,
            keeping=best.keeping,
            stopped=deadline.stopped,
            band=band,
            outside=outside,
        )
    first = fixes[0]
    fewest = first.fewest or len(first.edits) <= best.lower_bound
    return replace(
        first,
        fewest=fewest,
        alternatives=tuple(fixes),
        band=band,
        outside=outside,
        stopped=None if fewest else (best.stopped or deadline.stopped),
    )


def _in(fix: Fix, band: str) -> bool:
    return fix.difficulty is not None and fix.difficulty.band == band


def _kept(found: list[Fix], band: str | None) -> int:
    """How many of the fixes found count: all, or those in the band."""
    return len(found) if band is None else sum(_in(f, band) for f in found)


def _rated(fix: Fix, deadline: Deadline) -> Fix:
    """The fix with the difficulty of its fixed puzzle (None if the time ran out first)."""
    return replace(fix, difficulty=_difficulty(fix.puzzle, deadline))


def _difficulty(puzzle: Puzzle | None, deadline: Deadline) -> Difficulty | None:
    # Here, not at the top: the walkthrough is needed only when alternatives are asked for.
    from ..walkthrough import difficulty

    if puzzle is None or deadline.expired():
        return None
    try:
        return difficulty(puzzle, deadline.part(RATING_SHARE))
    except Stopped:
        return None
