"""The workbench in a real headless Chromium against a real ``hashi-asp serve``: what the
board offers a player beyond drawing: the pairs where bridges can still go drawn on request, an
island locked once finished (as in Simon Tatham's Bridges), the undo history kept over a
reload, and a board a screen reader can play (read from Chromium's accessibility tree)."""

from __future__ import annotations

import json

from browsing import (
    bridges,
    drag,
    focus_board,
    islands,
    keys,
    marked,
    message,
    open_puzzle,
    press,
    read,
    ruled_out,
    settled,
    tap,
    wait,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from hashi_asp import notations
from hashi_asp.puzzle import Geometry
from hashi_asp.walkthrough import steps

UNIQUE = "7x7m2:4a4a2a2w2k4c3a1"  # the README's walkthrough puzzle


def still_open(text: str, drawn: dict, marks: set) -> set[str]:
    """The pairs where one more bridge can go, worked out here from the puzzle and the state."""
    puzzle = notations.read(text)
    geometry = Geometry(puzzle.rows, puzzle.cols, puzzle.islands)
    degree = dict.fromkeys(puzzle.islands, 0)
    for (a, b), k in drawn.items():
        degree[a] += k
        degree[b] += k
    pairs = geometry.pairs
    found = set()
    for p, (a, b) in enumerate(pairs):
        crossed = any(pairs[q] in drawn for q in geometry.crossing[p])
        full = any(puzzle.islands[e] is not None and degree[e] >= puzzle.islands[e] for e in (a, b))
        most = drawn.get((a, b), 0) >= puzzle.rules.max_bridges
        if not (crossed or full or most or (a, b) in marks):
            found.add(f"{a[0]},{a[1]},{b[0]},{b[1]}")
    return found


def drawn_open(driver) -> set[str]:
    return {ends for ends, _ in read(driver, ".open", "pair")}


def test_where_bridges_can_still_go(site, browser):
    open_puzzle(browser, site, UNIQUE)
    settled(browser)
    assert not drawn_open(browser)
    browser.find_element(By.ID, "show-open").click()
    wait(browser, lambda d: drawn_open(d), "the open pairs")
    assert drawn_open(browser) == still_open(UNIQUE, {}, set())
    drag(browser, (0, 0), (0, 2))
    drag(browser, (0, 0), (0, 2))
    drag(browser, (0, 2), (4, 2))
    drag(browser, (6, 4), (6, 6), button="right")
    wait(browser, lambda d: ruled_out(d), "the mark")
    counts = bridges(browser).counts()
    assert drawn_open(browser) == still_open(UNIQUE, counts, set(ruled_out(browser)))
    assert "0,0,0,2" not in drawn_open(browser) and "6,4,6,6" not in drawn_open(browser)
    browser.refresh()  # the toggle is a preference, kept
    wait(browser, lambda d: drawn_open(d), "the open pairs after a reload")
    browser.find_element(By.ID, "show-open").click()
    wait(browser, lambda d: not drawn_open(d), "the open pairs hidden")


def test_a_finished_island_locks_and_its_pairs_stay(site, browser):
    open_puzzle(browser, site, UNIQUE)
    settled(browser)
    tap(browser, "#board .island[data-cell='0,0']", touch=False)  # unfinished: only selected
    assert not marked(browser, "locked")
    for _ in range(2):
        drag(browser, (0, 0), (0, 2))
        drag(browser, (0, 0), (6, 0))
    wait(browser, lambda d: bridges(d).counts().get(((0, 0), (6, 0))) == 2, "the 4 finished")
    tap(browser, "#board .island[data-cell='0,0']", touch=False)
    wait(browser, lambda d: marked(d, "locked") == {(0, 0)}, "the 4 locked")
    before = bridges(browser).counts()
    drag(browser, (0, 0), (0, 2))
    wait(browser, lambda d: "is locked" in message(d), "the drag refused")
    drag(browser, (6, 0), (0, 0), button="right")
    assert bridges(browser).counts() == before and not ruled_out(browser)
    press(browser, "undo")  # the lock is one change
    wait(browser, lambda d: not marked(d, "locked"), "the lock undone")
    browser.execute_script("hashi.select(0, 0)")
    focus_board(browser)  # (0, 0) selected: l locks it, and again unlocks it
    keys(browser, "l")
    wait(browser, lambda d: marked(d, "locked") == {(0, 0)}, "locked by its key")
    keys(browser, "l")
    wait(browser, lambda d: not marked(d, "locked"), "unlocked by its key")
    assert islands(browser) == dict(notations.read(UNIQUE).islands)


def test_the_undo_history_is_kept_over_a_reload(site, browser):
    open_puzzle(browser, site, UNIQUE)
    settled(browser)
    moments = [bridges(browser).counts()]
    for a, b in (((0, 0), (0, 2)), ((0, 0), (6, 0)), ((0, 0), (0, 2))):
        drag(browser, a, b)
        wait(browser, lambda d: bridges(d).counts() != moments[-1], "a bridge")
        moments.append(bridges(browser).counts())
    press(browser, "undo")  # one to redo, too
    wait(browser, lambda d: bridges(d).counts() == moments[2], "undone")
    browser.get(site)  # the page alone: the last puzzle, its state and its history
    wait(browser, lambda d: bridges(d).counts() == moments[2], "the state kept")
    assert browser.find_element(By.ID, "redo").is_enabled()
    press(browser, "redo")
    wait(browser, lambda d: bridges(d).counts() == moments[3], "redone after the reload")
    for moment in reversed(moments[:3]):
        press(browser, "undo")
        wait(browser, lambda d, m=moment: bridges(d).counts() == m, "undone after the reload")
    kept = browser.execute_script("return localStorage.getItem('hashi-asp:history').length")
    print(f"the history kept: {kept} characters")


def accessibility_names(driver) -> list[str]:
    tree = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})
    return [
        node["name"]["value"]
        for node in tree["nodes"]
        if not node.get("ignored") and node.get("name", {}).get("value")
    ]


def test_a_screen_reader_hears_every_island_and_its_bridges(site, browser):
    puzzle = notations.read(UNIQUE)
    open_puzzle(browser, site, UNIQUE)
    settled(browser)
    drag(browser, (0, 0), (0, 2))
    drag(browser, (0, 0), (0, 2))
    drag(browser, (6, 4), (6, 6))
    wait(browser, lambda d: len(bridges(d).counts()) == 2, "two bridges")
    names = accessibility_names(browser)
    has = {(0, 0): 2, (0, 2): 2, (6, 4): 1, (6, 6): 1}
    for (r, c), n in puzzle.islands.items():
        k = has.get((r, c), 0)
        name = f"the {n} at ({r}, {c}): {k} bridge{'' if k == 1 else 's'} of {n}"
        assert name in names, name
    assert "a double bridge (0, 0)-(0, 2)" in names
    # The board is one focusable application; the selected island is its active descendant,
    # and moving the selection says the island and its pairs in a live region.
    board = browser.find_element(By.ID, "board")
    assert board.get_attribute("role") == "application" and board.get_attribute("tabindex") == "0"
    browser.execute_script("hashi.select(0, 0)")
    focus_board(browser)
    keys(browser, Keys.ARROW_RIGHT)  # to the 4 at (0, 2)
    said = browser.find_element(By.ID, "announce")
    wait(browser, lambda d: said.text or said.get_attribute("textContent"), "the announcement")
    heard = said.get_attribute("textContent")
    assert heard.startswith("the 4 at (0, 2): 2 bridges of 4.")
    assert "left, a double bridge to the 4 at (0, 0)" in heard
    assert board.get_attribute("aria-activedescendant") == "island-0-2"
    assert said.get_attribute("aria-live") == "polite"
    # The verdict and the step's sentence are in live regions.
    press(browser, "next-step")
    wait(browser, lambda d: message(d), "a step's sentence")
    for region in ("verdict", "message", "rules", "hint-line"):
        assert browser.find_element(By.ID, region).get_attribute("aria-live") == "polite"
    assert message(browser) in accessibility_names(browser)


LONE = json.dumps({"rows": 1, "cols": 1, "islands": [[0, 0, 1]]})  # one island: no solution
PLUS = json.dumps(  # a 1 on each side of the middle: (0, 1)-(2, 1) crosses (1, 0)-(1, 2)
    {"rows": 3, "cols": 3, "islands": [[0, 1, 1], [2, 1, 1], [1, 0, 1], [1, 2, 1]]}
)


def test_the_small_things_said_and_drawn(site, browser):
    # Only the help of the mode shown.
    open_puzzle(browser, site, UNIQUE)
    settled(browser)
    assert browser.find_element(By.ID, "help-play").is_displayed()
    assert not browser.find_element(By.ID, "help-edit").is_displayed()
    press(browser, "mode-edit")
    assert browser.find_element(By.ID, "help-edit").is_displayed()
    assert not browser.find_element(By.ID, "help-play").is_displayed()
    press(browser, "mode-play")
    # A step that leaves "at most one bridge" stays written on its pair once the next is shown.
    walk = steps(notations.read(UNIQUE)).steps
    assert "at most one bridge to (0, 6)" in walk[5].text
    for step in walk[:7]:
        press(browser, "next-step")
        wait(browser, lambda d, text=step.text: message(d) == text, step.text)
    wait(browser, lambda d: ["0,6,6,6", "≤1"] in read(d, ".narrowed", "pair"), "the ≤1 kept")
    # One island that cannot have its number: said in the singular.
    open_puzzle(browser, site, LONE)
    assert settled(browser) == "no solution"
    wait(browser, lambda d: "This island cannot have its number (marked)." in message(d), "it")
    # A text that is no puzzle: the message says what it is, not the server's name for it.
    source = browser.find_element(By.ID, "source")
    source.clear()
    source.send_keys("zzz bad")
    press(browser, "load")
    wait(browser, lambda d: message(d).startswith("the puzzle (line 1, column 1): "), "the error")
    assert "<text>" not in message(browser)
    # A mark's guide line stops at the bridge drawn across the pair.
    open_puzzle(browser, site, PLUS)
    settled(browser)
    drag(browser, (0, 1), (2, 1))
    drag(browser, (1, 0), (1, 2), button="right")
    wait(browser, lambda d: ruled_out(d), "the mark")
    pieces = browser.execute_script(
        "const bridge = document.querySelector('#board .bridge line').getBBox().x;"
        "return [bridge, ...[...document.querySelectorAll('#board .no-bridge .trace')]"
        "  .map((l) => [l.x1.baseVal.value, l.x2.baseVal.value])];"
    )
    across, *traces = pieces
    assert len(traces) == 2
    assert all(not (x1 < across < x2) for x1, x2 in traces)
