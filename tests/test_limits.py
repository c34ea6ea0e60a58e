"""--time-limit on every command that searches: exit 3 with what was found, the limit counted
for the whole command (grounding and every search in it), and grounding left behind when the
deadline passes during it.

The searches here cannot end on their own within any test's time on any machine (a pigeonhole
problem added to the puzzle, hard for clingo; a constraint whose grounding takes minutes), so
the limit is what stops them.  How far past the limit each command returns is measured by a
command, not asserted (see the README, "Limits").
"""

import json
import os
import subprocess
import sys
import textwrap

import processes
import pytest
from conftest import MANY, PROLOG, SLOW_GROUNDING

from hashi_asp import Deadline, Program, Stop, Stopped, count, explain, hint, read, solve, unique


@pytest.fixture
def slow_grounding():
    return SLOW_GROUNDING


@pytest.mark.parametrize(
    "args, last_line",
    [
        (["solve"], "unknown: no solution; time limit reached, search not exhausted"),
        (["unique"], "unknown: time limit reached before any solution was found"),
        (["count"], "at least 0 solutions (time limit reached after"),
        (["hint"], "unknown: time limit reached before the consequences were complete"),
    ],
)
def test_every_search_command_stops_at_the_limit_with_exit_3(pigeons, args, last_line):
    completed = processes.run(*args, PROLOG, "--add", pigeons, "--time-limit", "1")
    assert completed.returncode == 3, completed.stderr
    assert completed.stdout.strip().splitlines()[-1].startswith(last_line)
    assert completed.stderr == ""


def test_solve_and_count_print_what_they_found_before_the_limit():
    completed = processes.run("solve", MANY, "-n", "0", "--time-limit", "1")
    assert completed.returncode == 3
    found = completed.stdout.count("Solution ")
    assert found >= 1
    assert completed.stdout.strip().endswith(
        f"multiple: {found} solutions; time limit reached, search not exhausted"
        if found > 1
        else "time limit reached, search not exhausted"
    )
    completed = processes.run("count", MANY, "--time-limit", "1", "--format", "json")
    document = json.loads(completed.stdout)
    assert completed.returncode == 3
    assert document["timed_out"] and not document["exhausted"] and document["status"] != "unique"


def test_the_limit_is_for_the_whole_command_not_each_search(pigeons):
    """hint with drawn bridges no solution extends runs a search, then one per bridge to make
    the conflict minimal; unsolvable solve runs the explanation's searches after its own.  One
    deadline covers them all: after the limit, a search gets no new time of its own, not even
    to ground (Stopped: nothing to hand back), and an explanation has only its counting
    checks."""
    clock = Deadline(0.5)
    puzzle = read(PROLOG)
    busy = Program(additions=[pigeons])
    first = solve(puzzle, program=busy, time_limit=clock)
    assert first.timed_out and first.stopped is Stop.TIME and clock.expired()
    why = explain(puzzle, program=busy, time_limit=clock)
    assert why.timed_out and why.solvable is None and why.core is None
    for search in (unique, count, hint):
        with pytest.raises(Stopped, match=r"time limit of 0\.5 s reached"):
            search(puzzle, program=busy, time_limit=clock)


def test_grounding_past_the_deadline_is_left_behind_on_the_command_line(slow_grounding):
    for command in ("solve", "unique", "count", "hint"):
        completed = processes.run(command, PROLOG, "--add", slow_grounding, "--time-limit", "1")
        assert completed.returncode == 3, completed.stderr  # not a crash at exit
        assert completed.stderr == (
            "hashi-asp: time limit of 1 s reached while clingo was "
            "grounding, before any search: status unknown\n"
        )


def test_a_library_deadline_leaves_grounding_behind_too(slow_grounding):
    """In a process of its own: the grounding left behind runs on for minutes, which this
    program does not wait for at its end (abandoned() says it is still running)."""
    program = textwrap.dedent(f"""
        import os
        from hashi_asp import Program, read
        from hashi_asp.asp.control import ground
        from hashi_asp.stopping import Deadline, Stopped, abandoned
        try:
            ground(read({str(PROLOG)!r}), Program(additions=[{str(slow_grounding)!r}]),
                   deadline=Deadline(0.3))
        except Stopped as late:
            print(late, abandoned(), flush=True)
            os._exit(0)
        os._exit(1)
        """)
    completed = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=60
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout == (
        "time limit of 0.3 s reached while clingo was grounding, before "
        "any search: status unknown True\n"
    )


def test_generate_stops_at_the_limit_and_keeps_finished_puzzles(tmp_path):
    completed = processes.run("generate", "--islands", "100000", "--time-limit", "0.5")
    assert completed.returncode == 3
    assert completed.stderr == (
        "hashi-asp: time limit of 0.5 s reached while building a layout: 0 of 1 puzzles finished\n"
    )
    folder = tmp_path / "set"
    completed = processes.run(
        "generate",
        "--islands",
        "20",
        "--count",
        "100000",
        "--out",
        folder,
        "--unique",
        "-q",
        "--time-limit",
        "2",
    )
    # How many are finished depends on the machine; the files are exactly those counted.
    assert completed.returncode == 3
    assert completed.stderr.endswith(" of 100000 puzzles finished\n")
    finished = int(completed.stderr.split(": ")[-1].split(" of ")[0])
    assert len(list(folder.iterdir())) == finished  # whole files only
    assert all(not name.name.startswith(".") for name in folder.iterdir())


def test_bench_marks_puzzles_out_of_time_and_exits_3(pigeons, tmp_path):
    rows = tmp_path / "rows.json"
    completed = processes.run(
        "bench", PROLOG, "--add", pigeons, "--time-limit", "0.5", "--json", rows
    )
    assert completed.returncode == 3
    assert [row["status"] for row in json.loads(rows.read_text())] == ["unknown"]


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "-1"])
@pytest.mark.parametrize("command", ["solve", "unique", "count", "hint", "generate", "bench"])
def test_a_time_limit_is_a_positive_finite_number(command, value):
    args = ["--islands", "10"] if command == "generate" else [PROLOG]
    completed = processes.run(command, *args, "--time-limit", value)
    assert completed.returncode == 2
    assert completed.stderr.startswith("hashi-asp: Invalid value for '--time-limit'")
    assert completed.stderr.count("\n") == 1


@pytest.mark.parametrize(
    "command",
    [
        ["solve", "{fifo}"],
        ["difficulty", "{fifo}"],
        ["hint", PROLOG, "--given", "{fifo}"],
    ],
)
def test_the_limit_covers_an_input_that_never_comes(tmp_path, command):
    """A FIFO nobody writes to: opening it waits for a writer, and the limit ends the wait."""
    fifo = tmp_path / "puzzle.txt"
    os.mkfifo(fifo)
    args = [str(arg).replace("{fifo}", str(fifo)) for arg in command]
    completed = processes.run(*args, "--time-limit", "2", timeout=120)  # ends at about 2 s
    assert completed.returncode == 3, completed.stderr
    reading = "the bridges" if "--given" in command else "the puzzle"
    assert completed.stderr == (
        f"hashi-asp: time limit of 2 s reached while reading {reading}, "
        "before any search: status unknown\n"
    )


def test_the_limit_covers_standard_input_that_never_ends():
    """`-` from a pipe whose writer stays, having written part of a puzzle."""
    reading, writing = os.pipe()
    try:
        os.write(writing, b"2 . 2\n")
        command = [processes.script(), "solve", "-", "--time-limit", "2"]
        completed = subprocess.run(command, stdin=reading, capture_output=True, timeout=120)
    finally:
        os.close(reading)
        os.close(writing)
    assert completed.returncode == 3, completed.stderr
    assert completed.stderr.decode().startswith(
        "hashi-asp: time limit of 2 s reached while reading the puzzle"
    )


@pytest.mark.parametrize(
    "args, message",
    [
        (["solve", PROLOG], "time limit of 1e-300 s reached while reading the puzzle"),
        (["unique", PROLOG], "time limit of 1e-300 s reached while reading the puzzle"),
        (["count", PROLOG], "time limit of 1e-300 s reached while reading the puzzle"),
        (["hint", PROLOG], "time limit of 1e-300 s reached while reading the puzzle"),
        (["generate", "-n", "10"], "time limit of 1e-300 s reached while building a layout: 0 of"),
    ],
)
def test_a_limit_already_past_stops_every_time_with_exit_3(args, message):
    """However fast the machine, a limit that has passed before any work gives no answer."""
    for _ in range(3):
        completed = processes.run(*args, "--time-limit", "1e-300")
        assert completed.returncode == 3, completed.stderr
        assert completed.stdout == "" and completed.stderr.startswith(f"hashi-asp: {message}")
    rows = processes.run("bench", PROLOG, "--time-limit", "1e-300")
    assert rows.returncode == 3 and "1 unknown" in rows.stdout


def test_a_part_of_a_deadline_ends_with_it():
    """A step's part of the time ends at its own share, or when the whole is stopped."""
    whole = Deadline(1000)
    part = whole.part(0.5)
    assert not part.expired() and 499 < part.remaining() <= 500
    assert Deadline(None).part(0.5).remaining() is None
    whole.stop()
    assert part.expired() and part.remaining() == 0
    assert "cancelled" in str(part.reached("testing"))
    assert Deadline(0).part(0.5).expired()


def test_a_step_of_at_most_some_seconds_ends_with_the_whole():
    """``at_most``: a step's own seconds, or the time left if less; stopped with the whole."""
    whole = Deadline(1000)
    step = whole.at_most(2)
    assert not step.expired() and 1 < step.remaining() <= 2
    assert 0 < Deadline(1).at_most(5).remaining() <= 1
    assert Deadline(None).at_most(2).remaining() <= 2
    whole.stop()
    assert step.expired() and "cancelled" in str(step.reached("testing"))
