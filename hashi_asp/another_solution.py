"""The known-solution search: a puzzle grounded once with one of its solutions known, asked for
another solution as often as needed while the known solution and the island numbers change.

The construction's uniqueness repair (:mod:`hashi_asp.generation.repair`) changes the known
solution and the numbers many times on one control; the author fix (:mod:`hashi_asp.fixing`)
asks whether an edited puzzle has a solution besides the one it is meant to have.  Both hold a
:class:`KnownSolution`.  The known solution and changed numbers are switches (the externals of
``encodings/another_solution.lp``), so no question grounds the puzzle again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .asp import interface
from .asp.control import ground
from .asp.predicates import ANOTHER_SOLUTION_LP, NEAR_KNOWN_LP, NUMBER, NUMBER_PART, RELAX, WANT
from .puzzle import Geometry, Pair, Puzzle, Solution, bridge
from .stopping import Deadline

if TYPE_CHECKING:
    import clingo


class KnownSolution:
    """``puzzle`` grounded with ``count[p]``, the known solution's bridges on each pair ``p`` of
    ``geometry`` (the puzzle's pairs, possibly numbered another way), switched on.
    ``number[i]`` is each island's number as the known solution's bridges add up."""

    def __init__(
        self,
        puzzle: Puzzle,
        geometry: Geometry,
        count: Sequence[int],
        deadline: Deadline,
        *,
        models: int = 1,
        options: Sequence[str] = (),
        near: bool = False,
    ):
        """``models`` is the most answers one question may give; ``near``: the known
        solution's counts are tried first (``encodings/near_known.lp``), so that another
        solution found differs from it in few places."""
        self.geometry, self.deadline = geometry, deadline
        self.max_bridges = puzzle.rules.max_bridges
        self.count = list(count)
        self.number = [0] * len(geometry.cells)
        for (a, b), k in zip(geometry.ends, self.count):
            self.number[a] += k
            self.number[b] += k
        self.grounded = ground(
            puzzle,
            extra=[ANOTHER_SOLUTION_LP, *([NEAR_KNOWN_LP] if near else [])],
            models=models,
            options=[*options, *(["--heuristic=Domain"] if near else [])],
            deadline=deadline,
        )
        # Externals start false: switch on the count of each pair in the known solution.
        for p, k in enumerate(self.count):
            self.grounded.switch(_want(geometry.pair(p), k), True)
        self.atom = {
            interface.bridge_atom(geometry.pair(p), k): (p, k)
            for p in range(len(geometry.ends))
            for k in range(1, self.max_bridges + 1)
        }
        self.renumbered: set[int] = set()  # islands whose number changed since the last search
        self.rule: dict[int, int] = {}  # island -> the number its switched-on rule has
        self.grounded_rules: set[tuple[int, int]] = set()  # (island, number) parts grounded

    @classmethod
    def of(cls, puzzle: Puzzle, solution: Solution, deadline: Deadline, **options) -> KnownSolution:
        """The search for a solution of ``puzzle`` other than ``solution``."""
        geometry = puzzle.geometry
        counts = solution.counts()
        return cls(
            puzzle, geometry, [counts.get(p, 0) for p in geometry.pairs], deadline, **options
        )

    def others(self, limit: int, assumptions: Iterable[int] = ()) -> tuple[list[list[int]], bool]:
        """Up to ``limit`` solutions other than the known one under the current numbers (and
        ``assumptions``, program literals), as counts per pair, and whether the search was
        exhausted: then they are all there are.  ``limit`` must not exceed ``models``.  Raises
        :class:`~hashi_asp.stopping.Stopped` when the deadline ends first."""
        self._renumber()
        found: list[list[int]] = []

        def keep(model: clingo.Model) -> bool:
            counts = [0] * len(self.count)
            for symbol in self.grounded.shown(model):
                pair, k = self.atom[str(symbol)]
                counts[pair] = k
            found.append(counts)
            return len(found) < limit

        outcome = self.grounded.search(keep, assumptions=assumptions, deadline=self.deadline)
        if outcome.stopped:
            raise self.deadline.reached("looking for another solution")
        return found, outcome.exhausted

    def solution(self, counts: Sequence[int]) -> Solution:
        """Counts per pair as a solution."""
        pair = self.geometry.pair
        return Solution.of(bridge(*pair(p), k) for p, k in enumerate(counts) if k)

    def set(self, pair: int, count: int) -> None:
        """The known solution has ``count`` bridges on ``pair`` now; its ends' numbers follow."""
        cells = self.geometry.pair(pair)
        old = self.count[pair]
        self.grounded.switch(_want(cells, old), False)
        self.grounded.switch(_want(cells, count), True)
        self.count[pair] = count
        for island in self.geometry.ends[pair]:
            self.number[island] += count - old
            self.renumbered.add(island)

    def _renumber(self) -> None:
        """Give each island whose number changed the island-count rule of its new number: part
        ``number(R,C,N)`` of another_solution.lp, grounded the first time that number comes up."""
        cells = self.geometry.cells
        parts = []
        for island in sorted(self.renumbered):
            if (island, self.number[island]) not in self.grounded_rules:
                self.grounded_rules.add((island, self.number[island]))
                parts.append(NUMBER_PART.of(*cells[island], self.number[island]))
        if parts:
            self.grounded.ground_part(parts)
        for island in sorted(self.renumbered):
            self.grounded.switch(RELAX.symbol(*cells[island]), True)
            if island in self.rule:
                self.grounded.switch(NUMBER.symbol(*cells[island], self.rule[island]), False)
            self.rule[island] = self.number[island]
            self.grounded.switch(NUMBER.symbol(*cells[island], self.number[island]), True)
        self.renumbered.clear()


def _want(pair: Pair, count: int) -> clingo.Symbol:
    """The switch saying the known solution has ``count`` bridges on ``pair``."""
    (r1, c1), (r2, c2) = pair
    return WANT.symbol(r1, c1, r2, c2, count)
