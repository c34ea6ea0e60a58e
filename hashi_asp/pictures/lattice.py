"""The grid, worked out from where the numbers are.

Islands stand on the points of a square lattice, seen in a picture through a homography (a
page photographed at an angle, turned a little; a screenshot is the plain case).  No grid need
be drawn: :func:`fit` finds the lattice from the glyphs' centres alone.

1. The turn: the directions from each glyph to its nearest neighbours, folded into a quarter
   turn, mostly point along the rows and columns; the most common direction within 15 degrees
   is the turn.
2. The pitch: the nearest neighbour along a row or a column, in the distance most glyphs have
   one at.  That may be two or three cells (no two islands of the puzzle one cell apart), so
   it is divided by the least whole number that makes a cell at most :data:`CELL_OVER_GLYPH`
   times a glyph's height (a number fills a good part of its cell in every drawing) and at
   most :data:`CELL_OVER_FRAME` times its circle's or square's size, if drawn, and by the
   next ones if the lattice does not fit.
3. The growth: from the glyph nearest the middle, each glyph in turn, the nearest to those
   placed first, goes to the lattice point nearest to where the lattice placed so far (a
   similarity, then an affine map, then a homography, as there are points spread enough to
   pin them down) puts it; one too far from every lattice point, or on a point taken, is left
   out, and tried again once the lattice has grown.  Growing outwards from the middle keeps
   each step short, where a map guessed from a few points is still right.
4. The homography fitted to all glyphs placed places them all once more.
5. If that leaves a glyph out, or one farther than :data:`CLOSE` from its point (a lattice
   grown wrong from few glyphs at a steep angle: a row or column too many or too few),
   lattices are grown from :data:`SEEDS` other glyphs near the middle, and the one that
   places the most glyphs, nearest their points, is kept.  If still some glyph is far from
   its point, a row or a column is added or taken away across a gap of empty rows or columns
   (where the growth may have counted wrong), as long as that brings the glyphs nearer.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from ..stopping import Deadline

CELL_OVER_GLYPH = 3.8  # a cell is at most this many times a number's height
CELL_OVER_FRAME = 1.7  # and at most this many times its circle or square (0.8 to 1.5 drawn)
SLACK = 0.3  # of a cell: how far from its lattice point a glyph may be
GROWING_SLACK = 0.4  # the same while growing, when the lattice is known only near its middle
CLOSE = 0.15  # of a cell: a lattice with every glyph this near its point is taken as found
SEEDS = 8  # glyphs another lattice is grown from, when the first is not
SHIFTS = 3  # rows or columns added or taken away across a gap, at most
ON_A_LINE = 0.35  # of a glyph's height: how far a glyph may be from its row's or column's line
LINE_CONE = 20  # degrees: how far a row's direction may be from the lattice's turn
NEIGHBOURS = 8  # nearest glyphs each glyph draws a line to, in each direction
NEIGHBOURING = 3  # lattices next to the one found offered, at most
ALTERNATIVE = 1.5  # times as far from their points as on the lattice found, glyphs may be


@dataclass
class Lattice:
    """The lattice found: ``homography`` maps (column, row, 1) to picture pixels; ``cells``
    gives each glyph placed (by its index) its (row, column), both from 0."""

    homography: np.ndarray
    cells: dict[int, tuple[int, int]]

    @property
    def rows(self) -> int:
        return 1 + max((r for r, _ in self.cells.values()), default=-1)

    @property
    def cols(self) -> int:
        return 1 + max((c for _, c in self.cells.values()), default=-1)

    def to_picture(self, row: float, col: float) -> tuple[float, float]:
        x, y, w = self.homography @ np.array([col, row, 1.0])
        return x / w, y / w


def fit(
    points: np.ndarray, height: float, frame: float = 0.0, deadline: Deadline | None = None
) -> Lattice:
    """The lattice of the glyphs at ``points`` (an n x 2 array of centres), ``height`` the
    glyphs' usual height in pixels, ``frame`` their circles' or squares' usual size (0: none
    drawn); ``deadline`` is looked at as each lattice grows (raising
    :class:`~hashi_asp.stopping.Stopped` at its end)."""
    deadline = deadline or Deadline()
    largest = CELL_OVER_GLYPH * height
    if frame > 0:
        largest = min(largest, CELL_OVER_FRAME * frame)
    if len(points) == 1:
        shift = np.array([[height * 3, 0, points[0, 0]], [0, height * 3, points[0, 1]], [0, 0, 1]])
        return Lattice(shift, {0: (0, 0)})
    turn = _turn(points)
    base = _pitch(points, turn)
    first = max(1, math.ceil(base / largest))
    best: Lattice | None = None
    chosen = base
    for parts in range(first, first + 3):
        pitch = base / parts
        if pitch < 1.2 * height and best is not None:
            break
        found = _grown(points, turn, pitch, None, deadline)
        if best is None or len(found.cells) > len(best.cells):
            best, chosen = found, pitch
        if len(found.cells) >= 0.9 * len(points):
            break
    assert best is not None
    if _misfit(best, points) > CLOSE:
        # Grown from the middle it went wrong somewhere (few glyphs, a steep angle): grown
        # from other glyphs, the lattice that places the most, and those nearest their points.
        middle = np.median(points, axis=0)
        for seed in np.argsort(np.hypot(*(points - middle).T))[1 : 1 + SEEDS]:
            found = _grown(points, turn, chosen, int(seed), deadline)
            if (len(found.cells), -_misfit(found, points)) > (
                len(best.cells),
                -_misfit(best, points),
            ):
                best = found
    if _misfit(best, points) > CLOSE:
        lined = _by_lines(points, height, turn, largest, deadline)
        if lined is not None and _better(lined, best, points):
            best = lined
    for _ in range(SHIFTS):
        if _misfit(best, points) <= CLOSE:
            break
        tried = _shifted(best, points)
        if not tried:  # (no gap of empty rows or columns to shift across)
            break
        shifted = min(tried, key=lambda found: _misfit(found, points))
        if _misfit(shifted, points) >= _misfit(best, points):
            break
        best = shifted
    return _tight(best, largest)


def _better(found: Lattice, best: Lattice, points: np.ndarray) -> bool:
    """Whether ``found`` places more glyphs than ``best``, or as many nearer their points."""
    return (len(found.cells), -_misfit(found, points)) > (len(best.cells), -_misfit(best, points))


def _by_lines(
    points: np.ndarray, height: float, turn: float, largest: float, deadline: Deadline
) -> Lattice | None:
    """The lattice of the rows and columns seen as lines (step 6 of the module's): each the
    line through three glyphs or more, along the turn or across it; the point where the rows
    meet and the point where the columns meet (a page seen at an angle: its vanishing points)
    give the horizon, which a homography sends to infinity; in that picture the rows are
    parallel and evenly spaced, and so are the columns, and each glyph's row and column is its
    distance from the first over the spacing.  Where the glyphs are far apart (a sparse
    puzzle, a steep angle), a map grown from a few near the middle guesses wrong far from
    them; the lines see the whole picture at once.  None if there are not two rows and two
    columns of three glyphs to see."""
    tolerance = ON_A_LINE * height
    rows = _lines(points, turn, tolerance, deadline)
    cols = _lines(points, turn + math.pi / 2, tolerance, deadline)
    if len(rows) < 2 or len(cols) < 2:
        return None
    centre = points.mean(axis=0)
    scale = float(np.std(points - centre)) or 1.0
    unit = (points - centre) / scale  # (conditioned: the vanishing points from small numbers)
    meeting = [_vanishing(unit, lines) for lines in (rows, cols)]
    horizon = np.cross(meeting[0], meeting[1])
    if abs(horizon[2]) < 1e-12:
        return None
    flat = np.array([[1, 0, 0], [0, 1, 0], horizon / horizon[2]])
    # Through ``flat`` the vanishing points go to infinity: the rows' and columns' directions.
    along = [flat @ point for point in meeting]
    axes = np.array([[along[0][0], along[1][0]], [along[0][1], along[1][1]]])
    if abs(np.linalg.det(axes)) < 1e-12:
        return None
    seen = _to_lattice(np.linalg.inv(flat), unit)  # (the inverse of the inverse: flat's map)
    if not np.isfinite(seen).all():  # a glyph on the horizon itself: no lattice sees it
        return None
    u, v = np.linalg.inv(axes) @ seen.T
    cols_at = _spacing(u, [u[line].mean() for line in cols])
    rows_at = _spacing(v, [v[line].mean() for line in rows])
    if cols_at is None or rows_at is None:
        return None
    cells = {
        i: (round((v[i] - rows_at[0]) / rows_at[1]), round((u[i] - cols_at[0]) / cols_at[1]))
        for i in range(len(points))
    }
    taken: dict[tuple[int, int], int] = {}
    for i, cell in cells.items():
        taken.setdefault(cell, i)
    cells = {i: cell for cell, i in taken.items()}
    model = _model(points, cells, np.eye(3), turn)
    for _ in range(2):
        deadline.check("reading the picture: fitting its grid")
        cells = _placed(model, points)
        if len(cells) < 2:
            return None
        model = _model(points, cells, model, turn)
    return Lattice(model, _placed(model, points))


def _lines(
    points: np.ndarray, direction: float, tolerance: float, deadline: Deadline
) -> list[np.ndarray]:
    """The lines of three glyphs or more within :data:`LINE_CONE` of ``direction``, each as the
    indices of its glyphs: of the lines through each glyph and its :data:`NEIGHBOURS` nearest
    in that cone, the one through the most glyphs first, then the next of the glyphs left."""
    n = len(points)
    apart = points[None, :, :] - points[:, None, :]
    distance = np.hypot(apart[..., 0], apart[..., 1])
    angle = np.arctan2(apart[..., 1], apart[..., 0]) - direction
    off = np.abs((angle + math.pi / 2) % math.pi - math.pi / 2)
    inside = (off <= math.radians(LINE_CONE)) & (distance > 0)
    near = np.where(inside, distance, np.inf)
    k = min(NEIGHBOURS, n - 1)
    if k < 2:
        return []
    partner = np.argsort(near, axis=1)[:, :k]
    first = np.repeat(np.arange(n), k)
    second = partner.ravel()
    keep = np.isfinite(near[first, second])
    first, second = first[keep], second[keep]
    if len(first) == 0:
        return []
    # Each line as a normal and an offset: a glyph is on it if within the tolerance.
    d = points[second] - points[first]
    normal = np.c_[-d[:, 1], d[:, 0]] / np.hypot(d[:, 0], d[:, 1])[:, None]
    offset = (normal * points[first]).sum(axis=1)
    on = np.abs(normal @ points.T - offset[:, None]) <= tolerance
    found: list[np.ndarray] = []
    left = np.ones(n, bool)
    while True:
        deadline.check("reading the picture: fitting its grid")
        support = (on & left).sum(axis=1)
        best = int(support.argmax())
        if support[best] < 3:
            return found
        members = np.flatnonzero(on[best] & left)
        found.append(members)
        left[members] = False


def _vanishing(unit: np.ndarray, lines: list[np.ndarray]) -> np.ndarray:
    """Where the lines through the glyphs of ``lines`` meet, in homogeneous coordinates (a
    point at infinity when they are parallel): the point nearest to all of them, each line
    fitted to its glyphs (their principal direction)."""
    fitted = []
    for members in lines:
        at = unit[members]
        middle = at.mean(axis=0)
        _, _, directions = np.linalg.svd(at - middle)
        normal = np.array([-directions[0, 1], directions[0, 0]])
        fitted.append(np.r_[normal, -normal @ middle] * math.sqrt(len(members)))
    _, _, found = np.linalg.svd(np.array(fitted))
    return found[-1]


def _spacing(values: np.ndarray, lines: list[float]) -> tuple[float, float] | None:
    """The first line's place and the spacing of evenly spaced lines through ``values`` (each
    glyph's distance across the rows, or the columns, once they are parallel): the least gap
    between two lines seen, divided by the least whole number that puts every glyph within
    :data:`SLACK` of a line; fitted to them by least squares."""
    lines = sorted(lines)
    gaps = [b - a for a, b in itertools.pairwise(lines)]
    span = float(values.max() - values.min())
    gaps = [gap for gap in gaps if gap > 0.02 * span]
    if not gaps:
        return None
    least = min(gaps)
    for parts in range(1, 5):
        pitch = least / parts
        index = np.round((values - lines[0]) / pitch)
        if np.abs((values - lines[0]) / pitch - index).max() <= SLACK:
            design = np.c_[np.ones(len(values)), index]
            (start, pitch), *_ = np.linalg.lstsq(design, values, rcond=None)
            return float(start), float(pitch)
    return None


def neighbours(lattice: Lattice, points: np.ndarray, most: int = NEIGHBOURING) -> list[Lattice]:
    """The lattices next to ``lattice``: over the same stretch of the picture, a row or a
    column more or fewer, each glyph placed on its nearest point again and the lattice fitted
    to them once more; those that place as many glyphs, each within :data:`CLOSE` of its point
    or at most :data:`ALTERNATIVE` times as far as ``lattice`` does, the nearest first, at most
    ``most``.  A page at a steep angle, or islands far apart, may fit a grid of a row too many
    or too few nearly as well as the right one, the glyphs on it placed differently here and
    there (a band shifted as a whole would be the same puzzle): which it is, the puzzle says,
    the one with exactly one solution."""
    rows, cols = lattice.rows, lattice.cols
    own = _misfit_of_placed(lattice, points)
    tried = []
    for more_rows, more_cols in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if min(rows + more_rows, cols + more_cols) < 2:
            continue
        # Lattice point (c, r) of the neighbour is where the lattice found has (c * sx, r * sy).
        sx = (cols - 1) / max(cols + more_cols - 1, 1)
        sy = (rows - 1) / max(rows + more_rows - 1, 1)
        model = lattice.homography @ np.diag([sx, sy, 1.0])
        cells = _placed(model, points)
        for _ in range(2):
            if len(cells) < len(lattice.cells):
                break
            model = _model(points, cells, model, 0.0)
            cells = _placed(model, points)
        found = Lattice(model, cells)
        if len(cells) < len(lattice.cells) or _same_places(found, lattice):
            continue
        misfit = _misfit_of_placed(found, points)
        if misfit <= max(CLOSE, ALTERNATIVE * own):
            tried.append((misfit, found))
    tried.sort(key=lambda pair: pair[0])
    return [_tight(found, 0.0) for _, found in tried[:most]]


def _same_places(one: Lattice, other: Lattice) -> bool:
    """Whether two lattices place the same glyphs on the same cells, but for a shift."""
    if one.cells.keys() != other.cells.keys() or not one.cells:
        return False
    first = next(iter(one.cells))
    (r1, c1), (r2, c2) = one.cells[first], other.cells[first]
    return all(
        (r - r1, c - c1) == (other.cells[i][0] - r2, other.cells[i][1] - c2)
        for i, (r, c) in one.cells.items()
    )


def _misfit_of_placed(lattice: Lattice, points: np.ndarray) -> float:
    """How far the glyphs placed are from their lattice points, in cells: the farthest."""
    index = list(lattice.cells)
    where = _to_lattice(lattice.homography, points[index])
    placed = np.array([[lattice.cells[i][1], lattice.cells[i][0]] for i in index], np.float64)
    off = np.abs(where - placed)
    return float(off.max()) if np.isfinite(off).all() else math.inf


def _shifted(lattice: Lattice, points: np.ndarray) -> list[Lattice]:
    """The lattice with a row or a column more or fewer across each gap of empty rows or
    columns (where a lattice grown across it may have counted wrong), each fitted again."""
    cells = lattice.cells
    found = []
    for axis in (0, 1):
        lines = sorted({cell[axis] for cell in cells.values()})
        for before, after in itertools.pairwise(lines):
            if after - before < 3:
                continue
            for step in (-1, 1):
                moved = {
                    i: (
                        r + step * (axis == 0 and r > before),
                        c + step * (axis == 1 and c > before),
                    )
                    for i, (r, c) in cells.items()
                }
                model = _model(points, moved, lattice.homography, 0.0)
                found.append(Lattice(model, moved))
    return found


def misfit(lattice: Lattice, points: np.ndarray) -> float:
    """How far the glyphs at ``points`` are from the lattice points they are placed on, in
    cells: the farthest, or 1 when a glyph is left out."""
    return _misfit(lattice, points)


def _misfit(lattice: Lattice, points: np.ndarray) -> float:
    """How far the glyphs are from the lattice points they are placed on, in cells: the
    farthest, or 1 for a glyph left out."""
    if len(lattice.cells) < len(points):
        return 1.0
    off = _misfit_of_placed(lattice, points)
    return off if math.isfinite(off) else 1.0


def _turn(points: np.ndarray) -> float:
    """The lattice's turn in radians: the most common direction between near neighbours,
    folded into a quarter turn, within 15 degrees of none."""
    n = len(points)
    apart = points[None, :, :] - points[:, None, :]
    distance = np.hypot(apart[..., 0], apart[..., 1])
    np.fill_diagonal(distance, np.inf)
    nearest = np.argsort(distance, axis=1)[:, : min(4, n - 1)]
    rows = np.arange(n)[:, None]
    vectors = apart[rows, nearest]
    angles = np.degrees(np.arctan2(vectors[..., 1], vectors[..., 0])).ravel()
    folded = (angles + 45) % 90 - 45
    length = distance[rows, nearest].ravel()
    # Two glyphs at one place (a number read twice) point nowhere: they count for nothing.
    weights = np.where(length > 0, 1 / np.maximum(length, 1e-9), 0.0)
    within = (np.abs(folded) <= 15) & (weights > 0)
    if not within.any():
        return 0.0
    counts, edges = np.histogram(folded[within], bins=60, range=(-15, 15), weights=weights[within])
    smooth = np.convolve(counts, np.ones(5), mode="same")
    mode = (edges[smooth.argmax()] + edges[smooth.argmax() + 1]) / 2
    near = np.abs(folded - mode) <= 3
    return math.radians(float(np.average(folded[near], weights=weights[near])))


def _pitch(points: np.ndarray, turn: float) -> float:
    """The distance to the nearest neighbour along a row or a column, in the distance that at
    least a tenth of the glyphs have one at."""
    c, s = math.cos(turn), math.sin(turn)
    upright = points @ np.array([[c, -s], [s, c]])
    apart = upright[None, :, :] - upright[:, None, :]
    along, across = np.abs(apart[..., 0]), np.abs(apart[..., 1])
    on_axis = ((across < 0.2 * along) | (along < 0.2 * across)) & ((along + across) > 0)
    distance = np.where(on_axis, np.maximum(along, across), np.inf).min(axis=1)
    distance = np.sort(distance[np.isfinite(distance)])
    if len(distance) == 0:
        return float(np.hypot(*(points.max(axis=0) - points.min(axis=0))))
    enough = max(2, len(points) // 10)
    for d in distance:
        if np.count_nonzero(distance <= 1.2 * d) >= enough:
            return float(d)
    return float(distance[0])


def _grown(
    points: np.ndarray,
    turn: float,
    pitch: float,
    seed: int | None = None,
    deadline: Deadline | None = None,
) -> Lattice:
    """The lattice grown from the glyph ``seed``, by default the one nearest the middle (step
    3 of the module's), then fitted once more to all (step 4)."""
    n = len(points)
    if seed is None:
        middle = np.median(points, axis=0)
        seed = int(np.argmin(np.hypot(*(points - middle).T)))
    c, s = math.cos(turn), math.sin(turn)
    model = np.array([[pitch * c, -pitch * s, 0], [pitch * s, pitch * c, 0], [0, 0, 1.0]])
    model[:2, 2] = points[seed]
    cells = {seed: (0, 0)}
    taken = {(0, 0): seed}
    left_out: set[int] = set()
    apart = np.hypot(*(points[None, :, :] - points[:, None, :]).transpose(2, 0, 1))
    nearest_placed = apart[seed].copy()
    nearest_placed[seed] = np.inf
    for _ in range(3):  # those left out tried again, with the lattice grown meanwhile
        placed = len(cells)
        left_out.clear()
        while True:
            if deadline is not None:
                deadline.check("reading the picture: fitting its grid")
            open_ = [i for i in range(n) if i not in cells and i not in left_out]
            if not open_:
                break
            j = min(open_, key=lambda i: nearest_placed[i])
            where = _to_lattice(model, points[j : j + 1])[0]
            if not np.isfinite(where).all() or np.abs(where).max() > 1e6:
                left_out.add(j)  # (a map that sends it to infinity: no cell)
                continue
            cell = (round(float(where[1])), round(float(where[0])))
            off = np.abs(where - np.round(where)).max()
            if off > GROWING_SLACK or cell in taken:
                left_out.add(j)
                continue
            cells[j], taken[cell] = cell, j
            nearest_placed = np.minimum(nearest_placed, apart[j])
            model = _model(points, cells, model, turn)
        if len(cells) == placed:
            break
    for _ in range(2):
        model = _model(points, cells, model, turn)
        cells = _placed(model, points)
    return Lattice(model, cells)


def _to_lattice(model: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Lattice coordinates (column, row) of picture points."""
    try:
        inverse = np.linalg.inv(model)
    except np.linalg.LinAlgError:  # (a map that folds the lattice flat: no point placed)
        return np.full((len(points), 2), np.nan)
    # (A nearly folding map gives huge entries: a point it sends past infinity comes out
    # not finite, which every caller takes as not placed.)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        at = np.c_[points, np.ones(len(points))] @ inverse.T
        return at[:, :2] / at[:, 2:3]


def _model(
    points: np.ndarray, cells: dict[int, tuple[int, int]], model: np.ndarray, turn: float
) -> np.ndarray:
    """The map from lattice to picture fitted to the glyphs placed, as many parameters as they
    pin down without guessing far beyond them: a homography from 10 glyphs over 5 rows and 5
    columns, an affine map from 6 over 4 rows and 4 columns, else a similarity (a turn, a
    pitch and a place: from one glyph on, the turn found and the pitch given)."""
    index = list(cells)
    lattice = np.array([[cells[i][1], cells[i][0]] for i in index], np.float64)
    picture = points[index].astype(np.float64)
    span = lattice.max(axis=0) - lattice.min(axis=0) + 1 if len(index) else np.zeros(2)
    if len(index) >= 10 and span.min() >= 5:
        found, _ = cv2.findHomography(lattice, picture, 0)
        if found is not None and abs(np.linalg.det(found)) > 1e-9:
            return found
    if len(index) >= 6 and span.min() >= 4:
        design = np.c_[lattice, np.ones(len(index))]
        solved, *_ = np.linalg.lstsq(design, picture, rcond=None)
        affine = np.eye(3)
        affine[:2, :] = solved.T
        if abs(np.linalg.det(affine)) > 1e-9:
            return affine
    if len(index) >= 2 and span.max() >= 2:
        # x = a c - b r + tx, y = b c + a r + ty: a and b the pitch turned.
        design = np.zeros((2 * len(index), 4))
        design[0::2] = np.c_[
            lattice[:, 0], -lattice[:, 1], np.ones(len(index)), np.zeros(len(index))
        ]
        design[1::2] = np.c_[
            lattice[:, 1], lattice[:, 0], np.zeros(len(index)), np.ones(len(index))
        ]
        (a, b, x, y), *_ = np.linalg.lstsq(design, picture.ravel(), rcond=None)
        if math.hypot(a, b) > 0:
            return np.array([[a, -b, x], [b, a, y], [0, 0, 1.0]])
    return model


def _placed(model: np.ndarray, points: np.ndarray) -> dict[int, tuple[int, int]]:
    """Each glyph at the lattice point nearest to it under ``model``, if near enough; of two
    on one point, the nearer."""
    where = _to_lattice(model, points)
    best: dict[tuple[int, int], tuple[float, int]] = {}
    for i, (col, row) in enumerate(where):
        if not (math.isfinite(col) and math.isfinite(row)) or max(abs(col), abs(row)) > 1e6:
            continue
        cell = (round(float(row)), round(float(col)))
        off = float(max(abs(row - cell[0]), abs(col - cell[1])))
        if off <= SLACK and (cell not in best or off < best[cell][0]):
            best[cell] = (off, i)
    return {i: cell for cell, (_, i) in best.items()}


def _tight(lattice: Lattice, largest: float) -> Lattice:
    """The lattice with its first row and column at 0, and, where every glyph stands on every
    g-th row and column, cells g times larger if a cell stays within ``largest`` pixels
    (:data:`CELL_OVER_GLYPH` glyph heights, :data:`CELL_OVER_FRAME` frames)."""
    cells = lattice.cells
    if not cells:
        return lattice
    top = min(r for r, _ in cells.values())
    left = min(c for _, c in cells.values())
    step = 0
    for r, c in cells.values():
        step = math.gcd(step, r - top, c - left)
    step = max(step, 1)
    x0, y0 = lattice.to_picture(top, left)
    x1, y1 = lattice.to_picture(top, left + step)
    if step > 1 and math.hypot(x1 - x0, y1 - y0) > largest:
        step = 1
    scale = np.array([[step, 0, left], [0, step, top], [0, 0, 1.0]])
    placed = {i: ((r - top) // step, (c - left) // step) for i, (r, c) in cells.items()}
    return Lattice(lattice.homography @ scale, placed)
