"""Connectivity as lazy cuts (-c lazy_connectivity=1): the same solutions as reachability."""

import clingo
import pytest
from click.testing import CliRunner
from hypothesis import given, settings

import bruteforce
from conftest import small_puzzles
from hashi_asp import EncodingError, Puzzle, encoding_path, facts, notations, solve
from hashi_asp.bench import bench
from hashi_asp.cli import main
from hashi_asp.connectivity import LazyConnectivity

LAZY = {"lazy_connectivity": "1"}


def answers(puzzle: Puzzle, propagator: LazyConnectivity | None) -> int:
    control = clingo.Control(["--models=0", "-c", "lazy_connectivity=1"])
    control.load(str(encoding_path()))
    control.add("base", [], facts(puzzle))
    if propagator is not None:
        control.register_propagator(propagator)
    control.ground([("base", [])])
    found = []
    control.solve(on_model=lambda model: found.append(model.symbols(shown=True)))
    return len(found)


def test_the_constant_leaves_connectivity_out_and_the_propagator_puts_it_back():
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


@given(small_puzzles())
@settings(max_examples=100, deadline=None)
def test_lazy_cuts_find_exactly_the_brute_force_solutions(case):
    puzzle = Puzzle(*case)
    result = solve(puzzle, models=0, constants=LAZY)
    assert result.exhausted
    found = {frozenset(tuple(b) for b in s.bridges) for s in result.solutions}
    assert found == bruteforce.solutions(puzzle.rows, puzzle.cols, dict(puzzle.islands))


@pytest.mark.parametrize("game_id", [
    "7x7m1L:2a3a2a1j1b2b2a2b2b1j1a2a3a2",        # no loops, one bridge per pair
    "7x7m3:4a4a7a5g4m1a4j23a5a3b",              # up to three bridges per pair
])
def test_tatham_rules_give_the_same_solutions(game_id):
    puzzle = notations.parse(game_id)
    reach, lazy = solve(puzzle, models=0), solve(puzzle, models=0, constants=LAZY)
    assert reach.exhausted and lazy.exhausted
    assert [s.bridges for s in lazy.solutions] == [s.bridges for s in reach.solutions]


def test_only_0_or_1():
    with pytest.raises(EncodingError, match="lazy_connectivity must be 0 or 1, got '2'"):
        solve(notations.parse("22\n22\n"), constants={"lazy_connectivity": "2"})


def test_command_line_and_bench(puzzles):
    result = CliRunner().invoke(main, ["count", str(puzzles / "prolog-5x5.txt"),
                                       "-c", "lazy_connectivity=1"])
    assert result.exit_code == 0 and "2 solutions; search exhausted" in result.stdout
    rows = bench([puzzles / "coelho" / "Hs_16_100_75_15_001.has"], constants=LAZY)
    assert [row.status for row in rows] == ["solved"]
