"""Enumeration: how every solve, unique, count, race worker and walkthrough takes a puzzle's
answers, and the one place an enumeration resolves ``auto``.

- :func:`plan` resolves the program's connectivity for an enumeration of a number of answers:
  the formulation the program names, or the one :func:`hashi_asp.asp.auto` picks, but for a
  first solution of a giant (:func:`giant`) the neighbourhood search, with the complete search
  ``auto`` picks after it (a :class:`Plan`);
- :func:`enumerate_solutions` runs the plan: the neighbourhood search
  (:mod:`.neighbourhood`), then the complete search where it ends finding none before the
  deadline, or the complete search alone, each answer checked as it comes.

The race (:mod:`.portfolio`) takes its first variant from :func:`plan` and runs each variant
through :func:`enumerate_solutions` in its worker.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import clingo

from ..puzzle import Puzzle, Solution
from ..stopping import Deadline, Stopped

if TYPE_CHECKING:
    from .sweep import Features
from . import LNS, MODES
from .control import Enumeration, ground
from .interface import EncodingError, Program, chosen

GIANT = 1000
"""Islands from which ``auto`` may take the neighbourhood search for a first solution: below,
the complete search of the whole puzzle is quick whatever the puzzle (generated puzzles of
1 000 islands, every beta and density, docs/benchmarks.md, "The giants: families": reach 0.2 to
0.8 s of CPU; the neighbourhood search without doubles 0.3 to 0.4 s against reach's 0.5 to
0.8 s)."""

HEDGE: float | None = None
"""Seconds per island the first search of a giant may take before ``auto`` hedges
(:func:`plan`): the other search (the sweep after reach, reach after the sweep) takes over with
the time left, so that a family the rule misjudges would cost at most the budget more than its
best strategy.  None: no hedge, as the study found no family the rule misjudges by more than
1.65x (docs/benchmarks.md, "The giants: families") and two where a budget would hurt: at
10 000 islands with a quarter double, crowded (0.31 per cell), the sweep, the best, took
39.7 s of CPU where reach found none in 90 s; sparse (0.14 per cell), reach, the best, took
14.4 s where the sweep found none in 30 s.  A budget short of those hands a solvable run to a
search that does not answer; one past them changes no family measured."""


def giant(puzzle: Puzzle) -> str | None:
    """How ``auto`` searches a first solution of ``puzzle`` (:func:`choose`, on its features);
    None for a puzzle of fewer than :data:`GIANT` islands or without loops."""
    if len(puzzle.islands) < GIANT or puzzle.rules.no_loops:
        return None
    from .sweep import Features  # (here and below: a small puzzle's start-up imports neither)

    return choose(Features.of(puzzle))


def choose(seen: Features) -> str | None:
    """The first search ``auto`` takes for a giant of features ``seen``: ``"rounds"`` (the
    neighbourhood search mending the whole puzzle's candidate) where no number forces a double
    (:data:`~hashi_asp.asp.sweep.FORCED`: generated puzzles of 5 000 and 10 000 islands
    without doubles, every density, alpha 0.1 and 0.3, 1.6 to 6.6 s of CPU, where reach found
    none in 30 s and the sweep took 10 to 13 s or found none); ``"sweep"`` (its first
    candidate swept) where :func:`~hashi_asp.asp.sweep.swept` says so; else None, the
    complete search (reach, the quickest on every family with half the bridges double or
    more, and on the families with a quarter double that are not crowded)."""
    from .sweep import swept

    if not seen.doubles:
        return "rounds"
    return "sweep" if swept(seen) else None


@dataclass(frozen=True)
class Plan:
    """How an enumeration searches, its connectivity resolved: ``first``, the program with the
    formulation it names or the one ``auto`` picks; ``then``, where ``auto`` may need a second
    search, the one run when the first ends finding none before the deadline (a search that is
    not complete found none, or the first's ``budget`` of seconds ran out): the complete search
    after the neighbourhood search, the sweep after a budgeted complete search (which then has
    the time left to prove there is none), None for a formulation named, searched alone."""

    first: Program
    then: Program | None = None
    budget: float | None = None

    @property
    def complete(self) -> Program:
        """The plan's complete search (for ``auto``, the one it picks)."""
        return next(p for p in (self.then, self.first) if p and p.formulation.complete)

    @property
    def searches(self) -> list[tuple[Program, float | None]]:
        """The searches in turn, each with its budget of seconds (None: the time left): the
        first, then ``then``, and the complete search again after a ``then`` that is not
        complete."""
        steps = [(self.first, self.budget)]
        if self.then is not None:
            steps.append((self.then, None))
            if not self.then.formulation.complete:
                steps.append((self.first, None))
        return steps


def plan(program: Program, puzzle: Puzzle, models: int) -> Plan:
    """The searches an enumeration of ``models`` answers (0: all) of ``puzzle`` runs, ``auto``
    (or ``race``, where one search is run) resolved: the catalogue's rule
    (:func:`hashi_asp.asp.auto`), but for a first solution (with the bundled rules) as
    :func:`giant` says: the rounds, then the complete search; the sweep, then the complete
    search; and with a :data:`HEDGE`, the sweep for at most that many seconds an island, or
    where the complete search is taken for a giant the sweep suits, that search for that long,
    then the sweep."""
    if program.connectivity not in MODES:
        return Plan(program)
    complete = chosen(program, puzzle)
    if models != 1 or program.encoding is not None:
        return Plan(complete)
    first = giant(puzzle)
    budget = None if HEDGE is None else HEDGE * len(puzzle.islands)
    if first is None and (budget is None or not hedged(puzzle)):
        return Plan(complete)
    from .sweep import FORCE, SIDE, Features

    side = Features.of(puzzle).side
    constants = {FORCE: "no" if first == "rounds" else "yes", SIDE: side}
    lns = replace(
        program, connectivity=LNS, variants=(), constants={**constants, **program.constants}
    )
    if first == "rounds":
        return Plan(lns, complete)
    if first == "sweep":
        return Plan(lns, complete, budget)
    return Plan(complete, lns, budget)


def hedged(puzzle: Puzzle) -> bool:
    """Whether ``auto``'s complete search of a giant whose numbers force doubles hands over to
    the sweep after its budget (:data:`HEDGE`): where the sweep could be taken but for the
    crowding (:data:`~hashi_asp.asp.sweep.CROWDED`), so that a family the bound misjudges
    costs at most the budget more than the sweep."""
    if len(puzzle.islands) < GIANT or puzzle.rules.no_loops:
        return False
    from .sweep import Features, sweepable

    return sweepable(Features.of(puzzle))


def enumerate_solutions(
    puzzle: Puzzle,
    program: Program,
    models: int,
    deadline: Deadline,
    *,
    keep: bool,
    verify: bool = True,
    on_solution: Callable[[Solution], None] | None = None,
    on_count: Callable[[int], None] | None = None,
) -> Enumeration:
    """The one enumeration behind solve, unique, count, bench, walkthroughs and each variant of a
    race: the searches of :func:`plan` in turn, taking up to ``models`` answers (0 = all), each
    checked (unless not ``verify``), kept if ``keep``, handed to ``on_solution`` and counted to
    ``on_count`` as it comes.  A search hands over to the next where it ends finding none
    before the deadline without proving there is none (its budget spent, or a search that is
    not complete); the last one's outcome is the enumeration's."""
    steps = plan(program, puzzle, models).searches
    for turn, (searched, budget) in enumerate(steps):
        part = deadline if budget is None else deadline.at_most(budget)
        last = turn == len(steps) - 1
        try:
            if searched.formulation.complete:
                found = _complete(
                    puzzle, searched, models, part, keep, verify, on_solution, on_count
                )
            else:
                found = _first(puzzle, searched, models, part, on_solution, on_count)
        except Stopped:
            if last or deadline.stopped is not None:
                raise
            continue  # (its budget ran out while grounding)
        proven = searched.formulation.complete and found.search.stopped is None
        if found.found or last or proven or deadline.stopped is not None:
            return found
    raise AssertionError("unreachable: the last search's outcome is returned")


def _first(
    puzzle: Puzzle,
    program: Program,
    models: int,
    deadline: Deadline,
    on_solution: Callable[[Solution], None] | None,
    on_count: Callable[[int], None] | None,
) -> Enumeration:
    """The enumeration of a search that finds a first solution or none, never all: asked for
    more, it is refused, as it could neither count nor decide uniqueness."""
    if models != 1:
        raise EncodingError(
            f"--connectivity {program.connectivity} finds a first solution only; counting and "
            "uniqueness need a complete search (auto, race, reach, tree, flow, lazy)"
        )
    from .neighbourhood import first_solution

    found = first_solution(puzzle, program, deadline, on_solution=on_solution)
    if on_count is not None and found.found:
        on_count(1)
    return found


def _complete(
    puzzle: Puzzle,
    program: Program,
    models: int,
    deadline: Deadline,
    keep: bool,
    verify: bool,
    on_solution: Callable[[Solution], None] | None,
    on_count: Callable[[int], None] | None,
) -> Enumeration:
    """The complete search of ``program`` (its formulation resolved): the puzzle grounded and
    searched for up to ``models`` answers, each taken as :func:`enumerate_solutions` says."""
    # Solutions are sets of bridges: a program that chooses more than them must not list one
    # twice, so a user's rules and the formulations that say so are enumerated projected onto
    # the shown atoms; the others save projection's cost (3 % at n=400).
    project = models != 1 and program.projected
    grounded = ground(puzzle, program, models=models, project=project, deadline=deadline)
    solutions: list[Solution] = []
    found = 0

    def accept(model: clingo.Model) -> bool:
        nonlocal found
        if verify or keep or on_solution is not None:
            solution = grounded.solution(model, found + 1)
            found += 1
            if keep:
                solutions.append(solution)
            if on_solution is not None:
                on_solution(solution)
        else:
            found += 1
        if on_count is not None:
            on_count(found)
        return models == 0 or found < models

    search = grounded.search(accept, deadline=deadline)
    return Enumeration(found, solutions, search, grounded.statistics(search))
