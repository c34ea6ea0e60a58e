"""Solving with the bundled encoding: known counts, brute-force agreement, statuses, and the
ways a user changes the rules (another encoding, added rules, constants)."""

import bruteforce
import pytest
from conftest import PROGRAMS, PUZZLES, REPO, loose_encoding, small_puzzles
from hypothesis import given, settings

from hashi_asp import (
    EncodingError,
    InvalidAnswer,
    Program,
    Puzzle,
    check,
    encoding_path,
    facts,
    read,
    solve,
)
from hashi_asp.status import Status


def as_sets(solutions) -> set:
    return {frozenset(tuple(b) for b in s.bridges) for s in solutions}


def brute(puzzle: Puzzle) -> set:
    return bruteforce.solutions(puzzle.rows, puzzle.cols, dict(puzzle.islands))


# ---------------------------------------------------------------------------- the literature


@pytest.mark.parametrize(
    "name, count, status",
    [
        ("prolog-5x5.txt", 2, "multiple"),
        ("nyt-2022-04-03.json", 1, "unique"),
        ("seven-by-seven-24.json", 2, "multiple"),
    ],
)
def test_examples_have_their_known_number_of_solutions(puzzles, name, count, status):
    puzzle = read(puzzles / name)
    result = solve(puzzle, models=0)
    assert (len(result.solutions), result.status, result.exhausted) == (count, status, True)
    assert as_sets(result.solutions) == brute(puzzle)
    for solution in result.solutions:
        assert check(puzzle, solution) == []


def test_the_seven_by_seven_solutions_differ_only_around_one_square(puzzles):
    first, second = (
        s.counts() for s in solve(read(puzzles / "seven-by-seven-24.json"), 0).solutions
    )
    differing = {
        pair for pair in first.keys() | second.keys() if first.get(pair) != second.get(pair)
    }
    assert differing and {cell for pair in differing for cell in pair} <= {
        (5, 3),
        (5, 4),
        (6, 3),
        (6, 4),
    }


@given(small_puzzles())
@settings(max_examples=150, deadline=None)
def test_enumeration_agrees_with_brute_force(case):
    puzzle = Puzzle(*case)
    result = solve(puzzle, models=0)
    assert result.exhausted
    assert as_sets(result.solutions) == brute(puzzle)
    assert len(result.solutions) == len(as_sets(result.solutions))  # no answer twice


def test_coelho_sample_solves_and_checks(puzzles):
    files = sorted((puzzles / "coelho").glob("*.has"))
    assert len(files) == 48
    for path in files:
        puzzle = read(path)
        result = solve(puzzle)
        assert result.status == "solved", path.name
        assert check(puzzle, result.solutions[0]) == [], path.name


# ---------------------------------------------------------------------------- statuses


def test_status_follows_what_was_asked(puzzles):
    nyt = read(puzzles / "nyt-2022-04-03.json")
    assert solve(nyt).status == "solved"
    assert solve(nyt, models=2).status == "unique"
    prolog = read(puzzles / "prolog-5x5.txt")
    two = solve(prolog, models=2)
    assert (two.status, len(two.solutions)) == ("multiple", 2)


def test_unsolvable():
    result = solve(Puzzle(1, 3, {(0, 0): 1, (0, 2): 2}), models=0)
    assert (result.status, result.exhausted, result.solutions) == ("unsolvable", True, [])


def test_time_limit_stops_an_enumeration_and_keeps_what_it_found(puzzles):
    # This puzzle has about 20 000 solutions: far more than 0.3 s of enumeration reaches.
    puzzle = read(puzzles / "coelho" / "Hs_16_100_50_10_001.has")
    result = solve(puzzle, models=0, time_limit=0.3)
    assert result.timed_out and not result.exhausted
    assert result.status == "multiple" and len(result.solutions) >= 2
    assert all(check(puzzle, s) == [] for s in result.solutions)


def test_solutions_are_streamed_as_found(puzzles):
    seen = []
    result = solve(read(puzzles / "prolog-5x5.txt"), models=0, on_solution=seen.append)
    assert seen == result.solutions and len(seen) == 2


def test_statistics_are_reported(puzzles):
    stats = solve(read(puzzles / "seven-by-seven-24.json"), models=0).stats
    assert set(stats) >= {"ground_seconds", "solve_seconds", "choices", "conflicts"}
    assert stats["choices"] >= 1


# ---------------------------------------------------------------------------- changing the rules


def test_the_bundled_encoding_is_the_source_file_in_a_checkout():
    # With `pip install -e .` the tool runs the file users edit.
    assert encoding_path() == REPO / "encodings" / "hashi.lp"


def test_facts_hold_only_the_raw_puzzle(puzzles):
    text = facts(read(puzzles / "prolog-5x5.txt"))
    atoms = [line for line in text.splitlines() if not line.startswith("%")]
    assert atoms[0] == "rows(5). cols(5)."
    assert atoms[1:] == [
        "island(0,0,2).",
        "island(0,2,1).",
        "island(2,0,4).",
        "island(2,2,3).",
        "island(2,4,1).",
        "island(4,0,3).",
        "island(4,4,2).",
    ]


def test_added_rules_change_the_answer(puzzles):
    puzzle = read(puzzles / "prolog-5x5.txt")
    assert (
        solve(puzzle, 0, program=Program(additions=[PROGRAMS / "no_doubles.lp"])).status
        == "unsolvable"
    )


def test_constants_reach_the_encoding():
    # The added rules allow at most `limit` bridges per pair: the 5x5 needs doubles.
    puzzle = read(PUZZLES / "prolog-5x5.txt")
    limited = Program(additions=[PROGRAMS / "limit.lp"], constants={"limit": 1})
    assert solve(puzzle, 0, program=limited).status == "unsolvable"
    assert solve(puzzle, 0, program=Program(additions=[PROGRAMS / "limit.lp"])).status == "multiple"


def test_the_rules_reach_the_encoding_and_the_checker():
    # Two islands of 3 need a triple bridge: no solution by default, exactly one with max 3.
    pair = Puzzle(1, 2, {(0, 0): 3, (0, 1): 3})
    assert solve(pair, 0).status == "unsolvable"
    result = solve(pair.with_rules(max_bridges=3), 0)
    assert result.status == "unique" and [tuple(b) for b in result.solutions[0].bridges] == [
        (0, 0, 0, 1, 3)
    ]
    # The rules are the puzzle's: a program does not carry them as constants.
    with pytest.raises(EncodingError, match="max_bridges is a rule of the puzzle"):
        Program(constants={"max_bridges": 3})


def test_an_encoding_that_breaks_a_rule_is_reported_not_trusted(tmp_path):
    # Without its connectivity test the encoding lets two doubled pairs through.
    loose = loose_encoding(tmp_path)
    square = Puzzle(2, 2, {(0, 0): 2, (0, 1): 2, (1, 0): 2, (1, 1): 2})
    with pytest.raises(InvalidAnswer, match="disconnected: 2 components") as caught:
        solve(square, 0, program=Program(encoding=loose))
    assert caught.value.status is Status.FAULT


def test_encoding_errors_name_file_and_line(tmp_path, puzzles):
    broken = PROGRAMS / "broken.lp"
    puzzle = read(puzzles / "prolog-5x5.txt")
    with pytest.raises(EncodingError, match=r"broken\.lp:3:3(-4)?: error: syntax error"):
        solve(puzzle, program=Program(encoding=broken))
    with pytest.raises(EncodingError, match="no such encoding file"):
        solve(puzzle, program=Program(additions=[tmp_path / "missing.lp"]))
    with pytest.raises(EncodingError, match="not a clingo identifier"):
        solve(puzzle, program=Program(constants={"Bad": 1}))


def test_helper_choices_in_added_rules_do_not_repeat_a_solution(puzzles):
    # A free atom doubles the answer sets; solutions are sets of bridges, so they stay two.
    helper = Program(additions=[PROGRAMS / "helper_choice.lp"])
    result = solve(read(puzzles / "prolog-5x5.txt"), 0, program=helper)
    assert (len(result.solutions), result.status) == (2, "multiple")


def test_a_process_that_grounds_many_puzzles_waits_for_abandoned_work_once(monkeypatch):
    # Each grounding runs in a thread the exit may have to wait for; the wait is registered
    # once, not once per grounding (bench and generate ground thousands of puzzles).
    from hashi_asp import stopping

    registered = []
    monkeypatch.setattr(stopping.atexit, "register", registered.append)
    monkeypatch.setattr(stopping, "_waits_at_exit", False)
    puzzle = Puzzle(1, 3, {(0, 0): 1, (0, 2): 1})
    for _ in range(3):
        assert solve(puzzle).status == "solved"
    assert registered == [stopping._wait_for_abandoned]
