"""unique's proposal is the fix ``fix`` gives in the same time, and where that search stopped
short of proving the fewest edits it says so plainly, with the command that searches on: in
the text, the JSON and the review of the library."""

from __future__ import annotations

import json

from click.testing import CliRunner
from conftest import PROLOG

from hashi_asp import read, review, unique
from hashi_asp.cli import main
from hashi_asp.commands.unique import unique_json, unique_text
from hashi_asp.fixing import Edit, Fix, edited
from hashi_asp.generation import generate
from hashi_asp.reviewing import PROPOSAL_SECONDS
from hashi_asp.status import Verdict

SHORT = "This proposal stopped short after 2 s, as `hashi-asp fix --time-limit 2` would"
ON = "`hashi-asp fix` with more time (say --time-limit 60) searches on for a fix with fewer edits"


def test_a_proposal_not_proven_the_fewest_says_it_stopped_short():
    puzzle = read(PROLOG)
    result = unique(puzzle)
    edits = (Edit("add", (2, 1), None, 2), Edit("add", (1, 0), None, 4))
    fixed = edited(puzzle, edits)
    cut = Fix(Verdict.FIXED, edits, False, 1, fixed, unique(fixed).solutions[0], free=True)
    text = unique_text(puzzle, result, fix=cut, sought=True, seconds=2.0)
    assert SHORT in text and ON in text
    assert "the fewest edits are not proven (at least 1 edit)" in text
    document = unique_json(puzzle, result, fix=cut, sought=True, seconds=2.0)["fix"]
    assert (document["stopped_short"], document["seconds"], document["fewest"]) == (
        True,
        2.0,
        False,
    )
    proven = Fix(Verdict.FIXED, edits[:1], True, 1, edited(puzzle, edits[:1]), free=False)
    assert "stopped short" not in unique_text(puzzle, result, fix=proven, sought=True, seconds=2.0)
    document = unique_json(puzzle, result, fix=proven, sought=True, seconds=2.0)["fix"]
    assert document["stopped_short"] is False


def test_unique_says_so_for_a_large_draft():
    """A 70-island 15x15 puzzle whose fewest edits (2) take `fix` several seconds to prove: the
    proposal, found in 2 s, says whether it stopped short, and the review says the same."""
    puzzle = generate(70, 15, 15, seed=1).puzzle
    reviewed = review(puzzle, time_limit=60)
    assert reviewed.proposal_seconds == PROPOSAL_SECONDS
    assert reviewed.fix is not None and reviewed.fix.status == "fixed"
    assert reviewed.stopped_short == (not reviewed.fix.fewest)
    # The text and the document come from two runs, each its own 2 s search: each must agree
    # with itself, whichever way its search ended on a machine this busy.
    text = CliRunner().invoke(main, ["unique", json.dumps(puzzle.to_json())]).output
    if "the fewest edits are not proven" in text:
        assert SHORT in text and ON in text
    else:
        assert "stopped short" not in text and ON not in text
    document = json.loads(
        CliRunner()
        .invoke(main, ["unique", json.dumps(puzzle.to_json()), "--format", "json"])
        .output
    )
    assert document["fix"]["stopped_short"] is (not document["fix"]["fewest"])
    assert document["fix"]["seconds"] == PROPOSAL_SECONDS


def test_a_proven_proposal_is_the_fix_fix_gives():
    done = CliRunner().invoke(main, ["unique", str(PROLOG), "--format", "json"])
    proposed = json.loads(done.output)["fix"]
    fixed = json.loads(CliRunner().invoke(main, ["fix", str(PROLOG), "--format", "json"]).output)
    assert proposed["stopped_short"] is False and proposed["seconds"] == PROPOSAL_SECONDS
    assert {key: proposed[key] for key in fixed} == fixed
