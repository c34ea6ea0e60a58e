"""A puzzle read from a picture: the steps, from the bytes of a file to islands with how sure
the reader is of each.

1. The picture, decoded by OpenCV (PNG, JPEG, WebP...), in grey, a transparent background as
   white, shrunk to :data:`LONGEST` pixels at most.
2. The glyphs (:mod:`.glyphs`) of both polarities, dark on light and light on dark; the one
   whose digits read with more confidence is the picture's.  Of those, the numbers 1 to 8 of
   about the usual height and clear of their paper (not noise shaped like a digit); if most
   sit in a circle or a square, only those.
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
from .glyphs import Glyph, candidates, cell_glyph, frames, ink, relative
from .lattice import fit

LONGEST = 2400  # pixels: a larger picture is shrunk first (a phone's photo is 4000 or more)
PITCH = 48  # pixels a cell in the rectified picture
BORDER = 2  # cells of the rectified picture before the lattice's first row and column
SURE = 0.5  # the least chance of a first look's digit
ENCLOSED = 0.2  # the least chance of being one of 1 to 8 of a first look's glyph in a circle
SOLID = 0.9  # the solidity (Glyph.solidity) from which a glyph is a blob, not strokes
SURE_SOLID = 0.8  # the least chance of its number of a blob in a circle
CLEAR = 0.03  # share of ink around a glyph on clear paper, at most
SURE_IN_CLUTTER = 0.9  # the least chance of a digit with more ink than that around it
CLUTTERED = 0.1  # share of ink around a glyph beyond which it is taken for no number
NEW_ISLAND = 0.9  # the least chance of a digit the second look alone finds
FAINT = 0.3  # of the usual contrast of a glyph with its paper, the least a number has
UNREADABLE = 0.3  # of a number in a frame the second look alone finds, less: not read
MISSED = 0.1  # the least chance of a number, of a glyph not taken for one, to be offered


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


def islands(data: bytes, source: str) -> tuple[int, int, dict[Cell, int | None], Reading]:
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
    enclosed = [glyph.frame for glyph in found if glyph.enclosed]
    frame = float(np.median(enclosed)) if len(enclosed) >= 0.6 * len(found) else 0.0
    lattice = fit(points, height, frame)
    seen = {cell: found[i] for i, cell in lattice.cells.items()}
    if len(seen) < 2:
        raise PuzzleError("no puzzle found in the picture: the numbers seen are on no grid", source)
    rows, cols = lattice.rows, lattice.cols
    # The rectified picture: cell (r, c) centred at ((c + BORDER) * PITCH, (r + BORDER) *
    # PITCH), a ring of cells around the lattice (a frame there whose number was not read).
    to_lattice = np.array([[1 / PITCH, 0, -BORDER], [0, 1 / PITCH, -BORDER], [0, 0, 1.0]])
    rectified = cv2.warpPerspective(
        flattened,
        lattice.homography @ to_lattice,
        ((cols + 2 * BORDER - 1) * PITCH, (rows + 2 * BORDER - 1) * PITCH),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=1.0,
    )
    framed = _framed(rectified, rows, cols, set(seen))
    second: dict[Cell, Glyph] = {}
    for r in range(-1, rows + 1):
        for c in range(-1, cols + 1):
            if not (0 <= r < rows and 0 <= c < cols) and (r, c) not in framed:
                continue
            x, y = (c + BORDER) * PITCH, (r + BORDER) * PITCH
            glyph = cell_glyph(rectified, x, y, PITCH, touching=(r, c) in seen or (r, c) in framed)
            if glyph is not None:
                second[r, c] = glyph
    read = digits.chances([glyph.mask for glyph in second.values()])
    looked = dict(zip(second, read))
    seen_heights = [glyph.height for cell, glyph in second.items() if cell in seen]
    usual = float(np.median(seen_heights)) if seen_heights else 0.4 * PITCH
    numbers: dict[Cell, int | None] = {}
    confidence: dict[Cell, float] = {}
    likely: dict[Cell, tuple[float, ...]] = {}
    missed: dict[Cell, tuple[float, ...]] = {}
    for cell in sorted({*seen, *looked, *framed}):
        chances = looked.get(cell)
        if cell in seen:
            first = seen[cell].chances
            assert first is not None
            chances = first if chances is None else (first + chances) / 2
        elif cell in framed:  # an island whose number may be unreadable
            if chances is None or chances[1:9].max() < UNREADABLE:
                numbers[cell], confidence[cell] = None, 0.0
                likely[cell] = () if chances is None else _rounded(chances)
                continue
        else:
            assert chances is not None
            if (
                chances.argmax() not in range(1, 9)
                or chances.max() < NEW_ISLAND
                or not 0.75 * usual <= second[cell].height <= 1.3 * usual
            ):  # not a number of this puzzle's size: perhaps one the picture spoils
                if chances[1:9].max() >= MISSED and 0.5 * usual <= second[cell].height:
                    missed[cell] = _rounded(chances)
                continue
        number = int(chances[1:9].argmax()) + 1
        numbers[cell] = number
        confidence[cell] = round(float(chances[number]), 3)
        likely[cell] = _rounded(chances)
    kept = _seen_by_another(numbers)
    missed.update({cell: likely[cell] for cell in numbers if cell not in kept and likely[cell]})
    numbers = kept
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
        missed={
            (r - top, c - left): chances
            for (r, c), chances in sorted(missed.items(), key=lambda item: -max(item[1]))
            if 0 <= r - top < rows and 0 <= c - left < cols
        },
    )
    return rows, cols, moved, reading


def _rounded(chances: np.ndarray) -> tuple[float, ...]:
    """The chances of the numbers 1 to 8, rounded."""
    return tuple(round(float(p), 4) for p in chances[1:9])


def _framed(rectified: np.ndarray, rows: int, cols: int, seen: set[Cell]) -> set[Cell]:
    """The cells of the lattice, and of the ring of cells around it, with an island's circle
    or square, when the islands seen have them: a frame of about their frames' size centred on
    the cell (a number painted over, or too faint to read, leaves its frame).  None where
    frames are found at many empty cells (a grid drawn, a pattern)."""
    at: dict[Cell, float] = {}
    for x, y, size in frames(rectified, PITCH):
        col, row = x / PITCH - BORDER, y / PITCH - BORDER
        cell = (round(row), round(col))
        near = max(abs(row - cell[0]), abs(col - cell[1])) <= 0.2
        if near and cell not in at and -1 <= cell[0] <= rows and -1 <= cell[1] <= cols:
            at[cell] = size
    sizes = [size for cell, size in at.items() if cell in seen]
    if len(sizes) < max(2, 0.6 * len(seen)):
        return set()
    usual = float(np.median(sizes))
    found = {cell for cell, size in at.items() if 0.8 * usual <= size <= 1.25 * usual}
    if len(found - seen) > 1 + 0.3 * len(seen):
        return set()
    return found - seen


def _seen_by_another(numbers: dict[Cell, int | None]) -> dict[Cell, int | None]:
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
        found = _clear(gray, _usual_height(found))
        enclosed = [glyph for glyph in found if glyph.enclosed]
        if len(enclosed) >= 0.6 * len(found) and len(enclosed) >= 2:
            found = enclosed
        score = sum(glyph.certainty for glyph in found)
        if best is None or score > best[0]:
            best = (score, flattened, found)
    assert best is not None
    return best[1], best[2]


def _clear(gray: np.ndarray, found: list[Glyph]) -> list[Glyph]:
    """The glyphs whose ink stands out from the paper in their box by :data:`FAINT` of the
    usual glyph's contrast or more: not grain or noise of a dark page that happens to be
    shaped like a digit."""
    if len(found) < 3:
        return found
    contrast = []
    for glyph in found:
        box = gray[glyph.y : glyph.y + glyph.height, glyph.x : glyph.x + glyph.width]
        inked = glyph.mask > 0
        paper = box[~inked]
        contrast.append(abs(float(box[inked].mean()) - float(paper.mean())) if paper.size else 0.0)
    usual = float(np.median(contrast))
    return [glyph for glyph, value in zip(found, contrast) if value >= FAINT * usual]


def _island_number(glyph: Glyph) -> bool:
    """Whether a glyph of the first look is taken for an island's number: one in a circle or a
    square with a chance of :data:`ENCLOSED` or more of being one of 1 to 8 (a number drawn
    small or blurred), or one of 1 to 8 with a chance of :data:`SURE` or more, or
    :data:`SURE_IN_CLUTTER` where there is some ink around it; never one not enclosed in the
    midst of ink (the grain of a table, a pattern)."""
    assert glyph.chances is not None
    if glyph.enclosed:  # (its circle is ink around it: no clutter)
        if glyph.solidity >= SOLID and glyph.certainty < SURE_SOLID:
            return False  # the counter of a letter, taking the paper for ink (an "o")
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
