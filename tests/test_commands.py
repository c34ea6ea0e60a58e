"""Commands as units: the command line, the JSON API and study variants all read a command's
options from its one declaration, a command's outcome renders only the format asked for, and one
table gives every status its exit code and HTTP status."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from conftest import PUZZLES

from hashi_asp import commands
from hashi_asp.cli import command_of, main
from hashi_asp.commands import click_options as line
from hashi_asp.commands import declaration as units
from hashi_asp.commands import solve as solve_command
from hashi_asp.status import Status
from hashi_asp.stopping import Deadline
from hashi_asp.web import api

PROLOG = str(PUZZLES / "prolog-5x5.txt")
DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.mark.parametrize("name", commands.NAMES)
def test_the_click_command_is_the_declaration(name):
    unit = commands.command(name)
    params = {param.name: param for param in command_of(unit).params}
    assert list(params) == [option.key for option in unit.options]
    for option in unit.options:
        param = params[option.key]
        assert param.required == option.required or option.kind == units.PATHS
        if option.argument:
            assert isinstance(param, click.Argument)
            continue
        assert f"--{option.name}" in param.opts and (
            option.short is None or option.short in param.opts
        )
        if option.negative:
            assert param.secondary_opts == [f"--{option.negative}"]
        assert param.multiple == option.multiple
        if option.default is not None:
            assert param.default == option.default
        if option.kind == units.CHOICE:
            assert tuple(param.type.choices) == option.choices
        if option.kind in (units.INT, units.FLOAT, units.SECONDS):
            assert (param.type.min, param.type.max) == (option.low, option.high)


@pytest.mark.parametrize("unit", api.UNITS.values(), ids=lambda unit: unit.name)
def test_the_api_reads_every_served_option_and_no_other(unit):
    limits = api.Limits()
    body = {"puzzle": PROLOG} if any(o.name == "puzzle" for o in unit.options) else {}
    for option in unit.options:
        if option.required and not option.argument and option.name not in body:
            body[option.name] = {units.INT: 10, units.CHOICE: "json"}[option.kind]
    if "solution" in {o.name for o in unit.options if o.required}:
        body["solution"] = {"bridges": []}
    request = api.read_request(unit.name, body, limits)
    assert set(request.values) == {option.key for option in unit.options}
    offered = api.OPTIONS[unit.name]
    for option in unit.options:
        if option.name in offered:
            continue
        with pytest.raises(api.RequestError, match=f"no option '{option.name}'"):
            api.read_request(unit.name, {**body, option.name: option.default}, limits)


def test_the_api_checks_ranges_and_choices_by_the_declaration():
    for option in api.OPTIONS["solve"].values():
        if option.kind in (units.INT, units.SECONDS) and option.low is not None:
            with pytest.raises(api.RequestError, match=f"option '{option.name}'"):
                api.read_request(
                    "solve", {"puzzle": PROLOG, option.name: option.low - 1}, api.Limits()
                )
    with pytest.raises(api.RequestError, match="one of auto, reach, tree, lazy"):
        api.read_request("solve", {"puzzle": PROLOG, "connectivity": "race"}, api.Limits())


def test_a_variant_is_read_as_the_command_line_reads_the_same_options():
    program, rules = line.variant(
        "--connectivity tree --clingo '--configuration=handy --seed=3' -c max_bridges=3 --no-loops"
    )
    assert program.connectivity == "tree"
    assert program.options == ("--configuration=handy", "--seed=3")
    assert rules == {"max_bridges": 3, "no_loops": True}
    assert line.variant("")[0].connectivity == "auto"
    # The options given after the puzzle on the command line mean the same there.
    assert line.variant("--max-bridges 1 -c max_bridges=3")[1] == {"max_bridges": 1}
    for wrong, words in [
        ("--connectivity magic", "Invalid value for '--connectivity'"),
        ("--models 3", "No such option '--models'"),
        ("--clingo '--no-such-clingo-option'", "clingo options"),
        ("--max-bridges", "requires an argument"),
        ("--clingo 'unclosed", "No closing quotation"),
    ]:
        with pytest.raises(Exception, match=re.escape(words)) as caught:
            line.variant(wrong)
        assert caught.value.status is Status.BAD_INPUT


def test_every_status_is_in_the_documented_table():
    """docs/commands.md lists each status with its exit code and HTTP status."""
    text = (DOCS / "commands.md").read_text()
    rows = re.findall(r"^\| (\d+) \| `(\w+)` \| (\d+) \|", text, re.M)
    assert sorted((name, int(code), int(http)) for code, name, http in rows) == sorted(
        (status.name, *status.value) for status in Status
    )


@pytest.mark.parametrize(
    "args, status",
    [
        (["solve", PROLOG], Status.OK),
        (["solve", "-", "--max-bridges", "1"], Status.NO),
        (["unique", PROLOG], Status.NO),
        (["unique", "-"], Status.UNSOLVABLE),
        (["check", PROLOG, '{"bridges": []}'], Status.NO),
        (["difficulty", "-"], Status.CANNOT_ANSWER),
        (["solve", "-", "--notation", "tatham"], Status.BAD_INPUT),
    ],
)
def test_the_exit_code_is_the_status_table_s(args, status):
    unsolvable = "1 . 2\n"
    text = unsolvable if "-" in args and "--max-bridges" not in args else None
    if "--max-bridges" in args:
        text = (PUZZLES / "prolog-5x5.txt").read_text()
    result = CliRunner().invoke(main, args, input=text)
    assert result.exit_code == status.exit_code, result.output


def test_an_answer_s_http_status_is_the_status_table_s():
    """A question without an answer (the difficulty of a puzzle with no solution) is the
    command line's document, with the status the table gives it."""
    request = api.read_request("difficulty", {"puzzle": "1 . 2\n"}, api.Limits())
    document, status = api.answer(request)
    assert status == Status.CANNOT_ANSWER.http == 422
    assert document["status"] == "unsolvable" and document["score"] is None


def test_only_the_format_asked_for_is_made(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("made a report that was not asked for")

    monkeypatch.setattr(solve_command, "solve_text", refuse)
    made = CliRunner().invoke(main, ["solve", PROLOG, "--format", "json"])
    assert made.exit_code == 0 and json.loads(made.stdout)["status"] == "solved"
    monkeypatch.undo()
    monkeypatch.setattr(solve_command, "result_json", refuse)
    made = CliRunner().invoke(main, ["solve", PROLOG])
    assert made.exit_code == 0 and made.stdout.rstrip().endswith(
        "stopped after 1 as asked (-n 0 finds all)"
    )


@pytest.mark.parametrize("name", commands.TASKS)
def test_a_command_with_a_verdict_asks_the_question_it_declares(name):
    """What a study row and the status table read of a command's outcome: the verdict its
    document says, and the question its declaration asks (a study knows it before any run)."""
    unit = commands.command(name)
    outcome = unit.run(unit.given({"puzzle": PROLOG}, deadline=Deadline(60)))
    assert outcome.question is unit.asks is not None
    assert outcome.verdict == outcome.document()["status"]
    assert outcome.status is outcome.verdict.status(unit.asks, outcome.stopped)


def test_a_command_runs_from_python_as_from_the_command_line():
    count = commands.command("count")
    outcome = count.run(count.given({"puzzle": PROLOG}, deadline=Deadline(60)))
    printed = CliRunner().invoke(main, ["count", PROLOG, "--format", "json"])
    assert outcome.status is Status.OK
    expected = json.loads(printed.stdout)
    document = outcome.document()
    for key in ("seconds",):
        document.pop(key), expected.pop(key)
    assert document == expected
    with pytest.raises(units.OptionError, match="no option 'colour'"):
        count.given({"puzzle": PROLOG, "colour": "red"})
