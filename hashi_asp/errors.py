"""The errors every layer raises: one line each, with the :class:`~hashi_asp.status.Status` that
gives the command line's exit code and the JSON API's HTTP status."""

from __future__ import annotations

from .status import Status


class HashiError(Exception):
    """Base class for the errors a command reports as one line: its :class:`Status` gives the
    exit code and the HTTP status (:mod:`.status`)."""

    status = Status.BAD_INPUT


class PuzzleError(HashiError):
    """Malformed input: says what is wrong and where (source, 1-based line and column)."""

    def __init__(
        self,
        message: str,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.source = source
        self.line = line
        self.column = column

    def __str__(self) -> str:
        where = [str(part) for part in (self.source, self.line, self.column) if part is not None]
        return ":".join(where) + ": " + self.message if where else self.message
