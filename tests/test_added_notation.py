"""A notation added at run time takes one module and its registration, and nothing else edited:
``toy`` (tests/toy_notation.py), registered by ``hashi_asp.notations.register``, is read from
a file (by its suffix, by its content, by ``--notation``) and from an argument, written by
``convert --to``, ``fix --to`` and ``generate --format``, listed in the --help of every command
that names notations, and read and written by a real ``hashi-asp serve`` started by the
program that adds it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import PROLOG
from serving import Server, post

from hashi_asp import notations
from hashi_asp.cli import command_of, main

TESTS = Path(__file__).resolve().parent
PROGRAM = [sys.executable, str(TESTS / "toy_notation.py")]  # hashi-asp, with the notation added


@pytest.fixture
def toy():
    """The notation registered in this process, and gone again after the test.  The click
    commands made before it stay as they were: a command whose choices it changes is another
    declaration, whose click command is made afresh (tested below)."""
    with registered() as notation:
        yield notation


@contextmanager
def registered():
    """The toy notation, in the catalogue until the end of the block."""
    import toy_notation

    before = dict(notations.NOTATIONS)
    try:
        yield notations.register(toy_notation.NOTATION)
    finally:
        notations.NOTATIONS.clear()
        notations.NOTATIONS.update(before)


def program(*args) -> subprocess.CompletedProcess:
    """The program that adds the notation, run with ARGS."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]),
    }
    return subprocess.run(
        [*PROGRAM, *map(str, args)], capture_output=True, text=True, timeout=120, env=env
    )


def run(*args: str) -> tuple[int, str, str]:
    said = CliRunner().invoke(main, list(args))
    return said.exit_code, said.stdout, said.stderr


def test_a_registered_notation_is_in_the_catalogue(toy):
    assert notations.named("toy") is toy
    assert list(notations.NOTATIONS)[-2:] == ["toy", "grid"]  # tried before the dot grid
    assert "toy" in notations.NAMES and "toy" in notations.WRITABLE
    assert notations.register(toy) is toy  # again: nothing changes
    with pytest.raises(LookupError, match="exists already"):
        notations.register(replace(toy, name="has"))
    assert notations.extension("toy") == ".toy"


def test_a_registered_notation_is_read_and_written_on_the_command_line(toy, tmp_path):
    code, text, err = run("convert", str(PROLOG), "--to", "toy")
    assert code == 0 and text.startswith("toy:5x5:"), err
    read, given = notations.parse(text), notations.read(PROLOG)
    assert (read.rows, read.cols, read.islands) == (given.rows, given.cols, given.islands)
    solved = json.loads(run("solve", str(PROLOG), "--format", "json", "-n", "0")[1])
    by_suffix, by_content = tmp_path / "prolog.toy", tmp_path / "prolog.txt"
    by_suffix.write_text(text)
    by_content.write_text(text)
    for source in (by_suffix, by_content, text.strip()):  # a file, or the puzzle as an argument
        code, out, err = run("solve", str(source), "--format", "json", "-n", "0")
        assert code == 0, err
        assert json.loads(out)["solutions"] == solved["solutions"]
    code, _, err = run("solve", str(PROLOG), "--notation", "toy")
    assert code == 2 and "toy" in err  # the dot grid is not a toy puzzle
    converted = run("convert", str(by_suffix), "--notation", "toy", "--to", "has")
    assert converted[0] == 0 and converted[1] == notations.write(notations.read(PROLOG), "has")
    made = run("generate", "-n", "6", "--seed", "3", "--format", "toy")
    assert made[0] == 0 and made[1].startswith("toy:")
    assert run("fix", str(PROLOG), "--to", "toy")[0] == 0


def test_a_notation_registered_after_the_command_line_was_made_is_among_its_choices():
    """The click commands made before stay right: one whose choices the notation changes is
    made again, and the one made before is the one used once the notation is gone."""
    from hashi_asp import commands

    def choices(name: str) -> list[str]:
        made = command_of(commands.command(name))
        return list(next(p for p in made.params if p.name == "to").type.choices)

    made_before = command_of(commands.command("convert"))
    assert "toy" not in choices("convert")
    with registered():
        assert "toy" in choices("convert")
        assert run("convert", str(PROLOG), "--to", "toy")[1].startswith("toy:5x5:")
    assert command_of(commands.command("convert")) is made_before


def test_a_registered_notation_is_listed_by_every_command_that_names_notations(toy):
    for command, option in [
        ("solve", "--notation"),
        ("check", "--notation"),
        ("convert", "--notation"),
        ("convert", "--to"),
        ("fix", "--to"),
        ("generate", "--format"),
    ]:
        helped = run(command, "--help")[1]
        (line,) = [line for line in helped.splitlines() if line.split()[:1] == [option]]
        assert "toy" in line.split()[1].strip("[]").split("|"), (command, option)


def test_a_registered_notation_is_served_by_the_program_that_adds_it():
    text = program("convert", PROLOG, "--to", "toy").stdout
    assert text.startswith("toy:5x5:")
    server = Server(program=PROGRAM)
    try:
        body = {"puzzle": PROLOG.read_text(), "to": "toy"}
        status, document = post(server.local, "convert", body)
        assert (status, document["text"]) == (200, text)
        body = {"puzzle": text, "notation": "toy", "models": 10}
        status, document = post(server.local, "solve", body)
        expected = json.loads(program("solve", PROLOG, "--format", "json", "-n", "10").stdout)
        assert status == 200 and document["solutions"] == expected["solutions"]
    finally:
        server.close()
