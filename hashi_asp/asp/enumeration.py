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

import clingo

from ..puzzle import Puzzle, Solution
from ..stopping import Deadline
from . import LNS, MODES, few_doubles
from .control import Enumeration, ground
from .interface import EncodingError, Program, chosen

GIANT = 1000
"""Islands from which ``auto`` takes the neighbourhood search (:data:`~hashi_asp.asp.LNS`) for a
first solution of a puzzle without double bridges (up to :data:`NO_DOUBLES` bridges per island):
measured with ``study`` on generated puzzles (docs/benchmarks.md, "The giants"), it wins there
(1 000 islands: 0.12-0.13 s against the tree's 0.33-0.45 s; 5 000: 1.1-1.2 s against none in
60 s), and loses to reach on puzzles with doubles (2 000 islands, half of them double:
0.42-0.44 s against 0.31-0.40 s; one in 25 double: 6.0 s against 2.4 s).  The complete search
still gives counts, uniqueness and proofs, and takes over where the neighbourhood search ends
finding none."""

NO_DOUBLES = 1.12
"""Bridges per island up to which a puzzle counts as without doubles for :data:`GIANT` (1.1:
the generator's default alpha and no double)."""

LARGE_GIANT = 5000
"""Islands from which ``auto`` takes the neighbourhood search for a first solution of a puzzle
with few double bridges (:data:`~hashi_asp.asp.FEW_DOUBLES`): 5 000 islands, one bridge in 25
double: 20.6 s against the tree's 59 s."""

SWEPT_DOUBLES = 1.72
"""Bridges per island up to which ``auto`` sweeps a giant's first candidate
(:func:`~hashi_asp.asp.sweep.swept`): with more, most bridges are double, the whole puzzle's
search is quick and the sweep's windows, each grounded afresh, cost several times as much
(docs/benchmarks.md, "The giants"; CPU seconds on a loaded machine, generated puzzles of
10 000 islands, reach against the sweep: three quarters double, about 1.92 bridges per island,
2.5 and 2.6 s against 10.7 and 7.8 s; five eighths, 1.78: 2.8 and 2.8 s against 10.2 and
12.1 s; half, 1.65: 5.2 and 5.8 s against 13.3 and 38.9 s, where another puzzle of half took
26.4 s from the whole puzzle and 13.5 s swept, so that half double still sweeps; 100 000
islands, three quarters double: 38 s against 346 s)."""


def giant(puzzle: Puzzle) -> bool:
    """Whether ``auto`` searches a first solution of ``puzzle`` by neighbourhoods: loops
    allowed, and at least :data:`GIANT` islands without doubles, :data:`LARGE_GIANT` with few,
    or a puzzle whose first candidate the search sweeps (:func:`~hashi_asp.asp.sweep.swept`:
    10 000 islands where some number needs a double bridge; a quarter of the bridges double:
    7.9 to 18.3 s on ten puzzles, against reach's 25.8 to 48.7 s on five of them) with up to
    :data:`SWEPT_DOUBLES` bridges per island."""
    islands = len(puzzle.islands)
    if islands < GIANT or puzzle.rules.no_loops:
        return False
    from .sweep import swept  # (here and below: a small puzzle's start-up imports neither search)

    return (
        few_doubles(puzzle, NO_DOUBLES)
        or (islands >= LARGE_GIANT and few_doubles(puzzle))
        or (few_doubles(puzzle, SWEPT_DOUBLES) and swept(puzzle))
    )


@dataclass(frozen=True)
class Plan:
    """How an enumeration searches, its connectivity resolved: ``first``, the program with the
    formulation it names or the one ``auto`` picks; ``then``, where ``auto`` picked a search
    that is not complete (the neighbourhood search), the complete search ``auto`` picks, run
    when the first ends finding none before its deadline, so that ``auto`` still proves there
    is none (None otherwise: a formulation named is searched alone)."""

    first: Program
    then: Program | None = None

    @property
    def complete(self) -> Program:
        """The plan's last search: for ``auto``, the complete search it picks."""
        return self.then or self.first


def plan(program: Program, puzzle: Puzzle, models: int) -> Plan:
    """The searches an enumeration of ``models`` answers (0: all) of ``puzzle`` runs, ``auto``
    (or ``race``, where one search is run) resolved: the catalogue's rule
    (:func:`hashi_asp.asp.auto`), but for a first solution of a :func:`giant` (with the bundled
    rules) the neighbourhood search first."""
    if program.connectivity not in MODES:
        return Plan(program)
    complete = chosen(program, puzzle)
    if models == 1 and program.encoding is None and giant(puzzle):
        return Plan(replace(program, connectivity=LNS, variants=()), complete)
    return Plan(complete)


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
    race: the searches of :func:`plan`, taking up to ``models`` answers (0 = all), each checked
    (unless not ``verify``), kept if ``keep``, handed to ``on_solution`` and counted to
    ``on_count`` as it comes."""
    planned = plan(program, puzzle, models)
    searched = planned.first
    if not searched.formulation.complete:
        found = _first(puzzle, searched, models, deadline, on_solution, on_count)
        if found.found or found.search.stopped or planned.then is None:
            return found
        searched = planned.then
    return _complete(puzzle, searched, models, deadline, keep, verify, on_solution, on_count)


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
