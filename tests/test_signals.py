"""Ctrl-C (SIGINT) and SIGTERM while a command works: it stops the search, prints what it had,
exits 130 or 143, shows no traceback and leaves no half-written file.

Each command runs as a real process (tests/processes.py) on a search that cannot end on its own
in any test's time: the puzzle plus a pigeonhole problem, hard for clingo.  The signal is sent
once clingo is at work (a second thread shows in /proc).
"""

import json
import signal

import processes
import pytest
from conftest import PROGRAMS, PUZZLES

from hashi_asp import read

PROLOG = PUZZLES / "prolog-5x5.txt"
MANY = PUZZLES / "coelho" / "Hs_16_100_50_10_001.has"  # about 20 000 solutions
PIGEONS = PROGRAMS / "pigeons.lp"
EXIT = {signal.SIGINT: 130, signal.SIGTERM: 143}
WORD = {signal.SIGINT: "interrupted", signal.SIGTERM: "terminated"}


@pytest.fixture
def pigeons():
    return PIGEONS


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


def test_generate_keeps_only_whole_files(tmp_path):
    folder = tmp_path / "set"
    code, _out, err = stopped(
        ["generate", "--islands", "30", "--count", "100000", "--unique", "--out", folder, "-q"],
        signal.SIGTERM,
        settle=1.5,
    )
    assert code == 143
    finished = int(err.strip().split(": ")[-1].split(" of ")[0])
    names = sorted(p.name for p in folder.iterdir())
    assert len(names) == finished >= 1
    assert not any(name.startswith(".") for name in names)  # no temporary file left
    for name in names:
        assert len(read(folder / name).islands) == 30
