"""The JSON API of ``hashi-asp serve``, apart from any web framework: one function per command,
taking the request's JSON body and giving the document the command prints with ``--format
json`` (built by the same functions of :mod:`..reports`).

A body is ``{"puzzle": "<any notation the command line reads, as text>", ...}`` with the
command's options by their long names (``"max-bridges"``; ``"max_bridges"`` is read the same).
Each option is checked for its type and range before any work starts; a mistake raises
:class:`RequestError` with the message the command line would print and an HTTP status.
Nothing here touches the file system: a puzzle, a solution or bridges drawn so far come as
text or JSON, never as a path, and the program is the bundled encoding (``connectivity`` is the
one choice open).
"""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .. import notations, reports
from ..asp import CONNECTIVITY
from ..puzzle import MAX_BRIDGES_LIMIT, HashiError, Puzzle, Rules, Solution
from ..stopping import Deadline

# Statuses for errors, by the command line's exit code for them.
STATUS_BY_EXIT = {1: 422, 2: 400, 3: 408, 5: 500}
"""1 (the puzzle cannot be rated: no solution) 422; 2 (bad input) 400; 3 (the time limit came
before any answer) 408; 5 (an answer broke the rules: a fault in the program) 500."""


class RequestError(HashiError):
    """A request the API refuses, with its HTTP status."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Limits:
    """What one request may ask for, and what its answer may be.  The command line's own limits
    apply too (64 MiB of input, 10 000 000 cells); these are tighter, for a server that many
    share."""

    body_bytes: int = 1_000_000
    islands: int = 10_000
    models: int = 1_000
    time_limit: float = 10.0  # seconds, when the request gives none
    max_time_limit: float = 60.0
    cells: int = 1_000_000  # of a puzzle read or generated: what a converted text grows with
    answer_bytes: int = 10_000_000


BRIDGE_BYTES = 24
"""The fewest bytes a bridge takes in a solution of an answer (``[r1, c1, r2, c2, k]``, indented
by 8, on a line of its own): a solution of N islands, which joins them all, lists at least N - 1
bridges."""


# ---------------------------------------------------------------------------- options


@dataclass(frozen=True)
class Option:
    """One option of a command: its kind, default and range."""

    kind: str  # int, float, bool, str, choice, bridges
    default: Any = None
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()

    def read(self, name: str, value: Any) -> Any:
        wrong = f"option {name!r}: expected {self._expected()}, got {json.dumps(value)[:40]}"
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise RequestError(wrong)
            return value
        if self.kind in ("int", "float"):
            numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
            if not numeric or (self.kind == "int" and not float(value).is_integer()):
                raise RequestError(wrong)
            if not math.isfinite(value):
                raise RequestError(wrong)
            if (self.low is not None and value < self.low) or (
                self.high is not None and value > self.high
            ):
                raise RequestError(wrong)
            return int(value) if self.kind == "int" else float(value)
        if self.kind == "bridges":  # bridges as JSON, or as the text `check` reads
            text = value if isinstance(value, str) else json.dumps(value)
            try:
                return notations.parse_solutions(text, name)
            except HashiError as error:  # read before the request is: say it as a request error
                raise RequestError(str(error)) from None
        if not isinstance(value, str) or (self.choices and value not in self.choices):
            raise RequestError(wrong)
        return value

    def _expected(self) -> str:
        if self.choices:
            return "one of " + ", ".join(self.choices)
        if self.kind == "bridges":
            return "bridges as JSON"
        words = {"bool": "true or false", "str": "a string", "int": "a whole number"}
        if self.kind in words and (self.low is None or self.kind != "int"):
            return words[self.kind]
        span = f"from {self.low:g}" if self.low is not None else ""
        span += f" to {self.high:g}" if self.high is not None else ""
        return f"a {'whole ' if self.kind == 'int' else ''}number {span}".strip()


BRIDGES = Option("int", None, 1, MAX_BRIDGES_LIMIT)
SHARE = Option("float", None, 0, 1)
READING = {  # every command that reads a puzzle
    "puzzle": Option("str"),
    "notation": Option("choice", None, choices=tuple(notations.NOTATIONS)),
    "max-bridges": BRIDGES,
    "no-loops": Option("bool"),
}
# Not "race": a request may not start a process per core (the server's threads share them).
LINKS = tuple(name for name in CONNECTIVITY if name != "race")
SEARCHING = {
    "time-limit": Option("float", None, 0),
    "connectivity": Option("choice", "auto", choices=LINKS),
}
WRITABLE = tuple(sorted([*notations.NOTATIONS, *notations.ALIASES]))

OPTIONS: dict[str, dict[str, Option]] = {
    "solve": {
        **READING,
        **SEARCHING,
        "models": Option("int", 1, 1),
        "stats": Option("bool", False),
    },
    "unique": {**READING, **SEARCHING, "difficulty": Option("bool", False)},
    "count": {**READING, **SEARCHING, "check": Option("bool", True)},
    "hint": {**READING, **SEARCHING, "given": Option("bridges")},
    "steps": {
        **READING,
        "time-limit": SEARCHING["time-limit"],
        "given": Option("bridges"),
        "steps": Option("int", None, 1),
    },
    "difficulty": {**READING, "time-limit": SEARCHING["time-limit"]},
    "check": {**READING, "solution": Option("bridges")},
    "convert": {**READING, "to": Option("choice", None, choices=WRITABLE)},
    "render": {
        **READING,
        "solution": Option("bridges"),
        "cell-size": Option("float", 40, 4, 1000),
    },
    "generate": {
        "islands": Option("int", None, 2),
        "size": Option("str"),
        "alpha": SHARE,
        "beta": SHARE,
        "seed": Option("int", 1, 0),
        "unique": Option("bool", False),
        "difficulty": Option("str"),
        "max-bridges": Option("int", 2, 1, MAX_BRIDGES_LIMIT),
        "no-loops": Option("bool", False),
        "attempts": Option("int", 20, 1, 1000),
        "format": Option("choice", "json", choices=WRITABLE),
        "time-limit": SEARCHING["time-limit"],
    },
}
REQUIRED = {"check": ("solution",), "convert": ("to",), "generate": ("islands",)}
COMMANDS = tuple(OPTIONS)


@dataclass
class Request:
    """A request's options, read and checked, by their Python names (``max_bridges``)."""

    command: str
    values: dict[str, Any]
    deadline: Deadline
    limits: Limits
    board: Puzzle | None = field(default=None, repr=False)  # the puzzle, once read

    def __getattr__(self, name: str) -> Any:
        try:
            return self.values[name]
        except KeyError:
            raise AttributeError(name) from None

    def puzzle(self) -> Puzzle:
        """The puzzle, its rules replaced by ``max-bridges`` and ``no-loops`` when given (read
        once), within the server's limits of islands and cells."""
        if self.board is not None:
            return self.board
        board = notations.parse(
            self.values["puzzle"],
            notation=self.notation,
            source="<text>",
            max_bridges=self.max_bridges,
            no_loops=self.no_loops,
        )
        if len(board.islands) > self.limits.islands:
            raise RequestError(
                f"puzzle has {len(board.islands)} islands; this server takes at most "
                f"{self.limits.islands}",
                413,
            )
        _within_cells(board.rows, board.cols, self.limits, "puzzle")
        self.board = board
        return board

    def island_count(self) -> int:
        """How many islands the request is about (its puzzle's, read now, or those it asks to
        generate): what its work grows with."""
        if self.command == "generate":
            return int(self.values["islands"])
        with refusals():
            return len(self.puzzle().islands)

    def start(self) -> None:
        """Start the request's time limit: a server calls this when a thread takes the request
        up, so that time spent waiting for one is not taken from the search."""
        self.deadline = Deadline(self.deadline.seconds)

    def program(self) -> Any:
        from ..asp.interface import Program

        return Program(connectivity=self.connectivity)

    def one(self, name: str) -> Solution | None:
        """One set of bridges given as option ``name``, or None."""
        given = self.values[name]
        if given is None:
            return None
        if len(given) != 1:
            raise RequestError(f"option {name!r}: expected one set of bridges, found {len(given)}")
        return given[0]


def read_request(command: str, body: Any, limits: Limits) -> Request:
    """The request for ``command`` from its parsed JSON body, every option checked, and its
    deadline (the request's ``time-limit``, at most the server's) counting from now, until
    :meth:`Request.start` starts it again."""
    if command not in OPTIONS:
        raise RequestError(f"no such command {command!r}; the API has {', '.join(COMMANDS)}", 404)
    if not isinstance(body, dict):
        raise RequestError('the body must be a JSON object, such as {"puzzle": "..."}')
    options = OPTIONS[command]
    given = {str(name).replace("_", "-"): value for name, value in body.items()}
    unknown = sorted(set(given) - set(options))
    if unknown:
        raise RequestError(
            f"{command}: no option {unknown[0]!r}; it takes {', '.join(sorted(options))}"
        )
    needed = ("puzzle", *REQUIRED.get(command, ())) if "puzzle" in options else REQUIRED[command]
    missing = [name for name in needed if given.get(name) is None]
    if missing:
        raise RequestError(f"{command}: option {missing[0]!r} is required")
    values = {
        name.replace("-", "_"): option.default
        if given.get(name) is None
        else option.read(name, given[name])
        for name, option in options.items()
    }
    if "puzzle" in values and len(values["puzzle"].encode("utf-8")) > limits.body_bytes:
        raise RequestError(f"puzzle is over the limit of {limits.body_bytes} bytes", 413)
    if command == "solve" and not 1 <= values["models"] <= limits.models:
        raise RequestError(
            f"option 'models': this server finds 1 to {limits.models} solutions per request "
            "(count counts them all)"
        )
    if command == "generate" and values["islands"] > limits.islands:
        raise RequestError(f"this server generates at most {limits.islands} islands", 413)
    if command == "generate" and values["size"] is not None:
        from ..generation import parse_size

        with refusals():
            _within_cells(*parse_size(values["size"]), limits, "size")
    seconds = values.get("time_limit")
    seconds = limits.time_limit if seconds is None else min(seconds, limits.max_time_limit)
    return Request(command, values, Deadline(seconds), limits)


def _within_cells(rows: int, cols: int, limits: Limits, name: str) -> None:
    if rows * cols > limits.cells:
        raise RequestError(
            f"{name} is {cols}x{rows}, {rows * cols} cells; this server takes at most "
            f"{limits.cells}",
            413,
        )


# ---------------------------------------------------------------------------- the commands


def solve(request: Request) -> dict:
    from ..solving import solve

    board = request.puzzle()
    # Each solution lists a bridge per pair joined: refused now if they could not all fit.
    each = max(1, len(board.islands) - 1) * BRIDGE_BYTES
    if request.models > 1 and request.models * each > request.limits.answer_bytes:
        most = max(1, request.limits.answer_bytes // each)
        raise RequestError(
            f"option 'models': {request.models} solutions of {len(board.islands)} islands could "
            f"be over this server's limit of {request.limits.answer_bytes} bytes for an answer; "
            f"ask for at most {most}",
            413,
        )
    result = solve(
        board,
        request.models,
        program=request.program(),
        time_limit=request.deadline,
        explained=True,
    )
    return reports.result_json(board, result, stats=request.stats)


def unique(request: Request) -> dict:
    from ..generation import fix
    from ..solving import unique
    from ..walkthrough import difficulty

    board, program, deadline = request.puzzle(), request.program(), request.deadline
    result = unique(board, program=program, time_limit=deadline, explained=True)
    sought = result.status == "multiple"  # the bundled rules: a fix can be looked for
    found = fix(board, result, time_limit=deadline) if sought else None
    rated = None
    if request.difficulty and result.status == "unique":
        rated = difficulty(board, deadline)
    return reports.unique_json(board, result, fix=found, sought=sought, rated=rated)


def count(request: Request) -> dict:
    from ..solving import count

    board = request.puzzle()
    search = {"program": request.program(), "time_limit": request.deadline}
    result = count(board, verify=request.check, **search)
    return reports.count_json(board, result, checked=request.check)


def hint(request: Request) -> dict:
    from ..reasoning import hint

    board = request.puzzle()
    search = {"program": request.program(), "time_limit": request.deadline}
    found = hint(board, request.one("given"), explained=True, **search)
    return reports.hint_json(board, found)


def steps(request: Request) -> dict:
    from ..walkthrough import steps

    board = request.puzzle()
    given = request.one("given")
    walk = steps(board, given, limit=request.steps, time_limit=request.deadline)
    return reports.steps_json(board, walk)


def difficulty(request: Request) -> dict:
    from ..walkthrough import difficulty

    board = request.puzzle()
    return reports.difficulty_json(board, difficulty(board, request.deadline))


def check(request: Request) -> dict:
    from ..checking import check

    board = request.puzzle()
    return reports.check_json(board, [check(board, given) for given in request.solution])


def convert(request: Request) -> dict:
    board = request.puzzle()
    text = notations.write(board, request.to)
    return {"notation": notations.named(request.to).name, "text": text, "puzzle": board.to_json()}


def render(request: Request) -> dict:
    from ..checking import check
    from ..drawing import svg

    board = request.puzzle()
    drawn = request.one("solution")
    violations = check(board, drawn) if drawn is not None else []
    return {
        "svg": svg(board, drawn, cell=request.cell_size),
        "violations": [reports.violation_json(v) for v in violations],
        "puzzle": board.to_json(),
    }


def generate(request: Request) -> dict:
    from .. import generation

    rules = Rules(request.max_bridges, request.no_loops)
    _, made = generation.batch(
        request.islands,
        1,
        size=request.size,
        alpha=request.alpha,
        beta=request.beta,
        seed=request.seed,
        notation=request.format,
        difficulty=request.difficulty,
        rules=rules,
        unique=request.unique,
        attempts=request.attempts,
        time_limit=request.deadline,
    )
    name, generated, text = next(made)
    return reports.generated_json(generated, name, notations.named(request.format).name, text)


ANSWERS: dict[str, Callable[[Request], dict]] = {
    "solve": solve,
    "unique": unique,
    "count": count,
    "hint": hint,
    "steps": steps,
    "difficulty": difficulty,
    "check": check,
    "convert": convert,
    "render": render,
    "generate": generate,
}


def answer(request: Request) -> dict:
    """The command's JSON document; the library's errors become :class:`RequestError` with the
    command line's message and the status of :data:`STATUS_BY_EXIT`."""
    with refusals():
        return ANSWERS[request.command](request)


@contextlib.contextmanager
def refusals() -> Iterator[None]:
    """The library's errors in the block as :class:`RequestError`, with the command line's
    message and the status of :data:`STATUS_BY_EXIT`."""
    try:
        yield
    except RequestError:
        raise
    except HashiError as error:  # by its exit code: an unsolvable puzzle's rating is 422
        raise RequestError(str(error), STATUS_BY_EXIT.get(error.exit_code, 400)) from None
    except MemoryError:
        raise RequestError("out of memory: the input is too large", 413) from None
