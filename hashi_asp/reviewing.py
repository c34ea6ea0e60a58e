"""A review of a puzzle as its author wants one: whether it has exactly one solution; if it has
more, where they differ and a short search for the fewest edits that leave one; if asked, how
hard a unique puzzle is.  This is what ``hashi-asp unique`` prints, for library users.

The proposal is :func:`hashi_asp.fixing.fix` as the ``fix`` command runs it by default (keep
the first solution where some fix does, else change it), given at most
:data:`PROPOSAL_SECONDS` of the review's time: the fix ``fix`` gives in that time.  Where
that search stopped short of proving the fewest edits, the review says so
(:attr:`Review.stopped_short`): ``fix`` with more time searches on for fewer edits.
"""

from __future__ import annotations

from dataclasses import dataclass

from .asp.interface import Program
from .difficulty import Difficulty
from .fixing import Fix, fix
from .puzzle import Puzzle
from .solving import Result, unique
from .status import Stop, Verdict
from .stopping import Deadline
from .walkthrough import difficulty

PROPOSAL_SECONDS = 2.0
"""How long a review looks for a fix, at most (a part of its time limit)."""


@dataclass(frozen=True)
class Review:
    """What :func:`review` found: ``result``, the uniqueness verdict of
    :func:`~hashi_asp.solving.unique` (explained, for a puzzle without a solution); ``fix``,
    the fix proposed for a puzzle with several solutions (its ``status`` says whether one was
    found; None when none was sought, or the time was up first); ``sought``, whether a fix was
    looked for (only under the bundled rules: under rules of the user's own, the checks that
    make a fix trustworthy do not hold); ``difficulty``, a unique puzzle's rating when asked
    for."""

    result: Result
    fix: Fix | None = None
    sought: bool = False
    difficulty: Difficulty | None = None
    proposal_seconds: float | None = None  # the time the proposal had (when sought)

    @property
    def stopped_short(self) -> bool:
        """The proposal is a fix not proven the fewest: its search stopped at its time, and
        ``fix`` with more time searches on for fewer edits."""
        return self.fix is not None and self.fix.status == Verdict.FIXED and not self.fix.fewest

    @property
    def status(self) -> Verdict:
        return self.result.status

    @property
    def stopped(self) -> Stop | None:
        return self.result.stopped


def review(
    puzzle: Puzzle,
    *,
    program: Program = Program(),
    time_limit: float | Deadline | None = None,
    rate: bool = False,
    propose: bool = True,
) -> Review:
    """Review ``puzzle`` (see the module docstring) under ``program``; ``rate`` also rates a
    unique puzzle's difficulty (:func:`hashi_asp.walkthrough.difficulty`, which raises
    :class:`~hashi_asp.stopping.Stopped` if the time runs out first); ``propose=False``
    leaves the fix out (the verdict alone, as a benchmark of it wants).  ``time_limit``
    (seconds, or a :class:`~hashi_asp.stopping.Deadline`) bounds the whole."""
    deadline = Deadline.of(time_limit)
    result = unique(puzzle, program=program, time_limit=deadline, explained=True)
    sought = propose and result.status == Verdict.MULTIPLE and not program.own_rules
    proposed, seconds = _proposal(puzzle, result, deadline) if sought else (None, None)
    rated = difficulty(puzzle, deadline) if rate and result.status == Verdict.UNIQUE else None
    return Review(result, proposed, sought, rated, seconds)


def _proposal(puzzle: Puzzle, result: Result, deadline: Deadline) -> tuple[Fix | None, float]:
    """The fewest-edit fix, as ``fix`` finds it by default in the same time: at most
    :data:`PROPOSAL_SECONDS`, a part of the review's time limit (a server's cancel stops it
    too); None when the time is up already.  With it, the seconds it had."""
    limit = deadline.at_most(PROPOSAL_SECONDS)
    seconds = PROPOSAL_SECONDS if limit.seconds is None else limit.seconds
    if deadline.expired():
        return None, 0.0
    return fix(puzzle, first=result, time_limit=limit), seconds
