"""Drawings: the text drawing tells every bridge count apart; the SVG is well-formed and puts
circles and bridges where the puzzle says; the PNG made from it shows them at those pixels; the
render command writes files safely."""

import json
import os
import xml.etree.ElementTree as ElementTree
from io import BytesIO

import pytest
from click.testing import CliRunner
from conftest import PUZZLES
from PIL import Image

from hashi_asp import Puzzle, Rules, Solution, bridge, draw, read, solve
from hashi_asp.cli import main
from hashi_asp.drawing import CELL, GAP, HIGHLIGHT, RADIUS, STYLES, centre, png, svg

SVG = "{http://www.w3.org/2000/svg}"
EXAMPLE = "https://puzz.link/p?hashikake/5/5/4g2i3h23k3g1g3g4g3"


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def solved(argument):
    puzzle = read(argument)
    return puzzle, solve(puzzle).solutions[0]


# ---------------------------------------------------------------------------- text


@pytest.mark.parametrize("style", ["text", "unicode"])
def test_every_bridge_count_up_to_four_has_its_own_character(style):
    """One row of pairs joined by 1..6 bridges, and one column: the characters drawn between
    the islands tell 1, 2, 3 and 4 apart, horizontally and vertically (more share one)."""
    counts = range(1, 7)
    across = Puzzle(
        1,
        12,
        {(0, 2 * i): 1 for i in range(6)} | {(0, 2 * i + 1): 1 for i in range(6)},
        rules=Rules(max_bridges=6),
    )
    drawn_across = draw(
        across,
        Solution.of(bridge((0, 2 * i), (0, 2 * i + 1), k) for i, k in enumerate(counts)),
        style,
    )
    # Vertical neighbours on adjacent rows have no cell between them: one water cell apart.
    down = Puzzle(
        18,
        1,
        {(3 * i, 0): 1 for i in range(6)} | {(3 * i + 2, 0): 1 for i in range(6)},
        rules=Rules(max_bridges=6),
    )
    drawn_down = draw(
        down,
        Solution.of(bridge((3 * i, 0), (3 * i + 2, 0), k) for i, k in enumerate(counts)),
        style,
    ).splitlines()
    horizontal = [drawn_across[4 * i + 1] for i in range(6)]
    vertical = [drawn_down[3 * i + 1] for i in range(6)]
    for characters, table in ((horizontal, STYLES[style]["h"]), (vertical, STYLES[style]["v"])):
        assert characters[:4] == list(table[:4])  # 1, 2, 3 and 4 as the legend says
        assert len(set(characters[:4])) == 4  # all different
        assert characters[4] == characters[5] == table[4]  # 5 and more share one
        assert not set(characters[:5]) & set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ?+")
    if style == "text":
        assert horizontal[:2] == ["-", "="] and vertical[:2] == ["|", '"']  # as Tatham's


def test_islands_of_ten_and_more_are_letters_then_plus():
    puzzle = Puzzle(
        1, 7, {(0, 0): 9, (0, 2): 10, (0, 4): 35, (0, 6): 36}, rules=Rules(max_bridges=9)
    )
    assert draw(puzzle) == "9 . A . Z . +"


def test_the_svg_is_well_formed_with_a_circle_and_number_per_island():
    puzzle, solution = solved(EXAMPLE)
    root = ElementTree.fromstring(svg(puzzle, solution))
    circles = root.findall(f".//{SVG}circle")
    texts = root.findall(f".//{SVG}text")
    assert len(circles) == len(texts) == len(puzzle.islands)
    where = {(float(c.get("cx")), float(c.get("cy"))) for c in circles}
    assert where == {centre(r, c) for r, c in puzzle.islands}
    numbers = sorted((float(t.get("x")), t.text) for t in texts)
    assert numbers == sorted((centre(r, c)[0], str(n)) for (r, c), n in puzzle.islands.items())
    # One line per bridge: the example's 9 pairs include 5 doubles.
    lines = root.findall(f".//{SVG}line")
    assert len(solution.bridges) == 9 and len(lines) == sum(b.count for b in solution.bridges) == 14


def test_an_unnumbered_island_is_an_empty_circle_and_titles_are_escaped():
    puzzle = Puzzle(1, 3, {(0, 0): None, (0, 2): 1})
    root = ElementTree.fromstring(svg(puzzle, title="<a & b>"))
    assert len(root.findall(f".//{SVG}circle")) == 2 and len(root.findall(f".//{SVG}text")) == 1
    assert root.find(f"{SVG}title").text == "<a & b>"


def test_highlighted_bridges_and_islands_take_the_second_colour():
    puzzle, solution = solved(EXAMPLE)
    marked = solution.bridges[0]
    extra = bridge((0, 2), (4, 2), 1)  # not in the solution: drawn too, highlighted
    root = ElementTree.fromstring(
        svg(puzzle, solution, highlight_bridges=[marked.ends, extra], highlight_islands=[(4, 4)])
    )
    coloured = [line for line in root.findall(f".//{SVG}line") if line.get("stroke") == HIGHLIGHT]
    assert len(coloured) == marked.count + 1
    circle = next(
        c
        for c in root.findall(f".//{SVG}circle")
        if (float(c.get("cx")), float(c.get("cy"))) == centre(4, 4)
    )
    assert circle.get("stroke") == HIGHLIGHT


def pixels(puzzle, solution=None):
    image = Image.open(BytesIO(png(svg(puzzle, solution)))).convert("L")
    assert image.size == (CELL * (puzzle.cols + 1), CELL * (puzzle.rows + 1))
    return image


def dark(image, x, y) -> bool:
    """Ink within a pixel of (x, y): lines are 2 px wide and antialiased."""
    return (
        min(
            image.getpixel((round(x) + dx, round(y) + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
        )
        < 128
    )


def test_the_png_shows_the_island_circles_where_the_puzzle_says(puzzles):
    for puzzle in (read(EXAMPLE), read(puzzles / "seven-by-seven-24.json")):
        image = pixels(puzzle)
        # The circle's outline 45 degrees up-right of the centre: away from any bridge line.
        reach = RADIUS * CELL * 0.7071
        for r in range(puzzle.rows):
            for c in range(puzzle.cols):
                x, y = centre(r, c)
                assert dark(image, x + reach, y - reach) == ((r, c) in puzzle.islands), (r, c)


def test_the_png_shows_single_and_double_bridges():
    puzzle, solution = solved(EXAMPLE)
    image = pixels(puzzle, solution)
    for b in solution.bridges:
        (x1, y1), (x2, y2) = centre(*b.ends[0]), centre(*b.ends[1])
        x, y = (x1 + x2) / 2, (y1 + y2) / 2  # midway, in the water between the islands
        if b.count == 1:
            assert dark(image, x, y)
        else:
            half = GAP * CELL / 2
            across = (0, half) if b.horizontal else (half, 0)
            assert dark(image, x + across[0], y + across[1])
            assert dark(image, x - across[0], y - across[1])
            assert not dark(image, x, y)


# ---------------------------------------------------------------------------- the commands


def test_render_writes_svg_and_png(tmp_path):
    answer = tmp_path / "answer.json"
    answer.write_text(run("solve", EXAMPLE, "--format", "json").stdout)
    result = run("render", EXAMPLE, answer, "-o", tmp_path / "a.svg")
    assert result.exit_code == 0, result.stderr
    ElementTree.parse(tmp_path / "a.svg")
    result = run("render", EXAMPLE, answer, "-o", tmp_path / "a.png", "--cell-size", 30)
    assert result.exit_code == 0, result.stderr
    assert Image.open(tmp_path / "a.png").size == (180, 180)
    assert sorted(os.listdir(tmp_path)) == ["a.png", "a.svg", "answer.json"]  # no temp files
    assert oct(os.stat(tmp_path / "a.png").st_mode & 0o777) != "0o600"


def test_render_without_output_prints_svg_and_without_solution_draws_the_bare_puzzle():
    result = run("render", EXAMPLE)
    root = ElementTree.fromstring(result.stdout)
    assert root.findall(f".//{SVG}line") == [] and len(root.findall(f".//{SVG}circle")) == 10


def test_render_warns_about_a_solution_that_breaks_the_rules(tmp_path):
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"bridges": [[0, 0, 0, 2, 1]]}))
    result = run("render", EXAMPLE, wrong)
    assert result.exit_code == 0 and "warning: the solution breaks" in result.stderr
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps({"bridges": [[0, 0, 0, 9, 1]]}))
    result = run("render", EXAMPLE, outside)
    assert result.exit_code == 2 and "ends outside the 5x5 grid" in result.stderr


@pytest.mark.parametrize("name", ["out.jpg", "out"])
def test_render_refuses_unknown_picture_formats(tmp_path, name):
    result = run("render", EXAMPLE, "-o", tmp_path / name)
    assert result.exit_code == 2 and "unknown picture format" in result.stderr
    assert not (tmp_path / name).exists()


def test_render_never_overwrites_the_puzzle_it_reads(tmp_path):
    puzzle = tmp_path / "p.svg"
    puzzle.write_text("2.2\n...\n2.2\n")
    result = run("render", puzzle, "--notation", "grid", "-o", puzzle)
    assert result.exit_code == 2 and "is the puzzle being read" in result.stderr
    assert puzzle.read_text() == "2.2\n...\n2.2\n"


def test_a_failed_write_leaves_the_old_file_whole(tmp_path, monkeypatch):
    target = tmp_path / "a.svg"
    target.write_text("old")

    def broken(source, destination):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    result = run("render", EXAMPLE, "-o", target, "--force")
    assert result.exit_code == 2 and "No space left on device" in result.stderr
    assert target.read_text() == "old" and os.listdir(tmp_path) == ["a.svg"]


def test_solve_format_svg_prints_the_first_solution_and_the_verdict_on_stderr():
    result = run("solve", PUZZLES / "prolog-5x5.txt", "-n", "0", "--format", "svg")
    assert result.exit_code == 0
    root = ElementTree.fromstring(result.stdout)
    assert len(root.findall(f".//{SVG}circle")) == 7
    assert result.stderr.strip() == "multiple: 2 solutions; search exhausted"
    result = run("solve", "-", "--format", "svg", input="1.2\n")
    assert (result.exit_code, result.stdout) == (1, "")
    assert "unsolvable" in result.stderr


def test_puzzles_results_and_walkthroughs_show_themselves_in_a_notebook():
    import re

    from hashi_asp import notations
    from hashi_asp.solving import unique
    from hashi_asp.walkthrough import steps

    def cells(picture: str, kind: str) -> set[tuple[int, ...]]:
        names = ("row", "col") if kind == "island" else ("r1", "c1", "r2", "c2", "count")
        pattern = f'class="{kind}" ' + " ".join(f'data-{n}="(\\d+)"' for n in names)
        return {tuple(map(int, found)) for found in re.findall(pattern, picture)}

    puzzle = notations.read("7x7m2:4a4a2a2w2k4c3a1")
    assert cells(puzzle._repr_svg_(), "island") == set(puzzle.islands)
    assert cells(puzzle._repr_svg_(), "bridge") == set()
    solved = unique(puzzle)
    assert cells(solved._repr_svg_(), "bridge") == {tuple(b) for b in solved.solutions[0].bridges}
    two = notations.read("puzzles/prolog-5x5.txt")
    differing = unique(two)
    assert differing.status == "multiple" and f'stroke="{HIGHLIGHT}"' in differing._repr_svg_()
    walk = steps(puzzle)
    third = walk.picture(3)
    assert third._repr_svg_() == third and f"Step 3: {walk.steps[2].text}" in third
    assert walk._repr_svg_() == walk.picture(len(walk.steps))
    assert [*walk.pictures()][2] == third
    with pytest.raises(IndexError):
        walk.picture(len(walk.steps) + 1)
