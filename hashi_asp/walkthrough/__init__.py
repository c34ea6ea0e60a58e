"""Walkthroughs: a puzzle solved the way a person solves it, one step at a time, each step with
the smallest set of island numbers that forces it, and the difficulty of that walkthrough.

A **step** narrows the bridge counts one pair of neighbouring islands can still take (from
{0, 1, 2} to {1, 2}: at least one bridge; to {0}: none; ...).  Its **reason** is a set of
islands whose numbers force it, together with the rules (straight, no crossing, at most K per
pair, no loops where the puzzle says so) and what the earlier steps established; a step that
also needs "all islands are connected" says so.  Precisely: every assignment of a count to
every pair that keeps within the counts the earlier steps left, breaks no rule, gives each
island of the reason its number (the others' numbers are not used) and, for a connectivity
step, connects all islands, gives the pair a count the step keeps.  The reason is minimal:
drop any one of its islands and some assignment gives the pair a count the step rules out.

The package, by file:

- ``techniques.py``: the catalogue of techniques in a person's order of effort (name, level,
  how it is found, how it is told from the others, its sentence), and the finder's stages;
- ``words.py``: what a sentence reads of a step;
- ``board.py``: the counts each pair can still take, and the groups certain bridges join;
- ``forcing.py``: what the numbers of a reason force, every assignment enumerated;
- ``finding.py``: the next step, the first the catalogue's stages find (plain Python);
- ``checker.py``: clingo confirms each step and makes its reason minimal, and finds the step
  no small reason shows;
- ``results.py``: the steps, how a walkthrough ended, its pictures, and the errors;
- ``reading.py``: a walkthrough's sentences read back against its steps.

The walkthrough shown is the one rated: its steps' levels are the difficulty's counts.
"""

from __future__ import annotations

from ..asp.enumeration import enumerate_solutions
from ..asp.interface import Program
from ..checking import check
from ..difficulty import Difficulty, rate
from ..play import Play
from ..puzzle import Puzzle, Solution
from ..status import Verdict
from ..stopping import Deadline, Stopped
from . import techniques
from .board import Found, single, starting_counts, values
from .checker import Checker
from .finding import Finder
from .results import (
    STATUSES,
    InvalidStep,
    OnStep,
    Progress,
    SeveralSolutions,
    Step,
    Unrated,
    Unsolvable,
    Walkthrough,
)

__all__ = [
    "STATUSES",
    "InvalidStep",
    "OnStep",
    "Progress",
    "SeveralSolutions",
    "Step",
    "Unrated",
    "Unsolvable",
    "Walkthrough",
    "difficulty",
    "steps",
]


def steps(
    puzzle: Puzzle,
    given: Play | Solution | None = None,
    *,
    limit: int | None = None,
    checked: bool = True,
    time_limit: float | Deadline | None = None,
    on_step: OnStep | None = None,
    rating: bool = False,
) -> Walkthrough:
    """Walk through ``puzzle`` from the empty board, or from ``given`` (a player's state:
    :class:`~hashi_asp.play.Play`; a :class:`Solution` is the bridges drawn), one step at a
    time: at most ``limit`` steps (``limit=1``: the next move), else to the end, and rate it
    when it reaches the solution.  With ``checked`` every step is confirmed by clingo before it
    is kept (``False`` only for measuring; the step no small reason shows is then not looked
    for).  ``on_step`` hears the :class:`Progress` after each step (``rating`` marks it as the
    walk of a difficulty).

    From a state that the walkthrough from the empty board passes through (each of its steps
    applied: its counts in ``narrowed``, the bridges it makes certain drawn), the steps are
    that walkthrough's next ones: it is walked again, the steps the state has already kept
    unshown, so that its order (the previous step's reason is read first) is the same.  Such a
    state goes on to the walkthrough's end even when its bridges are complete (the steps that
    rule out the pairs left are still to come), so that the steps given one at a time are
    exactly those of the whole walkthrough.  From any other state, the walkthrough starts
    there (a complete drawing: solved, no step)."""
    deadline = Deadline.of(time_limit)
    play = Play.of(given)
    walker = _Walker(puzzle, play, deadline)
    told = _Teller(walker.start, on_step, rating)
    walker.checker = Checker(puzzle, deadline) if checked else None
    shown = None if given is None else play
    walk = Walkthrough(puzzle, [], Verdict.UNKNOWN, {}, given=shown, checked=checked)
    try:
        if limit is None or limit > 0:
            walker.reach()
        while limit is None or len(walk.steps) < limit:
            found = walker.next_step()
            if found is None:
                if walker.drawing_decides():
                    continue
                break
            walk.steps.append(_described(walker.board, found))
            walker.board.apply(found)
            told(len(walk.steps), walker.board.domain)
            if not found.new:
                break
    except KeyboardInterrupt:
        deadline.interrupt()
        walk.stopped = deadline.stopped
    except Stopped as stop:
        walk.stopped = stop.why
    _ended(walk, walker.known(), limit)
    return walk


class _Walker:
    """A walkthrough as it goes: the board it is on, and where it starts.

    From a state that the walkthrough from the empty board passes through (each of its steps
    applied: its counts in ``narrowed``, the bridges it makes certain drawn), it is walked
    again from the empty board, the steps the state has already kept unshown
    (:meth:`reach`); from any other state, it starts there.  A complete drawing with steps
    applied is read as the steps leave it (each bridge drawn a lower bound): the walkthrough it
    is on the way through goes on, and where that ends short of the drawing, the drawing
    decides (:meth:`drawing_decides`)."""

    def __init__(self, puzzle: Puzzle, play: Play, deadline: Deadline):
        self.puzzle, self.deadline = puzzle, deadline
        self.checker: Checker | None = None  # with one, every step is confirmed by clingo
        self.start = starting_counts(puzzle, play)
        self.decided = bool(play.narrowed) and play.solves(puzzle)
        self.passed = starting_counts(puzzle, play, bounds=True) if self.decided else self.start
        self.board = Finder(puzzle, starting_counts(puzzle, Play()))
        self.reached = self.board.domain == self.passed  # the board is at the state (or past it)
        self.ahead: tuple[Found | None] | None = None  # the next step, when already found

    def reach(self) -> None:
        """Walk from the empty board while the state has each step already; where the walk
        leaves the state's counts, the walkthrough starts at the state itself, else it goes on
        from there, the next step (found on the way) kept ahead."""
        board = self.board
        found = self._found()
        while found is not None and _had(found, self.passed):
            board.apply(found)
            found = self._found()
        if board.domain == self.passed:
            self.ahead = (found,)
        else:  # a state this walkthrough does not pass through
            self.board = Finder(self.puzzle, list(self.start))
        self.reached = True

    def next_step(self) -> Found | None:
        """The next step on the board, each checked (with a checker); None when none follows."""
        if self.ahead is not None:
            (found,), self.ahead = self.ahead, None
            return found
        return self._found()

    def _found(self) -> Found | None:
        self.deadline.check("walking through the puzzle")
        found = self.board.next_step(self.checker, self.deadline)
        if found is not None and self.checker is not None:
            found = self.checker.confirm(found, self.board, self.deadline)
        return found

    def drawing_decides(self) -> bool:
        """Where the walkthrough ends short of a complete drawing, the drawing decides what is
        left: the board is the drawing's (True, the walk goes on from there)."""
        if self.board.domain == self.start or not self.decided:
            return False
        self.board = Finder(self.puzzle, list(self.start))
        return True

    def known(self) -> Finder:
        """The board as far as it is known: stopped before the state was reached, what the
        state has is all that is known."""
        return self.board if self.reached else Finder(self.puzzle, list(self.start))


def _ended(walk: Walkthrough, board: Finder, limit: int | None) -> None:
    """How the walkthrough ended, on ``board`` after its last step: its status, the counts left,
    and, solved, its solution (checked) and difficulty."""
    walk.possible = board.possible()
    walk.status = _status(walk, board, limit)
    if walk.status is not Verdict.UNKNOWN:  # a stop after the last step takes nothing from it
        walk.stopped = None
    if walk.status is Verdict.CONTRADICTION:
        walk.conflict = walk.steps[-1].reason
    if walk.status is Verdict.SOLVED:
        walk.solution = walk.state()
        broken = check(walk.puzzle, walk.solution)
        if broken:
            raise InvalidStep(f"the walkthrough ends in a state that breaks the rules: {broken[0]}")
        # Only a puzzle with one solution is rated (stuck: several); from the player's state,
        # the steps rate what is left.
        walk.difficulty = _rated(walk.steps)


def _had(found: Found, start: list[int]) -> bool:
    """Whether the state ``start`` has the step already: its pair takes no count the step rules
    out."""
    return found.pair >= 0 and not start[found.pair] & ~found.new


def difficulty(
    puzzle: Puzzle, time_limit: float | Deadline | None = None, *, on_step: OnStep | None = None
) -> Difficulty:
    """How hard ``puzzle`` is for a person (:mod:`hashi_asp.difficulty`): its walkthrough
    (:func:`steps`, every step checked), rated by the levels of its steps.  Only a puzzle with
    exactly one solution has a difficulty: raises :class:`Unsolvable` for none and
    :class:`SeveralSolutions` for more (both :class:`Unrated`, status ``CANNOT_ANSWER``), and
    :class:`~hashi_asp.stopping.Stopped` at the deadline's end.  ``on_step`` hears the
    :class:`Progress` after each step."""
    deadline = Deadline.of(time_limit)
    # First, as it takes a fraction of the walkthrough's time: a puzzle with several solutions
    # would be walked until it is stuck, only to be refused.
    _refuse_unless_unique(puzzle, deadline)
    walk = steps(puzzle, time_limit=deadline, on_step=on_step, rating=True)
    if walk.stopped or walk.difficulty is None:
        raise deadline.reached("rating the puzzle")
    return walk.difficulty


def _rated(shown: list[Step]) -> Difficulty:
    """The difficulty of a walkthrough that reached the solution, from its steps' levels."""
    return rate((techniques.LEVELS.index(step.level) for step in shown), True)


def _described(board: Finder, found: Found) -> Step:
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


def _refuse_unless_unique(puzzle: Puzzle, deadline: Deadline) -> None:
    """Raise :class:`SeveralSolutions` or :class:`Unsolvable` unless clingo finds exactly one
    solution, searching for two."""
    found = enumerate_solutions(puzzle, Program(), 2, deadline, keep=False)
    if found.search.stopped:
        raise deadline.reached("deciding whether the puzzle has one solution")
    if found.found > 1:
        raise SeveralSolutions(
            "several solutions: only a puzzle with exactly one has a difficulty", puzzle.source
        )
    if found.found == 0:
        raise Unsolvable(
            "no solution: only a puzzle with exactly one has a difficulty", puzzle.source
        )


class _Teller:
    """Tells ``on_step`` the :class:`Progress` of a walkthrough from the counts ``start``."""

    def __init__(self, start: list[int], on_step: OnStep | None, rating: bool = False):
        self.on_step, self.rating = on_step, rating
        self.pairs = sum(not single(mask) for mask in start)

    def __call__(self, steps: int, domain: list[int]) -> None:
        if self.on_step is not None:
            decided = self.pairs - sum(not single(mask) for mask in domain)
            self.on_step(Progress(steps, decided, self.pairs, self.rating))


def _status(walk: Walkthrough, board: Finder, limit: int | None) -> Verdict:
    if walk.steps and not walk.steps[-1].bridges:
        return Verdict.CONTRADICTION
    if board.solved():
        return Verdict.SOLVED
    if walk.stopped:
        return Verdict.UNKNOWN
    if limit is not None and len(walk.steps) >= limit:
        return Verdict.UNFINISHED
    return Verdict.STUCK
