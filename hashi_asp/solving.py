"""Solving: puzzle facts plus the encoding go to clingo; each answer set comes back as a checked
:class:`Solution`.

Python states only the raw puzzle (``rows/1``, ``cols/1``, ``island/3``); every rule, including
which islands can be joined, lives in the encoding, so editing ``encodings/hashi.lp`` (or
passing another with ``encoding=``) changes the rules without touching Python.
"""

from __future__ import annotations

import atexit
import os
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Mapping

import clingo

from .checking import Violation, check
from .connectivity import LazyConnectivity
from .puzzle import DEFAULT_MAX_BRIDGES, MAX_BRIDGES_LIMIT, HashiError, Puzzle, Solution, bridge

_PACKAGE = Path(__file__).resolve().parent
_CONSTANT_NAME = re.compile(r"[a-z_][A-Za-z0-9_']*\Z")
_POLL_SECONDS = 0.1   # how often a running search checks the clock and Ctrl-C
# Solver settings measured on the Coelho et al. set, on 1 000 to 100 000 islands and on 2 000
# islands with few doubled bridges, where the search (not grounding) takes the time:
# - clasp's "trendy" configuration (glucose-style restarts, SAT preprocessing): 14 puzzles of
#   2 000 islands with a quarter of the bridges doubled took 10.0 s instead of 16.5 s with the
#   default configuration; the Coelho set the same; 10 000 and 100 000 islands with most
#   bridges doubled 5-7 % slower (the preprocessing);
# - --sign-def=pos tries drawing a line before leaving it out (in a puzzle most neighbours are
#   joined), only as the first try: a fixed preference (a #heuristic sign under the Domain
#   heuristic, used before) took 51.7 s on those 14 puzzles;
# - one round of failed-literal detection before the first choice finds the bridges that are
#   forced or impossible at the start; on 100 000 islands it cuts the choices tenfold (every
#   such bridge found later by a conflict sends the search back to the start).
SOLVER_OPTIONS = ("--configuration=trendy", "--sign-def=pos", "--lookahead=hybrid,1")


class EncodingError(HashiError):
    """An encoding (or added rules, or a constant) that clingo cannot load or ground."""

    exit_code = 2


class TimeLimitReached(HashiError):
    """The time limit passed while clingo was still grounding, so nothing was searched.  Only
    raised for a :class:`Deadline` made with ``abandon_grounding`` (the command line's)."""

    exit_code = 3


class Deadline:
    """A time limit counted from when it is made.  One deadline shared by every step of a
    command (reading, grounding, one or several searches, an explanation) makes the limit apply
    to the command as a whole; a number of seconds given to a library function starts its own.

    Grounding cannot be interrupted.  By default it is waited for and the search gets what time
    is left (none, if grounding took it all); with ``abandon_grounding`` (for a process about
    to exit, such as the command line) :func:`ground` raises :class:`TimeLimitReached` at the
    deadline and leaves clingo grounding in its thread.
    """

    def __init__(self, seconds: float | None, *, abandon_grounding: bool = False):
        self.seconds = seconds
        self.end = None if seconds is None else time.perf_counter() + seconds
        self.abandon_grounding = abandon_grounding

    @classmethod
    def of(cls, limit: "float | Deadline | None") -> "Deadline":
        return limit if isinstance(limit, Deadline) else cls(limit)

    def remaining(self) -> float | None:
        """Seconds left (0 once expired), or None without a limit."""
        return None if self.end is None else max(0.0, self.end - time.perf_counter())

    def expired(self) -> bool:
        return self.end is not None and time.perf_counter() >= self.end


class InvalidAnswer(HashiError):
    """An answer set that breaks the rules: the encoding is wrong, the answer is not shown."""

    exit_code = 5

    def __init__(self, number: int, violations: list[Violation]):
        shown = "; ".join(v.message for v in violations[:3])
        more = f" (and {len(violations) - 3} more)" if len(violations) > 3 else ""
        super().__init__(f"encoding error: answer {number} breaks the rules: {shown}{more}")
        self.number = number
        self.violations = violations


def encoding_path(name: str = "hashi.lp") -> Path:
    """The bundled encoding: the source checkout's ``encodings/`` when there is one, so that an
    editable install runs the file being edited, else the copy installed inside the package."""
    for folder in (_PACKAGE.parent / "encodings", _PACKAGE / "encodings"):
        if (folder / name).is_file():
            return folder / name
    raise EncodingError(f"bundled encoding {name} not found; reinstall hashi-asp")


def facts(puzzle: Puzzle) -> str:
    """The puzzle as ASP facts: the input of the encoding, and nothing derived from it.  An
    island without a number is ``island(R,C,any)``.  The puzzle's rules are clingo constants,
    not facts: for other than the standard rules a comment says which ``-c`` options to give."""
    # The source (a file name) is shown printable only: a line break in it would end the comment.
    source = "".join(ch if ch.isprintable() else "?" for ch in puzzle.source)
    lines = [f"% {source}: {puzzle.rows}x{puzzle.cols}, {len(puzzle.islands)} islands"]
    if not puzzle.standard_rules:
        lines.append(f"% rules: {puzzle.rules_text()}; run clingo with "
                     + " ".join(f"-c {name}={value}" for name, value in rule_constants(puzzle).items()))
    lines.append(f"rows({puzzle.rows}). cols({puzzle.cols}).")
    lines.extend(f"island({r},{c},{'any' if n is None else n})."
                 for (r, c), n in puzzle.islands.items())
    return "\n".join(lines) + "\n"


def rule_constants(puzzle: Puzzle) -> dict[str, str]:
    """The encoding constants that pose the puzzle's rules, where they differ from the defaults."""
    constants = {}
    if puzzle.max_bridges != DEFAULT_MAX_BRIDGES:
        constants["max_bridges"] = str(puzzle.max_bridges)
    if puzzle.no_loops:
        constants["no_loops"] = "1"
    return constants


@dataclass
class Result:
    """What a search found.

    ``status`` is ``solved`` (a solution; uniqueness not asked or not decided), ``unique``,
    ``multiple``, ``unsolvable`` or ``unknown`` (stopped before any verdict).  ``exhausted``
    says the whole search space was explored, so ``solutions`` are all there are.
    """

    status: str
    exhausted: bool
    solutions: list[Solution]
    timed_out: bool = False
    interrupted: bool = False
    stats: dict = field(default_factory=dict)


@dataclass
class Grounded:
    """A clingo control holding the grounded puzzle and rules, ready to search."""

    control: clingo.Control
    puzzle: Puzzle
    max_bridges: int          # the limit the checker applies to answers
    ground_seconds: float
    no_loops: bool = False    # whether the checker forbids cycles


@dataclass
class Search:
    """How a search ended: ``exhausted`` (nothing left to find) or stopped by the time limit,
    by Ctrl-C, or because ``on_model`` asked to stop."""

    exhausted: bool
    timed_out: bool = False
    interrupted: bool = False
    seconds: float = 0.0
    core: list[int] | None = None   # no model under the assumptions: the ones clingo blamed


def ground(puzzle: Puzzle, *,
           encoding: str | os.PathLike | None = None,
           additions: Iterable[str | os.PathLike] = (),
           constants: Mapping[str, str | int] | None = None,
           max_bridges: int | None = None,
           no_loops: bool | None = None,
           arguments: Iterable[str] = (),
           program: str = "",
           time_limit: float | Deadline | None = None) -> Grounded:
    """Load the encoding (or ``encoding``), ``additions`` and the puzzle's facts into clingo and
    ground them.  ``arguments`` are further clingo options (``--models=0``, ``--enum-mode=brave``);
    ``program`` is further ASP text grounded with the facts (the reasoning module's helper atoms,
    such as ``#external relax(R,C) : island(R,C,_).``).  The puzzle's own rules apply unless
    ``max_bridges``, ``no_loops`` or ``constants`` of those names say otherwise.

    clingo loads and grounds in a thread of its own while this one waits in short slices, so
    Ctrl-C (``KeyboardInterrupt``) stops the wait at once, leaving clingo to finish in the
    background; ``time_limit`` does the same if it is a :class:`Deadline` with
    ``abandon_grounding``."""
    constants = {**rule_constants(puzzle), **{str(k): str(v) for k, v in (constants or {}).items()}}
    if max_bridges is not None:
        constants["max_bridges"] = str(max_bridges)
    if no_loops is not None:
        constants["no_loops"] = "1" if no_loops else "0"
    limit = max_bridges_of(constants)
    loops_forbidden = no_loops_of(constants)
    lazy = _switch(constants, "lazy_connectivity")
    messages: list[str] = []
    arguments = list(arguments)
    # clingo refuses an option given twice: the caller's choice replaces the default.
    defaults = [option for option in SOLVER_OPTIONS
                if not any(given.startswith(option.split("=")[0] + "=") for given in arguments)]
    control = clingo.Control([*defaults, *_constant_arguments(constants), *arguments],
                             logger=lambda code, message: messages.append(message))
    if lazy:
        # The encoding leaves connectivity out; a propagator adds it back as lazy cuts.
        control.register_propagator(LazyConnectivity(puzzle))
    files = [Path(encoding) if encoding else encoding_path(), *map(Path, additions)]
    for path in files:
        _check_rules_file(path)
    text = facts(puzzle) + program
    started = time.perf_counter()

    def load_and_ground() -> None:
        _load(control, files, text, messages)
        try:
            control.ground([("base", [])])
        except RuntimeError:
            raise EncodingError(_first_error(messages, "grounding failed")) from None

    _in_background(load_and_ground, Deadline.of(time_limit))
    return Grounded(control, puzzle, limit, time.perf_counter() - started, loops_forbidden)


_abandoned: list[threading.Event] = []     # set when the abandoned grounding ends


def grounding_abandoned() -> bool:
    """Whether clingo is still grounding in a thread nobody waits for any more (after Ctrl-C or
    a deadline with ``abandon_grounding``).  The thread cannot be stopped, and the interpreter's
    shutdown may free what it works on: a process should then end with ``os._exit`` (as the
    command line does), or else it waits for the grounding to end before it exits."""
    return not all(done.is_set() for done in _abandoned)


def _wait_for_abandoned() -> None:
    for done in _abandoned:
        done.wait()


def _in_background(work: Callable[[], None], deadline: Deadline) -> None:
    """Run ``work``, a clingo call that cannot be interrupted, in a thread, and wait for it here
    in slices of ``_POLL_SECONDS`` (clingo lets go of Python's lock while it works), so that
    ``KeyboardInterrupt`` arrives at once.  Errors of ``work`` are raised here."""
    failure: list[BaseException] = []
    done = threading.Event()

    def run() -> None:
        try:
            work()
        except BaseException as error:      # handed to the waiting thread
            failure.append(error)
        finally:
            done.set()

    # (An Event, not Thread.join: a join cut short by KeyboardInterrupt marks the thread as
    # ended in Python 3.11 although it is still running.)
    threading.Thread(target=run, name="hashi-asp grounding", daemon=True).start()
    try:
        while not done.wait(_POLL_SECONDS):
            if deadline.abandon_grounding and deadline.expired():
                raise TimeLimitReached(f"time limit of {deadline.seconds:g} s reached while clingo "
                                       "was grounding, before any search: status unknown")
    except BaseException:
        if not done.is_set():
            if not _abandoned:
                atexit.register(_wait_for_abandoned)
            _abandoned.append(done)
        raise
    if failure:
        raise failure[0]


def search(control: clingo.Control, on_model: Callable[[clingo.Model], bool | None], *,
           time_limit: float | Deadline | None = None,
           assumptions: Iterable[tuple[clingo.Symbol, bool] | int] = ()) -> Search:
    """Run clingo's search, calling ``on_model`` for each model in this thread (return False
    to stop); honour ``time_limit`` (seconds from now, or a :class:`Deadline`) and Ctrl-C,
    keeping whatever was already seen.
    ``assumptions`` are (atom, truth value) pairs or program literals; when there is no model
    under them, ``Search.core`` holds the literals of those clingo blamed."""
    started = time.perf_counter()
    expired = Deadline.of(time_limit).expired

    timed_out = interrupted = stopped = False
    assumptions = list(assumptions)
    core = None
    with control.solve(yield_=True, async_=True, assumptions=assumptions) as handle:
        try:
            while True:
                handle.resume()
                while not timed_out and not handle.wait(_POLL_SECONDS):
                    timed_out = expired()
                if timed_out:
                    break
                model = handle.model()
                if model is None:
                    break
                if on_model(model) is False:
                    stopped = True
                    break
                # A fast enumeration never waits, so the clock is read after each model too.
                if expired():
                    timed_out = True
                    break
        except KeyboardInterrupt:
            interrupted = True
        if timed_out or interrupted or stopped:
            handle.cancel()
        exhausted = not (timed_out or interrupted or stopped) and handle.get().exhausted
        if exhausted and assumptions and handle.get().unsatisfiable:
            core = list(handle.core())
    return Search(exhausted, timed_out, interrupted, time.perf_counter() - started, core)


def solve(puzzle: Puzzle, models: int = 1, *,
          encoding: str | os.PathLike | None = None,
          additions: Iterable[str | os.PathLike] = (),
          constants: Mapping[str, str | int] | None = None,
          max_bridges: int | None = None,
          no_loops: bool | None = None,
          time_limit: float | Deadline | None = None,
          on_solution: Callable[[Solution], None] | None = None) -> Result:
    """Find up to ``models`` solutions (0 = all), each checked by :func:`check` before it is
    returned or passed to ``on_solution`` (called as each is found).

    ``encoding`` replaces the bundled encoding; ``additions`` are extra rule files;
    ``constants`` are clingo ``-c`` constants.  ``max_bridges`` and ``no_loops`` set the
    constants of those names and the checker's rules (default: the constants if given, else the
    puzzle's own rules).  ``time_limit`` (seconds, or a :class:`Deadline`) counts from the
    start, grounding included.  Raises :class:`EncodingError` if the rules do not load and
    :class:`InvalidAnswer` if an answer breaks the rules.
    """
    deadline = Deadline.of(time_limit)
    grounded = ground(puzzle, encoding=encoding, additions=additions, constants=constants,
                      max_bridges=max_bridges, no_loops=no_loops,
                      # Solutions are sets of bridges: an encoding with helper choices must not
                      # list one twice, so enumerate projected onto the shown atoms.
                      arguments=[f"--models={models}", *(["--project=show"] if models != 1 else [])],
                      time_limit=deadline)
    solutions: list[Solution] = []

    def accept(model: clingo.Model) -> bool:
        solutions.append(checked(grounded, model, len(solutions) + 1))
        if on_solution is not None:
            on_solution(solutions[-1])
        return models == 0 or len(solutions) < models

    outcome = search(grounded.control, accept, time_limit=deadline)
    return Result(status=_status(len(solutions), outcome.exhausted, models),
                  exhausted=outcome.exhausted, solutions=solutions,
                  timed_out=outcome.timed_out, interrupted=outcome.interrupted,
                  stats=_statistics(grounded.control, grounded.ground_seconds, outcome.seconds))


def checked(grounded: Grounded, model: clingo.Model, number: int) -> Solution:
    """The model's solution, after the independent checker has passed it."""
    try:
        solution = decode(model.symbols(shown=True))
        violations = check(grounded.puzzle, solution, max_bridges=grounded.max_bridges,
                           no_loops=grounded.no_loops)
    except ValueError as malformed:
        violations = [Violation("malformed", str(malformed))]
    if violations:
        raise InvalidAnswer(number, violations)
    return solution


def decode(symbols: Iterable[clingo.Symbol]) -> Solution:
    """The ``bridge/5`` atoms of an answer set as a solution (other shown atoms are ignored).
    Each atom is read from its text: one call into clingo per atom instead of one per argument
    makes this several times faster, which counts when every one of many answers is checked."""
    bridges = []
    for text in map(str, symbols):
        if not (text == "bridge" or text.startswith("bridge(")):
            continue
        match = _BRIDGE_ATOM.fullmatch(text)
        if match is None:
            raise ValueError(f"answer shows {text}, expected bridge(R1,C1,R2,C2,K) with integers")
        r1, c1, r2, c2, k = map(int, match.groups())
        bridges.append(bridge((r1, c1), (r2, c2), k))
    return Solution.of(bridges)


_BRIDGE_ATOM = re.compile(r"bridge\((-?\d+),(-?\d+),(-?\d+),(-?\d+),(-?\d+)\)")


def _status(found: int, exhausted: bool, models: int) -> str:
    if found == 0:
        return "unsolvable" if exhausted else "unknown"
    if models == 1:
        return "solved"
    if found >= 2:
        return "multiple"
    return "unique" if exhausted else "solved"


def _constant_arguments(constants: Mapping[str, str]) -> list[str]:
    arguments = []
    for name, value in constants.items():
        if not _CONSTANT_NAME.match(name):
            raise EncodingError(f"constant name {name[:40]!r} is not a clingo identifier")
        # clingo would report a value it cannot read through its logger with bytes that are not
        # text, and stop the process; its own term reader says what is wrong instead.
        messages: list[str] = []
        try:
            clingo.parse_term(value, logger=lambda code, message: messages.append(message))
        except RuntimeError as error:
            raise EncodingError(f"-c {name}={value[:40]}: not a clingo term: "
                                + _first_error(messages, " ".join(str(error).split()))) from None
        arguments += ["-c", f"{name}={value}"]
    return arguments


def no_loops_of(constants: Mapping[str, str]) -> bool:
    """The ``no_loops`` constant: 1 forbids cycles (as the encoding tests), 0 or unset allows them."""
    return _switch(constants, "no_loops")


def _switch(constants: Mapping[str, str], name: str) -> bool:
    """A constant that is 0 (the default) or 1."""
    value = str(constants.get(name, "0"))
    if value not in ("0", "1"):
        raise EncodingError(f"{name} must be 0 or 1, got {value!r}")
    return value == "1"


def max_bridges_of(constants: Mapping[str, str]) -> int:
    """The ``max_bridges`` constant (2 unless set), which the checker and readers follow too."""
    value = str(constants.get("max_bridges", "2"))
    if not re.fullmatch(r"[+-]?[0-9]+", value.strip()):
        raise EncodingError(f"max_bridges must be an integer, got {value[:40]!r}")
    limit = int(value) if len(value.strip()) <= 18 else MAX_BRIDGES_LIMIT + 1
    if not 1 <= limit <= MAX_BRIDGES_LIMIT:
        raise EncodingError(f"max_bridges must be 1..{MAX_BRIDGES_LIMIT}, got {value[:40]}")
    return limit


def _check_rules_file(path: Path, seen: set[Path] | None = None) -> None:
    """A rules file clingo can load: a file of UTF-8 text, as are the files it ``#include``s.
    (clingo passes its messages on as they are, and one quoting bytes that are not UTF-8 would
    stop the process inside clingo's Python module; so those are refused here, with their
    place.)"""
    seen = set() if seen is None else seen
    if path.is_dir():
        raise EncodingError(f"{path}: is a directory, not an encoding file")
    if not path.is_file():
        raise EncodingError(f"{path}: {'not a regular file' if path.exists() else 'no such encoding file'}")
    try:
        data = path.read_bytes()
    except (OSError, ValueError) as error:
        raise EncodingError(f"{path}: cannot read: {getattr(error, 'strerror', None) or error}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise EncodingError(f"{path}:{line}:{column}: not UTF-8 text (byte "
                            f"0x{data[error.start]:02x}); clingo reads rules as UTF-8") from None
    seen.add(path.resolve())
    for name in _INCLUDE.findall(text):
        # clingo looks beside the including file, then in the working directory; a file it
        # cannot find is its own error, reported when it loads.
        for candidate in (path.parent / name, Path(name)):
            if candidate.is_file():
                if candidate.resolve() not in seen:
                    _check_rules_file(candidate, seen)
                break


_INCLUDE = re.compile(r'#include\s*"((?:[^"\\\n]|\\.)*)"')


def _load(control: clingo.Control, files: list[Path], program: str, messages: list[str]) -> None:
    for path in files:
        try:
            control.load(str(path))
        except RuntimeError:
            raise EncodingError(_first_error(messages, f"{path}: cannot load")) from None
    try:
        control.add("base", [], program)
    except RuntimeError:
        raise EncodingError(_first_error(messages, "puzzle facts rejected")) from None


def _first_error(messages: list[str], fallback: str) -> str:
    """clingo's first error, on one line (it names file, line and column)."""
    for message in messages:
        if "error:" in message:
            return " ".join(message.split())
    return " ".join(messages[0].split()) if messages else fallback


def _statistics(control: clingo.Control, ground_seconds: float, solve_seconds: float) -> dict:
    solvers = control.statistics["solving"]["solvers"]
    return {"ground_seconds": round(ground_seconds, 6),
            "solve_seconds": round(solve_seconds, 6),
            "choices": int(solvers["choices"]),
            "conflicts": int(solvers["conflicts"])}
