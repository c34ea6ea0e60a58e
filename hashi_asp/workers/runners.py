"""The processes that make the work: a study's runs, the puzzles of ``generate --jobs``.

A :class:`Runner` is a process of its own (``python -m hashi_asp.workers.runners``) that makes
one piece of work after another (its ``make``, given the runner's :class:`Serving`): a study's
run sets the memory limit on the runner's address space (``RLIMIT_AS``) and measures its peak
resident memory afresh (Linux's ``clear_refs``).  A run over the limit is a ``memout`` row:
clingo or Python says so, or the runner dies on it and its parent writes the row (the work's
``lost``); either way a new runner takes over, and so it does after grounding was left behind
at a time limit, after work that overstays its limit (ended by its parent), and every
:data:`RECYCLE` pieces.  A runner ends with the process that started it; the folder it writes
files in (a variant's rules) goes with it, however it ends (:class:`_Folder`).

Local jobs and Dask workers alike hand their tasks to runners: a Dask worker's thread waits
on the runner's pipe without holding Python's lock, so a long search never starves the
worker's heartbeat (:func:`run_remote`), and nothing a run does can end the worker.  (A
process per run, forked from the runner, was measured too: on a 400-island Coelho et al.
instance its fresh address space cost 1.4 times the processor time, 48 against 34 ms.)
"""

from __future__ import annotations

import contextlib
import os
import pickle
import queue
import select
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from .. import stopping
from ..status import Verdict

GRACE_SECONDS = 5.0
"""How long past its time limit a run may take before its runner ends it (a run stops at its
limit on its own, grounding included; this is for a run that cannot)."""

# ---------------------------------------------------------------------------- the runner


class Runner:
    """A runner process (``python -m hashi_asp.workers.runners``) and the pipes to it.  :meth:`send`
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
            [sys.executable, "-m", "hashi_asp.workers.runners", str(os.getpid())],
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
    """What a runner that ended without a word gives for ``item``: what the work says of
    itself (``item.lost(message, status)``: a run's row, a puzzle's error)."""
    return item.lost(message, status)


RECYCLE = 2000
"""Runs a runner makes before it hands over to a new one, so that what a long study leaves in
one process's memory (fragments, caches) never weighs on a run's memory limit."""


def serve(parent: int) -> None:
    """The runner's loop: read a piece of work from standard input, make it here (its
    ``make``, given this runner's :class:`Serving`), write (its result, whether this runner
    retires) to standard output; end at the end of the input, or with ``parent``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the client's to handle
    _end_with(parent)
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # what anything else prints goes to standard error, not into the replies
    requests = sys.stdin.buffer
    serving = Serving()
    try:
        for made in range(1, RECYCLE + 1):
            try:
                task = _read(requests)
            except EOFError:
                break
            record = task.make(serving)
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
        serving.remove()
    os._exit(0)  # grounding left behind needs no waiting for


class Serving:
    """What a runner process offers the work it makes: a folder of its own for files (made on
    first use, removed however the runner ends), the address space the runner takes before any
    work, and its peak resident memory."""

    def __init__(self) -> None:
        self._folder = _Folder()
        self._floor: float | None = None

    def folder(self) -> Path:
        """The runner's folder, made now if it is not there yet."""
        return self._folder.made()

    def floor(self, warm_up: Callable[[], None]) -> float:
        """MB of address space a run takes before any work (0 where Linux's /proc does not
        say): measured once, after ``warm_up`` has paid what the first run in a process pays.
        No memory limit can be below it."""
        if self._floor is None:
            warm_up()
            self._floor = _vm("VmPeak") or 0.0
        return self._floor

    def reset_peak(self) -> None:
        """Start this process's peak resident memory afresh (Linux)."""
        _reset_peak()

    def peak(self) -> float | None:
        """This process's peak resident memory in MB since :meth:`reset_peak`."""
        return _peak()

    def remove(self) -> None:
        """Remove the runner's folder, as it ends."""
        self._folder.remove()


class _Folder:
    """The runner's folder for the files work brings (a variant's rules), made in the temporary
    directory when the first such work comes (most brings none), with a janitor that removes it
    should the runner end without removing it (:func:`_janitor`)."""

    def __init__(self) -> None:
        self.path: Path | None = None
        self.janitor: subprocess.Popen | None = None  # kept: a Popen let go says it runs on
        self.watched: int | None = None  # the janitor's pipe, open while this process lives

    def made(self) -> Path:
        if self.path is None:
            self.path = Path(tempfile.mkdtemp(prefix="hashi-asp-runner-"))
            self.janitor, self.watched = _janitor(self.path)
        return self.path

    def remove(self) -> None:
        if self.path is not None:
            import shutil

            shutil.rmtree(self.path, ignore_errors=True)
        if self.watched is not None:
            os.close(self.watched)  # the janitor's end of input: it ends
            self.watched = None


def _janitor(folder: Path) -> tuple[subprocess.Popen | None, int | None]:
    """A process that removes ``folder`` once this one is gone, however it ends: a runner
    killed (for its time, or with its parent) runs no ``finally``.  The janitor reads a pipe
    whose one writer is this process, until the kernel closes it.  Returns the janitor and
    that write end, or two Nones where it cannot start (no ``/bin/sh``)."""
    # os.pipe()'s ends are not inherited: the runs' own processes do not keep the pipe open.
    reading, writing = os.pipe()
    try:
        janitor = subprocess.Popen(
            ["/bin/sh", "-c", 'trap "" INT HUP TERM; cat; rm -rf -- "$0"', folder],
            stdin=reading,
            # Nothing of its parents' held open: a client's output, or a runner's pipes, end
            # when they do, not with the janitor.
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            close_fds=True,
            start_new_session=True,  # out of the reach of Ctrl-C at a terminal
        )
    except (OSError, subprocess.SubprocessError):
        os.close(writing)
        return None, None
    finally:
        os.close(reading)
    return janitor, writing


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


def run_remote(task: Any) -> Any:
    """A Dask task: ``task`` made by this worker thread's runner (started on first use; each
    thread has its own, which ends with the thread)."""
    runner: Runner | None = getattr(_mine, "runner", None)
    if runner is None:
        runner = _mine.runner = Runner()
    return runner.run(task)


if __name__ == "__main__":
    # The module's own name, not __main__, so that what it sends unpickles as such.
    from hashi_asp.workers.runners import serve as serving

    serving(int(sys.argv[1]))
