"""The board a walkthrough reasons on: the bridge counts each pair of neighbouring islands can
still take, as bit sets (bit k set: k bridges are still possible), narrowed one step at a
time, and the groups of islands that certain bridges join.  Also what a step is as found (its
reason, the pair, the counts left) and the counts a walkthrough starts from: a player's state's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..graphs import connected_groups
from ..play import Play
from ..puzzle import Cell, Pair, Puzzle

if TYPE_CHECKING:
    from .techniques import Technique


@dataclass(frozen=True)
class Found:
    """A step as found: the islands of the reason (indices, reading order), connectivity, the
    pair (index; -1 for none) and its counts after the step (a bit set; 0 = contradiction).
    ``technique`` is the technique of the catalogue that found it, where the finding names it
    (a step of the rules, or clingo's on the whole board, or one whose islands clingo finds
    all unneeded); None for a step of a reason of islands, told by its counts once checked.
    ``level`` is the level of the stage of the catalogue that found it."""

    reason: tuple[int, ...]
    connectivity: bool
    pair: int
    new: int
    technique: Technique | None = None
    level: str = "easy"


def values(mask: int) -> tuple[int, ...]:
    """The counts of a bit set, ascending."""
    return tuple(k for k in range(mask.bit_length()) if mask >> k & 1)


def low(mask: int) -> int:
    """The least count of a bit set."""
    return (mask & -mask).bit_length() - 1


def single(mask: int) -> bool:
    """At most one count left: the pair is decided (or, with none, contradicted)."""
    return mask & (mask - 1) == 0


class Board:
    """The counts each pair can still take (bit sets: bit k set = k bridges possible), and the
    groups of islands the certain bridges join."""

    def __init__(self, puzzle: Puzzle, domain: list[int]):
        geometry = puzzle.geometry
        self.puzzle = puzzle
        self.geometry = geometry
        self.cells = geometry.cells
        self.number = [puzzle.islands[cell] for cell in geometry.cells]
        self.ends = geometry.ends
        self.at = geometry.at
        self.crossing = geometry.crossing
        self.no_loops = puzzle.rules.no_loops
        self.domain = domain
        self.last: tuple[int, ...] | None = None  # the reason of the previous step
        self._groups: tuple[list[int], list[int], list[int]] | None = None

    # ------------------------------------------------------------------ state

    def present(self, p: int) -> bool:
        """Pair ``p`` certainly has a bridge."""
        return not self.domain[p] & 1

    def possible(self) -> dict[Pair, tuple[int, ...]]:
        return {self.geometry.pair(p): values(mask) for p, mask in enumerate(self.domain)}

    def solved(self) -> bool:
        """Every pair decided and every island given its number (connectivity and loops are
        the levels of no island's concern: they have found nothing wrong when this is asked)."""
        return all(mask and single(mask) for mask in self.domain) and not any(
            map(self.unsettled, range(len(self.cells)))
        )

    def unsettled(self, island: int) -> bool:
        """The island has an undecided pair, or its decided pairs miss its number."""
        masks = [self.domain[p] for p in self.at[island]]
        if any(not single(mask) for mask in masks):
            return True
        total = sum(low(mask) for mask in masks)
        number = self.number[island]
        return total == 0 if number is None else total != number

    def apply(self, found: Found) -> None:
        if found.pair >= 0:
            self.domain[found.pair] = found.new
        self.last = found.reason
        self._groups = None

    def groups(self) -> tuple[list[int], list[int], list[int]]:
        """Islands joined by certain bridges: each island's group (named by its first island),
        each group's size, and the number of open pair ends at each group (pairs that may or may
        not get a bridge, counted once at each end)."""
        if self._groups is None:
            n = len(self.cells)
            joined: list[list[int]] = [[] for _ in range(n)]
            for p, (a, b) in enumerate(self.ends):
                if self.present(p):
                    joined[a].append(b)
                    joined[b].append(a)
            group = [0] * n
            for members in connected_groups(range(n), joined.__getitem__):
                for i in members:
                    group[i] = members[0]
            size, open_ends = [0] * n, [0] * n
            for i in range(n):
                size[group[i]] += 1
            for p, (a, b) in enumerate(self.ends):
                if self.domain[p] & 1 and self.domain[p] > 1:
                    open_ends[group[a]] += 1
                    open_ends[group[b]] += 1
            self._groups = (group, size, open_ends)
        return self._groups

    # ------------------------------------------------------------------ the next step

    def first_pair(self, reason: tuple[int, ...]) -> int:
        """The first pair at the islands of ``reason`` (-1 if they have none): where a
        contradiction among them is shown."""
        pairs = [p for i in reason for p in self.at[i]] if reason else range(len(self.ends))
        return min(pairs, default=-1)


def starting_counts(puzzle: Puzzle, given: Play, *, bounds: bool = False) -> list[int]:
    """The counts each pair can take at the start, as bit sets, in the order of the pairs:
    those the player's state ``given`` leaves it (:meth:`~hashi_asp.play.Play.counts`, with
    ``bounds`` as it takes it)."""
    counts = given.counts(puzzle, bounds=bounds)
    return [sum(1 << k for k in counts[pair]) for pair in puzzle.geometry.pairs]


def pair_index(geometry, a: Cell, z: Cell) -> int | None:
    i, j = geometry.index.get(a), geometry.index.get(z)
    if i is None or j is None:
        return None
    return next((p for p in geometry.at[i] if j in geometry.ends[p]), None)
