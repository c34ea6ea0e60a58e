"""Connectivity as lazy cuts: a clingo propagator, for comparison with the encoding's reachability.

With ``--connectivity lazy`` (``Program(connectivity="lazy")``) clingo is given ``bridges.lp``,
every rule but connectivity, and :func:`.control.ground` registers :class:`LazyConnectivity`,
the answer-set analogue of the lazy cuts of the ILP models: the solver searches without knowing
that the islands must be connected, and each time it has a complete candidate whose bridges
leave a group of islands closed, this adds the clause "some bridge leaves this group" and lets
it search on.

Kept as an option, not the default: measured on the Coelho et al. set and on generated puzzles
(docs/benchmarks.md), it comes close when few candidates fall apart and is far slower when many
do (the Coelho set: 159 s in all instead of 50.5 s; one 400-island puzzle with mostly doubled
bridges needed 1 888 rounds and 4.6 s instead of 0.06 s).  Plain ``clingo`` runs ``hashi.lp``,
which always states connectivity; hashi-asp's checker tests every answer either way.
"""

from __future__ import annotations

import clingo

from ..graphs import connected_groups
from ..puzzle import Puzzle
from .predicates import BRIDGE


class LazyConnectivity:
    """Reads the encoding's interface (``bridge(R1,C1,R2,C2,K)`` atoms), nothing internal to it."""

    def __init__(self, puzzle: Puzzle):
        self.islands = list(puzzle.islands)
        self.rounds = 0  # complete candidates looked at
        self.cuts = 0  # clauses added
        self.pairs: list[tuple[int, int, list[int]]] = []

    def init(self, init: clingo.PropagateInit) -> None:
        index = {cell: number for number, cell in enumerate(self.islands)}
        literals: dict[tuple[int, int], set[int]] = {}
        for atom in init.symbolic_atoms.by_signature(*BRIDGE.signature):
            r1, c1, r2, c2, _ = BRIDGE.numbers(atom.symbol)
            a, z = index.get((r1, c1)), index.get((r2, c2))
            if a is not None and z is not None:
                literals.setdefault((a, z), set()).add(init.solver_literal(atom.literal))
        # A pair joins its islands if any of its bridge(..., K) atoms is true.
        self.pairs = [(a, z, sorted(found)) for (a, z), found in literals.items()]
        init.check_mode = clingo.PropagatorCheckMode.Total

    def check(self, control: clingo.PropagateControl) -> None:
        self.rounds += 1
        assignment = control.assignment
        joined: list[list[int]] = [[] for _ in self.islands]
        for a, z, literals in self.pairs:
            if any(assignment.is_true(literal) for literal in literals):
                joined[a].append(z)
                joined[z].append(a)
        groups: list[list[int]] = connected_groups(range(len(self.islands)), joined.__getitem__)
        if len(groups) == 1:
            return
        # All the groups' clauses are false now, so the first one added is a conflict: the
        # smallest group's is added, the one with the fewest ways out.
        sizes = [len(group) for group in groups]
        smallest = set(groups[sizes.index(min(sizes))])
        leaving = [
            literal
            for a, z, literals in self.pairs
            if (a in smallest) != (z in smallest)
            for literal in literals
        ]
        self.cuts += 1
        if control.add_clause(leaving):
            control.propagate()
