"""One run of one cell of a study: an instance, a variant and a seed, run by the study's task,
a command, with a time limit and a memory limit of its own.

- :class:`Task` is what travels to a worker: the instance's text (no shared file system is
  assumed), the variant with its rule files, the seed, the task and the limits.
- :func:`perform` runs a task in the calling process through its command's unit, as the
  command line and the JSON API run it, and makes its :class:`Record`, the row the study
  keeps, from the outcome in one way for every command.  It never raises for what the run
  does: an instance that does not read, an encoding clingo refuses, an answer the checker
  rejects, a time limit or running out of memory are each a row with their status.
- :func:`lost` is the row of a run whose process ended without one.

A task is work for :mod:`hashi_asp.workers`: its :meth:`Task.make` in a runner process (with the
variant's files in the runner's folder and the run's memory limit on its address space,
:func:`_in_runner`) or in this process, its :meth:`Task.lost` the row of a runner that ended
without one.
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import hashlib
import json
import platform
import re
import socket
import time
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..asp.interface import Program
from ..errors import HashiError
from ..puzzle import Puzzle, Solution
from ..status import Question, Status, Stop, Verdict
from ..stopping import Deadline, Stopped

if TYPE_CHECKING:
    from ..workers.runners import Serving
    from .variants import Variant

DATASET_NAME = re.compile(
    r"Hs_(?P<size>\d+)_(?P<n>\d+)_(?P<beta>\d+)_(?P<alpha>\d+)_(?P<id>\d+)\.has$"
)
"""File names of the Coelho et al. dataset (and of ``generate --out``): side, islands, beta %,
alpha %, number."""


@dataclass(frozen=True)
class Task:
    """One run to make: ``instance`` (its path as given) and its ``text``, the ``variant``,
    clingo's ``seed``, the ``task`` (a command of :data:`hashi_asp.commands.TASKS`), the limits
    (seconds, megabytes), and ``alone``: a race (``--connectivity race``) runs its first variant
    alone, as the study's other jobs use the cores already.  ``module`` declares the command,
    registered where the run is made if it is not hashi-asp's
    (:func:`~hashi_asp.commands.register`)."""

    instance: str
    text: str
    variant: Variant
    seed: int = 1
    task: str = "solve"
    time_limit: float | None = None
    memory_limit: int | None = None
    alone: bool = False
    module: str = ""
    options: tuple[tuple[str, Any], ...] = ()
    """The values of the command's own options the task gives it (``unique --no-propose``)."""

    @property
    def key(self) -> tuple[str, str, int]:
        return self.instance, self.variant.name, self.seed

    def make(self, runner: Serving | None = None, *, within: Deadline | None = None) -> Record:
        """This run's row: made in a runner process (``runner``) with its limits, or in this
        process (no memory limit, no peak memory) as a part of ``within``
        (:func:`perform`)."""
        if runner is None:
            return perform(self, within=within)
        return _in_runner(self, runner)

    def lost(self, message: str, status: Verdict | None = None) -> Record:
        """The row of this run when its runner ended without one (:func:`lost`), with
        ``status`` if given (``unknown``: ended at its time limit)."""
        record = lost(self, message)
        record.status = (status or Verdict(record.status)).value
        return record


@dataclass
class Record:
    """One run's row.  ``status`` is the verdict of the task's command as a row keeps it
    (:meth:`~hashi_asp.status.Verdict.settled`: ``unknown`` where the time limit left it open),
    or what kept the run from one (``invalid``, ``memout``, ``error``).  ``wall`` is the run's
    own seconds (reading the instance to the verdict, every answer checked), ``read``,
    ``ground``, ``search`` its parts; ``answers`` the answers the program gave, ``checked`` 1
    when there were answers and the independent checker passed every one; ``memory`` the run
    process's peak resident set in MB; ``detail`` what the task adds, as JSON."""

    instance: str
    instance_hash: str
    variant: str
    seed: int
    task: str
    status: str = Verdict.ERROR.value
    message: str = ""
    islands: int | None = None
    size: str | None = None
    alpha: float | None = None
    beta: float | None = None
    wall: float = 0.0
    read: float | None = None
    ground: float | None = None
    search: float | None = None
    conflicts: int | None = None
    choices: int | None = None
    answers: int = 0
    checked: int = 0
    memory: float | None = None
    host: str = ""
    hashi_asp: str = ""
    clingo: str = ""
    python: str = ""
    detail: str = ""
    finished: str = ""

    @property
    def key(self) -> tuple[str, str, int]:
        return self.instance, self.variant, self.seed

    @property
    def answered(self) -> bool:
        """Whether the run gave what its task asks, counted as solved in reports
        (:meth:`~hashi_asp.status.Verdict.answers` for its command's question; for a command
        not registered here, for any)."""
        from .. import commands

        try:
            verdict = Verdict(self.status)
        except ValueError:  # (no word a study writes)
            return False
        asked = commands.command(self.task).asks if self.task in commands.NAMES else None
        return any(verdict.answers(question) for question in ([asked] if asked else Question))


COLUMNS = tuple(f.name for f in fields(Record))


def digest(text: str) -> str:
    """An instance's content hash (SHA-256 of its text)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------------- one run, here


def perform(
    task: Task, program: Program | None = None, *, within: Deadline | None = None
) -> Record:
    """Run ``task`` in this process (``program``: the variant's, where its files are here) with
    its time limit, a part of ``within`` (the whole study's, in this process): a stop of that
    one (a signal) is no run's verdict and raises :class:`~hashi_asp.stopping.Stopped`."""
    import clingo

    from ..version import VERSION

    record = Record(task.instance, digest(task.text), task.variant.name, task.seed, task.task)
    record.host, record.hashi_asp = _host(), VERSION
    record.clingo, record.python = clingo.__version__, platform.python_version()
    program = task.variant.program if program is None else program
    deadline = Deadline(task.time_limit) if within is None else within.at_most(task.time_limit)
    try:
        _run(task, program, record, deadline)
    except Stopped as late:
        if late.why is not Stop.TIME:  # the study stops: no row
            raise
        record.status, record.message = Verdict.UNKNOWN.value, str(late)
    except MemoryError:
        limit = f" (the memory limit of {task.memory_limit} MB)" if task.memory_limit else ""
        record.status, record.message = Verdict.MEMOUT.value, f"out of memory{limit}"
    except HashiError as error:  # a fault is an answer the independent checker refused
        fault = error.status is Status.FAULT
        record.status = (Verdict.INVALID if fault else Verdict.ERROR).value
        record.answers, record.message = getattr(error, "number", 0), str(error)
    except RuntimeError as error:  # clingo's own (std::bad_alloc when out of memory)
        memory = "bad_alloc" in str(error)
        record.status = (Verdict.MEMOUT if memory else Verdict.ERROR).value
        record.message = f"clingo: {error}"
    except Exception as error:  # a fault of the program: a row that says so, not a lost study
        record.status, record.message = Verdict.ERROR.value, f"{type(error).__name__}: {error}"
    record.finished = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    return record


@functools.cache
def _host() -> str:
    """This machine's name, asked once: the call takes a third of a millisecond, a tenth of
    what a run of a small puzzle takes."""
    return socket.gethostname()


def _run(task: Task, program: Program, record: Record, deadline: Deadline) -> None:
    """The task's command given what the JSON API gives a request (the instance's text, named
    by the instance in messages; the variant's rules; the deadline) and the variant's program,
    then run; the row made from its outcome, in one way for every command."""
    from .. import commands
    from ..commands.declaration import PUZZLE, Reader

    try:  # (its module loaded before the clock starts)
        unit = commands.command(task.task, task.module)
    except (ImportError, LookupError) as missing:
        raise HashiError(f"task {task.task}: no such command here ({missing})") from None
    keys = {option.key for option in unit.options}
    values = {k: v for k, v in task.variant.rules.items() if k in keys}
    values.update((o.key, task.text) for o in unit.options if o.kind == PUZZLE)
    values.update({"time_limit": task.time_limit} if "time_limit" in keys else {})
    values.update(task.options)
    started = time.perf_counter()
    try:
        reader = Reader(files=False, source=task.instance)
        given = unit.given(values, deadline=deadline, reader=reader, program=program)
        record.read = round(time.perf_counter() - started, 6)
        _describe(record, given.puzzle, None)
        ran = None  # the variant a race run alone ran
        if isinstance(given.program, Program):
            models = getattr(given, "models", 0)  # (solve's -n; the others decide all)
            given.program, ran = _for_the_run(given.program, given.puzzle, task, models)
        outcome = unit.run(given)
    finally:
        record.wall = round(time.perf_counter() - started, 6)
    cut = outcome.stopped or deadline.stopped
    if cut is not None and cut is not Stop.TIME:  # the study stops: the run is cut, no row
        raise deadline.reached("a run")
    if outcome.verdict is None or outcome.question is None:
        raise HashiError(f"task {task.task}: the command gives no verdict")
    verdict = outcome.verdict.settled(outcome.question, outcome.stopped)
    record.status = verdict.value
    if verdict is Verdict.UNKNOWN and outcome.stopped is Stop.TIME and task.time_limit:
        record.message = f"time limit of {task.time_limit:g} s reached, the verdict left open"
    result = outcome.result
    stats = getattr(result, "stats", None) or {}
    record.ground, record.search = stats.get("ground_seconds"), stats.get("solve_seconds")
    record.conflicts, record.choices = stats.get("conflicts"), stats.get("choices")
    # The answers handed back, each passed by the checker: the solutions, or the one solution
    # (a walkthrough's last state, a fixed puzzle's); those counted without being kept.
    one = getattr(result, "solution", None)
    solutions = getattr(result, "solutions", [] if one is None else [one])
    record.answers = getattr(result, "count", len(solutions))
    record.checked = int(record.answers > 0)  # each answer passed the checker, or was refused
    searched = getattr(result, "puzzle", None)  # (a fix's is the puzzle edited)
    if solutions and (searched is None or searched == given.puzzle):
        _describe(record, given.puzzle, solutions[0])
    detail = {"won": stats["variant"]} if "variant" in stats else {}  # a race's winner
    detail.update({"ran": ran} if ran else {})
    detail.update(unit.kept(outcome))
    record.detail = json.dumps(detail) if detail else ""


def _for_the_run(
    program: Program, puzzle: Puzzle, task: Task, models: int
) -> tuple[Program, str | None]:
    """The variant's program with the study's seed; a race run ``alone``: its first variant
    for ``models`` solutions (the neighbourhood search for a first solution of a giant), and
    that variant's name."""
    ran = None
    if task.alone and program.connectivity == "race":
        from ..asp.portfolio import name_of, variants

        program = variants(program, puzzle, 1, models)[0]
        ran = name_of(program)
    return replace(program, options=(*program.options, f"--seed={task.seed}")), ran


def _describe(record: Record, puzzle: Puzzle, solution: Solution | None) -> None:
    """Islands and board size from the puzzle; alpha and beta from the file name when it
    follows the dataset's pattern, else from the first answer (extra bridges per island, share
    of double bridges)."""
    record.islands, record.size = len(puzzle.islands), f"{puzzle.cols}x{puzzle.rows}"
    named = DATASET_NAME.search(Path(record.instance).name)
    if named:
        record.alpha, record.beta = int(named["alpha"]) / 100, int(named["beta"]) / 100
    elif solution is not None and puzzle.islands:
        pairs = len(solution.bridges)
        record.alpha = round((pairs - (len(puzzle.islands) - 1)) / len(puzzle.islands), 4)
        record.beta = round(sum(b.count >= 2 for b in solution.bridges) / max(1, pairs), 4)


# ---------------------------------------------------------------------------- one run, in a runner


def _in_runner(task: Task, runner: Serving) -> Record:
    """One run in a runner process: the variant's files written in the runner's folder, the
    memory limit on this process's address space for the run, its peak resident memory
    measured.  A limit below the runner's floor (MB of address space a run takes before any
    work) is a ``memout`` at once: the threads of the run could not even start."""
    import resource

    floor = runner.floor(_warm_up)  # what a run takes before any work: no limit can be below
    if task.memory_limit is not None and task.memory_limit < floor:
        record = lost(task, f"the run needs {floor:.0f} MB of address space before any work,")
        record.message = record.message.replace(", under", " over")
        return record
    try:
        # A variant that brings no files writes none, and needs no folder.
        inside = runner.folder() / task.variant.digest if task.variant.files else Path()
        program = task.variant.program_in(inside)
    except OSError as error:
        record = lost(task, f"cannot write the variant's files: {error}")
        record.status = Verdict.ERROR.value
        return record
    runner.reset_peak()
    unlimited = resource.getrlimit(resource.RLIMIT_AS)
    if task.memory_limit is not None:
        limit = task.memory_limit * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, unlimited[1]))
    try:
        record = perform(task, program)
    finally:
        resource.setrlimit(resource.RLIMIT_AS, unlimited)
    record.memory = runner.peak()
    record.message = task.variant.as_given(record.message, inside)
    return record


def _warm_up() -> None:
    """Pay here, once, what the first run in a process pays (each notation's module, clingo's
    first control, a command unit's first run, the caches of the package's first calls)."""
    from .. import commands, notations, walkthrough  # noqa: F401
    from ..asp import portfolio  # noqa: F401
    from ..commands.declaration import Reader

    for notation in notations.NOTATIONS.values():  # their modules load on first use
        with contextlib.suppress(Exception):
            notation.detect("")
    with contextlib.suppress(Exception):
        unit = commands.command("unique")
        unit.run(unit.given({"puzzle": "1.1\n"}, reader=Reader(files=False)))


def lost(task: Task, message: str) -> Record:
    """The row of a run whose runner ended without a record: out of memory when it ran under a
    memory limit (what ends a process there: an allocation clingo or the C library cannot
    recover from), else an error."""
    memout = task.memory_limit is not None
    status = Verdict.MEMOUT if memout else Verdict.ERROR
    limit = f" under the memory limit of {task.memory_limit} MB" if memout else ""
    record = Record(task.instance, digest(task.text), task.variant.name, task.seed, task.task)
    record.status, record.message = status.value, f"{message}{limit}"
    record.host = _host()
    record.finished = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    return record
