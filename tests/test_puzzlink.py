"""puzz.link URLs and pzprv3 files: the example URL, pzprjs's own answer file for it, every URL
form, round trips, and every malformed URL or file named with its position."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hashi_asp import (
    Puzzle,
    PuzzleError,
    Rules,
    Solution,
    bridge,
    check,
    draw,
    read,
    read_solutions,
    solve,
)
from hashi_asp.notations import detect, parse, parse_solutions, write
from hashi_asp.notations.puzzlink import (
    format_pzprv3,
    format_url,
    is_url,
    validate_pzprv3,
    validate_url,
)

EXAMPLE = "https://puzz.link/p?hashikake/5/5/4g2i3h23k3g1g3g4g3"
EXAMPLE_GRID = "4 . 2 . .\n. 3 . . 2\n3 . . . .\n. 3 . 1 .\n3 . 4 . 3"

# pzprjs's own test of this puzzle (robx/pzprjs, test/script/hashikake.js) gives the answer the
# editor accepts as correct, as a pzprv3 file with '/' for line breaks.  The -1 values are the
# player's "no bridge here" marks.
PZPRJS_ANSWER = (
    "pzprv3/hashikake/5/5/4 . 2 . . /. 3 . . 2 /3 . . . . /. 3 . 1 . /3 . 4 . 3 /"
    "2 2 0 0 /0 1 1 1 /-1 0 -1 -1 /0 1 1 -1 /2 2 2 2 /"
    "2 0 0 0 0 /2 2 0 0 1 /1 2 0 -1 1 /1 0 0 -1 1 /"
)


def test_the_example_url_decodes_to_the_5x5_puzzle():
    puzzle = read(EXAMPLE)
    assert (puzzle.rows, puzzle.cols) == (5, 5)
    assert draw(puzzle) == EXAMPLE_GRID


def test_the_example_has_a_unique_solution_the_one_pzprjs_accepts():
    puzzle = read(EXAMPLE)
    result = solve(puzzle, models=0)
    assert (result.status, len(result.solutions)) == ("unique", 1)
    assert result.solutions[0] == parse_solutions(PZPRJS_ANSWER)[0]
    assert check(puzzle, parse_solutions(PZPRJS_ANSWER)[0]) == []


def test_the_pzprv3_answer_is_the_file_pzprjs_writes():
    puzzle = read(EXAMPLE)
    written = format_pzprv3(puzzle, solve(puzzle).solutions[0])
    # Without the player's "no bridge" marks, pzprjs's answer file is exactly ours.
    expected = PZPRJS_ANSWER.replace("/", "\n").replace("-1 ", "0 ")
    assert written == expected
    assert parse(written) == puzzle and detect(written) == "pzprv3"


def test_writing_the_example_gives_the_example_url_back():
    assert write(read(EXAMPLE), "puzzlink") == EXAMPLE + "\n"


@pytest.mark.parametrize(
    "url",
    [
        EXAMPLE,
        "https://puzz.link/p?hashi/5/5/4g2i3h23k3g1g3g4g3",
        "https://puzz.link/p?bridges/5/5/4g2i3h23k3g1g3g4g3",
        "http://pzv.jp/p.html?hashikake/5/5/4g2i3h23k3g1g3g4g3",
        "puzz.link/p?hashikake/5/5/4g2i3h23k3g1g3g4g3",
        "hashikake/5/5/4g2i3h23k3g1g3g4g3",
        "hashi/5/5/4g2i3h23k3g1g3g4g3",
        "hashikake/5/5/4g2i3h23k3g1g3g4g3/",
        "  https://puzz.link/p?hashikake/5/5/4g2i3h23k3g1g3g4g3\n",
    ],
)
def test_every_url_form_reads_the_same_puzzle(url):
    assert is_url(url) and detect(url) == "puzzlink"
    assert parse(url) == read(EXAMPLE)


def test_long_numbers_unnumbered_islands_and_long_water_runs():
    puzzle = parse("hashikake/23/1/.z2-0c", max_bridges=4)
    assert puzzle.islands == {(0, 0): None, (0, 21): 2, (0, 22): 12}
    puzzle = parse("hashikake/3/1/-10g1", max_bridges=4)
    assert puzzle.islands == {(0, 0): 16, (0, 2): 1}


@pytest.mark.parametrize(
    "url, message, column",
    [
        ("https://puzz.link/list.html", "URL has no '?'", 1),
        ("https://puzz.link/p?nurikabe/5/5/abc", "puzz.link type 'nurikabe' is not Hashi", 21),
        ("hashikake/5", "expected COLS/ROWS/BODY after 'hashikake/'", 12),
        ("hashikake/5/0/g", "ROWS: expected a positive integer, found '0'", 13),
        ("hashikake/x5/5/g", "expected COLS/ROWS/BODY", 17),
        ("hashikake/5/5/4g2i3h23k3g1g3g4g3/x", "unexpected '/' after the body", 33),
        ("hashikake/5000/5000/g", "exceeds the limit", 11),
        ("hashikake/3/1/1g", "body describes 2 of the 3x1 = 3 cells", 17),
        ("hashikake/3/1/1g11", "body runs past the last of the 3x1 = 3 cells at '1'", 18),
        ("hashikake/3/1/1i", "last water run goes 1 cell(s) past the end", 16),
        ("hashikake/3/1/1g9", "island number 9 at (0, 2) out of range 1..8", 17),
        ("hashikake/3/1/1g0", "island number 0 at (0, 2) out of range 1..8", 17),
        ("hashikake/3/1/1g-1", "'-' must be followed by 2 hexadecimal digits, found '1'", 17),
        ("hashikake/3/1/1g=001", "island number 4097 at (0, 2) out of range 1..8", 17),
        ("hashikake/3/1/1g#", "unexpected character '#' in the body", 17),
        ("hashikake/2/1/h", "puzzle has no islands", 15),
    ],
)
def test_malformed_urls_are_named_with_their_column(url, message, column):
    problem = validate_url(url)
    assert problem is not None and message in problem.message and problem.column == column
    assert problem.line == 1
    with pytest.raises(PuzzleError) as caught:
        parse(url, notation="puzzlink", source="<arg>")
    assert message in caught.value.message
    assert (caught.value.line, caught.value.column) == (1, column)


def test_a_url_with_an_option_flag_reads_the_same():
    assert parse("https://puzz.link/p?hashikake/v:/5/5/4g2i3h23k3g1g3g4g3") == read(EXAMPLE)


@pytest.mark.parametrize(
    "puzzle, message",
    [
        (Puzzle(1, 3, {(0, 0): 9, (0, 2): 1}, rules=Rules(max_bridges=3)), "rules (max_bridges=3)"),
        (
            Puzzle(1, 3, {(0, 0): 1, (0, 2): 1}, rules=Rules(no_loops=True)),
            "rules (max_bridges=2, no loops)",
        ),
        (Puzzle(1, 3, {(0, 0): 9, (0, 2): 1}), "cannot hold island number 9 at (0, 0)"),
    ],
)
def test_the_writers_refuse_what_puzz_link_cannot_pose(puzzle, message):
    for writer in (format_url, format_pzprv3):
        with pytest.raises(PuzzleError, match=message.replace("(", r"\(").replace(")", r"\)")):
            writer(puzzle)


# ---------------------------------------------------------------------------- pzprv3


def test_pzprv3_with_one_row_or_one_column():
    row = Puzzle(1, 3, {(0, 0): 1, (0, 2): 1})
    text = format_pzprv3(row, Solution.of([bridge((0, 0), (0, 2), 1)]))
    assert text == "pzprv3\nhashikake\n1\n3\n1 . 1 \n1 1 \n"
    column = Puzzle(3, 1, {(0, 0): 1, (2, 0): None})
    text = format_pzprv3(column, Solution.of([bridge((0, 0), (2, 0), 1)]))
    assert text == "pzprv3\nhashikake\n3\n1\n1 \n. \n- \n\n\n\n1 \n1 \n"
    assert parse(text) == column
    assert parse_solutions(text)[0].bridges == (bridge((0, 0), (2, 0), 1),)


@pytest.mark.parametrize(
    "text, message, position",
    [
        ("pzprv2\nhashikake\n", "expected the header 'pzprv3'", (1, 1)),
        ("pzprv3\nnurikabe\n", "pzprv3 type 'nurikabe' is not Hashi", (2, 1)),
        ("pzprv3\nhashikake\n1\n", "file ends before COLS", (None, None)),
        ("pzprv3\nhashikake\n1\nx\n", "COLS: expected a positive integer", (4, 1)),
        ("pzprv3\nhashikake\n1\n3\n1 . \n", "cell row 1 has 2 values, expected 3", (5, 1)),
        ("pzprv3\nhashikake\n1\n3\n1 . 9 \n", "unexpected cell '9'", (5, 5)),
        ("pzprv3\nhashikake\n1\n3\n1 . 1 \n1 2 \n", "changes its count at (0, 1)", (6, 3)),
        (
            "pzprv3\nhashikake\n1\n3\n1 . . \n1 0 \n",
            "line between (0, 0) and (0, 1) does not join",
            (6, 1),
        ),
        ("pzprv3\nhashikake\n1\n3\n1 . 1 \n1 x \n", "unexpected line value 'x'", (6, 3)),
        ("pzprv3/hashikake/1/3/1 . 1 /1 x /", "unexpected line value 'x'", (1, 31)),
        (
            "pzprv3\nhashikake\n2\n3\n1 . 1 \n. . . \n1 1 \n",
            "file ends before horizontal line row 2 of 2",
            (None, None),
        ),
    ],
)
def test_malformed_pzprv3_files_are_named_with_line_and_column(text, message, position):
    problem = validate_pzprv3(text)
    assert problem is not None and message in problem.message
    assert (problem.line, problem.column) == position
    with pytest.raises(PuzzleError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse(text, notation="pzprv3")


def test_a_pzprv3_file_without_line_data_is_a_puzzle_without_bridges():
    text = "pzprv3\nhashikake\n1\n3\n1 . 1 \n"
    assert parse(text).islands == {(0, 0): 1, (0, 2): 1}
    assert parse_solutions(text)[0].bridges == ()


def test_pzprv3_answers_are_read_as_solutions(tmp_path):
    path = tmp_path / "answer.txt"
    path.write_text(PZPRJS_ANSWER.replace("/", "\n"))
    assert read(path) == read(EXAMPLE)
    assert read_solutions(path)[0] == solve(read(EXAMPLE)).solutions[0]


# ---------------------------------------------------------------------------- round trips


@st.composite
def puzzles_with_unnumbered_islands(draw):
    rows, cols = draw(st.integers(1, 15)), draw(st.integers(1, 15))
    cells = draw(
        st.sets(
            st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)),
            min_size=1,
            max_size=rows * cols,
        )
    )
    return Puzzle(
        rows, cols, {cell: draw(st.one_of(st.none(), st.integers(1, 8))) for cell in cells}
    )


@st.composite
def solved_layouts(draw):
    """A puzzle made from random non-crossing bridges, with those bridges as its solution."""
    rows, cols = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    cells = draw(
        st.sets(
            st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)),
            min_size=1,
            max_size=rows * cols,
        )
    )
    bridges, used = [], set()
    for a in sorted(cells):
        for step in ((0, 1), (1, 0)):
            b = (a[0] + step[0], a[1] + step[1])
            while b not in cells and b[0] < rows and b[1] < cols:
                b = (b[0] + step[0], b[1] + step[1])
            between = {
                (a[0] + k * step[0], a[1] + k * step[1])
                for k in range(1, max(b[0] - a[0], b[1] - a[1]))
            }
            count = draw(st.integers(0, 2))
            if b in cells and count and not between & used:
                used |= between
                bridges.append(bridge(a, b, count))
    degree = dict.fromkeys(cells, 0)
    for b in bridges:
        for end in b.ends:
            degree[end] += b.count
    islands = {cell: degree[cell] or None for cell in cells}
    return Puzzle(rows, cols, islands), Solution.of(bridges)


@given(puzzles_with_unnumbered_islands(), st.sampled_from(["puzzlink", "pzprv3", "grid", "json"]))
@settings(max_examples=200)
def test_unnumbered_islands_survive_write_then_read(puzzle, notation):
    text = write(puzzle, notation)
    assert parse(text, notation=notation) == puzzle
    assert parse(text) == puzzle


@given(solved_layouts())
@settings(max_examples=200)
def test_pzprv3_lines_survive_write_then_read(case):
    puzzle, solution = case
    text = format_pzprv3(puzzle, solution)
    assert validate_pzprv3(text) is None
    assert parse(text) == puzzle
    assert parse_solutions(text) == [solution]
