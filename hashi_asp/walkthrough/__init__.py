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
- ``kept.py``: the walkthrough from the empty board kept as far as it has been walked, and a
  server's store of them, so that a next step is read off it;
- ``results.py``: the steps, how a walkthrough ended, its pictures, and the errors;
- ``reading.py``: a walkthrough's sentences read back against its steps.

The walkthrough shown is the one rated: its steps' levels are the difficulty's counts.
"""

from __future__ import annotations

import contextlib

from ..asp.enumeration import enumerate_solutions
from ..asp.interface import Program
from ..checking import check
from ..difficulty import Difficulty, rate
from ..play import Play
from ..puzzle import Puzzle, Solution
from ..reasoning import agreement
from ..status import Verdict
from ..stopping import Deadline, Stopped
from . import techniques
from .board import Found, single, starting_counts
from .checker import Checker
from .finding import Finder
from .kept import Kept, Walkthroughs, described
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
    "Walkthroughs",
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
    kept: Walkthroughs | None = None,
) -> Walkthrough:
    """Walk through ``puzzle`` from the empty board, or from ``given`` (a player's state:
    :class:`~hashi_asp.play.Play`; a :class:`Solution` is the bridges drawn), one step at a
    time: at most ``limit`` steps (``limit=1``: the next move), else to the end, and rate it
    when it reaches the solution.  With ``checked`` every step is confirmed by clingo before it
    is kept (``False`` only for measuring; the step no small reason shows is then not looked
    for, nor whether the state agrees with a solution).  ``on_step`` hears the
    :class:`Progress` after each step (``rating`` marks it as the walk of a difficulty).

    From a state that the walkthrough from the empty board passes through (each of its steps
    applied: its counts in ``narrowed``, the bridges it makes certain drawn), the steps are
    that walkthrough's next ones, so that its order (the previous step's reason is read first)
    is the same: the walkthrough from the empty board is walked to the state, the steps the
    state has already kept unshown, or, with ``kept`` (a server's :class:`~.kept.Walkthroughs`),
    read off the one kept for the puzzle, walked on only past its last step.  Such a state
    goes on to the walkthrough's end even when its bridges are complete (the steps that rule
    out the pairs left are still to come), so that the steps given one at a time are exactly
    those of the whole walkthrough.  From any other state, checked, one clingo search first
    asks whether some solution keeps to it (:func:`~hashi_asp.reasoning.agreement`): where none
    does and the puzzle has one, no step is built on it (status ``mistaken``); else the
    walkthrough starts there (a complete drawing: solved, no step)."""
    deadline = Deadline.of(time_limit)
    play = Play.of(given)
    shown = None if given is None else play
    walk = Walkthrough(puzzle, [], Verdict.UNKNOWN, {}, given=shown, checked=checked)
    # Without a store, the walkthrough from the empty board is this walk's alone.
    store: contextlib.AbstractContextManager[Kept] = (
        contextlib.nullcontext(Kept(puzzle, checked))
        if kept is None
        else kept.walking(puzzle, checked, deadline)
    )
    with store as walked:
        walker = _Walker(puzzle, play, deadline, walked, shared=kept is None)
        mistaken = _walked(walk, walker, limit, _Teller(walker.start, on_step, rating))
    _ended(walk, walker.board, limit, mistaken)
    return walk


def _walked(walk: Walkthrough, walker: _Walker, limit: int | None, told: _Teller) -> bool:
    """Walk ``walker`` to ``limit`` steps (None: to the end), each added to ``walk``, told to
    ``told``; a stop kept as ``walk.stopped``.  True when the state agrees with no solution
    of a puzzle that has one: no step is then taken."""
    deadline = walker.deadline
    try:
        if limit is None or limit > 0:
            walker.reach()
            if walker.at is None and walk.checked and not walker.play.empty:
                agreed = agreement(walker.puzzle, walker.play, time_limit=deadline)
                if agreed.stopped is not None:
                    walk.stopped = agreed.stopped
                    return False
                if agreed.mistaken:
                    return True
        while limit is None or len(walk.steps) < limit:
            taken = walker.next_step()
            if taken is None:
                if walker.drawing_decides():
                    continue
                break
            found, step = taken
            walk.steps.append(step)
            told(len(walk.steps), walker.board.domain)
            if not found.new:
                break
    except KeyboardInterrupt:
        deadline.interrupt()
        walk.stopped = deadline.stopped
    except Stopped as stop:
        walk.stopped = stop.why
    return False


class _Walker:
    """A walkthrough as it goes: the board it is on, and where it starts.

    From a state that the walkthrough from the empty board passes through (each of its steps
    applied: its counts in ``narrowed``, the bridges it makes certain drawn), the steps are
    that walkthrough's, read off ``kept`` from the state on (:meth:`reach`: ``at`` is the
    number of its steps the state has); from any other state, it starts there, on a board of
    its own.  A complete drawing with steps applied is read as the steps leave it (each bridge
    drawn a lower bound): the walkthrough it is on the way through goes on, and where that ends
    short of the drawing, the drawing decides (:meth:`drawing_decides`).  ``shared``: ``kept``
    is this walk's alone, so its checker serves the board of its own too (it has ruled out
    only counts the state rules out)."""

    def __init__(self, puzzle: Puzzle, play: Play, deadline: Deadline, kept: Kept, shared: bool):
        self.puzzle, self.play, self.deadline = puzzle, play, deadline
        self.kept, self.shared = kept, shared
        self.checker: Checker | None = None  # of the board of its own, made when needed
        self.start = starting_counts(puzzle, play)
        self.decided = bool(play.narrowed) and play.solves(puzzle)
        self.passed = starting_counts(puzzle, play, bounds=True) if self.decided else self.start
        self.board = Finder(puzzle, list(self.start))
        self.at: int | None = None  # the next step of ``kept``, while on it

    def reach(self) -> None:
        """Where the state lies on the walkthrough from the empty board, if it does: the
        board is then the state as the walkthrough leaves it, and its next steps are
        ``kept``'s; else the walkthrough starts at the state itself."""
        self.at = self.kept.position(self.passed, self.deadline)
        if self.at is not None:
            self.board = Finder(self.puzzle, list(self.passed))

    def next_step(self) -> tuple[Found, Step] | None:
        """The next step on the board, as found and as told (each checked, with a checker),
        and applied; None when none follows."""
        if self.at is not None:
            found = self.kept.step(self.at, self.deadline)
            if found is None:
                return None
            step = self.kept.told[self.at]
            self.at += 1
        else:
            found = self._found()
            if found is None:
                return None
            step = described(self.board, found)
        self.board.apply(found)
        return found, step

    def _found(self) -> Found | None:
        """The next step on the board of its own (confirmed, with a checker)."""
        self.deadline.check("walking through the puzzle")
        checker = self._checker()
        found = self.board.next_step(checker, self.deadline)
        if found is not None and checker is not None:
            found = checker.confirm(found, self.board, self.deadline)
        return found

    def _checker(self) -> Checker | None:
        if not self.kept.checked:
            return None
        if self.checker is None:
            shared = self.kept.checker if self.shared else None
            self.checker = shared or Checker(self.puzzle, self.deadline)
        return self.checker

    def drawing_decides(self) -> bool:
        """Where the walkthrough ends short of a complete drawing, the drawing decides what is
        left: the board is the drawing's (True, the walk goes on from there)."""
        if self.board.domain == self.start or not self.decided:
            return False
        self.board = Finder(self.puzzle, list(self.start))
        self.at = None
        return True


def _ended(walk: Walkthrough, board: Finder, limit: int | None, mistaken: bool = False) -> None:
    """How the walkthrough ended, on ``board`` after its last step: its status (``mistaken``:
    the state agrees with no solution), the counts left, and, solved, its solution (checked)
    and difficulty."""
    walk.possible = board.possible()
    walk.status = Verdict.MISTAKEN if mistaken else _status(walk, board, limit)
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
