"""What a walkthrough gives back: its steps, how it ended, pictures of it, and the errors that
refuse one (a rating of a puzzle without exactly one solution, a step the checker does not
confirm)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from ..difficulty import Difficulty
from ..drawing import Picture, svg
from ..errors import HashiError, PuzzleError
from ..play import Play
from ..puzzle import Cell, Pair, Puzzle, Solution, bridge
from ..status import Status, Stop, Verdict

STATUSES = (
    Verdict.SOLVED,
    Verdict.STUCK,
    Verdict.CONTRADICTION,
    Verdict.UNFINISHED,
    Verdict.MISTAKEN,
    Verdict.UNKNOWN,
)
"""solved: every pair decided; stuck: no further step follows (several solutions, or the given
bridges leave several); contradiction: the last step shows there is no solution; unfinished:
stopped after the number of steps asked for; mistaken: the player's state agrees with no
solution of a puzzle that has one, so no step is built on it; unknown: stopped (the time
limit, a signal) first."""


class Unrated(PuzzleError):
    """A puzzle that has no difficulty, where a rating was asked for; ``verdict`` says why, as
    ``unique`` would (``unsolvable``, ``multiple``).  Only a puzzle with exactly one solution is
    rated."""

    status = Status.CANNOT_ANSWER
    verdict = Verdict.UNKNOWN


class Unsolvable(Unrated):
    """A puzzle with no solution, where a rating was asked for."""

    verdict = Verdict.UNSOLVABLE


class SeveralSolutions(Unrated):
    """A puzzle with more than one solution, where a rating was asked for."""

    verdict = Verdict.MULTIPLE


class InvalidStep(HashiError):
    """A step the checker does not confirm: a fault in the program, never shown as a step."""

    status = Status.FAULT


# ---------------------------------------------------------------------------- results


@dataclass(frozen=True)
class Progress:
    """How far a walkthrough has come, told after each of its steps: ``steps`` found so far,
    ``decided`` pairs of the ``pairs`` undecided at its start; ``rating`` when the walkthrough
    is walked for a difficulty alone (:func:`~hashi_asp.walkthrough.difficulty`)."""

    steps: int
    decided: int
    pairs: int
    rating: bool = False


OnStep = Callable[[Progress], None]


@dataclass(frozen=True)
class Step:
    """One step: ``pair`` may now take only the counts ``bridges`` (ascending; ``()`` when no
    count is left, a contradiction), where ``before`` it could take more; ``reason`` the islands
    whose numbers force it (reading order), ``connectivity`` whether it also needs all islands
    connected; ``technique`` names the kind of step (:data:`~.techniques.CATALOGUE`), ``level``
    is its difficulty (easy, medium, hard, expert) and ``text`` says it to a player."""

    pair: Pair | None  # None only for a contradiction at islands with no neighbours
    before: tuple[int, ...]
    bridges: tuple[int, ...]
    reason: tuple[Cell, ...]
    connectivity: bool
    technique: str
    text: str
    level: str = "easy"

    def to_json(self) -> dict:
        return {
            "pair": [*self.pair[0], *self.pair[1]] if self.pair is not None else None,
            "bridges": list(self.bridges),
            "before": list(self.before),
            "reason": [list(cell) for cell in self.reason],
            "connectivity": self.connectivity,
            "technique": self.technique,
            "level": self.level,
            "text": self.text,
        }


@dataclass
class Walkthrough:
    """The steps from the starting state (the empty board, or a player's bridges) on.

    ``possible`` maps every pair of neighbours to the counts it can still take after the last
    step; ``status`` is one of :data:`STATUSES`.  ``solution`` is the final state when solved
    (checked by the independent checker); ``conflict`` the islands of the contradiction.
    ``difficulty`` rates a walkthrough that ran to its end, counting its steps by level (None
    when stopped early, stuck or in a contradiction)."""

    puzzle: Puzzle
    steps: list[Step]
    status: Verdict
    possible: dict[Pair, tuple[int, ...]]
    given: Play | None = None  # the player's state the walkthrough started from
    solution: Solution | None = None
    conflict: tuple[Cell, ...] | None = None
    difficulty: Difficulty | None = None
    checked: bool = False
    stopped: Stop | None = None  # why it ended early (the time limit, a signal)
    stats: dict = field(default_factory=dict)

    @property
    def timed_out(self) -> bool:
        return self.stopped is Stop.TIME

    @property
    def open(self) -> dict[Pair, tuple[int, ...]]:
        """The pairs still undecided, with the counts they can take."""
        return {pair: ks for pair, ks in self.possible.items() if len(ks) > 1}

    def state(self) -> Solution:
        """The bridges certain after the last step: each pair's least possible count."""
        return Solution.of(
            bridge(*pair, ks[0]) for pair, ks in self.possible.items() if ks and ks[0]
        )

    def picture(self, number: int | None = None) -> Picture:
        """Step ``number`` (from 1; default the last) as an SVG picture: the board after it,
        its pair and its reason's islands highlighted, its sentence as the title.  Without
        steps, the starting board."""
        if not self.steps:
            return svg(self.puzzle, self._start(), title="No step yet")
        number = len(self.steps) if number is None else number
        if not 1 <= number <= len(self.steps):
            raise IndexError(f"step {number}: the walkthrough has steps 1 to {len(self.steps)}")
        step, board = next(itertools.islice(self.boards(), number - 1, None))
        return self._drawn(number, step, board)

    def pictures(self) -> Iterator[Picture]:
        """Every step's picture, in order (as :meth:`picture` draws each)."""
        for number, (step, board) in enumerate(self.boards(), 1):
            yield self._drawn(number, step, board)

    def _drawn(self, number: int, step: Step, board: Solution) -> Picture:
        ends = step.pair if step.pair is not None else ()
        return svg(
            self.puzzle,
            board,
            highlight_bridges=[b for b in board.bridges if b.ends == step.pair],
            highlight_islands=[*step.reason, *ends],
            title=f"Step {number}: {step.text}",
        )

    def _repr_svg_(self) -> str:
        """A Jupyter notebook shows a walkthrough as its last step (``picture(n)`` shows
        step n)."""
        return self.picture()

    def _start(self) -> Solution:
        """The bridges certain in the state the walkthrough started from: each pair's least
        count there."""
        if self.given is None:
            return Solution(())
        counts = self.given.counts(self.puzzle)
        return Solution.of(bridge(*pair, ks[0]) for pair, ks in counts.items() if ks[0])

    def boards(self) -> Iterator[tuple[Step, Solution]]:
        """Each step with the bridges certain after it (the start's, then each step's least
        count): the board a player has drawn so far."""
        least = {b.ends: b.count for b in self._start().bridges}
        for step in self.steps:
            if step.pair is not None and step.bridges:
                least[step.pair] = step.bridges[0]
            yield step, Solution.of(bridge(*pair, k) for pair, k in least.items() if k)
