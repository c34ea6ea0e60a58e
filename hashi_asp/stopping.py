"""Stopping cleanly: time limits, Ctrl-C (SIGINT) and SIGTERM, and work that cannot be
interrupted.

- :class:`Deadline`: one time limit shared by every step of a command.
- Signals: Python turns Ctrl-C into ``KeyboardInterrupt``; every search catches it, stops clingo
  and keeps what it found, and the command line prints that and exits with 130.  SIGTERM (what
  ``kill``, ``timeout`` and service managers send) ends a Python process on the spot by default;
  :func:`handling_signals`, which only the command line installs, makes it raise
  ``KeyboardInterrupt`` as well.  Only the first signal raises: ``timeout`` signals the process
  and then its group, and a second ``KeyboardInterrupt`` arriving while the first one is being
  handled would break the clean stop it started (a half-released lock, a lost exit code).
- :func:`deferred` holds both signals back while a file is put in place.
- :func:`uninterruptible` runs work that cannot be interrupted (clingo grounding) in a thread
  and waits for it in short slices, so that a signal or a deadline stops the wait at once.
"""

from __future__ import annotations

import atexit
import contextlib
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, NoReturn

from .puzzle import HashiError
from .status import Status

SIGNALS = (signal.SIGINT, signal.SIGTERM)
POLL_SECONDS = 0.1
"""How often a wait for clingo looks at the clock (Ctrl-C arrives at once regardless)."""


class TimeLimitReached(HashiError):
    """The time limit passed before the work could give any answer (while clingo was grounding,
    or while a puzzle was being generated)."""

    status = Status.NO_ANSWER


class Deadline:
    """A time limit counted from when it is made.  One deadline shared by every step of a
    command (reading, grounding, one or several searches, an explanation) makes the limit apply
    to the command as a whole; a number of seconds given to a library function starts its own.

    Grounding cannot be interrupted.  By default it is waited for and the search gets what time
    is left (none, if grounding took it all); with ``abandon_grounding`` (for a process about to
    exit, such as the command line) the wait raises :class:`TimeLimitReached` at the deadline
    and leaves clingo grounding in its thread.
    """

    def __init__(self, seconds: float | None, *, abandon_grounding: bool = False):
        if seconds is not None and not (
            isinstance(seconds, (int, float)) and math.isfinite(seconds) and seconds >= 0
        ):
            raise ValueError(
                f"a time limit is a finite number of seconds, at least 0, got {seconds!r}"
            )
        self.seconds = seconds
        self.end = None if seconds is None else time.perf_counter() + seconds
        self.abandon_grounding = abandon_grounding
        self.cancelled = False
        self.whole: Deadline | None = None  # the deadline this one is a part of

    def part(self, fraction: float, *, abandon_grounding: bool | None = None) -> Deadline:
        """A deadline for one step of the work: ``fraction`` of the time left (no limit
        without one).  It ends too when this one ends or is cancelled.  ``abandon_grounding``
        (by default this one's): a step whose grounding may be left behind at the deadline,
        for a program of the whole grid, whose grounding alone can outlast the time left."""
        left = self.remaining()
        abandon = self.abandon_grounding if abandon_grounding is None else abandon_grounding
        return self._step(None if left is None else left * fraction, abandon)

    def at_most(self, seconds: float) -> Deadline:
        """A deadline for one step of at most ``seconds`` (the time left, if less).  It ends
        too when this one ends or is cancelled."""
        left = self.remaining()
        return self._step(seconds if left is None else min(seconds, left), self.abandon_grounding)

    def _step(self, seconds: float | None, abandon_grounding: bool) -> Deadline:
        """A deadline of ``seconds`` that ends too when this one ends or is cancelled."""
        step = Deadline(seconds, abandon_grounding=abandon_grounding)
        step.whole = self
        return step

    @classmethod
    def of(cls, limit: float | Deadline | None) -> Deadline:
        return limit if isinstance(limit, Deadline) else cls(limit)

    def remaining(self) -> float | None:
        """Seconds left (0 once expired), or None without a limit."""
        if self.whole is not None and self.whole.expired():
            return 0.0
        return None if self.end is None else max(0.0, self.end - time.perf_counter())

    def expired(self) -> bool:
        if self.whole is not None and self.whole.expired():
            return True
        return self.end is not None and time.perf_counter() >= self.end

    def reached(self, doing: str) -> TimeLimitReached:
        """The error for this limit, reached while ``doing`` something."""
        if self.cancelled or (self.whole is not None and self.whole.cancelled):
            return TimeLimitReached(f"cancelled while {doing}")
        return TimeLimitReached(f"time limit of {self.seconds:g} s reached while {doing}")

    def cancel(self) -> None:
        """End the time now: every search sharing this deadline stops at its next look at the
        clock (within :data:`POLL_SECONDS`), as at a time limit.  A server cancels the work of
        a request whose client went away."""
        self.end = time.perf_counter()
        self.cancelled = True

    def check(self, doing: str) -> None:
        """Raise :class:`TimeLimitReached` if the deadline has passed."""
        if self.expired():
            raise self.reached(doing)


# ---------------------------------------------------------------------------- signals

received: int | None = None
"""The first signal :func:`handling_signals` turned into ``KeyboardInterrupt``."""


def _stop(signum: int, frame: Any) -> None:
    global received
    if received is not None:  # already stopping: a second signal must not break that
        return
    received = signum
    raise KeyboardInterrupt


@contextlib.contextmanager
def handling_signals() -> Iterator[None]:
    """Within the block, the first SIGINT or SIGTERM raises ``KeyboardInterrupt`` in the main
    thread and later ones are ignored; the previous handlers come back at the end.  (Elsewhere
    than the main thread: no change.)"""
    global received
    received = None
    with _handlers(_stop):
        yield


def exit_code() -> int:
    """The exit code for a stop by signal: 130 for Ctrl-C (also when no handler recorded one, as
    for a ``KeyboardInterrupt`` raised by Python's own handler), 143 for SIGTERM."""
    return stop_status().exit_code


def stop_status() -> Status:
    """The status of a stop by signal: :attr:`Status.TERMINATED` for SIGTERM, else
    :attr:`Status.INTERRUPTED`."""
    return Status.TERMINATED if received == signal.SIGTERM else Status.INTERRUPTED


def stopped_by() -> str:
    """How the stop came, for messages: ``interrupted`` or ``terminated``."""
    return "terminated" if received == signal.SIGTERM else "interrupted"


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Within the block, SIGINT and SIGTERM wait; at its end they act as they would have (the
    handler that was in place runs, or the default action ends the process)."""
    caught: list[int] = []
    try:
        with _handlers(lambda signum, frame: caught.append(signum)):
            yield
    finally:
        for signum in dict.fromkeys(caught):
            signal.raise_signal(signum)


@contextlib.contextmanager
def _handlers(handler: Callable[[int, Any], None]) -> Iterator[bool]:
    """Install ``handler`` for SIGINT and SIGTERM, restoring the previous ones after; yields
    whether it could (only the main thread can, and only over handlers set from Python).  A
    signal the process was started ignoring (as a shell starts background jobs with SIGINT, and
    nohup with SIGHUP) stays ignored."""
    if threading.current_thread() is not threading.main_thread():
        yield False
        return
    previous = {signum: signal.getsignal(signum) for signum in SIGNALS}
    if None in previous.values():  # set outside Python: cannot be put back
        yield False
        return
    for signum, old in previous.items():
        if old is not signal.SIG_IGN:
            signal.signal(signum, handler)
    try:
        yield True
    finally:
        for signum, old in previous.items():
            signal.signal(signum, old)


# ---------------------------------------------------------------------------- uninterruptible work

_running: set[threading.Event] = set()  # each set when its work ends
_waits_at_exit = False  # whether the exit waits for _running (registered once, on first use)


def uninterruptible(work: Callable[[], None], deadline: Deadline, doing: str) -> None:
    """Run ``work``, a call that cannot be interrupted (clingo lets go of Python's lock while it
    works), in a thread, and wait for it here in slices of :data:`POLL_SECONDS`, so that
    ``KeyboardInterrupt`` arrives at once; with a deadline that may abandon grounding, the wait
    also ends at the deadline with :class:`TimeLimitReached`.  Errors of ``work`` are raised
    here.  Work the wait left behind goes on in its thread: see :func:`abandoned`."""
    if deadline.abandon_grounding:
        deadline.check(f"{doing}, before any search: status unknown")
    done, failure = _started(work, doing)
    while not done.wait(POLL_SECONDS):
        if deadline.abandon_grounding and deadline.expired():
            raise deadline.reached(f"{doing}, before any search: status unknown")
    _running.discard(done)
    if failure:
        raise failure[0]


def left_behind(work: Callable[[], None], grace: float, doing: str) -> bool:
    """Run ``work``, a call that cannot be interrupted, in a thread and wait for it at most
    ``grace`` seconds: whether it had to be left behind, still running (then :func:`abandoned`
    says so, and the process should end soon).  For a process about to end at its time limit,
    which must not wait for what clingo does not stop at once (it reads a request to stop a
    search between its steps, not while it preprocesses a large program)."""
    done, failure = _started(work, doing)
    if not done.wait(grace):
        return True
    _running.discard(done)
    if failure:
        raise failure[0]
    return False


def _started(work: Callable[[], None], doing: str) -> tuple[threading.Event, list[BaseException]]:
    """``work`` started in a thread of its own: the event set when it ends, and its error."""
    failure: list[BaseException] = []
    done = threading.Event()

    def run() -> None:
        try:
            work()
        except BaseException as error:  # handed to the waiting thread
            failure.append(error)
        finally:
            done.set()

    # Registered before it starts, so that however the wait ends the work is accounted for.
    # (An Event, not Thread.join: a join cut short by KeyboardInterrupt marks the thread as
    # ended in Python 3.11 although it is still running.)
    global _waits_at_exit
    if not _waits_at_exit:
        atexit.register(_wait_for_abandoned)
        _waits_at_exit = True
    _running.add(done)
    threading.Thread(target=run, name=f"hashi-asp: {doing}", daemon=True).start()
    return done, failure


def abandoned() -> bool:
    """Whether work left behind by :func:`uninterruptible` is still running.  It cannot be
    stopped, and the interpreter's shutdown may free what it works on: a process should then end
    with ``os._exit`` (as the command line does); otherwise its exit waits for the work."""
    return any(not done.is_set() for done in _running)


def leave(code: int) -> NoReturn:
    """End the process with ``code``: output flushed, and at once (``os._exit``) if work left
    behind is still running, which the interpreter's shutdown would wait for or cut down
    mid-call."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    if abandoned():
        os._exit(code)
    sys.exit(code)


def _wait_for_abandoned() -> None:
    for done in list(_running):
        done.wait()
