"""Reasoning about all the solutions of a puzzle at once, for puzzle authors and players.

- :func:`hint`: the bridge counts each pair of islands takes across all solutions, so which
  bridges every solution has and where solutions differ; given a player's bridges, whether they
  can still be completed, what they force, or a minimal set of them no solution has together.
- :func:`explain`: why a puzzle has no solution: counting checks that need no search
  (:func:`necessary_checks`), then a minimal set of islands whose numbers cannot all be met.

Both ground the puzzle with the program and a helper encoding (``consequences.lp``,
``relax.lp``) and shrink unsatisfiable cores with :meth:`Grounded.minimal_core`; every solution
they return has passed the independent checker.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .asp import interface
from .asp.control import Grounded, ground, within
from .asp.interface import Program
from .asp.predicates import AT_LEAST, CONSEQUENCES_LP, GIVEN_PART, RELAX, RELAX_LP
from .checking import Violation, check
from .graphs import connected_groups
from .puzzle import Bridge, Cell, Pair, Puzzle, Solution, bridge, cell_name
from .status import Stop, Verdict
from .stopping import Deadline, Stopped

if TYPE_CHECKING:
    import clingo

# Rules a player's bridges can break before any search: everything but the island numbers and
# connectivity, which a partial state does not meet yet.
_PARTIAL_OK = {"island-count", "disconnected"}


# ---------------------------------------------------------------------------- hint


@dataclass
class Hint:
    """What all the solutions (those extending ``given``, if any) have in common.

    ``options`` maps each pair of neighbouring islands to the bridge counts it has across those
    solutions (0 = no bridge), so a pair with one option is decided and one with several is
    where solutions differ.  ``status`` is ``unique`` (every pair decided), ``multiple``,
    ``unsolvable`` (no solution, or ``given`` cannot be completed) or ``unknown`` (the time
    limit came first; ``options`` then holds only what was seen, so a pair with two options is
    certainly undecided but one with a single option may not be).
    """

    status: Verdict
    options: dict[Pair, tuple[int, ...]]
    solution: Solution | None = None  # one of the solutions, checked
    given: Solution | None = None
    illegal: list[Violation] = field(default_factory=list)  # given bridges that break the rules
    conflict: list[Bridge] | None = (
        None  # given bridges no solution extends; [] = the puzzle has none
    )
    minimal: bool = False  # dropping any bridge from ``conflict`` leaves a completable set
    complete: bool = False  # ``given`` already solves the puzzle
    explanation: Explanation | None = None  # why the puzzle itself has no solution (if asked)
    exhausted: bool = False
    stopped: Stop | None = None  # why the search ended early (the time limit, a signal)
    stats: dict = field(default_factory=dict)

    @property
    def timed_out(self) -> bool:
        return self.stopped is Stop.TIME

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
        return [
            bridge(*pair, ks[0]) for pair, ks in self.options.items() if ks[0] > have.get(pair, 0)
        ]


def hint(
    puzzle: Puzzle,
    given: Solution | None = None,
    *,
    program: Program = Program(),
    time_limit: float | Deadline | None = None,
    explained: bool = False,
) -> Hint:
    """The bridge counts each pair of neighbours has across all solutions (clingo's brave
    consequences over the pairs' states; the cautious ones follow), optionally only solutions
    that extend ``given``: a player's bridges, each a lower bound (a single bridge may become a
    double).  If ``given`` breaks a rule on its own (diagonal, crossing, over an island, count
    out of range...) the search is skipped and ``illegal`` lists why; if it cannot be completed,
    ``conflict`` is a minimal set of its bridges that no solution extends.  With ``explained``,
    a puzzle that has no solution at all gets its :func:`explain` as ``explanation``."""
    deadline = Deadline.of(time_limit)
    found = _hint(puzzle, given, program, deadline)
    if explained and found.status is Verdict.UNSOLVABLE and found.conflict == []:
        found.explanation = explain(puzzle, program=program, time_limit=deadline)
    return found


def _hint(puzzle: Puzzle, given: Solution | None, program: Program, deadline: Deadline) -> Hint:
    complete = False
    if given is not None:  # the rules are the puzzle's: judged before any grounding
        broken = check(puzzle, given)
        illegal = [v for v in broken if v.rule not in _PARTIAL_OK]
        if illegal:
            return Hint(Verdict.UNSOLVABLE, {}, given=given, illegal=illegal, exhausted=True)
        complete = bool(given.bridges) and not broken
    parts = [("base", ()), *([GIVEN_PART.of()] if given is not None else [])]
    grounded = ground(
        puzzle,
        program,
        extra=[CONSEQUENCES_LP],
        text=interface.pair_facts(puzzle),
        parts=parts,
        models=0,
        brave=True,
        deadline=deadline,
    )
    drawn = _drawn_literals(grounded, given)
    if None in drawn:  # a bridge the encoding has no atom for cannot be built
        conflict = [drawn[None]]
        return Hint(
            Verdict.UNSOLVABLE, {}, given=given, conflict=conflict, minimal=True, exhausted=True
        )

    witness: list[Solution] = []
    union: list[clingo.Symbol] = []

    def accept(model: clingo.Model) -> None:
        if not witness:  # the first brave model is a whole answer set
            witness.append(grounded.solution(model, 1))
        union[:] = grounded.shown(model)

    assumed = [literal for literal in drawn if literal is not None]
    outcome = grounded.search(accept, assumptions=assumed, deadline=deadline)
    options = interface.states(union)
    common: dict[str, Any] = {
        "given": given,
        "complete": complete,
        "exhausted": outcome.exhausted,
        "stopped": outcome.stopped,
        "stats": grounded.statistics(outcome),
    }
    if witness and outcome.exhausted:
        several = any(len(ks) > 1 for ks in options.values())
        return Hint(Verdict.MULTIPLE if several else Verdict.UNIQUE, options, witness[0], **common)
    if witness or not outcome.exhausted:
        return Hint(Verdict.UNKNOWN, options, witness[0] if witness else None, **common)
    # No solution extends the given bridges: find a minimal set of them to blame.
    core = grounded.minimal_core(within(outcome.core, assumed), deadline)
    if core.cut is not None:
        common.update(stopped=core.cut.stopped)
    return Hint(
        Verdict.UNSOLVABLE,
        {},
        conflict=[drawn[literal] for literal in core.literals],
        minimal=core.minimal,
        **common,
    )


def _drawn_literals(grounded: Grounded, given: Solution | None) -> dict[int | None, Bridge]:
    """Each drawn bridge's "at least this many" atom as a program literal (key None for a
    bridge the encoding has no atom for)."""
    return {
        grounded.literal(AT_LEAST.symbol(*b)): b
        for b in (given.bridges if given is not None else ())
    }


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
    stopped: Stop | None = None  # why the search ended early (the time limit, a signal)

    @property
    def timed_out(self) -> bool:
        return self.stopped is Stop.TIME


def explain(
    puzzle: Puzzle, *, program: Program = Program(), time_limit: float | Deadline | None = None
) -> Explanation:
    """Why ``puzzle`` has no solution: :func:`necessary_checks`, then a minimal set of islands
    whose numbers cannot all be met together.

    ``relax.lp`` makes the encoding's hook ``relax(R,C)``, which switches off the number of
    island (R,C), an external atom for every island; each is assumed false, clingo's unsat core
    names the islands whose numbers it needed, and deletion shrinks that to a minimal set (one
    search per island in it, each with the other numbers free).  ``time_limit`` bounds the
    searches together."""
    deadline = Deadline.of(time_limit)
    checks = necessary_checks(puzzle)
    try:
        grounded = ground(puzzle, program, extra=[RELAX_LP], deadline=deadline)
    except Stopped as stop:  # the checks are an explanation of their own
        return Explanation(None, checks, stopped=stop.why)
    numbers = {}  # "island (R,C) keeps its number" -> (R,C)
    for symbol, literal in grounded.atoms(*RELAX.signature):
        grounded.switch(symbol, None)  # free (number ignored) unless assumed
        r, c = RELAX.numbers(symbol)
        numbers[-literal] = (r, c)
    outcome = grounded.attempt(list(numbers), deadline)
    if not outcome.exhausted:
        solvable = None if outcome.cut_short else True
        return Explanation(solvable, checks, stopped=outcome.stopped)
    core = grounded.minimal_core(within(outcome.core, list(numbers)), deadline)
    return Explanation(
        False,
        checks,
        sorted(numbers[literal] for literal in core.literals),
        core.minimal,
        stopped=core.cut.stopped if core.cut is not None else None,
    )


def necessary_checks(puzzle: Puzzle) -> list[Violation]:
    """Counting conditions every solvable puzzle meets, checked without search.  Each failure is
    a :class:`~hashi_asp.checking.Violation` naming the islands involved.  Passing them all
    proves nothing."""
    islands = puzzle.islands
    max_bridges = puzzle.rules.max_bridges
    sight = {cell: puzzle.geometry.neighbours(cell) for cell in islands}
    # An island without a number (None, in variants) needs at least one bridge.
    numbered = {cell: n for cell, n in islands.items() if n is not None}
    failed = []
    total = sum(numbered.values())
    if total % 2 and len(numbered) == len(islands):
        failed.append(
            Violation(
                "odd-total",
                f"the island numbers add up to {total}, an odd "
                "number, but every bridge adds 2 to the total",
            )
        )
    for cell in islands:
        if not sight[cell]:
            failed.append(
                Violation(
                    "no-neighbour",
                    f"island {cell_name(cell)} needs "
                    f"{numbered.get(cell, 'at least 1')} bridge(s) but no other "
                    "island lies in its row or column",
                    (cell,),
                )
            )
    for cell, number in numbered.items():
        # A neighbour takes at most max_bridges from it, and no more than its own number.
        room = sum(min(max_bridges, numbered.get(other, max_bridges)) for other in sight[cell])
        if sight[cell] and number > room:
            failed.append(
                Violation(
                    "too-few-neighbours",
                    f"island {cell_name(cell)} needs {number} "
                    f"bridges but its {len(sight[cell])} neighbour(s) can take at "
                    f"most {room}: "
                    + ", ".join(f"{cell_name(o)} {islands[o] or '?'}" for o in sight[cell]),
                    (cell, *sight[cell]),
                )
            )
    if len(islands) > 2:
        for cell, number in numbered.items():
            # Its only neighbour takes all its bridges; with the same number, that neighbour has
            # none left for anyone else, and the two are cut off.
            other = sight[cell][0] if len(sight[cell]) == 1 else None
            if (
                other is not None
                and numbered.get(other) == number <= max_bridges
                and not (sight[other] == [cell] and other < cell)
            ):  # name a pair once
                failed.append(
                    Violation(
                        "closed-pair",
                        f"islands {cell_name(cell)} and "
                        f"{cell_name(other)} would be cut off from the rest: "
                        f"{cell_name(other)} is the only neighbour of "
                        f"{cell_name(cell)}, so it takes all {number} of its "
                        f"bridges, and needs exactly {number}",
                        (cell, other),
                    )
                )
    groups = connected_groups(sight, sight.__getitem__)
    if len(groups) > 1:
        smallest = min(groups, key=len)
        failed.append(
            Violation(
                "separated",
                f"the islands fall into {len(groups)} groups that "
                "no bridge can join; the smallest: " + ", ".join(map(cell_name, smallest)),
                tuple(smallest),
            )
        )
    return failed
