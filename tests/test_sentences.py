"""Every walkthrough sentence read back (hashi_asp.walkthrough.reading): the cells it names are
its step's pair and reason islands, the numbers it quotes are theirs, and a bridge it speaks of
("to (r, c)", "between (r, c) and (r, c)") is on its step's pair; over generated puzzles of 7x7
to 10x10 under each variant of the rules, small puzzles of any kind (contradictions, islands
without a number), and two generated puzzles whose sentences once put a bridge between cells
in no common row or column.  ``benchmarks/sentences.py`` reads the walkthroughs of hundreds of
generated puzzles the same way."""

import pytest
from conftest import small_puzzles
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from hashi_asp import Puzzle, Rules, Solution, bridge
from hashi_asp.generation import GenerationError, batch, generate
from hashi_asp.status import Verdict
from hashi_asp.walkthrough import Step, Walkthrough, steps
from hashi_asp.walkthrough.reading import misreadings, read

RULES = [Rules(), Rules(max_bridges=3), Rules(no_loops=True), Rules(max_bridges=1)]


# ---------------------------------------------------------------------------- the reader


def one_step(puzzle: Puzzle, text: str) -> list[str]:
    """The misreadings of a walkthrough of one step: a single bridge between (2, 0) and (8, 0),
    forced by the 1 at (8, 1)."""
    step = Step(((2, 0), (8, 0)), (0, 1), (1,), ((8, 1),), True, "isolation", text, "hard")
    return misreadings(Walkthrough(puzzle, [step], Verdict.UNFINISHED, {}))


PUZZLE = Puzzle(10, 10, {(2, 0): 2, (8, 0): 1, (8, 1): 1, (5, 0): 2, (5, 1): 1, (4, 1): 3})


def test_the_reader_finds_the_cells_numbers_and_bridges_a_sentence_names():
    reading = read(
        "the 1 at (8, 1) and the island at (2, 0) force a double bridge to (8, 0), not one "
        "between (2, 0) and (8, 0)"
    )
    assert reading.cells == ((8, 1), (2, 0), (8, 0), (2, 0), (8, 0))
    assert reading.islands == ((1, (8, 1)), (None, (2, 0)))
    assert reading.to == ((8, 0),)
    assert reading.between == (((2, 0), (8, 0)),)


@pytest.mark.parametrize(
    "text, fault",
    [
        # The sentence of the walkthrough that put a bridge between cells in no common line.
        ("the 1 at (8, 1) needs a single bridge to (2, 0)", "bridge to (2, 0) is not on the pair"),
        ("the 1 at (8, 1) forces a single bridge between (2, 0) and (5, 0)", "names (5, 0)"),
        ("the 1 at (8, 1) forces a single bridge between (8, 0) and (8, 1)", "between (8, 0)"),
        ("the 2 at (8, 1) forces a single bridge between (2, 0) and (8, 0)", "as 2, not 1"),
        ("the island at (8, 1) forces a single bridge between (2, 0) and (8, 0)", "as None"),
        ("a single bridge between (2, 0) and (8, 0)", "does not name (8, 1)"),
        ("the 1 at (3, 3) and the 1 at (8, 1) force it between (2, 0) and (8, 0)", "names (3, 3)"),
        ("the 1 at (3, 3) and the 1 at (8, 1) force it between (2, 0) and (8, 0)", "calls (3, 3)"),
    ],
)
def test_the_reader_tells_a_sentence_that_names_anything_else(text, fault):
    found = one_step(PUZZLE, text)
    assert any(fault in line for line in found), found


def test_the_reader_accepts_the_sentence_of_the_step():
    right = "the 1 at (8, 1) forces a single bridge between (2, 0) and (8, 0)"
    assert one_step(PUZZLE, right) == []


CROSS = Puzzle(3, 3, {(0, 1): 1, (2, 1): 1, (1, 0): 1, (1, 2): 1})
CROSSING = (
    "a bridge between (0, 1) and (2, 1) would cross the certain bridge between (1, 0) and (1, 2): "
    "no bridge there"
)


@pytest.mark.parametrize(
    "technique, drawn, right",
    [
        ("crossing", [bridge((1, 0), (1, 2), 1)], True),
        ("crossing", [], False),  # the bridge it calls certain is not
        ("rules", [bridge((1, 0), (1, 2), 1)], False),  # only a crossing step names another pair
    ],
)
def test_a_crossing_step_names_the_certain_bridge_its_pair_would_cross(technique, drawn, right):
    step = Step(((0, 1), (2, 1)), (0, 1), (0,), (), False, technique, CROSSING, "easy")
    given = Solution.of(drawn)
    walk = Walkthrough(CROSS, [step], Verdict.UNFINISHED, {}, given=given)
    assert (misreadings(walk) == []) == right


# ---------------------------------------------------------------------------- walkthroughs


@st.composite
def generated_puzzles(draw) -> Puzzle:
    """Unique puzzles of 7x7 to 10x10 from the generator, under each variant of the rules, with
    islands on a fifth to two fifths of the cells: of every difficulty."""
    rules = draw(st.sampled_from(RULES))
    side = draw(st.integers(7, 10))
    islands = draw(st.integers(side * side // 5, side * side * 2 // 5))
    try:
        seed = draw(st.integers(0, 10**6))
        made = generate(islands, side, side, seed=seed, rules=rules, unique=True, attempts=2)
    except GenerationError:
        assume(False)
    return made.puzzle


@given(generated_puzzles())
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_every_sentence_of_a_generated_puzzle_names_only_its_pair_and_reason(puzzle):
    walk = steps(puzzle)
    assert walk.status == "solved"
    assert misreadings(walk) == []


@given(small_puzzles(max_side=5, max_islands=8))
@settings(max_examples=300, deadline=None)
def test_every_sentence_of_a_small_puzzle_names_only_its_pair_and_reason(case):
    """Small puzzles of any kind: contradictions, several solutions, islands without a
    number."""
    rows, cols, islands = case
    unnumbered = {cell: None if n == 1 else n for cell, n in islands.items()}
    for puzzle in (Puzzle(*case), Puzzle(rows, cols, unnumbered)):
        assert misreadings(steps(puzzle)) == []


@pytest.mark.parametrize(
    "seed, pair, reason",
    [
        (6, ((2, 0), (8, 0)), ((8, 1),)),  # "the 1 at (8, 1) needs a single bridge to (2, 0)"
        (108, ((3, 2), (3, 3)), ((9, 2),)),  # "the 1 at (9, 2) needs a single bridge to (3, 2)"
    ],
)
def test_a_one_island_reason_away_from_its_pair_says_between(seed, pair, reason):
    """generate -n 30 --size 10x10 --unique --difficulty hard --seed SEED: a step whose reason
    clingo made one island away from the pair (of the two the finder read)."""
    names, made = batch(30, size="10x10", unique=True, difficulty="hard", seed=seed)
    assert names == [f"Hs_10_30_50_10_{seed:03d}.has"]
    _, generated, _ = next(made)
    walk = steps(generated.puzzle)
    away = [step for step in walk.steps if step.pair == pair and step.reason == reason]
    assert len(away) == 1 and away[0].technique == "isolation"
    a, z = (f"({r}, {c})" for r, c in pair)
    assert f"forces a single bridge between {a} and {z}" in away[0].text
    assert misreadings(walk) == []
