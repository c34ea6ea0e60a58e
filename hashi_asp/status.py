"""How a command ended, in one vocabulary, and the one table from it to the exit code of the
command line and the HTTP status of the JSON API.

- :class:`Verdict`: what a search found, the word every document (``"status"``), study row and
  bench row uses;
- :class:`Stop`: why work ended before it was done (the time limit, a signal, its caller);
- :class:`Question`: what a command asks, which decides what a verdict means for it (two
  solutions are a success for ``solve``, the answer no for ``unique``);
- :class:`Status`: the outcome, with its exit code and HTTP status.

Every command's status comes from :meth:`Verdict.status` (or is a :class:`Status` of its own,
for those that give no verdict), and every error the library raises carries one
(:attr:`hashi_asp.errors.HashiError.status`); neither the library nor a command knows the
numbers.  A verdict that is an answer (no solution, two solutions, a broken rule) is a document
the API sends with 200: the status of the document says the verdict; only what leaves no
document to send (bad input, no answer in time, a fault) has an error status.
"""

from __future__ import annotations

import enum


class Status(enum.Enum):
    """An outcome, with its exit code and HTTP status."""

    #          exit  HTTP
    OK = (0, 200)
    """The answer asked for: a solution, unique, valid, solved, written."""
    NO = (1, 200)
    """The answer is no: no solution, more than one, a broken rule, a walk stuck."""
    UNSOLVABLE = (4, 200)
    """``unique`` found no solution at all (its 1 means "more than one")."""
    PARTIAL = (3, 200)
    """The time limit came first: the document says what was found before it."""
    BAD_INPUT = (2, 400)
    """Malformed input, a bad option, a file that cannot be read or written."""
    NOT_FOUND = (2, 404)
    """No such command (the API; on the command line, a usage error)."""
    TOO_LARGE = (2, 413)
    """Over a limit on what may be sent or produced."""
    NO_ANSWER = (3, 408)
    """The time limit came before any answer."""
    CANNOT_ANSWER = (1, 422)
    """The question has no answer for this puzzle (the difficulty of one without a solution)."""
    FAULT = (5, 500)
    """The program gave an answer that breaks the rules: never shown."""
    INTERRUPTED = (130, 503)
    """Ctrl-C (SIGINT); a server that is stopping answers 503."""
    TERMINATED = (143, 503)
    """SIGTERM."""

    @property
    def exit_code(self) -> int:
        return self.value[0]

    @property
    def http(self) -> int:
        return self.value[1]


class Stop(enum.Enum):
    """Why work ended before it was done.  The value is the word messages use."""

    TIME = "time limit reached"
    INTERRUPTED = "interrupted"  # Ctrl-C, SIGINT
    TERMINATED = "terminated"  # SIGTERM
    CANCELLED = "cancelled"  # by its caller: a part no longer needed, a client gone away

    @property
    def by_signal(self) -> bool:
        return self in (Stop.INTERRUPTED, Stop.TERMINATED)

    def status(self, answered: bool) -> Status:
        """How a command that stopped for this reason ended: with an answer to show (what was
        found, ``answered``) or none."""
        if self is Stop.INTERRUPTED:
            return Status.INTERRUPTED
        if self is Stop.TERMINATED:
            return Status.TERMINATED
        return Status.PARTIAL if answered else Status.NO_ANSWER


class Question(enum.Enum):
    """What a command asks of a puzzle."""

    FIND = "find"
    """Its solutions, their number, what follows from its numbers (solve, count, hint, steps):
    anything found is an answer; none is the answer no."""
    ONE = "one"
    """Whether it has exactly one solution, or which edits leave it one (unique, fix): two are
    the answer no; none at all has a status of its own."""
    RATE = "rate"
    """How hard it is (difficulty): only a puzzle with exactly one solution has an answer."""


class Verdict(str, enum.Enum):
    """What a search found: the word of its documents, study rows and bench rows."""

    SOLVED = "solved"
    """A solution; uniqueness not asked or not decided.  (A walkthrough: every pair decided.)"""
    UNIQUE = "unique"
    """Exactly one solution, proven by exhausting the search."""
    MULTIPLE = "multiple"
    """Two or more solutions."""
    UNSOLVABLE = "unsolvable"
    """No solution, proven by exhausting the search."""
    UNKNOWN = "unknown"
    """Stopped (the time limit, a signal) before any verdict."""
    FIXED = "fixed"
    """Edits that leave the puzzle exactly one solution, proven so (``fix``)."""
    NO_FIX = "no fix found"
    """Proven: no edits of the kinds allowed leave one solution (``fix``)."""
    STUCK = "stuck"
    """No further step follows: several solutions from here (``steps``)."""
    CONTRADICTION = "contradiction"
    """The last step shows there is no solution (``steps``)."""
    UNFINISHED = "unfinished"
    """Stopped after the steps asked for (``steps -n``)."""
    MISTAKEN = "mistaken"
    """The player's state agrees with no solution of a puzzle that has one: no step is built
    on it (``steps --given``)."""
    RATED = "rated"
    """A difficulty (``difficulty``)."""
    INVALID = "invalid"
    """An answer the independent checker refused: a fault of the encoding (a study's run)."""
    MEMOUT = "memout"
    """A run over its memory limit (a study's run)."""
    ERROR = "error"
    """A run that could not be made: an instance that does not read, rules clingo refuses."""

    # The word in text, f-strings and JSON, on every Python (3.11's str() of a mixed-in enum
    # would give its name).
    __str__ = str.__str__
    __format__ = str.__format__  # type: ignore[assignment]

    @classmethod
    def _missing_(cls, value: object) -> Verdict | None:
        # The words older study databases used for a run out of time.
        return cls.UNKNOWN if value in ("timeout", "timed out") else None

    def status(self, asked: Question, stopped: Stop | None = None) -> Status:
        """How a command asking ``asked`` ends with this verdict, its search ``stopped`` short
        (by the time limit, a signal, its caller) or not: a signal's own status; the time limit
        leaves a verdict open (``PARTIAL``) unless it stands however the search goes on (a
        proof, or a fix found, whose fewest edits are then unproven); else the table's."""
        if stopped is not None and stopped.by_signal:
            return stopped.status(answered=True)
        if stopped is not None and self not in SETTLED:
            return Status.PARTIAL
        meant = MEANING[self][list(Question).index(asked)]
        if meant is None:
            raise ValueError(f"a command asking {asked.value} never says {self.value}")
        return meant

    def settled(self, asked: Question, stopped: Stop | None = None) -> Verdict:
        """The verdict as a study or bench row keeps it: :attr:`UNKNOWN` when the search left
        it open (``PARTIAL``: a count cut short, one solution found where two were looked
        for)."""
        return Verdict.UNKNOWN if self.status(asked, stopped) is Status.PARTIAL else self

    def answers(self, asked: Question) -> bool:
        """Whether a run with this verdict (as :meth:`settled` keeps it) gave what its task
        asks: it counts as solved in reports."""
        return self not in FAILED and MEANING[self][list(Question).index(asked)] is not None


#                                 FIND            ONE                 RATE (None: never given)
MEANING: dict[Verdict, tuple[Status | None, Status | None, Status | None]] = {
    # (RATE: the difficulty rows of older studies said solved for rated)
    Verdict.SOLVED: (Status.OK, Status.PARTIAL, Status.OK),
    Verdict.UNIQUE: (Status.OK, Status.OK, None),
    Verdict.MULTIPLE: (Status.OK, Status.NO, Status.CANNOT_ANSWER),
    Verdict.UNSOLVABLE: (Status.NO, Status.UNSOLVABLE, Status.CANNOT_ANSWER),
    Verdict.UNKNOWN: (Status.PARTIAL, Status.PARTIAL, Status.PARTIAL),
    Verdict.FIXED: (None, Status.OK, None),
    Verdict.NO_FIX: (None, Status.NO, None),
    Verdict.STUCK: (Status.NO, None, None),
    Verdict.CONTRADICTION: (Status.NO, None, None),
    Verdict.UNFINISHED: (Status.OK, None, None),
    Verdict.MISTAKEN: (Status.NO, None, None),
    Verdict.RATED: (None, None, Status.OK),
    Verdict.INVALID: (Status.FAULT, Status.FAULT, Status.FAULT),
    Verdict.MEMOUT: (Status.TOO_LARGE, Status.TOO_LARGE, Status.TOO_LARGE),
    Verdict.ERROR: (Status.BAD_INPUT, Status.BAD_INPUT, Status.BAD_INPUT),
}
"""What each verdict means for each question: the one table of it."""

SETTLED = frozenset(
    {
        Verdict.UNIQUE,
        Verdict.UNSOLVABLE,
        Verdict.FIXED,
        Verdict.NO_FIX,
        Verdict.STUCK,
        Verdict.CONTRADICTION,
        Verdict.UNFINISHED,
        Verdict.MISTAKEN,
        Verdict.RATED,
    }
)
"""Verdicts that stand however long the search had gone on."""

FAILED = frozenset({Verdict.UNKNOWN, Verdict.INVALID, Verdict.MEMOUT, Verdict.ERROR})
"""The verdicts of a run that did not give what its task asks."""
