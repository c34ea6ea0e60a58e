"""Simon Tatham's Bridges game IDs: the committed IDs solve uniquely under their own rules, the
writer gives the IDs back, and every malformed ID is named with its column."""

import re

import pytest
from conftest import PUZZLES
from hypothesis import given, settings
from hypothesis import strategies as st

from hashi_asp import Puzzle, PuzzleError, Rules, check, read, solve
from hashi_asp.notations import detect, parse, write
from hashi_asp.notations.tatham import format_game_id, is_game_id, validate_game_id

TATHAM = PUZZLES / "tatham"


def game_ids() -> list[str]:
    """Every ID in puzzles/tatham/*.txt (made by generate.sh with sgt-bridges)."""
    ids = []
    for path in sorted(TATHAM.glob("*.txt")):
        ids += [
            line.strip()
            for line in path.read_text().splitlines()
            if line.strip() and not line.startswith("#")
        ]
    return ids


def test_the_committed_ids_cover_every_rule_set():
    rules = {(read(i).rules.max_bridges, read(i).rules.no_loops) for i in game_ids()}
    assert rules == {(k, loops) for k in (1, 2, 3, 4) for loops in (False, True)}
    assert max(read(i).rows for i in game_ids()) >= 20


@pytest.mark.parametrize("game_id", game_ids())
def test_each_id_solves_uniquely_under_its_own_rules(game_id):
    puzzle = read(game_id)
    result = solve(puzzle, models=2)
    assert (result.status, result.exhausted) == ("unique", True)
    assert check(puzzle, result.solutions[0]) == []
    assert max(b.count for b in result.solutions[0].bridges) <= puzzle.rules.max_bridges


def test_the_ids_rules_matter():
    """Under the standard rules some of the variant puzzles lose their solution or their
    uniqueness: the rules of the ID really reach the solver."""
    changed = {"m": 0, "L": 0}
    for game_id in game_ids():
        puzzle = read(game_id)
        if puzzle.rules.max_bridges != 2:
            changed["m"] += solve(puzzle.with_rules(max_bridges=2), 2).status != "unique"
        if puzzle.rules.no_loops:
            changed["L"] += solve(puzzle.with_rules(no_loops=False), 2).status != "unique"
    assert changed["m"] >= 5 and changed["L"] >= 1


@pytest.mark.parametrize("game_id", game_ids())
def test_writing_gives_the_same_id_back(game_id):
    assert write(read(game_id), "tatham") == game_id + "\n"


def test_reading_a_known_id():
    puzzle = read("7x7m2L:4b4b3e2b2r2a3a4a4a4a3c1")
    assert (puzzle.rows, puzzle.cols, puzzle.rules.max_bridges, puzzle.rules.no_loops) == (
        7,
        7,
        2,
        True,
    )
    assert puzzle.islands[0, 0] == 4 and puzzle.islands[0, 3] == 4 and puzzle.islands[0, 6] == 3
    assert puzzle.islands[1, 5] == 2  # after 'e': five water cells
    assert len(puzzle.islands) == 12


@pytest.mark.parametrize(
    "game_id, rows, cols, max_bridges, no_loops",
    [
        ("4:1b2d1b2d", 4, 4, 2, False),  # width only: a square grid
        ("3x4m4:Gba1af", 4, 3, 4, False),  # G is 16
        ("5x3i30e10m3Ld2:3c1e2c3", 3, 5, 3, True),  # generator settings are ignored
    ],
)
def test_parameter_forms(game_id, rows, cols, max_bridges, no_loops):
    puzzle = read(game_id)
    assert (puzzle.rows, puzzle.cols, puzzle.rules.max_bridges, puzzle.rules.no_loops) == (
        rows,
        cols,
        max_bridges,
        no_loops,
    )


@pytest.mark.parametrize(
    "game_id, message, column",
    [
        ("10x10i30e10m2d2", "is a Bridges generator setting, not a puzzle", 1),
        ("7x7m2#12345", "random-seed ID", 6),
        ("7x7q2:1a1", "unexpected 'q' in the parameters", 4),
        ("7x7Lm2:1a1", "parameter 'm' out of place", 5),
        ("7x7m5:1a1", "m5: the most bridges between two islands must be 1..4", 4),
        ("7x7m:1a1", "unexpected 'm' in the parameters", 4),
        ("2x7:1a1", "grid 2x7: Tatham's Bridges needs a width and height of at least 3", 1),
        ("x7:1", "must start with the grid width", 1),
        ("4000x4000:a", "exceeds the limit", 1),
        ("3x3:1a1e", "description covers 8 of the 3x3 = 9 cells", 8),
        ("3x3:1a1f1a", "runs past the last of the 3x3 = 9 cells at '1'", 9),
        ("3x3:1a1g", "last water run goes 1 cell(s) past the end", 8),
        ("3x3:1a1e0", "unexpected character '0' in the description", 9),
        ("3x3:1a1e.", "unexpected character '.'", 9),
        ("3x3:11g", "islands at (0, 0) and (0, 1) touch", 6),
        ("3x3:1b1e", "islands at (0, 0) and (1, 0) touch", 7),
        ("3x3:1h", "has 1 island(s); Tatham's Bridges needs at least 2", 6),
        ("3x3m1:5a1f", "island number 5 at (0, 0) out of range 1..4 (m1", 7),
        ("3x3:9a1f", "island number 9 at (0, 0) out of range 1..8 (m2", 5),
        ("3x3:", "description covers 0 of the 3x3 = 9 cells", 4),
    ],
)
def test_malformed_ids_are_named_with_their_column(game_id, message, column):
    problem = validate_game_id(game_id)
    assert problem is not None and message in problem.message
    assert problem.column == column and problem.line == (None if column is None else 1)
    with pytest.raises(PuzzleError) as caught:
        parse(game_id, notation="tatham", source="<arg>")
    assert message in caught.value.message and caught.value.column == column


def test_a_game_id_after_leading_space_keeps_its_columns():
    with pytest.raises(PuzzleError) as caught:
        parse("  3x3:1a1e0\n", notation="tatham")
    assert (caught.value.line, caught.value.column) == (1, 11)


def test_numbers_follow_an_explicit_max_bridges():
    assert read("3x3m1:5a1f", max_bridges=2).islands[0, 0] == 5


@pytest.mark.parametrize(
    "text, expected",
    [
        ("7x7m2:4b4b3e2b2r2a3a4a4a4a3c1", True),
        ("10x10i30e10m2d2", True),
        ("7x7#1", True),
        ("7:1a1", True),
        ("puzzles/x.txt", False),
        ("2.1..", False),
        ("3 3", False),
        ("77", False),
        ("2024x1.txt", False),
        ("15x15.has", False),
    ],
)
def test_is_game_id(text, expected):
    assert is_game_id(text) is expected
    assert (detect(text) == "tatham") is expected


@pytest.mark.parametrize(
    "puzzle, reason",
    [
        (Puzzle(2, 5, {(0, 0): 1, (0, 2): 1}), "the grid is 5x2; Bridges needs at least 3x3"),
        (Puzzle(3, 3, {(0, 0): 1, (0, 1): 1}), "the islands at (0, 0) and (0, 1) touch"),
        (Puzzle(3, 3, {(0, 0): 1, (0, 2): None}), "the island at (0, 2) has no number"),
        (Puzzle(3, 3, {(0, 0): 1}), "it has one island"),
        (
            Puzzle(3, 3, {(0, 0): 17, (0, 2): 1}, rules=Rules(max_bridges=5)),
            "max_bridges=5; Bridges allows 1..4",
        ),
        (
            Puzzle(3, 3, {(0, 0): 17, (0, 2): 1}, rules=Rules(max_bridges=4)),
            "island number 17 at (0, 0) is over 16",
        ),
    ],
)
def test_the_writer_refuses_what_bridges_cannot_hold(puzzle, reason):
    with pytest.raises(PuzzleError, match="a Tatham game ID cannot hold this puzzle") as caught:
        format_game_id(puzzle)
    assert reason in caught.value.message


@st.composite
def tatham_puzzles(draw):
    """Puzzles a game ID can hold: 3x3 and up, islands apart, numbers 1..4K, any rules."""
    rows, cols = draw(st.integers(3, 30)), draw(st.integers(3, 30))
    max_bridges = draw(st.integers(1, 4))
    cells = draw(
        st.sets(
            st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)), min_size=2, max_size=40
        )
    )
    apart = set()
    for r, c in sorted(cells):
        if not {(r, c - 1), (r - 1, c)} & apart:
            apart.add((r, c))
    if len(apart) < 2:
        apart = {(0, 0), (rows - 1, cols - 1)}
    return Puzzle(
        rows,
        cols,
        {cell: draw(st.integers(1, 4 * max_bridges)) for cell in apart},
        rules=Rules(max_bridges=max_bridges, no_loops=draw(st.booleans())),
    )


@given(tatham_puzzles())
@settings(max_examples=200)
def test_write_then_read_gives_the_same_puzzle(puzzle):
    text = write(puzzle, "tatham")
    assert detect(text) == "tatham"
    assert parse(text) == puzzle and validate_game_id(text) is None


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "2.2\n...\n2.2\n",
            "a Tatham game ID is one line, WxH[mK][L]:DESCRIPTION; this text has 3",
        ),
        ("2.2", "'2.2' is not a Tatham game ID: expected WxH[mK][L]:DESCRIPTION"),
        ("10x10i30e10m2d2", "'10x10i30e10m2d2' is a Bridges generator setting, not a puzzle"),
    ],
)
def test_text_that_is_no_game_id_is_told_so_when_read_as_one(text, message):
    with pytest.raises(PuzzleError, match=re.escape(message)):
        parse(text, notation="tatham")
