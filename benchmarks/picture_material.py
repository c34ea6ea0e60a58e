"""Pictures of puzzles whose islands are known, for the picture reader's benchmark and tests.

- :func:`drawing`: the project's own drawing (hashi_asp.drawing.svg) as PNG through cairosvg,
  islands as circles, squares or bare numbers, dark on light or light on dark, at a cell size;
- :func:`tatham_print`: a puzzle printed by Simon Tatham's Bridges (``sgt-bridges --print``,
  Debian's sgt-puzzles), a whole page turned into PNG by Ghostscript at a resolution;
- :func:`puzzlink_drawing`: puzz.link's drawing (the ``pzpr`` package on npm, run by node,
  from a folder where it is installed) as PNG through cairosvg;
- :func:`damaged`: the project's drawing with part of one number painted over;
- :func:`screenshot`: a picture placed in a window with a title, buttons and a clock;
- :func:`photo`: a photo-like version of a picture: on a background, turned by up to 8 degrees,
  seen at an angle, in uneven light with a shadow, blurred, with noise, saved as JPEG of
  quality 50 to 70;
- :func:`wide_photo`: the same kind of image warps over wider ranges (turned by up to 15
  degrees, narrowed as a page tilted by up to 25 degrees, a lens's barrel or pincushion,
  glare, motion blur, JPEG of quality 30 to 70, cells down to 12 pixels), with the settings
  drawn; benchmarks/camera.py makes photos by a camera model instead.

Every function takes a ``random.Random`` where it chooses, so that a seed makes the same
pictures again.  Needs numpy, OpenCV and cairosvg; Ghostscript and sgt-bridges for prints,
node and pzpr for puzz.link's drawings.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import cv2
import numpy as np

from hashi_asp import notations
from hashi_asp.drawing import INK, svg
from hashi_asp.puzzle import Puzzle, Solution

STYLES = ("circles", "squares", "bare")
SCHEMES = ("light", "dark")
TATHAM = "/usr/games/sgt-bridges"


def tatham_puzzles(size: int, count: int, seed: int) -> list[Puzzle]:
    """``count`` puzzles of Simon Tatham's generator, ``size`` x ``size``, each with exactly
    one solution (its generator makes sure)."""
    ids = subprocess.run(
        [TATHAM, "--generate", str(count), f"{size}x{size}#{seed}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return [notations.parse(game_id) for game_id in ids]


def png_of_svg(text: str, scale: float = 1.0) -> bytes:
    import cairosvg

    return cairosvg.svg2png(bytestring=text.encode("utf-8"), scale=scale)


def drawing(
    puzzle: Puzzle,
    cell: int = 40,
    style: str = "circles",
    scheme: str = "light",
    solution: Solution | None = None,
) -> bytes:
    """The project's drawing of ``puzzle`` as PNG: islands as ``style`` (circles, squares or
    bare numbers), ``scheme`` light (dark ink on white) or dark (light ink on near black), with
    the bridges of ``solution`` (all of a solution, or some: a game going on), if given; bare
    numbers keep their circles' paper, where the bridges stop."""
    text = str(svg(puzzle, solution, cell=cell))
    if style == "squares":
        text = re.sub(
            r'<circle cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"',
            lambda m: (
                f'<rect x="{float(m[1]) - float(m[3]):g}" y="{float(m[2]) - float(m[3]):g}" '
                f'width="{2 * float(m[3]):g}" height="{2 * float(m[3]):g}"'
            ),
            text,
        )
    elif style == "bare":
        text = re.sub(r'(<circle [^>]*?) stroke="[^"]*"', r'\1 stroke="none"', text)
    if scheme == "dark":
        text = text.replace("#ffffff", "#1c1c1e").replace(INK, "#e6e6e6")
    return png_of_svg(text)


PARTS = {  # what of a number is painted over, as (x, y, width, height) in cells from its centre
    "top": (-0.2, -0.3, 0.4, 0.18),
    "bottom": (-0.2, 0.03, 0.4, 0.2),
    "left": (-0.22, -0.3, 0.2, 0.6),
    "right": (0.03, -0.3, 0.2, 0.6),
}


def damaged(puzzle: Puzzle, cell: tuple[int, int], part: str = "top", size: int = 40) -> bytes:
    """The project's drawing with part of the number at ``cell`` painted over (a 3 whose top
    is gone looks like a 5): a picture with a number a reader may well get wrong."""
    x, y = (size * (cell[1] + 1), size * (cell[0] + 1))
    dx, dy, w, h = (size * v for v in PARTS[part])
    patch = f'<rect x="{x + dx:g}" y="{y + dy:g}" width="{w:g}" height="{h:g}" fill="#ffffff"/>'
    return png_of_svg(str(svg(puzzle, cell=size)).replace("</svg>", patch + "</svg>"))


def tatham_print(
    size: int, seed: int, dpi: int = 100, params: str | None = None
) -> tuple[Puzzle, bytes]:
    """A puzzle ``size`` x ``size`` of Simon Tatham's Bridges as its printed page (PostScript,
    turned into a PNG of the whole page by Ghostscript at ``dpi``), with the puzzle printed;
    ``params``, the generator's parameters (as ``10x10i10e10m2d0``), when not the default's.
    A cell is :func:`print_cell` pixels."""
    with tempfile.TemporaryDirectory() as folder:
        where = Path(folder)
        printed = subprocess.run(
            [
                TATHAM, "--generate", "1", "--print", "1x1", "--save", str(where / "game"),
                "--save-suffix", ".sav", f"{params or f'{size}x{size}'}#{seed}",
            ],
            capture_output=True,
            check=True,
        ).stdout  # fmt: skip
        saved = (where / "game0.sav").read_text()
        params = re.search(r"^PARAMS *:\d+:(\S+)", saved, re.M)
        desc = re.search(r"^DESC *:\d+:(\S+)", saved, re.M)
        assert params and desc, saved
        puzzle = notations.parse(f"{params[1]}:{desc[1]}")
        digits = re.findall(rb"\((\d)\) dup stringwidth", printed)
        assert sorted(int(d) for d in digits) == sorted(puzzle.islands.values()), "not the same"
        (where / "page.ps").write_bytes(printed)
        # The page is printed at one scale, which a large puzzle overflows: made smaller
        # about the page's middle to fit on it (an A4 page, 595 x 842 points, a cell 28).
        fit = min(1.0, 540 / (28 * (size + 1)))
        shrink = f"<</BeginPage {{297 421 translate {fit} {fit} scale -297 -421 translate}}>>"
        subprocess.run(
            [
                "gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=pnggray",
                f"-r{dpi}", "-dTextAlphaBits=4", "-dGraphicsAlphaBits=4",
                f"-sOutputFile={where / 'page.png'}", "-c", f"{shrink} setpagedevice",
                "-f", str(where / "page.ps"),
            ],
            check=True,
        )  # fmt: skip
        return puzzle, (where / "page.png").read_bytes()


def print_cell(size: int, dpi: float) -> float:
    """The pixels a cell of :func:`tatham_print`'s page takes at ``dpi``."""
    return 28 * min(1.0, 540 / (28 * (size + 1))) * dpi / 72


def printing_available() -> bool:
    return Path(TATHAM).exists() and shutil.which("gs") is not None


PZPR_SCRIPT = """
const pzpr = require('pzpr');
const [url, size] = process.argv.slice(1);
const puzzle = new pzpr.Puzzle().open(url);
process.stdout.write(puzzle.toBuffer('svg', 0, Number(size)));
"""


def puzzlink_drawing(puzzle: Puzzle, cell: int, modules: Path) -> bytes:
    """puzz.link's drawing of ``puzzle`` (pzpr's SVG, ``cell`` pixels a cell) as PNG; ``modules``
    is a node_modules folder holding pzpr."""
    url = notations.write(puzzle, "puzzlink")
    text = subprocess.run(
        ["node", "-e", PZPR_SCRIPT, url, str(cell)],
        capture_output=True,
        text=True,
        check=True,
        env={"NODE_PATH": str(modules), "PATH": "/usr/bin:/bin"},
    ).stdout
    return png_of_svg(text)


def pzpr_modules(folder: Path | None = None) -> Path | None:
    """A node_modules folder with pzpr in it (``folder``, or one under benchmarks/), if any."""
    for place in [folder, Path(__file__).with_name("node_modules")]:
        if place is not None and (place / "pzpr").is_dir() and shutil.which("node"):
            return place
    return None


# ---------------------------------------------------------------------------- pictures made worse


def decoded(data: bytes) -> np.ndarray:
    """A picture in colour, what is transparent in it white (as on a page or a screen)."""
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    assert image is not None
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        alpha = image[..., 3:4].astype(np.float32) / 255
        return (image[..., :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)
    return image


def screenshot(data: bytes, rng: random.Random) -> bytes:
    """The picture in a window: a title bar, buttons, a clock and a level line around it."""
    picture = decoded(data)
    h, w = picture.shape[:2]
    dark = picture[2, 2].mean() < 128
    ground = (40, 40, 44) if dark else (236, 236, 240)
    ink = (230, 230, 230) if dark else (30, 30, 30)
    top, bottom, side = int(0.25 * h) + 60, int(0.2 * h) + 50, int(0.15 * w) + 20
    window = np.full((h + top + bottom, w + 2 * side, 3), ground, np.uint8)
    window[top : top + h, side : side + w] = picture
    scale = max(0.6, w / 700)
    font = cv2.FONT_HERSHEY_SIMPLEX
    cv2.putText(window, "Bridges", (side, int(30 * scale) + 5), font, scale, ink, 2)
    clock = f"Time {rng.randrange(60):02d}:{rng.randrange(60):02d}"
    cv2.putText(window, clock, (side + w // 2, int(30 * scale) + 5), font, scale * 0.8, ink, 1)
    level = f"Level {rng.randrange(1, 40)}  -  {rng.choice(['easy', 'medium', 'hard'])}"
    cv2.putText(window, level, (side, top - 15), font, scale * 0.7, ink, 1)
    y = top + h + int(bottom * 0.6)
    for i, label in enumerate(["New game", "Restart", "Undo", "Solve"]):
        x = side + i * w // 4
        cv2.rectangle(window, (x, y - int(25 * scale)), (x + w // 5, y + 8), ink, 1)
        cv2.putText(window, label, (x + 6, y), font, scale * 0.6, ink, 1)
    ok, encoded = cv2.imencode(".png", window)
    assert ok
    return encoded.tobytes()


def photo(data: bytes, rng: random.Random, *, quality: int | None = None) -> bytes:
    """A photo of the picture: on a textured background, turned by up to 8 degrees and seen at
    an angle (each corner moved by up to 6 % of the picture), in light falling off to one side
    with a soft shadow, blurred, with noise, as a JPEG of quality 50 to 70."""
    paper = decoded(data)
    # A phone sees a page at more pixels than a screen draws it: numbers 15 to 28 pixels tall.
    digit = _digit_height(paper)
    if digit is not None:
        factor = min(rng.uniform(15, 28) / digit, 1800 / max(paper.shape[:2]))
        if factor > 1:
            paper = cv2.resize(paper, None, fx=factor, fy=factor, interpolation=cv2.INTER_CUBIC)
    paper = paper.astype(np.float32)
    h, w = paper.shape[:2]
    margin = int(0.25 * max(h, w))
    H, W = h + 2 * margin, w + 2 * margin
    ground = _ground(H, W, rng)
    angle = np.radians(rng.uniform(-8, 8))
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    centre = np.float32([w / 2, h / 2])
    turn = np.float32([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    placed = (corners - centre) @ turn.T + centre + margin
    jitter = np.float32([[rng.uniform(-0.06, 0.06) * w, rng.uniform(-0.06, 0.06) * h]
                         for _ in range(4)])  # fmt: skip
    matrix = cv2.getPerspectiveTransform(corners, placed + jitter)
    warped = cv2.warpPerspective(paper, matrix, (W, H), flags=cv2.INTER_LINEAR)
    inside = cv2.warpPerspective(np.ones((h, w), np.float32), matrix, (W, H)) > 0.5
    image = np.where(inside[..., None], warped, ground)
    # Light: falling off from one side, and a soft shadow across part of the picture.
    direction = rng.uniform(0, 2 * np.pi)
    ys, xs = np.mgrid[0:H, 0:W].astype(np.float32)
    ramp = (np.cos(direction) * xs / W + np.sin(direction) * ys / H + 1) / 2
    light = 0.6 + 0.4 * ramp
    shadow = np.zeros((H, W), np.float32)
    cv2.ellipse(shadow, (rng.randrange(W), rng.randrange(H)), (W // 3, H // 5),
                rng.uniform(0, 180), 0, 360, 1.0, -1)  # fmt: skip
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(H, W) / 25)
    light *= 1 - rng.uniform(0.15, 0.35) * shadow
    image = image * light[..., None]
    sigma = rng.uniform(0.6, 1.8)
    image = cv2.GaussianBlur(image, (0, 0), sigma)
    image += np.random.default_rng(rng.randrange(1 << 30)).normal(0, rng.uniform(3, 8), image.shape)
    image = np.clip(image, 0, 255).astype(np.uint8)
    chosen = quality if quality is not None else rng.randrange(50, 71)
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, chosen])
    assert ok
    return encoded.tobytes()


def _digit_height(picture: np.ndarray) -> float | None:
    """About the height of the numbers, in pixels: the median height of the pieces of ink
    taller than wide and at least 6 pixels tall (digits; not circles, squares or lines)."""
    gray = cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY)
    if np.median(gray) < 128:
        gray = 255 - gray
    _, mask = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    heights = stats[1:, cv2.CC_STAT_HEIGHT]
    widths = stats[1:, cv2.CC_STAT_WIDTH]
    tall = heights[(heights >= 6) & (heights >= 1.15 * widths) & (heights <= 4 * widths)]
    return float(np.median(tall)) if len(tall) else None


def same_puzzle(read: Puzzle, truth: Puzzle) -> bool:
    """Whether ``read`` has the islands of ``truth``, where rows and columns with no island
    at the edges (which no picture without a drawn grid shows) are left out of both."""
    return normalised(read) == normalised(truth)


def normalised(puzzle: Puzzle) -> dict:
    top = min(r for r, _ in puzzle.islands)
    left = min(c for _, c in puzzle.islands)
    return {(r - top, c - left): n for (r, c), n in puzzle.islands.items()}


def dumps(puzzle: Puzzle) -> str:
    return json.dumps(puzzle.to_json())


# ---------------------------------------------------------------------------- wider photo-like


def wide_photo(
    data: bytes,
    rng: random.Random,
    *,
    cell: float | None = None,
    page_cell: float | None = None,
    **given: object,
) -> tuple[bytes, dict]:
    """A photo-like version of the picture over the wider ranges a reader must meet, by warps
    of the image (not a camera model: see camera.py for that), and the settings drawn (any
    named as a keyword is taken as given).  Made ``cell`` pixels a cell when the picture's own
    is ``page_cell`` (smaller or larger; 12 pixels and up are meant), else its numbers 6.5 to
    28 pixels tall; on a textured background; turned by up to 15 degrees; made narrower to
    one side as a page tilted by up to 25 degrees is (``keystone`` up to 0.13 of its width, a
    page twice its width away), each corner moved by up to 3 % more; bent by a lens
    (``curvature`` -0.08 to 0.08: barrel above 0, pincushion below, by ``cv2.remap``); light
    falling off to one side, a soft shadow and a glare spot; blurred by a line (the camera
    moved, 1 to 6 pixels) or a Gaussian; noise; a JPEG of quality 30 to 70."""
    used: dict = {}

    def draw(name: str, choose):  # type: ignore[no-untyped-def]
        used[name] = given[name] if name in given else choose()
        return used[name]

    paper = decoded(data)
    if cell is not None and page_cell:
        factor = cell / page_cell
    else:
        digit = _digit_height(paper)
        factor = draw("digit", lambda: rng.uniform(6.5, 28)) / digit if digit else 1.0
    factor = min(factor, 1800 / max(paper.shape[:2]))
    used["factor"] = factor
    if page_cell:
        used["cell"] = factor * page_cell
    how = cv2.INTER_AREA if factor < 1 else cv2.INTER_CUBIC
    paper = cv2.resize(paper, None, fx=factor, fy=factor, interpolation=how).astype(np.float32)
    h, w = paper.shape[:2]
    margin = int(0.3 * max(h, w)) + 20
    H, W = h + 2 * margin, w + 2 * margin
    ground = _ground(H, W, rng)
    matrix = _keystoned(draw, rng, w, h, margin)
    warped = cv2.warpPerspective(paper, matrix, (W, H), flags=cv2.INTER_LINEAR)
    inside = cv2.warpPerspective(np.ones((h, w), np.float32), matrix, (W, H))[..., None]
    image = warped * inside + ground * (1 - inside)
    image = _curved(image, draw("curvature", lambda: rng.uniform(-0.08, 0.08)))
    image = _lit(image, draw, rng)
    if draw("blur", lambda: rng.choice(["motion", "gaussian"])) == "motion":
        length = draw("blur_length", lambda: rng.uniform(1, 6))
        image = cv2.filter2D(
            image, -1, _line_kernel(length, draw("blur_angle", lambda: rng.uniform(0, 180)))
        )
    else:
        image = cv2.GaussianBlur(image, (0, 0), draw("blur_sigma", lambda: rng.uniform(0.5, 1.8)))
    seed = draw("noise_seed", lambda: rng.randrange(1 << 30))
    sigma = draw("noise", lambda: rng.uniform(3, 10))
    image += np.random.default_rng(seed).normal(0, sigma, image.shape)
    image = np.clip(image, 0, 255).astype(np.uint8)
    quality = int(draw("quality", lambda: rng.randrange(30, 71)))
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return encoded.tobytes(), used


def _ground(H: int, W: int, rng: random.Random) -> np.ndarray:
    """A table: one tone, coarse grain and a few things lying on it."""
    tone = np.array([rng.uniform(60, 160) for _ in range(3)], np.float32)
    ground = np.empty((H, W, 3), np.float32)
    ground[:] = tone
    grain = np.random.default_rng(rng.randrange(1 << 30)).normal(0, 12, (H // 8 + 1, W // 8 + 1))
    ground += cv2.resize(grain.astype(np.float32), (W, H))[..., None]
    for _ in range(6):
        x, y = rng.randrange(W), rng.randrange(H)
        colour = [rng.uniform(0, 255) for _ in range(3)]
        cv2.line(ground, (x, y), (rng.randrange(W), rng.randrange(H)), colour, rng.randrange(2, 9))
    return ground


def _keystoned(draw, rng: random.Random, w: int, h: int, margin: int) -> np.ndarray:  # type: ignore[no-untyped-def]
    """The homography placing the picture: narrower on the side turned away (the far side
    shorter by ``2 * keystone``, the picture shorter across it), turned, corners moved."""
    direction = np.radians(draw("keystone_direction", lambda: rng.uniform(0, 360)))
    keystone = draw("keystone", lambda: rng.uniform(0, 0.13))
    turn = np.radians(draw("turn", lambda: rng.uniform(-15, 15)))
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    centre = np.float32([w / 2, h / 2])
    away = np.array([np.cos(direction), np.sin(direction)])
    across = np.array([-away[1], away[0]])
    offsets = corners - centre
    along = offsets @ away
    reach = np.abs(along).max()
    side = offsets @ across
    placed = centre + np.outer(along * (1 - keystone), away)
    placed += np.outer(side * (1 - keystone * along / reach), across)
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    placed = (placed - centre) @ rotation.T + centre + margin
    jitter = draw(
        "jitter",
        lambda: [[rng.uniform(-0.03, 0.03) * w, rng.uniform(-0.03, 0.03) * h] for _ in range(4)],
    )
    return cv2.getPerspectiveTransform(corners, np.float32(placed + np.array(jitter)))


def _curved(image: np.ndarray, curvature: float) -> np.ndarray:
    """The image bent as by a lens: each pixel takes what was ``1 + curvature * r^2`` times
    as far from the middle (r 1 at a corner), so that lines bow out (barrel) above 0 and in
    (pincushion) below."""
    H, W = image.shape[:2]
    ys, xs = np.mgrid[0:H, 0:W].astype(np.float32)
    cx, cy, half = W / 2, H / 2, float(np.hypot(W, H)) / 2
    dx, dy = (xs - cx) / half, (ys - cy) / half
    stretch = 1 + np.float32(curvature) * (dx * dx + dy * dy)
    return cv2.remap(
        image, (cx + dx * stretch * half).astype(np.float32),
        (cy + dy * stretch * half).astype(np.float32), cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REFLECT,
    )  # fmt: skip


def _lit(image: np.ndarray, draw, rng: random.Random) -> np.ndarray:  # type: ignore[no-untyped-def]
    """Light falling off to one side (to 45 % at worst), a soft shadow and a glare spot."""
    H, W = image.shape[:2]
    direction = draw("light_direction", lambda: rng.uniform(0, 2 * np.pi))
    ys, xs = np.mgrid[0:H, 0:W].astype(np.float32)
    ramp = (np.cos(direction) * xs / W + np.sin(direction) * ys / H + 1) / 2
    darkest = draw("darkest", lambda: rng.uniform(0.45, 0.8))
    light = darkest + (1 - darkest) * ramp
    shadow = np.zeros((H, W), np.float32)
    where = draw("shadow_at", lambda: [rng.randrange(W), rng.randrange(H)])
    angle = draw("shadow_angle", lambda: rng.uniform(0, 180))
    cv2.ellipse(shadow, tuple(where), (W // 3, H // 5), angle, 0, 360, 1.0, -1)
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(H, W) / 25)
    light *= 1 - draw("shadow_depth", lambda: rng.uniform(0.15, 0.45)) * shadow
    gx, gy = draw("glare_at", lambda: [rng.uniform(0.2, 0.8) * W, rng.uniform(0.2, 0.8) * H])
    radius = draw("glare_radius", lambda: rng.uniform(0.04, 0.15)) * max(H, W)
    glare = draw("glare", lambda: rng.uniform(0, 140)) * np.exp(
        -((xs - gx) ** 2 + (ys - gy) ** 2) / (2 * radius**2)
    )
    return image * light[..., None] + glare[..., None]


def _line_kernel(length: float, angle: float) -> np.ndarray:
    """A blur along a line ``length`` pixels long at ``angle`` degrees (a camera moved)."""
    n = int(np.ceil(length)) * 2 + 3
    kernel = np.zeros((4 * n, 4 * n), np.float32)
    c, a = 2 * n, np.radians(angle)
    dx, dy = 2 * length * np.cos(a), 2 * length * np.sin(a)
    cv2.line(kernel, (int(c - dx), int(c - dy)), (int(c + dx), int(c + dy)), 1.0, 2, cv2.LINE_AA)
    kernel = cv2.resize(kernel, (n, n), interpolation=cv2.INTER_AREA)
    return kernel / kernel.sum()


def named(read: Puzzle, truth: Puzzle, time_limit: float | None = None) -> bool:
    """Whether the suspects of a read (looked for within ``time_limit`` seconds, the
    suspects' own bound if None) name every island read wrong: the read with their changes
    made (a number changed, an island taken away or added) is the puzzle."""
    from hashi_asp import suspects

    islands = dict(read.islands)
    for suspect in suspects(read, time_limit=time_limit):
        if suspect.suggested is None:
            islands.pop(suspect.cell, None)
        else:
            islands[suspect.cell] = suspect.suggested
    if not islands:
        return False
    top = min(r for r, _ in islands)
    left = min(c for _, c in islands)
    return {(r - top, c - left): n for (r, c), n in islands.items()} == normalised(truth)
