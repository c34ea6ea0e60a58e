"""Questions asked of clingo in the caller's thread (the walkthrough's step checks, the fix's
single edits: thousands of small ones, where a search thread of its own would cost more than
the question), interrupted at their deadline's end as a polled search stops."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..stopping import POLL_SECONDS, Deadline

if TYPE_CHECKING:
    import clingo


@contextlib.contextmanager
def asking(control: clingo.Control, deadline: Deadline | None) -> Iterator[None]:
    """While a question is asked of ``control`` in this thread: one watching thread for all
    such questions interrupts clingo at the deadline's end (its time, a signal, a caller's
    stop), as a polled search would stop.  Registering costs a dictionary entry, not a thread
    per question: the walkthrough asks thousands."""
    if deadline is None:
        yield
        return
    key = object()
    with _questions_lock:
        _questions[key] = (control, deadline)
        if not _question_watch.is_set():
            _question_watch.set()
            threading.Thread(
                target=_watch_questions, name="hashi-asp: question watch", daemon=True
            ).start()
    try:
        yield
    finally:
        with _questions_lock:
            _questions.pop(key, None)


def _watch_questions() -> None:
    """Interrupt each question whose deadline has ended (:func:`asking`), for ever."""
    while True:
        time.sleep(POLL_SECONDS)
        with _questions_lock:
            for key, (control, deadline) in list(_questions.items()):
                if deadline.expired():
                    control.interrupt()
                    del _questions[key]


_questions: dict[object, tuple[clingo.Control, Deadline]] = {}
_questions_lock = threading.Lock()
_question_watch = threading.Event()
