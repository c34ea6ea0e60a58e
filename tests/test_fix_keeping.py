"""Whether the solution the author meant can be kept, said the same in every mode and format:
``keeping`` is ``impossible`` only where the search proved that no fix keeps it, ``not found``
where it stopped short, and the text says which; a time-out is never said as a proof."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from conftest import PUZZLES

from hashi_asp import read, unique
from hashi_asp.cli import main
from hashi_asp.commands.fix import fix_json, fix_text
from hashi_asp.commands.unique import unique_json, unique_text
from hashi_asp.fixing import Fix, fix
from hashi_asp.status import Verdict

SEVEN = PUZZLES / "seven-by-seven-24.json"  # no fix keeps its first solution (proven)


@pytest.fixture(scope="module")
def first(tmp_path_factory):
    """The first solution of SEVEN, as a file for --keep."""
    path = tmp_path_factory.mktemp("keep") / "first.json"
    path.write_text(json.dumps(unique(read(SEVEN)).solutions[0].to_json()))
    return path


def run(*args: str):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_keep_given_and_proven_impossible_says_so_in_the_json(first):
    done = run("fix", SEVEN, "--keep", first, "--format", "json")
    document = json.loads(done.output)
    assert done.exit_code == 1
    assert (document["status"], document["keeping"], document["mode"]) == (
        "no fix found",
        "impossible",
        "keep",
    )


@pytest.mark.parametrize("look", ["text", "unicode"])
def test_keep_given_and_proven_impossible_says_so_in_the_text(first, look):
    done = run("fix", SEVEN, "--keep", first, "--format", look)
    assert done.exit_code == 1
    last = done.output.splitlines()[-1]
    assert last.startswith("no fix found") and "proven" in last


def test_keep_cut_short_is_not_said_as_a_proof():
    """Keep mode stopped before it ends (here at once, after the puzzle's verdict is known):
    the solution was not found keepable, which is no proof."""
    puzzle = read(SEVEN)
    result = unique(puzzle)
    made = fix(puzzle, keep=result.solutions[0], first=result, time_limit=0)
    assert (made.status, made.keeping, made.fewest) == ("unknown", "not found", False)
    assert made.stopped is not None


def test_keep_cut_short_is_reported_as_not_found_not_as_a_proof():
    """What the command prints of a keep-mode search cut short: no proof in its JSON or text."""
    puzzle = read(SEVEN)
    result = unique(puzzle)
    made = fix(puzzle, keep=result.solutions[0], first=result, time_limit=0)
    assert fix_json(made)["keeping"] == "not found"
    last = fix_text(made, None).splitlines()[-1]
    assert last.startswith("unknown: time limit reached") and "proven" not in last


@pytest.mark.parametrize("look", ["json", "text", "unicode"])
def test_the_default_mode_says_keeping_is_impossible(look):
    done = run("fix", SEVEN, "--format", look)
    assert done.exit_code == 0
    if look == "json":
        assert json.loads(done.output)["keeping"] == "impossible"
    else:
        assert done.output.startswith("No fix keeps the first solution (proven)")


@pytest.mark.parametrize("look", ["json", "text"])
def test_free_mode_keeps_nothing_and_says_nothing_of_keeping(look):
    done = run("fix", SEVEN, "--free", "--format", look)
    assert done.exit_code == 0
    if look == "json":
        assert json.loads(done.output)["keeping"] is None
    else:
        assert "keeps the first solution" not in done.output


@pytest.mark.parametrize("look", ["text", "unicode"])
def test_unique_s_proposal_says_no_fix_keeps_solution_1(look):
    done = run("unique", SEVEN, "--format", look)
    assert done.exit_code == 1
    proposal = next(x for x in done.output.splitlines() if x.startswith("To make it unique"))
    assert "no fix keeps solution 1 (proven), so the solution then changes" in proposal


def test_unique_s_proposal_in_json_says_keeping_is_impossible():
    done = run("unique", SEVEN, "--format", "json")
    assert json.loads(done.output)["fix"]["keeping"] == "impossible"


def test_unique_says_a_proof_that_no_edits_will_do_as_a_proof():
    """A proposal that proved no fix exists is not "none found in the time allowed"."""
    puzzle = read(SEVEN)
    result = unique(puzzle)
    proven = Fix(Verdict.NO_FIX, free=True, lower_bound=1, kept=result.solutions[0])
    document = unique_json(puzzle, result, fix=proven, sought=True)["fix"]
    assert document is not None and document["status"] == "no fix found"
    text = unique_text(puzzle, result, fix=proven, sought=True)
    assert "no edits leave one solution (proven)" in text.lower()
    assert "in the time allowed" not in text
    stopped = Fix(Verdict.UNKNOWN, free=True, lower_bound=1)
    assert unique_json(puzzle, result, fix=stopped, sought=True)["fix"] is None
    assert "in the time allowed" in unique_text(puzzle, result, fix=stopped, sought=True)


def test_the_api_says_keeping_is_impossible_for_a_keep_given(server):
    body = {"puzzle": SEVEN.read_text(), "keep": unique(read(SEVEN)).solutions[0].to_json()}
    status, _, document = server.ask(
        "POST", "/api/fix", {"Content-Type": "application/json"}, json.dumps(body).encode()
    )
    assert status == 200
    assert (document["status"], document["keeping"]) == ("no fix found", "impossible")
