"""The race of variants (``--connectivity race``): the first checked answer wins, the losers are
ended and reaped before the call returns, the time limit and Ctrl-C are honoured.

A variant that cannot finish is made with tests/programs/stuck.lp, whose pigeons appear only
with the clingo option ``-c stuck=1``, which one variant carries and the other does not.
"""

import multiprocessing
import os
import signal
import sys
import threading

import processes
import pytest
from click.testing import CliRunner
from conftest import PIGEONS, PROGRAMS, PROLOG, PUZZLES

from hashi_asp import Deadline, Program, check, count, parse, read, solve, unique
from hashi_asp.asp.interface import chosen
from hashi_asp.asp.portfolio import race, variants
from hashi_asp.cli import main
from hashi_asp.study.bench import bench

STUCK = PROGRAMS / "stuck.lp"
RACE = Program(connectivity="race", variants=("tree", "reach --configuration=jumpy", "lazy"))


def descendants() -> list[int]:
    """Processes below this one's children (the race's workers come from a fork server, a
    child of this process): none may be left once a race has returned."""
    children = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rpartition(")")[2].split()
            except OSError:
                continue
            children.add((int(entry), int(fields[1])))
    mine = {pid for pid, parent in children if parent == os.getpid()}
    return [pid for pid, parent in children if parent in mine]


@pytest.fixture(autouse=True)
def no_worker_left():
    yield
    assert multiprocessing.active_children() == []
    if sys.platform == "linux":
        assert descendants() == []


def game_id(name: str) -> str:
    """The first of Simon Tatham's game IDs in puzzles/tatham/NAME (unique puzzles)."""
    lines = (PUZZLES / "tatham" / name).read_text().splitlines()
    return next(line for line in lines if not line.startswith("#"))


@pytest.mark.parametrize(
    "given",
    [
        str(PUZZLES / "nyt-2022-04-03.json"),
        game_id("10x10i30e10m1d2.txt"),
        game_id("15x15i30e10m1Ld2.txt"),
    ],
)
def test_the_race_finds_the_one_solution_a_plain_search_finds(given):
    puzzle = read(given)
    assert unique(puzzle).status == "unique"
    plain = solve(puzzle)
    for program in (RACE, Program(connectivity="race")):
        raced = solve(puzzle, program=program)
        assert raced.status == "solved" and raced.solutions == plain.solutions
        assert check(puzzle, raced.solutions[0]) == []
        assert raced.stats["variant"] in [*RACE.variants, "reach"]


def test_uniqueness_and_counting_race_whole_enumerations():
    puzzle = read(PROLOG)
    found = unique(puzzle, program=RACE)
    assert found.status == "multiple" and len(found.differences) == 4
    counted = count(puzzle, program=RACE)
    assert counted.exhausted and counted.count == 2
    every = solve(puzzle, 0, program=RACE)
    assert every.exhausted and len(every.solutions) == 2


@pytest.mark.parametrize("threads", [1, 2], ids=["forked", "from-the-fork-server"])
def test_the_loser_is_ended_before_the_call_returns(threads):
    """Workers are forked from a process with one thread, else they come from a fork server."""
    stuck = Program(additions=(STUCK,), connectivity="race", variants=("reach", "reach -c stuck=1"))
    other = threading.Event()
    if threads == 2:
        threading.Thread(target=other.wait, daemon=True).start()
    try:
        result = solve(read(PROLOG), program=stuck)
    finally:
        other.set()
    assert result.status == "solved" and result.stats["variant"] == "reach"
    # (the fixture: no worker process left, none of them a zombie)


def test_the_time_limit_gives_unknown_and_ends_every_worker():
    stuck = Program(additions=(PIGEONS,), connectivity="race", variants=("reach", "tree"))
    result = solve(read(PROLOG), program=stuck, time_limit=0.5)
    assert result.status == "unknown" and result.timed_out and not result.solutions
    cli = CliRunner().invoke(
        main,
        [
            "solve",
            str(PROLOG),
            "--add",
            str(PIGEONS),
            "--connectivity",
            "race",
            "--time-limit",
            "1",
        ],
    )
    assert cli.exit_code == 3, cli.stderr
    assert "time limit reached" in cli.stdout


def test_the_variants_follow_auto_and_the_cores():
    puzzle = read(PROLOG)
    names = [" ".join([p.connectivity, *p.options]) for p in variants(Program(), puzzle, 3)]
    assert names == ["tree", "reach --configuration=jumpy", "reach"]  # auto picks the tree
    given = Program(connectivity="race", variants=("tree",), options=("--configuration=handy",))
    assert [p.options for p in variants(given, puzzle)] == [("--configuration=handy",)]
    refused = CliRunner().invoke(main, ["solve", str(PROLOG), "--variant", "tree"])
    assert refused.exit_code == 2 and "need connectivity race" in refused.stderr
    bad = ["solve", str(PROLOG), "--connectivity", "race", "--variant", "reach --seed=x"]
    assert CliRunner().invoke(main, bad).exit_code == 2


@pytest.mark.skipif(sys.platform != "linux", reason="reads the process table in /proc")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_ends_the_race_and_leaves_no_worker(signum):
    """Ctrl-C reaches the whole group, as from a terminal (the workers leave it to the command);
    SIGTERM only the command.  The signal comes once both workers are at work: clingo's thread
    beside the worker's own two."""
    variant = ["--variant", "reach", "--variant", "tree"]
    process = processes.start("solve", PROLOG, "--add", PIGEONS, "--connectivity", "race", *variant)
    try:
        working = lambda: sum(n >= 3 for n in processes.session(process.pid).values()) >= 2  # noqa: E731
        processes.wait_for(working, "two workers searching")
        if signum == signal.SIGINT:
            os.killpg(process.pid, signum)
        else:
            process.send_signal(signum)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == {signal.SIGINT: 130, signal.SIGTERM: 143}[signum], err
    assert "Traceback" not in err
    assert out.strip().splitlines()[-1].startswith("unknown: no solution;")
    processes.wait_for(lambda: not processes.session(process.pid), "every worker gone", 30)


def test_bench_races_each_puzzle_and_an_unsolvable_one_is_explained(tmp_path):
    files = [PUZZLES / "nyt-2022-04-03.json", PROLOG]
    for jobs in (1, 2):  # with jobs, each job runs the race's first variant alone
        rows = bench(files, jobs=jobs, program=Program(connectivity="race"))
        assert [row.status for row in rows] == ["solved", "solved"]
    broken = tmp_path / "broken.txt"
    broken.write_text(PROLOG.read_text().replace("4", "5", 1))
    cli = CliRunner().invoke(main, ["solve", str(broken), "--connectivity", "race"])
    assert cli.exit_code == 1 and "unsolvable" in cli.stdout


@pytest.mark.skipif(sys.platform != "linux", reason="reads the process table in /proc")
def test_the_workers_end_when_the_command_is_killed():
    """SIGKILL leaves the command no chance to end its workers: they see it gone and end."""
    variant = ["--variant", "reach", "--variant", "tree"]
    process = processes.start("solve", PROLOG, "--add", PIGEONS, "--connectivity", "race", *variant)
    try:
        working = lambda: sum(n >= 3 for n in processes.session(process.pid).values()) >= 2  # noqa: E731
        processes.wait_for(working, "two workers searching")
        process.kill()
        process.communicate(timeout=60)
    finally:
        process.kill()
    processes.wait_for(lambda: not processes.session(process.pid), "every worker gone", 30)


def test_a_race_in_a_pool_worker_searches_on_where_the_first_variant_proves_nothing(monkeypatch):
    # A worker of a pool (bench --jobs N) may not start processes: its first variant searches
    # alone.  The neighbourhood search finds nothing on a puzzle without a solution and proves
    # nothing; the complete search auto picks after it proves that there is none, as auto does.
    monkeypatch.setitem(multiprocessing.current_process()._config, "daemon", True)
    puzzle = parse("1.1\n...\n1.1\n")
    raced = race(puzzle, 1, Program(connectivity="race", variants=("lns", "reach")), Deadline(60))
    assert raced.stopped is None
    assert raced.outcome.variant == chosen(Program(), puzzle).connectivity != "lns"
    assert raced.outcome.exhausted and raced.outcome.found == 0
    # a first variant that finds the answer is all it takes
    solved = race(
        read(PROLOG), 1, Program(connectivity="race", variants=("lns", "reach")), Deadline(60)
    )
    assert solved.outcome.variant == "lns" and solved.outcome.found == 1
    # a race of the neighbourhood search only (a giant swept from both sides, on two cores)
    # proves it too, in its workers
    both = Program(connectivity="race", variants=("lns", "lns -c sweep_from=left"))
    monkeypatch.undo()
    proved = race(puzzle, 1, both, Deadline(60))
    assert proved.outcome.exhausted and proved.outcome.found == 0
    assert solve(puzzle, program=both).status == "unsolvable"
