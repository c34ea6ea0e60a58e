"""Drawings: the text drawing tells every bridge count apart and, read back, gives the islands
and bridges drawn (every bridge visible, also between islands next to each other); the SVG is
well-formed and puts circles and bridges where the puzzle says; the PNG made from it shows them
at those pixels; the render command writes files safely."""

import json
import os
import re
import xml.etree.ElementTree as ElementTree
from io import BytesIO

import bruteforce
import pytest
from conftest import PROLOG, PUZZLES, run, small_puzzles
from hypothesis import HealthCheck, given, settings
from PIL import Image

from hashi_asp import Bridge, Puzzle, Rules, Solution, bridge, draw, notations, read, solve
from hashi_asp.checking import check
from hashi_asp.drawing import CELL, GAP, HIGHLIGHT, RADIUS, STYLES, centre, png, svg
from hashi_asp.generation import generate

SVG = "{http://www.w3.org/2000/svg}"
EXAMPLE = "https://puzz.link/p?hashikake/5/5/4g2i3h23k3g1g3g4g3"


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
    # Islands two rows apart, each pair's lower island next to the next pair's upper one: the
    # drawing has a connector line between every two rows.
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
    vertical = [drawn_down[6 * i + 1] for i in range(6)]
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


# ---------------------------------------------------------------------------- reading drawings back

NUMBERS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
LISTED = re.compile(r"  \((\d+), (\d+)\)-\((\d+), (\d+)\): (\d+)")


def read_drawing(text: str, rows: int, style: str, *, undecided: bool = False):
    """A ``text`` or ``unicode`` drawing of a grid of ``rows`` rows read back, from the legend
    alone: its islands (cell -> number; ``?`` is an island without a number unless
    ``undecided``), its bridges (pair -> count; the count of a ``*`` from the list under the
    grid) and, with ``undecided``, the pairs drawn ``?``.  Asserts the drawing is well formed:
    a rectangle, one line per row or a connector line between every two rows, every bridge
    character on a straight run of one character from island to island, nothing else."""
    grid, _, listing = text.partition("\nBridges drawn * (5 or more):")
    lines = grid.split("\n")
    step = 1 if rows == 1 else (len(lines) - 1) // (rows - 1)
    assert step in (1, 2) and len(lines) == step * (rows - 1) + 1, text
    width = len(lines[0])
    assert width % 2 == 1 and all(len(line) == width for line in lines), text
    chars = STYLES[style]
    islands: dict = {}
    for y in range(0, len(lines), step):
        for x in range(0, width, 2):
            if lines[y][x] in NUMBERS or (lines[y][x] == "?" and not undecided):
                islands[(y // step, x // 2)] = (
                    None if lines[y][x] == "?" else NUMBERS.index(lines[y][x])
                )
    large = {
        ((r1, c1), (r2, c2)): k
        for r1, c1, r2, c2, k in (map(int, m.groups()) for m in LISTED.finditer(listing))
    }
    assert sum(1 for line in listing.splitlines() if line) == len(large), listing
    bridges: dict = {}
    open_pairs: set = set()
    covered: set = set()
    for horizontal in (True, False):
        glyphs = chars["h" if horizontal else "v"] + ("?" if undecided else "")
        for r, c in sorted(islands):
            y, x = step * r, 2 * c
            dy, dx = (0, 1) if horizontal else (1, 0)
            y, x = y + dy, x + dx
            if y >= len(lines) or x >= width or (y, x) in covered:
                continue
            glyph = lines[y][x]
            if glyph not in glyphs:
                continue
            run = []
            while y < len(lines) and x < width and lines[y][x] == glyph:
                run.append((y, x))
                y, x = y + dy, x + dx
            end = (y // step, x // 2)
            assert y % step == 0 and x % 2 == 0 and end in islands, f"run from {(r, c)}:\n{text}"
            covered.update(run)
            pair = ((r, c), end)
            if glyph == "?":
                open_pairs.add(pair)
            elif glyph == "*":
                bridges[pair] = large.pop(pair)
            else:
                bridges[pair] = glyphs.index(glyph) + 1
    assert large == {}, f"listed but not drawn: {large}"
    for y, line in enumerate(lines):
        for x, char in enumerate(line):
            if (y // step, x // 2) in islands and y % step == 0 and x % 2 == 0:
                continue
            if (y, x) not in covered:
                blank = " " if y % step or x % 2 else chars["water"]
                assert char == blank, f"{char!r} at line {y}, column {x}:\n{text}"
    return islands, bridges, open_pairs


def solution_of(bridges: dict) -> Solution:
    return Solution.of(bridge(a, z, k) for (a, z), k in bridges.items())


def blocks(output: str) -> list[str]:
    """The drawings a report prints: its blocks between blank lines, a "Solution N:" heading
    taken off (a drawing is never blank, its connector lines included)."""
    found = []
    for block in output.split("\n\n"):
        heading, _, rest = block.partition("\n")
        found.append(rest if re.fullmatch(r"Solution \d+:", heading) else block)
    return found


def adjacent(puzzle: Puzzle) -> bool:
    return any((r + 1, c) in puzzle.islands for r, c in puzzle.islands)


def bundled() -> dict[str, Puzzle]:
    """The bundled puzzles: the examples, the first game ID of each of Simon Tatham's files and
    the Coelho et al. puzzles of 100 islands."""
    found = {path.name: read(path) for path in sorted(PUZZLES.glob("*.*"))}
    for path in sorted(PUZZLES.glob("tatham/*.txt")):
        lines = path.read_text().splitlines()
        found[path.name] = read(next(line for line in lines if not line.startswith("#")))
    for path in sorted(PUZZLES.glob("coelho/*_100_*.has")):
        found[path.name] = read(path)
    return found


def made(seed: int, max_bridges: int = 2) -> Puzzle:
    """A Coelho-style puzzle of 25 islands (islands next to each other are common)."""
    beta = "0.9" if max_bridges > 4 else None
    return generate(25, seed=seed, beta=beta, rules=Rules(max_bridges)).puzzle


GENERATED = {f"made-{seed}": made(seed) for seed in range(1, 7)} | {
    f"made-{seed}-max-6": made(seed, 6) for seed in range(1, 4)
}
BUNDLED = bundled()


def as_input(puzzle: Puzzle) -> str:
    return notations.write(puzzle, "json")


def assert_read_back(puzzle: Puzzle, style: str, drawing: str, expected: Solution) -> None:
    islands, bridges, _ = read_drawing(drawing, puzzle.rows, style)
    assert islands == dict(puzzle.islands)
    assert solution_of(bridges) == expected
    assert check(puzzle, solution_of(bridges)) == []
    # The shape is the puzzle's: a connector line between rows only for islands next to each
    # other in a column.
    grid = drawing.partition("\nBridges drawn")[0]
    assert grid.count("\n") == (2 if adjacent(puzzle) else 1) * (puzzle.rows - 1)


def test_islands_next_to_each_other_in_a_column_show_their_bridge():
    result = run("solve", "-", input="2\n2\n")
    assert result.exit_code == 0 and result.stdout.startswith('2\n"\n2\n\n')
    # A puzzle without such a pair keeps one line per row.
    assert run("solve", PROLOG).stdout.startswith('2 . 1 . .\n" . | . .\n4---3---1\n')


@pytest.mark.parametrize("style", ["text", "unicode"])
@pytest.mark.parametrize("name", [*BUNDLED, *GENERATED])
def test_solve_drawings_read_back_as_the_solutions_found(name, style):
    puzzle = (BUNDLED | GENERATED)[name]
    given = as_input(puzzle)
    result = run("solve", "-", "-n", 2, "--format", style, input=given)
    document = json.loads(run("solve", "-", "-n", 2, "--format", "json", input=given).stdout)
    expected = [Solution.of(Bridge(*b) for b in s["bridges"]) for s in document["solutions"]]
    drawings = blocks(result.stdout)[: len(expected)]
    assert expected and len(drawings) == len(expected)
    for drawing, solution in zip(drawings, expected):
        assert_read_back(puzzle, style, drawing, solution)


SEVERAL = ["Hs_16_100_25_10_001.has", "Hs_16_100_50_10_001.has", "prolog-5x5.txt", *GENERATED]


@pytest.mark.parametrize("style", ["text", "unicode"])
@pytest.mark.parametrize("name", [*SEVERAL, "nyt-2022-04-03.json"])
def test_unique_drawings_read_back_and_show_every_differing_pair(name, style):
    puzzle = (BUNDLED | GENERATED)[name]
    given = as_input(puzzle)
    result = run("unique", "-", "--format", style, input=given)
    document = json.loads(run("unique", "-", "--format", "json", input=given).stdout)
    expected = [Solution.of(Bridge(*b) for b in s["bridges"]) for s in document["solutions"]]
    drawings = blocks(result.stdout)[: len(expected)]
    for drawing, solution in zip(drawings, expected):
        assert_read_back(puzzle, style, drawing, solution)
    if document["status"] != "multiple":
        return
    first, second = (read_drawing(drawing, puzzle.rows, style)[1] for drawing in drawings)
    listed = {
        ((r1, c1), (r2, c2)): (k1, k2)
        for r1, c1, r2, c2, k1, k2 in (
            map(int, found)
            for found in re.findall(
                r"\((\d+), (\d+)\)-\((\d+), (\d+)\): (\d+), (\d+)", result.stdout
            )
        )
    }
    read_apart = {
        pair: (first.get(pair, 0), second.get(pair, 0))
        for pair in set(first) | set(second)
        if first.get(pair, 0) != second.get(pair, 0)
    }
    assert listed and read_apart == listed


def test_the_pair_next_to_each_other_that_two_solutions_differ_at_is_drawn_in_both():
    case = PUZZLES / "coelho" / "Hs_16_100_25_10_001.has"
    puzzle = read(case)
    drawings = blocks(run("unique", case).stdout)[:2]
    read_back = [read_drawing(drawing, puzzle.rows, "text")[1] for drawing in drawings]
    assert [bridges[((0, 2), (1, 2))] for bridges in read_back] == [1, 2]


@pytest.mark.parametrize("style", ["text", "unicode"])
@pytest.mark.parametrize("name", SEVERAL)
def test_hint_drawings_read_back_as_the_decided_bridges_and_the_pairs_that_differ(name, style):
    from hashi_asp.reasoning import hint

    puzzle = (BUNDLED | GENERATED)[name]
    result = run("hint", "-", "--format", style, input=as_input(puzzle))
    found = hint(puzzle)
    islands, bridges, open_pairs = read_drawing(
        blocks(result.stdout)[0], puzzle.rows, style, undecided=True
    )
    assert islands == dict(puzzle.islands)
    assert solution_of(bridges) == Solution.of(found.cautious)
    assert open_pairs == set(found.undecided)


@given(small_puzzles(max_side=4, max_islands=7))
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_small_puzzles_read_back_as_every_solution_and_hint(case):
    """Every solution of a small puzzle (many with islands next to each other), drawn by `solve
    -n 0` in both styles, reads back as one the brute force finds, each once; the hint's drawing
    reads back as the bridges all of them have and the pairs where they differ."""
    puzzle = Puzzle(*case)
    brute = [
        {((r1, c1), (r2, c2)): k for r1, c1, r2, c2, k in found if k}
        for found in bruteforce.solutions_of(puzzle)
    ]
    pairs = {pair for counts in brute for pair in counts}
    differing = {pair for pair in pairs if len({counts.get(pair, 0) for counts in brute}) > 1}
    for style in ("text", "unicode"):
        result = run("solve", "-", "-n", 0, "--format", style, input=as_input(puzzle))
        read_back = []
        for drawing in blocks(result.stdout)[: len(brute)]:
            islands, bridges, _ = read_drawing(drawing, puzzle.rows, style)
            assert islands == dict(puzzle.islands)
            read_back.append(bridges)
        assert sorted(map(sorted, map(dict.items, read_back))) == sorted(
            map(sorted, map(dict.items, brute))
        )
        if brute:
            hinted = run("hint", "-", "--format", style, input=as_input(puzzle))
            _, bridges, open_pairs = read_drawing(
                blocks(hinted.stdout)[0], puzzle.rows, style, undecided=True
            )
            assert open_pairs == differing
            assert bridges == {pair: k for pair, k in brute[0].items() if pair not in differing}


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
    assert cells(svg(puzzle), "island") == set(puzzle.islands)  # (a notebook's: test_layout)
    assert cells(svg(puzzle), "bridge") == set()
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
