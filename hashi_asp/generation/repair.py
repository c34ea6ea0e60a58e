"""Making a generated puzzle unique: the repair loop of ``generate --unique``.

Uniqueness (``unique=True``).  Rejection sampling does not work: almost no random dense puzzle is
unique.  Instead the puzzle is repaired.  One clingo control holds the grounded puzzle with the
island numbers and the known solution as switches (``encodings/another_solution.lp``), and asks for
a solution that differs from the known one.  Where the two differ (each connected group of
differing pairs is one ambiguity), the known solution is changed so that the alternative can no
longer be adjusted to fit, and the island numbers are recomputed from the changed solution, which
therefore stays a valid solution: the puzzle remains solvable by construction.  For a pair where
the alternative has more bridges, the known solution gets the most allowed (the alternative would
need more than that); where it has fewer, the known solution drops the pair, if it stays connected
without it (the alternative would need fewer than none); or a new bridge is added across a bridge
only the alternative uses (the alternative would have to cross it).  Every group is repaired in the
same round, then clingo looks again, keeping what it learnt, until it proves that no other solution
exists.  A final independent ``solve(puzzle, models=2)`` confirms it.


The clingo control is a :class:`~hashi_asp.another_solution.KnownSolution`, the same search the
author fix (:mod:`hashi_asp.fixing`) asks whether an edited puzzle has another solution.
"""

from __future__ import annotations

import random
from fractions import Fraction

from ..another_solution import KnownSolution
from ..graphs import connected_groups, connected_without
from ..puzzle import Puzzle, Solution
from ..solving import solve
from ..status import Status
from ..stopping import Deadline
from .construction import GenerationError, _below, _draw_count, _Layout


class Repair:
    """The repair loop of ``--unique`` (see the module docstring) on one layout.

    Pairs of islands that see each other are the layout's geometry's pairs; ``known.count[pair]``
    is the known solution, changed here and asked about through :class:`KnownSolution`.
    """

    def __init__(self, layout: _Layout, rng: random.Random, beta: Fraction, deadline: Deadline):
        self.layout, self.rng, self.beta, self.deadline = layout, rng, beta, deadline
        self.max_bridges, self.no_loops = layout.rules.max_bridges, layout.rules.no_loops
        deadline.check("preparing the uniqueness repair")
        self.geometry, self.keys = layout.geometry()
        # Forgetting the saved signs at each search keeps clingo from finding the next
        # alternative right beside the last answer: then alternatives differ from the known
        # solution in many separate places at once, and one round repairs them all.  (Turning
        # progress saving off altogether does that too, but makes large searches 5x slower.)
        self.known = KnownSolution(
            layout.puzzle(),
            self.geometry,
            [layout.joined.get(key, 0) for key in self.keys],
            deadline,
            options=["--forget-on-step=2"],
        )
        self.count = self.known.count  # the known solution, per pair (changed by known.set)

    def run(self) -> tuple[int, int] | None:
        """Repair until clingo proves the known solution is the only one: (rounds, repairs), or
        None if an alternative cannot be repaired or the rounds run out (a new layout is due)."""
        rounds = repairs = 0
        limit = 50 + len(self.count) // 10
        while True:
            found, _ = self.known.others(1)
            if not found:
                self.layout.joined = {key: k for key, k in zip(self.keys, self.count) if k}
                return rounds, repairs
            rounds += 1
            made = self._repair(found[0])
            if not made or rounds >= limit:
                return None
            repairs += made

    def _repair(self, other: list[int]) -> int:
        """Change the known solution once in every group of pairs where ``other`` differs from
        it; the number of changes made."""
        differing = [i for i, (mine, theirs) in enumerate(zip(self.count, other)) if mine != theirs]
        made = 0
        for group in self._groups(differing):
            change = self._pick(self._options(group, other))
            if change is not None:
                self.known.set(*change)
                made += 1
        return made

    def _on_a_cycle(self, pair: int) -> bool:
        """The known solution stays connected without this pair's bridges."""
        ends, at, count = self.geometry.ends, self.geometry.at, self.count

        def bridges(island: int):
            for p in at[island]:
                if count[p]:
                    a, b = ends[p]
                    yield (b if a == island else a), p

        return connected_without(*ends[pair], bridges, pair)

    def _pick(self, options: list[tuple[int, int | None]]) -> tuple[int, int] | None:
        """A random option that keeps the known solution valid.  Dropping a pair is checked
        only when drawn: it must leave the known solution connected."""
        while options:
            index = _below(self.rng, len(options))
            pair, count = options[index]
            if count == 0 and not self._on_a_cycle(pair):
                options[index] = options[-1]
                options.pop()
                continue
            if count is None:  # a new bridge across: drawn as in step 3
                count = _draw_count(self.rng, self.beta, self.max_bridges)
            return pair, count
        return None

    def _groups(self, differing: list[int]) -> list[list[int]]:
        """The differing pairs in connected groups (sharing islands), in a fixed order."""
        wanted = set(differing)
        ends, at = self.geometry.ends, self.geometry.at
        return connected_groups(
            differing,
            lambda pair: (
                nearby for island in ends[pair] for nearby in at[island] if nearby in wanted
            ),
        )

    def _options(self, group: list[int], other: list[int]) -> list[tuple[int, int | None]]:
        """Changes to the known solution, each of which the alternative cannot follow."""
        count, top = self.count, self.max_bridges
        options: list[tuple[int, int | None]] = []
        for pair in group:
            if other[pair] > count[pair]:
                # The alternative would need more than the most allowed.
                if count[pair] > 0 or (not self.no_loops and self._free(pair)):
                    options.append((pair, top))
            elif not self.no_loops:
                options.append((pair, 0))  # the alternative would need fewer than none
            if other[pair] > 0 and count[pair] == 0 and not self.no_loops:
                # The alternative's bridge here would be crossed by a new bridge of ours.
                for crossing in self.geometry.crossing[pair]:
                    if count[crossing] == 0 and other[crossing] == 0 and self._free(crossing):
                        options.append((crossing, None))
        return options

    def _free(self, pair: int) -> bool:
        """No bridge of the known solution crosses this pair's water."""
        return not any(self.count[crossing] for crossing in self.geometry.crossing[pair])


def confirm_unique(puzzle: Puzzle, solution: Solution, deadline: Deadline) -> None:
    """An independent proof: a fresh solve of the finished puzzle finds this one solution only."""
    result = solve(puzzle, models=2, time_limit=deadline)
    if result.stopped:
        raise deadline.reached("confirming that the puzzle is unique")
    if result.status != "unique" or result.solutions[0] != solution:
        raise GenerationError(
            f"internal error: the repaired puzzle is {result.status}, not unique "
            "with the built solution",
            status=Status.FAULT,
        )


def repaired(
    puzzle: Puzzle, solution: Solution, seed: int, deadline: Deadline
) -> tuple[Puzzle, Solution] | None:
    """``puzzle`` made unique by the repair loop, starting from its ``solution``: the puzzle
    renumbered from the repaired solution, and that solution (the only one, as far as the loop
    proved; confirm it).  None when the loop gives up.  ``seed`` makes the choices
    reproducible."""
    ordered = dict(sorted(puzzle.islands.items()))  # placed in reading order, as bridges' ends
    layout = _Layout.of(Puzzle(puzzle.rows, puzzle.cols, ordered, rules=puzzle.rules), solution)
    beta = Fraction(0) if puzzle.rules.max_bridges == 1 else Fraction(1, 2)
    if Repair(layout, random.Random(seed), beta, deadline).run() is None:
        return None
    return layout.puzzle(), layout.solution()
