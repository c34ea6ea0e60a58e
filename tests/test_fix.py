"""Fixing a puzzle with several solutions: the one change proposed really leaves one solution
(proven by the brute-force enumerator and by a separate solve), it is made for a solution of the
original puzzle, the region is where two solutions differ, and the reports show both."""

import json
from dataclasses import replace

import bruteforce
from click.testing import CliRunner
from conftest import PROLOG, PUZZLES
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hashi_asp import Puzzle, Rules, Solution, bridge, check, read, solve, unique
from hashi_asp.cli import main
from hashi_asp.generation import Fix, GenerationError, fix, generate
from hashi_asp.notations.json import dumps
from hashi_asp.reports import unique_json, unique_text
from hashi_asp.solving import region

SEVEN = PUZZLES / "seven-by-seven-24.json"  # two solutions, a 2x2 square of islands apart


brute = bruteforce.solutions_of


def as_set(solution: Solution) -> frozenset:
    return frozenset(tuple(b) for b in solution.bridges)


def split(solution: Solution, cell) -> Solution:
    """The solution with the bridge over ``cell`` split in two at it."""
    bridges = []
    for b in solution.bridges:
        if cell in b.cells_between():
            bridges += [bridge(b.ends[0], cell, b.count), bridge(cell, b.ends[1], b.count)]
        else:
            bridges.append(b)
    return Solution.of(bridges)


def assert_fixes(original: Puzzle, made: Fix) -> None:
    """The fix changes one island of the puzzle and leaves exactly one solution, by brute force
    and by the solver; the intended solution solves the original puzzle."""
    changed = {cell for cell in made.puzzle.islands if cell not in original.islands}
    changed |= {c for c, n in original.islands.items() if made.puzzle.islands.get(c) != n}
    assert changed == {made.cell}
    assert made.puzzle.islands[made.cell] == made.number
    assert original.islands.get(made.cell) == made.old
    assert brute(made.puzzle) == {as_set(made.solution)}
    assert check(made.puzzle, made.solution) == []
    assert as_set(made.intended) in brute(original)
    if made.kind == "add":
        assert made.cell not in original.islands and made.old is None
        assert made.solution == split(made.intended, made.cell)


# ---------------------------------------------------------------------------- the bundled puzzles


def test_the_prolog_puzzle_gets_a_checked_fix():
    puzzle = read(PROLOG)
    result = unique(puzzle)
    made = fix(puzzle, result)
    assert made is not None and made.kind == "add"  # an island keeps the intended solution
    assert (made.cell, made.old, made.number) == ((1, 0), None, 4)  # on its double bridge
    assert_fixes(puzzle, made)
    assert made.intended == result.solutions[0]
    assert list(made.region) == [d.pair for d in result.differences]  # one group of 4 pairs
    only = solve(made.puzzle, models=0)
    assert only.status == "unique" and only.solutions == [made.solution]


def test_the_seven_by_seven_puzzle_gets_a_checked_fix():
    puzzle = read(SEVEN)
    made = fix(puzzle)
    assert made is not None
    assert_fixes(puzzle, made)
    assert sorted(made.region) == [
        ((5, 3), (5, 4)),
        ((5, 3), (6, 3)),
        ((5, 4), (6, 4)),
        ((6, 3), (6, 4)),
    ]
    only = solve(made.puzzle, models=0)
    assert only.status == "unique" and only.solutions == [made.solution]


# ---------------------------------------------------------------------------- kinds of fix

ADDED = Puzzle(4, 6, {(0, 1): 2, (1, 1): 4, (1, 2): 3, (1, 4): 1, (3, 1): 3, (3, 2): 5, (3, 3): 2})
BLANK = Puzzle(
    5, 4, {(0, 0): 1, (1, 0): None, (1, 1): 3, (1, 3): 1, (2, 0): 3, (4, 0): 2, (4, 1): 1}
)
STUCK = Puzzle(4, 3, {(0, 1): 1, (2, 0): 2, (2, 1): 4, (2, 2): 2, (3, 0): 3, (3, 1): 2})


def test_an_island_is_added_on_a_bridge_even_where_a_number_change_would_not_do():
    for cell in ADDED.islands:
        for number in range(1, 9):
            changed = Puzzle(ADDED.rows, ADDED.cols, {**ADDED.islands, cell: number})
            assert len(brute(changed)) != 1
    made = fix(ADDED)
    assert made is not None and (made.kind, made.cell, made.number) == ("add", (2, 1), 2)
    assert_fixes(ADDED, made)


def test_an_island_without_a_number_is_given_its_own():
    made = fix(BLANK)
    assert made is not None and (made.kind, made.cell, made.old) == ("change", (1, 0), None)
    assert made.solution == made.intended  # its number in the intended solution: kept
    assert_fixes(BLANK, made)


def test_no_single_change_is_none_and_brute_force_agrees():
    assert len(brute(STUCK)) > 1
    assert fix(STUCK) is None
    for cell in STUCK.islands:
        for number in range(1, 9):
            changed = Puzzle(STUCK.rows, STUCK.cols, {**STUCK.islands, cell: number})
            assert len(brute(changed)) != 1
    for r in range(STUCK.rows):
        for c in range(STUCK.cols):
            if (r, c) not in STUCK.islands:
                for number in range(1, 9):
                    added = Puzzle(STUCK.rows, STUCK.cols, {**STUCK.islands, (r, c): number})
                    assert len(brute(added)) != 1


def test_puzzles_with_one_or_no_solution_get_no_fix():
    unsolvable = read("2 . 1 . .\n. . . . .\n4 . 3 . 1\n. . . . .\n1 . . . 2\n")
    for puzzle in (read(PUZZLES / "nyt-2022-04-03.json"), unsolvable):
        assert fix(puzzle) is None
        assert fix(puzzle, unique(puzzle)) is None


def test_a_time_limit_already_passed_gives_none():
    assert fix(read(PROLOG), time_limit=0) is None


RULES = [Rules(), Rules(max_bridges=3), Rules(no_loops=True), Rules(max_bridges=1)]


@st.composite
def connected_puzzles(draw) -> Puzzle:
    """Small solvable puzzles, built as the generator builds them (not made unique): a good
    share of them have several solutions."""
    rules = draw(st.sampled_from(RULES))
    side = draw(st.integers(4, 6))
    try:
        made = generate(
            draw(st.integers(8, 14)),
            side,
            side,
            alpha=0 if rules.no_loops else 0.3,
            beta=0 if rules.max_bridges == 1 else 0.5,
            seed=draw(st.integers(0, 10**6)),
            rules=rules,
            attempts=3,
        )
    except GenerationError:  # the islands did not fit
        assume(False)
    return made.puzzle


@given(connected_puzzles())
@settings(max_examples=120, deadline=None)
def test_every_fix_leaves_one_solution_by_brute_force(puzzle):
    """And with none, brute force finds no single change that would do where `fix` looks: no
    other number on an island within two pairs of the region, no island added on a bridge of
    the intended solution (the additions that keep it)."""
    result = unique(puzzle)
    made = fix(puzzle, result)
    if result.status != "multiple":
        assert made is None
        return
    if made is not None:
        assert_fixes(puzzle, made)
        return
    rules = puzzle.rules
    near = {cell for d in region(result.differences) for cell in d.pair}
    for _ in range(2):  # within two pairs of neighbours of the region
        near |= {other for cell in near for other in puzzle.geometry.neighbours(cell)}
    for cell, old in puzzle.islands.items():
        if cell not in near:
            continue
        for number in range(1, rules.max_number + 1):
            changed = {**puzzle.islands, cell: number}
            assert number == old or len(brute(replace(puzzle, islands=changed))) != 1
    for b in result.solutions[0].bridges:
        for cell in b.cells_between():
            added = {**puzzle.islands, cell: 2 * b.count}
            assert len(brute(replace(puzzle, islands=added))) != 1


# ---------------------------------------------------------------------------- the region


def test_the_region_is_the_smallest_group_of_differing_pairs():
    assert region([]) == []
    found = unique(read(PROLOG)).differences  # four pairs around one square: one group
    assert region(found) == found
    apart = [d._replace(r1=d.r1 + 10, r2=d.r2 + 10) for d in found[:2]]  # sharing (10, 0)
    assert region(found + apart) == apart


# ---------------------------------------------------------------------------- reports


def test_the_reports_show_the_region_and_the_fix():
    puzzle = read(PROLOG)
    result = unique(puzzle)
    made = fix(puzzle, result)
    text = unique_text(puzzle, result, fix=made)
    assert (
        "The smallest region where they differ (pairs sharing islands): (0, 0)-(0, 2), "
        "(0, 0)-(2, 0), (0, 2)-(2, 2), (2, 0)-(2, 2)\n"
    ) in text
    assert (
        "To make it unique (checked): add an island 4 at (1, 0); solution 1, its bridge there "
        "split in two, is then the only solution"
    ) in text
    document = unique_json(puzzle, result, fix=made)
    assert document["region"] == [[0, 0, 0, 2], [0, 0, 2, 0], [0, 2, 2, 2], [2, 0, 2, 2]]
    assert {k: v for k, v in document["fix"].items() if k != "solution"} == {
        "kind": "add",
        "cell": [1, 0],
        "number": 4,
        "old": None,
    }
    assert document["fix"]["solution"] == made.solution.to_json()
    dumps(document)  # plain JSON


def test_the_reports_of_an_added_island_and_of_none_found():
    result = unique(ADDED)
    made = fix(ADDED, result)
    text = unique_text(ADDED, result, fix=made)
    assert "To make it unique (checked): add an island 2 at (2, 1); solution 1, its bridge" in text
    assert unique_json(ADDED, result, fix=made)["fix"]["old"] is None
    result = unique(STUCK)
    assert "No single island to add or number to change" in unique_text(STUCK, result, sought=True)
    assert unique_json(STUCK, result, sought=True)["fix"] is None
    assert "fix" not in unique_json(STUCK, result)  # not sought: not mentioned
    assert "No single island" not in unique_text(STUCK, result)


def test_a_unique_puzzle_has_no_region_and_no_fix_line(puzzles):
    puzzle = read(puzzles / "nyt-2022-04-03.json")
    result = unique(puzzle)
    assert unique_json(puzzle, result)["region"] == []
    assert "region" not in unique_text(puzzle, result, sought=True)


def test_the_unique_command_proposes_the_fix_and_rates_unique_puzzles(puzzles):
    runner = CliRunner()
    result = runner.invoke(main, ["unique", str(PROLOG)])
    assert result.exit_code == 1
    assert "To make it unique (checked): add an island 4 at (1, 0)" in result.output
    rated = runner.invoke(
        main, ["unique", str(puzzles / "nyt-2022-04-03.json"), "--difficulty", "--format", "json"]
    )
    assert rated.exit_code == 0
    assert json.loads(rated.output)["difficulty"]["band"] == "easy"
    plain = runner.invoke(main, ["unique", str(puzzles / "nyt-2022-04-03.json")])
    assert "difficulty" not in plain.output  # only when asked: rating takes time on big puzzles
