"""How a command ended: the one table from an outcome to the exit code of the command line and
the HTTP status of the JSON API.

Every command returns one of these with its result, and every error the library raises carries
one (:attr:`hashi_asp.puzzle.HashiError.status`); neither the library nor a command knows the
numbers.  A verdict that is an answer (no solution, two solutions, a broken rule) is a document
the API sends with 200: the status of the document says the verdict; only what leaves no
document to send (bad input, no answer in time, a fault) has an error status.
"""

from __future__ import annotations

import enum


class Status(enum.Enum):
    """An outcome, with its exit code and HTTP status."""

    #          exit  HTTP
    OK = (0, 200)
    """The answer asked for: a solution, unique, valid, solved, written."""
    NO = (1, 200)
    """The answer is no: no solution, more than one, a broken rule, a walk stuck."""
    UNSOLVABLE = (4, 200)
    """``unique`` found no solution at all (its 1 means "more than one")."""
    PARTIAL = (3, 200)
    """The time limit came first: the document says what was found before it."""
    BAD_INPUT = (2, 400)
    """Malformed input, a bad option, a file that cannot be read or written."""
    NOT_FOUND = (2, 404)
    """No such command (the API; on the command line, a usage error)."""
    TOO_LARGE = (2, 413)
    """Over a limit on what may be sent or produced."""
    NO_ANSWER = (3, 408)
    """The time limit came before any answer."""
    CANNOT_ANSWER = (1, 422)
    """The question has no answer for this puzzle (the difficulty of one without a solution)."""
    FAULT = (5, 500)
    """The program gave an answer that breaks the rules: never shown."""
    INTERRUPTED = (130, 503)
    """Ctrl-C (SIGINT); a server that is stopping answers 503."""
    TERMINATED = (143, 503)
    """SIGTERM."""

    @property
    def exit_code(self) -> int:
        return self.value[0]

    @property
    def http(self) -> int:
        return self.value[1]


EXIT_CODES = sorted({status.exit_code for status in Status})
"""Every exit code the command line can give (docs/commands.md lists what each means)."""
