"""``generate --jobs N`` and ``generate --scheduler``: the puzzles of one request made on the
executors (local runner processes, a Dask cluster), puzzle i from seed + i as in one
process, and handed on in order: the files are the same, byte for byte, whichever executor
made them."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import HashiError

if TYPE_CHECKING:
    from ..generation import Generated, Making
    from ..status import Verdict
    from ..stopping import Deadline
    from .executors import Cluster, Processes


@dataclass(frozen=True)
class Made:
    """Puzzle ``number`` of ``making``, work for a runner (:mod:`hashi_asp.workers`):
    :meth:`make` gives (number, the puzzle's (name, Generated, text), or the error that stopped
    it)."""

    making: Making
    number: int
    time_limit: float | None = None
    memory_limit: int | None = None

    def make(self, runner: Any = None, *, within: Deadline | None = None) -> tuple[int, Any]:
        """The puzzle, wherever it is made (in a runner, which offers nothing it needs, or
        here), within its own time limit."""
        try:
            return self.number, self.making.one(self.number, self.time_limit)
        except HashiError as error:
            return self.number, error
        except MemoryError:
            from ..generation import GenerationError

            return self.number, GenerationError("out of memory")

    def lost(self, message: str, status: Verdict | None = None) -> tuple[int, Any]:
        """The error of a puzzle whose runner ended without it (whatever the ``status``)."""
        from ..generation import GenerationError

        name = self.making.names[self.number]
        return self.number, GenerationError(f"{name}: {message}")


def in_order(
    making: Making, executor: Processes | Cluster, deadline: Deadline
) -> Iterator[tuple[str, Generated, str]]:
    """Every puzzle of ``making``, made on ``executor`` and handed on in order (puzzle i once
    those before it are); each is given the time left of ``deadline`` when it starts.  The
    first that fails raises its error, after those before it."""
    from .executors import Lost

    made = (Made(making, i, deadline.remaining()) for i in range(len(making.names)))
    waiting: dict[int, Any] = {}
    following = 0
    stream = executor.run(made, deadline)
    try:
        for result in stream:
            if isinstance(result, Lost):
                result = result.task.lost(result.message)
            number, outcome = result
            waiting[number] = outcome
            while following in waiting:
                outcome = waiting.pop(following)
                if isinstance(outcome, BaseException):
                    raise outcome
                yield outcome
                following += 1
        deadline.check("making the puzzles")  # the executor ended early: at the deadline
    finally:
        stream.close()  # type: ignore[attr-defined]
