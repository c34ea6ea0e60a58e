"""Readers and writers: good input parses to the right puzzle, bad input names what and where."""

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hashi_asp
from hashi_asp import Puzzle, PuzzleError
from hashi_asp.notations import NOTATIONS, detect, grid, has, parse, parse_solutions
from hashi_asp.notations.json import Laid, dumps
from hashi_asp.puzzle import MAX_CELLS

PROLOG = {(0, 0): 2, (0, 2): 1, (2, 0): 4, (2, 2): 3, (2, 4): 1, (4, 0): 3, (4, 4): 2}


def error(text: str, notation: str | None = None, **kwargs) -> PuzzleError:
    with pytest.raises(PuzzleError) as caught:
        parse(text, notation=notation, source="in", **kwargs)
    return caught.value


def where(e: PuzzleError) -> tuple:
    return e.line, e.column


# ---------------------------------------------------------------------------- .has


def test_has_reads_a_coelho_file(puzzles):
    path = puzzles / "coelho" / "Hs_16_100_25_00_001.has"
    puzzle = hashi_asp.read(path)
    assert (puzzle.rows, puzzle.cols, len(puzzle.islands)) == (16, 16, 100)
    assert puzzle.islands[0, 0] == 2 and puzzle.islands[0, 3] == 3 and (0, 1) not in puzzle.islands
    assert puzzle.islands[15, 15] == 2


@pytest.mark.parametrize(
    "text, message, position",
    [
        ("", "empty input", (None, None)),
        ("3 3\n1 0 1\n", "header must be 'ROWS COLS NISLANDS', found 2", (1, 4)),
        ("3 x 2\n", "COLS: expected an integer, found 'x'", (1, 3)),
        ("0 3 1\n", "rows and columns must be positive", (1, 1)),
        ("10000 10001 2\n", f"exceeds the limit of {MAX_CELLS} cells", (1, 1)),
        ("3 3 2\n1 0 1\n0 0 0\n", "header says 3 rows but the grid has 2", (1, 1)),
        ("1 3 2\n1 0 1\n0 0 0\n", "beyond the 1 rows the header declares", (3, 1)),
        ("2 3 2\n1 0 1\n0 0\n", "row 2 has 2 values; the header says 3 columns", (3, 4)),
        ("2 3 2\n1 0 1\n0 0 0 0\n", "row 2 has 4 values; the header says 3 columns", (3, 7)),
        ("1 3 2\n1 9 1\n", "island number 9 out of range 1..8", (2, 3)),
        ("1 3 2\n1 -1 1\n", "island number -1 out of range 1..8", (2, 3)),
        ("1 3 2\n1 . 1\n", "cell value: expected an integer, found '.'", (2, 3)),
        ("1 3 3\n1 0 1\n", "header says 3 islands but the grid has 2", (1, 5)),
        ("1 3 0\n0 0 0\n", "header says 0 islands; a puzzle needs at least one", (1, 5)),
        ("1 3 1\n" + "9" * 30 + " 0 0\n", "is too large", (2, 1)),
    ],
)
def test_has_errors(text, message, position):
    e = error(text, "has")
    assert message in e.message
    assert where(e) == position
    assert str(e).startswith("in:")


# ---------------------------------------------------------------------------- dot grid


def test_grid_reads_the_prolog_report_notation(puzzles):
    puzzle = hashi_asp.read(puzzles / "prolog-5x5.txt")
    assert (puzzle.rows, puzzle.cols) == (5, 5)
    assert puzzle.islands == PROLOG


@pytest.mark.parametrize(
    "text",
    [
        "2.1..\n.....\n4.3.1\n.....\n3...2\n",  # no header, no spaces
        "5 5\n2.1..\n.....\n4.3.1\n.....\n3...2\n",  # header, no spaces
        "2 0 1 0 0\n0 0 0 0 0\n4 0 3 0 1\n0 0 0 0 0\n3 0 0 0 2",  # zeros for water, no header
        "\n  2 . 1 . .\n. . . . .\n\n4 . 3 . 1\n. . . . .\n3 . . . 2   \n\n",  # blank lines, indent
    ],
)
def test_grid_variants_read_the_same_puzzle(text):
    assert parse(text, notation="grid").islands == PROLOG


@pytest.mark.parametrize(
    "text, message, position",
    [
        ("", "empty input", (None, None)),
        ("2.1\n.x.\n", "unexpected character 'x'", (2, 2)),
        ("2 . 1\n. ab .\n", "unexpected token 'ab'", (2, 3)),
        ("2.1\n...\n1.\n", "row 3 has 2 cells but row 1 has 3", (3, 3)),
        ("2.1\n....\n", "row 2 has 4 cells but row 1 has 3", (2, 4)),
        ("3 3\n2.1\n...\n", "header says 3 rows but the grid has 2", (1, 1)),
        ("2 4\n2.1\n..1\n", "header says 4 columns but the rows have 3", (1, 3)),
        ("2.9\n...\n", "island number 9 out of range 1..8", (1, 3)),
        ("2 . 12\n", "island number 12 out of range 1..8", (1, 5)),
        ("...\n...\n", "no islands", (None, None)),
        ("0 5\n.\n", "rows and columns must be positive", (1, 1)),
    ],
)
def test_grid_errors(text, message, position):
    e = error(text, "grid")
    assert message in e.message
    assert where(e) == position


def test_grid_numbers_follow_max_bridges():
    assert parse("2 . 12\n", notation="grid", max_bridges=3).islands == {(0, 0): 2, (0, 2): 12}


# ---------------------------------------------------------------------------- JSON


def test_json_object():
    puzzle = parse('{"rows": 3, "cols": 4, "islands": [[0, 0, 1], [0, 3, 1]]}')
    assert (puzzle.rows, puzzle.cols, puzzle.islands) == (3, 4, {(0, 0): 1, (0, 3): 1})


def test_json_object_infers_the_size_when_not_given():
    puzzle = parse('{"islands": [[0, 0, 1], [2, 3, 1]]}')
    assert (puzzle.rows, puzzle.cols) == (3, 4)


def test_json_reads_the_puzzle_inside_a_solve_output():
    text = json.dumps(
        {"status": "solved", "puzzle": {"rows": 1, "cols": 3, "islands": [[0, 0, 1], [0, 2, 1]]}}
    )
    assert parse(text).islands == {(0, 0): 1, (0, 2): 1}


def test_coordinate_list_maps_distinct_values_to_rows_and_columns(puzzles):
    puzzle = hashi_asp.read(puzzles / "nyt-2022-04-03.json")
    # x = 0, 1/3, 2/3, 1 are columns 0..3; y = 1, 2/3, 1/3, 0 are rows 0..3 (y up).
    assert (puzzle.rows, puzzle.cols) == (4, 4)
    assert puzzle.islands == {
        (0, 0): 3,
        (0, 3): 2,
        (1, 1): 1,
        (1, 2): 2,
        (2, 3): 1,
        (3, 0): 4,
        (3, 2): 3,
    }


@pytest.mark.parametrize(
    "text, message, position",
    [
        ('{"rows": 3, "islands": [[0, 0, 1]', "invalid JSON", (1, 34)),
        ('{"rows": 3}', "no 'islands' list", (1, 1)),
        ('{"islands": 5}', "'islands' must be a list", (1, 13)),
        ('{"rows": "3", "islands": [[0, 0, 1]]}', "'rows' must be a positive integer", (1, 10)),
        ('{"rows": true, "islands": [[0, 0, 1]]}', "'rows' must be a positive integer", (1, 10)),
        ('{"islands": [[0, 0, 1],\n  [1, 1]]}', "islands[1]: expected [row, col, number]", (2, 3)),
        (
            '{"rows": 2, "islands": [[0, 0, 1], [2, 0, 1]]}',
            "islands[1]: row 2 outside the grid (0..1)",
            (1, 36),
        ),
        ('{"islands": [[0, -1, 1]]}', "islands[0]: col -1 outside the grid", (1, 14)),
        (
            '{"islands": [[0, 0, 1], [0, 0, 2]]}',
            "second island on cell (0, 0), first at islands[0]",
            (1, 25),
        ),
        ('{"islands": [[0, 0, 9]]}', "islands[0]: island number 9 out of range 1..8", (1, 14)),
        ('{"islands": []}', "no islands", (1, 13)),
        ('{"rows": 100000, "cols": 100000, "islands": [[0, 0, 1]]}', "exceeds the limit", (1, 1)),
        ('"hello"', "expected a JSON object", (1, 1)),
        ("[[[0, 0], 1], [[0, 0], 2]]", "entry 1: second island at (0, 0)", (1, 15)),
        ("[[[0, 0], 1], [0, 2]]", "entry 1: expected [[x, y], number]", (1, 15)),
        ("[[[0, NaN], 1]]", "expected [[x, y], number] with finite x and y", (1, 2)),
        ("[[[0, 0], 10]]", "entry 0: island number 10 out of range", (1, 2)),
        ("[]", "no islands", (1, 1)),
        ("[" * 100000, "invalid JSON", (None, None)),
    ],
)
def test_json_errors(text, message, position):
    e = error(text, "json")
    assert message in e.message
    assert where(e) == position


def test_json_refuses_a_repeated_key_where_it_repeats():
    """json.loads would keep the last value: a puzzle other than the one written."""
    e = error('{"rows": 3, "cols": 3,\n "rows": 2, "islands": [[0, 0, 1], [0, 2, 1]]}', "json")
    assert e.message == 'invalid JSON: duplicate key "rows" (first at line 1, column 2)'
    assert where(e) == (2, 2)
    # The same key however it is written, inside the output of `solve --format json`.
    text = (
        '{"puzzle": {"islands": [[0, 0, 2], [0, 2, 2]], "max_bridges": 1, "max_\\u0062ridges": 3}}'
    )
    e = error(text, "json")
    assert e.message.startswith('invalid JSON: duplicate key "max_\\u0062ridges" (first at line 1')
    assert where(e) == (1, text.index('"max_\\u0062') + 1)
    # A value with a key's text, or a key's text inside a string, is no key; the first repeat
    # in reading order is the one named, inner objects included.
    text = '{"a": "rows", "s": "\\"rows\\": 1,", "rows": 3, "b": {"c": 1, "c": 2}, "rows": 4}'
    e = error(text, "json")
    assert e.message.startswith('invalid JSON: duplicate key "c"')
    assert where(e) == (1, text.rindex('"c"') + 1)


def test_a_solution_document_with_a_repeated_key_is_refused():
    with pytest.raises(PuzzleError, match='duplicate key "bridges"') as caught:
        parse_solutions('{"bridges": [[0, 0, 0, 2, 1]],\n  "bridges": []}')
    assert where(caught.value) == (2, 3)
    text = '{"solutions": [{"bridges": [], "k": 1, "k": 2}]}'
    with pytest.raises(PuzzleError, match='duplicate key "k"') as caught:
        parse_solutions(text)
    assert where(caught.value) == (1, text.rindex('"k"') + 1)


# ---------------------------------------------------------------------------- detection, files


@pytest.mark.parametrize(
    "text, name, notation",
    [
        ("1 3 2\n1 0 1\n", "x.txt", "has"),
        ("2 3\n1.1\n...\n", "x.txt", "grid"),
        ("1 0 1\n0 0 0\n1 0 1\n", "x.txt", "grid"),  # three integers, but not a header
        ("1 0 1\n", "x.has", "has"),
        ('{"islands": []}', "x", "json"),
        ("[[[0,0],1]]", "", "json"),
        ("2.1\n", "x.json", "json"),  # the extension wins
    ],
)
def test_detect(text, name, notation):
    assert detect(text, name) == notation


def test_read_takes_text_as_well_as_paths():
    assert hashi_asp.read("2.1..\n.....\n4.3.1\n.....\n3...2\n").islands == PROLOG


@pytest.mark.parametrize(
    "content, message",
    [
        (b"\xff\xfe2\x00.\x001\x00", "file is UTF-16"),
        (b"2.1\n.\xe9.\n", "not UTF-8 text (byte 0xe9)"),
        (b"2.1\n.\x00.\n", "NUL byte"),
    ],
)
def test_read_rejects_binary_and_foreign_encodings(tmp_path, content, message):
    path = tmp_path / "bad.txt"
    path.write_bytes(content)
    with pytest.raises(PuzzleError, match=re.escape(message)) as caught:
        hashi_asp.read(path)
    assert caught.value.source == str(path)


def test_read_accepts_a_utf8_byte_order_mark(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf2.1\n...\n1.2\n")
    assert hashi_asp.read(path).islands == {(0, 0): 2, (0, 2): 1, (2, 0): 1, (2, 2): 2}


def test_read_missing_file_and_directory(tmp_path):
    with pytest.raises(PuzzleError, match="no such file"):
        hashi_asp.read(tmp_path / "missing.has")
    with pytest.raises(PuzzleError, match="is a directory"):
        hashi_asp.read(tmp_path)


def test_puzzle_constructor_validates():
    with pytest.raises(PuzzleError, match="outside the 2x2 grid"):
        Puzzle(2, 2, {(2, 0): 1})
    with pytest.raises(PuzzleError, match="no islands"):
        Puzzle(2, 2, {})
    with pytest.raises(PuzzleError, match="numbers start at 1"):
        Puzzle(2, 2, {(0, 0): 0})


# ---------------------------------------------------------------------------- solutions


def test_parse_solutions_accepts_three_shapes():
    bridges = [[0, 0, 0, 2, 1], [2, 0, 0, 0, 2]]  # ends in any order
    for text in (
        json.dumps(bridges),
        json.dumps({"bridges": bridges}),
        json.dumps({"solutions": [{"bridges": bridges}, {"bridges": []}]}),
    ):
        solutions = parse_solutions(text)
        assert [tuple(b) for b in solutions[0].bridges] == [(0, 0, 0, 2, 1), (0, 0, 2, 0, 2)]


def test_parse_solutions_locates_a_bad_bridge():
    with pytest.raises(
        PuzzleError, match=r"bridge 1: expected \[r1, c1, r2, c2, count\]"
    ) as caught:
        parse_solutions('{"bridges": [[0, 0, 0, 2, 1],\n  [0, 0, 1]]}')
    assert where(caught.value) == (2, 3)


# ---------------------------------------------------------------------------- round trips


@st.composite
def puzzles_of_any_shape(draw):
    rows, cols = draw(st.integers(1, 12)), draw(st.integers(1, 12))
    cells = draw(
        st.sets(
            st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)),
            min_size=1,
            max_size=rows * cols,
        )
    )
    return Puzzle(rows, cols, {cell: draw(st.integers(1, 8)) for cell in cells})


# Every notation that holds any grid of numbered islands under the standard rules (a Tatham ID
# needs 3x3 and water between islands: tests/test_tatham.py has its own round trip).
@given(puzzles_of_any_shape(), st.sampled_from(["grid", "has", "json", "puzzlink", "pzprv3"]))
@settings(max_examples=200)
def test_write_then_read_gives_the_same_puzzle(puzzle, notation):
    text = NOTATIONS[notation].write(puzzle)
    assert parse(text, notation=notation) == puzzle
    assert detect(text) == notation or notation == "grid"  # a written grid may look like .has
    assert (
        parse(text, source="p" + {"has": ".has", "json": ".json"}.get(notation, ".txt")) == puzzle
    )


def test_writers_produce_the_documented_text():
    puzzle = Puzzle(2, 3, {(0, 0): 1, (1, 2): 8})
    assert has.write(puzzle) == "2 3 2\n 1  0  0\n 0  0  8\n"
    assert grid.write(puzzle) == "2 3\n1 . .\n. . 8\n"


def joined_the_old_way(document) -> str:
    """``json.dumps(indent=2)`` with each list of integers joined onto one line again: the
    layout ``dumps`` gives, the slow way it was first made."""
    import re

    text = json.dumps(document, indent=2)
    return re.sub(
        r"\[\s*(-?\d+(?:,\s*-?\d+)*)\s*\]",
        lambda m: "[" + re.sub(r"\s+", "", m.group(1)).replace(",", ", ") + "]",
        text,
    )


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=5), inner, max_size=5)
    ),
    max_leaves=30,
)


@given(JSON_VALUES.filter(lambda value: isinstance(value, (dict, list))))
def test_dumps_lays_out_a_document_as_indented_json_with_integer_lists_on_one_line(document):
    assert dumps(document) == joined_the_old_way(document)
    assert json.loads(dumps(document)) == document


@given(
    st.lists(st.dictionaries(st.text(max_size=5), JSON_VALUES, max_size=4), max_size=4),
    st.integers(0, 3),
)
def test_an_object_laid_out_when_it_was_made_is_written_as_if_laid_out_with_the_rest(items, depth):
    """What solve -n 0 lays out as it finds each solution reads as the document made at once."""
    document: object = items
    laid: object = [Laid(item) for item in items]
    for _ in range(depth):
        document, laid = {"in": document}, {"in": laid}
    assert dumps(laid) == dumps(document)
    assert json.loads(dumps(laid)) == document
