"""Ink and glyphs: what in a picture may be an island's number.

:func:`relative` flattens the light first: every pixel is placed between the ink and the
paper around it, each estimated everywhere over a window wider than a number, so that a shadow
or light falling off to one side leaves the ink as clear against the paper as elsewhere;
:func:`ink` is what is nearer the ink.  Light on dark (a night mode) is the same with ink and
paper the other way round; the reader tries both and keeps the one whose glyphs read better.

:func:`candidates` are the pieces of ink shaped like a digit: not too small, not wider than
tall, not part of a word (another glyph of their height close beside them, as in "Level 5" or
"08:36"), each with the classifier's chances (:mod:`.digits`) and whether it sits in the hole
of a circle or a square.  :func:`cell_glyph` cuts out the glyph at one cell of the rectified
picture (see :mod:`.reading`).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import digits

CONTRAST = 24  # grey levels ink and paper must at least differ by
RATIO = 1.6  # times the darker of ink and paper the lighter must at least be
SHARE = 0.3  # of the clearest contrast of ink on paper in the picture, at least
SMALLEST = 6  # pixels: the least height of a glyph
LARGE = 4  # glyphs' heights: a piece of ink longer than this is no clutter
WORD_GAP = 0.6  # of a glyph's height: nearer than this beside another, it is part of a word


@dataclass
class Glyph:
    """One piece of ink that may be a digit: its box (``x``, ``y``, ``width``, ``height`` in
    pixels of the picture), its ``mask`` (cut to the box), the classifier's ``chances``,
    whether it is ``enclosed`` by a circle or a square, and its ``clutter``: the share of ink
    around it (within twice its height, but its own), near none for a number on paper, with a
    circle at most a tenth, much more for a speck of a table's grain; and the ``frame``'s size
    in pixels, the larger side of the circle or square it is in, if it is enclosed."""

    x: int
    y: int
    width: int
    height: int
    mask: np.ndarray
    chances: np.ndarray | None = None
    enclosed: bool = False
    clutter: float = 0.0
    frame: float = 0.0  # the larger side of the circle or square it is in, if enclosed

    @property
    def centre(self) -> tuple[float, float]:
        return self.x + self.width / 2, self.y + self.height / 2

    @property
    def digit(self) -> int:
        assert self.chances is not None
        return int(self.chances.argmax())

    @property
    def certainty(self) -> float:
        """The chance of its likeliest number from 1 to 8."""
        return 0.0 if self.chances is None else float(self.chances[1:9].max())

    @property
    def solidity(self) -> float:
        """Its pixels' share of their convex hull: near 1 for a solid blob (a dot, the counter of
        a letter seen as ink), well below for a digit's strokes but a plain 1."""
        points = cv2.findNonZero(self.mask)
        if points is None:
            return 0.0
        hull = cv2.convexHull(points)
        # The hull runs through the outer pixels' centres: half its perimeter and a pixel more
        # are the pixels it cuts through, as a pixel count.
        return float(len(points)) / (cv2.contourArea(hull) + cv2.arcLength(hull, True) / 2 + 1)

    @property
    def number(self) -> int | None:
        """The island number it reads as (1 to 8), or None."""
        return self.digit if 1 <= self.digit <= 8 else None


def relative(gray: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel between the ink (0) and the paper (1) around it, taking the ink dark and
    then light: the brightest and the darkest values near each pixel (over a window wider than
    a number, smoothed) are the paper's and the ink's, or the other way round.  Where the two
    are too close to tell ink from paper (a blank stretch of paper, the grain of a table,
    noise on a dark page), 1.  The light is estimated once for both."""
    side = max(15, min(gray.shape) // 30) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (side, side))
    brightest = cv2.blur(cv2.dilate(gray, kernel), (side, side))
    darkest = cv2.blur(cv2.erode(gray, kernel), (side, side))
    spread = cv2.subtract(brightest, darkest)  # (never below 0: a dilation is never darker)
    # Clear: as far apart as a few grey levels, a share of the ink's own contrast in this
    # picture (noise on a dark page is not ink), and a share of the light there.
    strong = _percentile(spread, 99)
    clear = (spread >= max(CONTRAST, SHARE * strong)) & (
        brightest.astype(np.float32) >= RATIO * darkest.astype(np.float32)
    )
    apart = np.maximum(spread, 1).astype(np.float32)
    values = gray.astype(np.float32)
    dark = np.where(clear, np.clip((values - darkest) / apart, 0, 1), 1).astype(np.float32)
    light = np.where(clear, np.clip((brightest - values) / apart, 0, 1), 1).astype(np.float32)
    return dark, light


def _percentile(values: np.ndarray, q: float) -> float:
    """``np.percentile(values, q)`` of grey levels (uint8), linear between the two nearest,
    from their counts: a picture's pixels are counted in one pass where sorting them takes
    several (measured: a sixth of reading a page of words)."""
    counts = np.cumsum(np.bincount(values.ravel(), minlength=256))
    at = q / 100 * (values.size - 1)
    below = int(np.floor(at))
    low = int(np.searchsorted(counts, below, side="right"))
    high = int(np.searchsorted(counts, below + 1, side="right")) if below + 1 < values.size else low
    return float(low + (at - below) * (high - low))


def ink(relative: np.ndarray) -> np.ndarray:
    """Ink (255) where a pixel is nearer the ink's value than the paper's: halfway keeps the
    strokes as wide as drawn whether the ink is black on white or faint in a shadow."""
    return (relative < 0.5).astype(np.uint8) * 255


class Crowded(Exception):
    """More pieces of ink shaped like a digit (``count``) than :func:`candidates` was asked to
    look at."""

    def __init__(self, count: int):
        super().__init__(f"{count} pieces of ink shaped like a digit")
        self.count = count


def candidates(mask: np.ndarray, most: int | None = None) -> list[Glyph]:
    """The pieces of ink shaped like a digit, read by the classifier, without those that are
    part of a word; more than ``most`` pieces of that shape (words or not) raise
    :class:`Crowded` before any is looked at further."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    boxes = stats[1:, :4].astype(np.int64)  # every piece's (x, y, width, height), for the words
    w, h = boxes[:, 2], boxes[:, 3]
    area = stats[1:, cv2.CC_STAT_AREA]
    shaped = (h >= SMALLEST) & (h <= mask.shape[0] / 4) & (w <= 1.05 * h) & (area >= 12)
    shaped &= (area / (w * h) >= 0.08) & (area / (w * h) <= 0.95)
    pieces = np.flatnonzero(shaped).tolist()
    if most is not None and len(pieces) > most:
        raise Crowded(len(pieces))
    # Sorted by their tops, so that a glyph is compared only with the pieces that can be on its
    # line (in a page of text, every glyph with every piece took 11 s for 30 000 of them).
    by_top = boxes[np.argsort(boxes[:, 1], kind="stable")]
    chosen = [i for i in pieces if not _in_a_word(boxes[i], by_top)]
    found = []
    for i in chosen:
        x, y, width, height = (int(v) for v in boxes[i])
        piece = (labels[y : y + height, x : x + width] == i + 1).astype(np.uint8) * 255
        found.append(Glyph(x, y, width, height, piece))
    if found:
        chances = digits.chances([glyph.mask for glyph in found])
        for glyph, row in zip(found, chances):
            glyph.chances = row
    _mark_enclosed(mask, found)
    if found:
        # Clutter is grain and pattern: small pieces of ink.  A large piece (the edge of a
        # table past the page, a shadow, a line drawn) is no clutter, even beside a number.
        usual = float(np.median([glyph.height for glyph in found]))
        large = np.flatnonzero(np.maximum(w, h) > LARGE * usual) + 1
        small = (mask > 0) & ~np.isin(labels, large)
        _measure_clutter(small, found)
    return found


def _measure_clutter(mask: np.ndarray, glyphs: list[Glyph]) -> None:
    """Each glyph's share of ink around it, within two heights, its own left out: of the ink
    in ``mask`` (the small pieces)."""
    summed = cv2.integral(mask.astype(np.uint8))
    height, width = mask.shape
    for glyph in glyphs:
        cx, cy = glyph.centre
        reach = 2 * glyph.height
        x0, x1 = max(0, int(cx - reach)), min(width, int(cx + reach))
        y0, y1 = max(0, int(cy - reach)), min(height, int(cy + reach))
        around = summed[y1, x1] - summed[y0, x1] - summed[y1, x0] + summed[y0, x0]
        own = int(np.count_nonzero(glyph.mask))
        glyph.clutter = max(0, int(around) - own) / max(1, (x1 - x0) * (y1 - y0))


def _in_a_word(box: np.ndarray, by_top: np.ndarray) -> bool:
    """Another piece of ink of about the glyph's height close beside it, on its line: a
    letter, a dot or a colon, or a taller letter (a capital, letters run together) beside it,
    but never what encloses it (a circle, a square).  ``box``: the glyph's (x, y, width,
    height); ``by_top``: every piece's, one a row, sorted by their tops (y)."""
    gx, gy, gw, h = (int(v) for v in box)
    # A piece on the glyph's line is at most 2.2 times as tall and overlaps it: its top is
    # within that reach above the glyph's and above the glyph's bottom.
    tops = by_top[:, 1]
    near = by_top[np.searchsorted(tops, gy - 2.2 * h) : np.searchsorted(tops, gy + h)]
    x, y, w, other_h = near.T
    itself = (x == gx) & (y == gy) & (w == gw) & (other_h == h)
    around = (x <= gx) & (x + w >= gx + gw)  # or above or below it
    # (a dot or a colon counts as a letter beside it)
    sized = ((0.55 * h <= other_h) & (other_h <= 2.2 * h)) | ((other_h < 0.55 * h) & (w > 0.15 * h))
    overlap = np.minimum(y + other_h, gy + h) - np.maximum(y, gy)
    on_line = overlap >= 0.4 * np.minimum(h, other_h)
    gap = np.maximum(x - (gx + gw), gx - (x + w))
    return bool(np.any(~itself & ~around & sized & on_line & (gap < WORD_GAP * h)))


def holes(mask: np.ndarray) -> np.ndarray:
    """The holes in the ink of ``mask`` (255 ink on 0 paper): each as the box (x, y, width,
    height) of the ink around it, one a row, the boxes of the inner contours
    ``cv2.findContours`` gives with ``RETR_CCOMP``.  They are found as the pieces of paper
    (4-connected, as the 8-connected ink leaves them) that do not reach the picture's edge,
    each box a pixel wider on every side: the same boxes, in a time that does not grow with
    the number of holes (measured on random noise of 2000 x 2400 pixels, 262 000 holes: 6.9 s
    for the contours, 0.02 s for the pieces)."""
    paper = (mask == 0).astype(np.uint8)
    _, _, stats, _ = cv2.connectedComponentsWithStats(paper, connectivity=4)
    x, y, w, h = (stats[1:, i].astype(np.int64) for i in range(4))
    height, width = mask.shape
    inside = (x > 0) & (y > 0) & (x + w < width) & (y + h < height)
    return np.stack([x - 1, y - 1, w + 2, h + 2], axis=1)[inside]


def _mark_enclosed(mask: np.ndarray, glyphs: list[Glyph]) -> None:
    """Mark the glyphs that sit in a hole of the ink (a circle's or a square's) of a fitting
    size, about centred on them."""
    if not glyphs:
        return
    found = holes(mask).astype(np.float64)
    x, y, w, h = found.T
    side = np.maximum(w, h)
    # Only holes that may be a frame: about square, larger than the smallest glyph.
    keep = (0.7 * h <= w) & (w <= 1.43 * h) & (side >= 1.15 * SMALLEST)
    x, y, w, h, side = x[keep], y[keep], w[keep], h[keep], side[keep]
    for glyph in glyphs:
        cx, cy = glyph.centre
        fitting = (
            (1.15 * glyph.height <= side)
            & (side <= 4.5 * glyph.height)
            & (np.abs(x + w / 2 - cx) < 0.2 * w)
            & (np.abs(y + h / 2 - cy) < 0.2 * h)
        )  # (centred on the glyph, so around its centre)
        if fitting.any():
            glyph.enclosed, glyph.frame = True, float(side[np.argmax(fitting)])


def cell_glyph(
    relative: np.ndarray,
    cx: float,
    cy: float,
    pitch: float,
    *,
    touching: bool = False,
    disc: bool = False,
) -> Glyph | None:
    """The glyph at a cell of the rectified picture whose centre is (``cx``, ``cy``): the ink
    in a window of 0.64 cells around it, without the pieces that reach the window's edge
    (circles, squares, bridges, grid lines, the neighbours' numbers).  If nothing else is
    there, the ink within 0.3 cells of the centre is taken (a number that touches its circle):
    with ``touching`` (a cell where a glyph was seen before) whatever it is, else only if it
    keeps off the edge of that disc (a line through the cell crosses it).  With ``disc``, the
    ink within that disc whatever else is there: a number touching its circle, which a bridge
    drawn to the circle joins to the window's edge, is cut from it so."""
    half = round(float(0.32 * pitch))
    x0, y0 = round(float(cx)) - half, round(float(cy)) - half
    window = relative[max(0, y0) : y0 + 2 * half + 1, max(0, x0) : x0 + 2 * half + 1]
    if window.shape[0] < 2 * half or window.shape[1] < 2 * half:
        return None
    mask = ink(window)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    size = window.shape[0]
    keep = []
    for i in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[i])
        if x == 0 or y == 0 or x + w >= size or y + h >= size or area < 3:
            continue
        keep.append(i)
    if keep and not disc:
        tallest = max(stats[i, cv2.CC_STAT_HEIGHT] for i in keep)
        keep = [i for i in keep if stats[i, cv2.CC_STAT_AREA] >= 4 and (
            stats[i, cv2.CC_STAT_HEIGHT] >= 0.3 * tallest)]  # fmt: skip
        glyph = np.isin(labels, keep).astype(np.uint8) * 255
    else:
        ys, xs = np.mgrid[0:size, 0:size]
        apart = np.hypot(ys - size / 2, xs - size / 2)
        glyph = mask * (apart <= 0.3 * pitch)
        if not touching and np.count_nonzero(glyph[apart > 0.3 * pitch - 2]) > 2:
            return None
    return _cut(glyph, x0, y0, pitch)


def _cut(glyph: np.ndarray, x0: int, y0: int, pitch: float) -> Glyph | None:
    """The glyph of the ink ``glyph`` of a cell's window (its corner at ``x0``, ``y0``), cut to
    its ink; None if it is too little, too small or too large for a number."""
    ys, xs = np.nonzero(glyph)
    if len(ys) < 6:
        return None
    top, bottom, left, right = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    h = bottom - top
    if h < 0.2 * pitch or h > 0.62 * pitch or (right - left) > 1.1 * h:
        return None
    cut = glyph[top:bottom, left:right]
    return Glyph(x0 + int(left), y0 + int(top), int(right - left), int(h), cut)


def frames(relative: np.ndarray, pitch: float) -> list[tuple[float, float, float]]:
    """The holes in the ink of the rectified picture shaped like an island's circle or square:
    about as wide as tall, between 0.3 and 0.95 cells across; each as its centre and its
    size (the larger side), in pixels.  A number's own holes (in a 6, an 8) are smaller."""
    x, y, w, h = holes(ink(relative)).astype(np.float64).T
    side = np.maximum(w, h)
    keep = (0.3 * pitch <= side) & (side <= 0.95 * pitch) & (w / h >= 0.75) & (w / h <= 1.33)
    return [
        (float(a + c / 2), float(b + d / 2), float(e))
        for a, b, c, d, e in zip(x[keep], y[keep], w[keep], h[keep], side[keep])
    ]
