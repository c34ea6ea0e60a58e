"""The bridges drawn in a picture of a game going on: for each pair of neighbouring islands,
how many parallel lines join them (:func:`drawn`).

Read from the rectified picture (:mod:`.reading`: each cell ``pitch`` pixels, ``border`` cells
before the lattice's first row and column, every pixel between the ink, 0, and the paper, 1,
whatever the polarity).  Between two islands of a row (or a column) with no island between,
the stretch clear of both islands' frames and numbers (:data:`ISLAND`) is cut into pieces
about half a cell long.  Across each piece, the profile of its darkness (at each distance from
the line of the islands' centres, the darkness :data:`ALONG` of the piece has at least: a
bridge crossing it, or a speck, is less of it) has a peak for each line drawn along it.  A line
is a peak :data:`DARK` or darker with paper on both sides, at most :data:`WIDEST` of a cell
wide; two peaks are two lines when the paper between them is clearly lighter (:data:`DIP`).
A bridge is a line found in every piece of the stretch, at about the same place from one piece
to the next (:data:`DRIFT`): it joins both islands, where a line crossing the stretch partway,
a mark of "no bridge", a label or the edge of a shadow does not.  Up to :data:`MOST` lines are
counted; a line that stands out from the paper less than the numbers' reader needs (a line
thinner than a pixel, or faint) is not seen.

A grid drawn along every row and column (as some apps draw it) is a line between every two
cells.  Beside an island, towards a cell where no island is in that row or column, no bridge
can be: what is drawn there is the grid's, and a line with no more ink than the grid's line at
its place (:data:`ABOVE_GRID`) is the grid's, no bridge.  A bridge drawn over a grid's line is
seen where it is darker or wider than that line.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping

import numpy as np

from ..puzzle import Bridge, Cell, Pair, bridge

MOST = 4  # the most parallel lines counted between two islands (Simon Tatham's Bridges: 4)
REACH = 0.4  # of a cell: how far the profile reaches each side of the islands' centres' line
ISLAND = 0.44  # of a cell: from an island's centre, how far its frame and number may reach
PIECE = 0.5  # of a cell: about the length of each piece of a stretch
ALONG = 0.7  # of a piece: how much of it a line is dark along, at least
DARK = 0.36  # the least darkness (1 - the rectified picture) of a line, along a piece
DIP = 0.2  # how much lighter than both lines the paper between two lines is, at least
WIDEST = 0.22  # of a cell: the widest line (its width at half its darkness)
DRIFT = 0.07  # of a cell: how far a line may move across from one piece to the next
ABOVE_GRID = 1.3  # times the ink of the grid's line at its place, the least of a bridge's line
LEAST_STRETCHES = 4  # stretches where no bridge can be, the fewest to take the grid's profile
GRID = 0.25  # of those stretches, the least share that shows a line where a grid's line is


def drawn(
    rectified: np.ndarray, islands: Iterable[Cell], pitch: float, border: int
) -> dict[Pair, int]:
    """The number of bridges (0 to :data:`MOST`) drawn between each pair of neighbouring
    ``islands`` (cells of the lattice: (r, c) centred at ((c + border) * pitch, (r + border)
    * pitch) in ``rectified``), each pair in reading order."""
    cells = sorted(set(islands))
    found: dict[Pair, int] = {}
    grid = _grid_profile(rectified, cells, pitch, border)
    for across in (True, False):
        for a, b in _neighbours(cells, across):
            pieces = _pieces(rectified, a, b, across, pitch, border)
            found[a, b] = _lines_through(pieces, grid, pitch)
    return dict(sorted(found.items()))


def moved_bridges(
    found: Mapping[Pair, int], islands: Iterable[Cell], by: Cell
) -> tuple[Bridge, ...]:
    """The bridges ``found`` (counts of 1 or more) between two of ``islands``, moved back by
    ``by`` (the puzzle's top left corner in the lattice), in reading order."""
    kept = set(islands)
    top, left = by
    return tuple(
        sorted(
            bridge((a[0] - top, a[1] - left), (b[0] - top, b[1] - left), count)
            for (a, b), count in found.items()
            if count > 0 and a in kept and b in kept
        )
    )


def _neighbours(cells: list[Cell], across: bool) -> list[Pair]:
    """The pairs of islands next to each other in a row (``across``) or a column."""
    if across:
        ordered = sorted(cells)
        return [(a, b) for a, b in itertools.pairwise(ordered) if a[0] == b[0]]
    ordered = sorted(cells, key=lambda cell: (cell[1], cell[0]))
    return [(a, b) for a, b in itertools.pairwise(ordered) if a[1] == b[1]]


def _strip(
    rectified: np.ndarray, start: Cell, along: tuple[float, float], across: bool,
    pitch: float, border: int,
) -> np.ndarray:  # fmt: skip
    """The darkness of the picture along a row (``across``) or a column from the cell
    ``start``'s centre, from ``along[0]`` to ``along[1]`` cells on: one row of pixels for each
    pixel along, one column for each pixel across (:data:`REACH` each side)."""
    r, c = start
    reach = round(REACH * pitch)
    centre = round((r if across else c) + border) * pitch
    first = ((c if across else r) + border + along[0]) * pitch
    last = ((c if across else r) + border + along[1]) * pitch
    low, high = round(centre - reach), round(centre + reach) + 1
    begin, end = round(first), max(round(last), round(first) + 1)
    part = rectified[low:high, begin:end].T if across else rectified[begin:end, low:high]
    if part.shape != (end - begin, high - low):  # (off the picture: paper)
        return np.zeros((max(0, end - begin), high - low), np.float32)
    return 1.0 - part.astype(np.float32)


def _pieces(
    rectified: np.ndarray, a: Cell, b: Cell, across: bool, pitch: float, border: int
) -> Iterator[np.ndarray]:
    """The profiles across the stretch between islands ``a`` and ``b`` (clear of both by
    :data:`ISLAND`), one for each piece about :data:`PIECE` of a cell long."""
    span = (b[1] - a[1]) if across else (b[0] - a[0])
    strip = _strip(rectified, a, (ISLAND, span - ISLAND), across, pitch, border)
    count = max(1, round(len(strip) / (PIECE * pitch)))
    for part in np.array_split(strip, count):
        if len(part):
            yield _profile(part)


def _profile(piece: np.ndarray) -> np.ndarray:
    """The darkness across a piece (rows along it, columns across): at each place across, the
    darkness that :data:`ALONG` of the piece has at least (a line along it has it all along,
    a bridge crossing it or a speck only at some), less the lightest of those across (a
    bridge crossing most of it darkens all alike)."""
    profile = np.percentile(piece, 100 * (1 - ALONG), axis=0)
    return profile - float(np.percentile(profile, 10))


def _grid_profile(
    rectified: np.ndarray, cells: list[Cell], pitch: float, border: int
) -> np.ndarray | None:
    """The profile of what is drawn beside islands where no bridge can be: from an island
    towards the next cell of its row or column, where no island is that way.  A grid's lines,
    if one is drawn along every row and column (:data:`GRID` of those stretches show a line
    where its lines are; the picture relative to its paper shows a faint line only near other
    ink, as it is beside an island); None where there are too few such stretches to tell."""
    profiles = [
        _profile(strip)
        for across in (True, False)
        for strip in _island_sides(rectified, cells, across, pitch, border)
        if len(strip)
    ]
    if len(profiles) < LEAST_STRETCHES:
        return None
    return np.percentile(np.array(profiles), 100 * (1 - GRID), axis=0)


def _island_sides(
    rectified: np.ndarray, cells: list[Cell], across: bool, pitch: float, border: int
) -> Iterator[np.ndarray]:
    """The darkness (:func:`_strip`) from each island to the next cell of its row (``across``)
    or column, both ways, where no island is that way: within the islands' lattice."""
    first = min(cell[1] if across else cell[0] for cell in cells)
    last = max(cell[1] if across else cell[0] for cell in cells)
    ordered = sorted(cells, key=lambda cell: cell if across else (cell[1], cell[0]))
    for i, cell in enumerate(ordered):
        spot = cell[1] if across else cell[0]
        line = cell[0] if across else cell[1]
        before = i > 0 and (ordered[i - 1][0] if across else ordered[i - 1][1]) == line
        after = (
            i + 1 < len(ordered) and (ordered[i + 1][0] if across else ordered[i + 1][1]) == line
        )
        if not before and spot > first:
            yield _strip(rectified, cell, (-1.0, -ISLAND), across, pitch, border)
        if not after and spot < last:
            yield _strip(rectified, cell, (ISLAND, 1.0), across, pitch, border)


def _lines_through(pieces: Iterable[np.ndarray], grid: np.ndarray | None, pitch: float) -> int:
    """The lines found in every piece of a stretch, each at about the same place from one piece
    to the next (:data:`DRIFT`), at most :data:`MOST`; the pieces after one without a line are
    not looked at."""
    drift = DRIFT * pitch
    ongoing: list[float] | None = None
    for profile in pieces:
        found = _lines(profile, grid, pitch)
        if ongoing is not None:  # each line on, where it is in this piece
            found = sorted(
                {
                    min(found, key=lambda at: abs(at - line))
                    for line in ongoing
                    if found and min(abs(at - line) for at in found) <= drift
                }
            )
        if not found:
            return 0
        ongoing = found
    return min(MOST, len(ongoing or []))


def _lines(profile: np.ndarray, grid: np.ndarray | None, pitch: float) -> list[float]:
    """Where the lines are across one piece (pixels from the profile's start): its peaks
    :data:`DARK` or darker with paper on both sides, at most :data:`WIDEST` of a cell wide,
    darker than a grid's line there, two of them only with lighter paper between."""
    peaks = _peaks(profile)
    # Each peak reaches at most to the lightest paper between it and the next.
    splits = [0, *(at + int(profile[at:after].argmin()) for at, after in itertools.pairwise(peaks))]
    splits.append(len(profile) - 1)
    lines = []
    for i, at in enumerate(peaks):
        half = profile >= float(profile[at]) / 2
        low, high = at, at
        while low > splits[i] and half[low - 1]:
            low -= 1
        while high < splits[i + 1] and half[high + 1]:
            high += 1
        if low == 0 or high == len(profile) - 1 or high - low + 1 > WIDEST * pitch:
            continue  # (no paper on one side, or no line: a shadow's edge, a blot)
        if grid is not None and _the_grids(profile, grid, low, high):
            continue
        lines.append((low + high) / 2)  # (its middle: a thick line's top is flat)
    return lines


def _the_grids(profile: np.ndarray, grid: np.ndarray, low: int, high: int) -> bool:
    """Whether the line from ``low`` to ``high`` across a piece is no more than the grid's line
    there: not :data:`ABOVE_GRID` times as much ink (its darkness summed across it: what a blur
    keeps), a pixel more each side for the grid's (a line a pixel off, where the lattice is)."""
    ink = float(profile[low : high + 1].sum())
    grids = float(grid[max(0, low - 1) : high + 2].sum())
    return ink < ABOVE_GRID * grids


def _peaks(profile: np.ndarray) -> list[int]:
    """The places of the profile's peaks of :data:`DARK` or more, each with paper lighter by
    :data:`DIP` between it and the next (of two peaks without, the darker stands)."""
    peaks: list[int] = []
    for at in range(len(profile)):
        value = profile[at]
        if value < DARK:
            continue
        left = profile[at - 1] if at > 0 else -1.0
        right = profile[at + 1] if at + 1 < len(profile) else -1.0
        if not (value >= left and value > right):
            continue
        if peaks:
            before = peaks[-1]
            valley = float(profile[before : at + 1].min())
            if valley > min(float(profile[before]), float(value)) - DIP:
                if value > profile[before]:
                    peaks[-1] = at
                continue
        peaks.append(at)
    return peaks
