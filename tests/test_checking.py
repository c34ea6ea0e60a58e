"""The independent checker names each kind of broken rule, and agrees with brute force."""

import bruteforce
import pytest
from conftest import small_puzzles
from hypothesis import given, settings
from hypothesis import strategies as st

from hashi_asp import Puzzle, Solution, bridge, check, read

# The first solution of the Prolog report's 5x5:
#   2---1 . .
#   | . . . .
#   4===3---1
#   | . . . .
#   3=======2
VALID = [
    ((0, 0), (0, 2), 1),
    ((0, 0), (2, 0), 1),
    ((2, 0), (2, 2), 2),
    ((2, 2), (2, 4), 1),
    ((2, 0), (4, 0), 1),
    ((4, 0), (4, 4), 2),
]


def solution(*bridges) -> Solution:
    return Solution.of(bridge(a, b, k) for a, b, k in bridges)


@pytest.fixture
def prolog(puzzles) -> Puzzle:
    return read(puzzles / "prolog-5x5.txt")


def rules(violations) -> list[str]:
    return sorted(v.rule for v in violations)


def test_valid_solution_passes(prolog):
    assert check(prolog, solution(*VALID)) == []


def test_wrong_count(prolog):
    broken = [b if b[0] != (4, 0) else ((4, 0), (4, 4), 1) for b in VALID]
    violations = check(prolog, solution(*broken))
    assert [v.message for v in violations] == [
        "wrong count at island (4, 0): has 2 bridge(s), needs 3",
        "wrong count at island (4, 4): has 1 bridge(s), needs 2",
    ]
    assert violations[0].cells == ((4, 0),)


def test_diagonal(prolog):
    violations = check(prolog, solution(*VALID, ((0, 0), (2, 2), 1)))
    assert "bridge (0, 0)-(2, 2) is diagonal" in [v.message for v in violations]


def test_bridge_over_an_island(prolog):
    broken = [b for b in VALID if b[:2] not in (((0, 0), (2, 0)), ((2, 0), (4, 0)))]
    violations = check(prolog, solution(*broken, ((0, 0), (4, 0), 1)))
    assert "bridge (0, 0)-(4, 0) passes over the island at (2, 0)" in [
        v.message for v in violations
    ]


def test_crossing():
    plus = Puzzle(3, 3, {(0, 1): 1, (1, 0): 1, (1, 2): 1, (2, 1): 1})
    violations = check(plus, solution(((1, 0), (1, 2), 1), ((0, 1), (2, 1), 1)))
    assert [v.message for v in violations] == [
        "crossing at cell (1, 1): bridges (1, 0)-(1, 2) and (0, 1)-(2, 1)",
        "disconnected: 2 components (smallest: 2 island(s) including (0, 1))",
    ]
    assert violations[0].cells == ((1, 1),)


def test_disconnected():
    square = Puzzle(2, 2, {(0, 0): 2, (0, 1): 2, (1, 0): 2, (1, 1): 2})
    violations = check(square, solution(((0, 0), (0, 1), 2), ((1, 0), (1, 1), 2)))
    assert [v.message for v in violations] == [
        "disconnected: 2 components (smallest: 2 island(s) including (0, 0))"
    ]
    assert (
        check(
            square,
            solution(
                ((0, 0), (0, 1), 1), ((1, 0), (1, 1), 1), ((0, 0), (1, 0), 1), ((0, 1), (1, 1), 1)
            ),
        )
        == []
    )


def test_malformed_bridges(prolog):
    violations = check(prolog, solution(*VALID, ((0, 0), (0, 1), 1), ((0, 0), (0, 0), 1)))
    messages = [v.message for v in violations]
    assert "bridge (0, 0)-(0, 1): end (0, 1) is not an island" in messages
    assert "bridge (0, 0)-(0, 0) joins an island to itself" in messages


def test_duplicate_and_too_many(prolog):
    violations = check(
        prolog,
        Solution((bridge((0, 0), (0, 2), 1), bridge((0, 2), (0, 0), 1), bridge((4, 0), (4, 4), 3))),
    )
    messages = [v.message for v in violations]
    assert "bridge (0, 0)-(0, 2) is listed twice" in messages
    assert "bridge (4, 0)-(4, 4) has 3 bridges; allowed 1..2" in messages
    assert check(prolog.with_rules(max_bridges=1), solution(*VALID)) != []


@st.composite
def puzzles_with_a_bridge_set(draw):
    rows, cols, islands = draw(small_puzzles(max_islands=6))
    pairs = bruteforce.neighbour_pairs(rows, cols, islands)
    # Also diagonal and long-distance pairs, which the checker must reject.
    cells = sorted(islands)
    extra = [(a, b) for a in cells for b in cells if a < b and (a, b) not in pairs]
    chosen = (
        draw(st.lists(st.sampled_from(pairs + extra), unique=True, max_size=8))
        if pairs + extra
        else []
    )
    bridges = {(*a, *b, draw(st.integers(1, 2))) for a, b in chosen}
    return rows, cols, islands, frozenset(bridges)


@given(puzzles_with_a_bridge_set())
@settings(max_examples=300, deadline=None)
def test_checker_accepts_exactly_the_brute_force_solutions(case):
    rows, cols, islands, bridges = case
    puzzle = Puzzle(rows, cols, islands)
    answer = Solution.of(bridge((r1, c1), (r2, c2), k) for r1, c1, r2, c2, k in bridges)
    is_solution = bridges in bruteforce.solutions(rows, cols, islands)
    assert (check(puzzle, answer) == []) == is_solution


@given(small_puzzles(max_islands=6))
@settings(max_examples=100, deadline=None)
def test_every_brute_force_solution_passes_the_checker(case):
    rows, cols, islands = case
    puzzle = Puzzle(rows, cols, islands)
    for found in bruteforce.solutions(rows, cols, islands):
        answer = Solution.of(bridge((r1, c1), (r2, c2), k) for r1, c1, r2, c2, k in found)
        assert check(puzzle, answer) == []
