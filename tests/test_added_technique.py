"""A technique added at run time takes one module and its registration, and nothing else edited:
``ones-apart`` (tests/ones_apart.py), registered by ``hashi_asp.walkthrough.techniques.register``,
is a stage of the finder, its steps are shown by ``steps`` (the library's and the command's)
with its sentence and level, checked by clingo as every step is, read back by the sentence
reader and counted by the difficulty, and it is a row of the catalogue's table.  A technique of
one island needs no finding of its own: registered with its counts, it tells the steps it
applies to.  (Hints ask clingo for what every solution has, and use no technique.)"""

from __future__ import annotations

import json
from dataclasses import replace

import ones_apart
import pytest
from click.testing import CliRunner

from hashi_asp import parse, read
from hashi_asp.cli import main
from hashi_asp.walkthrough import InvalidStep, steps, techniques
from hashi_asp.walkthrough.board import Found
from hashi_asp.walkthrough.reading import misreadings

TEXT = "3 3\n1 . 1\n. . .\n2 . 2\n"  # one solution: the two 1s each joined to a 2 below
SENTENCE = (
    "the 1 at (0, 0) and the 1 at (0, 2), joined, would be closed off from the other islands: "
    "no bridge between (0, 0) and (0, 2) (all islands must be connected)"
)


@pytest.fixture
def added():
    """The technique registered in this process, and gone again after the test."""
    before = list(techniques.CATALOGUE)
    try:
        yield ones_apart.register()
    finally:
        techniques.CATALOGUE[:] = before


def test_an_added_technique_is_a_stage_of_the_finder_and_a_row_of_the_table(added):
    assert techniques.CATALOGUE[0] is added and techniques.named("ones-apart") is added
    first = techniques.stages()[0]
    assert first.techniques == (added,) and first.finding is techniques.Finding.RULES
    assert first.name == "easy: the rules alone, connectivity"
    assert (
        techniques.table()[0] == f"| `ones-apart` | easy | 2 islands, connectivity | {SENTENCE} |"
    )


def test_registering_again_changes_nothing_and_a_name_taken_is_refused(added):
    assert ones_apart.register() is added
    assert techniques.CATALOGUE.count(added) == 1
    with pytest.raises(LookupError, match="exists already"):
        techniques.register(replace(added, level="hard"))
    with pytest.raises(LookupError, match="exists already"):
        techniques.register(replace(added, name="contradiction"))


def test_the_walkthrough_takes_the_added_technique_first(added):
    puzzle = parse(TEXT)
    walk = steps(puzzle)
    first = walk.steps[0]
    assert (first.technique, first.level, first.text) == ("ones-apart", "easy", SENTENCE)
    assert first.pair == ((0, 0), (0, 2)) and first.bridges == (0,) and first.connectivity
    assert first.reason == ((0, 0), (0, 2))  # both numbers needed, by clingo's account
    assert walk.checked and walk.status == "solved" and misreadings(walk) == []
    assert walk.difficulty.tiers[0] == sum(step.level == "easy" for step in walk.steps)
    techniques.CATALOGUE.remove(added)  # gone: the catalogue's own techniques take the step
    plain = steps(puzzle)
    assert plain.status == "solved" and "ones-apart" not in {s.technique for s in plain.steps}


def test_the_command_shows_the_added_technique(added):
    shown = CliRunner().invoke(main, ["steps", TEXT, "--format", "json"])
    assert shown.exit_code == 0, shown.output
    first = json.loads(shown.stdout)["steps"][0]
    assert (first["technique"], first["level"], first["text"]) == ("ones-apart", "easy", SENTENCE)
    brief = CliRunner().invoke(main, ["steps", TEXT, "--brief"])
    assert brief.stdout.splitlines()[0] == f"  1. {SENTENCE}."


def test_clingo_checks_the_steps_of_an_added_technique(added):
    """A technique that claims what does not follow is a fault: its step is never shown."""
    wrong = replace(
        added,
        name="ones-joined",
        find=lambda board: next(
            (Found(f.reason, True, f.pair, 2) for f in [ones_apart.neighbouring_ones(board)] if f),
            None,
        ),
    )
    techniques.register(wrong, before=added.name)
    with pytest.raises(InvalidStep, match="does not follow from its reason"):
        steps(parse(TEXT))


def test_an_added_technique_of_one_island_tells_the_steps_it_applies_to(puzzles, added):
    """A technique found as the catalogue's techniques of one island are (its reason
    enumerated), told from the others of its stage by its counts: a finished 1, registered
    before ``complete``, takes that technique's steps at its islands of 1."""
    finished_one = techniques.Technique(
        "finished-one",
        "easy",
        1,
        False,
        "1 island",
        lambda w: f"{w.only} has its one bridge: {w.what} to {w.other}",
        "the 1 at (0, 0) has its one bridge: no bridge to (0, 2)",
        applies=lambda c: c.at_island and c.number == 1 and c.missing == 0,
    )
    puzzle = read(puzzles / "seven-by-seven-24.json")
    before = steps(puzzle)
    techniques.register(finished_one, before="complete")
    walk = steps(puzzle)
    told = [step for step in walk.steps if step.technique == "finished-one"]
    assert told and all(step.level == "easy" and step.text.startswith("the 1 at") for step in told)
    assert walk.status == before.status and misreadings(walk) == []
    # The same steps, each a finished 1's now told by the added technique.
    assert [(s.pair, s.bridges, s.reason) for s in walk.steps] == [
        (s.pair, s.bridges, s.reason) for s in before.steps
    ]
    assert {s.technique for s, b in zip(walk.steps, before.steps) if s != b} == {"finished-one"}
