"""The workbench page in a real headless Chromium (Debian's ``chromium`` and ``chromium-driver``),
driven by Selenium against a real ``hashi-asp serve`` process: what a player does, checked
against the library's own answers.  Screenshots of the main states go to
``$HASHI_TEST_OUTPUT/screenshots`` (default ``test-output/screenshots``).

The browser reaches nothing but this machine: every host name but localhost resolves to
nothing.  Waits are for what the page shows (a verdict, a drawn bridge), with a generous bound
for a busy machine, never a fixed sleep.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import urllib.parse
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from serving import Server

from hashi_asp import notations
from hashi_asp.checking import check
from hashi_asp.puzzle import Solution, bridge
from hashi_asp.solving import count, unique
from hashi_asp.walkthrough import steps

CHROMIUM = os.environ.get("HASHI_CHROMIUM", "/usr/lib/chromium/chromium")
DRIVER = os.environ.get(
    "HASHI_CHROMEDRIVER", shutil.which("chromedriver") or "/usr/bin/chromedriver"
)
SHOTS = Path(os.environ.get("HASHI_TEST_OUTPUT", "test-output")) / "screenshots"
WAIT = 60  # seconds at most for anything the page shows (a busy machine is slow, never this slow)

UNIQUE = "7x7m2:4a4a2a2w2k4c3a1"  # the README's walkthrough puzzle


@pytest.fixture(scope="module")
def server():
    running = Server()
    try:
        yield running.url
    finally:
        running.close()


@pytest.fixture(scope="module")
def browser():
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
    driver = webdriver.Chrome(options=options, service=Service(DRIVER))
    driver.set_page_load_timeout(WAIT)
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        yield driver
    finally:
        driver.quit()


# ---------------------------------------------------------------------------- what the page shows


def wait(driver, condition, what: str):
    return WebDriverWait(driver, WAIT).until(lambda d: condition(d), f"never saw {what}")


def verdict(driver) -> str:
    return driver.find_element(By.ID, "verdict").text


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


def islands(driver) -> dict[tuple[int, int], int | None]:
    return {
        (int(r), int(c)): int(text) if text else None
        for r, c, text in read(driver, ".island", "row", "col")
    }


def bridges(driver) -> Solution:
    return Solution.of(
        bridge((int(r1), int(c1)), (int(r2), int(c2)), int(k))
        for r1, c1, r2, c2, k, _ in read(driver, ".bridge", "r1", "c1", "r2", "c2", "count")
    )


def marked(driver, kind: str = "marked") -> set[tuple[int, int]]:
    return {(int(r), int(c)) for r, c, _ in read(driver, f".island.{kind}", "row", "col")}


def drag(driver, a, b) -> None:
    """Press on cell ``a`` of the board, move to cell ``b``, release.  (By the board's own
    coordinates: the board element stays while the page redraws what is inside it.)"""
    board = driver.find_element(By.ID, "board")
    width, height = (float(board.get_attribute(n)) for n in ("width", "height"))

    def offset(cell):  # from the board's centre, as Selenium counts; 40 pixels per cell
        return round(40 * (cell[1] + 1) - width / 2), round(40 * (cell[0] + 1) - height / 2)

    chain = ActionChains(driver).move_to_element_with_offset(board, *offset(a)).click_and_hold()
    chain.move_to_element_with_offset(board, *offset(b)).release().perform()


def keys(driver, *typed: str) -> None:
    """Keys typed into whatever has the focus (the board, after a click on it)."""
    ActionChains(driver).send_keys(*typed).perform()


def message(driver) -> str:
    return driver.find_element(By.ID, "message").text


def shot(driver, name: str) -> None:
    driver.save_screenshot(str(SHOTS / f"{name}.png"))


def open_puzzle(driver, server: str, text: str) -> None:
    driver.get(f"{server}?puzzle={urllib.parse.quote(text, safe='')}")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board .island"), "the islands")


def play(driver) -> None:
    settled(driver)  # the live analysis has redrawn the board
    driver.find_element(By.ID, "mode-play").click()


def severe_logs(driver) -> list[str]:
    try:
        entries = driver.get_log("browser")
    except WebDriverException:  # a driver without logs: nothing to report
        return []
    return [entry["message"] for entry in entries if entry["level"] == "SEVERE"]


# ---------------------------------------------------------------------------- the tests


def test_a_shared_link_draws_the_puzzle_and_its_verdict(server, browser):
    puzzle = notations.read(UNIQUE)
    open_puzzle(browser, server, UNIQUE)
    assert islands(browser) == dict(puzzle.islands)
    assert "unique" in settled(browser)
    assert unique(puzzle).status == "unique"
    shot(browser, "01-loaded-unique")
    assert severe_logs(browser) == []


def test_placing_an_island_changes_the_live_verdict(server, browser):
    open_puzzle(browser, server, UNIQUE)
    assert "unique" in settled(browser)
    # An island of 1 at (1, 6), below the 2 at (0, 6): the numbers' total turns odd.
    browser.find_element(By.CSS_SELECTOR, "#board rect.cell[data-row='1'][data-col='6']").click()
    wait(browser, lambda d: islands(d).get((1, 6)) == 1, "the new island")
    assert settled(browser) == "no solution"
    edited = notations.read(UNIQUE)
    edited = type(edited)(edited.rows, edited.cols, {**edited.islands, (1, 6): 1})
    found = unique(edited, explained=True)
    assert found.status == "unsolvable"
    core = set(found.explanation.core or ())
    checked = {cell for v in found.explanation.checks for cell in v.cells}
    assert marked(browser) == core | checked
    shot(browser, "02-edited-unsolvable")
    # The keyboard: the selected cell takes a 3 instead; two solutions now... or one: the
    # page's verdict must agree with the library's.
    keys(browser, "3")
    wait(browser, lambda d: islands(d).get((1, 6)) == 3, "the number typed")
    shown = settled(browser)
    edited = type(edited)(edited.rows, edited.cols, {**edited.islands, (1, 6): 3})
    expected = unique(edited)
    if expected.status == "multiple":
        counted = count(edited, time_limit=30)
        assert shown in (f"{counted.count} solutions", "at least 2 solutions")
    else:
        assert (
            shown
            == {"unique": "unique: one solution", "unsolvable": "no solution"}[expected.status]
        )
    keys(browser, "\ue017")  # Delete
    wait(browser, lambda d: (1, 6) not in islands(d), "the island removed")
    assert "unique" in settled(browser)


def test_a_puzzle_with_two_solutions_shows_where_they_differ(server, browser):
    text = Path("puzzles/prolog-5x5.txt").read_text()
    open_puzzle(browser, server, text)
    assert "solutions" in settled(browser)
    found = unique(notations.read("puzzles/prolog-5x5.txt"))
    drawn = browser.find_elements(By.CSS_SELECTOR, "#board .difference")
    assert len(drawn) == len(found.differences) > 0
    wait(browser, lambda d: re.fullmatch(r"\d+ solutions", verdict(d)), "the count")
    assert verdict(browser) == "2 solutions"
    shot(browser, "03-two-solutions")


def test_drawing_bridges_checking_and_asking_for_a_step(server, browser):
    puzzle = notations.read(UNIQUE)
    open_puzzle(browser, server, UNIQUE)
    play(browser)
    # (0, 0) is a 4 in a corner: two neighbours, a double bridge to each.
    drag(browser, (0, 0), (0, 2))
    wait(browser, lambda d: bridges(d) == Solution.of([bridge((0, 0), (0, 2), 1)]), "a bridge")
    drag(browser, (0, 0), (0, 2))
    wait(browser, lambda d: bridges(d).counts() == {((0, 0), (0, 2)): 2}, "a double bridge")
    browser.find_element(By.ID, "check").click()
    wait(browser, lambda d: "No mistake" in message(d), "the check")
    # A wrong bridge: the 1 at (6, 6) joined to the 3 at (6, 4) is not in the solution.
    solution = unique(puzzle).solutions[0]
    wrong = bridge((6, 4), (6, 6), 1)
    assert wrong.ends not in solution.counts()
    drag(browser, (6, 6), (6, 4))
    wait(browser, lambda d: wrong in bridges(d).bridges, "the wrong bridge")
    browser.find_element(By.ID, "check").click()
    wait(browser, lambda d: "wrong" in message(d), "the mistake found")
    red = read(browser, ".bridge.marked", "r1", "c1", "r2", "c2")
    assert [tuple(map(int, ends[:4])) for ends in red] == [(6, 4, 6, 6)]
    shot(browser, "04-check-finds-a-mistake")
    # Remove it (a bridge goes after its most lines), then ask for the next step.
    drag(browser, (6, 6), (6, 4))
    drag(browser, (6, 6), (6, 4))
    wait(browser, lambda d: wrong.ends not in bridges(d).counts(), "the bridge removed")
    drawn = bridges(browser)
    browser.find_element(By.ID, "step").click()
    walk = steps(puzzle, drawn, limit=1)
    step = walk.steps[0]
    wait(browser, lambda d: message(d).startswith(step.text), "the step's sentence")
    assert marked(browser) == set(step.reason)
    assert marked(browser, "step") == set(step.pair)
    shot(browser, "05-next-step")


def test_solve_draws_a_checked_solution(server, browser):
    puzzle = notations.read(UNIQUE)
    open_puzzle(browser, server, UNIQUE)
    play(browser)
    browser.find_element(By.ID, "solve").click()
    wait(browser, lambda d: bridges(d).bridges, "the solution")
    assert check(puzzle, bridges(browser)) == []
    assert bridges(browser) == unique(puzzle).solutions[0]
    browser.find_element(By.ID, "check").click()
    wait(browser, lambda d: message(d) == "Solved!", "the check of a solved board")
    shot(browser, "06-solved")


def test_an_exported_link_loads_the_same_puzzle(server, browser):
    open_puzzle(browser, server, UNIQUE)
    before = islands(browser)
    browser.find_element(By.ID, "export-puzzlink").click()
    box = browser.find_element(By.ID, "export-text")
    wait(browser, lambda d: box.get_attribute("value").startswith("https://puzz.link/"), "URL")
    url = box.get_attribute("value")
    assert notations.read(url) == notations.read(UNIQUE)
    browser.find_element(By.ID, "export-link").click()
    wait(browser, lambda d: "?puzzle=" in box.get_attribute("value"), "the page's link")
    link = box.get_attribute("value")
    assert urllib.parse.unquote(link.split("?puzzle=", 1)[1]) == url
    browser.get(link)
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#board .island"), "the islands")
    assert islands(browser) == before
    assert "unique" in settled(browser)


def test_a_generated_puzzle_is_drawn_and_unique(server, browser):
    browser.get(server)
    browser.find_element(By.CSS_SELECTOR, "details:nth-of-type(4) summary").click()
    field = browser.find_element(By.ID, "gen-islands")
    field.clear()
    field.send_keys("30")
    browser.find_element(By.ID, "generate").click()
    wait(browser, lambda d: len(islands(d)) == 30, "30 islands")
    assert "unique" in settled(browser)
    shot(browser, "07-generated")


def test_a_new_grid_is_edited_from_scratch(server, browser):
    browser.get(server)
    for name, value in (("cols", "3"), ("rows", "1")):
        field = browser.find_element(By.ID, name)
        field.clear()
        field.send_keys(value)
    browser.find_element(By.ID, "new").click()
    assert settled(browser) == "no islands yet"
    browser.execute_script("document.getElementById('board').focus()")  # (0, 0) is selected
    keys(browser, "1", "\ue014", "\ue014", "1")  # 1, arrow right twice, 1
    wait(browser, lambda d: islands(d) == {(0, 0): 1, (0, 2): 1}, "two islands typed")
    assert "unique" in settled(browser)
    document = json.loads(browser.execute_script("return puzzleText()"))
    assert document == {"rows": 1, "cols": 3, "islands": [[0, 0, 1], [0, 2, 1]]}


# The page's requests for `unique` held until the test lets them go: `window.held` (one function
# each, that sends it), `window.settled` (how many ended, answered or aborted), `window.aborted`.
HOLD_UNIQUE = """
window.held = []; window.settled = 0; window.aborted = 0;
const sent = window.fetch;
window.fetch = (url, options) => {
  if (!String(url).endsWith("/api/unique")) return sent(url, options);
  return new Promise((resolve, reject) => {
    let over = false;
    const end = (then, value) => { if (!over) { over = true; window.settled += 1; then(value); } };
    options.signal?.addEventListener("abort", () => {
      window.aborted += 1;
      end(reject, new DOMException("aborted", "AbortError"));
    });
    window.held.push(() => sent(url, options).then((r) => end(resolve, r), (e) => end(reject, e)));
  });
};
"""


def test_bad_input_is_one_clear_message(server, browser):
    """A puzzle that does not load is an error that stays: the live analysis of the puzzle
    shown before ends, and its answer (held here until the error shows) replaces nothing."""
    browser.get(server)
    browser.execute_script(HOLD_UNIQUE)
    source = browser.find_element(By.ID, "source")
    source.send_keys(UNIQUE)
    browser.find_element(By.ID, "load").click()
    wait(browser, lambda d: d.execute_script("return window.held.length") == 1, "the analysis")
    assert verdict(browser) == "analysing…"
    source.clear()
    source.send_keys("7x7m2:4a4a2a2w2k4c3a1zzz")
    browser.find_element(By.ID, "load").click()
    wait(browser, lambda d: verdict(d) == "error", "the error")
    said = message(browser)
    assert said.startswith("<text>:") and "Traceback" not in said
    browser.execute_script("window.held.forEach((send) => send())")
    wait(browser, lambda d: d.execute_script("return window.settled") == 1, "the analysis ended")
    assert browser.execute_script("return window.aborted") == 1
    assert (verdict(browser), message(browser)) == ("error", said)
    shot(browser, "08-bad-input")


def test_downloads_and_opening_a_file(server, browser, tmp_path):
    open_puzzle(browser, server, UNIQUE)
    settled(browser)
    # Each download is caught on its way out: its name, type and content.
    browser.execute_script(
        "window.caught = [];"
        "download = async (name, blob) => window.caught.push([name, blob.type, blob.size,"
        "  blob.type === 'image/png' ? '' : await blob.text()]);"
    )
    for button in ("export-has", "export-svg", "export-png"):
        browser.find_element(By.ID, button).click()
    wait(browser, lambda d: len(d.execute_script("return window.caught")) == 3, "3 downloads")
    caught = {
        name: (kind, size, text)
        for name, kind, size, text in browser.execute_script("return window.caught")
    }
    assert set(caught) == {"puzzle.has", "puzzle.svg", "puzzle.png"}
    assert notations.parse(caught["puzzle.has"][2], notation="has") == notations.read(UNIQUE)
    assert caught["puzzle.svg"][2].count('class="island"') == len(notations.read(UNIQUE).islands)
    assert caught["puzzle.png"][0] == "image/png" and caught["puzzle.png"][1] > 1000
    # Opening a file: the .has text just saved, read back through the file input.
    saved = tmp_path / "saved.has"
    saved.write_text(caught["puzzle.has"][2])
    browser.get(server)
    browser.find_element(By.ID, "file").send_keys(str(saved))
    wait(browser, lambda d: islands(d) == dict(notations.read(UNIQUE).islands), "the file's puzzle")
    assert "unique" in settled(browser)


def test_bridges_drawn_from_the_keyboard(server, browser):
    from selenium.webdriver.common.keys import Keys

    open_puzzle(browser, server, UNIQUE)
    play(browser)
    browser.execute_script("document.getElementById('board').focus()")  # (0, 0) is selected
    shifted = ActionChains(browser).key_down(Keys.SHIFT).send_keys(Keys.ARROW_DOWN)
    shifted.send_keys(Keys.ARROW_DOWN).key_up(Keys.SHIFT).perform()
    wait(browser, lambda d: bridges(d).counts() == {((0, 0), (6, 0)): 2}, "a double bridge down")
    keys(browser, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)  # to the 4 at (0, 2)
    ActionChains(browser).key_down(Keys.SHIFT).send_keys(Keys.ARROW_LEFT).key_up(
        Keys.SHIFT
    ).perform()
    wanted = {((0, 0), (6, 0)): 2, ((0, 0), (0, 2)): 1}
    wait(browser, lambda d: bridges(d).counts() == wanted, "a bridge to the left")


def test_the_fix_is_offered_shown_and_applied_in_one_click(server, browser):
    text = "https://puzz.link/p?hashikake/5/5/2g1m4g3g1k3i2"  # the Prolog report's 5x5
    severe_logs(browser)  # what earlier tests left in the log (a refused load) is theirs
    open_puzzle(browser, server, text)
    assert "solutions" in settled(browser)
    wait(browser, lambda d: d.find_element(By.ID, "fix").is_displayed(), "the fix button")
    browser.find_element(By.ID, "fix").click()
    wait(browser, lambda d: d.find_element(By.ID, "apply-fix").is_displayed(), "the apply button")
    from hashi_asp.fixing import fix

    puzzle = notations.read(text)
    made = fix(puzzle)  # the same search as the API's
    assert "To make it unique (the fewest)" in message(browser)
    added = {edit.cell: edit.new for edit in made.edits if edit.kind == "add"}
    assert added  # this puzzle's fix is a new island: marked on its water cell, with its number
    marked = {(int(r), int(c)): int(n) for r, c, n in read(browser, ".added", "row", "col")}
    assert marked == added
    before = islands(browser)
    browser.find_element(By.ID, "apply-fix").click()
    wait(browser, lambda d: islands(d) != before, "the edited islands")
    after = islands(browser)
    assert {cell: n for cell, n in after.items() if before.get(cell, "water") != n} == {
        edit.cell: edit.new for edit in made.edits
    }
    assert "unique" in settled(browser)
    assert unique(type(puzzle)(puzzle.rows, puzzle.cols, after)).status == "unique"
    assert severe_logs(browser) == []
