"""Screenshots of puzzles as players take them, in the apps they play in, with the ground truth:
the puzzle and the bridges drawn on it.

- **workbench**: the project's own page (``hashi-asp serve``) in a headless Chromium, at a
  laptop's 1280x900 and a phone's 390x844, fresh or mid-game (some of the solution's bridges
  drawn, in some shots a few bridges no solution has, pairs marked "no bridge", an island
  selected), the whole page or the board alone;
- **tatham**: Simon Tatham's Bridges (Debian's sgt-puzzles) in a real window under Xvfb, with
  a window manager's title bar where one is installed (openbox), at several tile sizes and
  colour schemes, bridges drawn by mouse drags from island to island;
- **puzzlink**: puzz.link's drawing (pzpr, from a node_modules folder) on a canvas in
  Chromium, at three cell sizes, bridges set through pzpr's board.

Every shot's bridges are checked to be the ones meant before it is kept: the workbench's from
its board's DOM, pzpr's from its board, Tatham's from the window's pixels (the number of lines
across the gap between two islands, at several places along it); a shot where they differ is
dropped, never kept with a wrong truth.

    from screens import shots
    for shot in shots(2, seed=1):        # Shot(family, puzzle, drawn, picture, settings)
        ...

A browser, a server and an Xvfb are started once for a run (:class:`Apps`) and stopped at its
end, their temporary folders removed.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from hashi_asp import notations
from hashi_asp.puzzle import Puzzle
from hashi_asp.solving import solve

ROOT = Path(__file__).resolve().parent.parent
TATHAM = "/usr/games/sgt-bridges"
CHROMIUM = os.environ.get("HASHI_CHROMIUM", "/usr/lib/chromium/chromium")
DRIVER = os.environ.get(
    "HASHI_CHROMEDRIVER", shutil.which("chromedriver") or "/usr/bin/chromedriver"
)
FAMILIES = ("workbench", "tatham", "puzzlink")
SIZES = {"workbench": (7, 10, 15, 20), "tatham": (7, 10, 15, 20), "puzzlink": (7, 10, 15)}
WAIT = 60  # seconds at most for anything an app shows (a busy machine is slow, never this slow)

Cell = tuple[int, int]
Drawn = tuple[int, int, int, int, int]  # (r1, c1, r2, c2, k), the first end first in reading order
Pair = tuple[Cell, Cell]


@dataclass(frozen=True)
class Shot:
    """One screenshot: the app it shows (``family``), the puzzle in it, the bridges drawn on it
    (``(r1, c1, r2, c2, k)`` in the puzzle's cells, empty for a fresh game), the picture (PNG)
    and how it was made (size, scheme, what is shown besides the bridges)."""

    family: str
    puzzle: Puzzle
    drawn: tuple[Drawn, ...]
    picture: bytes
    settings: dict = field(default_factory=dict)


# ---------------------------------------------------------------------------- puzzles and play


def game_ids(size: int, count: int, seed: int) -> list[str]:
    """``count`` game IDs of Simon Tatham's generator, ``size`` x ``size``, each with exactly
    one solution."""
    return subprocess.run(
        [TATHAM, "--generate", str(count), f"{size}x{size}#screens-{seed}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()


def neighbour_pairs(puzzle: Puzzle) -> list[Pair]:
    """Every pair of islands that a bridge may join: each island with the nearest one to its
    right and below."""
    found = []
    for r, c in puzzle.islands:
        for dr, dc in ((0, 1), (1, 0)):
            rr, cc = r + dr, c + dc
            while 0 <= rr < puzzle.rows and 0 <= cc < puzzle.cols:
                if (rr, cc) in puzzle.islands:
                    found.append(((r, c), (rr, cc)))
                    break
                rr, cc = rr + dr, cc + dc
    return found


def between(pair: Pair) -> set[Cell]:
    """The cells a bridge on ``pair`` passes over."""
    (r1, c1), (r2, c2) = pair
    if r1 == r2:
        return {(r1, c) for c in range(c1 + 1, c2)}
    return {(r, c1) for r in range(r1 + 1, r2)}


@dataclass
class Play:
    """A player's board: the bridges drawn (by pair) and the pairs marked "no bridge"."""

    bridges: dict[Pair, int]
    marks: list[Pair]
    wrong: int = 0  # bridges drawn that the solution does not have

    def drawn(self) -> tuple[Drawn, ...]:
        return tuple(sorted((*a, *b, k) for (a, b), k in self.bridges.items()))


def mid_game(puzzle: Puzzle, rng: random.Random, wrong: int, marks: int) -> Play:
    """Some of the solution's bridges (a third to two thirds of its pairs), ``wrong`` bridges
    on pairs the solution leaves empty (each crossing nothing drawn, no island over its
    number), and ``marks`` pairs marked "no bridge" (crossing nothing drawn)."""
    solution = solve(puzzle).solutions[0]
    chosen = [b for b in solution.bridges if rng.random() < rng.uniform(0.33, 0.67)]
    bridges = {((b.r1, b.c1), (b.r2, b.c2)): b.count for b in chosen}
    used = {cell for pair in bridges for cell in between(pair)}
    solved = {((b.r1, b.c1), (b.r2, b.c2)) for b in solution.bridges}
    free = [p for p in neighbour_pairs(puzzle) if p not in solved]
    rng.shuffle(free)
    placed = 0
    for pair in free:
        if placed == wrong:
            break
        if between(pair) & used or any(
            _load(puzzle, bridges, end) >= _number(puzzle, end) for end in pair
        ):
            continue
        bridges[pair] = 1
        used |= between(pair)
        placed += 1
    open_pairs = [p for p in neighbour_pairs(puzzle) if p not in bridges and not between(p) & used]
    rng.shuffle(open_pairs)
    return Play(bridges, open_pairs[:marks], placed)


def _load(puzzle: Puzzle, bridges: dict[Pair, int], cell: Cell) -> int:
    return sum(k for pair, k in bridges.items() if cell in pair)


def _number(puzzle: Puzzle, cell: Cell) -> int:
    return puzzle.islands[cell] or 8


def way(a: Cell, b: Cell) -> tuple[int, int]:
    """The direction from ``a`` to ``b``, one of the four."""
    return (b[0] > a[0]) - (b[0] < a[0]), (b[1] > a[1]) - (b[1] < a[1])


# ---------------------------------------------------------------------------- the apps


class Apps:
    """What the shots are made in, each started when first needed and kept for the run: the
    workbench's server, a headless Chromium (for the workbench and puzz.link's page) and an
    Xvfb with a window manager (for Tatham's window).  :meth:`close` stops them all and removes
    their folders (all in one, made in ``folder``, else in the temporary directory)."""

    def __init__(self, pzpr: Path | None = None, folder: Path | None = None):
        self.pzpr = pzpr
        self.folder = Path(tempfile.mkdtemp(prefix="hashi-screens-", dir=folder))
        self._server: subprocess.Popen | None = None
        self.base = ""
        self._driver = None
        self._display: str | None = None
        self._x: list[subprocess.Popen] = []

    # The server and the browser --------------------------------------------------------

    def server(self) -> str:
        if self._server is None:
            self._server = subprocess.Popen(
                [sys.executable, "-m", "hashi_asp", "serve", "--port", "0"],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
            )
            line = self._server.stderr.readline()
            found = re.search(r"serving (http://\S+/)", line)
            if not found:
                raise RuntimeError(f"the workbench's server did not start: {line!r}")
            # What it says later (warnings) is read and let go, so that a full pipe never
            # stops it.
            threading.Thread(target=self._server.stderr.read, daemon=True).start()
            port = found.group(1).rsplit(":", 1)[1].strip("/")
            self.base = f"http://127.0.0.1:{port}/"
        return self.base

    def browser(self):
        if self._driver is None:
            from selenium import webdriver
            from selenium.webdriver.chrome.service import Service

            options = webdriver.ChromeOptions()
            options.binary_location = CHROMIUM
            for argument in (
                "--headless=new",
                "--no-sandbox",  # as root, Chromium's sandbox cannot start
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--hide-scrollbars",
                "--allow-file-access-from-files",  # pzpr loads its puzzle's script beside it
                "--window-size=1280,900",
                "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
            ):
                options.add_argument(argument)
            # Chromium's singleton folder goes where TMPDIR says: into this run's folder.
            chromium = self.folder / "chromium"
            chromium.mkdir()
            options.add_argument(f"--user-data-dir={chromium / 'profile'}")
            service = Service(DRIVER, env={**os.environ, "TMPDIR": str(chromium)})
            self._driver = webdriver.Chrome(options=options, service=service)
            self._driver.set_page_load_timeout(WAIT)
        return self._driver

    def screen(self, width: int, height: int) -> None:
        """The browser's viewport exactly ``width`` x ``height`` CSS pixels, a phone's when
        narrow."""
        self.browser().execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
        )

    # The X display -----------------------------------------------------------------------

    def display(self) -> str:
        """An Xvfb on a free display (it picks one and says which), with openbox where it is
        installed (a title bar on each window, as a desktop has)."""
        if self._display is None:
            read, write = os.pipe()
            xvfb = subprocess.Popen(
                [
                    "Xvfb",
                    "-displayfd",
                    str(write),
                    "-screen",
                    "0",
                    "1920x1400x24",
                    "-nolisten",
                    "tcp",
                ],
                pass_fds=(write,),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            os.close(write)
            self._x.append(xvfb)
            with os.fdopen(read) as said:
                number = said.readline().strip()
            if not number:
                raise RuntimeError("Xvfb did not start")
            self._display = f":{number}"
            if shutil.which("openbox"):
                self._x.append(
                    subprocess.Popen(
                        ["openbox", "--sm-disable"],
                        env=self.x_env(),
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                    )
                )
                # Ready once it has claimed the screen: the root window names its supporting
                # window (_NET_SUPPORTING_WM_CHECK).
                ends = time.monotonic() + WAIT
                while b"window id" not in self.x("xprop", "-root", "_NET_SUPPORTING_WM_CHECK"):
                    if time.monotonic() > ends:
                        raise RuntimeError("openbox did not start")
                    time.sleep(0.05)
        return self._display

    def x_env(self, **more: str) -> dict[str, str]:
        return {**os.environ, "DISPLAY": self.display(), "HOME": str(self.folder), **more}

    def x(self, *command: str) -> bytes:
        return subprocess.run(
            command, env=self.x_env(), capture_output=True, check=False, timeout=WAIT
        ).stdout

    def close(self) -> None:
        if self._driver is not None:
            try:
                self._driver.quit()
            finally:
                self._driver = None
        if self._server is not None:
            self._server.terminate()
            self._server.wait(WAIT)
            self._server.stderr.close()
        for process in reversed(self._x):
            process.terminate()
            process.wait(WAIT)
        shutil.rmtree(self.folder, ignore_errors=True)


# ---------------------------------------------------------------------------- the workbench

PAGE_SIZES = ((1280, 900), (390, 844))


def workbench_shot(
    apps: Apps,
    game_id: str,
    puzzle: Puzzle,
    play: Play | None,
    rng: random.Random,
    turn: int = 0,
) -> Shot | None:
    """The workbench at a laptop's or a phone's size on ``game_id``, ``play`` drawn (through
    the board's keyboard: an island selected by the page's hook, Ctrl+arrow for a line, Shift+
    arrow for a mark), an island selected last; the page, the board, or the board with its
    controls.  ``turn`` picks the screen and the crop in turn (``rng`` the rest); None when the
    board does not show the bridges and marks meant."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver, base = apps.browser(), apps.server()
    width, height = PAGE_SIZES[turn % 2]
    apps.screen(width, height)
    driver.get(f"{base}api")
    driver.execute_script("localStorage.clear()")
    driver.get(f"{base}?puzzle={urllib.parse.quote(game_id, safe='')}")
    WebDriverWait(driver, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board .island"))
    if play is not None:
        _play_on_page(driver, play)
    cursor = rng.choice(sorted(puzzle.islands))
    driver.execute_script("hashi.select(arguments[0], arguments[1])", *cursor)
    WebDriverWait(driver, WAIT).until(
        lambda d: (t := d.find_element(By.ID, "verdict").text) and "analysing" not in t
    )
    shown = _page_bridges(driver)
    marked = _page_marks(driver)
    meant = play.bridges if play else {}
    if shown != meant or (play and marked != set(play.marks)):
        return None
    crop = ("page", "board", "board-area")[turn % 3]
    if crop == "page":
        picture = driver.get_screenshot_as_png()
    else:
        picture = driver.find_element(By.ID, crop).screenshot_as_png
    settings = {"screen": f"{width}x{height}", "crop": crop, "cursor": list(cursor)}
    return Shot(
        "workbench", puzzle, play.drawn() if play else (), picture, _with_play(settings, play)
    )


def _play_on_page(driver, play: Play) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    arrows = {(0, 1): Keys.ARROW_RIGHT, (1, 0): Keys.ARROW_DOWN}
    moves = [(a, b, Keys.CONTROL) for (a, b), k in play.bridges.items() for _ in range(k)]
    moves += [(a, b, Keys.SHIFT) for a, b in play.marks]
    driver.execute_script("document.getElementById('board').focus()")
    for a, b, held in moves:
        driver.execute_script("hashi.select(arguments[0], arguments[1])", *a)
        ActionChains(driver).key_down(held).send_keys(arrows[way(a, b)]).key_up(held).perform()


def _page_pairs(driver, selector: str) -> list[list[str]]:
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map("
        "  g => [g.getAttribute('data-pair'), g.getAttribute('data-count')])",
        f"#board {selector}",
    )


def _pair(text: str) -> Pair:
    r1, c1, r2, c2 = map(int, text.split(","))
    return (r1, c1), (r2, c2)


def _page_bridges(driver) -> dict[Pair, int]:
    return {_pair(p): int(k) for p, k in _page_pairs(driver, ".bridge")}


def _page_marks(driver) -> set[Pair]:
    return {_pair(p) for p, _ in _page_pairs(driver, ".no-bridge")}


def _with_play(settings: dict, play: Play | None) -> dict:
    if play is None:
        return {**settings, "game": "fresh"}
    return {
        **settings,
        "game": "mid-game",
        "wrong": play.wrong,
        "marks": [list(a + b) for a, b in play.marks],
    }


# ---------------------------------------------------------------------------- Tatham's window

TILE_SIZES = (24, 32, 40, 48)
# BRIDGES_COLOUR_0 is the background (the window's too), _1 the islands, numbers and bridges.
SCHEMES: dict[str, dict[str, str]] = {
    "default": {},
    "white": {"BRIDGES_COLOUR_0": "ffffff", "BRIDGES_COLOUR_1": "000000"},
    "dark": {"BRIDGES_COLOUR_0": "1e1e1e", "BRIDGES_COLOUR_1": "e6e6e6"},
    "sepia": {"BRIDGES_COLOUR_0": "f4ecd8", "BRIDGES_COLOUR_1": "5b4636"},
    "blue": {"BRIDGES_COLOUR_0": "dde8f4", "BRIDGES_COLOUR_1": "1a3a6b"},
}


def tatham_shot(
    apps: Apps,
    game_id: str,
    puzzle: Puzzle,
    play: Play | None,
    rng: random.Random,
    turn: int = 0,
) -> Shot | None:
    """Simon Tatham's Bridges on ``game_id`` in a window at a tile size and in a colour scheme,
    ``play`` drawn by mouse drags (the left button for a line, the right for a mark); the
    window with its frame.  ``turn`` picks the tile size and the scheme in turn; None when the
    window does not show the bridges meant."""
    fits = [t for t in TILE_SIZES if t * (puzzle.rows + 1) + 60 < 1400]
    tile, scheme = fits[turn % len(fits)], list(SCHEMES)[turn % len(SCHEMES)]
    env = apps.x_env(BRIDGES_TILESIZE=str(tile), **SCHEMES[scheme])
    process = subprocess.Popen(
        [TATHAM, game_id], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        window = (
            apps.x(
                "xdotool",
                "search",
                "--sync",
                "--onlyvisible",
                "--pid",
                str(process.pid),
                "--name",
                "Bridges",
            )
            .split()[0]
            .decode()
        )
        board = TathamBoard(apps, window, puzzle, tile)
        if play is not None:
            board.drag(play)
        bridges = play.bridges if play else {}
        marks = set(play.marks) if play else set()
        frame = board.wait_for(bridges, marks)
        if frame is None:
            return None
    finally:
        process.terminate()
        process.wait(WAIT)
    # Where the canvas's top left corner is in the picture: island (r, c) is centred a tile
    # times (c + 1, r + 1) from there.
    canvas = [board.frame[0] + board.left, board.frame[2] + board.top]
    settings = {
        "tile": tile,
        "scheme": scheme,
        "window": f"{frame.shape[1]}x{frame.shape[0]}",
        "canvas": canvas,
    }
    return Shot(
        "tatham", puzzle, play.drawn() if play else (), _png(frame), _with_play(settings, play)
    )


def _png(image: np.ndarray) -> bytes:
    ok, encoded = cv2.imencode(".png", image)
    assert ok
    return encoded.tobytes()


class TathamBoard:
    """Where Tatham's window draws a puzzle: its canvas is the tile size times the grid plus
    half a tile all round, at the bottom of the window (the menu bar above it), centred across;
    an island's centre is in the middle of its tile."""

    def __init__(self, apps: Apps, window: str, puzzle: Puzzle, tile: int):
        self.apps, self.window, self.puzzle, self.tile = apps, window, puzzle, tile
        info = apps.x("xwininfo", "-id", window).decode()
        number = lambda name: int(re.search(rf"{name}:\s+(-?\d+)", info).group(1))  # noqa: E731
        self.x, self.y = number("Absolute upper-left X"), number("Absolute upper-left Y")
        self.width, self.height = number("Width"), number("Height")
        extents = apps.x("xprop", "-id", window, "_NET_FRAME_EXTENTS").decode()
        found = re.findall(r"\d+", extents.partition("=")[2])
        self.frame = tuple(map(int, found)) if len(found) == 4 else (0, 0, 0, 0)  # l, r, t, b
        self.left = (self.width - tile * (puzzle.cols + 1)) // 2
        self.top = self.height - tile * (puzzle.rows + 1)

    def centre(self, cell: Cell) -> tuple[int, int]:
        """An island's centre, in the window's pixels."""
        r, c = cell
        return self.left + self.tile * (c + 1), self.top + self.tile * (r + 1)

    def drag(self, play: Play) -> None:
        """Each bridge drawn by as many left-button drags as it has lines, each mark by a
        right-button drag, in one xdotool run (short pauses let the toolkit see each move)."""
        command = ["xdotool"]
        moves = [(a, b, "1") for (a, b), k in play.bridges.items() for _ in range(k)]
        moves += [(a, b, "3") for a, b in play.marks]
        for a, b, button in moves:
            (x1, y1), (x2, y2) = self.centre(a), self.centre(b)
            command += ["mousemove", "--window", self.window, str(x1), str(y1), "sleep", "0.02"]
            command += ["mousedown", button, "sleep", "0.02"]
            for share in (0.3, 0.7, 1.0):
                x, y = round(x1 + share * (x2 - x1)), round(y1 + share * (y2 - y1))
                command += ["mousemove", "--window", self.window, str(x), str(y), "sleep", "0.02"]
            command += ["mouseup", button, "sleep", "0.02"]
        command += ["mousemove", "0", "0"]  # the pointer off the board: nothing highlighted
        subprocess.run(command, env=self.apps.x_env(), check=True, capture_output=True)

    def grab(self) -> tuple[np.ndarray, np.ndarray]:
        """The window with its frame, and the window's own pixels."""
        path = self.apps.folder / "screen.png"
        self.apps.x("import", "-window", "root", str(path))
        screen = cv2.imread(str(path), cv2.IMREAD_COLOR)
        left, right, top, bottom = self.frame
        framed = screen[
            self.y - top : self.y + self.height + bottom,
            self.x - left : self.x + self.width + right,
        ]
        inner = screen[self.y : self.y + self.height, self.x : self.x + self.width]
        return framed.copy(), inner

    def wait_for(self, bridges: dict[Pair, int], marks: set[Pair]) -> np.ndarray | None:
        """The framed window once it shows exactly ``bridges`` and some ink on each pair of
        ``marks`` (the window redraws after the drags: it is looked at until it does, for a
        few seconds at most); None if it never does."""
        ends = time.monotonic() + 5
        while True:
            framed, inner = self.grab()
            if self.shows(inner, bridges, marks):
                return framed
            if time.monotonic() > ends:
                return None
            time.sleep(0.1)

    def shows(self, inner: np.ndarray, bridges: dict[Pair, int], marks: set[Pair]) -> bool:
        background = inner[self.top + 2, self.left + 2].astype(int)
        crossed = {cell for pair in bridges for cell in between(pair)}
        for pair in neighbour_pairs(self.puzzle):
            if pair not in bridges and between(pair) & crossed:
                continue  # a bridge drawn across it: nothing else can be there
            counts = self.lines(inner, pair, background)
            if counts is None:
                if pair in bridges:
                    return False  # a bridge that cannot be seen is not kept as drawn
                continue
            if pair in marks:
                if not self.marked(inner, pair, background):
                    return False
            elif set(counts) != {bridges.get(pair, 0)}:
                return False
        return True

    def lines(self, inner: np.ndarray, pair: Pair, background: np.ndarray) -> list[int] | None:
        """The number of lines across the gap between the two islands of ``pair``, at five
        places along it clear of the islands' circles (None for islands too close for that)."""
        (x1, y1), (x2, y2) = self.centre(pair[0]), self.centre(pair[1])
        span = max(abs(x2 - x1), abs(y2 - y1))
        clear = 0.75 * self.tile  # an island's circle reaches over half a tile out
        if span - 2 * clear < 4:
            return None
        counts = []
        for share in np.linspace(clear / span, 1 - clear / span, 5):
            x, y = round(x1 + share * (x2 - x1)), round(y1 + share * (y2 - y1))
            half = int(0.3 * self.tile)
            if y1 == y2:
                profile = inner[y - half : y + half + 1, x]
            else:
                profile = inner[y, x - half : x + half + 1]
            far = _ink(profile, background)
            counts.append(int(np.count_nonzero(np.diff(far.astype(int)) == 1) + far[0]))
        return counts

    def marked(self, inner: np.ndarray, pair: Pair, background: np.ndarray) -> bool:
        """Whether there is ink on the line between the two islands of ``pair``, clear of
        their circles: a mark's crosses (drawn every half tile), as no bridge is there."""
        (x1, y1), (x2, y2) = self.centre(pair[0]), self.centre(pair[1])
        clear = round(0.75 * self.tile)
        if y1 == y2:
            line = inner[y1, x1 + clear : x2 - clear + 1]
        else:
            line = inner[y1 + clear : y2 - clear + 1, x1]
        return bool(_ink(line, background).any())


def _ink(pixels: np.ndarray, background: np.ndarray) -> np.ndarray:
    """Which of a row of pixels are ink: far from the background's colour."""
    return np.abs(pixels.astype(int) - background).sum(axis=1) > 120


# ---------------------------------------------------------------------------- puzz.link's page

CELL_SIZES = (24, 36, 48)
PZPR_PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Hashikake - puzz.link</title>
<style>
body { font-family: sans-serif; margin: 0; background: #eeeeee; }
#top { background: #3a5f8f; color: white; padding: 6px 12px; font-size: 18px; }
#menu { background: #dddddd; padding: 4px 12px; font-size: 13px; color: #333; }
#menu span { margin-right: 18px; }
#board { padding: 16px; display: inline-block; background: white; margin: 12px; }
</style>
<script src="PZPR"></script></head>
<body><div id="top">Hashikake (Bridges)</div>
<div id="menu"><span>File</span><span>Edit</span><span>Display</span><span>Setting</span>
<span>Other</span>
<span>Mode: Answer</span><span>Check</span><span>Undo</span><span>Redo</span></div>
<div id="board"><div id="canvas"></div></div>
<script>
window.pz = new pzpr.Puzzle(document.getElementById("canvas"));
window.opened = false;
window.openPuzzle = function (url, cell) {
  window.opened = false;
  pz.setCanvasSizeByCellSize(cell);
  // A puzzle opened from its URL is played: puzz.link's page opens it so (no grid drawn).
  pz.open(url, function () { pz.setMode("play"); pz.redraw(); window.opened = true; });
};
// The lines of a bridge lie on the borders between the cells it passes, each set to k.
window.setPlay = function (bridges, marks) {
  const borders = (r1, c1, r2, c2) => {
    const found = [];
    if (r1 === r2) for (let c = c1; c < c2; c++) found.push(pz.board.getb(2 * c + 2, 2 * r1 + 1));
    else for (let r = r1; r < r2; r++) found.push(pz.board.getb(2 * c1 + 1, 2 * r + 2));
    return found;
  };
  for (const [r1, c1, r2, c2, k] of bridges) {
    for (const b of borders(r1, c1, r2, c2)) b.setLineVal(k);
  }
  // A mark (a cross) on the middle border of the pair, where a right click between them lands.
  for (const [r1, c1, r2, c2] of marks) {
    const found = borders(r1, c1, r2, c2);
    found[Math.floor(found.length / 2)].setQsub(2);
  }
  pz.redraw();
};
window.lines = function () {
  const found = [];
  for (let i = 0; i < pz.board.border.length; i++) {
    const b = pz.board.border[i];
    if (b.line > 0) found.push([b.bx, b.by, b.line]);
  }
  return found;
};
</script></body></html>
"""


def pzpr_modules(folder: Path | None = None) -> Path | None:
    """A node_modules folder with pzpr's browser build in it (``folder``, /tmp/pz's or one
    under benchmarks/), if any."""
    for place in [folder, Path(__file__).with_name("node_modules"), Path("/tmp/pz/node_modules")]:
        if place is not None and (place / "pzpr" / "dist" / "pzpr.js").is_file():
            return place
    return None


def puzzlink_shot(
    apps: Apps,
    game_id: str,
    puzzle: Puzzle,
    play: Play | None,
    rng: random.Random,
    turn: int = 0,
) -> Shot | None:
    """pzpr's drawing of the puzzle's puzz.link URL on a canvas, at a cell size, in a page
    laid out as puzz.link's (a title, a menu, the board), ``play`` set on its board; the board
    or the page.  ``turn`` picks the cell size and the crop in turn; None when pzpr's board does
    not hold the lines meant."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    if apps.pzpr is None:
        return None
    driver = apps.browser()
    page = apps.folder / "puzzlink.html"
    if not page.exists():
        script = (apps.pzpr / "pzpr" / "dist" / "pzpr.js").resolve().as_uri()
        page.write_text(PZPR_PAGE.replace("PZPR", script))
    cell = CELL_SIZES[turn % 3]
    apps.screen(1280, 900)
    driver.get(page.as_uri())
    url = notations.write(puzzle, "puzzlink")
    driver.execute_script("openPuzzle(arguments[0], arguments[1])", url, cell)
    WebDriverWait(driver, WAIT).until(lambda d: d.execute_script("return window.opened"))
    meant: set[tuple[int, int, int]] = set()
    if play is not None:
        driver.execute_script(
            "setPlay(arguments[0], arguments[1])",
            [list(d) for d in play.drawn()],
            [list(a + b) for a, b in play.marks],
        )
        meant = _pzpr_lines(play)
    if {tuple(v) for v in driver.execute_script("return lines()")} != meant:
        return None
    crop = ("board", "page")[turn % 2]
    if crop == "page":
        picture = driver.get_screenshot_as_png()
    else:
        picture = driver.find_element(By.ID, "board").screenshot_as_png
    settings = {"cell": cell, "crop": crop, "url": url}
    return Shot(
        "puzzlink", puzzle, play.drawn() if play else (), picture, _with_play(settings, play)
    )


def _pzpr_lines(play: Play) -> set[tuple[int, int, int]]:
    """The borders pzpr's board holds lines on for ``play``, as (bx, by, k)."""
    found = set()
    for ((r1, c1), (r2, c2)), k in play.bridges.items():
        if r1 == r2:
            found |= {(2 * c + 2, 2 * r1 + 1, k) for c in range(c1, c2)}
        else:
            found |= {(2 * c1 + 1, 2 * r + 2, k) for r in range(r1, r2)}
    return found


# ---------------------------------------------------------------------------- all of them

MAKERS = {"workbench": workbench_shot, "tatham": tatham_shot, "puzzlink": puzzlink_shot}


def available(family: str, pzpr: Path | None = None) -> str | None:
    """Why ``family``'s shots cannot be made on this machine, or None when they can."""
    needs = {
        "workbench": [CHROMIUM, DRIVER],
        "puzzlink": [CHROMIUM, DRIVER],
        "tatham": [TATHAM, shutil.which("Xvfb") or "Xvfb", shutil.which("xdotool") or "xdotool",
                   shutil.which("import") or "import", shutil.which("xwininfo") or "xwininfo"],
    }[family]  # fmt: skip
    missing = [path for path in needs if not os.path.exists(path)]
    if family == "puzzlink" and pzpr_modules(pzpr) is None:
        missing.append("pzpr (npm install --prefix DIR pzpr)")
    return f"needs {', '.join(missing)}" if missing else None


def shots(
    count: int,
    seed: int,
    families: Iterable[str] = FAMILIES,
    *,
    pzpr: Path | None = None,
    apps: Apps | None = None,
) -> Iterator[Shot]:
    """``count`` puzzles of each size for each family (its sizes: SIZES), fresh or mid-game in
    turn: of every three puzzles of a family, the first fresh, the second mid-game with two
    bridges no solution has, the third mid-game with none; each mid-game one with one to three
    pairs marked "no bridge".  A shot whose bridges did not come out as meant is made once more
    (with another play), then left out.  The apps are started once (``apps``: ones already
    started, left running by this)."""
    rng = random.Random(seed)
    own = apps is None
    apps = apps or Apps(pzpr_modules(pzpr))
    try:
        for family in families:
            if available(family, apps.pzpr):
                continue
            made = 0
            for size in SIZES[family]:
                for game_id in game_ids(size, count, seed * 100 + size):
                    puzzle = notations.parse(game_id)
                    made += 1
                    for _ in range(2):
                        play = (
                            None
                            if made % 3 == 1
                            else mid_game(
                                puzzle,
                                rng,
                                wrong=2 if made % 3 == 2 else 0,
                                marks=rng.randrange(1, 4),
                            )
                        )
                        shot = MAKERS[family](apps, game_id, puzzle, play, rng, made - 1)
                        if shot is not None:
                            yield Shot(shot.family, shot.puzzle, shot.drawn, shot.picture,
                                       {**shot.settings, "size": size, "id": game_id})  # fmt: skip
                            break
    finally:
        if own:
            apps.close()
