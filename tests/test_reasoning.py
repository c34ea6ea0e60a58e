"""Reasoning about all solutions: uniqueness with two witnesses, counts, consequences (with and
without a player's bridges) and explanations of unsolvable puzzles, against known answers and
the independent brute-force enumerator."""

import json

import bruteforce
import pytest
from conftest import MANY, PROLOG, PUZZLES, run, small_puzzles
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hashi_asp import (
    Puzzle,
    PuzzleError,
    Solution,
    bridge,
    check,
    count,
    explain,
    hint,
    read,
    solve,
    unique,
)
from hashi_asp.asp.control import ground
from hashi_asp.reasoning import necessary_checks

SEVEN = PUZZLES / "seven-by-seven-24.json"
NYT = PUZZLES / "nyt-2022-04-03.json"


def brute(puzzle: Puzzle) -> set:
    return bruteforce.solutions(puzzle.rows, puzzle.cols, dict(puzzle.islands))


def counts_of(solution) -> dict:
    """Bridge count by pair for a brute-force solution (a set of 5-tuples)."""
    return {((r1, c1), (r2, c2)): k for r1, c1, r2, c2, k in solution}


def options_by_brute_force(puzzle: Puzzle, solutions) -> dict:
    """The counts each neighbour pair takes across the given brute-force solutions."""
    options = {
        pair: set()
        for pair in bruteforce.neighbour_pairs(puzzle.rows, puzzle.cols, dict(puzzle.islands))
    }
    for solution in solutions:
        have = counts_of(solution)
        for pair in options:
            options[pair].add(have.get(pair, 0))
    return {pair: tuple(sorted(ks)) for pair, ks in options.items()}


def with_number(puzzle: Puzzle, cell, number) -> Puzzle:
    return Puzzle(puzzle.rows, puzzle.cols, {**puzzle.islands, cell: number})


def solvable_with_only(puzzle: Puzzle, kept) -> bool:
    """Whether the numbers of the islands in ``kept`` alone can be met: the other islands are
    relaxed through the encoding's hook by plain facts, not by `explain`'s assumptions."""
    relaxed = "".join(f"relax({r},{c}).\n" for r, c in puzzle.islands if (r, c) not in set(kept))
    return not ground(puzzle, text=relaxed).attempt([]).exhausted


# ---------------------------------------------------------------------------- unique


@pytest.mark.parametrize("path", [PROLOG, SEVEN])
def test_two_solution_puzzles_are_multiple_with_both_shown_and_four_differences(path):
    puzzle = read(path)
    result = unique(puzzle)
    assert (result.status, len(result.solutions)) == ("multiple", 2)
    first, second = result.solutions
    assert check(puzzle, first) == [] and check(puzzle, second) == [] and first != second
    assert {frozenset(map(tuple, s.bridges)) for s in result.solutions} == brute(puzzle)
    a, b = first.counts(), second.counts()
    differing = {pair for pair in a.keys() | b.keys() if a.get(pair) != b.get(pair)}
    assert len(result.differences) == 4
    assert {(d[:2], d[2:4]) for d in result.differences} == differing
    for d in result.differences:
        assert (d.first, d.second) == (a.get((d[:2], d[2:4]), 0), b.get((d[:2], d[2:4]), 0))


def test_the_seven_by_seven_differs_around_its_square():
    cells = {cell for d in unique(read(SEVEN)).differences for cell in (d[:2], d[2:4])}
    assert cells == {(5, 3), (5, 4), (6, 3), (6, 4)}


def test_the_new_york_times_puzzle_is_unique():
    result = unique(read(NYT))
    assert (result.status, result.exhausted, len(result.solutions)) == ("unique", True, 1)
    assert result.differences == []


def test_unique_stops_at_two_on_a_puzzle_with_thousands():
    result = unique(read(MANY))
    assert result.status == "multiple" and not result.exhausted and len(result.solutions) == 2


def test_unique_of_an_unsolvable_puzzle():
    result = unique(Puzzle(1, 3, {(0, 0): 1, (0, 2): 2}))
    assert (result.status, result.exhausted, result.solutions) == ("unsolvable", True, [])


# ---------------------------------------------------------------------------- count


@pytest.mark.parametrize("path, expected", [(PROLOG, 2), (SEVEN, 2), (NYT, 1)])
def test_count_known_puzzles(path, expected):
    result = count(read(path))
    assert (result.count, result.exhausted) == (expected, True)
    assert result.status == ("unique" if expected == 1 else "multiple")


def test_count_reports_progress_and_stops_at_the_time_limit():
    seen = []
    result = count(read(MANY), time_limit=0.3, on_solution=seen.append)
    assert result.timed_out and not result.exhausted and result.count >= 1
    assert seen == list(range(1, result.count + 1))


def test_count_without_checking_gives_the_same_count():
    puzzle = read(SEVEN)
    assert count(puzzle, verify=False).count == count(puzzle).count == 2


# ---------------------------------------------------------------------------- consequences


def test_consequences_of_the_prolog_puzzle():
    puzzle = read(PROLOG)
    found = hint(puzzle)
    assert found.status == "multiple" and found.exhausted
    assert found.undecided == {
        ((0, 0), (0, 2)): (0, 1),
        ((0, 0), (2, 0)): (1, 2),
        ((0, 2), (2, 2)): (0, 1),
        ((2, 0), (2, 2)): (1, 2),
    }
    assert sorted(found.cautious) == [
        bridge((2, 0), (4, 0), 1),
        bridge((2, 2), (2, 4), 1),
        bridge((4, 0), (4, 4), 2),
    ]
    assert found.empty == [((2, 4), (4, 4))]
    assert check(puzzle, found.solution) == []


def test_consequences_of_a_unique_puzzle_decide_every_pair():
    puzzle = read(NYT)
    found = hint(puzzle)
    assert found.status == "unique" and found.undecided == {}
    assert Solution.of(found.cautious) == solve(puzzle).solutions[0]


def test_a_player_state_that_forces_the_rest():
    puzzle = read(PROLOG)
    found = hint(puzzle, Solution.of([bridge((0, 0), (0, 2), 1)]))
    assert found.status == "unique" and found.conflict is None
    assert Solution.of(found.cautious) == Solution.of(found.solution.bridges)
    assert bridge((2, 0), (2, 2), 2) in found.forced
    assert bridge((0, 0), (0, 2), 1) not in found.forced  # already drawn


def test_a_single_bridge_may_still_become_double():
    # Solution 2 has a double bridge (0,0)-(2,0): a single one drawn there is not wrong.
    found = hint(read(PROLOG), Solution.of([bridge((0, 0), (2, 0), 1)]))
    assert found.status == "multiple"
    assert found.options[((0, 0), (2, 0))] == (1, 2)


def test_a_player_state_that_cannot_be_completed_names_a_minimal_conflict():
    # Each is in a solution, and no island has too many: the two solutions differ at them.
    drawn = [bridge((2, 0), (2, 2), 2), bridge((0, 2), (2, 2), 1), bridge((4, 0), (4, 4), 2)]
    found = hint(read(PROLOG), Solution.of(drawn))
    assert found.status == "unsolvable" and found.minimal
    assert sorted(found.conflict.bridges) == sorted(drawn[:2])


CROSS = Puzzle(3, 3, {(0, 1): 1, (1, 0): 1, (1, 2): 1, (2, 1): 1})  # two pairs that cross


def test_illegal_player_bridges_are_reported_without_search():
    drawn = Solution.of([bridge((0, 1), (2, 1), 1), bridge((1, 0), (1, 2), 1)])
    found = hint(CROSS, drawn)
    assert found.status == "unsolvable" and found.conflict is None
    # Each pair is also closed off: its two 1s have their bridge.
    assert {v.rule for v in found.illegal} == {"crossing", "closed-off"}
    for wrong in (bridge((0, 0), (2, 2), 1), bridge((2, 0), (2, 4), 1)):  # not neighbours
        with pytest.raises(PuzzleError, match="does not join two neighbouring islands"):
            hint(read(PROLOG), Solution.of([wrong]))


README = (
    "7x7m2:4a4a2a2w2k4c3a1"  # 4s at (0, 0), (0, 2), (6, 0); a 1 at (6, 6); 2s at (0, 4), (0, 6)
)


@pytest.mark.parametrize(
    "drawn, rule, words, cells",
    [
        # Three doubles into the 4 at (0, 2).
        (
            [((0, 0), (0, 2), 2), ((0, 2), (0, 4), 2), ((0, 2), (4, 2), 2)],
            "island-count",
            "island (0, 2) has 6 bridges, more than its number 4",
            [(0, 2)],
        ),
        # A double into the 1 at (6, 6): the pair is over what its island takes.
        (
            [((6, 4), (6, 6), 2)],
            "pair-count",
            "(6, 4)-(6, 6) has 2 bridges, more than the 1 at (6, 6) takes",
            [(6, 4), (6, 6)],
        ),
        # The 2s at (0, 4) and (0, 6) joined by a double: closed off from the six others.
        (
            [((0, 4), (0, 6), 2)],
            "closed-off",
            "the 2 islands (0, 4), (0, 6) have all their bridges and no way to the other 6 islands",
            [(0, 4), (0, 6)],
        ),
    ],
)
def test_too_many_bridges_and_a_closed_group_are_illegal_in_a_partial_state(
    drawn, rule, words, cells
):
    """A partial state with too few bridges at an island is on its way; one with too many, or
    with a group that can take no more bridges and is not every island, is not."""
    given = Solution.of([bridge(a, z, k) for a, z, k in drawn])
    found = hint(read(README), given)
    assert found.status == "unsolvable"
    assert [(v.rule, v.message, list(v.cells)) for v in found.illegal] == [(rule, words, cells)]
    # Short of it (one bridge fewer on each pair) nothing is broken yet.
    short = Solution.of([bridge(a, z, k - 1) for a, z, k in drawn if k > 1])
    assert hint(read(README), short).illegal == []


@given(small_puzzles(), st.randoms(use_true_random=False))
@settings(max_examples=120, deadline=None)
def test_count_unique_and_consequences_agree_with_brute_force(case, random):
    puzzle = Puzzle(*case)
    everything = brute(puzzle)
    counted = count(puzzle)
    assert counted.exhausted and counted.count == len(everything)
    verdict = unique(puzzle)
    assert verdict.status == {0: "unsolvable", 1: "unique"}.get(len(everything), "multiple")
    found = hint(puzzle)
    if not everything:
        assert found.status == "unsolvable" and found.conflict.empty
        return
    assert found.options == options_by_brute_force(puzzle, everything)
    assert set(found.cautious) == {
        bridge(a, b, k) for (a, b), (k, *more) in found.options.items() if k and not more
    }
    assert set(found.brave) == {
        bridge((r1, c1), (r2, c2), k) for s in everything for r1, c1, r2, c2, k in s
    }

    # A player's state: some bridges of one solution, one of them possibly made a double.
    drawn = [
        bridge(b[:2], b[2:4], b[4])
        for b in sorted(random.choice(sorted(everything, key=sorted)))
        if random.random() < 0.5
    ]
    if drawn and random.random() < 0.5:
        drawn[0] = drawn[0]._replace(count=2)
    partial = hint(puzzle, Solution.of(drawn))
    extending = [
        s for s in everything if all(counts_of(s).get(b.ends, 0) >= b.count for b in drawn)
    ]
    if extending:  # no rule it breaks is broken for good (too many, a group closed off)
        assert partial.illegal == []
        assert partial.options == options_by_brute_force(puzzle, extending)
    elif partial.illegal:
        assert partial.status == "unsolvable" and partial.conflict is None
    else:
        assert partial.status == "unsolvable" and partial.minimal and partial.conflict.bridges
        conflict = partial.conflict.bridges
        assert not any(
            all(counts_of(s).get(b.ends, 0) >= b.count for b in conflict) for s in everything
        )
        for dropped in conflict:  # minimal
            rest = [b for b in conflict if b != dropped]
            assert any(
                all(counts_of(s).get(b.ends, 0) >= b.count for b in rest) for s in everything
            )


# ---------------------------------------------------------------------------- explanations


@pytest.mark.parametrize(
    "path, cell, number",
    [
        (NYT, (1, 1), 2),  # a 1 made a 2
        (SEVEN, (3, 3), 7),  # the 8 made a 7
        (SEVEN, (0, 4), 2),
        (PUZZLES / "coelho" / "Hs_16_100_25_00_001.has", (5, 11), 7),
    ],
)
def test_one_changed_number_is_in_a_minimal_core(path, cell, number):
    original = read(path)
    assert original.islands[cell] != number
    puzzle = with_number(original, cell, number)
    why = explain(puzzle)
    assert why.solvable is False and why.minimal
    assert cell in why.core
    assert not solvable_with_only(puzzle, why.core)
    for dropped in why.core:  # minimal, by re-solving
        assert solvable_with_only(puzzle, [c for c in why.core if c != dropped])


def test_a_puzzle_that_geometry_alone_makes_unsolvable_has_an_empty_core():
    # Two islands that cannot see each other: no bridge can join them, whatever the numbers.
    why = explain(Puzzle(2, 2, {(0, 0): 1, (1, 1): 1}))
    assert why.solvable is False and why.core == [] and why.minimal
    assert {v.rule for v in why.checks} == {"no-neighbour", "separated"}


def test_explain_a_solvable_puzzle():
    why = explain(read(PROLOG))
    assert why.solvable is True and why.core is None and why.checks == []


@pytest.mark.parametrize(
    "islands, rule, message",
    [
        ({(0, 0): 1, (0, 2): 2}, "odd-total", "the island numbers add up to 3, an odd number"),
        (
            {(0, 0): 4, (0, 2): 1, (2, 0): 2},
            "too-few-neighbours",
            "island (0, 0) needs 4 bridges but its 2 neighbour(s) can take at most 3",
        ),
        (
            {(0, 0): 5, (0, 2): 4, (2, 0): 3},
            "too-few-neighbours",
            "island (0, 0) needs 5 bridges but its 2 neighbour(s) can take at most 4: "
            "(0, 2) 4, (2, 0) 3",
        ),
        (
            {(0, 0): 1, (0, 2): 1, (2, 2): 2},
            "closed-pair",
            "islands (0, 0) and (0, 2) would be cut off from the rest",
        ),
        (
            {(0, 0): 2, (1, 1): 2},
            "no-neighbour",
            "island (0, 0) needs 2 bridge(s) but no other island lies in its row or column",
        ),
        (
            {(0, 0): 1, (0, 2): 1, (2, 1): 1, (3, 1): 1},
            "separated",
            "the islands fall into 2 groups that no bridge can join; the smallest: (0, 0), (0, 2)",
        ),
    ],
)
def test_each_necessary_check_names_the_islands(islands, rule, message):
    rows = 1 + max(r for r, _ in islands)
    cols = 1 + max(c for _, c in islands)
    failed = [v for v in necessary_checks(Puzzle(rows, cols, islands)) if v.rule == rule]
    assert failed and failed[0].message.startswith(message)


@given(small_puzzles())
@settings(max_examples=200, deadline=None)
def test_necessary_checks_never_fire_on_a_solvable_puzzle(case):
    puzzle = Puzzle(*case)
    failed = necessary_checks(puzzle)
    assume(failed or len(puzzle.islands) > 1)
    if failed:
        assert brute(puzzle) == set(), failed


def test_neighbour_pairs_agree_with_brute_force(puzzles):
    for path in sorted((puzzles / "coelho").glob("*.has"))[:6]:
        puzzle = read(path)
        assert puzzle.geometry.pairs == bruteforce.neighbour_pairs(
            puzzle.rows, puzzle.cols, dict(puzzle.islands)
        )


# ---------------------------------------------------------------------------- command line


def test_cli_unique_multiple_draws_both_and_lists_the_differences():
    result = run("unique", PROLOG)
    assert result.exit_code == 1
    # Which solution clingo finds first is its choice; the listing follows that order.
    single_first = "Solution 1:\n2---1 . .\n" in result.stdout
    assert (
        "Solution 2:\n2 . 1 . .\n" if single_first else "Solution 2:\n2---1 . .\n"
    ) in result.stdout
    counts = [(1, 0), (1, 2), (0, 1), (2, 1)]
    if not single_first:
        counts = [(second, first) for first, second in counts]
    pairs = ["(0, 0)-(0, 2)", "(0, 0)-(2, 0)", "(0, 2)-(2, 2)", "(2, 0)-(2, 2)"]
    assert (
        "differ at 4 pairs of islands (bridges in solution 1, in solution 2):\n"
        + "".join(f"  {pair}: {a}, {b}\n" for pair, (a, b) in zip(pairs, counts))
    ) in result.stdout
    assert result.stdout.strip().splitlines()[-1].startswith("multiple: at least 2 solutions")
    assert "\x1b[" not in result.stdout  # no colour off a terminal


def test_cli_unique_highlights_the_differing_bridges_in_colour_on_a_terminal():
    result = run("unique", PROLOG, color=True)
    red = "\x1b[31m\x1b[1m"
    first_drawing = result.stdout.split("Solution 2:")[0]
    # (0,0)-(0,2) holds a bridge in one solution and water in the other; either is marked.
    assert (
        f"2{red}-\x1b[0m{red}-\x1b[0m{red}-\x1b[0m1" in first_drawing
        or f"2{red} \x1b[0m{red}.\x1b[0m{red} \x1b[0m1" in first_drawing
    )
    assert first_drawing.count(red) == 3 + 1 + 1 + 3  # the four differing pairs


def test_cli_unique_json():
    result = run("unique", SEVEN, "--format", "json")
    document = json.loads(result.stdout)
    assert result.exit_code == 1
    assert (document["status"], document["count"], document["exhausted"]) == ("multiple", 2, False)
    puzzle = read(result.stdout)
    solutions = [
        Solution.of(bridge(b[:2], b[2:4], b[4]) for b in s["bridges"])
        for s in document["solutions"]
    ]
    assert all(check(puzzle, s) == [] for s in solutions)
    first, second = (s.counts() for s in solutions)
    assert document["differences"] == [
        [*a, *z, first.get((a, z), 0), second.get((a, z), 0)]
        for a, z in [((5, 3), (5, 4)), ((5, 3), (6, 3)), ((5, 4), (6, 4)), ((6, 3), (6, 4))]
    ]


def test_cli_unique_exit_codes():
    assert run("unique", NYT).exit_code == 0
    assert (
        run("unique", NYT).stdout.strip().endswith("unique: exactly 1 solution; search exhausted")
    )
    unsolvable = run("unique", "-", input="1.2\n")
    assert unsolvable.exit_code == 4
    assert "Why there is no solution:" in unsolvable.stdout
    assert "odd number" in unsolvable.stdout
    assert run("unique", "-", input="1.x\n").exit_code == 2


def test_cli_solve_and_unique_explain_an_unsolvable_puzzle():
    text = PROLOG.read_text().replace("4 . 3 . 1", "4 . 3 . 2")  # (2, 4): 1 -> 2
    solved = run("solve", "-", input=text)
    assert solved.exit_code == 1
    assert "  - the island numbers add up to 17, an odd number" in solved.stdout
    core_line = next(line for line in solved.stdout.splitlines() if "cannot all be met" in line)
    assert "(minimal: " in core_line and "(2, 4) 2" in core_line
    assert solved.stdout.strip().endswith("unsolvable: no solution; search exhausted")
    document = json.loads(run("unique", "-", "--format", "json", input=text).stdout)
    assert document["status"] == "unsolvable"
    assert [2, 4, 2] in document["explanation"]["core"] and document["explanation"]["minimal"]
    coloured = run("solve", "-", input=text, color=True)
    assert "\x1b[31m\x1b[1m2\x1b[0m" in coloured.stdout  # the core highlighted in the drawing


def test_cli_count():
    result = run("count", PROLOG)
    assert (result.exit_code, result.stdout) == (0, "2 solutions; search exhausted\n")
    assert run("count", "-", input="1.2\n").exit_code == 1
    cut = run("count", MANY, "--time-limit", "0.3")
    assert cut.exit_code == 3 and cut.stdout.startswith("at least ")
    assert "time limit reached" in cut.stdout
    document = json.loads(run("count", SEVEN, "--format", "json").stdout)
    assert (document["count"], document["exhausted"], document["checked"]) == (2, True, True)


def test_cli_hint_draws_what_every_solution_has_and_marks_the_rest():
    result = run("hint", PROLOG)
    assert result.exit_code == 0
    assert result.stdout.startswith("2???1 . .\n? . ? . .\n4???3---1\n| . . . .\n3=======2\n")
    assert "  (0, 0)-(2, 0): 1 or 2\n" in result.stdout
    assert result.stdout.strip().endswith(
        "multiple: 4 of 8 pairs of neighbours are the same in every solution, 4 differ"
    )


def test_cli_hint_with_a_player_state(tmp_path):
    partial = tmp_path / "partial.json"
    partial.write_text('{"bridges": [[0, 0, 0, 2, 1]]}')
    result = run("hint", PROLOG, "--given", partial)
    assert result.exit_code == 0
    assert "can be completed; they force 5 more:" in result.stdout
    assert "  (2, 0)-(2, 2): 2\n" in result.stdout

    stuck = run("hint", PROLOG, "--given", "-", input="[[2,0,2,2,2],[0,2,2,2,1],[4,0,4,4,2]]")
    assert stuck.exit_code == 1
    assert (
        "cannot be completed: no solution has all of these together:\n"
        "  (2, 0)-(2, 2): 2\n  (0, 2)-(2, 2): 1\n"
    ) in stuck.stdout
    over = run("hint", PROLOG, "--given", "-", input="[[0,0,0,2,1],[0,0,2,0,2]]")
    assert over.exit_code == 1
    assert (
        "The drawn bridges break the rules:\n"
        "  - island (0, 0) has 3 bridges, more than its number 2\n"
    ) in over.stdout

    crossing = run("hint", "-", "--given", "[[0,1,2,1,1],[1,0,1,2,1]]", input=".1.\n1.1\n.1.\n")
    assert crossing.exit_code == 1 and "crossing at cell (1, 1)" in crossing.stdout
    diagonal = run("hint", PROLOG, "--given", "-", input="[[0,0,2,2,1]]")
    assert diagonal.exit_code == 2 and diagonal.stdout == ""
    assert diagonal.stderr == (
        "hashi-asp: <stdin>:1:2: bridge (0, 0)-(2, 2) does not join two neighbouring islands\n"
    )


def test_cli_hint_json():
    document = json.loads(
        run("hint", PROLOG, "--given", "-", "--format", "json", input="[[0,0,2,0,1]]").stdout
    )
    assert document["status"] == "multiple"
    assert [0, 0, 2, 0, [1, 2]] in document["undecided"]
    assert [2, 4, 4, 4] in document["empty"]
    assert [4, 0, 4, 4, 2] in document["cautious"] and [4, 0, 4, 4, 2] in document["forced"]
    assert [0, 0, 2, 0, 2] in document["brave_only"]
    assert document["conflict"] is None and document["illegal"] == []
    assert len(document["solutions"]) == 1


def test_cli_hint_on_an_unsolvable_puzzle_explains_it():
    result = run("hint", "-", input="1.2\n")
    assert result.exit_code == 1 and "Why there is no solution:" in result.stdout


def test_cli_reasoning_commands_report_bad_input_on_one_line(tmp_path):
    bad = tmp_path / "given.json"
    bad.write_text('{"bridges": [[0, 0, 0]]}')
    result = run("hint", PROLOG, "--given", bad)
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"hashi-asp: {bad}:1:14: bridge 0:")
