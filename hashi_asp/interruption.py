"""Stopping cleanly on Ctrl-C (SIGINT) and SIGTERM.

Python turns Ctrl-C into ``KeyboardInterrupt``; every search catches it, stops clingo and keeps
what it found, and the command line prints that and exits with 130.  SIGTERM (what ``kill`` and
service managers send) ends a Python process on the spot by default, with no chance to print or
tidy up; :func:`handling_signals`, which only the command line installs (never a library
import), makes it raise ``KeyboardInterrupt`` as well, so both stop the same way, and
:func:`exit_code` tells them apart: 128 + the signal number (130, 143), as shells report a
process ended by a signal.

:func:`deferred` holds both signals back while a file is put in place, so an interruption never
leaves half a file or a stray temporary one.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from typing import Iterator

SIGNALS = (signal.SIGINT, signal.SIGTERM)

received: int | None = None
"""The last signal :func:`handling_signals` turned into ``KeyboardInterrupt``."""


def _stop(signum: int, frame) -> None:
    global received
    received = signum
    raise KeyboardInterrupt


@contextlib.contextmanager
def handling_signals() -> Iterator[None]:
    """Within the block, SIGINT and SIGTERM raise ``KeyboardInterrupt`` in the main thread; the
    previous handlers come back at the end.  (Elsewhere than the main thread: no change.)"""
    global received
    received = None
    with _handlers(_stop):
        yield


def exit_code() -> int:
    """The exit code for a stop by signal: 130 for Ctrl-C (also when no handler recorded one,
    as for a ``KeyboardInterrupt`` raised by Python's own handler), 143 for SIGTERM."""
    return 128 + (received or signal.SIGINT)


def stopped_by() -> str:
    """How the last stop came, for messages: ``interrupted`` or ``terminated``."""
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
def _handlers(handler) -> Iterator[bool]:
    """Install ``handler`` for SIGINT and SIGTERM, restoring the previous ones after; yields
    whether it could (only the main thread can, and only over handlers set from Python)."""
    if threading.current_thread() is not threading.main_thread():
        yield False
        return
    previous = {signum: signal.getsignal(signum) for signum in SIGNALS}
    if None in previous.values():            # set outside Python: cannot be put back
        yield False
        return
    for signum in SIGNALS:
        signal.signal(signum, handler)
    try:
        yield True
    finally:
        for signum, old in previous.items():
            signal.signal(signum, old)
