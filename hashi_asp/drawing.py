"""Drawing puzzles and solutions: as text for a terminal, and as pictures (SVG, PNG).

**Text** (:func:`draw`): one line per row (two where islands touch in a column: see below),
cells two characters apart so that a horizontal bridge also fills the gap between them.  Islands
are their numbers (10 and up as letters, ``A`` = 10 to ``Z`` = 35, ``+`` beyond; ``?`` for an
island without a number), water is ``.``, and a bridge is drawn along its cells with a
character that says how many lines it has:

=======  ====================  ====================
count    ``text``              ``unicode``
=======  ====================  ====================
1        ``-`` and ``|``       ``─`` and ``│``
2        ``=`` and ``"``       ``═`` and ``║``
3        ``#``                 ``≡`` and ``⦀``
4        ``@``                 ``≣`` and ``⁞``
5 up     ``*``                 ``*``
=======  ====================  ====================

(horizontal, then vertical; 1 and 2 as in Simon Tatham's Bridges.)  A count the characters do
not tell apart (5 up) is listed under the grid, pair by pair.

Islands next to each other in a column have no cell between them, so when a puzzle has such a
pair, a **connector row** goes between every two rows of its drawings: blank but for the
vertical bridges that pass from one row to the next.  The shape of a drawing is the puzzle's
(its own, its solutions' and every board of its walkthrough alike); a puzzle without such a
pair is drawn one line per row.  Islands next to each other in a row always have the gap
between their columns.

**Pictures** (:func:`svg`, :func:`png`): islands are circles with their numbers (an island
without a number is an empty circle), each bridge is one line per bridge between the island
centres (two parallel lines for a double bridge), and water is blank.  The reasoning features
highlight some bridges and islands in a second colour: the bridges that differ between
solutions, the ones every solution needs.  PNG goes through cairosvg
(``pip install 'hashi-asp[png]'``), which needs the cairo library.

Each island is a group of class ``island`` with ``data-row`` and ``data-col``, each bridge a
group of class ``bridge`` with ``data-r1``, ``data-c1``, ``data-r2``, ``data-c2`` and
``data-count`` (rows and columns from 0): the workbench page draws the same, so that tools (and
its tests) find islands and bridges in either.  An SVG is a :class:`Picture`, which a Jupyter
notebook shows as the picture.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, cast

from .errors import HashiError, PuzzleError
from .files import write_output
from .puzzle import MAX_BRIDGES_LIMIT, Bridge, Cell, Pair, Puzzle, Solution, pair_name

# ---------------------------------------------------------------------------- text

Mark = Callable[[str], str]
"""How a marked character is shown: e.g. coloured, or replaced by ``?``."""

# Per style: water, then the characters of a horizontal and of a vertical bridge by count
# (index count - 1; the last one stands for every larger count).
STYLES = {
    "text": {"water": ".", "h": "-=#@*", "v": '|"#@*'},
    "unicode": {"water": "·", "h": "─═≡≣*", "v": "│║⦀⁞*"},
}
_NUMBERS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def draw(
    puzzle: Puzzle,
    solution: Solution | None = None,
    style: str = "text",
    *,
    marks: Mapping[Cell, Mark] | Mapping[Pair, Mark] | None = None,
) -> str:
    """The grid with its islands and the solution's bridges, as text (see the module docstring),
    and under it the bridges whose count the characters do not tell apart.

    ``marks`` maps an island ``(r, c)`` or a pair of islands ``((r1, c1), (r2, c2))`` to a
    function applied to each character drawn for it (the island's number; the bridge or water
    between the pair; a listed count), e.g. to colour it or to draw an undecided pair as ``?``.
    """
    chars = STYLES[style]
    lines = lines_per_row(puzzle)
    canvas = [
        [
            chars["water"] if x % 2 == 0 and y % lines == 0 else " "
            for x in range(2 * puzzle.cols - 1)
        ]
        for y in range(lines * (puzzle.rows - 1) + 1)
    ]
    listed = []
    for b in solution.bridges if solution else ():
        if b.count < 1:
            continue
        index = min(b.count, len(chars["h"])) - 1
        glyph = chars["h" if b.horizontal else "v"][index]
        for y, x in _positions(b.ends, lines):
            canvas[y][x] = glyph
        if b.count >= len(chars["h"]):
            listed.append(b)
    for (r, c), n in puzzle.islands.items():
        canvas[lines * r][2 * c] = "?" if n is None else _NUMBERS[n] if n < len(_NUMBERS) else "+"
    for key, mark in (marks or {}).items():
        for y, x in _positions(key, lines):
            canvas[y][x] = mark(canvas[y][x])
    text = "\n".join("".join(row) for row in canvas)
    if listed:
        pair_marks = cast(Mapping[Pair, Mark], marks or {})
        text += f"\nBridges drawn {chars['h'][-1]} ({len(chars['h'])} or more):" + "".join(
            f"\n  {pair_name(*b.ends)}: {_marked(str(b.count), pair_marks.get(b.ends))}"
            for b in listed
        )
    return text


def lines_per_row(puzzle: Puzzle) -> int:
    """2 when the puzzle has islands next to each other in a column (a connector row follows
    each row but the last), else 1."""
    islands = puzzle.islands
    return 2 if any((r + 1, c) in islands for r, c in islands) else 1


def _marked(text: str, mark: Mark | None) -> str:
    return text if mark is None else "".join(map(mark, text))


def _positions(key: Cell | Pair, lines: int = 1) -> list[tuple[int, int]]:
    """Where on the canvas (line, character) an island, or the line between a pair of islands,
    is drawn; ``lines`` per row of the grid."""
    first, second = key
    if isinstance(first, int) and isinstance(second, int):
        return [(lines * first, 2 * second)]
    a, z = cast(Pair, key)
    (r1, c1), (r2, c2) = min(a, z), max(a, z)
    if r1 == r2:
        return [(lines * r1, x) for x in range(2 * c1 + 1, 2 * c2)]
    return [(y, 2 * c1) for y in range(lines * r1 + 1, lines * r2)]


# ---------------------------------------------------------------------------- pictures

CELL = 40  # pixels from one cell centre to the next, by default
INK = "#1a1a1a"
HIGHLIGHT = "#e66100"  # orange: tells apart from black also for colour-blind readers
HIGHLIGHT_FILL = "#fde8d7"
RADIUS = 0.38  # island radius, in cells
GAP = 0.16  # distance between the parallel lines of one pair, in cells
FORMATS = (".svg", ".png")
MAX_PNG_PIXELS = 100_000_000  # cairo holds 4 bytes a pixel: 400 MB, on top of the drawing itself


class Picture(str):
    """An SVG document; a Jupyter notebook shows it as the picture it is."""

    def _repr_svg_(self) -> str:
        return str(self)


def centre(row: int, col: int, cell: float = CELL) -> tuple[float, float]:
    """Pixel (x, y) of a cell's centre; the picture has half a cell of margin beyond the
    outermost centres' islands."""
    return cell * (col + 1), cell * (row + 1)


def show_in_notebooks(shell: Any) -> None:
    """Have an IPython ``shell`` (a notebook's) show each :class:`~hashi_asp.puzzle.Puzzle` as
    its picture (results and walkthroughs show theirs by ``_repr_svg_``; a puzzle, on the floor
    below drawings, has none).  ``import hashi_asp`` calls this in a notebook."""
    formatter = shell.display_formatter.formatters["image/svg+xml"]
    formatter.for_type_by_name("hashi_asp.puzzle", "Puzzle", lambda puzzle: svg(puzzle))


def svg(
    puzzle: Puzzle,
    solution: Solution | None = None,
    *,
    highlight_bridges: Iterable[Bridge | tuple[Cell, Cell]] = (),
    highlight_islands: Iterable[Cell] = (),
    cell: float = CELL,
    title: str | None = None,
) -> Picture:
    """The puzzle (with the bridges of ``solution``, if given) as an SVG document.

    ``highlight_bridges`` are drawn in the second colour: a :class:`Bridge` or a pair of
    cells; a solution bridge between the same islands takes the colour, and a highlighted
    :class:`Bridge` that is not in the solution is drawn too, with its own count.
    ``highlight_islands`` are circled in the second colour.
    """
    from html import escape  # only pictures need it (and html.entities, a 2 000-entry table)

    width, height = cell * (puzzle.cols + 1), cell * (puzzle.rows + 1)
    stroke = max(1.0, cell / 20)
    marked_pairs = {tuple(sorted(_ends(b))) for b in highlight_bridges}
    bridges = {b.ends: (b, False) for b in solution.bridges} if solution else {}
    for b in highlight_bridges:
        if isinstance(b, Bridge) and b.ends not in bridges:
            bridges[b.ends] = (b, True)
    marked_islands = set(map(tuple, highlight_islands))

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" height="{_n(height)}" '
        f'viewBox="0 0 {_n(width)} {_n(height)}">',
        f"<title>{escape(title or _title(puzzle, solution))}</title>",
        '<rect width="100%" height="100%" fill="#ffffff"/>',
        f'<g stroke-width="{_n(stroke)}" stroke-linecap="butt">',
    ]
    for ends, (b, _) in sorted(bridges.items()):
        colour = HIGHLIGHT if ends in marked_pairs else INK
        (x1, y1), (x2, y2) = (centre(*end, cell) for end in ends)
        (r1, c1), (r2, c2) = ends
        parts.append(
            f'<g class="bridge" data-r1="{r1}" data-c1="{c1}" data-r2="{r2}" data-c2="{c2}" '
            f'data-count="{b.count}">'
        )
        # A count outside the rules (render draws such solutions, with a warning) gets at most
        # as many lines as the most any rule allows.
        for offset in _offsets(max(0, min(b.count, MAX_BRIDGES_LIMIT)), cell):
            dx, dy = (0, offset) if b.horizontal else (offset, 0)
            parts.append(
                f'<line x1="{_n(x1 + dx)}" y1="{_n(y1 + dy)}" x2="{_n(x2 + dx)}" '
                f'y2="{_n(y2 + dy)}" stroke="{colour}"/>'
            )
        parts.append("</g>")
    parts.append("</g>")
    font = cell * 0.5
    parts.append(
        f'<g font-family="DejaVu Sans, Arial, Helvetica, sans-serif" '
        f'font-size="{_n(font)}" text-anchor="middle">'
    )
    for (r, c), number in puzzle.islands.items():
        x, y = centre(r, c, cell)
        marked = (r, c) in marked_islands
        colour = HIGHLIGHT if marked else INK
        parts.append(f'<g class="island" data-row="{r}" data-col="{c}">')
        parts.append(
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(RADIUS * cell)}" '
            f'fill="{HIGHLIGHT_FILL if marked else "#ffffff"}" stroke="{colour}" '
            f'stroke-width="{_n(stroke * (2 if marked else 1))}"/>'
        )
        if number is not None:
            # 0.35 em below the centre puts the digits' middle on it in common fonts.
            parts.append(
                f'<text x="{_n(x)}" y="{_n(y + 0.35 * font)}" fill="{colour}">{number}</text>'
            )
        parts.append("</g>")
    parts.append("</g>")
    parts.append("</svg>")
    return Picture("\n".join(parts) + "\n")


def png_cell_limit(puzzle: Puzzle) -> float:
    """The largest cell size (pixels) whose PNG of ``puzzle`` stays within MAX_PNG_PIXELS."""
    return math.sqrt(MAX_PNG_PIXELS / ((puzzle.cols + 1) * (puzzle.rows + 1)))


def png(svg_text: str) -> bytes:
    """An SVG document rendered to PNG with cairosvg (an optional dependency); refused beyond
    MAX_PNG_PIXELS, before cairo allocates the image."""
    size = _SIZE.search(svg_text[:500])
    if size is None:
        raise HashiError("cannot make a PNG: the SVG document states no width and height")
    width, height = (float(value) for value in size.groups())
    if not width * height <= MAX_PNG_PIXELS:
        raise HashiError(
            f"a PNG of {width:.0f}x{height:.0f} pixels is over the limit of "
            f"{MAX_PNG_PIXELS // 1_000_000} million pixels; draw it smaller or as SVG"
        )
    try:
        import cairosvg
    except (ImportError, OSError) as missing:  # OSError: the cairo C library is missing
        raise HashiError(
            f"PNG output needs cairosvg and the cairo library "
            f"(pip install 'hashi-asp[png]'): {missing}"
        ) from None
    return cairosvg.svg2png(bytestring=svg_text.encode("utf-8"))


def render(
    puzzle: Puzzle,
    solution: Solution | None = None,
    *,
    cell: float = CELL,
    output: str | os.PathLike | None = None,
    source: str = "<solution>",
) -> str | None:
    """The picture of ``render``: the puzzle with the bridges of ``solution`` (drawn even when
    they break a rule; ``check`` says which), as SVG text, or written to ``output`` (``.svg`` or
    ``.png``, chosen by its extension).  A bridge ending outside the grid, or a PNG too large
    for memory, is refused with a message saying what would fit."""
    for b in solution.bridges if solution else ():
        for r, c in b.ends:
            if not (0 <= r < puzzle.rows and 0 <= c < puzzle.cols):
                raise PuzzleError(
                    f"bridge {list(b)} ends outside the {puzzle.rows}x{puzzle.cols} grid", source
                )
    if (
        output is not None
        and str(output).lower().endswith(".png")
        and cell > png_cell_limit(puzzle)
    ):
        fits = math.floor(png_cell_limit(puzzle))
        advice = (
            f"--cell-size {fits} fits"
            if fits >= 4
            else "even --cell-size 4 does not fit; draw it as SVG"
        )
        raise HashiError(
            f"{output}: a PNG of this {puzzle.cols}x{puzzle.rows} grid at --cell-size "
            f"{cell:g} would be over the limit of {MAX_PNG_PIXELS // 1_000_000} "
            f"million pixels; {advice}"
        )
    picture = svg(puzzle, solution, cell=cell)
    if output is None:
        return picture
    write_picture(output, picture)
    return None


def write_picture(path: str | os.PathLike, svg_text: str, *, force: bool = True) -> None:
    """Write the picture as SVG or PNG, chosen by ``path``'s extension, as
    :func:`~hashi_asp.files.write_output` writes a file: whole or not at all (under a temporary
    name beside it, then renamed), through a symbolic link to its file, into a device or a FIFO;
    an existing file is replaced unless ``force`` is false."""
    path = Path(path)
    extension = path.suffix.lower()
    if extension not in FORMATS:
        raise HashiError(
            f"{path}: unknown picture format {extension or '(no extension)'!r}; "
            f"use {' or '.join(FORMATS)}"
        )
    data = svg_text.encode("utf-8") if extension == ".svg" else png(svg_text)
    write_output(path, data, force=force)


_SIZE = re.compile(r'<svg [^>]*?width="([0-9.]+)" height="([0-9.]+)"')


def _ends(b: Bridge | tuple[Cell, Cell]) -> tuple[Cell, Cell]:
    if isinstance(b, Bridge):
        return b.ends
    (r1, c1), (r2, c2) = b
    return (r1, c1), (r2, c2)


def _offsets(count: int, cell: float) -> list[float]:
    """Offsets across the bridge of its ``count`` parallel lines, centred on the line of centres."""
    return [(i - (count - 1) / 2) * GAP * cell for i in range(count)]


def _title(puzzle: Puzzle, solution: Solution | None) -> str:
    what = "solution" if solution else "puzzle"
    return f"Hashi {what}: {puzzle.rows}x{puzzle.cols}, {len(puzzle.islands)} islands"


def _n(value: float) -> str:
    """A coordinate without needless decimals."""
    return f"{value:.2f}".rstrip("0").rstrip(".")
