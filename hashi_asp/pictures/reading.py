"""A puzzle read from a picture: the steps, from the bytes of a file to islands with how sure
the reader is of each.

1. The picture, decoded by OpenCV (PNG, JPEG, WebP...), in grey, a transparent background as
   white, shrunk to :data:`LONGEST` pixels at most.
2. The glyphs (:mod:`.glyphs`) of both polarities, dark on light and light on dark; the one
   whose digits read with more confidence is the picture's.  Of those, the numbers 1 to 8 of
   about the usual height; if most sit in a circle or a square, only those.
3. The lattice through their centres (:mod:`.lattice`): the grid, drawn or not.
4. The picture rectified: the homography undone, each cell :data:`PITCH` pixels, the numbers
   upright; every cell of the grid is looked at again (:func:`.glyphs.cell_glyph`), which
   reads the numbers at their size and finds an island the first look missed (one read with
   a chance of :data:`NEW_ISLAND` or more, of the height of the others).  An island's
   chances are those of both looks together; its number the likeliest of 1 to 8, its
   confidence that number's chance.
"""

from __future__ import annotations

import cv2
import numpy as np

from ..errors import PuzzleError
from ..puzzle import Cell, Reading
from . import digits
from .glyphs import Glyph, candidates, cell_glyph, ink, relative
from .lattice import fit

LONGEST = 2400  # pixels: a larger picture is shrunk first (a phone's photo is 4000 or more)
PITCH = 48  # pixels a cell in the rectified picture
SURE = 0.5  # the least chance of a first look's digit
ENCLOSED = 0.2  # the least chance of being one of 1 to 8 of a first look's glyph in a circle
CLEAR = 0.03  # share of ink around a glyph on clear paper, at most
SURE_IN_CLUTTER = 0.9  # the least chance of a digit with more ink than that around it
CLUTTERED = 0.2  # share of ink around a glyph beyond which it is taken for no number
NEW_ISLAND = 0.9  # the least chance of a digit the second look alone finds


def grey(data: bytes, source: str) -> np.ndarray:
    """The picture in grey, a transparent background white, at most :data:`LONGEST` pixels."""
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    if image is None or image.size == 0:
        raise PuzzleError("not a picture that can be read (PNG, JPEG or WebP)", source)
    if image.dtype != np.uint8:
        image = (
            (image / 257).astype(np.uint8) if image.dtype == np.uint16 else image.astype(np.uint8)
        )
    if image.ndim == 3 and image.shape[2] == 4:
        alpha = image[..., 3:4].astype(np.float32) / 255
        image = (image[..., :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)
    if image.ndim == 3:
        image = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    longest = max(image.shape)
    if longest > LONGEST:
        factor = LONGEST / longest
        image = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    return image


def islands(data: bytes, source: str) -> tuple[int, int, dict[Cell, int], Reading]:
    """The grid's rows and columns, the islands read and how sure the reader is of each."""
    gray = grey(data, source)
    flattened, found = _first_look(gray)
    if len(found) < 2:
        raise PuzzleError(
            "no puzzle found in the picture: "
            + ("no island numbers" if not found else "only one island number")
            + " seen",
            source,
        )
    height = float(np.median([glyph.height for glyph in found]))
    points = np.array([glyph.centre for glyph in found], np.float64)
    lattice = fit(points, height)
    seen = {cell: found[i] for i, cell in lattice.cells.items()}
    if len(seen) < 2:
        raise PuzzleError("no puzzle found in the picture: the numbers seen are on no grid", source)
    rows, cols = lattice.rows, lattice.cols
    # The rectified picture: cell (r, c) centred at ((c + 1) * PITCH, (r + 1) * PITCH).
    to_lattice = np.array([[1 / PITCH, 0, -1], [0, 1 / PITCH, -1], [0, 0, 1.0]])
    rectified = cv2.warpPerspective(
        flattened,
        lattice.homography @ to_lattice,
        ((cols + 1) * PITCH, (rows + 1) * PITCH),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=1.0,
    )
    second: dict[Cell, Glyph] = {}
    for r in range(rows):
        for c in range(cols):
            glyph = cell_glyph(
                rectified, (c + 1) * PITCH, (r + 1) * PITCH, PITCH, touching=(r, c) in seen
            )
            if glyph is not None:
                second[r, c] = glyph
    read = digits.chances([glyph.mask for glyph in second.values()])
    looked = dict(zip(second, read))
    seen_heights = [glyph.height for cell, glyph in second.items() if cell in seen]
    usual = float(np.median(seen_heights)) if seen_heights else 0.4 * PITCH
    numbers: dict[Cell, int] = {}
    confidence: dict[Cell, float] = {}
    likely: dict[Cell, tuple[float, ...]] = {}
    for cell in sorted({*seen, *looked}):
        if cell in seen:
            first = seen[cell].chances
            assert first is not None
            chances = (first + looked[cell]) / 2 if cell in looked else first
        else:
            chances = looked[cell]
            if chances.argmax() not in range(1, 9) or chances.max() < NEW_ISLAND:
                continue
            if not 0.75 * usual <= second[cell].height <= 1.3 * usual:
                continue  # not a number of this puzzle's size
        number = int(chances[1:9].argmax()) + 1
        numbers[cell] = number
        confidence[cell] = round(float(chances[number]), 3)
        likely[cell] = tuple(round(float(p), 4) for p in chances[1:9])
    numbers = _seen_by_another(numbers)
    if len(numbers) < 2:
        raise PuzzleError(
            "no puzzle found in the picture: no two numbers in a row or column", source
        )
    top = min(r for r, _ in numbers)
    left = min(c for _, c in numbers)
    rows = 1 + max(r for r, _ in numbers) - top
    cols = 1 + max(c for _, c in numbers) - left
    moved = {(r - top, c - left): n for (r, c), n in numbers.items()}
    reading = Reading(
        {(r - top, c - left): confidence[r, c] for r, c in numbers},
        chances={(r - top, c - left): likely[r, c] for r, c in numbers},
    )
    return rows, cols, moved, reading


def _seen_by_another(numbers: dict[Cell, int]) -> dict[Cell, int]:
    """The islands with another in their row or column, until every one has: an island alone
    on its lines could have no bridge, so it is something else (a mark on the table, a letter
    of a word that looked like a number)."""
    while True:
        rows: dict[int, int] = {}
        cols: dict[int, int] = {}
        for r, c in numbers:
            rows[r] = rows.get(r, 0) + 1
            cols[c] = cols.get(c, 0) + 1
        kept = {(r, c): n for (r, c), n in numbers.items() if rows[r] > 1 or cols[c] > 1}
        if len(kept) == len(numbers):
            return kept
        numbers = kept


def _first_look(gray: np.ndarray) -> tuple[np.ndarray, list[Glyph]]:
    """The glyphs of the polarity whose numbers read with more confidence, and that polarity's
    picture relative to its paper: numbers 1 to 8 read with a chance of :data:`SURE` or more,
    of about the usual height, and only those in circles or squares if most are."""
    best: tuple[float, np.ndarray, list[Glyph]] | None = None
    for light_ink in (False, True):
        flattened = relative(gray, light_ink)
        found = [glyph for glyph in candidates(ink(flattened)) if _island_number(glyph)]
        found = _usual_height(found)
        enclosed = [glyph for glyph in found if glyph.enclosed]
        if len(enclosed) >= 0.6 * len(found) and len(enclosed) >= 2:
            found = enclosed
        score = sum(glyph.certainty for glyph in found)
        if best is None or score > best[0]:
            best = (score, flattened, found)
    assert best is not None
    return best[1], best[2]


def _island_number(glyph: Glyph) -> bool:
    """Whether a glyph of the first look is taken for an island's number: one in a circle or a
    square with a chance of :data:`ENCLOSED` or more of being one of 1 to 8 (a number drawn
    small or blurred), or one of 1 to 8 with a chance of :data:`SURE` or more, or
    :data:`SURE_IN_CLUTTER` where there is some ink around it; never one not enclosed in the
    midst of ink (the grain of a table, a pattern)."""
    assert glyph.chances is not None
    if glyph.enclosed:  # (its circle is ink around it: no clutter)
        return float(glyph.chances[1:9].sum()) >= ENCLOSED
    if glyph.clutter > CLUTTERED:
        return False
    sure = SURE if glyph.clutter <= CLEAR else SURE_IN_CLUTTER
    return glyph.number is not None and glyph.chances[glyph.digit] >= sure


def _usual_height(found: list[Glyph]) -> list[Glyph]:
    """The glyphs of about the most common height (island numbers are of one size)."""
    if len(found) < 3:
        return found
    heights = np.array([glyph.height for glyph in found], np.float64)
    # The height most glyphs are near (not the median: text around the puzzle may be many).
    near = [np.count_nonzero(np.abs(heights - h) <= 0.2 * h) for h in heights]
    usual = float(np.median(heights[np.array(near) >= max(near) * 0.8]))
    return [glyph for glyph in found if 0.72 * usual <= glyph.height <= 1.35 * usual]
