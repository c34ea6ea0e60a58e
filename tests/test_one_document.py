"""The command line and the JSON API give one document for every verdict.  For every command the
API serves, every verdict it can give (one solution, several, none, the time limit, a signal)
and the puzzle variants (``--max-bridges 3``, ``--no-loops``, a Tatham ID's own rules), the
document of ``hashi-asp CMD PUZZLE --format json``, run as a real process, is the one a real
``hashi-asp serve`` answers, timings left out, and the exit code and the HTTP status are the
ones the one table (hashi_asp/status.py) gives the verdict.  What gives no document is an error
on both fronts: one line on standard error, ``{"error": ...}`` in the same words, with the HTTP
status of the exit code.  (``check`` prints its document too; ``convert``, ``render`` and
``generate`` print the file they make, the text, the picture, the puzzle, which the API's
document holds.)

A search cut short by the time limit and one stopped by a signal run on a puzzle that no test's
time sees the end of: islands on a lattice whose numbers add up to an odd total, so that it has
no solution, which clingo's search cannot prove (parity is as hard for it as the pigeonhole
principle).  Nothing is ever found on it but a walkthrough's first steps, so the documents are
compared whole; of a walkthrough and of a signal, their shape and status."""

from __future__ import annotations

import json
import signal
from concurrent.futures import ThreadPoolExecutor

import processes
import pytest
from conftest import PUZZLES
from serving import Server, answer, flags, lattice, post, received, send_raw

from hashi_asp import commands
from hashi_asp.status import Status, Stop, Verdict

WALK = "7x7m2:4a4a2a2w2k4c3a1"  # one solution
PROLOG = (PUZZLES / "prolog-5x5.txt").read_text()  # two solutions
NYT = (PUZZLES / "nyt-2022-04-03.json").read_text()  # one solution, also with 3 bridges a pair
UNSOLVABLE = '{"rows":1,"cols":3,"islands":[[0,0,1],[0,2,2]]}'
LOOPLESS = "7x7m2L:d4a33a2b1j3a4i2a4b3g1"  # a Tatham ID without loops: one solution
SINGLES = "7x7m1:2b3a1i1a3b2h1a2a2g12d2a"  # a Tatham ID with single bridges only
ODD = json.loads(lattice(8))
ODD["islands"][0][2] = 3  # the numbers' total odd: no solution, beyond any search's reach
ODD = json.dumps(ODD)
TIMINGS = ("seconds", "stats")  # what differs from run to run

CASES = [
    pytest.param(WALK, {}, id="one"),
    pytest.param(PROLOG, {}, id="several"),
    pytest.param(UNSOLVABLE, {}, id="none"),
    pytest.param(NYT, {"max-bridges": 3}, id="max-bridges-3"),
    pytest.param(PROLOG, {"no-loops": True}, id="no-loops"),
    pytest.param(LOOPLESS, {}, id="tatham-no-loops"),
    pytest.param(SINGLES, {}, id="tatham-single-bridges"),
]
SEARCHES = [
    ("solve", {}),
    ("solve", {"models": 2}),  # unique and multiple
    ("unique", {}),
    ("unique", {"difficulty": True}),
    ("fix", {}),
    ("count", {}),
    ("hint", {}),
    ("steps", {}),
    ("steps", {"steps": 2}),  # unfinished
    ("difficulty", {}),
]
LONG = 600  # seconds: a time limit no test reaches
SHORT = 4  # seconds: a limit that the puzzle read and grounded leaves time in, on a busy machine
GENERATING = {"islands": 10000, "unique": True}  # a generation that takes long


@pytest.fixture(scope="module")
def server():
    running = Server("--workers", "10", "--max-time-limit", str(LONG))
    try:
        yield running
    finally:
        running.close()


def arguments(command: str, puzzle: str | None, options: dict) -> list[str]:
    """The command line of a request: PUZZLE, a SOLUTION as the argument it is there, then the
    options."""
    options = dict(options)
    solution = options.pop("solution", None)
    given = [puzzle] if puzzle is not None else []
    given += [solution if isinstance(solution, str) else json.dumps(solution)] if solution else []
    return [command, *given, *flags(options)]


def command_line(command: str, puzzle: str | None, options: dict) -> tuple[int, str, str]:
    """``hashi-asp COMMAND PUZZLE OPTIONS`` as a process: its exit code, stdout and stderr."""
    done = processes.run(*arguments(command, puzzle, options))
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, done.stdout, done.stderr


def request(command: str, puzzle: str | None, options: dict) -> dict:
    return {**({"puzzle": puzzle} if puzzle is not None else {}), **options}


def untimed(document: dict) -> dict:
    return {key: value for key, value in document.items() if key not in TIMINGS}


def shape(value):
    """What a document is made of, without its values: the members of every object, the kind
    of everything else."""
    if isinstance(value, dict):
        return {key: shape(member) for key, member in value.items()}
    return type(value).__name__


def table(command: str, document: dict, stopped: Stop | None = None) -> Status:
    """The status the one table gives the document: by its verdict and the question its command
    asks (``check``: valid or not)."""
    asked = commands.command(command).asks
    if asked is None:
        return Status.OK if document["valid"] else Status.NO
    timed_out = stopped is None and document.get("timed_out")
    return Verdict(document["status"]).status(asked, Stop.TIME if timed_out else stopped)


def error_line(code: int, err: str) -> str:
    """The one line of an error on standard error, without its prefix."""
    assert code != 0 and err.count("\n") == 1 and err.startswith("hashi-asp: "), err
    return err.removeprefix("hashi-asp: ").rstrip("\n")


def error_status(code: int) -> int:
    """The HTTP status of an error with this exit code: the table's first that is an error."""
    return next(status.http for status in Status if status.exit_code == code and status.http >= 400)


def same_document(server, command: str, puzzle: str | None, options: dict) -> dict | None:
    """The command line's document and the API's for the same request: equal but for timings,
    with the exit code and the HTTP status the table gives the verdict; or, with no document,
    the same error on both.  The document (None for an error)."""
    status, document = post(server.local, command, request(command, puzzle, options))
    code, out, err = command_line(command, puzzle, {**options, "format": "json"})
    if not out:
        assert document == {"error": error_line(code, err)}
        assert status == error_status(code)
        return None
    expected = json.loads(out)
    assert untimed(document) == untimed(expected)
    status_of = table(command, expected)
    assert (code, status) == (status_of.exit_code, status_of.http), document
    return document


# ---------------------------------------------------------------------------- every verdict


@pytest.mark.parametrize("puzzle, rules", CASES)
@pytest.mark.parametrize("command, options", SEARCHES, ids=lambda x: named(x))
def test_every_search_gives_one_document_for_every_verdict(server, command, options, puzzle, rules):
    document = same_document(server, command, puzzle, {**rules, **options, "time-limit": 60})
    assert document is not None and not document.get("timed_out")


def test_check_gives_one_document_for_valid_and_broken_solutions(server):
    _, solved = post(server.local, "solve", {"puzzle": PROLOG, "models": 2})
    for puzzle, rules, solution in [
        (PROLOG, {}, solved),
        (PROLOG, {}, {"bridges": [[0, 0, 0, 2, 2]]}),
        (PROLOG, {"no-loops": True}, solved["solutions"][0]),
        (NYT, {"max-bridges": 1}, {"bridges": [[0, 0, 0, 6, 2]]}),
    ]:
        document = same_document(server, "check", puzzle, {"solution": solution, **rules})
        assert document is not None


@pytest.mark.parametrize("puzzle", [WALK, PROLOG, NYT, LOOPLESS])
def test_convert_and_render_hold_what_the_command_line_prints(server, puzzle):
    status, converted = post(server.local, "convert", {"puzzle": puzzle, "to": "json"})
    code, out, _ = command_line("convert", puzzle, {"to": "json"})
    assert (code, status) == (0, 200) and converted["text"] == out
    status, rendered = post(server.local, "render", {"puzzle": puzzle})
    code, out, _ = command_line("render", puzzle, {})
    assert (code, status) == (0, 200) and rendered["svg"] == out


def test_generate_holds_the_puzzle_the_command_line_prints(server):
    for options in ({"islands": 12, "seed": 5}, {"islands": 20, "seed": 2, "unique": True}):
        status, document = post(server.local, "generate", options)
        code, out, _ = command_line("generate", None, options)
        assert (code, status) == (0, 200) and document["text"] == out
        assert document["unique"] is options.get("unique", False)


@pytest.mark.parametrize(
    "command, puzzle, options",
    [
        *[(name, "2.x\n", {}) for name in ("solve", "unique", "fix", "count", "hint", "steps")],
        ("difficulty", "2.x\n", {}),
        ("check", "2.x\n", {"solution": "[]"}),
        ("render", "2.x\n", {}),
        ("convert", "2.x\n", {"to": "json"}),
        ("convert", LOOPLESS, {"to": "has"}),  # a notation that cannot hold the puzzle
        ("generate", None, {"islands": 50, "size": "3x3"}),
    ],
)
def test_what_gives_no_document_is_the_same_error_on_both(server, command, puzzle, options):
    status, document = post(server.local, command, request(command, puzzle, options))
    code, out, err = command_line(command, puzzle, options)
    assert out == "" and document == {"error": error_line(code, err)}
    assert (code, status) == (2, error_status(code)) == (2, 400)


# ---------------------------------------------------------------------------- cut short


def test_a_search_cut_short_by_its_time_limit_gives_one_document(server):
    """Every search, on both fronts at once, with seconds to do what cannot be done: what it
    found (nothing, or a walkthrough's first steps), said as a time limit reached; a question
    with no answer yet (difficulty) and a generation with no puzzle yet are errors on both."""
    work = [(command, ODD, {"time-limit": SHORT}) for command in searches()]
    work.append(("generate", None, {**GENERATING, "time-limit": SHORT}))
    with ThreadPoolExecutor(len(work)) as pool:
        answers = list(pool.map(lambda w: post(server.local, w[0], request(*w)), work))
        printed = list(
            pool.map(lambda w: command_line(w[0], w[1], {**w[2], **json_of(w[0])}), work)
        )
    for (command, _, _), (status, document), (code, out, err) in zip(work, answers, printed):
        if not out:  # no answer in time: the same error on both
            said = error_line(code, err)
            assert said.startswith(f"time limit of {SHORT} s reached while"), said
            assert (code, status) == (3, error_status(code)) == (3, 408)
            assert document["error"].startswith(f"time limit of {SHORT} s reached while"), document
            assert command in ("difficulty", "generate")
            continue
        expected = json.loads(out)
        assert expected["status"] == document["status"] == "unknown"
        if command == "steps":  # the steps found in the second differ
            assert shape(document) == shape(expected)
        else:
            assert untimed(document) == untimed(expected)
        status_of = table(command, expected, Stop.TIME)
        assert (code, status) == (status_of.exit_code, status_of.http) == (3, 200)


def test_a_search_stopped_by_a_signal_gives_one_document(start):
    """The same long searches, Ctrl-C (SIGINT) to each command line and SIGTERM to the server
    that works on them all: each front answers with what was found, of the same shape and
    status, with the table's statuses for the signals (130, 503); a question with no answer
    yet and a generation with no puzzle yet are errors on both."""
    work = [(command, ODD, {"time-limit": LONG}) for command in searches()]
    work.append(("generate", None, {**GENERATING, "time-limit": LONG}))
    running = [processes.start(*arguments(w[0], w[1], {**w[2], **json_of(w[0])})) for w in work]
    printed = []
    try:
        for process in running:
            processes.wait_until_working(process)
            process.send_signal(signal.SIGINT)
        for process in running:
            out, err = process.communicate(timeout=120)
            printed.append((process.returncode, out, err))
    finally:
        for process in running:
            process.kill()
    # A request with a time limit over the server's default is a large one: all but one of
    # the threads take those.
    server = start("--workers", str(len(work) + 1), "--max-time-limit", str(LONG))
    idle = server.cpu()
    asked = [send_raw(server.port, w[0], request(*w)) for w in work]
    try:
        processes.wait_for(
            lambda: sum(lane["running"] for lane in server.load().values()) == len(work),
            "every request at work",
            timeout=120,
        )
        server.wait_until_searching(idle + 0.3 * len(work))
        code, err = server.stop(signal.SIGTERM)
        answers = [answer(received(connection)) for connection in asked]
    finally:
        for connection in asked:
            connection.close()
    assert code == 143 and "Traceback" not in err, err
    for (command, _, _), (status, _, document), (code, out, err) in zip(work, answers, printed):
        assert "Traceback" not in err, err
        if not out:  # stopped before it had anything: an error on both
            assert error_line(code, err).startswith("interrupted"), err
            assert set(document) == {"error"} and document["error"].startswith("terminated")
            assert (code, status) == (130, 503)
            assert command in ("difficulty", "generate")
            continue
        expected = json.loads(out)
        assert shape(document) == shape(expected) and document["status"] == expected["status"]
        line = table(command, expected, Stop.INTERRUPTED), table(command, document, Stop.TERMINATED)
        assert (code, status) == (line[0].exit_code, line[1].http) == (130, 503)


def named(value: str | dict) -> str:
    """A test's name for a command or its options."""
    if isinstance(value, str):
        return value
    return ",".join(f"{key}={value}" for key, value in value.items()) or "as-is"


def searches() -> list[str]:
    """The commands the API serves that search: those with a verdict."""
    from hashi_asp.web import served

    return [name for name in commands.TASKS if name in served.SERVED]


def json_of(command: str) -> dict:
    """``--format json`` for a command that prints a document (not generate: its format is
    the puzzle's notation)."""
    return {} if command == "generate" else {"format": "json"}
