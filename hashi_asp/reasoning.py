"""Reasoning about all the solutions of a puzzle at once, for puzzle authors.

- :func:`unique`: is there exactly one solution?  If not, two of them and where they differ.
- :func:`count`: how many solutions are there?
- :func:`consequences`: the bridge counts each pair of islands has across all solutions, so
  which bridges every solution has and where solutions differ; given a player's bridges,
  whether they can still be completed and what they force.
- :func:`explain`: why a puzzle has no solution: cheap counting checks, then a minimal set of
  islands whose numbers cannot all be met, from clingo's unsat core.

Each grounds the encoding with :func:`solving.ground` and searches with :func:`solving.search`;
every solution they return has passed the independent checker (:func:`solving.checked`).  Their
``**rules`` are the keyword arguments of :func:`solving.ground`: ``encoding=``, ``additions=``,
``constants=``, ``max_bridges=``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, NamedTuple

import clingo

from .checking import Violation, check
from .puzzle import Bridge, Cell, Puzzle, Solution, bridge, connected_groups
from .solving import Deadline, Result, Search, _statistics, _status, checked, ground, search

Pair = tuple[Cell, Cell]


def neighbour_pairs(puzzle: Puzzle) -> list[Pair]:
    """The pairs of islands that see each other along a row or column with only water between:
    the only pairs a bridge can join."""
    in_rows = list(puzzle.islands)                                  # reading order
    in_columns = sorted(in_rows, key=lambda cell: (cell[1], cell[0]))
    pairs = [(a, b) for a, b in zip(in_rows, in_rows[1:]) if a[0] == b[0]]
    pairs += [(a, b) for a, b in zip(in_columns, in_columns[1:]) if a[1] == b[1]]
    return sorted(pairs)


# ---------------------------------------------------------------------------- uniqueness

class Difference(NamedTuple):
    """A pair of islands with ``first`` bridges in one solution and ``second`` in the other
    (0 for none)."""

    r1: int
    c1: int
    r2: int
    c2: int
    first: int
    second: int


@dataclass
class Uniqueness(Result):
    """A :class:`Result` with at most two solutions and, for two, the pairs where they differ."""

    differences: list[Difference] = field(default_factory=list)


def unique(puzzle: Puzzle, *, time_limit: float | Deadline | None = None, **rules) -> Uniqueness:
    """Decide whether ``puzzle`` has exactly one solution by searching for two.

    ``status`` is ``unique`` (one, search exhausted), ``multiple`` (two found; the search stops
    there, so it stays fast however many there are), ``unsolvable``, or ``solved``/``unknown``
    when the time limit stopped it before a verdict.  Solutions are counted as sets of bridges
    (clingo's projection on the shown atoms), so an encoding with helper choices cannot report
    one solution twice.
    """
    deadline = Deadline.of(time_limit)          # one limit for grounding and search
    grounded = ground(puzzle, arguments=["--models=2", "--project=show"], time_limit=deadline,
                      **rules)
    solutions: list[Solution] = []

    def accept(model: clingo.Model) -> bool:
        solutions.append(checked(grounded, model, len(solutions) + 1))
        return len(solutions) < 2

    outcome = search(grounded.control, accept, time_limit=deadline)
    return Uniqueness(status=_status(len(solutions), outcome.exhausted, 2),
                      exhausted=outcome.exhausted, solutions=solutions,
                      timed_out=outcome.timed_out, interrupted=outcome.interrupted,
                      stats=_statistics(grounded.control, grounded.ground_seconds, outcome.seconds),
                      differences=differences(*solutions) if len(solutions) == 2 else [])


def differences(first: Solution, second: Solution) -> list[Difference]:
    """The pairs of islands whose bridge counts differ between two solutions, in reading order."""
    a, b = first.counts(), second.counts()
    return [Difference(*p, *q, a.get((p, q), 0), b.get((p, q), 0))
            for p, q in sorted(a.keys() | b.keys()) if a.get((p, q)) != b.get((p, q))]


# ---------------------------------------------------------------------------- counting

@dataclass
class Count:
    """How many solutions an enumeration saw; all there are when ``exhausted``, else a lower bound."""

    count: int
    exhausted: bool
    timed_out: bool = False
    interrupted: bool = False
    stats: dict = field(default_factory=dict)

    @property
    def status(self) -> str:
        """As for :func:`solving.solve` with all solutions asked: unique, multiple, unsolvable..."""
        return _status(self.count, self.exhausted, 0)


def count(puzzle: Puzzle, *, time_limit: float | Deadline | None = None, verify: bool = True,
          on_solution: Callable[[int], None] | None = None, **rules) -> Count:
    """Count the solutions by enumerating them all; each set of bridges counts once (clingo's
    projection on the shown atoms).  With ``verify`` (the default) every solution is checked by
    the independent checker, and one that breaks a rule raises ``InvalidAnswer`` instead of
    being counted; that costs about 1.5 ms per solution, far more than clingo takes to find it,
    so ``verify=False`` is for counting millions.  ``on_solution(n)`` is called after the n-th
    solution, e.g. to show progress."""
    deadline = Deadline.of(time_limit)          # one limit for grounding and search
    grounded = ground(puzzle, arguments=["--models=0", "--project=show"], time_limit=deadline,
                      **rules)
    found = 0

    def accept(model: clingo.Model) -> None:
        nonlocal found
        if verify:
            checked(grounded, model, found + 1)
        found += 1
        if on_solution is not None:
            on_solution(found)

    outcome = search(grounded.control, accept, time_limit=deadline)
    return Count(found, outcome.exhausted, outcome.timed_out, outcome.interrupted,
                 _statistics(grounded.control, grounded.ground_seconds, outcome.seconds))


# ---------------------------------------------------------------------------- consequences

# Helper atoms for consequences: the state of each pair of neighbours (its bridge count, 0 for
# none), whose brave consequences are every count a pair takes in some solution; and a player's
# bridge as a lower bound, since a single bridge may still become a double one.
_STATES = """
hashi_asp_state(R1,C1,R2,C2,K) :- bridge(R1,C1,R2,C2,K).
hashi_asp_state(R1,C1,R2,C2,0) :- hashi_asp_pair(R1,C1,R2,C2), not bridge(R1,C1,R2,C2,_).
#show hashi_asp_state/5.
#show bridge/5.
"""
_AT_LEAST = "hashi_asp_at_least(R1,C1,R2,C2,K) :- bridge(R1,C1,R2,C2,J), K = 1..J.\n"

# Rules a player's bridges can break before any search: everything but the island numbers and
# connectivity, which a partial state does not meet yet.
_PARTIAL_OK = {"island-count", "disconnected"}


@dataclass
class Consequences:
    """What all the solutions (those extending ``given``, if any) have in common.

    ``options`` maps each pair of neighbouring islands to the bridge counts it has across those
    solutions (0 = no bridge), so a pair with one option is decided and one with several is
    where solutions differ.  ``status`` is ``unique`` (every pair decided), ``multiple``,
    ``unsolvable`` (no solution, or ``given`` cannot be completed) or ``unknown`` (the time
    limit came first; ``options`` then holds only what was seen, so a pair with two options is
    certainly undecided but one with a single option may not be).
    """

    status: str
    options: dict[Pair, tuple[int, ...]]
    solution: Solution | None = None      # one of the solutions, checked
    given: Solution | None = None
    illegal: list[Violation] = field(default_factory=list)   # given bridges that break the rules
    conflict: list[Bridge] | None = None  # given bridges no solution extends; [] = the puzzle has none
    minimal: bool = False                 # dropping any bridge from ``conflict`` leaves a completable set
    exhausted: bool = False
    timed_out: bool = False
    interrupted: bool = False
    stats: dict = field(default_factory=dict)

    @property
    def cautious(self) -> list[Bridge]:
        """Bridges every solution has: pairs decided with at least one bridge."""
        return [bridge(*pair, k) for pair, (k, *more) in self.options.items() if k and not more]

    @property
    def brave(self) -> list[Bridge]:
        """Bridges some solution has: every pair and count other than 0 in ``options``."""
        return [bridge(*pair, k) for pair, ks in self.options.items() for k in ks if k]

    @property
    def empty(self) -> list[Pair]:
        """Pairs of neighbours that no solution joins."""
        return [pair for pair, ks in self.options.items() if ks == (0,)]

    @property
    def undecided(self) -> dict[Pair, tuple[int, ...]]:
        """Pairs whose bridge count differs between solutions, with the counts they take."""
        return {pair: ks for pair, ks in self.options.items() if len(ks) > 1}

    @property
    def forced(self) -> list[Bridge]:
        """Bridges every solution has beyond ``given``: for each pair, the fewest bridges any
        solution has there, where that is more than ``given`` has (exact unless undecided)."""
        have = self.given.counts() if self.given else {}
        return [bridge(*pair, ks[0]) for pair, ks in self.options.items()
                if ks[0] > have.get(pair, 0)]


def consequences(puzzle: Puzzle, given: Solution | None = None, *,
                 time_limit: float | Deadline | None = None, **rules) -> Consequences:
    """The bridge counts each pair of neighbours has across all solutions (clingo's brave
    consequences over the pairs' states; the cautious ones follow), optionally only solutions
    that extend ``given``: a player's bridges, each a lower bound (a single bridge may become
    a double).  If ``given`` breaks a rule on its own (diagonal, crossing, over an island,
    count out of range...) the search is skipped and ``illegal`` lists why; if it cannot be
    completed, ``conflict`` is a minimal set of its bridges that no solution extends."""
    clock = Deadline.of(time_limit)
    pairs = "".join(f"hashi_asp_pair({r1},{c1},{r2},{c2}).\n"
                    for (r1, c1), (r2, c2) in neighbour_pairs(puzzle))
    grounded = ground(puzzle, arguments=["--enum-mode=brave", "--models=0"],
                      program=pairs + _STATES + (_AT_LEAST if given is not None else ""),
                      time_limit=clock, **rules)
    control = grounded.control
    if given is not None:
        illegal = [v for v in check(puzzle, given, max_bridges=grounded.max_bridges)
                   if v.rule not in _PARTIAL_OK]
        if illegal:
            return Consequences("unsolvable", {}, given=given, illegal=illegal, exhausted=True)
    drawn = _given_literals(control, given)
    if None in drawn:                      # a bridge the encoding has no atom for cannot be built
        return Consequences("unsolvable", {}, given=given, conflict=[drawn[None]], minimal=True,
                            exhausted=True)

    witness: list[Solution] = []
    union: list[clingo.Symbol] = []

    def accept(model: clingo.Model) -> None:
        if not witness:                    # the first brave model is a whole answer set
            witness.append(checked(grounded, model, 1))
        union[:] = model.symbols(shown=True)

    outcome = search(control, accept, time_limit=clock, assumptions=list(drawn))
    options = _options(union)
    stats = _statistics(control, grounded.ground_seconds, outcome.seconds)
    common = dict(given=given, exhausted=outcome.exhausted, timed_out=outcome.timed_out,
                  interrupted=outcome.interrupted, stats=stats)
    if witness and outcome.exhausted:
        status = "multiple" if any(len(ks) > 1 for ks in options.values()) else "unique"
        return Consequences(status, options, witness[0], **common)
    if witness or not outcome.exhausted:
        return Consequences("unknown", options, witness[0] if witness else None, **common)
    # No solution extends the given bridges: find a minimal set of them to blame.
    core, minimal, cut = _minimal_core(control, _within(outcome.core, list(drawn)), clock)
    if cut is not None:
        common.update(timed_out=cut.timed_out, interrupted=cut.interrupted)
    return Consequences("unsolvable", {}, conflict=[drawn[literal] for literal in core],
                        minimal=minimal, **common)


def _given_literals(control: clingo.Control, given: Solution | None) -> dict:
    """Each given bridge's "at least this many" atom as a program literal (key None for a
    bridge the encoding has no atom for)."""
    literals = {}
    for b in given.bridges if given is not None else ():
        atom = control.symbolic_atoms[clingo.Function(
            "hashi_asp_at_least", [clingo.Number(v) for v in b])]
        literals[atom.literal if atom is not None else None] = b
    return literals


def _options(symbols: list[clingo.Symbol]) -> dict[Pair, tuple[int, ...]]:
    options: dict[Pair, set[int]] = {}
    for symbol in symbols:
        if symbol.name == "hashi_asp_state":
            r1, c1, r2, c2, k = (a.number for a in symbol.arguments)
            options.setdefault(((r1, c1), (r2, c2)), set()).add(k)
    return {pair: tuple(sorted(ks)) for pair, ks in sorted(options.items())}


# ---------------------------------------------------------------------------- explanations

@dataclass
class Explanation:
    """Why a puzzle has no solution.

    ``checks`` are counting conditions every solvable puzzle meets that this one fails (found
    without search).  ``core`` is a set of islands whose numbers cannot all be met together,
    whatever the other islands' numbers: ``[]`` when even with every number ignored no set of
    bridges connects the islands, ``None`` when not found (solvable, or out of time).  It is
    ``minimal`` when dropping any one island from it leaves numbers that can be met.
    ``solvable`` is False when proven unsolvable, True when a solution exists after all, None
    when the time limit came first.
    """

    solvable: bool | None
    checks: list[Violation] = field(default_factory=list)
    core: list[Cell] | None = None
    minimal: bool = False
    timed_out: bool = False
    interrupted: bool = False

    def to_json(self, puzzle: Puzzle) -> dict:
        return {"checks": [violation_json(v) for v in self.checks],
                "core": None if self.core is None
                else [[r, c, puzzle.islands[(r, c)]] for r, c in self.core],
                "minimal": self.minimal,
                "timed_out": self.timed_out}


def explain(puzzle: Puzzle, *, time_limit: float | Deadline | None = None, **rules) -> Explanation:
    """Why ``puzzle`` has no solution: :func:`necessary_checks`, then a minimal set of islands
    whose numbers cannot all be met together.

    The encoding's hook ``relax(R,C)`` switches off the number of island (R,C); each island
    gets an external ``relax`` atom assumed false, clingo's unsat core names the islands whose
    numbers it needed, and deletion shrinks that to a minimal set (one search per island in it,
    each with the other numbers free).  ``time_limit`` bounds the searches together.
    """
    clock = Deadline.of(time_limit)
    grounded = ground(puzzle, arguments=["--models=1"],
                      program="#external relax(R,C) : island(R,C,_).\n", time_limit=clock, **rules)
    checks = necessary_checks(puzzle, grounded.max_bridges)
    control = grounded.control
    numbers = {}                                   # "island (R,C) keeps its number" -> (R,C)
    for atom in control.symbolic_atoms.by_signature("relax", 2):
        control.assign_external(atom.symbol, None)    # free (number ignored) unless assumed
        numbers[-atom.literal] = tuple(a.number for a in atom.symbol.arguments)
    outcome = _attempt(control, list(numbers), clock)
    if not outcome.exhausted:
        solvable = None if outcome.timed_out or outcome.interrupted else True
        return Explanation(solvable, checks, timed_out=outcome.timed_out,
                           interrupted=outcome.interrupted)
    core, minimal, cut = _minimal_core(control, _within(outcome.core, list(numbers)), clock)
    return Explanation(False, checks, sorted(numbers[literal] for literal in core), minimal,
                       timed_out=cut is not None and cut.timed_out,
                       interrupted=cut is not None and cut.interrupted)


def necessary_checks(puzzle: Puzzle, max_bridges: int = 2) -> list[Violation]:
    """Counting conditions every solvable puzzle meets, checked without search.  Each failure
    is a :class:`Violation` naming the islands involved.  Passing them all proves nothing."""
    islands = puzzle.islands
    sight: dict[Cell, list[Cell]] = {cell: [] for cell in islands}
    for a, b in neighbour_pairs(puzzle):
        sight[a].append(b)
        sight[b].append(a)
    # An island without a number (None, in variants) needs at least one bridge.
    numbered = {cell: n for cell, n in islands.items() if n is not None}
    failed = []
    total = sum(numbered.values())
    if total % 2 and len(numbered) == len(islands):
        failed.append(Violation("odd-total", f"the island numbers add up to {total}, an odd "
                                             "number, but every bridge adds 2 to the total"))
    for cell in islands:
        if not sight[cell]:
            failed.append(Violation("no-neighbour", f"island {_cell(cell)} needs "
                                    f"{numbered.get(cell, 'at least 1')} bridge(s) but no other "
                                    "island lies in its row or column", (cell,)))
    for cell, number in numbered.items():
        # A neighbour takes at most max_bridges from it, and no more than its own number.
        room = sum(min(max_bridges, numbered.get(other, max_bridges)) for other in sight[cell])
        if sight[cell] and number > room:
            failed.append(Violation("too-few-neighbours", f"island {_cell(cell)} needs {number} "
                                    f"bridges but its {len(sight[cell])} neighbour(s) can take at "
                                    f"most {room}: " + ", ".join(
                                        f"{_cell(o)} {islands[o] or '?'}" for o in sight[cell]),
                                    (cell, *sight[cell])))
    if len(islands) > 2:
        for cell, number in numbered.items():
            # Its only neighbour takes all its bridges; with the same number, that neighbour has
            # none left for anyone else, and the two are cut off.
            other = sight[cell][0] if len(sight[cell]) == 1 else None
            if other is not None and numbered.get(other) == number <= max_bridges \
                    and not (sight[other] == [cell] and other < cell):     # name a pair once
                failed.append(Violation("closed-pair", f"islands {_cell(cell)} and {_cell(other)} "
                                        f"would be cut off from the rest: {_cell(other)} is the "
                                        f"only neighbour of {_cell(cell)}, so it takes all "
                                        f"{number} of its bridges, and needs exactly {number}",
                                        (cell, other)))
    groups = connected_groups(sight, sight.__getitem__)
    if len(groups) > 1:
        smallest = min(groups, key=len)
        failed.append(Violation("separated", f"the islands fall into {len(groups)} groups that "
                                "no bridge can join; the smallest: " +
                                ", ".join(map(_cell, smallest)), tuple(smallest)))
    return failed


# ---------------------------------------------------------------------------- unsat cores

def _attempt(control: clingo.Control, assumptions: list[int], clock: Deadline) -> Search:
    """Search for one model under the assumptions: ``exhausted`` means there is none."""
    return search(control, lambda model: False, time_limit=clock, assumptions=assumptions)


def _within(core: list[int] | None, assumptions: list[int]) -> list[int]:
    """clingo's core in the assumptions' order, or all the assumptions if it is not a subset."""
    if core is None or not set(core) <= set(assumptions):
        return assumptions
    blamed = set(core)
    return [literal for literal in assumptions if literal in blamed]


def _minimal_core(control: clingo.Control, core: list[int],
                  clock: Deadline) -> tuple[list[int], bool, Search | None]:
    """Shrink a set of assumptions with no model to a minimal one, by deletion: drop each in
    turn and keep it out if the rest still has no model (then continue from clingo's core of
    the rest, often smaller).  An assumption whose removal lets a model appear stays, and stays
    needed in every subset, so one pass proves the result minimal.  Returns the core, whether
    it is proven minimal, and the search the clock cut short (None if none was)."""
    kept, i = list(core), 0
    while i < len(kept):
        trial = kept[:i] + kept[i + 1:]
        outcome = _attempt(control, trial, clock)
        if outcome.timed_out or outcome.interrupted:
            return kept, False, outcome
        if outcome.exhausted:
            kept = _within(outcome.core, trial)
        else:
            i += 1
    return kept, True, None


def _cell(cell: Cell) -> str:
    return f"({cell[0]}, {cell[1]})"


def violation_json(violation: Violation) -> dict:
    """A broken rule as JSON: its rule name, message and cells."""
    return {"rule": violation.rule, "message": violation.message,
            "cells": [list(cell) for cell in violation.cells]}
