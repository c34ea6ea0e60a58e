"""The workbench page in a real headless Chromium (Debian's ``chromium`` and ``chromium-driver``),
driven by Selenium: starting it at a screen's size, reading what the board shows through the
page's hooks (``.island[data-cell]``, ``.bridge[data-pair][data-count]``,
``.no-bridge[data-pair]``, ``#verdict``, ``#message``), and a player's gestures with a mouse,
a finger and the keyboard.  Beyond the DOM, a test reaches the page only through
``window.hashi``, the one object the page sets for tests and tools (docs/web.md): its modules
share nothing else with the window.

The browser reaches nothing but this machine: every host name but localhost resolves to
nothing.  Waits are for what the page shows, with a generous bound for a busy machine, never a
fixed sleep.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import urllib.parse
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.mouse_button import MouseButton
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from hashi_asp.puzzle import Solution, bridge

CHROMIUM = os.environ.get("HASHI_CHROMIUM", "/usr/lib/chromium/chromium")
DRIVER = os.environ.get(
    "HASHI_CHROMEDRIVER", shutil.which("chromedriver") or "/usr/bin/chromedriver"
)
SHOTS = Path(os.environ.get("HASHI_TEST_OUTPUT", "test-output")) / "screenshots"
WAIT = 60  # seconds at most for anything the page shows (a busy machine is slow, never this slow)

WIDE = (1280, 900)  # a laptop's window
PHONE = (390, 844)  # a phone's screen, held upright

Cell = tuple[int, int]
Pair = tuple[Cell, Cell]


def start_browser() -> webdriver.Chrome:
    missing = [path for path in (CHROMIUM, DRIVER) if not os.path.exists(path)]
    assert not missing, (
        f"{', '.join(missing)} missing: the browser tests need Debian's chromium and "
        "chromium-driver (apt-get install --no-install-recommends chromium chromium-driver "
        "fonts-liberation)"
    )
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",  # as root, Chromium's sandbox cannot start
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1280,900",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # Chromium leaves its singleton's folder in the temporary directory after it quits: it is
    # given a folder of its own, removed by stop_browser.
    folder = tempfile.mkdtemp(prefix="hashi-chromium-")
    service = Service(DRIVER, env={**os.environ, "TMPDIR": folder})
    driver = webdriver.Chrome(options=options, service=service)
    driver.hashi_folder = folder
    driver.set_page_load_timeout(WAIT)
    SHOTS.mkdir(parents=True, exist_ok=True)
    return driver


def stop_browser(driver: webdriver.Chrome) -> None:
    """Quit the browser and remove the temporary folder it was given."""
    try:
        driver.quit()
    finally:
        shutil.rmtree(driver.hashi_folder, ignore_errors=True)


def screen(driver, size: tuple[int, int]) -> None:
    """The page's viewport exactly ``size`` CSS pixels (a window's frame would take some), as a
    phone's when narrow."""
    width, height = size
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
    )


def fresh_page(driver, server: str) -> None:
    """The page at a laptop's screen size with nothing kept from before (the browser's storage
    emptied on the page's origin, without the page, which would keep a puzzle in it), and the
    console's entries so far set aside."""
    screen(driver, WIDE)
    driver.get(f"{server}api")
    driver.execute_script("localStorage.clear()")
    driver.get(server)
    driver.get_log("browser")


# The API answers some questions with a 4xx status and a document the page reads (no solution,
# a refused puzzle): Chromium logs each as a failed load.  Anything else severe (a script error,
# a refusal by the page's Content-Security-Policy, a file of the page missing) is a fault.
API_ANSWER = re.compile(
    r"/api/\w+ - Failed to load resource: the server responded with a status of 4\d\d"
)


def console_faults(driver) -> list[str]:
    """The severe entries of the browser's console since the last call, but the API's answers."""
    return [
        f"{entry['source']}: {entry['message']}"
        for entry in driver.get_log("browser")
        if entry["level"] == "SEVERE"
        and not (entry["source"] == "network" and API_ANSWER.search(entry["message"]))
    ]


# ---------------------------------------------------------------------------- what the page shows


def wait(driver, condition, what: str):
    return WebDriverWait(driver, WAIT).until(lambda d: condition(d), f"never saw {what}")


def verdict(driver) -> str:
    return driver.find_element(By.ID, "verdict").text


def message(driver) -> str:
    return driver.find_element(By.ID, "message").text


def settled(driver) -> str:
    """The verdict once the live analysis has given one."""
    wait(driver, lambda d: verdict(d) and "analysing" not in verdict(d), "a verdict")
    return verdict(driver)


def read(driver, selector: str, *names: str) -> list[list[str]]:
    """The ``data-`` attributes ``names`` (and the text last) of every element ``selector``
    finds in the board, read in one go (the page redraws the board after each change)."""
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map("
        "  g => [...arguments[1].map(n => g.getAttribute('data-' + n)), g.textContent.trim()])",
        f"#board {selector}",
        list(names),
    )


def cell(text: str) -> Cell:
    r, c = map(int, text.split(","))
    return r, c


def pair(text: str) -> Pair:
    r1, c1, r2, c2 = map(int, text.split(","))
    return (r1, c1), (r2, c2)


def islands(driver) -> dict[Cell, int | None]:
    return {cell(at): int(text) if text else None for at, text in read(driver, ".island", "cell")}


def bridges(driver) -> Solution:
    return Solution.of(
        bridge(*pair(ends), int(k)) for ends, k, _ in read(driver, ".bridge", "pair", "count")
    )


def ruled_out(driver) -> set[Pair]:
    return {pair(ends) for ends, _ in read(driver, ".no-bridge", "pair")}


def board_state(driver) -> tuple:
    """Everything the player sees of a puzzle and its play, to compare moments."""
    return islands(driver), bridges(driver).counts(), ruled_out(driver)


def marked(driver, kind: str = "marked") -> set[Cell]:
    return {cell(at) for at, _ in read(driver, f".island.{kind}", "cell")}


def shot(driver, name: str) -> None:
    driver.save_screenshot(str(SHOTS / f"{name}.png"))


def open_puzzle(driver, server: str, text: str) -> None:
    driver.get(f"{server}?puzzle={urllib.parse.quote(text, safe='')}")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board .island"), "the islands")


def press(driver, button: str) -> None:
    driver.find_element(By.ID, button).click()


# ---------------------------------------------------------------------------- gestures


def island(driver, at: Cell):
    return driver.find_element(By.CSS_SELECTOR, f"#board .island[data-cell='{at[0]},{at[1]}']")


def centre_of(driver, selector: str) -> tuple[int, int]:
    """Where the element ``selector`` finds is, in the window: its centre, read at once (the
    page redraws the board's elements after each change; their places stay)."""
    x, y = driver.execute_script(
        "const box = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return [box.left + box.width / 2, box.top + box.height / 2];",
        selector,
    )
    return round(x), round(y)


def pointer(driver, touch: bool) -> ActionBuilder:
    kind = interaction.POINTER_TOUCH if touch else interaction.POINTER_MOUSE
    return ActionBuilder(driver, mouse=PointerInput(kind, "finger" if touch else "mouse"))


def drag(driver, a: Cell, b: Cell, *, button: str = "left", touch: bool = False) -> None:
    """Press on island ``a``, move onto island ``b``, let go: with the mouse's ``button``, or a
    finger.  (The page takes the drag's direction: it need not reach ``b``.)"""
    actions = pointer(driver, touch)
    pressed = MouseButton.RIGHT if button == "right" else MouseButton.LEFT
    start = centre_of(driver, f"#board .island[data-cell='{a[0]},{a[1]}']")
    end = centre_of(driver, f"#board .island[data-cell='{b[0]},{b[1]}']")
    actions.pointer_action.move_to_location(*start).pointer_down(pressed)
    actions.pointer_action.move_to_location(*end).pointer_up(pressed)
    actions.perform()


def tap(driver, selector: str, *, touch: bool = True) -> None:
    """A tap (a click) on the middle of the element ``selector`` finds."""
    actions = pointer(driver, touch)
    actions.pointer_action.move_to_location(*centre_of(driver, selector))
    actions.pointer_action.pointer_down().pointer_up()
    actions.perform()


def keys(driver, *typed: str) -> None:
    """Keys typed into whatever has the focus (the board, after a click on it)."""
    ActionChains(driver).send_keys(*typed).perform()


def chord(driver, modifiers: str, *typed: str) -> None:
    """``typed`` with each key of ``modifiers`` held (Keys.CONTROL, Keys.SHIFT, or both)."""
    chain = ActionChains(driver)
    for modifier in modifiers:
        chain.key_down(modifier)
    chain.send_keys(*typed)
    for modifier in reversed(modifiers):
        chain.key_up(modifier)
    chain.perform()


def focus_board(driver) -> None:
    driver.execute_script("document.getElementById('board').focus()")
