"""Difficulty: how far plain deduction gets before search is needed.

The measure runs the deductions a careful human makes, on the possible bridge counts of every
pair of islands that see each other (initially 0..max_bridges), until none applies:

1. **Island numbers.**  An island's bridges add up to its number, so each pair's count lies
   between the number minus the most the island's other pairs can carry and the number minus the
   least they must carry.  (A 4 in a corner takes two bridges each way; a 3 in a corner at least
   one each way.)
2. **No crossing.**  A pair that certainly has a bridge rules out every pair crossing it.
3. **No closed group.**  Islands joined by certain bridges form a group; a count that would
   complete every number in a group that is not the whole puzzle is impossible (two 1s are never
   joined to each other in a larger puzzle).
4. **Connected.**  A pair whose removal would split the islands that can still be joined must have
   a bridge.
5. **No loops** (only for that variant): a pair between two islands already joined through certain
   bridges has none.

Each rule only removes counts that no solution uses, so whatever they decide holds in every
solution.  ``score`` is the share of pairs they leave undecided: 0 means deduction alone solves
the puzzle (which is then unique); the closer to 1, the more of it needs search or deeper
reasoning.  The bands are fixed ranges of the score: ``easy`` 0 (solved by deduction alone),
``medium`` above 0 up to 0.25, ``hard`` above 0.25.

It is independent of clingo and of the encoding, so the same puzzle always gets the same score.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .puzzle import Puzzle, PuzzleError

MEDIUM_UP_TO = 0.25
BANDS = ("easy", "medium", "hard")
"""easy: score 0 (deduction alone solves it); medium: 0 < score <= MEDIUM_UP_TO; hard: above."""


@dataclass(frozen=True)
class Difficulty:
    """``score``: share of neighbouring pairs deduction leaves open (0..1); ``band``: its name."""

    score: float
    band: str
    decided: int  # pairs whose count deduction fixes
    pairs: int  # pairs of islands that see each other

    def to_json(self) -> dict:
        return {
            "score": round(self.score, 4),
            "band": self.band,
            "decided": self.decided,
            "pairs": self.pairs,
        }


def parse_request(text: str) -> str | tuple[float, float]:
    """A difficulty as users ask for it: a band name, a score ``X`` (at least X) or a range
    ``X-Y``, scores from 0 to 1; as the band, or a (low, high) range."""
    if text in BANDS:
        return text
    match = re.fullmatch(r"\s*(\d*\.?\d+)\s*(?:[-]\s*(\d*\.?\d+)\s*)?", text)
    if not match:
        raise PuzzleError(
            f"difficulty {text!r}: expected {', '.join(BANDS)}, a score X or a range X-Y"
        )
    low, high = float(match.group(1)), float(match.group(2) or 1.0)
    if not 0 <= low <= high <= 1:
        raise PuzzleError(f"difficulty {text!r}: scores go from 0 to 1, low before high")
    return low, high


def band_of(score: float) -> str:
    return "easy" if score == 0 else "medium" if score <= MEDIUM_UP_TO else "hard"


def difficulty(puzzle: Puzzle) -> Difficulty:
    """Run the deduction rules to a fixed point, under the puzzle's rules, and score what they
    leave undecided.  Raises :class:`PuzzleError` if they reach a contradiction (the puzzle has
    no solution)."""
    deduction = _Deduction(puzzle)
    deduction.run()
    decided = sum(1 for values in deduction.values if len(values) == 1)
    pairs = len(deduction.values)
    score = 0.0 if pairs == 0 else (pairs - decided) / pairs
    return Difficulty(score, band_of(score), decided, pairs)


class _Contradiction(Exception):
    pass


class _Deduction:
    """The possible counts of each pair (a set, so that rule 3 can remove a middle value) and
    the rules above, applied until nothing changes."""

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        self.no_loops = puzzle.rules.no_loops
        geometry = puzzle.geometry
        self.number = [puzzle.islands[cell] for cell in geometry.cells]
        self.ends = geometry.ends
        self.at = geometry.at
        self.crossing = geometry.crossing
        self.values = [set(range(puzzle.rules.max_bridges + 1)) for _ in self.ends]

    # ------------------------------------------------------------------ the fixed point

    def run(self) -> None:
        try:
            changed = True
            while changed:
                self._local()
                changed = self._groups() or self._cuts()
        except _Contradiction:
            raise PuzzleError(
                "no solution: deduction reaches a contradiction", self.puzzle.source
            ) from None

    def _restrict(self, pair: int, allowed: set[int], dirty: list[int]) -> None:
        values = self.values[pair]
        if values <= allowed:
            return
        values &= allowed
        if not values:
            raise _Contradiction
        dirty.extend(self.ends[pair])
        if 0 not in values:  # rule 2: certain bridge
            for other in self.crossing[pair]:
                self._restrict(other, {0}, dirty)

    def _local(self) -> None:
        """Rules 1 and 2 until nothing changes."""
        dirty = list(range(len(self.number)))
        for pair, values in enumerate(self.values):
            if 0 not in values:
                for other in self.crossing[pair]:
                    self._restrict(other, {0}, dirty)
        while dirty:
            island = dirty.pop()
            pairs = self.at[island]
            least = sum(min(self.values[p]) for p in pairs)
            most = sum(max(self.values[p]) for p in pairs)
            # The island's bridges add up to its number; without a number, to 1 or more.
            number = self.number[island]
            lowest, highest = (1, most) if number is None else (number, number)
            if highest < least or lowest > most:
                raise _Contradiction
            for p in pairs:
                values = self.values[p]
                low = lowest - (most - max(values))
                high = highest - (least - min(values))
                self._restrict(p, {v for v in values if low <= v <= high}, dirty)

    def _groups(self) -> bool:
        """Rules 3 and 5 on the groups of islands joined by certain bridges."""
        group = _Groups(len(self.number))
        for pair, values in enumerate(self.values):
            if 0 not in values:
                group.union(*self.ends[pair])
        open_demand = [0] * len(self.number)  # per group root: bridges its numbers still need
        size = [0] * len(self.number)
        flexible = [False] * len(self.number)  # a group with an island without a number
        for island, pairs in enumerate(self.at):
            root = group.find(island)
            number = self.number[island]
            if number is None:
                flexible[root] = True
            else:
                open_demand[root] += number - sum(min(self.values[p]) for p in pairs)
            size[root] += 1
        everyone = len(self.number)
        for root in range(everyone):
            if (
                size[root]
                and size[root] < everyone
                and open_demand[root] == 0
                and not flexible[root]
            ):
                raise _Contradiction
        dirty: list[int] = []
        for pair, values in enumerate(self.values):
            if len(values) == 1:
                continue
            a, b = (group.find(end) for end in self.ends[pair])
            least = min(values)
            if a == b:
                if self.no_loops and least == 0:
                    self._restrict(pair, {0}, dirty)
                continue
            if size[a] + size[b] < everyone and not (flexible[a] or flexible[b]):
                # Raising this pair by d meets 2d of the two groups' open demand.
                closing, odd = divmod(open_demand[a] + open_demand[b], 2)
                if not odd and closing > 0:
                    self._restrict(pair, values - {least + closing}, dirty)
        return bool(dirty)

    def _cuts(self) -> bool:
        """Rule 4: a pair that is the only link between two parts of the islands that can still be
        joined needs a bridge (and if they are already apart, there is no solution)."""
        usable = [[p for p in pairs if max(self.values[p]) > 0] for pairs in self.at]
        dirty: list[int] = []
        for pair in _cut_pairs(len(self.number), self.ends, usable):
            self._restrict(pair, self.values[pair] - {0}, dirty)
        return bool(dirty)


class _Groups:
    """Union-find over islands."""

    def __init__(self, n: int):
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, a: int, b: int) -> None:
        self.parent[self.find(a)] = self.find(b)


def _cut_pairs(islands: int, ends: list[tuple[int, int]], usable: list[list[int]]) -> list[int]:
    """The pairs whose removal disconnects the graph of usable pairs (Tarjan's bridges, without
    recursion); raises _Contradiction if that graph is already disconnected."""
    order = [0] * islands  # discovery time, 0 = not yet seen
    low = [0] * islands
    cuts = []
    time = 1
    order[0] = low[0] = time
    stack = [(0, -1, iter(usable[0]))]
    seen = 1
    while stack:
        island, via, edges = stack[-1]
        advanced = False
        for pair in edges:
            if pair == via:
                continue
            a, b = ends[pair]
            other = b if a == island else a
            if order[other]:
                low[island] = min(low[island], order[other])
            else:
                time += 1
                seen += 1
                order[other] = low[other] = time
                stack.append((other, pair, iter(usable[other])))
                advanced = True
                break
        if not advanced:
            stack.pop()
            if stack:
                parent = stack[-1][0]
                low[parent] = min(low[parent], low[island])
                if low[island] > order[parent]:
                    cuts.append(via)
    if seen < islands:
        raise _Contradiction
    return cuts
