"""The workbench in a real headless Chromium against a real ``hashi-asp serve``: what the
board offers a player beyond drawing: the pairs where bridges can still go drawn on request, an
island locked once finished (as in Simon Tatham's Bridges), the undo history kept over a
reload, and a board a screen reader can play (read from Chromium's accessibility tree)."""

from __future__ import annotations

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

from hashi_asp import notations
from hashi_asp.puzzle import Geometry

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
