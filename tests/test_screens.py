"""The screenshots' ground truth (benchmarks/screens.py): a shot of Simon Tatham's window says
which bridges it shows, and its pixels agree, read at the middle of each pair of islands."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import screens

from hashi_asp import notations

MISSING = screens.available("tatham")
pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"Tatham's window {MISSING}")

GAME = "7x7m2:4b6a4g2g4b3k2c4a2c3a4"  # islands at (0, 0), (0, 3), (3, 0), (3, 3), (6, 4), ...
PLAY = screens.Play(
    bridges={((0, 0), (0, 3)): 2, ((0, 3), (3, 3)): 1, ((6, 4), (6, 6)): 2},
    marks=[((0, 0), (3, 0))],
)


def lines_at_middle(image: np.ndarray, pair: screens.Pair, tile: int, canvas: list[int]) -> int:
    """The lines across the middle of ``pair``'s gap: runs of ink on a short cross-cut there."""
    (r1, c1), (r2, c2) = pair
    x = round(canvas[0] + tile * ((c1 + c2) / 2 + 1))
    y = round(canvas[1] + tile * ((r1 + r2) / 2 + 1))
    half = int(0.3 * tile)
    cut = image[y - half : y + half + 1, x] if r1 == r2 else image[y, x - half : x + half + 1]
    background = image[canvas[1] + 2, canvas[0] + 2].astype(int)
    ink = np.abs(cut.astype(int) - background).sum(axis=1) > 120
    return int(np.count_nonzero(np.diff(ink.astype(int)) == 1) + ink[0])


def test_a_tatham_shot_shows_the_bridges_it_says_are_drawn(tmp_path):
    puzzle = notations.parse(GAME)
    apps = screens.Apps(folder=tmp_path)
    try:
        shot = screens.tatham_shot(apps, GAME, puzzle, PLAY, random.Random(2))
    finally:
        apps.close()
    assert shot is not None, "the window never showed the bridges dragged"
    assert shot.drawn == ((0, 0, 0, 3, 2), (0, 3, 3, 3, 1), (6, 4, 6, 6, 2))
    image = cv2.imdecode(np.frombuffer(shot.picture, np.uint8), cv2.IMREAD_COLOR)
    tile, canvas = shot.settings["tile"], shot.settings["canvas"]
    drawn = {((r1, c1), (r2, c2)): k for r1, c1, r2, c2, k in shot.drawn}
    seen = {
        pair: lines_at_middle(image, pair, tile, canvas)
        for pair in screens.neighbour_pairs(puzzle)
        if pair not in PLAY.marks  # a mark's crosses are no bridge, but ink
    }
    assert seen == {pair: drawn.get(pair, 0) for pair in seen}
    assert not list(tmp_path.iterdir()), "the apps' folder is left behind"
