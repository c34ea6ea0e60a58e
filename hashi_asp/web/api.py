"""The JSON API of ``hashi-asp serve``, apart from any web framework: a request names a command
and gives its options as a JSON object; the answer is the document the command prints with
``--format json``.  Both come from the command's declaration (:mod:`hashi_asp.commands`): the
options a request may give, their types and ranges, and the function that answers.

A body is ``{"puzzle": "<any notation the command line reads, as text>", ...}`` with the
command's options by their long names (``"max-bridges"``; ``"max_bridges"`` is read the same,
but not both).  The body is read strictly (:func:`read_body`: UTF-8, JSON, no key twice, no
string that is not Unicode text), and each option is checked before any work starts; a mistake
raises :class:`RequestError` with the message the command line would print and the HTTP status
of its :class:`~hashi_asp.status.Status`.  Only the commands and options of :mod:`.served` are
offered: nothing here touches the file system, starts a process or reaches another machine,
and a puzzle, a solution or bridges drawn so far come as text or JSON.  What this module adds
to the commands is the server's own limits (:class:`Limits`).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..commands.declaration import BRIDGES, PUZZLE, Command, Given, Hooks, Option, Reader
from ..errors import HashiError
from ..notations import json as json_notation
from ..notations.lexing import Problem
from ..puzzle import parse_size, water_between
from ..status import Status
from ..stopping import Deadline, uninterruptible
from . import served
from .admission import Work


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
    alternatives: int = 10  # fixes offered by one fix request: each proven unique and rated
    time_limit: float = 10.0  # seconds, when the request gives none
    max_time_limit: float = 60.0
    cells: int = 1_000_000  # of a puzzle read or generated: what a converted text grows with
    answer_bytes: int = 10_000_000


BRIDGE_BYTES = 24
"""The fewest bytes a bridge takes in a solution of an answer (``[r1, c1, r2, c2, k]``, indented
by 8, on a line of its own): a solution of N islands, which joins them all, lists at least N - 1
bridges."""


UNITS: dict[str, Command] = served.units()
COMMANDS = tuple(UNITS)
OPTIONS: dict[str, dict[str, Option]] = {
    name: {option.name: option for option in served.options(unit)} for name, unit in UNITS.items()
}
"""Per command served, the options a request may give, by their long names."""


def read_body(data: bytes) -> Any:
    """The JSON document of a request body, read strictly: UTF-8, JSON, each object's keys
    once (a key given twice would leave one of the two values unread), and every string, key or
    value, Unicode text; anything else raises :class:`RequestError` saying what and where."""
    import json

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RequestError(f"body is not UTF-8 (byte {error.start})") from None
    try:
        document = json_notation.loads(text)
    except Problem as duplicate:
        raise RequestError(str(duplicate.error("body"))) from None
    except json.JSONDecodeError as error:
        where = f"line {error.lineno}, column {error.colno}"
        raise RequestError(f"body is not JSON: {error.msg} ({where})") from None
    except RecursionError:
        raise RequestError("body is not JSON this server reads: nested too deeply") from None
    except ValueError as error:  # an integer of too many digits: Python's words, to the colon
        said = str(error).split(":")[0]
        raise RequestError(f"body is not JSON this server reads: {said}") from None
    if _ESCAPED_SURROGATE.search(text):  # (the only way one comes in: UTF-8 cannot hold one)
        _unicode_only(document)
    return document


_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89abcdefABCDEF]")


def _unicode_only(document: Any) -> None:
    """Refuse a string of the document that is not Unicode text: a lone surrogate, which JSON's
    ``\\ud800`` escape writes but no UTF-8 holds, so that every later use of the string (its
    size in bytes, a puzzle's program, an error naming it) would fail on it.  (A pair of them
    is one character: json has joined it.)"""
    import json

    places: list[tuple[Any, str]] = [(document, "")]
    while places:
        value, where = places.pop()
        if isinstance(value, str):
            _text(value, f"the string at {where or 'the top'}")
        elif isinstance(value, dict):
            for key, item in reversed(value.items()):
                # (Escaped, as the key may be the string refused; its start, as it may be long.)
                shown = json.dumps(key[:36]) + ("..." if len(key) > 36 else "")
                _text(key, f"the key {shown}" + (f" at {where}" if where else ""))
                places.append((item, f"{where}.{shown}" if where else shown))
        elif isinstance(value, list):
            places.extend((item, f"{where}[{i}]") for i, item in reversed(list(enumerate(value))))


def _text(value: str, what: str) -> None:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        surrogate = f"\\u{ord(value[error.start]):04x}"
        raise RequestError(
            f"body: {what} is not Unicode text: a lone surrogate ({surrogate}) at character "
            f"{error.start + 1}"
        ) from None


@dataclass
class Request:
    """A request's options, read and checked, by their Python names (``max_bridges``)."""

    command: str
    values: dict[str, Any]
    deadline: Deadline
    limits: Limits
    given: Given | None = field(default=None, repr=False)  # the puzzle read, once

    @property
    def unit(self) -> Command:
        return UNITS[self.command]

    @property
    def picture(self) -> bool:
        """Whether the puzzle is a picture (a data URL), whose reading is seconds of work of its
        own: done once the request is admitted, within its time limit."""
        from ..notations import picture

        puzzle = self.values.get("puzzle")
        return isinstance(puzzle, str) and picture.detect(puzzle)

    def prepared(self) -> Given:
        """What the command works with, the puzzle read (once), within the server's limits of
        islands and cells; a picture within the request's time limit too (its reading cannot be
        interrupted: at the deadline the request is answered, and the reading goes on in a
        thread of its own, which :meth:`.Deadline.left_running` names)."""
        if self.given is None:

            def read() -> Given:
                hooks = Hooks(keeps=True)  # Next step's walkthroughs, from one to the next
                return self.unit.given(
                    self.values, deadline=self.deadline, hooks=hooks, reader=Reader(files=False)
                )

            with refusals():
                if self.picture:
                    read_once: list[Given] = []
                    uninterruptible(
                        lambda: read_once.append(read()), self.deadline, "reading the picture"
                    )
                    given = read_once[0]
                else:
                    given = read()
            board = given.puzzle
            if board is not None:
                if len(board.islands) > self.limits.islands:
                    raise RequestError(
                        f"puzzle has {len(board.islands)} islands; this server takes at most "
                        f"{self.limits.islands}",
                        413,
                    )
                _within_cells(board.rows, board.cols, self.limits, "puzzle")
            self.given = given
        return self.given

    def work(self) -> Work:
        """What the request's work grows with (:class:`.admission.Work`), known before it is
        admitted: a puzzle given as text is read now (reading text is linear in its bytes,
        which the body limit bounds); a picture is not (reading it is the work); a puzzle to
        generate is its islands and the cells of its board."""
        if self.picture:
            return Work(picture=True)
        islands = self.values.get("islands")
        if islands is not None:
            size = self.values.get("size")
            rows, cols = parse_size(size) if size is not None else (0, 0)
            return Work(int(islands), rows * cols)
        given = self.prepared()
        board = given.puzzle
        if board is None:
            return Work()
        drawn = [*(given.values.get("solutions") or ()), given.values.get("drawn")]
        walked = sum(_length(b) for one in drawn if one is not None for b in one.bridges)
        return Work(len(board.islands), water_between(board.islands) + walked)

    def start(self) -> None:
        """Start the request's time limit: a server calls this when a thread takes the request
        up, so that time spent waiting for one is not taken from the search."""
        self.deadline = Deadline(self.deadline.seconds)
        if self.given is not None:
            self.given.deadline = self.deadline


def _length(bridge: Any) -> int:
    """The cells a bridge of a solution to check spans, as drawn (whatever its ends)."""
    (r1, c1), (r2, c2) = bridge.ends
    return abs(r1 - r2) + abs(c1 - c2)


def read_request(command: str, body: Any, limits: Limits) -> Request:
    """The request for ``command`` from its parsed JSON body, every option checked by the
    command's declaration and the server's limits, and its deadline started (the request's
    ``time-limit``, at most the server's)."""
    unit = UNITS.get(command)
    if unit is None:
        raise RequestError(f"no such command {command!r}; the API has {', '.join(COMMANDS)}", 404)
    if not isinstance(body, dict):
        raise RequestError('the body must be a JSON object, such as {"puzzle": "..."}')
    options = OPTIONS[command]
    given: dict[str, Any] = {}
    spelled: dict[str, str] = {}
    for key, value in body.items():
        name = str(key).replace("_", "-")
        if name in given:
            raise RequestError(
                f"{command}: option {name!r} given twice (as {spelled[name]!r} and {key!r})"
            )
        given[name], spelled[name] = value, key
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
            if option.kind in (PUZZLE, BRIDGES) and isinstance(values[option.key], str):
                # A byte-order mark, as a file saved by some editors starts: the command line's
                # reading drops it too.
                values[option.key] = values[option.key].removeprefix("\ufeff")
    _within_limits(values, limits)
    seconds = values.get("time_limit")
    seconds = limits.time_limit if seconds is None else min(seconds, limits.max_time_limit)
    return Request(command, values, Deadline(seconds), limits)


def _within_limits(values: dict[str, Any], limits: Limits) -> None:
    """The server's limits on what a request may ask for: the puzzle's size, how many solutions
    (``models``) or fixes (``alternatives``), how many islands to make (``islands``) and on how
    large a board (``size``)."""
    puzzle = values.get("puzzle")
    if isinstance(puzzle, str) and len(puzzle.encode("utf-8")) > limits.body_bytes:
        raise RequestError(f"puzzle is over the limit of {limits.body_bytes} bytes", 413)
    models = values.get("models")
    if models is not None and not 1 <= models <= limits.models:
        raise RequestError(
            f"option 'models': this server finds 1 to {limits.models} solutions per request "
            "(count counts them all)"
        )
    alternatives = values.get("alternatives")
    if alternatives is not None and alternatives > limits.alternatives:
        raise RequestError(
            f"option 'alternatives': this server offers at most {limits.alternatives} fixes "
            "per request"
        )
    islands = values.get("islands")
    if islands is not None and islands > limits.islands:
        raise RequestError(f"this server generates at most {limits.islands} islands", 413)
    if values.get("size") is not None:
        with refusals():
            _within_cells(*parse_size(values["size"]), limits, "size")


def _within_cells(rows: int, cols: int, limits: Limits, name: str) -> None:
    if rows * cols > limits.cells:
        raise RequestError(
            f"{name} is {cols}x{rows}, {rows * cols} cells; this server takes at most "
            f"{limits.cells}",
            413,
        )


def _within_answer(given: Given, limits: Limits) -> None:
    """Refuse now the solutions asked for (``models``) that could not all fit in an answer:
    each lists a bridge per pair joined."""
    models = given.values.get("models") or 1
    if models > 1 and given.puzzle is not None:
        islands = len(given.puzzle.islands)
        each = max(1, islands - 1) * BRIDGE_BYTES
        if models * each > limits.answer_bytes:
            most = max(1, limits.answer_bytes // each)
            raise RequestError(
                f"option 'models': {models} solutions of {islands} islands could be over this "
                f"server's limit of {limits.answer_bytes} bytes for an answer; ask for at most "
                f"{most}",
                413,
            )


def answer(request: Request) -> tuple[dict, int]:
    """The command's JSON document, the one the command line prints with ``--format json``
    for the same verdict, and its HTTP status from the one table (:mod:`hashi_asp.status`):
    200 for an answer, 422 for a question without one (the difficulty of a puzzle without
    exactly one solution), 503 for what a server that is stopping had found.  The library's
    errors, which leave no document, become :class:`RequestError` with the command line's
    message and the HTTP status of their :class:`~hashi_asp.status.Status`."""
    given = request.prepared()
    _within_answer(given, request.limits)
    with refusals():
        outcome = request.unit.run(given)
        if outcome.document is None:  # (every served command has one: a fault if not)
            raise RequestError(f"{request.command} has no JSON document", Status.FAULT.http)
        return outcome.document(), outcome.status.http


@contextlib.contextmanager
def refusals() -> Iterator[None]:
    """The library's errors in the block as :class:`RequestError`, with the command line's
    message and the HTTP status of their :class:`~hashi_asp.status.Status`."""
    try:
        yield
    except RequestError:
        raise
    except HashiError as error:
        raise RequestError(str(error), error.status.http) from None
    except MemoryError:
        raise RequestError("out of memory: the input is too large", Status.TOO_LARGE.http) from None
