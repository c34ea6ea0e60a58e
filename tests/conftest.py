from pathlib import Path

import pytest
from bruteforce import neighbour_pairs
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from serving import Server

from hashi_asp.cli import main

# Hypothesis's deadline per example is a timing assertion: on a busy machine any example may
# take longer than it would alone.  The tests say what must hold, never how fast.
settings.register_profile(
    "busy machine", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("busy machine")

REPO = Path(__file__).resolve().parent.parent
PUZZLES = REPO / "puzzles"
PROGRAMS = Path(__file__).resolve().parent / "programs"  # ASP programs the tests add

PROLOG = PUZZLES / "prolog-5x5.txt"  # two solutions
MANY = PUZZLES / "coelho" / "Hs_16_100_50_10_001.has"  # about 20 000 solutions
# Searches that cannot end on their own: 13 pigeons in 12 holes, and a grounding of minutes.
PIGEONS = PROGRAMS / "pigeons.lp"
SLOW_GROUNDING = PROGRAMS / "slow_grounding.lp"


@pytest.fixture
def puzzles() -> Path:
    return PUZZLES


@pytest.fixture
def pigeons() -> Path:
    return PIGEONS


def loose_encoding(folder: Path) -> Path:
    """The bundled rules without connectivity (bridges.lp, not loaded with reachability.lp) and
    without the redundant block that also forbids the smallest closed groups: an edited encoding
    that admits wrong answers.  Blocks are found by their heading comments; the geometry it
    includes is copied beside it."""
    text = (REPO / "encodings" / "bridges.lp").read_text()
    heading = "% ---------------------------------------------------------------- redundant"
    assert heading in text, "bridges.lp no longer has its redundant block"
    kept, _, rest = text.partition(heading)
    path = folder / "loose.lp"
    path.write_text(kept + "#show bridge/5.\n")
    (folder / "geometry.lp").write_text((REPO / "encodings" / "geometry.lp").read_text())
    assert "#show bridge/5." in rest
    return path


@st.composite
def small_puzzles(draw, max_side: int = 5, max_islands: int = 8):
    """(rows, cols, islands) on grids up to max_side square.

    Half of them take their numbers from a random non-crossing bridge layout (often solvable,
    often with several solutions); the rest have random numbers (mostly unsolvable)."""
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    cells = draw(
        st.sets(
            st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)),
            min_size=1,
            max_size=min(max_islands, rows * cols),
        )
    )
    if draw(st.booleans()):
        islands = {cell: draw(st.integers(1, 8)) for cell in sorted(cells)}
        return rows, cols, islands
    degree = dict.fromkeys(cells, 0)
    used: set = set()
    for a, b in draw(st.permutations(neighbour_pairs(rows, cols, degree))):
        k = draw(st.integers(0, 2))
        between = (
            {(a[0], x) for x in range(a[1] + 1, b[1])}
            if a[0] == b[0]
            else {(y, a[1]) for y in range(a[0] + 1, b[0])}
        )
        if k and not between & used:
            used |= between
            degree[a] += k
            degree[b] += k
    islands = {cell: degree[cell] or draw(st.integers(1, 4)) for cell in sorted(cells)}
    return rows, cols, islands


@pytest.fixture
def start():
    """Start servers; each is killed and waited for at the end, whatever happened."""
    servers = []

    def starting(*args: str) -> Server:
        server = Server(*args)
        servers.append(server)
        return server

    try:
        yield starting
    finally:
        for server in servers:
            server.close()


@pytest.fixture(scope="module")
def server():
    running = Server()
    try:
        yield running
    finally:
        running.close()


@pytest.fixture(scope="module")
def site(server) -> str:
    """The address of a module's own ``hashi-asp serve``, for the browser tests."""
    return server.url


@pytest.fixture(scope="module")
def chromium():
    """A module's headless Chromium (tests/browsing.py)."""
    from browsing import start_browser, stop_browser

    driver = start_browser()
    try:
        yield driver
    finally:
        stop_browser(driver)


@pytest.fixture
def browser(chromium, site):
    """The browser on a fresh page (see browsing.fresh_page); after the test, its console holds
    no fault."""
    from browsing import console_faults, fresh_page

    fresh_page(chromium, site)
    yield chromium
    assert console_faults(chromium) == []


def run(*args: object, input: str | None = None, color: bool = False) -> Result:
    """``hashi-asp ARGS`` in this process, by click's runner: its exit code, stdout and stderr
    (a process of its own, where that matters, is tests/processes.py's)."""
    return CliRunner().invoke(main, [str(a) for a in args], input=input, color=color)
