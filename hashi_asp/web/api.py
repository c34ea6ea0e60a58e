"""The JSON API of ``hashi-asp serve``, apart from any web framework: a request names a command
and gives its options as a JSON object; the answer is the document the command prints with
``--format json``.  Both come from the command's declaration (:mod:`hashi_asp.commands`): the
options a request may give, their types and ranges, and the function that answers.

A body is ``{"puzzle": "<any notation the command line reads, as text>", ...}`` with the
command's options by their long names (``"max-bridges"``; ``"max_bridges"`` is read the same).
Each option is checked before any work starts; a mistake raises :class:`RequestError` with the
message the command line would print and the HTTP status of its
:class:`~hashi_asp.status.Status`.  Nothing here touches the file system: the options that name
a file are not offered, and a puzzle, a solution or bridges drawn so far come as text or JSON.
What this module adds to the commands is the server's own limits (:class:`Limits`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import commands
from ..commands.unit import Command, Hooks, Reader
from ..puzzle import HashiError
from ..status import Status
from ..stopping import Deadline


class RequestError(HashiError):
    """A request the API refuses, with its HTTP status."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.http = status


@dataclass(frozen=True)
class Limits:
    """What one request may ask for.  The command line's own limits apply too (64 MiB of input,
    10 000 000 cells); these are tighter, for a server that many share."""

    body_bytes: int = 1_000_000
    islands: int = 10_000
    models: int = 1_000
    time_limit: float = 10.0  # seconds, when the request gives none
    max_time_limit: float = 60.0


UNITS: dict[str, Command] = {unit.name: unit for unit in commands.served()}
COMMANDS = tuple(UNITS)


@dataclass
class Request:
    """A request's options, read and checked, by their Python names (``max_bridges``)."""

    command: str
    values: dict[str, Any]
    deadline: Deadline
    limits: Limits

    @property
    def unit(self) -> Command:
        return UNITS[self.command]


def read_request(command: str, body: Any, limits: Limits) -> Request:
    """The request for ``command`` from its parsed JSON body, every option checked by the
    command's declaration and the server's limits, and its deadline started (the request's
    ``time-limit``, at most the server's)."""
    unit = UNITS.get(command)
    if unit is None:
        raise RequestError(f"no such command {command!r}; the API has {', '.join(COMMANDS)}", 404)
    if not isinstance(body, dict):
        raise RequestError('the body must be a JSON object, such as {"puzzle": "..."}')
    options = {option.name: option for option in unit.served_options}
    given = {str(name).replace("_", "-"): value for name, value in body.items()}
    unknown = sorted(set(given) - set(options))
    if unknown:
        raise RequestError(
            f"{command}: no option {unknown[0]!r}; it takes {', '.join(sorted(options))}"
        )
    missing = [o.name for o in options.values() if o.required and given.get(o.name) is None]
    if missing:
        raise RequestError(f"{command}: option {missing[0]!r} is required")
    values = {option.key: option.default for option in unit.options}
    for name, option in options.items():
        if given.get(name) is not None:
            try:
                values[option.key] = option.from_json(given[name])
            except HashiError as error:
                raise RequestError(str(error)) from None
    _within_limits(values, limits)
    seconds = values.get("time_limit")
    seconds = limits.time_limit if seconds is None else min(seconds, limits.max_time_limit)
    return Request(command, values, Deadline(seconds), limits)


def _within_limits(values: dict[str, Any], limits: Limits) -> None:
    """The server's limits on what a request may ask for: the puzzle's size, how many solutions
    (``models``), how many islands to make (``islands``)."""
    puzzle = values.get("puzzle")
    if isinstance(puzzle, str) and len(puzzle.encode("utf-8")) > limits.body_bytes:
        raise RequestError(f"puzzle is over the limit of {limits.body_bytes} bytes", 413)
    models = values.get("models")
    if models is not None and not 1 <= models <= limits.models:
        raise RequestError(
            f"option 'models': this server finds 1 to {limits.models} solutions per request "
            "(count counts them all)"
        )
    islands = values.get("islands")
    if islands is not None and islands > limits.islands:
        raise RequestError(f"this server generates at most {limits.islands} islands", 413)


def answer(request: Request) -> dict:
    """The command's JSON document; the library's errors become :class:`RequestError` with the
    command line's message and the HTTP status of their :class:`~hashi_asp.status.Status`."""
    unit = request.unit
    try:
        given = unit.given(
            request.values, deadline=request.deadline, hooks=Hooks(), reader=Reader(files=False)
        )
        if given.puzzle is not None and len(given.puzzle.islands) > request.limits.islands:
            raise RequestError(
                f"puzzle has {len(given.puzzle.islands)} islands; this server takes at most "
                f"{request.limits.islands}",
                413,
            )
        outcome = unit.run(given)
    except RequestError:
        raise
    except HashiError as error:
        raise RequestError(str(error), error.status.http) from None
    except MemoryError:
        raise RequestError("out of memory: the input is too large", Status.TOO_LARGE.http) from None
    if outcome.document is None:  # (every served command has one: a fault if not)
        raise RequestError(f"{unit.name} has no JSON document", Status.FAULT.http)
    return outcome.document()
