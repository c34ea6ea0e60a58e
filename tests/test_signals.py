"""Ctrl-C (SIGINT) and SIGTERM while a command works: it stops the search, prints what it had,
exits 130 or 143, shows no traceback and leaves no half-written file.

Each command runs as a real process (tests/processes.py) on a search that cannot end on its own
in any test's time: the puzzle plus a pigeonhole problem, hard for clingo.  The signal is sent
once clingo is at work (a second thread shows in /proc).
"""

import json
import os
import signal
import time

import processes
import pytest
from conftest import MANY, PIGEONS, PROLOG, PUZZLES, SLOW_GROUNDING

from hashi_asp import read

FOUR_HUNDRED = PUZZLES / "coelho" / "Hs_34_400_25_00_001.has"  # steps take seconds
EXIT = {signal.SIGINT: 130, signal.SIGTERM: 143}
WORD = {signal.SIGINT: "interrupted", signal.SIGTERM: "terminated"}


def stopped(args, signum, settle=0.5):
    process = processes.start(*args)
    try:
        processes.wait_until_working(process, settle=settle)
        process.send_signal(signum)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert "Traceback" not in err, err
    return process.returncode, out, err


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize(
    "command, last_line",
    [
        ("solve", "unknown: no solution; {word}, search not exhausted"),
        ("unique", "unknown: {word} before any solution was found"),
        ("count", "at least 0 solutions ({word} after"),
        ("hint", "unknown: {word} before the consequences were complete"),
    ],
)
def test_a_signal_stops_each_search_command_with_its_exit_code(pigeons, signum, command, last_line):
    code, out, err = stopped([command, PROLOG, "--add", pigeons], signum)
    assert code == EXIT[signum], err
    assert out.strip().splitlines()[-1].startswith(last_line.format(word=WORD[signum]))


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_stops_the_neighbourhood_search(pigeons, signum):
    """``--connectivity lns`` grounds a program a round: the signal ends the round at work."""
    code, out, err = stopped(["solve", PROLOG, "--add", pigeons, "--connectivity", "lns"], signum)
    assert code == EXIT[signum], err
    last = out.strip().splitlines()[-1]
    assert last.startswith(f"unknown: no solution; {WORD[signum]}, search not exhausted"), last


def test_solve_prints_the_solutions_found_before_ctrl_c():
    code, out, _err = stopped(
        ["solve", MANY, "-n", "0", "--format", "json"], signal.SIGINT, settle=1.0
    )
    assert code == 130
    document = json.loads(out)  # one whole JSON document, not a cut-off stream
    assert document["exhausted"] is False
    assert len(document["solutions"]) >= 1


def test_count_reports_at_least_what_it_counted(tmp_path):
    code, out, _err = stopped(["count", MANY, "--format", "json"], signal.SIGTERM, settle=1.0)
    assert code == 143
    document = json.loads(out)
    assert not document["exhausted"] and document["count"] >= 1


def test_bench_writes_the_finished_rows_whole(tmp_path, pigeons):
    """The report is written (with the rows finished: none) and no temporary file is left."""
    folder = tmp_path / "set"
    folder.mkdir()
    (folder / "a.txt").write_text(PROLOG.read_text())
    (folder / "b.txt").write_text(PROLOG.read_text())
    rows = tmp_path / "out" / "rows.json"
    rows.parent.mkdir()
    # The pigeons join every puzzle: the first one's search is the one interrupted.
    code, _out, err = stopped(["bench", folder, "--add", pigeons, "--json", rows], signal.SIGINT)
    assert code == 130
    assert err.strip().splitlines()[-1] == "hashi-asp: interrupted: 0 of 2 puzzles finished"
    assert json.loads(rows.read_text()) == []
    assert [p.name for p in rows.parent.iterdir()] == ["rows.json"]


def test_generate_keeps_only_whole_files_and_says_how_many(tmp_path):
    """The signal comes once the first puzzle is in the folder: that one is counted, whatever
    the machine's speed, and every file there is whole."""
    folder = tmp_path / "set"
    args = ["generate", "--islands", "30", "--count", "100000", "--unique", "--out", folder, "-q"]
    process = processes.start(*args)
    try:
        started = time.monotonic()
        while not (folder.exists() and any(not p.name.startswith(".") for p in folder.iterdir())):
            assert process.poll() is None, process.communicate()
            assert time.monotonic() - started < 120, "no puzzle was written"
            time.sleep(0.05)
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 143 and "Traceback" not in err
    assert err.startswith("hashi-asp: terminated: ") and err.endswith(
        " of 100000 puzzles finished\n"
    )
    finished = int(err.split(": ")[-1].split(" of ")[0])
    names = sorted(p.name for p in folder.iterdir())
    assert len(names) == finished >= 1
    assert not any(name.startswith(".") for name in names)  # no temporary file left
    for name in names:
        assert len(read(folder / name).islands) == 30


LAST_LINE = {
    "solve": "unknown: no solution; {word}, search not exhausted",
    "count": "at least 0 solutions ({word} after",
    "hint": "unknown: {word} before the consequences were complete",
}


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("command", sorted(LAST_LINE))
@pytest.mark.parametrize("busy", [SLOW_GROUNDING, PIGEONS], ids=["grounding", "searching"])
def test_two_signals_close_together_stop_cleanly_and_at_once(signum, command, busy):
    """As `timeout` sends them (to the process, then to its group), or a second Ctrl-C: the
    first one's clean stop is not broken by the second, and the command does not wait for the
    grounding it leaves behind (minutes of it: waiting would outlast the test's bound)."""
    process = processes.start(command, PROLOG, "--add", busy)
    try:
        processes.wait_until_working(process, settle=0.3)
        process.send_signal(signum)
        os.killpg(process.pid, signum)  # the group of a new session has the leader's number
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == EXIT[signum], err
    if busy == SLOW_GROUNDING:  # stopped while grounding: nothing to show but the stop
        assert (out, err) == ("", f"hashi-asp: {WORD[signum]}\n")
    else:  # stopped while searching: what was found, and the verdict saying why it stopped
        assert err == ""
        assert out.strip().splitlines()[-1].startswith(LAST_LINE[command].format(word=WORD[signum]))


def test_fix_prints_its_best_fix_and_lower_bound_on_ctrl_c():
    """Once it has worked a while (a fix of some edits comes within a second of work on this
    puzzle), Ctrl-C ends the search for fewer edits: the best fix is printed, checked, with
    the lower bound proven so far, not claimed fewest."""
    process = processes.start("fix", MANY, "--format", "json", "--time-limit", "600")
    try:
        processes.wait_for_work(process, 2.0)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 130 and err == "", err
    document = json.loads(out)
    assert document["fewest"] is False and document["lower_bound"] >= 1
    if document["status"] == "fixed":
        fixed = processes.run("unique", json.dumps(document["puzzle"]), "--format", "json")
        assert json.loads(fixed.stdout)["solutions"] == [document["solution"]]
    else:
        assert document["status"] == "unknown" and document["edits"] == []


def test_steps_prints_the_steps_found_on_sigterm():
    process = processes.start("steps", FOUR_HUNDRED, "--brief")
    try:
        processes.wait_for_work(process, 1.0)
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 143 and err == "", err
    *shown, verdict = out.strip().splitlines()
    assert verdict.startswith(f"unknown: terminated after {len(shown)} steps")
    assert shown and all(line.lstrip().startswith(f"{n}. ") for n, line in enumerate(shown, 1))


def test_difficulty_says_it_was_interrupted(tmp_path):
    """A rating is all or nothing: the stop, one line."""
    made = processes.run("generate", "-n", "400", "--unique", "--seed", "77", "-q")
    puzzle = tmp_path / "unique.has"
    puzzle.write_text(made.stdout)
    process = processes.start("difficulty", puzzle)
    try:
        processes.wait_for_work(process, 1.0)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert (process.returncode, out, err) == (130, "", "hashi-asp: interrupted\n")
