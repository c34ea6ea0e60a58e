"""Moves between solutions (hashi_asp/fixing/moves.py), the counterexamples free-mode fixing
learns from: wherever a move's conditions hold in an edited puzzle and one of its solutions, the
move makes a second solution.  Checked against the brute-force enumerator on small puzzles with
several solutions (some with islands without numbers), under random edits."""

import bruteforce
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_fix import blanked_puzzles, free_edits, generated_puzzles

from hashi_asp import Puzzle, Solution, unique
from hashi_asp.fixing import edited
from hashi_asp.fixing.moves import Move, move, parts
from hashi_asp.puzzle import bridge


def solutions(puzzle: Puzzle) -> list[Solution]:
    return [
        Solution.of(bridge((r1, c1), (r2, c2), k) for r1, c1, r2, c2, k in found)
        for found in bruteforce.solutions_of(puzzle)
    ]


def holds(found: Move, puzzle: Puzzle, solution: Solution) -> bool:
    """The move's conditions, as ``encodings/fix.lp`` states them, read in Python."""
    counts = solution.counts()
    for cell, state in found.cells:
        if (state is None) == (cell in puzzle.islands):
            return False
        if state == "any" and puzzle.islands[cell] is not None:
            return False
    if any(counts.get(pair, 0) != k for pair, k in found.before):
        return False
    if any(counts.get(pair, 0) == 0 for pair in found.anchors):
        return False
    under = {
        (cell, "h" if line.horizontal else "v")
        for line in solution.bridges
        for cell in line.cells_between()
    }
    return not any((cell, direction) in under for cell, direction in found.clear)


def made(found: Move, solution: Solution) -> Solution:
    counts = solution.counts()
    counts.update(dict(found.after))
    return Solution.of(bridge(*pair, k) for pair, k in counts.items() if k)


@given(generated_puzzles(), st.data())
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
def test_a_move_whose_conditions_hold_makes_a_second_solution(puzzle, data):
    moves_make_second_solutions(puzzle, data)


@given(blanked_puzzles(), st.data())
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
def test_a_move_that_takes_lines_from_an_island_without_a_number_is_one_too(puzzle, data):
    """An island without a number may lose lines in a move: it keeps one (the move's new lines
    and anchors reach every end), so the move still makes a second solution wherever it holds."""
    moves_make_second_solutions(puzzle, data)


def moves_make_second_solutions(puzzle: Puzzle, data: st.DataObject) -> None:
    known = unique(puzzle).solutions
    assume(len(known) > 1)
    first, *others = solutions(puzzle)
    moves = []
    for other in others[:4]:
        for part in parts(puzzle, first, other):
            assert part in solutions(puzzle)  # each part is a solution on its own
            moves += [move(puzzle, first, part), move(puzzle, part, first)]
    assert moves and all(isinstance(found, Move) for found in moves)  # one each way
    # The puzzle itself: each move holds in the solution it starts from.
    for found in moves:
        assert any(holds(found, puzzle, s) for s in [first, *others])
    # Edited puzzles: wherever a move holds, it leads to another solution.
    options = [e for e in free_edits(puzzle) if e.kind != "remove" or len(puzzle.islands) > 2]
    for _ in range(6):
        count = data.draw(st.integers(0, 2))
        chosen = data.draw(st.lists(st.sampled_from(options), min_size=count, max_size=count))
        if len({e.cell for e in chosen}) < len(chosen):
            continue
        changed = edited(puzzle, chosen)
        everything = solutions(changed)
        for solution in everything:
            for found in moves:
                if holds(found, changed, solution):
                    second = made(found, solution)
                    assert second != solution
                    assert second in everything, (chosen, found)
