"""Finding solutions: :func:`solve` (the first, or all), :func:`unique` (one, or two and where
they differ: :func:`differences`, and the smallest :func:`region` of them), :func:`count` (how
many).

All three are one enumeration: ground the puzzle with its program, search, and take each answer
set as it comes, checked by the independent checker before it is kept, counted or passed on.
An answer that breaks a rule raises :class:`~hashi_asp.asp.interface.InvalidAnswer` instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from .asp.enumeration import enumerate_solutions
from .asp.interface import Program
from .graphs import connected_groups
from .puzzle import Cell, Pair, Puzzle, Solution
from .status import Stop, Verdict
from .stopping import Deadline

if TYPE_CHECKING:
    from .reasoning import Explanation


@dataclass
class Result:
    """What a search found.

    ``status`` is ``solved`` (a solution; uniqueness not asked or not decided), ``unique``,
    ``multiple``, ``unsolvable`` or ``unknown`` (stopped before any verdict).  ``exhausted`` says
    the whole search space was explored, so the solutions found are all there are; else
    ``stopped`` may say why it ended early (:class:`~hashi_asp.stopping.Stop`: the time limit,
    a signal).  ``count`` is how many were found; ``solutions`` holds them (none for
    :func:`count`, which does not keep them).  ``differences`` (from :func:`unique`) are the
    pairs where the two solutions found differ.  ``stats``: grounding and search seconds,
    clingo's choices and conflicts.  ``explanation``: why there is no solution, when asked for
    and the verdict is unsolvable.
    """

    status: Verdict
    exhausted: bool
    solutions: list[Solution]
    count: int
    stopped: Stop | None = None
    stats: dict = field(default_factory=dict)
    differences: list[Difference] = field(default_factory=list)
    explanation: Explanation | None = None
    puzzle: Puzzle | None = field(default=None, repr=False)  # the puzzle searched

    @property
    def timed_out(self) -> bool:
        """The time limit ended the search (the ``timed_out`` of its documents)."""
        return self.stopped is Stop.TIME

    def _repr_svg_(self) -> str | None:
        """A Jupyter notebook shows a result as the first solution's picture, with the pairs
        where two solutions differ highlighted (the puzzle alone when there is none)."""
        if self.puzzle is None:
            return None
        from .drawing import svg

        first = self.solutions[0] if self.solutions else None
        differing = [d.pair for d in self.differences]
        return svg(self.puzzle, first, highlight_bridges=differing)


class Difference(NamedTuple):
    """A pair of islands with ``first`` bridges in one solution and ``second`` in the other
    (0 for none)."""

    r1: int
    c1: int
    r2: int
    c2: int
    first: int
    second: int

    @property
    def pair(self) -> Pair:
        return (self.r1, self.c1), (self.r2, self.c2)


def solve(
    puzzle: Puzzle,
    models: int = 1,
    *,
    program: Program = Program(),
    time_limit: float | Deadline | None = None,
    on_solution: Callable[[Solution], None] | None = None,
    explained: bool = False,
) -> Result:
    """Find up to ``models`` solutions (0 = all) under the puzzle's rules, each checked before it
    is kept or passed to ``on_solution`` (called as each is found).  ``time_limit`` (seconds, or
    a :class:`~hashi_asp.stopping.Deadline` shared with other steps) counts from the start,
    grounding included, and covers the explanation asked for with ``explained``.  Raises
    :class:`~hashi_asp.asp.interface.EncodingError` if the rules do not load and
    :class:`~hashi_asp.asp.interface.InvalidAnswer` if an answer breaks them."""
    deadline = Deadline.of(time_limit)
    result = _enumerate(puzzle, models, program, deadline, keep=True, on_solution=on_solution)
    return _explain(result, puzzle, program, deadline) if explained else result


def unique(
    puzzle: Puzzle,
    *,
    program: Program = Program(),
    time_limit: float | Deadline | None = None,
    explained: bool = False,
) -> Result:
    """Decide whether ``puzzle`` has exactly one solution by searching for two.

    ``status`` is ``unique`` (one, search exhausted), ``multiple`` (two found; the search stops
    there, so it stays fast however many there are), ``unsolvable``, or ``solved``/``unknown``
    when the time limit stopped it before a verdict; for two, ``differences`` lists the pairs
    where they differ; with ``explained``, for none, ``explanation`` says why."""
    deadline = Deadline.of(time_limit)
    result = _enumerate(puzzle, 2, program, deadline, keep=True)
    if len(result.solutions) == 2:
        result.differences = differences(*result.solutions)
    return _explain(result, puzzle, program, deadline) if explained else result


def _explain(result: Result, puzzle: Puzzle, program: Program, deadline: Deadline) -> Result:
    """The result with why there is no solution, when the verdict is unsolvable."""
    if result.status is Verdict.UNSOLVABLE:
        from .reasoning import explain  # only a puzzle without a solution needs it

        result.explanation = explain(puzzle, program=program, time_limit=deadline)
    return result


def count(
    puzzle: Puzzle,
    *,
    program: Program = Program(),
    time_limit: float | Deadline | None = None,
    verify: bool = True,
    on_solution: Callable[[int], None] | None = None,
) -> Result:
    """Count the solutions by enumerating them all, keeping none.  With ``verify`` (the default)
    each is checked as :func:`solve` checks it; that costs about 1.5 ms per solution, far more
    than clingo takes to find it, so ``verify=False`` is for counting millions.
    ``on_solution(n)`` is called after the n-th solution, e.g. to show progress."""
    return _enumerate(
        puzzle, 0, program, time_limit, keep=False, verify=verify, on_count=on_solution
    )


def differences(first: Solution, second: Solution) -> list[Difference]:
    """The pairs of islands whose bridge counts differ between two solutions, in reading order."""
    a, b = first.counts(), second.counts()
    return [
        Difference(*p, *q, a.get((p, q), 0), b.get((p, q), 0))
        for p, q in sorted(a.keys() | b.keys())
        if a.get((p, q)) != b.get((p, q))
    ]


def region(found: list[Difference]) -> list[Difference]:
    """The smallest region where two solutions differ: the differing pairs (``found``, from
    :func:`differences`) fall into connected groups, two pairs being connected when they share an
    island; the region is the group with the fewest pairs (of equals, the first in reading order).
    Inside a group the bridges change together (every island keeps its number, so a bridge lost
    at an island is made up at the same island), which makes a group one place where the puzzle
    leaves a choice open.  Empty when nothing differs."""
    at: dict[Cell, list[int]] = {}
    for i, difference in enumerate(found):
        for cell in difference.pair:
            at.setdefault(cell, []).append(i)
    groups = connected_groups(
        range(len(found)), lambda i: (j for cell in found[i].pair for j in at[cell])
    )
    return [found[i] for i in min(groups, key=len, default=[])]


def status_of(found: int, exhausted: bool, models: int) -> Verdict:
    """The verdict on ``found`` solutions when ``models`` were asked for (0 = all)."""
    if found == 0:
        return Verdict.UNSOLVABLE if exhausted else Verdict.UNKNOWN
    if models == 1:
        return Verdict.SOLVED
    if found >= 2:
        return Verdict.MULTIPLE
    return Verdict.UNIQUE if exhausted else Verdict.SOLVED


def _enumerate(
    puzzle: Puzzle,
    models: int,
    program: Program,
    time_limit: float | Deadline | None,
    *,
    keep: bool,
    verify: bool = True,
    on_solution: Callable[[Solution], None] | None = None,
    on_count: Callable[[int], None] | None = None,
) -> Result:
    """Solve, unique, count and bench as a :class:`Result`: the enumeration of
    :func:`~hashi_asp.asp.enumeration.enumerate_solutions` (or a race of them)."""
    deadline = Deadline.of(time_limit)  # one limit for grounding and search
    if program.connectivity == "race":
        return _raced(puzzle, models, program, deadline, keep, verify, on_solution, on_count)
    found = enumerate_solutions(
        puzzle,
        program,
        models,
        deadline,
        keep=keep,
        verify=verify,
        on_solution=on_solution,
        on_count=on_count,
    )
    search = found.search
    return Result(
        status_of(found.found, search.exhausted, models),
        search.exhausted,
        found.solutions,
        found.found,
        search.stopped,
        found.stats,
        puzzle=puzzle,
    )


def _raced(
    puzzle: Puzzle,
    models: int,
    program: Program,
    deadline: Deadline,
    keep: bool,
    verify: bool,
    on_solution: Callable[[Solution], None] | None,
    on_count: Callable[[int], None] | None,
) -> Result:
    """:func:`_enumerate` as a race of variants (:mod:`.asp.portfolio`): the winner's answers
    are passed on once it has won, not as they come."""
    from .asp.portfolio import race

    wanted = keep or on_solution is not None
    raced = race(puzzle, models, program, deadline, keep=wanted, verify=verify)
    outcome = raced.outcome
    for solution in outcome.solutions:
        if on_solution is not None:
            on_solution(solution)
    if on_count is not None:
        for number in range(1, outcome.found + 1):
            on_count(number)
    return Result(
        status_of(outcome.found, outcome.exhausted, models),
        outcome.exhausted,
        outcome.solutions if keep else [],
        outcome.found,
        raced.stopped,
        outcome.stats,
        puzzle=puzzle,
    )
