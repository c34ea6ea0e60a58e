"""One run of one cell of a study: an instance, a variant and a seed, searched for the study's
task, with a time limit and a memory limit of its own.

- :class:`Task` is what travels to a worker: the instance's text (no shared file system is
  assumed), the variant with its rule files, the seed, the task and the limits.
- :func:`perform` runs a task in the calling process and returns its :class:`Record`, the
  row the study keeps.  It never raises for what the run does: an instance that does not
  read, an encoding clingo refuses, an answer the checker rejects, a time limit or running
  out of memory are each a row with their status and message.
- A :class:`Runner` is a process of its own (``python -m hashi_asp.study.runs``) that forks
  one child per task: the child sets the memory limit (``RLIMIT_AS``: the run's address
  space), runs :func:`perform` and sends its record back; the runner measures the child's
  peak memory (its maximum resident set) and turns a child that died without a word under a
  memory limit into a ``memout`` row.  The runner itself runs no clingo and starts no
  thread, so forking it is safe, and nothing a run does can end it.  It ends when its
  parent does (it watches for that while it waits), and a child ends with its runner.

Local jobs and Dask workers alike hand their tasks to runners: a Dask worker's thread waits
on the runner's pipe without holding Python's lock, so a long search never starves the
worker's heartbeat (:func:`run_remote`).
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import os
import pickle
import platform
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
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import IO, Any

from ..asp.interface import Program
from ..puzzle import HashiError, Puzzle, Solution
from ..stopping import Deadline, TimeLimitReached
from .variants import Variant

TASKS = ("solve", "unique", "count", "steps", "difficulty")
"""What a run does: the first solution, the uniqueness verdict, the number of solutions, the
walkthrough (every step checked), the difficulty rating."""

STATUSES = ("solved", "unsolvable", "unique", "multiple", "timeout", "memout", "error")
ANSWERED = frozenset({"solved", "unsolvable", "unique", "multiple"})
"""The statuses of a run that gave what its task asks: it counts as solved."""

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
    clingo's ``seed``, the ``task`` (one of :data:`TASKS`), the limits (seconds, megabytes),
    and ``alone``: a race (``--connectivity race``) runs its first variant alone, as the
    study's other jobs use the cores already."""

    instance: str
    text: str
    variant: Variant
    seed: int = 1
    task: str = "solve"
    time_limit: float | None = None
    memory_limit: int | None = None
    alone: bool = False

    @property
    def key(self) -> tuple[str, str, int]:
        return self.instance, self.variant.name, self.seed


@dataclass
class Record:
    """One run's row.  ``wall`` is the run's own seconds (reading the instance to the verdict,
    every answer checked), ``read``, ``ground``, ``search`` its parts; ``answers`` the answers
    the program gave, ``checked`` 1 when there were answers and the independent checker passed
    every one; ``memory`` the run process's peak resident set in MB; ``detail`` what the task
    adds (a count, a walkthrough's steps, a difficulty), as JSON."""

    instance: str
    instance_hash: str
    variant: str
    seed: int
    task: str
    status: str = "error"
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
        return self.status in ANSWERED


COLUMNS = tuple(f.name for f in fields(Record))


def digest(text: str) -> str:
    """An instance's content hash (SHA-256 of its text)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------------- one run, here


def perform(task: Task, program: Program | None = None, *, abandon: bool = False) -> Record:
    """Run ``task`` in this process (``program``: the variant's, where its files are here);
    ``abandon`` leaves grounding behind at the time limit (for a process that ends after)."""
    import clingo

    from .. import __version__

    started = time.perf_counter()
    record = Record(task.instance, digest(task.text), task.variant.name, task.seed, task.task)
    record.host, record.hashi_asp = socket.gethostname(), __version__
    record.clingo, record.python = clingo.__version__, platform.python_version()
    program = task.variant.program if program is None else program
    try:
        _run(task, program, record, Deadline(task.time_limit, abandon_grounding=abandon))
    except TimeLimitReached as late:
        record.status, record.message = "timeout", str(late)
    except MemoryError:
        limit = f" (the memory limit of {task.memory_limit} MB)" if task.memory_limit else ""
        record.status, record.message = "memout", f"out of memory{limit}"
    except HashiError as error:
        record.status, record.message = "error", str(error)
    except RuntimeError as error:  # clingo's own (std::bad_alloc when out of memory)
        memory = "bad_alloc" in str(error)
        record.status, record.message = ("memout" if memory else "error"), f"clingo: {error}"
    except Exception as error:  # a fault of the program: a row that says so, not a lost study
        record.status, record.message = "error", f"{type(error).__name__}: {error}"
    record.wall = round(time.perf_counter() - started, 6)
    record.finished = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    return record


def _run(task: Task, program: Program, record: Record, deadline: Deadline) -> None:
    from .. import notations

    started = time.perf_counter()
    puzzle = notations.parse(task.text, source=task.instance, **task.variant.rules)
    record.read = round(time.perf_counter() - started, 6)
    _describe(record, puzzle, None)
    if task.task in ("steps", "difficulty"):
        _walk(task, puzzle, record, deadline)
        return
    if task.alone and program.connectivity == "race":
        from ..asp.portfolio import variants

        program = variants(program, puzzle, 1)[0]
    program = replace(program, options=(*program.options, f"--seed={task.seed}"))
    from ..asp.interface import InvalidAnswer
    from ..solving import count, solve, unique

    try:
        if task.task == "solve":
            result = solve(puzzle, program=program, time_limit=deadline)
        elif task.task == "unique":
            result = unique(puzzle, program=program, time_limit=deadline)
        else:
            result = count(puzzle, program=program, time_limit=deadline)
    except InvalidAnswer as wrong:
        record.answers, record.message = wrong.number, str(wrong)
        raise
    if result.interrupted:  # Ctrl-C in this process (a child ignores it): the run is cut
        raise KeyboardInterrupt
    stats = result.stats
    record.ground, record.search = stats.get("ground_seconds"), stats.get("solve_seconds")
    record.conflicts, record.choices = stats.get("conflicts"), stats.get("choices")
    record.answers = result.count
    record.checked = int(result.count > 0)  # each answer passed the checker, or was refused
    if result.solutions:
        _describe(record, puzzle, result.solutions[0])
    if task.task == "count":
        record.detail = f'{{"count": {result.count}}}'
        verdicts = {0: "unsolvable", 1: "unique"}
        record.status = verdicts.get(result.count, "multiple") if result.exhausted else "timeout"
    elif result.status in ("solved", "unique", "multiple", "unsolvable"):
        record.status = (
            "timeout" if task.task == "unique" and result.status == "solved" else (result.status)
        )
    else:
        record.status = "timeout"
    if record.status == "timeout" and result.timed_out:
        record.message = f"time limit of {task.time_limit:g} s reached"


def _walk(task: Task, puzzle: Puzzle, record: Record, deadline: Deadline) -> None:
    """The walkthrough tasks: ``steps`` walks the puzzle through, every step confirmed by
    clingo (solved, or multiple when no step follows: several solutions, or unsolvable);
    ``difficulty`` rates it."""
    import json

    from ..walkthrough import Unsolvable, difficulty, steps

    if task.task == "difficulty":
        try:
            rated = difficulty(puzzle, time_limit=deadline)
        except Unsolvable as none:
            record.status, record.message = "unsolvable", str(none)
            return
        record.status, record.detail = "solved", json.dumps(rated.to_json())
        return
    walk = steps(puzzle, time_limit=deadline)
    if walk.interrupted:
        raise KeyboardInterrupt
    verdicts = {"solved": "solved", "stuck": "multiple", "contradiction": "unsolvable"}
    record.status = verdicts.get(walk.status, "timeout")
    if walk.solution is not None:  # the last state, checked by the independent checker
        record.answers, record.checked = 1, 1
        _describe(record, puzzle, walk.solution)
    band = walk.difficulty.to_json() if walk.difficulty else None
    record.detail = json.dumps({"steps": len(walk.steps), "difficulty": band})


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
    """A runner process and the two pipes to it; :meth:`send` a task, :meth:`receive` its
    record (or None if the runner died)."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "hashi_asp.study.runs"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.input: IO[bytes] = self.process.stdin
        self.output: IO[bytes] = self.process.stdout

    def send(self, task: Task) -> None:
        _write(self.input, task)

    def receive(self) -> Record | None:
        try:
            return _read(self.output)
        except (EOFError, OSError, pickle.UnpicklingError):
            return None

    def run(self, task: Task) -> Record | None:
        self.send(task)
        return self.receive()

    def alive(self) -> bool:
        return self.process.poll() is None

    def close(self) -> None:
        """End the runner (and so the run it has): closing its input ends it when idle;
        SIGTERM when it is not."""
        with contextlib.suppress(OSError):
            self.input.close()
        if self.process.poll() is None:
            self.process.terminate()
        self.process.wait()
        self.output.close()


def _write(stream: IO[bytes], value: Any) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(struct.pack("!Q", len(data)) + data)
    stream.flush()


def _read(stream: IO[bytes]) -> Any:
    head = stream.read(8)
    if len(head) < 8:
        raise EOFError
    (size,) = struct.unpack("!Q", head)
    data = stream.read(size)
    if len(data) < size:
        raise EOFError
    return pickle.loads(data)


def lost(task: Task, message: str) -> Record:
    """The row of a run whose process ended without a record."""
    memout = task.memory_limit is not None
    status = "memout" if memout else "error"
    limit = f" under the memory limit of {task.memory_limit} MB" if memout else ""
    record = Record(task.instance, digest(task.text), task.variant.name, task.seed, task.task)
    record.status, record.message = status, f"{message}{limit}"
    record.host = socket.gethostname()
    record.finished = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    return record


def serve() -> None:
    """The runner's loop: read a task from standard input, run it in a forked child, write its
    record to standard output; end at the end of the input, or when the parent ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the client's to handle
    # Everything a run needs is imported here once, so that each child starts at work.
    import clingo  # noqa: F401

    from .. import notations, solving, walkthrough  # noqa: F401
    from ..asp import portfolio  # noqa: F401

    _warm_up()
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # what anything else prints goes to standard error, not into the replies
    requests = sys.stdin.buffer
    parent = os.getppid()
    folder = Path(tempfile.mkdtemp(prefix="hashi-asp-runner-"))
    try:
        while True:
            try:
                task = _read(requests)
            except EOFError:
                break
            _write(replies, supervise(task, folder, parent))
    except BrokenPipeError:
        pass
    finally:
        import shutil

        shutil.rmtree(folder, ignore_errors=True)


def _warm_up() -> None:
    """Pay here, once, what the first run in a process pays (each notation's module, clingo's
    first control, the caches of the package's first calls), not in every child; then wait
    for clingo's threads to end (a process must have one thread to fork safely) and freeze
    what exists, so that the children's garbage collections leave those pages shared."""
    import gc

    from .. import notations
    from ..solving import unique

    for notation in notations.NOTATIONS.values():  # their modules load on first use
        with contextlib.suppress(Exception):
            notation.detect("")
    with contextlib.suppress(Exception):
        unique(notations.parse("1.1\n", source="<warm-up>"))
    started = time.monotonic()
    while len(os.listdir("/proc/self/task")) > 1 and time.monotonic() - started < 5:
        time.sleep(0.01)
    gc.collect()
    gc.freeze()


def supervise(task: Task, folder: Path, parent: int) -> Record:
    """Run ``task`` in a forked child with its limits; its record with the peak memory."""
    folder = folder / task.variant.digest
    try:
        program = task.variant.program_in(folder)
    except OSError as error:
        return replace(lost(task, f"cannot write the variant's files: {error}"), status="error")
    started = time.perf_counter()
    reading, writing = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(reading)
        _child(task, program, writing)
    os.close(writing)
    data, cut = _collect(reading, pid, task, parent)
    _, status, usage = os.wait4(pid, 0)
    memory = round(usage.ru_maxrss / 1024, 1)  # KiB on Linux
    try:
        record: Record = pickle.loads(data) if data else None  # type: ignore[assignment]
    except Exception:
        record = None  # type: ignore[assignment]
    if record is None:
        if cut:
            record = lost(task, cut)
            record.status = "timeout"
        else:
            record = lost(task, f"the run's process ended ({_how(status)})")
        record.wall = round(time.perf_counter() - started, 6)
    record.memory = memory
    record.message = task.variant.as_given(record.message, folder)
    return record


def _how(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"signal {os.WTERMSIG(status)}"
    return f"exit code {os.waitstatus_to_exitcode(status)}"


def _collect(reading: int, pid: int, task: Task, parent: int) -> tuple[bytes, str]:
    """The child's record as bytes, read until it closes its end; the child is ended when its
    time is well past, or when the runner's parent is gone."""
    chunks = []
    end = None if task.time_limit is None else time.monotonic() + task.time_limit + GRACE_SECONDS
    cut = ""
    with os.fdopen(reading, "rb", buffering=0) as pipe:
        while True:
            ready, _, _ = select.select([pipe], [], [], 0.2)
            if ready:
                chunk = pipe.read(1 << 16)
                if not chunk:
                    break
                chunks.append(chunk)
                continue
            if os.getppid() != parent:  # the client or worker went away: so does the run
                os.kill(pid, signal.SIGKILL)
                os._exit(1)
            if end is not None and time.monotonic() > end and not cut:
                os.kill(pid, signal.SIGKILL)
                cut = f"ended {GRACE_SECONDS:g} s after its time limit of {task.time_limit:g} s"
    return b"".join(chunks), cut


def _child(task: Task, program: Program, writing: int) -> None:
    """The forked child: limits, the run, its record into the pipe, and out at once."""
    code = 0
    try:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        _end_with_parent()
        if task.memory_limit is not None:
            import resource

            limit = task.memory_limit * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        record = perform(task, program, abandon=True)
        data = pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL)
        with os.fdopen(writing, "wb") as pipe:
            pipe.write(data)
    except BaseException:
        code = 1
    os._exit(code)  # clingo's threads, or grounding left behind, need no waiting for


def _end_with_parent() -> None:
    """Linux: have the kernel end this process when its parent (the runner) ends."""
    if sys.platform != "linux":
        return
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


# ---------------------------------------------------------------------------- on a Dask worker

_mine = threading.local()


def run_remote(task: Task) -> Record:
    """A Dask task: ``task`` run by this worker thread's runner (started on first use, and
    again if it died)."""
    for _ in range(2):
        runner: Runner | None = getattr(_mine, "runner", None)
        if runner is None or not runner.alive():
            runner = _mine.runner = Runner()
        record = runner.run(task)
        if record is not None:
            return record
    return lost(task, "the runner process ended twice")


if __name__ == "__main__":
    # The module's own name, not __main__, so that the records it sends unpickle as such.
    from hashi_asp.study.runs import serve as serving

    serving()
