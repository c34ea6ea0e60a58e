"""What a study refuses before any run, with one line and exit 2: a plan whose values are of the
wrong kind or out of range (a ``generate`` table by ``generate``'s own options, clingo's seeds,
the memory limit, clingo options a run sets itself), files that are not regular or too large,
a database changed by hand or damaged, and a database another ``study run`` is running on; and
what two processes adopting plans at once may do.  Every command runs as a real process."""

from __future__ import annotations

import multiprocessing
import os
import shutil
import signal
import sqlite3

import processes
import pytest
import studies
from conftest import PIGEONS, PROLOG
from studies import COELHO, rows, study

from hashi_asp.files import MAX_FILE_BYTES
from hashi_asp.study.database import Database
from hashi_asp.study.runs import Task, perform
from hashi_asp.study.variants import parse

INSTANCE = COELHO / "Hs_16_100_25_00_001.has"


def one_line(done, *parts: str) -> None:
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("hashi-asp: "), done.stderr
    assert all(part in done.stderr for part in parts), done.stderr


# ---------------------------------------------------------------------------- the plan


@pytest.mark.parametrize(
    "generate, message",
    [
        ('islands = 10, unique = "no"', 'unique: expected true or false, got "no"'),
        ('islands = 10, no_loops = "yes"', 'no_loops: expected true or false, got "yes"'),
        ("islands = 10, unique = 1", "unique: expected true or false, got 1"),
        ("islands = 10.5", "islands: expected a whole number from 2, got 10.5"),
        ('islands = "ten"', 'islands: expected a whole number from 2, got "ten"'),
        ("islands = 10, seed = -1", "seed: expected a whole number from 0, got -1"),
        ("islands = 10, alpha = 2", "alpha: expected a number from 0 to 1, got 2"),
        ("islands = 10, beta = nan", "beta: expected a number from 0 to 1, got NaN"),
        ("islands = 10, count = 0", "count: expected a whole number from 1, got 0"),
        ("islands = 10, attempts = true", "attempts: expected a whole number from 1, got true"),
        ("islands = 10, size = 16", "size: expected a string, got 16"),
        ("islands = 10, seed = 1979-05-27", 'seed: expected a whole number from 0, got "1979-'),
        (
            "islands = 10, max_bridges = [2]",
            "max_bridges: expected a whole number from 1 to 64, got [2]",
        ),
    ],
)
def test_a_generate_table_is_checked_by_the_generate_commands_options(tmp_path, generate, message):
    plan = tmp_path / "plan.toml"
    plan.write_text(f"[[instances]]\ngenerate = {{ {generate} }}\n")
    done = study(tmp_path / "s.db", "--plan", plan)
    one_line(done, f"{plan}: instances 1: generate: {message}")
    assert not (tmp_path / "s.db").exists()


def test_every_key_of_a_generate_table_is_an_option_of_generate():
    from hashi_asp.commands import generate
    from hashi_asp.study.plan import GENERATE_KEYS

    options = {option.name for option in generate.COMMAND.options}
    assert {key.replace("_", "-") for key in GENERATE_KEYS} <= options


@pytest.mark.parametrize(
    "head, message",
    [
        ("seeds = [9223372036854775807]\n", "seeds: expected at most 4294967295"),
        ("seeds = [-1]\n", "seeds: expected at least 0, got -1"),
        ("seeds = [1.5]\n", "seeds: expected an integer"),
        ("repeat = 4294967296\n", "repeat: expected at most 4294967295"),
        ("memory_limit = 99999999999999999\n", "memory limit: expected at most 16777216"),
        ("memory_limit = 100.5\n", "memory limit: expected an integer"),
        ("variants = {}\n", "[variants]: expected NAME"),
        ('variants = { a = "--clingo --models=0" }\n', "variant a: clingo's --models is set by"),
        ("variants = { a = \"--clingo '-n 0'\" }\n", "variant a: clingo's --models is set by"),
        ('variants = { a = "--clingo --project" }\n', "variant a: clingo's --project is set by"),
        ("variants = { a = \"--clingo '--seed 3'\" }\n", "variant a: --seed is the study's"),
        (
            "variants = { a = \"--connectivity race --variant 'tree --models=3'\" }\n",
            "variant a: clingo's --models is set by",
        ),
    ],
)
def test_seeds_limits_and_clingo_options_a_run_sets_are_checked_before_any_run(
    tmp_path, head, message
):
    plan = tmp_path / "plan.toml"
    plan.write_text(f'{head}[[instances]]\npaths = ["{PROLOG}"]\n')
    done = study(tmp_path / "s.db", "--plan", plan)
    one_line(done, f"{plan}: {message}")
    assert not (tmp_path / "s.db").exists()


def test_the_memory_limit_on_the_command_line_has_the_same_bound(tmp_path):
    done = study(tmp_path / "s.db", PROLOG, "--memory-limit", "99999999999999999")
    one_line(done, "'--memory-limit': 99999999999999999 is not in the range 64<=x<=16777216")
    assert not (tmp_path / "s.db").exists()
    helped = study("--help")
    assert "64 to 16777216 (16 TiB)" in " ".join(helped.stdout.split())
    refused = study(tmp_path / "s.db", PROLOG, "--variant", 'a=--clingo "--models=0"')
    one_line(refused, "study: variant a: clingo's --models is set by each run")


def test_a_study_reads_only_regular_files_within_the_size_limit(tmp_path):
    """A device would be read until memory runs out, a FIFO would hold the study forever: each
    is refused where a study reads one (an instance, a variant's file, the plan, the database),
    as is a file over the limit every reader has."""
    fifo = tmp_path / "waiting.has"
    os.mkfifo(fifo)
    large = tmp_path / "large.lp"
    with large.open("wb") as out:
        out.truncate(MAX_FILE_BYTES + 1)  # sparse: no memory or disk taken
    database = tmp_path / "s.db"
    for args, message in [
        ([database, PROLOG, "--variant", "zero=--encoding /dev/zero"], "variant zero: /dev/zero"),
        ([database, PROLOG, "--variant", f"large=--add {large}"], f"variant large: {large}: file"),
        ([database, fifo], f"{fifo}: not a regular file"),
        ([database, "--plan", "/dev/zero"], "/dev/zero: not a regular file"),
        ([database, "--plan", fifo], f"{fifo}: not a regular file"),
        ([fifo, PROLOG], f"{fifo}: not a regular file, not a study database"),
        (["report", "/dev/zero"], "/dev/zero: not a regular file, not a study database"),
    ]:
        done = study(*args, timeout=120)
        one_line(done, message)
        assert not database.exists()


# ---------------------------------------------------------------------------- the database


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A study database with one row, to damage copies of."""
    database = tmp_path_factory.mktemp("made") / "made.db"
    done = study(database, PROLOG, "--jobs", "1")
    assert done.returncode == 0, done.stderr
    return database


PLAN = "UPDATE study SET value = {} WHERE key = 'plan'"
FINGERPRINT = "UPDATE study SET value = {} WHERE key = 'fingerprint'"


@pytest.mark.parametrize(
    "change, command, message",
    [
        (PLAN.format("'{not json'"), "run", "its plan is not JSON: the database was changed"),
        (PLAN.format("'[1, 2]'"), "run", "its plan: expected a table of the plan's keys"),
        (PLAN.format("json_remove(value, '$.base')"), "run", "its plan: base is missing"),
        (PLAN.format("json_set(value, '$.variants.default', 5)"), "run", "its plan: [variants]"),
        (PLAN.format("json_set(value, '$.seeds', 'abc')"), "run", "its plan: seeds: expected"),
        (
            PLAN.format("json_set(value, '$.instances', json('[5]'))"),
            "run",
            "its plan: instances 1: expected a table",
        ),
        (FINGERPRINT.format("'{not json'"), "run", "its fingerprint is not JSON"),
        (FINGERPRINT.format("'{not json'"), "report", "its fingerprint is not JSON"),
        (FINGERPRINT.format("'[]'"), "report", "its fingerprint: not a table"),
        (
            FINGERPRINT.format("json_set(value, '$.instances', json('[5]'))"),
            "run",
            "its fingerprint: instances: not of the kind a study writes",
        ),
        ("UPDATE runs SET checked = NULL", "report", "run 1: checked is NULL, not an integer"),
        ("UPDATE runs SET wall = 'fast'", "report", "run 1: wall is 'fast', not a number"),
        ("ALTER TABLE runs DROP COLUMN checked", "report", "cannot read its runs: no such column"),
    ],
)
def test_a_database_changed_by_hand_or_damaged_is_one_line(
    made, tmp_path, change, command, message
):
    database = tmp_path / "changed.db"
    shutil.copy(made, database)
    connection = sqlite3.connect(database)
    connection.execute(change)
    connection.commit()
    connection.close()
    done = study(*(["report"] if command == "report" else []), database)
    one_line(done, f"{database}: {message}")


def test_two_processes_giving_a_new_database_different_plans_at_once_one_is_refused(tmp_path):
    """Both are held at the start of the transaction that records the plan until the other is
    there too: whatever either did before it, it did before either wrote its plan."""
    database = tmp_path / "new.db"
    Database(database, create=True).close()
    context = multiprocessing.get_context("spawn")
    barrier, answers = context.Barrier(2), context.Queue()
    fingerprints = {
        name: {
            "task": "solve",
            "seeds": [1],
            "time_limit": None,
            "memory_limit": None,
            "variants": {name: "0" * 16},
            "instances": [],
        }
        for name in ("first", "second")
    }
    workers = [
        context.Process(
            target=studies.adopt_at_once,
            args=(str(database), name, fingerprint, barrier, answers),
        )
        for name, fingerprint in fingerprints.items()
    ]
    for worker in workers:
        worker.start()
    try:
        said = dict(answers.get(timeout=120) for _ in workers)
    finally:
        for worker in workers:
            worker.join(60)
            worker.kill()
    adopted = [name for name, answer in said.items() if answer == "adopted"]
    assert len(adopted) == 1, said
    (refused,) = set(said) - set(adopted)
    assert said[refused].startswith(f"{database} holds a study with another plan (variant "), said
    with Database(database) as kept:
        assert kept.fingerprint() == fingerprints[adopted[0]]
        assert kept.setting("plan")["variants"] == {adopted[0]: ""}


def test_a_second_study_run_on_a_database_in_use_is_refused(tmp_path):
    """Whether it gives the same plan or resumes the database's own, it would make every run
    the first makes: it is refused while the first runs, and the first goes on."""
    database = tmp_path / "busy.db"
    args = [database, INSTANCE, "--variant", f"stuck=--add {PIGEONS}", "--time-limit", "120"]
    first = processes.start("study", "run", *args, "--jobs", "1")
    try:
        assert first.stderr is not None
        said = first.stderr.readline()  # once the plan is recorded: the database is taken
        assert "1 cell, 0 with a row already, 1 to run" in said, said
        for again in ([*args, "--jobs", "1"], [database]):
            done = study(*again)
            one_line(done, f"{database}: another `hashi-asp study run` is running on it;")
        assert first.poll() is None, "the first ended: its one run has a time limit of 120 s"
        first.send_signal(signal.SIGINT)
        first.communicate(timeout=60)
    finally:
        first.kill()
    assert rows(database) == []  # the second made no run
    assert first.returncode == 130


# ---------------------------------------------------------------------------- the rows


def test_a_steps_run_cut_by_its_time_limit_says_so():
    """A deadline passed before the walkthrough begins: the walkthrough stops at once, and its
    row says why (it said nothing)."""
    task = Task(str(INSTANCE), INSTANCE.read_text(), parse("default", ""), 1, "steps", 1e-9)
    record = perform(task)
    assert record.status == "unknown"
    assert record.message.startswith("time limit of 1e-09 s reached")
