"""The variants a puzzle can carry (islands without a number, at most K bridges, no loops):
the solver agrees with the brute-force enumerator under each, the checker names what breaks
them, the rules travel with the puzzle, and the command line takes puzzles as arguments."""

import json
import subprocess
import sys

import bruteforce
import pytest
from click.testing import CliRunner
from conftest import PUZZLES, REPO, run
from hypothesis import given, settings
from hypothesis import strategies as st

from hashi_asp import Puzzle, PuzzleError, Rules, Solution, bridge, check, facts, parse, read, solve
from hashi_asp.cli import main
from hashi_asp.notations import write

EXAMPLE = "https://puzz.link/p?hashikake/5/5/4g2i3h23k3g1g3g4g3"
TATHAM_L = "7x7m2L:4b4b3e2b2r2a3a4a4a4a3c1"


def as_sets(solutions) -> set:
    return {frozenset(tuple(b) for b in s.bridges) for s in solutions}


# ---------------------------------------------------------------------------- against brute force


@st.composite
def variant_puzzles(draw):
    """Small puzzles under random rules, numbered from a random layout of 0..K bridges per pair
    (so that many are solvable), with some islands' numbers left out."""
    rows, cols = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    cells = draw(
        st.sets(
            st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)),
            min_size=1,
            max_size=min(7, rows * cols),
        )
    )
    max_bridges = draw(st.integers(1, 3))
    degree = dict.fromkeys(cells, 0)
    used: set = set()
    for a, b in draw(st.permutations(bruteforce.neighbour_pairs(rows, cols, degree))):
        k = draw(st.integers(0, max_bridges))
        between = bruteforce._between(a, b)
        if k and not between & used:
            used |= between
            degree[a] += k
            degree[b] += k
    islands = {
        cell: None
        if draw(st.integers(0, 3)) == 0
        else degree[cell] or draw(st.integers(1, 4 * max_bridges))
        for cell in sorted(cells)
    }
    return Puzzle(rows, cols, islands, rules=Rules(max_bridges, draw(st.booleans())))


@given(variant_puzzles())
@settings(max_examples=300, deadline=None)
def test_enumeration_agrees_with_brute_force_under_every_variant(puzzle):
    result = solve(puzzle, models=0)
    expected = bruteforce.solutions_of(puzzle)
    assert result.exhausted and as_sets(result.solutions) == expected


# ---------------------------------------------------------------------------- the checker


def test_an_island_without_a_number_needs_a_bridge():
    puzzle = Puzzle(1, 3, {(0, 0): None, (0, 2): None})
    assert [v.rule for v in check(puzzle, Solution.of([]))] == [
        "island-count",
        "island-count",
        "disconnected",
    ]
    assert (
        "island (0, 0) without a number has no bridge" in check(puzzle, Solution.of([]))[0].message
    )
    for k in (1, 2):
        assert check(puzzle, Solution.of([bridge((0, 0), (0, 2), k)])) == []


def test_a_loop_is_named_by_the_islands_on_it():
    square = Puzzle(
        3, 3, {(0, 0): 2, (0, 2): 2, (2, 0): 2, (2, 2): 2, (1, 1): None}, rules=Rules(no_loops=True)
    )
    ring = Solution.of(
        [
            bridge((0, 0), (0, 2), 1),
            bridge((0, 2), (2, 2), 1),
            bridge((2, 2), (2, 0), 1),
            bridge((2, 0), (0, 0), 1),
        ]
    )
    violations = check(square, ring)
    loop = next(v for v in violations if v.rule == "loop")
    assert set(loop.cells) == {(0, 0), (0, 2), (2, 0), (2, 2)}
    assert loop.message.startswith("loop: the bridges form a cycle through 4 islands: ")
    assert not any(v.rule == "loop" for v in check(square.with_rules(no_loops=False), ring))


def test_a_double_bridge_is_not_a_loop():
    pair = Puzzle(1, 3, {(0, 0): 2, (0, 2): 2}, rules=Rules(no_loops=True))
    assert check(pair, Solution.of([bridge((0, 0), (0, 2), 2)])) == []


def test_the_checker_follows_the_puzzles_rules():
    triple = Puzzle(1, 2, {(0, 0): 3, (0, 1): 3}, rules=Rules(max_bridges=3))
    answer = Solution.of([bridge((0, 0), (0, 1), 3)])
    assert check(triple, answer) == []
    assert [v.rule for v in check(triple.with_rules(max_bridges=2), answer)] == ["bridge-count"]


# ---------------------------------------------------------------------------- the rules travel


def test_solve_follows_the_puzzles_rules():
    pair = Puzzle(1, 2, {(0, 0): 3, (0, 1): 3}, rules=Rules(max_bridges=3))
    assert solve(pair, 0).status == "unique"
    assert solve(pair.with_rules(max_bridges=2), 0).status == "unsolvable"
    ring = Puzzle(3, 3, {(0, 0): 2, (0, 2): 2, (2, 0): 2, (2, 2): 2})
    assert solve(ring, 0).status == "unique"  # the ring (two doubles are disconnected)
    assert solve(ring.with_rules(no_loops=True), 0).status == "unsolvable"


def test_facts_say_how_to_run_plain_clingo_with_the_rules(tmp_path):
    puzzle = read(TATHAM_L)
    text = facts(puzzle)
    assert "% rules: max_bridges=2, no loops; run clingo with -c no_loops=1\n" in text
    unnumbered = facts(parse("?.1\n"))
    assert "island(0,0,any)." in unnumbered and "% rules" not in unnumbered
    # Plain clingo with the options the comment gives finds what the tool finds.
    path = tmp_path / "facts.lp"
    path.write_text(text)
    clingo = subprocess.run(
        [
            sys.executable,
            "-m",
            "clingo",
            REPO / "encodings" / "hashi.lp",
            path,
            "-c",
            "no_loops=1",
            "0",
            "--outf=2",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert json.loads(clingo.stdout)["Models"]["Number"] == 1


def test_json_holds_the_rules_and_unnumbered_islands():
    puzzle = Puzzle(3, 4, {(0, 0): None, (0, 3): 12, (2, 0): 1}, rules=Rules(3, True))
    text = write(puzzle, "json")
    assert '"max_bridges": 3' in text and '"no_loops": true' in text and "[0, 0, null]" in text
    assert parse(text) == puzzle
    assert parse("[[[0, 0], null], [[1, 0], 1]]").islands == {(0, 0): None, (0, 1): 1}
    with pytest.raises(PuzzleError, match="'max_bridges' must be an integer from 1 to 64"):
        parse('{"max_bridges": 0, "islands": [[0, 0, 1]]}')
    with pytest.raises(PuzzleError, match=r"island number 13 out of range 1\.\.12"):
        parse('{"max_bridges": 3, "islands": [[0, 0, 13]]}')


def test_the_dot_grid_reads_and_writes_question_marks():
    puzzle = parse("2 ? 1\n")
    assert puzzle.islands == {(0, 0): 2, (0, 1): None, (0, 2): 1}
    assert write(puzzle, "grid") == "1 3\n2 ? 1\n"


@pytest.mark.parametrize(
    "puzzle, notation, message",
    [
        (
            Puzzle(1, 3, {(0, 0): None, (0, 2): 1}),
            "has",
            "the .has notation cannot hold an island without a number (at (0, 0))",
        ),
        (
            Puzzle(1, 3, {(0, 0): 1, (0, 2): 1}, rules=Rules(max_bridges=3)),
            "has",
            "the .has notation cannot record this puzzle's rules (max_bridges=3)",
        ),
        (
            Puzzle(1, 3, {(0, 0): 1, (0, 2): 1}, rules=Rules(no_loops=True)),
            "grid",
            "the dot grid cannot record this puzzle's rules (max_bridges=2, no loops)",
        ),
    ],
)
def test_notations_refuse_what_they_cannot_hold(puzzle, notation, message):
    with pytest.raises(PuzzleError) as caught:
        write(puzzle, notation)
    assert message in caught.value.message


# ---------------------------------------------------------------------------- the command line


def test_solve_takes_a_url_or_a_game_id_as_the_argument():
    result = run("solve", EXAMPLE, "-n", "0")
    assert result.exit_code == 0
    assert result.stdout.startswith('Solution 1:\n4===2 . .\n" 3-----2\n')
    assert result.stdout.strip().endswith("unique: 1 solution; search exhausted")
    result = run("solve", TATHAM_L, "-n", "0", "--format", "json")
    document = json.loads(result.stdout)
    assert document["status"] == "unique" and document["puzzle"]["no_loops"] is True


def test_rule_options_override_the_puzzles_rules():
    assert (
        run("solve", "-", "-n", "0", input="22\n22\n")
        .stdout.strip()
        .endswith("unique: 1 solution; search exhausted")
    )
    assert run("solve", "-", "-n", "0", "--no-loops", input="22\n22\n").exit_code == 1
    assert run("solve", "-", "-n", "0", "-c", "no_loops=1", input="22\n22\n").exit_code == 1
    # An L puzzle solved with --loops: loops are allowed again.
    assert (
        json.loads(run("solve", TATHAM_L, "--loops", "--format", "json").stdout)["puzzle"].get(
            "no_loops"
        )
        is None
    )
    assert run("solve", "-", "-c", "no_loops=2", input="22\n22\n").exit_code == 2


def test_check_and_facts_use_the_puzzles_rules(tmp_path):
    ring = tmp_path / "ring.json"
    ring.write_text(
        json.dumps(
            {"bridges": [[0, 0, 0, 1, 1], [0, 0, 1, 0, 1], [0, 1, 1, 1, 1], [1, 0, 1, 1, 1]]}
        )
    )
    grid = "22\n22\n"
    assert run("check", "-", ring, input=grid).exit_code == 0
    result = run("check", "-", ring, "--no-loops", input=grid)
    assert (
        result.exit_code == 1
        and "loop: the bridges form a cycle through 4 islands" in result.stdout
    )
    assert "-c no_loops=1" in run("facts", TATHAM_L).stdout
    assert "-c max_bridges=3" in run("facts", "-", "--max-bridges", "3", input=grid).stdout


@pytest.mark.parametrize(
    "argument, message",
    [
        ("missing.txt", "hashi-asp: missing.txt: no such file"),
        (
            "10x10i30e10m2d2",
            "hashi-asp: <text>:1:1: '10x10i30e10m2d2' is a Bridges generator setting",
        ),
        ("https://puzz.link/p?nurikabe/3/3/g", "hashi-asp: <text>:1:21: puzz.link type 'nurikabe'"),
    ],
)
def test_bad_arguments_are_one_line_with_exit_2(argument, message):
    result = run("solve", argument)
    assert result.exit_code == 2 and result.stderr.startswith(message)
    assert result.stderr.count("\n") == 1


def test_a_file_named_like_a_game_id_is_read_as_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "3x3:1a1f").write_text("2.2\n...\n2.2\n")
    assert run("solve", "3x3:1a1f").stdout.startswith("2---2\n| . |\n2---2")


# ---------------------------------------------------------------------------- convert


@pytest.mark.parametrize(
    "target, expected",
    [
        ("puzzlink", EXAMPLE + "\n"),
        ("txt", "5 5\n4 . 2 . .\n. 3 . . 2\n3 . . . .\n. 3 . 1 .\n3 . 4 . 3\n"),
        ("has", "5 5 10\n"),
        ("tatham", "5x5m2:4a2c3b23e3a1a3a4a3\n"),
        ("pzprv3", "pzprv3\nhashikake\n5\n5\n4 . 2 . . \n"),
    ],
)
def test_convert_writes_each_notation(target, expected):
    result = run("convert", EXAMPLE, "--to", target)
    assert result.exit_code == 0 and result.stdout.startswith(expected)
    assert read(result.stdout if "\n" in result.stdout.strip() else result.stdout.strip()) == read(
        EXAMPLE
    )


def test_convert_keeps_the_rules_where_the_notation_can(tmp_path):
    out = tmp_path / "p.json"
    assert run("convert", TATHAM_L, "--to", "json", "-o", out).exit_code == 0
    assert read(out) == read(TATHAM_L)
    assert run("convert", out, "--to", "tatham").stdout == TATHAM_L + "\n"
    result = run("convert", TATHAM_L, "--to", "has")
    assert result.exit_code == 2 and "cannot record this puzzle's rules" in result.stderr
    result = run("convert", "-", "--to", "tatham", input="2.2\n")
    assert result.exit_code == 2 and "Bridges needs at least 3x3" in result.stderr
    result = run("convert", "-", "--to", "tatham", "--max-bridges", "3", input="3.3\n...\n3.3\n")
    assert result.stdout == "3x3m3:3a3c3a3\n"


def test_solve_format_pzprv3_writes_the_answer_file_or_refuses_before_searching():
    result = run("solve", EXAMPLE, "--format", "pzprv3")
    assert result.exit_code == 0 and result.stdout.startswith("pzprv3\nhashikake\n5\n5\n")
    assert "solved: 1 solution" in result.stderr
    result = run("solve", TATHAM_L, "--format", "pzprv3")
    assert result.exit_code == 2 and result.stdout == ""
    assert (
        "a pzprv3 file cannot pose this puzzle's rules (max_bridges=2, no loops)" in result.stderr
    )


def test_convert_never_overwrites_its_input(tmp_path):
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("2.2\n...\n2.2\n")
    result = run("convert", puzzle, "--to", "json", "-o", puzzle)
    assert result.exit_code == 2 and puzzle.read_text() == "2.2\n...\n2.2\n"


def test_every_coelho_sample_converts_to_every_notation_and_back(puzzles):
    for path in sorted((PUZZLES / "coelho").glob("*.has"))[::6]:
        puzzle = read(path)
        for notation in ("grid", "json", "puzzlink", "pzprv3"):
            assert parse(write(puzzle, notation)) == puzzle, (path.name, notation)


# The commands that reason about all solutions apply a Tatham ID's own rules too: under the
# standard rules the first is unsolvable (it needs triple bridges), the second has loops.
@pytest.mark.parametrize(
    "game_id, override, verdict",
    [
        ("10x10m3:3c3b4a3b2b2g1c8a73l3a6d4a5a1o2b2a5c1j1a4a6b7a1", ["--max-bridges", "2"], 4),
        ("7x7m4L:4b2b4g9e8h2a5b7g4c5a4", ["--loops"], 1),
    ],
)
def test_reasoning_commands_use_the_puzzles_own_rules(game_id, override, verdict):
    runner = CliRunner()
    assert runner.invoke(main, ["unique", game_id]).exit_code == 0
    assert runner.invoke(main, ["count", game_id]).stdout.startswith("1 solution")
    assert "exactly 1 solution" in runner.invoke(main, ["hint", game_id]).stdout
    # Options still override the puzzle's rules: unsolvable (4), or more than one solution (1).
    assert runner.invoke(main, ["unique", game_id, *override]).exit_code == verdict
