"""The catalogue of connectivity formulations (``hashi_asp.asp.FORMULATIONS``): every formulation
gives the same solutions, each once, however many there are; plain clingo runs each as its
header and docs/encoding.md say; the doc's table is the catalogue; every list and menu is
derived from it; and a formulation added at run time (a rules file of its own, registered in
the catalogue) works everywhere a formulation is offered, without another file edited: solve,
count, unique, the race, the command line, the JSON API and study variants."""

import json
import re
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path

import bruteforce
import pytest
from click.testing import CliRunner
from conftest import PROGRAMS, PROLOG, REPO

from hashi_asp import Program, Puzzle, Rules, asp, count, facts, generate, parse, solve, unique
from hashi_asp.asp.enumeration import plan
from hashi_asp.asp.portfolio import variants
from hashi_asp.cli import main
from hashi_asp.commands import click_options as line
from hashi_asp.commands import shared_options as common
from hashi_asp.web import api

DOC = REPO / "docs" / "encoding.md"
ENCODINGS = REPO / "encodings"

# Six islands without numbers on a 3x5 board, and its solutions under each rule.
GRID = parse("?.?.?\n.....\n?.?.?\n")
COUNTS = {Rules(): 1056, Rules(no_loops=True): 480, Rules(max_bridges=3): 10935}
RULES = [*COUNTS, Rules(max_bridges=1)]


def posed(puzzle: Puzzle, rules: Rules) -> Puzzle:
    return Puzzle(puzzle.rows, puzzle.cols, puzzle.islands, rules=rules)


def ordered(found) -> list:
    """A result's solutions in one order (each formulation finds them in its own)."""
    return sorted(solution.bridges for solution in found.solutions)


def as_sets(found) -> list[frozenset]:
    return [frozenset(tuple(b) for b in s.bridges) for s in found.solutions]


# ---------------------------------------------------------------------------- every formulation

# The formulations that search the whole space (lns finds first solutions only: test_neighbourhood).
COMPLETE = [name for name, each in asp.FORMULATIONS.items() if each.complete]


@pytest.mark.parametrize("rules", RULES, ids=str)
def test_every_formulation_counts_the_same_solutions(rules):
    """Counted on a puzzle with hundreds to thousands of solutions: a formulation whose own
    atoms (a tree's parents, a flow's values) were not projected away would count more."""
    puzzle = posed(GRID, rules)
    counts = {
        name: count(puzzle, program=Program(connectivity=name), verify=False) for name in COMPLETE
    }
    assert all(found.exhausted for found in counts.values())
    assert {found.count for found in counts.values()} == {COUNTS.get(rules, 23)}, counts


@pytest.mark.parametrize("name", COMPLETE)
def test_every_formulation_finds_the_brute_force_solutions_each_once(name):
    puzzle = posed(GRID, Rules(max_bridges=1))
    found = as_sets(solve(puzzle, 0, program=Program(connectivity=name)))
    assert len(found) == len(set(found)) == 23
    assert set(found) == bruteforce.solutions_of(puzzle)


@pytest.mark.parametrize(
    ("islands", "seed", "rules"),
    [
        (20, 4, Rules(max_bridges=3)),  # 90 solutions
        (25, 3, Rules()),  # 26 solutions
        (25, 1, Rules(no_loops=True)),
        (40, 2, Rules()),
    ],
)
def test_every_formulation_gives_the_same_solutions_on_generated_puzzles(islands, seed, rules):
    alpha = 0 if rules.no_loops else None
    puzzle = generate(islands, seed=seed, rules=rules, alpha=alpha).puzzle
    reach = solve(puzzle, 0, program=Program(connectivity="reach"))
    assert reach.exhausted and reach.solutions
    for name in COMPLETE:
        found = solve(puzzle, 0, program=Program(connectivity=name))
        assert found.exhausted and ordered(found) == ordered(reach), name


def test_unique_finds_real_differences_with_every_formulation():
    for name in COMPLETE:
        found = unique(parse(PROLOG.read_text()), program=Program(connectivity=name))
        assert found.status == "multiple" and len(found.differences) == 4, name


# ---------------------------------------------------------------------------- plain clingo


def plain_clingo(files: list, puzzle: Puzzle, tmp_path) -> set[frozenset]:
    """Every answer of plain clingo's own command line on the files and the puzzle's exported
    facts, projected onto the shown bridges as docs/encoding.md says."""
    (tmp_path / "facts.lp").write_text(facts(puzzle))
    constants = [f"-c{k}={v}" for k, v in asp.interface.rule_constants(puzzle.rules).items()]
    options = ["0", "--project=show", "--outf=2", *constants]
    completed = subprocess.run(
        [sys.executable, "-m", "clingo", *files, "facts.lp", *options],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    output = json.loads(completed.stdout)
    assert output["Result"] in ("SATISFIABLE", "UNSATISFIABLE"), completed.stderr
    assert output["Models"]["More"] == "no"
    return {
        frozenset(tuple(map(int, re.findall(r"-?\d+", atom))) for atom in witness["Value"])
        for witness in output["Call"][0].get("Witnesses", [])
    }


@pytest.mark.parametrize(
    "name", [n for n, each in asp.FORMULATIONS.items() if each.propagator is None and each.complete]
)
@pytest.mark.parametrize("rules", [*RULES[:2], RULES[3]], ids=str)
def test_plain_clingo_runs_each_formulation_as_its_header_says(name, rules, tmp_path):
    """The header of a formulation's last file gives the command line; it finds every solution
    hashi-asp finds, each once."""
    formulation = asp.FORMULATIONS[name]
    files = [ENCODINGS / file for file in formulation.files]
    command = "python -m clingo " + " ".join(f"encodings/{file}" for file in formulation.files)
    assert command + " facts.lp" in files[-1].read_text()
    puzzle = posed(GRID, rules)
    expected = set(as_sets(solve(puzzle, 0, program=Program(connectivity="reach"))))
    assert plain_clingo(files, puzzle, tmp_path) == expected


def test_every_formulation_file_is_headed_input_and_output():
    for formulation in asp.FORMULATIONS.values():
        for file in formulation.files:
            header = (ENCODINGS / file).read_text().split("\n\n")[0]
            assert "Input" in header and "Output" in header, file


# ---------------------------------------------------------------------------- derived from it


def doc_rows() -> list[str]:
    """The table of docs/encoding.md, as the catalogue says it."""
    rows = []
    for name, each in asp.FORMULATIONS.items():
        files = " + ".join(f"`{file}`" for file in each.files)
        propagator = f"`{each.propagator}`" if each.propagator else "none"
        atoms = ", ".join(f"`{atom}`" for atom in each.auxiliary) or "none"
        raced = ", ".join(f"`{options}`" if options else "plain" for options in each.race)
        raced = raced or ("when named" if each.raceable else "no")
        projected = "yes" if each.projected else "no"
        rows.append(
            f"| `{name}` | {files} | {propagator} | {atoms} | {projected} | {raced} "
            f"| {each.description} |"
        )
    return rows


def test_the_doc_table_is_the_catalogue():
    lines = DOC.read_text().splitlines()
    start = lines.index(
        "| `--connectivity` | files | propagator | own atoms | projected | raced "
        "| states connectivity as |"
    )
    table = []
    for text in lines[start + 2 :]:
        if not text.startswith("|"):
            break
        table.append(text)
    # (a formulation added to the catalogue gets its row: the message gives the table to paste)
    assert table == doc_rows(), "docs/encoding.md's table reads:\n" + "\n".join(doc_rows())


def test_menus_help_and_the_race_are_derived_from_the_catalogue():
    names = list(asp.FORMULATIONS)
    option = next(o for o in common.PROGRAM if o.name == "connectivity")
    assert list(option.choices) == ["auto", *names, "race"]
    assert list(api.OPTIONS["solve"]["connectivity"].choices) == ["auto", *names]
    assert all(name in option.help for name in names)
    shown = CliRunner().invoke(main, ["solve", "--help"]).stdout
    assert "[" + "|".join(["auto", *names, "race"]) + "]" in " ".join(shown.split())
    # The race: each formulation's first options, then each one's second...
    raced = asp.race_variants()
    firsts = [f"{n} {e.race[0]}".strip() for n, e in asp.FORMULATIONS.items() if e.race]
    assert raced[: len(firsts)] == firsts
    assert sorted(raced) == sorted(
        f"{n} {o}".strip() for n, e in asp.FORMULATIONS.items() for o in e.race
    )
    with pytest.raises(asp.interface.EncodingError, match=" or ".join(asp.raceable())):
        Program(connectivity="race", variants=("cuts",))


def test_auto_is_one_rule():
    """auto stands for what :func:`asp.auto` says, wherever it is resolved: one search, an
    enumeration's plan, a race's first variant."""
    puzzle = parse(PROLOG.read_text())
    picked = asp.auto(puzzle)
    assert picked in asp.FORMULATIONS
    assert asp.interface.chosen(Program(), puzzle).connectivity == picked
    assert plan(Program(), puzzle, 1).first.connectivity == picked  # (no giant)
    assert variants(Program(connectivity="race"), puzzle, 2)[0].connectivity == picked
    assert solve(puzzle, program=Program()).stats["choices"] >= 0


# ---------------------------------------------------------------------------- one added at run time

LEVELS = "levels"


@pytest.fixture
def levels(tmp_path, monkeypatch):
    """A formulation of the test's own: connectivity by parents on rising levels, a rules file
    written into tmp_path (from tests/programs/levels.lp) and registered in the catalogue; it
    chooses parents and levels besides the bridges, so its answers must be projected, and it
    is raced."""
    path = tmp_path / "levels.lp"
    path.write_text((PROGRAMS / "levels.lp").read_text())
    added = asp.Formulation(
        LEVELS,
        ("bridges.lp", str(path)),
        "parents on rising levels",
        auxiliary=("up/4", "level/3"),
        race=("--configuration=crafty",),
    )
    monkeypatch.setitem(asp.FORMULATIONS, LEVELS, added)
    return added


def test_an_added_formulation_solves_counts_and_decides_uniqueness(levels):
    program = Program(connectivity=LEVELS)
    assert [f.name for f in map(Path, program.files())] == ["bridges.lp", "levels.lp"]
    prolog = parse(PROLOG.read_text())
    assert ordered(solve(prolog, 0, program=program)) == ordered(solve(prolog, 0))
    # No over-counting: a solution has many parent and level choices, counted once.
    puzzle = posed(GRID, Rules(max_bridges=1))
    assert count(puzzle, program=program).count == 23 == count(puzzle).count
    # No "multiple" with zero differences: a unique puzzle is unique.
    single = parse("2.2\n...\n2.2\n")
    assert unique(single, program=Program(connectivity="reach")).status == "unique"
    assert unique(single, program=program).status == "unique"
    found = unique(prolog, program=program)
    assert found.status == "multiple" and len(found.differences) == 4


@pytest.mark.parametrize("threads", [1, 2], ids=["forked", "from-the-fork-server"])
def test_an_added_formulation_is_raced(levels, threads):
    """It is among the race's variants, and a worker runs it, whether forked from this process
    or started from a fork server that imported the catalogue afresh."""
    puzzle = parse(PROLOG.read_text())
    names = [" ".join([p.connectivity, *p.options]) for p in variants(Program(), puzzle, 10)]
    assert "levels --configuration=crafty" in names
    other = threading.Event()
    if threads == 2:
        threading.Thread(target=other.wait, daemon=True).start()
    try:
        raced = count(puzzle, program=Program(connectivity="race", variants=(LEVELS, LEVELS)))
    finally:
        other.set()
    assert raced.count == 2 and raced.stats["variant"] == LEVELS


def test_an_added_formulation_is_offered_by_the_command_line_the_api_and_study_variants(levels):
    prolog = PROLOG.read_text()
    cli = CliRunner().invoke(main, ["count", str(PROLOG), "--connectivity", LEVELS])
    assert cli.exit_code == 0 and "2 solutions; search exhausted" in cli.stdout, cli.stderr
    request = api.read_request("count", {"puzzle": prolog, "connectivity": LEVELS}, api.Limits())
    assert api.answer(request)[0]["count"] == 2
    with pytest.raises(api.RequestError, match=f"one of auto, reach, .*{LEVELS}"):
        api.read_request("count", {"puzzle": prolog, "connectivity": "race"}, api.Limits())
    program, rules = line.variant(f"--connectivity {LEVELS} --max-bridges 1")
    assert program.connectivity == LEVELS and rules == {"max_bridges": 1}
    assert count(posed(GRID, Rules(max_bridges=1)), program=program).count == 23


def test_a_formulation_gone_from_the_catalogue_is_refused(levels, monkeypatch):
    monkeypatch.delitem(asp.FORMULATIONS, LEVELS)
    with pytest.raises(asp.interface.EncodingError, match="connectivity must be one of"):
        Program(connectivity=LEVELS)
    cli = CliRunner().invoke(main, ["count", str(PROLOG), "--connectivity", LEVELS])
    assert cli.exit_code == 2 and "Invalid value for '--connectivity'" in cli.stderr


def test_a_formulation_that_may_not_be_raced_is_not(levels, monkeypatch):
    monkeypatch.setitem(asp.FORMULATIONS, LEVELS, replace(levels, raceable=False))
    with pytest.raises(asp.interface.EncodingError, match="a variant is reach or tree or lazy"):
        Program(connectivity="race", variants=(LEVELS,))
    names = [p.connectivity for p in variants(Program(), parse(PROLOG.read_text()), 10)]
    assert LEVELS not in names and "reach" in names
    assert count(parse(PROLOG.read_text()), program=Program(connectivity=LEVELS)).count == 2
