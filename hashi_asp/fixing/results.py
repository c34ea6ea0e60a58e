"""What the author fix hands back, and what its stages hand each other.

- :class:`Edit`, one edit of a puzzle, and :class:`Fix`, what :func:`hashi_asp.fixing.fix`
  found: the library's results;
- :class:`FoundFix`, a fix one stage found (the repair's first fix, a single edit, an answer of
  the counterexample loop), once :func:`only_solution` has confirmed it;
- :class:`Searched`, how a search for the fewest edits ended (the loop of one mode, or free
  mode as a whole): its verdict, its best fix, the lower bound it proved;
- :class:`FixError` (a solution to keep that does not solve the puzzle) and :class:`FixFault`
  (the search contradicts itself: never shown).

Every fix reaches the caller through :func:`only_solution`: a fresh
:func:`~hashi_asp.solving.unique` proves the edited puzzle has exactly one solution, and the
independent checker passes it.  So a fault of the encodings shows as a :class:`FixFault`,
never as a wrong fix.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..checking import check
from ..difficulty import Difficulty
from ..errors import HashiError
from ..puzzle import Cell, Puzzle, Solution, cell_name
from ..solving import unique
from ..status import Status, Stop, Verdict
from ..stopping import Deadline

IMPOSSIBLE = "impossible"  # keeping: keep mode proved no fix keeps the solution
NOT_FOUND = "not found"  # keeping: keep mode found no such fix in the time it had


class FixError(HashiError):
    """A fix asked for what cannot be: a solution to keep that does not solve the puzzle."""

    status = Status.BAD_INPUT


class FixFault(HashiError):
    """The fix search went wrong (a fixed puzzle a fresh solve does not confirm): never shown."""

    status = Status.FAULT


@dataclass(frozen=True)
class Edit:
    """One edit at ``cell``: ``kind`` ``add`` (a new island ``new``; ``old`` None), ``remove``
    (the island ``old``, None for one without a number; ``new`` None) or ``change`` (``old``
    becomes ``new``; ``old`` None for an island without a number)."""

    kind: str
    cell: Cell
    old: int | None
    new: int | None

    def words(self) -> str:
        place = cell_name(self.cell)
        if self.kind == "add":
            return f"add an island {self.new} at {place}"
        if self.kind == "remove":
            return f"remove the island {'?' if self.old is None else self.old} at {place}"
        if self.old is None:
            return f"give the island at {place} the number {self.new}"
        return f"change the {self.old} at {place} to {self.new}"


@dataclass(frozen=True)
class Fix:
    """What :func:`~hashi_asp.fixing.fix` found.  ``status``: ``fixed``, ``unique`` (nothing to
    fix), ``no fix found`` (proven: no edits of the kinds allowed make it unique),
    ``unsolvable`` or ``unknown`` (no fix found before the time limit or a signal).  ``edits``
    the fix's edits; ``fewest`` whether no fix with fewer edits exists (proven);
    ``lower_bound`` the fewest edits any fix needs, as far as proven; ``stopped``, why the
    search stopped short of a proof (the time limit, a signal), if it did.  ``puzzle`` is the
    fixed puzzle and ``solution`` its only solution, proven unique and checked (for ``unique``:
    the puzzle and its solution; else None).  ``kept`` is the solution kept (keep mode) or the
    first solution found (free mode).  ``keeping``, where keep mode found no fix that keeps
    the solution (by default, when free mode followed; or with the solution to keep given):
    ``impossible`` (proven: no fix keeps it) or ``not found`` (keep mode found none in the time
    it had: no proof); else None (a fix that keeps it, nothing to fix, or free mode asked
    for).

    With alternatives asked for (:mod:`.alternatives`): ``difficulty``, how hard the fixed
    puzzle is (None if not rated in time); ``alternatives``, the fixes offered, the fewest
    edits first, this one first, each with its difficulty; ``band``, the band asked for (only
    fixes that leave the puzzle in it are offered); ``outside``, how many fixes found were
    left out for leaving it in another band."""

    status: Verdict
    edits: tuple[Edit, ...] = ()
    fewest: bool = False
    lower_bound: int = 0
    puzzle: Puzzle | None = None
    solution: Solution | None = None
    kept: Solution | None = None
    free: bool = False
    rounds: int = 0
    seconds: float = 0.0
    keeping: str | None = None
    seen: int = field(default=0, compare=False)  # solutions or moves the master learnt
    stopped: Stop | None = None  # why the search stopped short of a proof (if it did)
    difficulty: Difficulty | None = None
    alternatives: tuple[Fix, ...] = field(default=(), compare=False)
    band: str | None = None
    outside: int = 0

    @property
    def found(self) -> bool:
        """The puzzle has one solution now (fixed, or unique already)."""
        return self.status in (Verdict.FIXED, Verdict.UNIQUE)


@dataclass(frozen=True)
class FoundFix:
    """A fix one stage found: its ``edits``, the fixed ``puzzle`` and its only ``solution``
    (proven by :func:`only_solution`)."""

    edits: tuple[Edit, ...]
    puzzle: Puzzle
    solution: Solution


@dataclass(frozen=True)
class Searched:
    """How a search for the fewest edits ended.  ``status``: ``fixed`` (``best`` is its fix),
    ``no fix found`` (proven: no edit set of the kinds allowed, and of fewer edits than a fix
    known already, will do) or ``unknown`` (stopped first).  ``fewest``: ``best`` has the
    fewest edits (proven); ``lower_bound`` the fewest any fix needs, as far as proven;
    ``rounds`` the master's answers; ``seen`` the solutions or moves it learnt from."""

    status: Verdict
    best: FoundFix | None = None
    fewest: bool = False
    lower_bound: int = 1
    rounds: int = 0
    seen: int = 0

    @property
    def edits(self) -> tuple[Edit, ...]:
        return () if self.best is None else self.best.edits

    def fix(
        self, kept: Solution | None, free: bool, seconds: float, keeping: str | None = None
    ) -> Fix:
        """The :class:`Fix` the search gives, for the solution ``kept`` (or found first, in free
        mode)."""
        best = self.best
        return Fix(
            self.status,
            self.edits,
            self.fewest,
            self.lower_bound,
            None if best is None else best.puzzle,
            None if best is None else best.solution,
            kept,
            free,
            self.rounds,
            seconds,
            keeping,
            self.seen,
        )


def only_solution(puzzle: Puzzle, deadline: Deadline) -> Solution | None:
    """The puzzle's only solution, proven by a fresh solve and passed by the checker; None if
    it has none or several.  Raises :class:`~hashi_asp.stopping.Stopped` at the deadline's
    end, and :class:`FixFault` if the checker refuses the solution the solve found."""
    result = unique(puzzle, time_limit=deadline)
    if result.stopped:
        raise deadline.reached("checking a fix")
    if result.status is not Verdict.UNIQUE:
        return None
    if check(puzzle, result.solutions[0]):
        raise FixFault("internal error: the checker refuses the fixed puzzle's solution")
    return result.solutions[0]
