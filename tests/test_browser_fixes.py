"""The fixes to choose from on the workbench page, in a real headless Chromium against a real
``hashi-asp serve``: "Find the fewest edits" lists the fixes the server offers, each with the
difficulty it leaves; the one chosen is marked on the board and applied, and the puzzle is then
unique with that difficulty.  After the test the browser's console holds no error."""

from __future__ import annotations

import json
import re

from browsing import (
    islands,
    message,
    open_puzzle,
    press,
    read,
    settled,
    wait,
)
from selenium.webdriver.common.by import By

from hashi_asp import notations
from hashi_asp.fixing import fix
from hashi_asp.puzzle import Puzzle
from hashi_asp.solving import unique
from hashi_asp.walkthrough import difficulty

PROLOG = "https://puzz.link/p?hashikake/5/5/2g1m4g3g1k3i2"  # the Prolog report's 5x5


def choices(driver) -> list:
    return driver.find_elements(By.CSS_SELECTOR, "#fix-choices button.fix-choice")


def test_the_fixes_are_listed_with_their_difficulty_and_the_one_chosen_applied(site, browser):
    open_puzzle(browser, site, PROLOG)
    assert "solutions" in settled(browser)
    wait(browser, lambda d: d.find_element(By.ID, "fix").is_displayed(), "the fix button")
    press(browser, "fix")
    wait(browser, lambda d: len(choices(d)) > 1, "the fixes to choose from")
    puzzle = notations.read(PROLOG)
    offered = fix(puzzle, alternatives=5, time_limit=60).alternatives  # as the server's
    listed = choices(browser)
    assert [json.loads(b.get_attribute("data-edits")) for b in listed] == [
        [{"cell": list(e.cell), "from": e.old, "to": e.new, "kind": e.kind} for e in o.edits]
        for o in offered
    ]
    for button, other in zip(listed, offered):
        rated = re.search(r"; (\w+), (\d\.\d\d)\)$", button.text)
        assert rated is not None and rated[1] == other.difficulty.band, button.text
        assert abs(float(rated[2]) - other.difficulty.score) < 0.0051  # (to 2 places)
        assert button.get_attribute("data-band") == other.difficulty.band
    assert listed[0].get_attribute("aria-pressed") == "true"  # the first is shown at first
    assert "(fix 1 of" in message(browser)
    # Choose the one that leaves the puzzle medium: its islands marked, then applied.
    index = next(i for i, o in enumerate(offered) if o.difficulty.band == "medium")
    chosen = offered[index]
    listed[index].click()
    wait(browser, lambda d: choices(d)[index].get_attribute("aria-pressed") == "true", "chosen")
    assert f"(fix {index + 1} of {len(offered)}, the fewest; medium" in message(browser)
    shown = {tuple(map(int, at.split(","))): int(n) for at, n in read(browser, ".added", "cell")}
    assert shown == {e.cell: e.new for e in chosen.edits if e.kind == "add"}
    before = islands(browser)
    press(browser, "apply-fix")
    wait(browser, lambda d: islands(d) != before, "the edited islands")
    after = islands(browser)
    assert {cell: n for cell, n in after.items() if before.get(cell, "water") != n} == {
        e.cell: e.new for e in chosen.edits
    }
    assert "unique" in settled(browser)
    applied = Puzzle(puzzle.rows, puzzle.cols, after)
    assert unique(applied).status == "unique" and difficulty(applied).band == "medium"
    assert not browser.find_element(By.ID, "fix-choices").is_displayed()  # gone once applied
