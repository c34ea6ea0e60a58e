"""Bridges drawn in a picture of a game going on: read pair by pair (the project's drawings in
its styles, single to fourfold bridges, a photo-like copy, a grid drawn under the puzzle, lines
that join no two islands), kept in the reading's JSON, and taken by ``steps`` and ``hint`` as
the player's state where no ``--given`` is (the installed command, in a process of its own)."""

from __future__ import annotations

import base64
import json
import random
import re
import sys
from pathlib import Path

import processes
import pytest
from conftest import REPO
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serving import post

from hashi_asp import notations
from hashi_asp.drawing import svg
from hashi_asp.pictures import read_picture
from hashi_asp.play import Play
from hashi_asp.puzzle import Bridge, Puzzle, Solution, bridge, pair_name
from hashi_asp.solving import solve

sys.path.insert(0, str(REPO / "benchmarks"))

import picture_material as material

SEVEN = notations.parse("7x7m2:4a4a2a2w2k4c3a1")
TEN = notations.parse("10x10m2:a2e3a24d4b2b4a2l1d4c3d4e4n2d4k1a3h3")
FIFTEEN = notations.parse(
    "15x15m2:4l2b3a2o3a5e1a2e1m1c3e6c3a4j3zl3c3a1c2i4b5b7a4a2c1d1k1d2l3c4e2a2a2k"
)
SOLUTIONS = {puzzle: solve(puzzle).solutions[0] for puzzle in (SEVEN, TEN, FIFTEEN)}


def some_of(puzzle: Puzzle, seed: int, share: float = 0.5) -> list[Bridge]:
    """About ``share`` of the bridges of the puzzle's solution, chosen by ``seed``."""
    rng = random.Random(seed)
    return [b for b in SOLUTIONS[puzzle].bridges if rng.random() < share]


def counts_read(read: Puzzle) -> dict:
    """The count read for every pair of neighbouring islands of the puzzle read (0: none)."""
    assert read.reading is not None
    found = {b.ends: b.count for b in read.reading.bridges}
    return {pair: found.pop(pair, 0) for pair in read.geometry.pairs} | found


def counts_drawn(puzzle: Puzzle, bridges: list[Bridge]) -> dict:
    drawn = {b.ends: b.count for b in bridges}
    return {pair: drawn.get(pair, 0) for pair in puzzle.geometry.pairs}


def shot(puzzle: Puzzle, bridges: list[Bridge], *args) -> bytes:
    return material.drawing(puzzle, *args, solution=Solution.of(bridges))


# ---------------------------------------------------------------------------- reading


@pytest.mark.parametrize(
    ("puzzle", "cell", "style", "scheme", "seed"),
    [
        (SEVEN, 40, "circles", "light", 1),
        (SEVEN, 24, "bare", "light", 2),
        (TEN, 32, "squares", "light", 3),
        (TEN, 48, "bare", "dark", 4),
        (TEN, 32, "circles", "dark", 5),
        (FIFTEEN, 24, "circles", "light", 6),
        (FIFTEEN, 30, "squares", "dark", 7),
    ],
)
def test_every_pairs_bridges_are_read_as_drawn(puzzle, cell, style, scheme, seed):
    drawn = some_of(puzzle, seed)
    assert {b.count for b in drawn} == {1, 2}, "single and double bridges both drawn"
    read = read_picture(shot(puzzle, drawn, cell, style, scheme))
    assert read.islands == puzzle.islands
    assert counts_read(read) == counts_drawn(puzzle, drawn)
    assert read.reading.bridges == tuple(sorted(drawn))


def test_up_to_four_parallel_lines_are_counted():
    """The rules may allow more than 2 (Tatham's ``m4``): the lines seen are counted."""
    pairs = list(TEN.geometry.pairs)
    drawn = [bridge(*pair, 1 + i % 4) for i, pair in enumerate(pairs[::3])]
    read = read_picture(shot(TEN, drawn, 40))
    assert counts_read(read) == counts_drawn(TEN, drawn)


@pytest.mark.parametrize(
    ("puzzle", "style", "scheme", "seed"),
    [(SEVEN, "circles", "light", 1), (TEN, "circles", "dark", 2), (TEN, "bare", "light", 3)],
)
def test_a_photo_of_a_game_reads_the_same(puzzle, style, scheme, seed):
    """Turned, seen at an angle, in uneven light with a shadow, blurred, with noise, as a JPEG
    of quality 50 to 70."""
    drawn = some_of(puzzle, 10 + seed)
    photo = material.photo(shot(puzzle, drawn, 32, style, scheme), random.Random(seed))
    read = read_picture(photo)
    assert material.normalised(read) == material.normalised(puzzle)
    assert read.reading.bridges == tuple(sorted(drawn))


def with_grid(puzzle: Puzzle, bridges: list[Bridge], cell: int, through: str) -> bytes:
    """The drawing on a grid of thin grey lines along every row and column, ``through`` the
    cells' centres (where the bridges go) or along the cells' sides."""
    text = str(svg(puzzle, Solution.of(bridges), cell=cell))
    off = 0.0 if through == "centres" else 0.5
    extra = 0 if through == "centres" else 1
    ends = (
        (cell * (1 - off), cell * (puzzle.cols - off)),
        (cell * (1 - off), cell * (puzzle.rows - off)),
    )
    lines = [
        *(f'<line x1="{ends[0][0]}" x2="{ends[0][1]}" y1="{y}" y2="{y}"/>'
          for y in (cell * (r + 1 - off) for r in range(puzzle.rows + extra))),
        *(f'<line y1="{ends[1][0]}" y2="{ends[1][1]}" x1="{x}" x2="{x}"/>'
          for x in (cell * (c + 1 - off) for c in range(puzzle.cols + extra))),
    ]  # fmt: skip
    paper = '<rect width="100%" height="100%" fill="#ffffff"/>'
    grid = f'<g stroke="#a0a0a0" stroke-width="1">{"".join(lines)}</g>'
    return material.png_of_svg(text.replace(paper, paper + grid, 1))


@pytest.mark.parametrize("through", ["centres", "sides"])
def test_a_grid_drawn_under_the_puzzle_is_no_bridge(through):
    empty = read_picture(with_grid(TEN, [], 32, through))
    assert empty.islands == TEN.islands
    assert empty.reading.bridges == ()
    drawn = some_of(TEN, 21)
    assert read_picture(with_grid(TEN, drawn, 32, through)).reading.bridges == tuple(sorted(drawn))


def test_lines_that_join_no_two_islands_are_no_bridges():
    """A line from an island to the middle of the water, one across the middle part of a
    stretch, a cross ("no bridge here") and a label between two islands: none is a bridge,
    and the bridge drawn beside them is read."""
    cell = 40
    long = [pair for pair in TEN.geometry.pairs if _length(pair) >= 3]
    (a, b), (c, d), (e, f), (g, h) = long[:4]

    def at(start, end, share):  # pixels of a point between two cells' centres
        (y1, x1), (y2, x2) = start, end
        return cell * (x1 + 1 + share * (x2 - x1)), cell * (y1 + 1 + share * (y2 - y1))

    ink = 'stroke="#1a1a1a" stroke-width="2"'
    marks = []
    # (the first from the island's circle on: the marks are drawn over the islands)
    for start, end, low, high in ((a, b, 0.4 / _length((a, b)), 0.55), (c, d, 0.3, 0.7)):
        (x1, y1), (x2, y2) = at(start, end, low), at(start, end, high)
        marks.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" {ink}/>')
    x, y = at(e, f, 0.5)
    marks.append(
        f'<path d="M{x - 5},{y - 5} L{x + 5},{y + 5} M{x - 5},{y + 5} L{x + 5},{y - 5}" {ink}/>'
    )
    x, y = at(g, h, 0.5)
    marks.append(f'<text x="{x}" y="{y + 4}" font-size="12" text-anchor="middle">ab</text>')
    drawn = [bridge(*long[4], 2)]
    text = str(svg(TEN, Solution.of(drawn), cell=cell)).replace("</svg>", "".join(marks) + "</svg>")
    read = read_picture(material.png_of_svg(text))
    assert read.islands == TEN.islands
    assert read.reading.bridges == tuple(drawn)


def _length(pair) -> int:
    (r1, c1), (r2, c2) = pair
    return abs(r2 - r1) + abs(c2 - c1)


@pytest.mark.parametrize("count", [1, 2])
def test_two_bridges_that_cross_are_read_as_drawn(count):
    """No valid state has them, but a player may draw them: what is there is read."""
    pairs = FIFTEEN.geometry.pairs
    p, q = next((p, q) for p, crossed in enumerate(FIFTEEN.geometry.crossing) for q in crossed)
    drawn = [bridge(*pairs[p], count), bridge(*pairs[q], count)]
    assert read_picture(shot(FIFTEEN, drawn, 40)).reading.bridges == tuple(sorted(drawn))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_part_of_a_solution_is_read_back_exactly(data):
    chosen = data.draw(st.lists(st.sampled_from(SOLUTIONS[TEN].bridges), unique=True))
    style = data.draw(st.sampled_from(material.STYLES))
    read = read_picture(shot(TEN, chosen, 32, style))
    assert read.reading.bridges == tuple(sorted(chosen))


def test_the_reads_json_has_its_bridges_only_when_some_are_drawn():
    drawn = some_of(SEVEN, 31)
    read = read_picture(shot(SEVEN, drawn, 32)).to_json()["read"]
    assert read["bridges"] == [list(b) for b in sorted(drawn)]
    assert sorted(read) == ["bridges", "islands", "suspects"]
    assert "bridges" not in read_picture(material.drawing(SEVEN, 32)).to_json()["read"]


# ---------------------------------------------------------------------------- the commands


def picture(tmp_path: Path, data: bytes, name: str = "shot.png") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_steps_continue_the_game_drawn_in_the_picture(tmp_path):
    drawn = some_of(TEN, 41)
    path = picture(tmp_path, shot(TEN, drawn, 32))
    done = processes.run("steps", path, "-n", "1", "--format", "json")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["given"]["bridges"] == [list(b) for b in sorted(drawn)]
    (step,) = document["steps"]
    pair = ((step["pair"][0], step["pair"][1]), (step["pair"][2], step["pair"][3]))
    open_before = Play(tuple(drawn)).counts(TEN)[pair]
    assert tuple(step["before"]) == open_before  # a pair the drawing left open,
    assert set(step["bridges"]) < set(open_before)  # narrowed by the step
    text = processes.run("steps", path, "-n", "1")
    lines = sum(b.count for b in drawn)
    assert text.stdout.splitlines()[0] == (
        f"continuing from the {lines} bridges drawn in the picture, between {len(drawn)} "
        "pairs of islands"
    )
    empty = json.loads(
        processes.run("steps", path, "-n", "1", "--given", "{}", "--format", "json").stdout
    )
    assert empty["given"]["bridges"] == []  # --given wins


def test_hint_says_a_wrong_bridge_drawn_agrees_with_no_solution(tmp_path):
    solution = SOLUTIONS[TEN].counts()
    wrong = next(bridge(*pair, 1) for pair in TEN.geometry.pairs if pair not in solution)
    drawn = [wrong, *some_of(TEN, 51, 0.3)]
    path = picture(tmp_path, shot(TEN, drawn, 32))
    done = processes.run("hint", path)
    assert done.returncode == 1, done.stderr
    first, *rest = done.stdout.splitlines()
    assert re.fullmatch(
        r"checking the \d+ bridges? drawn in the picture, between \d+ pairs? of islands", first
    )
    mistakes = next(line for line in rest if line.startswith("mistakes:"))
    assert f"no solution has {pair_name(*wrong.ends)} with 1 or more" in mistakes
    assert rest[-1] == "unsolvable: no solution extending the drawn bridges"
    document = json.loads(processes.run("hint", path, "--format", "json").stdout)
    assert document["status"] == "unsolvable"
    assert document["mistakes"]["bridges"] == [list(wrong)]


def test_a_drawing_that_is_no_players_state_is_refused_in_one_line(tmp_path):
    """Three lines between two islands of a puzzle that allows two."""
    pair = next(iter(TEN.geometry.pairs))
    path = picture(tmp_path, shot(TEN, [bridge(*pair, 3)], 40))
    for command in ("steps", "hint"):
        done = processes.run(command, path)
        assert done.returncode == 2
        assert done.stdout == ""
        (line,) = done.stderr.splitlines()
        assert "the bridges drawn in the picture are no player's state" in line
        assert f"bridge {pair_name(*pair)} has 3 bridges; allowed 1..2" in line
        assert "Traceback" not in done.stderr
    assert processes.run("steps", path, "--given", "{}", "-n", "1").returncode == 0


def test_solve_is_unchanged_by_the_bridges_drawn(tmp_path):
    path = picture(tmp_path, shot(TEN, some_of(TEN, 61), 32))
    document = json.loads(processes.run("solve", path, "--format", "json").stdout)
    assert document["solutions"] == [SOLUTIONS[TEN].to_json()]


def test_the_api_takes_a_pictures_bridges_where_no_given_is(server):
    drawn = some_of(SEVEN, 71)
    url = "data:image/png;base64," + base64.b64encode(shot(SEVEN, drawn, 32)).decode()
    status, document = post(server.local, "steps", {"puzzle": url, "steps": 1})
    assert status == 200, document
    assert document["given"]["bridges"] == [list(b) for b in sorted(drawn)]
    assert document["puzzle"]["read"]["bridges"] == [list(b) for b in sorted(drawn)]
    status, document = post(server.local, "hint", {"puzzle": url, "given": "{}"})
    assert status == 200, document
    assert document["given"]["bridges"] == []
