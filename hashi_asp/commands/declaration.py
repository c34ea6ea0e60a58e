"""What a command is: its options, declared once (:class:`Option`), and one function that takes
what the user gave (:class:`Given`) and returns an :class:`Outcome` with a
:class:`~hashi_asp.status.Status`.

The fronts derive everything else from the declaration:

- the command line (:mod:`hashi_asp.cli`) makes a click command of it, each option a click
  option or argument with its type, range, default and help;
- the JSON API (:mod:`hashi_asp.web.api`) reads a request body by it, every value checked for
  its type and range, for the commands and options its own reviewed list names
  (:mod:`hashi_asp.web.served`: none that names a file, starts a process or reaches another
  machine);
- a study variant (:mod:`hashi_asp.study`) reads its option string by the searching commands'
  declaration, through the command line's own parser.

Nothing here knows clingo, click or HTTP: a front gives the values as Python values (numbers,
flags, strings), and :meth:`Command.given` turns them into the puzzle, the program and the
deadline a command works with.
"""

from __future__ import annotations

import contextlib
import math
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import HashiError
from ..status import Question, Status, Stop, Verdict
from ..stopping import Deadline

if TYPE_CHECKING:
    from .output import Look

T = TypeVar("T")

# The kinds of values an option takes.
INT, FLOAT, SECONDS, FLAG, CHOICE, TEXT = "int", "float", "seconds", "flag", "choice", "text"
PUZZLE = "puzzle"  # a puzzle: a file, '-', or its text (over the API: its text)
BRIDGES = "bridges"  # bridges as `check` reads them: a file, '-', or JSON (over the API: JSON)
FILE = "file"  # a file to read (never over the API)
OUTPUT = "output"  # a file to write (never over the API)
FOLDER = "folder"  # a folder to write into (never over the API)
PATHS = "paths"  # files or folders of puzzles (never over the API)
KINDS = (INT, FLOAT, SECONDS, FLAG, CHOICE, TEXT, PUZZLE, BRIDGES, FILE, OUTPUT, FOLDER, PATHS)
NAMING_FILES = {FILE, OUTPUT, FOLDER, PATHS}
READ = (PUZZLE, BRIDGES, FILE, PATHS)
"""The kinds of options whose files a command reads: no file it writes may be one of them."""


@dataclass(frozen=True)
class Option:
    """One option of a command (or its argument, with ``argument``): ``name`` as users write it
    (``max-bridges``; ``dest``, the Python name, defaults to it with underscores), its ``kind``,
    ``default``, range (``low`` to ``high``; ``low_open``: above ``low``), ``choices``, and
    ``help``.  ``short`` is the one-letter form (``-n``), ``negative`` the name of a flag's
    opposite (``loops`` for ``--no-loops/--loops``, whose default None means "the puzzle's
    own"), ``multiple`` takes the option again and again, ``nargs`` takes that many values at
    once.  (Which options the JSON API offers is not said here: see
    :mod:`hashi_asp.web.served`.)"""

    name: str
    kind: str
    help: str = ""
    default: Any = None
    low: float | None = None
    high: float | None = None
    low_open: bool = False
    choices: Sequence[str] = ()
    short: str | None = None
    dest: str | None = None
    metavar: str | None = None
    negative: str | None = None
    multiple: bool = False
    required: bool = False
    argument: bool = False
    nargs: int = 1

    def __post_init__(self) -> None:
        assert self.kind in KINDS, self.kind

    @property
    def key(self) -> str:
        """The Python name of the value (``max_bridges``)."""
        return self.dest or self.name.replace("-", "_")

    def expected(self) -> str:
        """What the option takes, in words, for messages."""
        if self.kind == CHOICE:
            return "one of " + ", ".join(self.choices)
        if self.kind == FLAG:
            return "true or false"
        if self.kind == BRIDGES:
            return "bridges as JSON"
        if self.kind in (INT, FLOAT, SECONDS):
            whole = "whole " if self.kind == INT else ""
            span = ""
            if self.low is not None:
                span += f" {'above' if self.low_open else 'from'} {self.low:g}"
            if self.high is not None:
                span += f" to {self.high:g}"
            return f"a {whole}number{span}"
        return "a string"

    def from_json(self, value: Any) -> Any:
        """A value of a JSON request, checked for this option's kind and range; a mistake raises
        :class:`OptionError` naming the option."""
        import json  # (only a server reads JSON requests: the command line's start-up is spared it)

        wrong = f"option {self.name!r}: expected {self.expected()}"
        try:
            wrong += f", got {json.dumps(value)[:40]}"
        except ValueError:  # (an integer too long for Python to write)
            wrong += f", got a number of about {round(abs(value).bit_length() * 0.30103)} digits"
        if self.kind == FLAG:
            if not isinstance(value, bool):
                raise OptionError(wrong)
            return value
        if self.kind in (INT, FLOAT, SECONDS):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise OptionError(wrong)
            if not finite(value) or (self.kind == INT and not float(value).is_integer()):
                raise OptionError(wrong)
            if not self.within(value):
                raise OptionError(wrong)
            return int(value) if self.kind == INT else float(value)
        if self.kind == BRIDGES:  # bridges as JSON, or as the text `check` reads
            return value if isinstance(value, str) else json.dumps(value)
        if not isinstance(value, str) or (self.kind == CHOICE and value not in self.choices):
            raise OptionError(wrong)
        return value

    def within(self, value: float) -> bool:
        """Whether ``value`` is in the option's range."""
        if self.low is not None and (value <= self.low if self.low_open else value < self.low):
            return False
        return self.high is None or value <= self.high


def finite(value: float) -> bool:
    """Whether ``value`` is a number a float holds: not NaN, not infinite, and no integer too
    large for one (``math.isfinite`` of an integer of 310 digits raises ``OverflowError``;
    comparing it with the largest float does not)."""
    if isinstance(value, int):
        return abs(value) <= sys.float_info.max
    return math.isfinite(value)


class OptionError(HashiError):
    """An option's value that its declaration does not allow."""


# ---------------------------------------------------------------------------- what was given


@contextlib.contextmanager
def _no_progress() -> Iterator[Any]:
    class Quiet:
        """A progress bar that shows nothing: every method of tqdm's does nothing."""

        n = 0

        def __getattr__(self, name: str) -> Callable[..., None]:
            return lambda *args, **kwargs: None

    yield Quiet()


def _unshown(text: str) -> None:
    """A front's ``show`` that shows nothing."""


@dataclass
class Hooks:
    """What a front lets a command do while it runs: ``show`` text on standard output as it is
    made (a solution as it is found), ``note`` a line for the user (standard error), follow
    progress (``progress(total=..., desc=..., unit=...)``, a context manager whose value has
    ``update(n)``: tqdm on a terminal), and how text reports mark what they point at:
    ``highlight`` (islands and bridges) and ``undecided`` (the ``?`` of a pair whose bridges
    differ), colours on a terminal; plain without them.  ``keeps``: the front runs command
    after command in one process (a server), so a command may keep what the next will use
    again (``steps``: the walkthroughs of the puzzles played last, which Next step reads the
    next step off); False where each command runs once in a process of its own."""

    show: Callable[[str], None] = _unshown
    note: Callable[[str], None] = lambda text: None
    progress: Callable[..., contextlib.AbstractContextManager] = field(
        default=lambda **how: _no_progress()
    )
    highlight: Callable[[str], str] | None = None
    undecided: Callable[[str], str] | None = None
    keeps: bool = False

    @property
    def showing(self) -> bool:
        """Whether text shown as it is made reaches anyone (not over the API, whose document
        says it all): what is drawn only to be shown need not be drawn."""
        return self.show is not _unshown


@dataclass
class Given:
    """What a command works with: the option values by their Python names (``given.models``),
    the ``puzzle`` read with the rules given, the ``program`` of a searching command, the
    ``deadline`` of the whole command, the ``hooks`` of its front, ``argument``, the puzzle
    as the user gave it (a path, or the text), and ``reading``, the command's options that
    name what it reads (:data:`READ`)."""

    values: dict[str, Any]
    deadline: Deadline
    hooks: Hooks = field(default_factory=Hooks)
    puzzle: Any = None
    program: Any = None
    rules: dict[str, Any] = field(default_factory=dict)
    argument: str | None = None
    reading: tuple[Option, ...] = ()

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["values"][name]
        except KeyError:
            raise AttributeError(name) from None

    @property
    def look(self) -> Look:
        """How text reports are drawn: the style of ``--format`` (text or unicode), the front's
        palette, and the word for a stop by signal."""
        from .output import PLAIN, Look, Palette

        hooks = self.hooks
        palette = PLAIN
        if hooks.highlight and hooks.undecided:
            palette = Palette(hooks.highlight, hooks.undecided)
        style = "unicode" if self.values.get("format") == "unicode" else "text"
        stop = self.deadline.stopped
        return Look(style, palette, stop.value if stop and stop.by_signal else "interrupted")


# ---------------------------------------------------------------------------- what came of it


@dataclass
class Printed:
    """What the command line prints for a format other than JSON: ``out`` on standard output,
    ``err`` on standard error (each as given: the text ends with its own newline)."""

    out: str = ""
    err: str = ""


@dataclass
class Outcome:
    """A command's result: its ``status``; ``document``, the JSON document (made only when
    asked for); ``printed``, what the command line prints in the format chosen (made only when
    asked for); ``result``, the library's own result.  A command that searches says too what
    it found: its ``verdict``, the ``question`` it asked and why its search ``stopped`` short
    (the time limit, a signal), if it did (:meth:`of`)."""

    status: Status
    document: Callable[[], dict] | None = None
    printed: Callable[[], Printed] | None = None
    result: Any = None
    verdict: Verdict | None = None
    question: Question | None = None
    stopped: Stop | None = None

    @classmethod
    def of(cls, verdict: Verdict, asked: Question, stopped: Stop | None, **rest: Any) -> Outcome:
        """The outcome of a command asking ``asked`` whose search found ``verdict``, stopped
        short (by the time limit, a signal) or not: its status by the one table
        (:meth:`~hashi_asp.status.Verdict.status`)."""
        status = verdict.status(asked, stopped)
        return cls(status, verdict=verdict, question=asked, stopped=stopped, **rest)


def lines(text: str) -> str:
    """``text`` as lines to print: with a final newline, and none for no text."""
    return text + "\n" if text else ""


# ---------------------------------------------------------------------------- the command


@dataclass(frozen=True)
class Command:
    """A command: its ``name``, ``help`` (the first sentence is its summary), ``options`` in the
    order the command line shows them, and the function that ``run``s it.  ``prepare`` turns
    the values given into a :class:`Given` (the puzzle read, the program built:
    :mod:`.shared_options`).  A group of ``commands`` runs one of them.  ``asks``: what a
    command that gives a verdict asks of a puzzle (what its verdicts mean,
    :class:`~hashi_asp.status.Question`); ``detail``, what a study's row of it keeps of its
    result, when the document's plain values do not say it (:mod:`hashi_asp.study.runs`)."""

    name: str
    help: str
    options: tuple[Option, ...]
    run: Callable[[Given], Outcome]
    prepare: Callable[[Given, Reader], None] | None = None
    commands: tuple[Command, ...] = ()
    """A command of commands (``study run``, ``study report``...): its own are these."""
    asks: Question | None = None
    detail: Callable[[Any], dict] | None = None

    def option(self, name: str) -> Option:
        return next(option for option in self.options if option.name == name)

    @property
    def searches(self) -> bool:
        """Whether the command's work can take long (a search, a walkthrough, a generation): it
        has a time limit for the whole command.  Those without one (check, convert, render)
        answer in about the time it takes to read the puzzle."""
        return any(option.kind == SECONDS for option in self.options)

    def kept(self, outcome: Outcome) -> dict[str, Any]:
        """What a study's row of a run keeps of its outcome (its detail): what the command
        declares (:attr:`detail`: a count, a walkthrough's steps, a rating), else the plain
        values of its document but its status."""
        if self.detail is not None:
            return {} if outcome.result is None else self.detail(outcome.result)
        if outcome.document is None:
            return {}
        plain = (bool, int, float, str)
        kept = {key: value for key, value in outcome.document().items() if isinstance(value, plain)}
        kept.pop("status", None)
        return kept

    @property
    def task(self) -> bool:
        """Whether a study may run it, one run per instance: it reads a puzzle and gives a
        verdict (:attr:`asks`)."""
        return self.asks is not None and any(option.kind == PUZZLE for option in self.options)

    def given(
        self,
        values: dict[str, Any],
        *,
        deadline: Deadline | None = None,
        hooks: Hooks | None = None,
        reader: Reader | None = None,
        program: Any = None,
    ) -> Given:
        """The values given, by Python name (an option not given takes its default), as what
        :attr:`run` works with: the puzzle read by ``reader`` (the command line's by default),
        the program built, ``deadline`` the time limit of the whole command.  A front that has
        the ``program`` already (a study's variant, its files where its runner wrote them)
        gives it instead of the values of the program's options."""
        known = {option.key for option in self.options}
        unknown = sorted(set(values) - known)
        if unknown:
            raise OptionError(f"{self.name}: no option {unknown[0]!r}")
        given = Given(
            {**{option.key: option.default for option in self.options}, **values},
            deadline or Deadline(None),
            hooks or Hooks(),
            program=program,
            reading=tuple(option for option in self.options if option.kind in READ),
        )
        if self.prepare is not None:
            self.prepare(given, reader or Reader())
        return given


class Reader:
    """How a front reads what names a puzzle or bridges: the command line reads a path, '-'
    (standard input) or the text itself; the API (``files=False``) only the text, named
    ``source`` in messages (a study names it by its instance).  With a
    ``deadline``, reading counts towards it: an input that never comes (a FIFO nobody writes
    to, standard input kept open) ends at the time limit, or at a signal."""

    def __init__(
        self, *, files: bool = True, deadline: Deadline | None = None, source: str = "<text>"
    ):
        self.files = files
        self.deadline = deadline
        self.source = source  # how messages name a puzzle given as its text

    def puzzle(self, argument: str, notation: str | None, rules: dict[str, Any]) -> Any:
        from .. import notations

        if self.files:
            read = lambda: notations.read(argument, notation=notation, **rules)  # noqa: E731
            return self._within(read, "reading the puzzle")
        return notations.parse(argument, notation=notation, source=self.source, **rules)

    def bridges(self, argument: str, name: str) -> list:
        from .. import notations

        if self.files:
            return self._within(lambda: notations.read_solutions(argument), "reading the bridges")
        return notations.parse_solutions(argument, name)

    def play(self, argument: str, name: str, puzzle: Any) -> Any:
        """A player's state (:mod:`hashi_asp.play`), judged against ``puzzle``."""
        from .. import play

        if self.files:
            return self._within(lambda: play.read(argument, puzzle), "reading the bridges")
        return play.parse(argument, puzzle, name)

    def _within(self, read: Callable[[], T], doing: str) -> T:
        if self.deadline is None:
            return read()
        from ..stopping import uninterruptible

        found: list[T] = []
        uninterruptible(lambda: found.append(read()), self.deadline, doing)
        return found[0]
