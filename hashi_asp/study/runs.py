"""One run of one cell of a study: an instance, a variant and a seed, run by the study's task,
a command, with a time limit and a memory limit of its own.

- :class:`Task` is what travels to a worker: the instance's text (no shared file system is
  assumed), the variant with its rule files, the seed, the task and the limits.
- :func:`perform` runs a task in the calling process through its command's unit, as the
  command line and the JSON API run it, and makes its :class:`Record`, the row the study
  keeps, from the outcome in one way for every command.  It never raises for what the run
  does: an instance that does not read, an encoding clingo refuses, an answer the checker
  rejects, a time limit or running out of memory are each a row with their status.
- A :class:`Runner` is a process of its own (``python -m hashi_asp.study.runs``) that makes
  one run after another: for each, the memory limit on its address space (``RLIMIT_AS``)
  and its peak resident memory measured afresh (Linux's ``clear_refs``).  A run over the
  limit is a ``memout`` row: clingo or Python says so, or the runner dies on it and its
  parent writes the row; either way a new runner takes over, and so it does after grounding
  was left behind at a time limit, after a run that overstays its limit (ended by its
  parent), and every :data:`RECYCLE` runs.  A runner ends with the process that started it.

Local jobs and Dask workers alike hand their tasks to runners: a Dask worker's thread waits
on the runner's pipe without holding Python's lock, so a long search never starves the
worker's heartbeat (:func:`run_remote`), and nothing a run does can end the worker.  (A
process per run, forked from the runner, was measured too: on a 400-island Coelho et al.
instance its fresh address space cost 1.4 times the processor time, 48 against 34 ms.)
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import json
import os
import pickle
import platform
import queue
import re
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from .. import stopping
from ..asp.interface import Program
from ..errors import HashiError
from ..puzzle import Puzzle, Solution
from ..status import Question, Status, Stop, Verdict
from ..stopping import Deadline, Stopped

if TYPE_CHECKING:
    from .variants import Variant

DATASET_NAME = re.compile(
    r"Hs_(?P<size>\d+)_(?P<n>\d+)_(?P<beta>\d+)_(?P<alpha>\d+)_(?P<id>\d+)\.has$"
)
"""File names of the Coelho et al. dataset (and of ``generate --out``): side, islands, beta %,
alpha %, number."""

GRACE_SECONDS = 5.0
"""How long past its time limit a run may take before its runner ends it (a run stops at its
limit on its own, grounding included; this is for a run that cannot)."""


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
    record.host, record.hashi_asp = socket.gethostname(), VERSION
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
        if isinstance(given.program, Program):
            given.program = _for_the_run(given.program, given.puzzle, task)
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
    detail.update(unit.kept(outcome))
    record.detail = json.dumps(detail) if detail else ""


def _for_the_run(program: Program, puzzle: Puzzle, task: Task) -> Program:
    """The variant's program with the study's seed; a race run ``alone``: its first variant."""
    if task.alone and program.connectivity == "race":
        from ..asp.portfolio import variants

        program = variants(program, puzzle, 1)[0]
    return replace(program, options=(*program.options, f"--seed={task.seed}"))


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


# ---------------------------------------------------------------------------- the runner


class Runner:
    """A runner process (``python -m hashi_asp.study.runs``) and the pipes to it.  :meth:`send`
    tasks (a second one waits in the pipe, so that the runner starts it the moment the first is
    done), then :meth:`finish` the first once :meth:`fileno` is readable or it is
    :meth:`overdue`: its record, whatever happened to the runner.  A runner that died, was ended
    for its time, or retired is replaced by a new one, which is sent the tasks still waiting."""

    def __init__(self) -> None:
        self.queue: deque[Any] = deque()
        self.started = 0.0  # when the runner began the first task of the queue
        self._start()

    def _start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "hashi_asp.study.runs", str(os.getpid())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            bufsize=0,  # what select() says is readable is all there is to read
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.output: IO[bytes] = self.process.stdout
        # Tasks are written by a thread of their own: a task waiting for the runner (an
        # instance of a few hundred kilobytes fills the pipe) must not hold up the caller,
        # which watches the runners' time limits and ends one that overstays.
        self.outbox: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self.writer = threading.Thread(
            target=_feed, args=(self.process.stdin, self.outbox), name="runner input", daemon=True
        )
        self.writer.start()

    def fileno(self) -> int:
        return self.output.fileno()

    @property
    def task(self) -> Any:
        """The task the runner is making (the first sent and not finished), or None."""
        return self.queue[0] if self.queue else None

    def send(self, task: Any) -> None:
        if not self.queue:
            self.started = time.monotonic()
        self.queue.append(task)
        self.outbox.put(_message(task))

    def overdue(self) -> bool:
        limit = getattr(self.task, "time_limit", None)
        return limit is not None and time.monotonic() > self.started + limit + GRACE_SECONDS

    def finish(self) -> Any:
        """The record of the first task sent, once the runner answered (or is overdue)."""
        late = self.overdue()
        task = self.queue.popleft()
        if late and not select.select([self.output], [], [], 0)[0]:
            self._replace(kill=True)
            return _lost(task, f"ended {GRACE_SECONDS:g} s after its time limit", Verdict.UNKNOWN)
        try:
            record, retiring = _read(self.output)
        except (EOFError, OSError, pickle.UnpicklingError):
            ended = _how(self.process.wait())
            self._replace()
            return _lost(task, f"the run's process ended ({ended})")
        self.started = time.monotonic()  # the next task, waiting in the pipe, starts now
        if retiring:
            self._replace()
        return record

    def run(self, task: Any) -> Any:
        """Send ``task`` and wait for its record (in this thread, without Python's lock)."""
        self.send(task)
        while not select.select([self.output], [], [], 1.0)[0] and not self.overdue():
            pass
        return self.finish()

    def _replace(self, *, kill: bool = False) -> None:
        """A new runner in this one's place, sent the tasks this one had not begun."""
        waiting = list(self.queue)
        self.queue.clear()
        self.close(kill=kill)
        self._start()
        for task in waiting:
            self.send(task)

    def close(self, *, kill: bool | None = None) -> None:
        """End the runner: closing its input ends it when idle; at work (or with ``kill``) it
        is ended with SIGKILL, and the run it had is lost with it."""
        self.outbox.put(None)  # the writer closes the runner's input after what it has
        if kill or (kill is None and self.queue):
            with contextlib.suppress(OSError):
                self.process.kill()  # which also ends a write the runner was not reading
        self.process.wait()
        self.writer.join()
        self.output.close()
        self.queue.clear()


def _how(code: int) -> str:
    return f"signal {-code}" if code < 0 else f"exit code {code}"


def _message(value: Any) -> bytes:
    """One message: its length, then its pickle."""
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return struct.pack("!Q", len(data)) + data


def _write(stream: IO[bytes], value: Any) -> None:
    _send(stream, _message(value))


def _send(stream: IO[bytes], message: bytes) -> None:
    view = memoryview(message)
    while view:
        view = view[stream.write(view) or 0 :]
    stream.flush()


def _feed(stream: IO[bytes], outbox: queue.SimpleQueue[bytes | None]) -> None:
    """Write each message of ``outbox`` to a runner's input until None comes, then close it.
    A runner that is gone takes nothing more (what its parent's :meth:`Runner.finish` says)."""
    try:
        while (message := outbox.get()) is not None:
            _send(stream, message)
    except OSError:
        pass
    finally:
        with contextlib.suppress(OSError):
            stream.close()


def _read(stream: IO[bytes]) -> Any:
    (size,) = struct.unpack("!Q", _exactly(stream, 8))
    return pickle.loads(_exactly(stream, size))


def _exactly(stream: IO[bytes], size: int) -> bytes:
    """``size`` bytes from ``stream`` (a pipe may give fewer at a time); EOFError at its end."""
    chunks, left = [], size
    while left:
        chunk = stream.read(left)
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _lost(item: Any, message: str, status: Verdict | None = None) -> Any:
    """What a runner that ended without a word gives for ``item``: a run's row (:func:`lost`),
    or what other work says of itself (``item.lost(message)``)."""
    if not isinstance(item, Task):
        return item.lost(message)
    record = lost(item, message)
    record.status = (status or Verdict(record.status)).value
    return record


def lost(task: Task, message: str) -> Record:
    """The row of a run whose runner ended without a record: out of memory when it ran under a
    memory limit (what ends a process there: an allocation clingo or the C library cannot
    recover from), else an error."""
    memout = task.memory_limit is not None
    status = Verdict.MEMOUT if memout else Verdict.ERROR
    limit = f" under the memory limit of {task.memory_limit} MB" if memout else ""
    record = Record(task.instance, digest(task.text), task.variant.name, task.seed, task.task)
    record.status, record.message = status.value, f"{message}{limit}"
    record.host = socket.gethostname()
    record.finished = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    return record


RECYCLE = 2000
"""Runs a runner makes before it hands over to a new one, so that what a long study leaves in
one process's memory (fragments, caches) never weighs on a run's memory limit."""


def serve(parent: int) -> None:
    """The runner's loop: read a task from standard input, run it here with its limits, write
    (its record, whether this runner retires) to standard output; end at the end of the
    input, or with ``parent``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the client's to handle
    _end_with(parent)
    _warm_up()
    floor = _vm("VmPeak") or 0.0  # what a run takes before any work: no limit can be below
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # what anything else prints goes to standard error, not into the replies
    requests = sys.stdin.buffer
    folder = Path(tempfile.mkdtemp(prefix="hashi-asp-runner-"))
    try:
        for made in range(1, RECYCLE + 1):
            try:
                task = _read(requests)
            except EOFError:
                break
            if isinstance(task, Task):
                record = _serve(task, folder / task.variant.digest, floor)
            else:  # other work done by runners (a puzzle of `generate --jobs`): ``make()``
                record = task.make()
            # Grounding left behind at a time limit, or memory that ran out, may weigh on the
            # next run: a new runner makes it.
            memout = getattr(record, "status", None) == Verdict.MEMOUT
            retiring = made == RECYCLE or memout or stopping.abandoned()
            _write(replies, (record, retiring))
            if retiring:
                break
    except BrokenPipeError:
        pass
    finally:
        import shutil

        shutil.rmtree(folder, ignore_errors=True)
    os._exit(0)  # grounding left behind needs no waiting for


def _serve(task: Task, folder: Path, floor: float) -> Record:
    """One run here: the variant's files written, the memory limit on this process's address
    space for the run, its peak resident memory measured.  A limit below ``floor`` (MB of
    address space a run takes before any work) is a ``memout`` at once: the threads of the
    run could not even start."""
    import resource

    if task.memory_limit is not None and task.memory_limit < floor:
        record = lost(task, f"the run needs {floor:.0f} MB of address space before any work,")
        record.message = record.message.replace(", under", " over")
        return record
    try:
        program = task.variant.program_in(folder)
    except OSError as error:
        record = lost(task, f"cannot write the variant's files: {error}")
        record.status = Verdict.ERROR.value
        return record
    _reset_peak()
    unlimited = resource.getrlimit(resource.RLIMIT_AS)
    if task.memory_limit is not None:
        limit = task.memory_limit * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, unlimited[1]))
    try:
        record = perform(task, program)
    finally:
        resource.setrlimit(resource.RLIMIT_AS, unlimited)
    record.memory = _peak()
    record.message = task.variant.as_given(record.message, folder)
    return record


def _reset_peak() -> None:
    """Linux: start this process's peak resident memory (VmHWM) afresh."""
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")


def _vm(field: str) -> float | None:
    """A memory figure of this process from Linux's /proc, in MB (None elsewhere)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(f"{field}:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None


def _peak() -> float | None:
    """This process's peak resident memory in MB since :func:`_reset_peak` (Linux), else over
    its life."""
    found = _vm("VmHWM")
    if found is not None:
        return found
    import resource

    scale = 1 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB elsewhere
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale / 2**20, 1)


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


def _end_with(parent: int) -> None:
    """End this process when ``parent`` does: Linux ends it with the thread that started it;
    elsewhere it ends at the end of its input."""
    if sys.platform == "linux":
        with contextlib.suppress(Exception):
            import ctypes

            ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # gone before that took hold
        os._exit(1)


# ---------------------------------------------------------------------------- on a Dask worker

_mine = threading.local()


def run_remote(task: Task) -> Record:
    """A Dask task: ``task`` run by this worker thread's runner (started on first use; each
    thread has its own, which ends with the thread)."""
    runner: Runner | None = getattr(_mine, "runner", None)
    if runner is None:
        runner = _mine.runner = Runner()
    return runner.run(task)


if __name__ == "__main__":
    # The module's own name, not __main__, so that the records it sends unpickle as such.
    from hashi_asp.study.runs import serve as serving

    serving(int(sys.argv[1]))
