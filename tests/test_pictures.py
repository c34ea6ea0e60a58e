"""Puzzles from pictures: the project's own drawings read exactly (sizes, islands as circles,
squares or bare numbers, dark on light and light on dark), photo-like versions of them, a page
printed by Simon Tatham's Bridges, the JSON conventions (``"read"``), the islands probably
misread in a picture with one island damaged, a picture with no puzzle, the message when the
image extra is missing, and pictures over the API of a real server (data URLs)."""

from __future__ import annotations

import base64
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, run
from serving import post

from hashi_asp import notations
from hashi_asp.drawing import svg
from hashi_asp.pictures import read_picture
from hashi_asp.puzzle import Puzzle

sys.path.insert(0, str(REPO / "benchmarks"))

import picture_material as material

SMALL = notations.parse((REPO / "puzzles" / "prolog-5x5.txt").read_text())
SEVEN = notations.parse("7x7m2:4a4a2a2w2k4c3a1")
TEN = notations.parse("10x10m2:a2e3a24d4b2b4a2l1d4c3d4e4n2d4k1a3h3")
FIFTEEN = notations.parse(
    "15x15m2:4l2b3a2o3a5e1a2e1m1c3e6c3a4j3zl3c3a1c2i4b5b7a4a2c1d1k1d2l3c4e2a2a2k"
)


def picture(tmp_path: Path, data: bytes, name: str = "puzzle.png") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def islands(puzzle: Puzzle) -> dict:
    return material.normalised(puzzle)


# ---------------------------------------------------------------------------- reading


@pytest.mark.parametrize(
    ("puzzle", "cell", "style", "scheme"),
    [
        (SMALL, 24, "circles", "light"),
        (SEVEN, 40, "circles", "dark"),
        (TEN, 32, "squares", "light"),
        (TEN, 48, "bare", "dark"),
        (FIFTEEN, 24, "circles", "light"),
        (FIFTEEN, 36, "bare", "light"),
        (FIFTEEN, 30, "squares", "dark"),
    ],
)
def test_the_projects_drawings_are_read_exactly(puzzle, cell, style, scheme):
    read = read_picture(material.drawing(puzzle, cell, style, scheme))
    assert (read.rows, read.cols) == (puzzle.rows, puzzle.cols)
    assert read.islands == puzzle.islands
    assert set(read.reading.confidence) == set(puzzle.islands)
    assert all(0 <= value <= 1 for value in read.reading.confidence.values())


@pytest.mark.parametrize(
    ("puzzle", "style", "scheme", "seed"),
    [
        (SEVEN, "circles", "light", 1),
        (TEN, "circles", "dark", 2),
        (TEN, "bare", "light", 3),
        (FIFTEEN, "squares", "light", 4),
    ],
)
def test_photos_of_the_drawings_are_read_exactly(puzzle, style, scheme, seed):
    """Turned by up to 8 degrees, seen at an angle, in uneven light with a shadow, blurred,
    with noise, on a table, as a JPEG of quality 50 to 70."""
    rng = random.Random(seed)
    photo = material.photo(material.drawing(puzzle, 32, style, scheme), rng)
    assert photo.startswith(b"\xff\xd8")
    assert islands(read_picture(photo)) == islands(puzzle)


def test_a_screenshot_with_a_title_buttons_and_a_clock_around_the_puzzle():
    shot = material.screenshot(material.drawing(TEN, 32), random.Random(5))
    assert read_picture(shot).islands == TEN.islands


def test_a_page_printed_by_simon_tathams_bridges():
    """The README installs Ghostscript and Debian's sgt-puzzles with the browser."""
    assert material.printing_available(), "needs gs and sgt-bridges (README: apt-get install)"
    printed, page = material.tatham_print(10, 3, dpi=100)
    assert islands(read_picture(page)) == islands(printed)


def test_pictures_are_read_wherever_a_puzzle_is(tmp_path):
    """A file (PNG, JPEG, WebP), standard input, a data URL argument: on the command line."""
    import cv2
    import numpy as np

    png = material.drawing(SEVEN, 32)
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    webp = cv2.imencode(".webp", image)[1].tobytes()
    jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 60])[1].tobytes()
    tatham = notations.write(SEVEN, "tatham")
    for name, data in (("a.png", png), ("b.webp", webp), ("c.jpg", jpeg), ("no-suffix", png)):
        converted = run("convert", picture(tmp_path, data, name), "--to", "tatham")
        assert (converted.exit_code, converted.stdout) == (0, tatham), name
    url = "data:image/png;base64," + base64.b64encode(png).decode()
    assert run("convert", url, "--to", "tatham").stdout == tatham
    piped = subprocess.run(
        [sys.executable, "-m", "hashi_asp", "solve", "-", "--format", "json"],
        input=png,
        capture_output=True,
        timeout=120,
    )
    assert piped.returncode == 0, piped.stderr
    assert json.loads(piped.stdout)["status"] == "solved"


# ---------------------------------------------------------------------------- what it says


def test_convert_to_json_gives_the_puzzle_with_what_was_read(tmp_path):
    path = picture(tmp_path, material.drawing(TEN, 32))
    converted = run("convert", path, "--to", "json")
    assert converted.exit_code == 0
    document = json.loads(converted.stdout)
    read = document.pop("read")
    assert document == TEN.to_json()
    assert [entry[:3] for entry in read["islands"]] == document["islands"]
    assert all(len(entry) == 4 and 0 <= entry[3] <= 1 for entry in read["islands"])
    assert read["suspects"] == []  # one solution: nothing to suspect
    # The JSON notation reads its own output back, "read" and all.
    assert notations.parse(converted.stdout).islands == TEN.islands
    solved = json.loads(run("solve", path, "--format", "json").stdout)
    assert solved["puzzle"]["read"] == read


def test_the_island_probably_misread_is_named(tmp_path):
    """The 3 at (0, 0), its top painted over, reads as a 5 with little confidence; the puzzle
    then has no solution, and the one change among the least certain islands that makes it
    unique is that island back to 3."""
    puzzle = notations.parse("7x7m2:3a4a5a4g3m4a5k3a6a5a4")
    assert puzzle.islands[0, 0] == 3
    path = picture(tmp_path, material.damaged(puzzle, (0, 0), "top"))
    solved = run("solve", path)
    assert "probably a 3, not a 5, at (0, 0)" in solved.stderr
    converted = json.loads(run("convert", path, "--to", "json").stdout)
    assert converted["read"]["suspects"] == [[0, 0, 5, 3]]
    confidence = {(r, c): value for r, c, _, value in converted["read"]["islands"]}
    assert confidence[0, 0] == min(confidence.values()) < 0.98


DAMAGED = notations.parse("7x7m2:3a4a5a4g3m4a5k3a6a5a4")


def drawn(puzzle: Puzzle, change, cell: int = 40, style: str = "circles") -> bytes:
    """The project's drawing of ``puzzle``, its SVG changed by ``change`` first."""
    text = str(svg(puzzle, cell=cell))
    if style == "bare":
        text = re.sub(r"<circle [^>]*/>", "", text)
    return material.png_of_svg(change(text))


def test_a_circle_whose_number_is_erased_is_an_island_the_suspects_number(tmp_path):
    """The 3 at (2, 0) is erased, its circle left: an island read without a number (null, with
    confidence 0), which the suspects give its count in the only solution."""
    assert DAMAGED.islands[2, 0] == 3
    path = picture(
        tmp_path,
        drawn(DAMAGED, lambda text: re.sub(r'(data-row="2" data-col="0">\n<circle [^>]*/>\n)'
                                           r"<text [^>]*>3</text>", r"\1", text)),
    )  # fmt: skip
    converted = json.loads(run("convert", path, "--to", "json").stdout)
    assert [2, 0, None] in converted["islands"]
    assert [2, 0, None, 0.0] in converted["read"]["islands"]
    assert converted["read"]["suspects"] == [[2, 0, None, 3]]
    solved = run("solve", path)
    assert solved.exit_code == 0
    assert "probably a 3 at (2, 0), not read" in solved.stderr


def test_a_number_not_taken_for_an_island_is_named_where_it_is_missing(tmp_path):
    """The bare 4 at (0, 2) with its right half painted over reads as no number the reader
    takes (a 2 with little chance, at a place of its own); the puzzle read without it has no
    solution, and the suspects add it back."""
    assert DAMAGED.islands[0, 2] == 4
    patch = '<rect x="120" y="26" width="12" height="28" fill="#ffffff"/></svg>'
    path = picture(tmp_path, drawn(DAMAGED, lambda text: text.replace("</svg>", patch), 40, "bare"))
    converted = json.loads(run("convert", path, "--to", "json").stdout)
    assert [0, 2] not in [entry[:2] for entry in converted["islands"]]
    assert converted["read"]["suspects"] == [[0, 2, None, 4]]
    assert "probably a 4 at (0, 2), not read" in run("solve", path).stderr


def test_a_grid_of_every_other_cell_is_not_taken_for_a_grid_of_larger_cells():
    """Every island on an even row and column, numbers nearly filling their circles: two cells
    are less than 3.8 numbers' heights, but more than 1.7 circles, so the cells stay small."""
    puzzle = notations.parse(
        '{"rows": 5, "cols": 5, "islands": [[0, 0, 1], [0, 2, 1], [2, 0, 4], [2, 2, 5],'
        " [2, 4, 2], [4, 0, 2], [4, 4, 1]]}"
    )

    def large(text: str) -> str:
        text = text.replace('font-size="20"', 'font-size="30"').replace('r="15.2"', 'r="18"')
        return re.sub(r'<text x="([\d.]+)" y="([\d.]+)"',
                      lambda m: f'<text x="{m[1]}" y="{float(m[2]) + 3.5:g}"', text)  # fmt: skip

    read = read_picture(drawn(puzzle, large))
    assert (read.rows, read.cols) == (5, 5)
    assert read.islands == puzzle.islands


def test_a_few_islands_far_apart_in_a_photo_at_an_angle():
    """Twelve islands, rows 4 to 7 empty: grown from the middle the lattice counts a row too
    many across the gap; a row fewer there places every island on its point."""
    puzzle = notations.parse(
        '{"rows": 10, "cols": 10, "islands": [[0, 0, 3], [0, 2, 2], [0, 9, 2], [2, 0, 6],'
        " [2, 9, 4], [3, 1, 2], [3, 8, 1], [8, 1, 2], [8, 9, 2], [9, 0, 4], [9, 5, 4],"
        " [9, 8, 2]]}"
    )
    photo = material.photo(material.drawing(puzzle, 32, "circles"), random.Random(10))
    assert islands(read_picture(photo)) == islands(puzzle)


def test_a_picture_with_no_puzzle_is_one_line_and_exit_2(tmp_path):
    import cv2
    import numpy as np

    blank = np.full((200, 300), 255, np.uint8)
    cv2.putText(blank, "Hello", (20, 100), cv2.FONT_HERSHEY_SIMPLEX, 2, 0, 3)
    path = picture(tmp_path, cv2.imencode(".png", blank)[1].tobytes())
    solved = run("solve", path)
    assert solved.exit_code == 2
    assert solved.stdout == ""
    assert (
        solved.stderr
        == f"hashi-asp: {path}: no puzzle found in the picture: no island numbers seen\n"
    )
    broken = picture(tmp_path, material.drawing(SEVEN, 32)[:200], "broken.png")
    solved = run("solve", broken)
    assert solved.exit_code == 2
    assert solved.stderr.count("\n") == 1 and "not a picture that can be read" in solved.stderr


FACES = (  # the fonts the README's system packages bring (Liberation, DejaVu, URW's)
    "DejaVu Sans", "DejaVu Serif", "Liberation Sans", "Liberation Serif", "Liberation Mono",
    "Nimbus Roman", "URW Bookman", "C059", "URW Gothic", "P052", "Nimbus Sans",
)  # fmt: skip


def test_words_in_any_font_are_no_puzzle():
    """Words drawn in real fonts, upright and italic, normal and bold, dark on light and light on
    dark, are no puzzle.  Taking the paper for ink (as for a night mode), each letter's counter
    (the hole of an "o") is a solid blob in a hole of the ink, as a number sits in its circle;
    a glyph that solid in a circle is a number only when read with a sure chance.  Measured: of
    these 704 pictures, 144 were read as a puzzle without that rule, 6 with it."""
    import itertools

    import cairosvg

    from hashi_asp.errors import PuzzleError

    said = []
    for face, weight, style, word, size, dark in itertools.product(
        FACES, ("normal", "bold"), ("normal", "italic"),
        ("Hello", "Bridges", "good puzzle", "Dood Bob"), (28, 64), (False, True),
    ):  # fmt: skip
        paper, ink = ("black", "white") if dark else ("white", "black")
        width, height = size * (len(word) + 1), 3 * size
        drawn = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">'
            f'<rect width="100%" height="100%" fill="{paper}"/>'
            f'<text x="{size // 2}" y="{2 * size}" font-family="{face}" font-weight="{weight}" '
            f'font-style="{style}" font-size="{size}" fill="{ink}">{word}</text></svg>'
        )
        try:
            read_picture(cairosvg.svg2png(bytestring=drawn.encode()))
            said.append("a puzzle")
        except PuzzleError as refused:
            said.append(str(refused).split("picture: ")[-1])
    assert said.count("a puzzle") <= 0.02 * len(said)
    # (refused before a lattice is fitted; small letters enlarged may show one "number")
    too_few = said.count("no island numbers seen") + said.count("only one island number seen")
    assert too_few >= 0.93 * len(said)


def test_without_the_image_extra_one_line_says_how_to_install_it(tmp_path):
    path = picture(tmp_path, material.drawing(SEVEN, 32))
    blocked = "import sys; sys.modules['cv2'] = None; from hashi_asp.cli import main; main()"
    done = subprocess.run(
        [sys.executable, "-c", blocked, "solve", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr == (
        f"hashi-asp: {path}: reading pictures needs the image extra: "
        "pip install 'hashi-asp[image]'\n"
    )


# ---------------------------------------------------------------------------- the API


def test_the_api_reads_a_picture_sent_as_a_data_url(server, tmp_path):
    png = material.drawing(SEVEN, 32)
    url = "data:image/png;base64," + base64.b64encode(png).decode()
    status, document = post(server.local, "solve", {"puzzle": url})
    assert status == 200, document
    assert document["status"] == "solved"
    read = document["puzzle"]["read"]
    assert [entry[:3] for entry in read["islands"]] == SEVEN.to_json()["islands"]
    assert read["suspects"] == []
    puzzle = notations.parse("7x7m2:3a4a5a4g3m4a5k3a6a5a4")
    url = (
        "data:image/png;base64,"
        + base64.b64encode(material.damaged(puzzle, (0, 0), "top")).decode()
    )
    status, document = post(server.local, "convert", {"puzzle": url, "to": "tatham"})
    assert status == 200, document
    assert document["puzzle"]["read"]["suspects"] == [[0, 0, 5, 3]]
    status, document = post(server.local, "solve", {"puzzle": "data:image/png;base64,AAA*"})
    assert status == 400
    assert document == {"error": "<text>:1:23: the picture's data URL is not valid base64"}
