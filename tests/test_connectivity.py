"""Connectivity stated four ways (reachability, a spanning tree under clasp's acyclicity
check, lazy cuts, a flow to the first island) and chosen per puzzle (auto): the same solutions
every way; plain clingo never runs the rules without a connectivity part; clingo's own options
pass through.  (tests/test_formulations.py runs every formulation of the catalogue alike.)"""

import bruteforce
import clingo
import pytest
from click.testing import CliRunner
from conftest import small_puzzles
from hypothesis import given, settings

from hashi_asp import EncodingError, Program, Puzzle, encoding_path, facts, notations, solve
from hashi_asp.asp import interface
from hashi_asp.asp.connectivity import LazyConnectivity
from hashi_asp.cli import main
from hashi_asp.study.bench import bench

LAZY = Program(connectivity="lazy")
TREE = Program(connectivity="tree")
FLOW = Program(connectivity="flow")


def answers(puzzle: Puzzle, propagator: LazyConnectivity | None) -> int:
    """Answer sets of the rules without connectivity (bridges.lp), with or without the
    propagator, in a clingo control of the test's own."""
    control = clingo.Control(["--models=0"])
    control.load(str(encoding_path("bridges.lp")))
    control.add("base", [], facts(puzzle))
    if propagator is not None:
        control.register_propagator(propagator)
    control.ground([("base", [])])
    found = []
    control.solve(on_model=lambda model: found.append(model.symbols(shown=True)))
    return len(found)


def test_the_rules_without_connectivity_admit_more_and_the_propagator_puts_it_back():
    # A 2x4 block of 2s: one ring round the block, or two closed squares (or a closed square
    # and closed doubled pairs...): only the ring is connected.
    block = notations.parse("2222\n2222\n")
    assert answers(block, None) > 1
    cutter = LazyConnectivity(block)
    assert answers(block, cutter) == 1
    assert cutter.cuts >= 1
    # Two squares that cannot see each other: each closes on its own, never connected.
    apart = notations.parse("22...\n22...\n.....\n...22\n...22\n")
    assert answers(apart, None) == 1
    assert answers(apart, LazyConnectivity(apart)) == 0


def test_the_whole_encoding_always_states_connectivity():
    """hashi.lp is what plain clingo runs: it includes a connectivity part, whatever the
    constants; the rules without one live in a file of their own."""
    text = encoding_path().read_text()
    assert '#include "bridges.lp".' in text and '#include "reachability.lp".' in text
    assert "lazy" not in "".join(line for line in text.splitlines() if line.startswith("#"))


@given(small_puzzles())
@settings(max_examples=100, deadline=None)
def test_lazy_cuts_find_exactly_the_brute_force_solutions(case):
    puzzle = Puzzle(*case)
    result = solve(puzzle, models=0, program=LAZY)
    assert result.exhausted
    found = {frozenset(tuple(b) for b in s.bridges) for s in result.solutions}
    assert found == bruteforce.solutions(puzzle.rows, puzzle.cols, dict(puzzle.islands))


@given(small_puzzles())
@settings(max_examples=100, deadline=None)
def test_the_spanning_tree_finds_exactly_the_brute_force_solutions_each_once(case):
    puzzle = Puzzle(*case)
    result = solve(puzzle, models=0, program=TREE)
    assert result.exhausted
    found = [frozenset(tuple(b) for b in s.bridges) for s in result.solutions]
    assert len(found) == len(set(found))  # many trees per solution, each solution once
    assert set(found) == bruteforce.solutions(puzzle.rows, puzzle.cols, dict(puzzle.islands))


@given(small_puzzles())
@settings(max_examples=100, deadline=None)
def test_the_flow_finds_exactly_the_brute_force_solutions_each_once(case):
    puzzle = Puzzle(*case)
    result = solve(puzzle, models=0, program=FLOW)
    assert result.exhausted
    found = [frozenset(tuple(b) for b in s.bridges) for s in result.solutions]
    assert len(found) == len(set(found))  # many flows per solution, each solution once
    assert set(found) == bruteforce.solutions(puzzle.rows, puzzle.cols, dict(puzzle.islands))


def test_the_flow_balances_every_island_with_integers():
    """The flow's own atoms, read from one answer: along bridges only, every island but the
    first sending one unit more than it receives, the first receiving islands-1."""
    puzzle = notations.parse("2222\n2222\n")
    control = clingo.Control(["--models=1"])
    for name in ("bridges.lp", "flow.lp"):
        control.load(str(encoding_path(name)))
    control.add("base", [], facts(puzzle))
    control.ground([("base", [])])
    atoms: list[clingo.Symbol] = []
    control.solve(on_model=lambda model: atoms.extend(model.symbols(atoms=True)))
    joined = {
        frozenset(
            {
                (a.arguments[0].number, a.arguments[1].number),
                (a.arguments[2].number, a.arguments[3].number),
            }
        )
        for a in atoms
        if a.name == "line"
    }
    balance = dict.fromkeys(puzzle.islands, 0)
    for atom in atoms:
        if atom.name == "flow":
            r1, c1, r2, c2, bit = (argument.number for argument in atom.arguments)
            assert frozenset({(r1, c1), (r2, c2)}) in joined
            balance[(r1, c1)] += 2**bit
            balance[(r2, c2)] -= 2**bit
    first = min(puzzle.islands)
    assert balance.pop(first) == 1 - len(puzzle.islands)
    assert set(balance.values()) == {1}


def test_auto_takes_the_tree_only_for_few_double_bridges():
    singles = Puzzle(1, 5, {(0, 0): 1, (0, 2): 2, (0, 4): 1})  # 2 bridges, 3 islands: 0.67
    doubles = Puzzle(1, 3, {(0, 0): 2, (0, 2): 2})  # one double bridge, yet 1.0 per island
    heavy = Puzzle(1, 5, {(0, 0): 2, (0, 2): 4, (0, 4): 2})  # 4 bridges on 3 islands: 1.33
    assert interface.chosen(Program(), singles).connectivity == "tree"
    assert interface.chosen(Program(), doubles).connectivity == "tree"
    assert interface.chosen(Program(), heavy).connectivity == "reach"
    assert interface.chosen(LAZY, singles) == LAZY  # only auto is resolved
    mine = Program(encoding=encoding_path())  # a user's encoding keeps its own connectivity
    assert interface.chosen(mine, singles).connectivity == "reach"
    assert interface.chosen(Program(), singles).files()[-1].name == "tree.lp"


@pytest.mark.parametrize(
    "game_id",
    [
        "7x7m1L:2a3a2a1j1b2b2a2b2b1j1a2a3a2",  # no loops, one bridge per pair
        "7x7m3:4a4a7a5g4m1a4j23a5a3b",  # up to three bridges per pair
    ],
)
def test_tatham_rules_give_the_same_solutions(game_id):
    puzzle = notations.parse(game_id)
    reach = solve(puzzle, models=0, program=Program(connectivity="reach"))
    assert reach.exhausted
    for other in (LAZY, TREE, FLOW, Program()):
        found = solve(puzzle, models=0, program=other)
        assert found.exhausted and sorted(s.bridges for s in found.solutions) == sorted(
            s.bridges for s in reach.solutions
        )


def test_only_the_known_formulations():
    with pytest.raises(EncodingError, match="connectivity must be one of auto, reach, tree, lazy"):
        Program(connectivity="cuts")


def test_clingo_options_pass_through_and_clingo_judges_them(puzzles):
    prolog = str(puzzles / "prolog-5x5.txt")
    result = CliRunner().invoke(main, ["count", prolog, "--clingo", "--configuration=handy -t 2"])
    assert result.exit_code == 0 and "2 solutions; search exhausted" in result.stdout
    for bad, message in (
        ("--configuration=bogus", "Could not open config file 'bogus'"),
        ("--frobnicate", "unknown option: 'frobnicate'"),
        ("-t x", "'x' invalid value for: 'parallel-mode'"),
        ("'--seed=1", "No closing quotation"),
    ):
        refused = CliRunner().invoke(main, ["solve", prolog, "--clingo", bad])
        assert refused.exit_code == 2 and refused.stderr.count("\n") == 1
        assert refused.stderr.startswith("hashi-asp: clingo options") and message in refused.stderr
    # The library, which does not judge them first, gets clingo's message from the search.
    bogus = Program(options=("--configuration=bogus",))
    with pytest.raises(EncodingError, match="Could not open config file 'bogus'"):
        solve(notations.read(prolog), program=bogus)
    # A default of the tool's is replaced, not given twice (clingo would refuse that).
    same = CliRunner().invoke(main, ["solve", prolog, "--clingo", "--sign-def=neg"])
    assert same.exit_code == 0


def test_command_line_and_bench(puzzles):
    result = CliRunner().invoke(
        main, ["count", str(puzzles / "prolog-5x5.txt"), "--connectivity", "lazy"]
    )
    assert result.exit_code == 0 and "2 solutions; search exhausted" in result.stdout
    rows = bench([puzzles / "coelho" / "Hs_16_100_75_15_001.has"], program=LAZY)
    assert [row.status for row in rows] == ["solved"]
    refused = CliRunner().invoke(
        main, ["count", str(puzzles / "prolog-5x5.txt"), "--connectivity", "cuts"]
    )
    assert refused.exit_code == 2 and "Invalid value for '--connectivity'" in refused.stderr


def test_a_constant_no_rule_uses_is_refused_not_ignored(puzzles):
    """clingo ignores a constant no rule mentions; a misspelt name, or one of another version's
    options, would silently change nothing."""
    refused = CliRunner().invoke(
        main, ["solve", str(puzzles / "prolog-5x5.txt"), "-c", "lazy_connectivity=1"]
    )
    assert refused.exit_code == 2
    assert refused.stderr == (
        "hashi-asp: -c lazy_connectivity: no rules loaded use "
        "lazy_connectivity, so it would change nothing (is it misspelt?)\n"
    )
    with pytest.raises(EncodingError, match="no rules loaded use limit"):
        solve(notations.read(puzzles / "prolog-5x5.txt"), program=Program(constants={"limit": 1}))
