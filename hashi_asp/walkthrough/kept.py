"""The walkthrough of a puzzle from the empty board, kept as far as it has been walked, so that
a player's next step from a state it passes through is read off it instead of walked again
from the empty board; and a bounded store of them for a server, looked up by the puzzle.

Why from the empty board: the finder reads the previous step's reason first (one island's
consequences are read together, :mod:`.finding`), so the walkthrough's order depends on how the
board came to be, not on the board alone.  A walkthrough started afresh from a state met on the
way gives the same steps as a set but not always in the same order; the kept one goes on as
the whole walkthrough does.

:class:`Kept` holds one walkthrough: each step as found and as told, the board after the last
one, the count of the bridges still possible after each (what tells where a state lies on
it) and the checker that confirmed them (``step.lp`` grounded once).  :meth:`Kept.position`
says after how many of its steps the board is a given state's counts (walking on from its
last step only while the state has each step already: never twice over the same step).

:class:`Walkthroughs` keeps the most recently used of them, :data:`KEPT` by default, each
under its puzzle and rules and whether its steps are checked, for the threads of a server:
one lock for the store, one per walkthrough, held by the request that walks it.
"""

from __future__ import annotations

import contextlib
import threading
from collections import OrderedDict
from collections.abc import Iterator

from ..play import Play
from ..puzzle import Puzzle
from ..stopping import Deadline
from . import techniques
from .board import Found, starting_counts, values
from .checker import Checker
from .finding import Finder
from .results import Step

KEPT = 32
"""How many walkthroughs a server keeps (:class:`Walkthroughs`).  Each holds the grounding of
``step.lp`` for its puzzle (its checker), the finder's caches and its steps: measured as the
server's resident memory, about 0.5 MB for a 10x10 puzzle of Simon Tatham's walked to its end
and 2 MB for a 25x25 (docs/walkthroughs.md), so 32 games at 25x25 take about 60 MB.  That is
a few games each for the players a small server has at once; a game whose walkthrough was
dropped costs one walk from the empty board to its state at its next press (what every press
cost without the store), and is kept again from there."""


class Kept:
    """The walkthrough of ``puzzle`` from the empty board, as far as it has been walked: the
    steps ``found`` and as ``told`` (:class:`~.results.Step`), the ``board`` after the last,
    and whether it has ``ended`` (no step follows the last: solved, stuck, or a
    contradiction).  ``checked``: every step confirmed by clingo (:class:`~.checker.Checker`).

    A step that stops part-way (the time limit, a signal) or fails leaves it ``spoilt``: the
    checker may have left a search to clingo, and the store drops it."""

    def __init__(self, puzzle: Puzzle, checked: bool = True):
        self.puzzle, self.checked = puzzle, checked
        self.board = Finder(puzzle, starting_counts(puzzle, Play()))
        self.checker: Checker | None = None  # made at the first step, with its deadline
        self.found: list[Found] = []
        self.told: list[Step] = []
        # The counts still possible on the whole board after each step (from the start):
        # they only shrink, so a state whose counts lie within the board's is that board
        # exactly when it has as many.
        self.left: list[int] = [_left(self.board.domain)]
        self.ended = False
        self.spoilt = False
        self.lock = threading.Lock()

    def step(self, number: int, deadline: Deadline) -> Found | None:
        """Step ``number`` (from 0) of the walkthrough, walked on to it where it is not kept
        yet; None where the walkthrough ends before it."""
        while len(self.found) <= number and not self.ended:
            self._walk_on(deadline)
        return self.found[number] if number < len(self.found) else None

    def _walk_on(self, deadline: Deadline) -> None:
        """Find the step after the last kept one (confirmed, with a checker), and keep it."""
        try:
            if self.checked and self.checker is None:
                self.checker = Checker(self.puzzle, deadline)
            deadline.check("walking through the puzzle")
            board = self.board
            found = board.next_step(self.checker, deadline)
            if found is not None and self.checker is not None:
                found = self.checker.confirm(found, board, deadline)
        except BaseException:
            self.spoilt = True
            raise
        if found is None:
            self.ended = True
            return
        self.told.append(described(board, found))
        board.apply(found)
        self.found.append(found)
        self.left.append(_left(board.domain))
        self.ended = not found.new  # a contradiction ends it

    def position(self, counts: list[int], deadline: Deadline) -> int | None:
        """After how many steps the walkthrough's board is ``counts`` (a state's, as bit sets
        in the order of the pairs): its steps taken while the state has each already (walking
        on where needed), the board after them compared with the state; None when the
        walkthrough does not pass through it."""
        number = 0
        while (found := self.step(number, deadline)) is not None and had(found, counts):
            number += 1
        return number if self.left[number] == _left(counts) else None


def _left(domain: list[int]) -> int:
    """How many counts the pairs can still take, all together."""
    return sum(mask.bit_count() for mask in domain)


def had(found: Found, counts: list[int]) -> bool:
    """Whether a state of ``counts`` has the step already: its pair takes no count the step
    rules out."""
    return found.pair >= 0 and not counts[found.pair] & ~found.new


def described(board: Finder, found: Found) -> Step:
    """The step as a player is told it, on the board before it."""
    technique, level, text = techniques.sentence(board, found)
    return Step(
        pair=board.geometry.pair(found.pair) if found.pair >= 0 else None,
        before=values(board.domain[found.pair]) if found.pair >= 0 else (),
        bridges=values(found.new),
        reason=tuple(board.cells[i] for i in found.reason),
        connectivity=found.connectivity,
        technique=technique,
        text=text,
        level=level,
    )


class Walkthroughs:
    """The ``size`` walkthroughs used most recently (:class:`Kept`), each under its puzzle (its
    islands and rules) and whether its steps are checked: safe to share between threads."""

    def __init__(self, size: int = KEPT):
        if size < 1:
            raise ValueError(f"a store of walkthroughs keeps at least one, got {size}")
        self.size = size
        self._kept: OrderedDict[tuple[Puzzle, bool], Kept] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            return len(self._kept)

    def held(self, puzzle: Puzzle, checked: bool = True) -> Kept | None:
        """The walkthrough kept for ``puzzle``, if there is one, to look at (its use is not
        counted)."""
        with self._lock:
            return self._kept.get((puzzle, checked))

    @contextlib.contextmanager
    def walking(self, puzzle: Puzzle, checked: bool, deadline: Deadline) -> Iterator[Kept]:
        """The kept walkthrough of ``puzzle`` (made when there is none, the least recently
        used one dropped beyond :attr:`size`), held by this thread while the block runs.  One
        another thread holds is waited for until the deadline ends; then a walkthrough of its
        own, not kept, is walked instead.  One left :attr:`~Kept.spoilt` is dropped."""
        key = (puzzle, checked)
        with self._lock:
            kept = self._kept.get(key)
            if kept is None:
                kept = self._kept[key] = Kept(puzzle, checked)
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        left = deadline.remaining()
        if not kept.lock.acquire(timeout=-1 if left is None else left):
            yield Kept(puzzle, checked)
            return
        try:
            yield kept
        finally:
            if kept.spoilt:
                with self._lock:
                    if self._kept.get(key) is kept:
                        del self._kept[key]
            kept.lock.release()
