"""What a step's sentence reads of it: its islands, pair and counts in words (:class:`Words`),
and, for a step of one island, the arithmetic that tells its technique (:class:`Counts`, as
Simon Tatham's solver counts)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..puzzle import cell_name
from .board import Found, values
from .board import low as _low

if TYPE_CHECKING:
    from .board import Board


@dataclass(frozen=True)
class Words:
    """What a sentence says about a step: its islands, pair and counts, in words."""

    board: Board
    found: Found

    def island(self, i: int) -> str:
        """``the 3 at (2, 0)``, or ``the island at (2, 0)`` for an island without a number."""
        n, cell = self.board.number[i], cell_name(self.board.cells[i])
        return f"the {n} at {cell}" if n is not None else f"the island at {cell}"

    @property
    def only(self) -> str:
        """The one island of the reason."""
        return self.island(self.found.reason[0])

    @property
    def islands(self) -> str:
        """The islands of the reason, listed."""
        return listing([self.island(i) for i in self.found.reason])

    @property
    def at_island(self) -> bool:
        """The pair is at the one island of the reason.  Not always so: clingo makes a reason
        minimal (:meth:`.checker.Checker.confirm`), and may keep of two islands the one away
        from the pair."""
        return self.found.reason[0] in self.board.ends[self.found.pair]

    @property
    def across_island(self) -> bool:
        """The pair crosses a pair at the one island of the reason."""
        crossing = self.board.crossing[self.found.pair]
        return any(q in crossing for q in self.board.at[self.found.reason[0]])

    @property
    def other(self) -> str:
        """The pair's other end, seen from the one island of the reason (which must be one of
        its ends: a sentence says "to" only then)."""
        a, z = self.board.ends[self.found.pair]
        island = self.found.reason[0]
        if island not in (a, z):
            raise AssertionError("a bridge 'to' a cell from an island away from the pair")
        return cell_name(self.board.cells[z if a == island else a])

    def ends(self, p: int | None = None) -> tuple[str, str]:
        a, z = self.board.ends[self.found.pair if p is None else p]
        return cell_name(self.board.cells[a]), cell_name(self.board.cells[z])

    def between(self, p: int | None = None) -> str:
        a, z = self.ends(p)
        return f"between {a} and {z}"

    @property
    def what(self) -> str:
        """The counts the step leaves, in words (``a double bridge``)."""
        return say(self.found.new, self.board.puzzle.rules.max_bridges)

    @property
    def missing(self) -> int:
        """What the one island of the reason still needs beyond its certain bridges."""
        i = self.found.reason[0]
        return (self.board.number[i] or 0) - sum(
            _low(self.board.domain[q]) for q in self.board.at[i]
        )

    @property
    def neighbours_left(self) -> int:
        """The neighbours the one island of the reason can still get a bridge from."""
        return sum(1 for q in self.board.at[self.found.reason[0]] if self.board.domain[q] > 1)

    @property
    def certain_crossing(self) -> int:
        """A certain bridge the pair would cross."""
        return next(q for q in self.board.crossing[self.found.pair] if self.board.present(q))


@dataclass(frozen=True)
class Counts:
    """A step of one island, as Simon Tatham's solver counts: the island's number, the pair's
    counts before and after, what the island still misses beyond its certain bridges, and the
    room each of its pairs has for that."""

    number: int | None
    at_island: bool
    low: int
    high: int
    new_low: int
    new_high: int
    missing: int
    room: dict[int, int]
    joinable: int
    contiguous: bool
    top: int
    new: int
    pair: int


def counts(board: Board, found: Found) -> Counts:
    """The counts of a step of one island (its reason), as :class:`Counts` reads them."""
    (island,) = found.reason
    pairs = board.at[island]
    before = board.domain[found.pair]
    low, high = _low(before), before.bit_length() - 1
    new_low, new_high = _low(found.new), found.new.bit_length() - 1
    number = board.number[island]
    missing = (number or 0) - sum(_low(board.domain[q]) for q in pairs)
    room = {
        q: min(board.domain[q].bit_length() - 1 - _low(board.domain[q]), missing) for q in pairs
    }
    contiguous = found.new == ((1 << (new_high + 1)) - 1) & ~((1 << new_low) - 1) & before
    return Counts(
        number=number,
        at_island=found.pair in pairs,
        low=low,
        high=high,
        new_low=new_low,
        new_high=new_high,
        missing=missing,
        room=room,
        joinable=sum(1 for q in pairs if board.domain[q] > 1),
        contiguous=contiguous,
        top=board.puzzle.rules.max_bridges,
        new=found.new,
        pair=found.pair,
    )


def say(mask: int, top: int) -> str:
    """Bridge counts in words: "no bridge", "a double bridge", "at least one bridge"..."""
    counted = values(mask)
    words = {0: "no bridge", 1: "a single bridge", 2: "a double bridge"}
    if len(counted) == 1:
        return words.get(counted[0], f"{counted[0]} bridges")
    low, high = counted[0], counted[-1]
    if counted == tuple(range(low, high + 1)):
        if low == 0:
            return "at most one bridge" if high == 1 else f"at most {high} bridges"
        if high == top:
            return "at least one bridge" if low == 1 else f"at least {low} bridges"
        return f"{low} to {high} bridges"
    if counted == (0, 2):
        return "no bridge or a double one"
    *most, last = counted
    return ", ".join(map(str, most)) + f" or {last} bridges"


def listing(items: list[str]) -> str:
    """Items listed in words (``a, b and c``); none: the rules alone."""
    if not items:
        return "the rules alone"
    *most, last = items
    return f"{', '.join(most)} and {last}" if most else last
