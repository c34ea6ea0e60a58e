"""Stopping cleanly: one protocol for a time limit, Ctrl-C (SIGINT), SIGTERM and a caller that
no longer wants the answer, and for work that cannot be interrupted.

- A :class:`Deadline` is the time limit of one piece of work, shared by every step of it
  (reading, grounding, each search, an explanation).  It ends when its time is up, or earlier
  when it is :meth:`~Deadline.stop`\\ ped; :attr:`Deadline.stopped` says why (a :class:`Stop`).
  Parts of it (:meth:`~Deadline.part`, :meth:`~Deadline.at_most`) end with it.
- Everything that takes long looks at its deadline (clingo's searches within
  :data:`POLL_SECONDS`, Python's own loops between steps).  At the end it hands back what it
  found, saying why it stopped (``stopped``, a :class:`Stop`); with nothing to hand back it
  raises :class:`Stopped`.  Whatever ended the deadline, the code path is the same: a Ctrl-C
  is a time limit that came early.
- Signals: :func:`handling_signals`, which the command line installs, turns the first SIGINT or
  SIGTERM into a stop of the command's deadline (:func:`watching`), so that the command prints
  what it found so far and exits with 130 or 143.  A second signal soon after is ignored (as
  ``timeout`` signals the process and then its group); one that comes
  :data:`INSISTING_SECONDS` later raises ``KeyboardInterrupt`` at once.  Without the handlers
  (a program using the library), Ctrl-C raises ``KeyboardInterrupt`` as Python does; a search
  that catches it stops its deadline the same way, and hands back what it found.
- Work that cannot be interrupted (clingo grounding, clasp preparing a search, a blocking read)
  runs in a thread of its own (:func:`uninterruptible`), and the wait for it ends with the
  deadline: the caller gets its answer (or :class:`Stopped`) in time, and the work goes on in
  its thread until it ends, its result dropped.  Nothing ends the process: only the ``hashi-asp``
  script itself may end with such work still running (``os._exit``); a program that goes on
  meanwhile pays for it in processor time, and its interpreter waits for it at exit
  (:func:`abandoned` says whether any is left).
- :func:`deferred` holds both signals back while a file is put in place.
"""

from __future__ import annotations

import atexit
import contextlib
import math
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from .errors import HashiError
from .status import Status, Stop

T = TypeVar("T")
SIGNALS = (signal.SIGINT, signal.SIGTERM)
POLL_SECONDS = 0.1
"""How often a wait for work that cannot be interrupted looks at its deadline."""
INSISTING_SECONDS = 1.0
"""A second signal this long after the first stops the command at once (``KeyboardInterrupt``),
without waiting for its clean stop; closer together, it is the same stop sent twice."""


class Stopped(HashiError):
    """Work stopped (:class:`Stop`: time limit, signal, cancel) before it had anything to hand
    back: the one exception for all of them."""

    def __init__(self, message: str, why: Stop = Stop.TIME):
        super().__init__(message)
        self.why = why

    @property
    def status(self) -> Status:  # type: ignore[override]
        return self.why.status(answered=False)

    def __reduce__(self) -> tuple:  # sent whole from a worker process
        return Stopped, (str(self), self.why)


class Deadline:
    """A time limit counted from when it is made, which also ends when it is stopped.  One
    deadline shared by every step of a piece of work makes the limit apply to the whole; a
    number of seconds given to a library function starts a deadline of its own."""

    def __init__(self, seconds: float | None = None):
        if seconds is not None and not (
            isinstance(seconds, (int, float)) and math.isfinite(seconds) and seconds >= 0
        ):
            raise ValueError(
                f"a time limit is a finite number of seconds, at least 0, got {seconds!r}"
            )
        self.seconds = seconds
        self.end = None if seconds is None else time.perf_counter() + seconds
        self.whole: Deadline | None = None  # the deadline this one is a part of
        self._stopped: Stop | None = None
        self._behind: list[threading.Event] = []  # work left running (see uninterruptible)

    @classmethod
    def of(cls, limit: float | Deadline | None) -> Deadline:
        return limit if isinstance(limit, Deadline) else cls(limit)

    # ------------------------------------------------------------------ parts

    def part(self, fraction: float) -> Deadline:
        """A deadline for one step of the work: ``fraction`` of the time left (no limit
        without one).  It ends too when this one ends."""
        left = self.remaining()
        return self._step(None if left is None else left * fraction)

    def at_most(self, seconds: float | None) -> Deadline:
        """A deadline for one step of at most ``seconds`` (the time left, if less; None: no
        limit of its own).  It ends too when this one ends."""
        left = self.remaining()
        if seconds is None or left is None:
            return self._step(left if seconds is None else seconds)
        return self._step(min(seconds, left))

    def _step(self, seconds: float | None) -> Deadline:
        step = Deadline(seconds)
        step.whole = self
        return step

    @property
    def root(self) -> Deadline:
        """The deadline of the whole work this one is a part of (itself if none)."""
        deadline = self
        while deadline.whole is not None:
            deadline = deadline.whole
        return deadline

    # ------------------------------------------------------------------ time

    def remaining(self) -> float | None:
        """Seconds left (0 once ended), or None without a limit."""
        if self.stopped is not None:
            return 0.0
        return None if self.end is None else max(0.0, self.end - time.perf_counter())

    def expired(self) -> bool:
        """Whether the deadline has ended (time up, or stopped)."""
        return self.stopped is not None

    @property
    def stopped(self) -> Stop | None:
        """Why the deadline has ended, None while it runs: its own stop, else the whole's, else
        :attr:`Stop.TIME` once its time is up."""
        deadline: Deadline | None = self
        while deadline is not None:
            if deadline._stopped is not None:
                return deadline._stopped
            if deadline.end is not None and time.perf_counter() >= deadline.end:
                return Stop.TIME
            deadline = deadline.whole
        return None

    def interrupt(self) -> None:
        """Python's own Ctrl-C (``KeyboardInterrupt``, in a program without the handlers of
        :func:`handling_signals`) came while this work waited: the whole work stops as at a
        SIGINT, and hands back what it found."""
        self.root.stop(Stop.INTERRUPTED)

    def stop(self, why: Stop = Stop.CANCELLED) -> None:
        """End the deadline now, and every part of it: each search sharing it stops at its next
        look (within :data:`POLL_SECONDS`) and hands back what it found, as at a time limit.
        The first reason given is kept."""
        if self._stopped is None:
            self._stopped = why

    def reached(self, doing: str) -> Stopped:
        """The error for this deadline's end, reached while ``doing`` something (a signal's is
        its word alone: the command says what it had)."""
        why = self.stopped or Stop.TIME
        if why is Stop.TIME:  # the limit that passed: the whole work's, or this part's own
            now, deadline, limit = time.perf_counter(), self.root, self.seconds
            if deadline.end is not None and now >= deadline.end:
                limit = deadline.seconds
            return Stopped(f"time limit of {limit or 0:g} s reached while {doing}", why)
        if why is Stop.CANCELLED:
            return Stopped(f"cancelled while {doing}", why)
        return Stopped(why.value, why)

    def check(self, doing: str) -> None:
        """Raise :class:`Stopped` if the deadline has ended."""
        if self.expired():
            raise self.reached(doing)

    # ------------------------------------------------------------------ work left behind

    def looking(self, items: Iterable[T], doing: str, every: int = 256) -> Iterator[T]:
        """The items, this deadline looked at before every ``every`` of them (raising
        :class:`Stopped` at its end): for Python's own long loops, which clingo does not
        watch."""
        for number, item in enumerate(items):
            if number % every == 0:
                self.check(doing)
            yield item

    def left_running(self) -> list[threading.Event]:
        """The work this deadline's waits left running (:func:`uninterruptible`) and not yet
        ended, each as the event set when it ends: a server holds the request's thread until
        they have."""
        return [done for done in self.root._behind if not done.is_set()]


# ---------------------------------------------------------------------------- signals

_watched: list[Deadline] = []  # the deadlines a signal stops, innermost last
_first: list[tuple[int, float]] = []  # the first signal handled, and when


def _stop(signum: int, frame: Any) -> None:
    if _first:
        if time.monotonic() - _first[0][1] < INSISTING_SECONDS:
            return  # the same stop, sent twice (`timeout` signals the process, then its group)
        raise KeyboardInterrupt  # the clean stop is taking too long: at once
    _first.append((signum, time.monotonic()))
    if not _watched:
        raise KeyboardInterrupt  # nothing to stop cleanly yet (reading options, loading)
    why = Stop.TERMINATED if signum == signal.SIGTERM else Stop.INTERRUPTED
    for deadline in _watched:
        deadline.stop(why)


@contextlib.contextmanager
def handling_signals() -> Iterator[None]:
    """Within the block, the first SIGINT or SIGTERM stops the deadlines being watched
    (:func:`watching`), or raises ``KeyboardInterrupt`` when there are none; the previous
    handlers come back at the end.  (Elsewhere than the main thread: no change.)"""
    _first.clear()
    with _handlers(_stop):
        yield


@contextlib.contextmanager
def watching(deadline: Deadline) -> Iterator[Deadline]:
    """Within the block, a signal handled by :func:`handling_signals` stops ``deadline``."""
    _watched.append(deadline)
    try:
        if _first:  # a signal came before the work began
            deadline.stop(Stop.TERMINATED if _first[0][0] == signal.SIGTERM else Stop.INTERRUPTED)
        yield deadline
    finally:
        _watched.remove(deadline)


def signal_stop() -> Stop | None:
    """The stop of the signal :func:`handling_signals` handled (None if none came)."""
    if not _first:
        return None
    return Stop.TERMINATED if _first[0][0] == signal.SIGTERM else Stop.INTERRUPTED


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
    works), in a thread, and wait for it here in slices of :data:`POLL_SECONDS`: at the
    deadline's end (or at Ctrl-C, which stops the deadline) the wait raises :class:`Stopped`,
    and the work goes on in its thread, its result dropped.  Errors of ``work`` are raised
    here."""
    deadline.check(f"{doing}, before any search: status unknown")
    done, failure = _started(work, doing, deadline)
    try:
        while not done.wait(POLL_SECONDS):
            if deadline.expired():
                raise deadline.reached(f"{doing}, before any search: status unknown")
    except KeyboardInterrupt:
        deadline.interrupt()
        raise deadline.reached(doing) from None
    _running.discard(done)
    if failure:
        raise failure[0]


def left_behind(work: Callable[[], None], grace: float, doing: str) -> bool:
    """Run ``work``, a call that cannot be interrupted, in a thread and wait for it at most
    ``grace`` seconds: whether it had to be left behind, still running."""
    done, failure = _started(work, doing, None)
    if not done.wait(grace):
        return True
    _running.discard(done)
    if failure:
        raise failure[0]
    return False


def _started(
    work: Callable[[], None], doing: str, deadline: Deadline | None
) -> tuple[threading.Event, list[BaseException]]:
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
            if deadline is not None:  # (a list's append and remove are atomic)
                with contextlib.suppress(ValueError):
                    deadline.root._behind.remove(done)

    # Registered before it starts, so that however the wait ends the work is accounted for.
    # (An Event, not Thread.join: a join cut short by KeyboardInterrupt marks the thread as
    # ended in Python 3.11 although it is still running.)
    global _waits_at_exit
    if not _waits_at_exit:
        atexit.register(_wait_for_abandoned)
        _waits_at_exit = True
    _running.add(done)
    if deadline is not None:
        deadline.root._behind.append(done)
    threading.Thread(target=run, name=f"hashi-asp: {doing}", daemon=True).start()
    return done, failure


def abandoned() -> bool:
    """Whether work left behind by :func:`uninterruptible` is still running.  It cannot be
    stopped: the ``hashi-asp`` script ends with ``os._exit`` while it is; any other program's
    interpreter waits for it at exit, since its shutdown could free what the work uses."""
    return any(not done.is_set() for done in _running)


def _wait_for_abandoned() -> None:
    for done in list(_running):
        done.wait()
