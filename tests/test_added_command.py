"""A command added at run time takes one module and its registration, and nothing else edited:
``doubles`` (tests/doubles.py), registered by ``hashi_asp.commands.register``, is a command of
the command line (its --help, its run), a study task (a one-off ``study run --task doubles``
whose runner processes register it from its module), and, once its options are on the API's
served list, a command of a real ``hashi-asp serve`` started by the program that adds it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import PROLOG, PUZZLES
from serving import Server, post
from studies import rows

from hashi_asp import commands
from hashi_asp.cli import main

TESTS = Path(__file__).resolve().parent
PROGRAM = [sys.executable, str(TESTS / "doubles.py")]  # hashi-asp, with the command added
NYT = PUZZLES / "nyt-2022-04-03.json"  # one solution


@pytest.fixture
def doubles():
    """The command registered in this process, and gone again after the test."""
    before = dict(commands.MODULES)
    try:
        yield commands.register("doubles")
    finally:
        commands.MODULES.clear()
        commands.MODULES.update(before)


def program(*args, **kwargs) -> subprocess.CompletedProcess:
    """The program that adds the command, run with ARGS; its runner processes (a study's) find
    the command's module by PYTHONPATH, as a program's own modules are found anywhere."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]),
    }
    return subprocess.run(
        [*PROGRAM, *map(str, args)], capture_output=True, text=True, timeout=120, env=env, **kwargs
    )


def test_a_registered_command_is_on_the_command_line(doubles):
    assert "doubles" in commands.NAMES and "doubles" in commands.TASKS
    listed = CliRunner().invoke(main, ["--help"])
    assert listed.exit_code == 0
    (line,) = [line for line in listed.stdout.splitlines() if line.split()[:1] == ["doubles"]]
    assert (
        line.split(None, 1)[1] == "Count the double bridges in the first solution found of PUZZLE."
    )
    helped = CliRunner().invoke(main, ["doubles", "--help"])
    assert helped.exit_code == 0 and "--time-limit SECONDS" in helped.stdout
    assert "--connectivity" in helped.stdout and "--max-bridges" in helped.stdout
    said = CliRunner().invoke(main, ["doubles", str(PROLOG)])
    assert (said.exit_code, said.stdout) == (0, "solved: 2 double bridges of 6\n")
    none = CliRunner().invoke(main, ["doubles", "1 . 2\n", "--format", "json"])
    assert none.exit_code == 1 and json.loads(none.stdout)["status"] == "unsolvable"
    refused = CliRunner().invoke(main, ["doubles", str(PROLOG), "--time-limit", "0"])
    assert refused.exit_code == 2 and "doubles --help)" in refused.stderr


def test_registering_takes_a_module_that_declares_a_command(doubles):
    assert commands.register("doubles") is doubles  # again: nothing changes
    with pytest.raises(LookupError, match="declares no command"):
        commands.register("conftest")
    assert "doubles" in commands.NAMES and "conftest" not in commands.NAMES


def test_a_registered_command_is_a_study_task(tmp_path):
    unsolvable = tmp_path / "none.txt"
    unsolvable.write_text("1 . 2\n")
    database = tmp_path / "doubles.db"
    done = program("study", "run", database, NYT, unsolvable, "--task", "doubles", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    found = {Path(row["instance"]).name: row for row in rows(database)}
    assert {name: row["status"] for name, row in found.items()} == {
        NYT.name: "solved",
        "none.txt": "unsolvable",
    }
    assert {row["task"] for row in found.values()} == {"doubles"}
    expected = json.loads(program("doubles", NYT, "--format", "json").stdout)
    assert json.loads(found[NYT.name]["detail"]) == {
        "doubles": expected["doubles"],
        "bridges": expected["bridges"],
        "timed_out": False,
    }
    assert found[NYT.name]["answers"] == found[NYT.name]["checked"] == 1
    report = program("study", "report", database, "--format", "json")
    assert json.loads(report.stdout)["variants"]["default"]["solved"] == 2


def test_a_registered_command_is_served_once_on_the_served_list():
    server = Server(program=PROGRAM)
    try:
        status, _, listed = server.ask("GET", "/api")
        assert status == 200 and "doubles" in listed["commands"]
        status, document = post(server.local, "doubles", {"puzzle": NYT.read_text()})
        printed = program("doubles", NYT, "--format", "json")
        assert (status, document) == (200, json.loads(printed.stdout))
        status, refused = post(server.local, "doubles", {"puzzle": "x", "format": "text"})
        assert status == 400 and "no option 'format'" in refused["error"]
    finally:
        server.close()
