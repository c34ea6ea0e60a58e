"""The fix's search, part by part: free mode's master states the edited puzzle's rules on lines
between neighbouring cells (its solutions are the brute-force enumerator's, whatever the edit),
and edits that make the numbers' sum odd are never tried, as they leave no solution."""

from __future__ import annotations

import random

import bruteforce
from hypothesis import assume, given, settings
from test_fix import blanked_puzzles, free_edits, generated_puzzles

from hashi_asp import Puzzle, check, unique
from hashi_asp.asp import PLAIN, predicates
from hashi_asp.asp.control import ground
from hashi_asp.asp.interface import Program, encoding_path
from hashi_asp.fixing import Edit, edited
from hashi_asp.fixing.counterexamples import drawn
from hashi_asp.fixing.single_edits import _free_edits, keeps_parity
from hashi_asp.stopping import Deadline


def master_solutions(puzzle: Puzzle, edit: Edit) -> set:
    """The solutions free mode's master finds for ``puzzle`` with ``edit`` made (and no other
    edit), read back from its lines."""
    program = Program(encoding=str(encoding_path(predicates.FIX_LP)), connectivity=PLAIN)
    text = predicates.MODE.fact("free")  # every solution, not only the cheapest:
    grounded = ground(puzzle, program, text=text, models=0, options=["--opt-mode=ignore"])
    number = () if edit.kind == "remove" else (edit.new,)
    chosen = predicates.EDITS[edit.kind].symbol(*edit.cell, *number)
    assumed = []
    for made in predicates.EDITS.values():
        for symbol, literal in grounded.atoms(made.name, made.arity):
            assumed.append(literal if symbol == chosen else -literal)
    fixed = edited(puzzle, [edit])
    found = set()

    def keep(model) -> None:
        solution = drawn(fixed, grounded.shown(model))
        assert check(fixed, solution) == []
        found.add(frozenset(tuple(b) for b in solution.bridges))

    grounded.search(keep, assumptions=assumed)
    return found


def some_edits(puzzle: Puzzle, seed: int) -> list[Edit]:
    edits = [e for e in free_edits(puzzle) if len(edited(puzzle, [e]).islands) > 1]
    return random.Random(seed).sample(edits, min(6, len(edits)))


@given(generated_puzzles())
@settings(max_examples=10, deadline=None)
def test_the_master_s_solutions_of_an_edited_puzzle_are_its_solutions(puzzle):
    for edit in some_edits(puzzle, len(puzzle.islands)):
        fixed = edited(puzzle, [edit])
        assert master_solutions(puzzle, edit) == bruteforce.solutions_of(fixed), edit


@given(blanked_puzzles())
@settings(max_examples=6, deadline=None)
def test_the_master_s_solutions_with_islands_without_numbers(puzzle):
    for edit in some_edits(puzzle, len(puzzle.islands)):
        fixed = edited(puzzle, [edit])
        assert master_solutions(puzzle, edit) == bruteforce.solutions_of(fixed), edit


@given(generated_puzzles())
@settings(max_examples=10, deadline=None)
def test_an_edit_that_makes_the_sum_odd_leaves_no_solution_and_is_not_tried(puzzle):
    odd = [e for e in free_edits(puzzle) if not keeps_parity(e)]
    assume(odd)
    for edit in odd[:: max(1, len(odd) // 5)]:
        assert bruteforce.solutions_of(edited(puzzle, [edit])) == set()
    tried = _free_edits(puzzle, unique(puzzle).solutions, Deadline.of(None))
    assert tried and all(keeps_parity(e) for e in tried)


def test_with_an_island_without_a_number_an_odd_change_is_tried():
    puzzle = Puzzle(3, 3, {(0, 0): 2, (0, 2): None, (2, 0): 1, (2, 2): 1})
    tried = _free_edits(puzzle, unique(puzzle).solutions, Deadline.of(None))
    assert any(not keeps_parity(e) for e in tried)
