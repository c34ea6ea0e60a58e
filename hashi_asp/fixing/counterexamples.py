"""The counterexample loop: the search for the fewest edits, in keep mode and in free mode.

The loop asks two questions in turn (counterexample-guided):

1. the master problem (``encodings/fix.lp``, clingo optimisation): a smallest set of edits that
   escapes every counterexample so far.  Keep mode: no solution seen stays a solution; one seen
   stands for all its splits by new islands (:func:`~hashi_asp.fixing.edits.merged`), so it
   rules out every new island on a bridge it shares with the kept solution.  Free mode: the
   master finds a solution of the edited puzzle too, and no move seen
   (:mod:`hashi_asp.fixing.moves`) may turn it into another; a move stays true far from where
   it was found, so it rules out every edit set that leaves its place alone.  The optimum is a
   lower bound on the edits of any fix;
2. the edited puzzle is searched for a second solution (the known-solution search of
   :class:`~hashi_asp.another_solution.KnownSolution`, the known one being the kept solution
   split by the new islands, or the master's solution in free mode).  None: the edits are a
   fix with the fewest edits.  Otherwise the solutions found (keep mode) or the moves to them
   (free mode) join the counterexamples, and the master is asked again on the same control
   (clingo keeps what it learnt).

Each round learns something new: a solution found is not one seen (those are ruled out), and
the move from the master's solution to another is not one learnt (those fail on it).  A fix
is confirmed (:func:`~hashi_asp.fixing.results.only_solution`) before the loop hands it back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import Future
from typing import TYPE_CHECKING

from ..another_solution import KnownSolution
from ..asp import PLAIN, predicates
from ..asp.control import ground
from ..asp.interface import Program, encoding_path
from ..checking import check
from ..puzzle import Bridge, Cell, Puzzle, Solution, bridge
from ..status import Verdict
from ..stopping import Deadline, Stopped
from .edits import edited, joined_again, merged, split
from .moves import Move, move, parts
from .results import Edit, FixFault, FoundFix, Searched, only_solution
from .single_edits import proven_bound, single_fix

if TYPE_CHECKING:
    import clingo

FIX_ENCODING = predicates.FIX_LP
ALTERNATIVES = 8  # keep mode: other solutions asked for per round: more per round, fewer rounds
# Free mode: fewer, as each gives moves that stay with the master, which then grows slower (the
# loop alone on 8 generated 13x13 and 15x15 puzzles, 10 s: 3 proved the fewest for 4, 8 for 3,
# 1 for 1)
FREE_ALTERNATIVES = 3


class CounterexampleSearch:
    """The counterexample-guided loop on one puzzle: the master problem on one control, the
    solutions seen so far given to it one part each."""

    def __init__(
        self,
        puzzle: Puzzle,
        kept: Solution | None,
        free: bool,
        deadline: Deadline,
        fewer_than: tuple[Edit, ...] | None = None,
        only: Mapping[Cell, Sequence[int | None]] | None = None,
        learnt: CounterexampleSearch | None = None,
    ):
        """``fewer_than``: a fix known already; only fixes with fewer edits are looked for.
        ``only`` (free mode): the only edits allowed, new numbers of these islands (None: the
        island removed), or new islands of these numbers on these water cells.  ``kept``
        (free mode): a solution of the puzzle, if it has one.  ``learnt``: a search of the
        same puzzle and mode whose counterexamples this one starts from (they hold whatever
        the edits: the search for alternatives starts where the fix's search ended)."""
        self.puzzle, self.kept, self.free, self.deadline = puzzle, kept, free, deadline
        if free:
            text = predicates.MODE.fact("free")
            if fewer_than is not None:
                text += predicates.EDITS_BELOW.fact(len(fewer_than))
            for (r, c), numbers in (only or {}).items():
                if (r, c) not in puzzle.islands:  # water: a new island of one of the numbers
                    text += predicates.MAY_COME.facts((r, c, n) for n in numbers if n is not None)
                    continue
                text += predicates.MAY_BECOME.facts((r, c, n) for n in numbers if n is not None)
                if None in numbers:
                    text += predicates.MAY_GO.fact(r, c)
        else:
            assert kept is not None, "keep mode keeps a solution"
            text = predicates.MODE.fact("keep") + predicates.KEPT.facts(kept.bridges)
        program = Program(encoding=str(encoding_path(FIX_ENCODING)), connectivity=PLAIN)
        # Core-guided optimisation (usc) starts from no edits and proves each lower bound on
        # the way up: fixes need few edits, so the proof of the last one is most of the work.
        self.grounded = ground(
            puzzle,
            program,
            text=text,
            models=0,
            options=["--opt-mode=opt", "--opt-strategy=usc", "--lookahead=no"],
            deadline=deadline,
        )
        self.seen: set[frozenset[Bridge]] = set()
        self.moves: set[Move] = set()
        self.waiting: list[tuple[str, str, str, list[int]]] = []  # parts to ground, in one step
        self.grounded_parts: list[tuple[str, str, str, list[int]]] = []  # for a later search
        self.found: list[tuple[Edit, ...]] = []  # fixes ruled out (the search for alternatives)
        self.started = False  # the few other solutions to start from are given
        if learnt is not None:
            assert learnt.free == free, "counterexamples of the same mode"
            self.seen, self.moves = set(learnt.seen), set(learnt.moves)
            self.waiting = [*learnt.grounded_parts, *learnt.waiting]
            self.started = True

    @property
    def _kept(self) -> Solution:
        assert self.kept is not None, "keep mode keeps a solution"
        return self.kept

    @property
    def learnt(self) -> int:
        """What the master has learnt from: solutions seen (keep mode), moves (free mode)."""
        return len(self.seen) + len(self.moves)

    def block(self, puzzle: Puzzle, solution: Solution, others: Iterable[Solution]) -> int:
        """Free mode: give the master the moves between ``solution`` and each of ``others``
        (solutions of ``puzzle``, an edited puzzle), each part of a difference on its own and
        both ways (:mod:`hashi_asp.fixing.moves`); how many were new."""
        new = 0
        for other in others:
            for part in parts(puzzle, solution, other):
                for before, after in ((solution, part), (part, solution)):
                    found = move(puzzle, before, after)
                    if found in self.moves:
                        continue
                    self.moves.add(found)
                    j = len(self.moves)
                    self.waiting.append(predicates.MOVE_PART.with_facts(found.facts(j), j))
                    new += 1
        return new

    def see(self, solutions: Iterable[Solution]) -> int:
        """Give the master the solutions not seen yet (merged); how many were new."""
        new = 0
        for solution in solutions:
            ends, over = merged(solution)
            key = joined_again(solution)
            if key in self.seen:
                continue
            self.seen.add(key)
            a = len(self.seen)
            facts = predicates.ALT_END.facts((a, r, c, d) for (r, c), d in ends.items())
            facts += predicates.ALT_OVER.facts((a, r, c, k) for (r, c), k in over.items())
            self.waiting.append(predicates.ALTERNATIVE_PART.with_facts(facts, a))
            new += 1
        return new

    def exclude(self, edits: Sequence[Edit]) -> None:
        """From the next round on, neither this fix nor an edit set that makes all its edits
        (and more): the next fix the loop returns is another."""
        self.found.append(tuple(edits))
        f = len(self.found)
        facts = ""
        for edit in edits:
            if edit.new is None:  # (removed)
                facts += predicates.FIX_REMOVE.fact(f, *edit.cell)
            else:
                made = predicates.FIX_ADD if edit.kind == "add" else predicates.FIX_CHANGE
                facts += made.fact(f, *edit.cell, edit.new)
        self.waiting.append(predicates.FOUND_PART.with_facts(facts, f))

    def run(self, others: list[Solution], lower: int = 1, single: Future | None = None) -> Searched:
        """The loop, from a proven ``lower`` bound.  ``single``: the single edits tried beside
        it (:func:`~hashi_asp.fixing.single_edits.single_edit`): their proof raises the lower
        bound to 2; their fix ends the loop."""
        rounds = 0
        try:
            if self.kept is not None and not self.started:  # a few more to start from
                self.started = True
                kept = self.kept
                known = KnownSolution.of(self.puzzle, kept, self.deadline, models=ALTERNATIVES)
                found, _ = known.others(ALTERNATIVES)
                others = [*others, *map(known.solution, found)]
                if self.free:
                    self.block(self.puzzle, kept, [s for s in others if s != kept])
                else:
                    self.see(others)
            while True:
                rounds += 1
                if single is not None and single.done():
                    one = single_fix(single)
                    if one is not None:  # a fix of one edit: the fewest
                        return Searched(Verdict.FIXED, one, True, 1, rounds)
                    if proven_bound(single, lower) > lower:
                        lower = proven_bound(single, lower)
                        self._needs(lower)
                    single = None
                self.grounded.add_parts(self.waiting)
                self.grounded_parts += self.waiting
                self.waiting = []
                optimum = self.grounded.optimise(self.deadline)
                if optimum.symbols is None:
                    if optimum.search.exhausted:  # no edits of the kinds allowed will do
                        return Searched(Verdict.NO_FIX, None, False, lower, rounds, self.learnt)
                    break
                if optimum.proven and (optimum.cost or 0) > lower:
                    lower = optimum.cost or 0
                    self._needs(lower)
                edits = self._edits(optimum.symbols)
                fixed = edited(self.puzzle, edits)
                meant = drawn(fixed, optimum.symbols) if self.free else split(self._kept, edits)
                if self.free and check(fixed, meant):
                    raise FixFault("internal error: the fix search's solution breaks the rules")
                others = self._others(fixed, meant)
                if not others:  # a fix: the fewest if the optimum is proven, else the last
                    made = FoundFix(tuple(edits), fixed, self._confirmed(fixed, edits))
                    proven = optimum.proven  # (unproven: the optimisation was cut short)
                    return Searched(Verdict.FIXED, made, proven, lower, rounds, self.learnt)
                learnt = self.block(fixed, meant, others) if self.free else self.see(others)
                if not learnt:
                    raise FixFault("internal error: the fix search saw the same solution twice")
        except Stopped:
            pass
        return Searched(Verdict.UNKNOWN, None, False, lower, rounds, self.learnt)

    # ------------------------------------------------------------------ one round

    def _needs(self, count: int) -> None:
        """Only edit sets of ``count`` edits or more from the next round on (proven needed:
        the optimisation need not prove it again in every round)."""
        self.waiting.append(predicates.AT_LEAST_PART.with_facts("", count))

    def _edits(self, symbols: list[clingo.Symbol]) -> list[Edit]:
        numbers = self.puzzle.islands
        edits = []
        for kind, made in predicates.EDITS.items():
            for r, c, *new in made.read_numbers(symbols):
                cell = (r, c)
                old = None if kind == "add" else numbers[cell]
                edits.append(Edit(kind, cell, old, new[0] if new else None))
        return sorted(edits, key=lambda e: e.cell)

    def _others(self, fixed: Puzzle, meant: Solution) -> list[Solution]:
        """Solutions of the edited puzzle besides the one it is meant to have: the kept one
        split (keep mode), or the one the master found (free mode)."""
        many = FREE_ALTERNATIVES if self.free else ALTERNATIVES
        known = KnownSolution.of(fixed, meant, self.deadline, models=many, near=True)
        found, _ = known.others(many)
        return [known.solution(counts) for counts in found]

    def _confirmed(self, fixed: Puzzle, edits: list[Edit]) -> Solution:
        """The fixed puzzle's only solution, once a fresh solve proves it and the checker
        passes it (:func:`~hashi_asp.fixing.results.only_solution`), and in keep mode the kept
        one split."""
        only = only_solution(fixed, self.deadline)
        meant = None if self.free else split(self._kept, edits)
        if only is None or (meant is not None and only != meant):
            raise FixFault("internal error: the fixed puzzle is not unique with the solution meant")
        return only


def drawn(puzzle: Puzzle, symbols: list[clingo.Symbol]) -> Solution:
    """Free mode's solution of the edited ``puzzle`` from the master's ``line/4`` atoms: from
    each island, the lines right and down run on through cells without an island to the next
    island, a bridge of that many lines."""
    lines = {(r, c, d): k for r, c, d, k in predicates.LINE.read(symbols)}
    bridges = []
    for (r, c), _ in puzzle.islands.items():
        for direction, (dr, dc) in (("h", (0, 1)), ("v", (1, 0))):
            count = lines.get((r, c, direction))
            if not count:
                continue
            end = (r + dr, c + dc)
            while end not in puzzle.islands:
                end = (end[0] + dr, end[1] + dc)
            bridges.append(bridge((r, c), end, int(count)))
    return Solution.of(bridges)
