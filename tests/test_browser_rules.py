"""The workbench in a real headless Chromium against a real ``hashi-asp serve``: the rules a
player's bridges break shown the moment they are broken (an island over its number, a pair
over what one of its islands takes, a group closed off), worked out in the page and the same
as the API's ``hint`` says in ``illegal``; the time from the move's event to the red on the
board is printed (a figure, not a bound: the machine may be busy)."""

from __future__ import annotations

import json

from browsing import drag, message, open_puzzle, press, read, settled, shot, wait
from selenium.webdriver.common.by import By
from serving import post

UNIQUE = "7x7m2:4a4a2a2w2k4c3a1"  # the README's walkthrough puzzle
LOOPS = json.dumps(  # four 2s in a square, loops not allowed
    {
        "rows": 3,
        "cols": 3,
        "no_loops": True,
        "islands": [[0, 0, 2], [0, 2, 2], [2, 0, 2], [2, 2, 2]],
    }
)

WATCH = """
window.ruleTimes = [];
const board = document.getElementById('board');
let last = null, before = '';
board.addEventListener('pointerup', (e) => { last = e.timeStamp; }, true);
new MutationObserver(() => {
  const now = [...document.querySelectorAll('#board .island.broken')]
    .map((g) => g.dataset.cell).join(' ');
  if (last !== null && now && now !== before) {
    window.ruleTimes.push(performance.now() - last);
    last = null;
  }
  before = now;
}).observe(board, { subtree: true, childList: true, attributes: true });
"""


def page_rules(driver) -> set[tuple]:
    """The rules the page says are broken, as (rule, message, cells)."""
    listed = driver.execute_script(
        "return [...document.querySelectorAll('#rules li')]"
        "  .map((li) => [li.dataset.rule, li.textContent, li.dataset.cells])"
    )
    return {(rule, text, tuple(sorted(cells.split()))) for rule, text, cells in listed}


def api_rules(driver, site: str) -> set[tuple]:
    """The rules the API's ``hint`` lists in ``illegal`` for the page's puzzle and state."""
    puzzle = driver.execute_script("return hashi.puzzleText()")
    given = driver.execute_script("return hashi.given()")
    status, doc = post(site, "hint", {"puzzle": puzzle, "given": given})
    assert status in (200, 422), doc
    return {
        (v["rule"], v["message"], tuple(sorted(f"{r},{c}" for r, c in v["cells"])))
        for v in doc["illegal"]
    }


def broken_cells(driver) -> set[str]:
    return {at for at, _ in read(driver, ".island.broken", "cell")}


def agree(driver, site: str, rules: set[str], cells: set[str]) -> None:
    """The page shows the rules ``rules`` broken at ``cells``, as the API says."""
    wait(driver, lambda d: {r for r, _, _ in page_rules(d)} == rules, f"the rules {rules}")
    assert broken_cells(driver) == cells
    assert page_rules(driver) == api_rules(driver, site)


def test_the_rules_broken_show_at_once_and_agree_with_the_api(site, browser):
    open_puzzle(browser, site, UNIQUE)
    settled(browser)
    browser.execute_script(WATCH)
    assert not browser.find_element(By.ID, "rules").is_displayed()
    # Two doubles into the 3 at (6, 4): four bridges, one more than its number.
    for _ in range(2):
        drag(browser, (6, 4), (6, 0))
        drag(browser, (6, 4), (0, 4))
    agree(browser, site, {"island-count"}, {"6,4"})
    assert "island (6, 4) has 4 bridges, more than its number 3" in {
        text for _, text, _ in page_rules(browser)
    }
    assert browser.find_element(By.ID, "rules").is_displayed()
    colour = browser.execute_script(
        "return getComputedStyle(document.querySelector('#board .island.broken circle')).stroke"
    )
    wrong = browser.execute_script(
        "return getComputedStyle(document.body).getPropertyValue('--wrong').trim()"
    )
    assert colour == "rgb(214, 39, 40)" and wrong == "#d62728"
    # And a double into the 1 at (6, 6): that pair takes more than the 1 does.
    drag(browser, (6, 4), (6, 6))
    drag(browser, (6, 4), (6, 6))
    agree(browser, site, {"island-count", "pair-count"}, {"6,4", "6,6"})
    assert read(browser, ".bridge.broken", "pair") == [["6,4,6,6", ""]]
    shot(browser, "rules-over")
    # Undone back to nothing, nothing is red.
    for _ in range(6):
        press(browser, "undo")
    agree(browser, site, set(), set())
    # A double between the 2s at (0, 4) and (0, 6): both have their bridges, closed off.
    drag(browser, (0, 4), (0, 6))
    drag(browser, (0, 4), (0, 6))
    agree(browser, site, {"closed-off"}, {"0,4", "0,6"})
    times = browser.execute_script("return window.ruleTimes")
    assert len(times) == 3  # each move that broke a rule turned the board red
    print(f"from the move's event to the red island: {', '.join(f'{t:.1f}' for t in times)} ms")
    # Show my first mistake lists the same sentence.
    press(browser, "check")
    wait(browser, lambda d: "have all their bridges" in message(d), "the rule in the check")


def test_a_loop_where_loops_are_not_allowed(site, browser):
    open_puzzle(browser, site, LOOPS)
    settled(browser)
    drag(browser, (0, 0), (0, 2))
    drag(browser, (0, 2), (2, 2))
    drag(browser, (2, 2), (2, 0))
    agree(browser, site, set(), set())
    drag(browser, (2, 0), (0, 0))
    agree(browser, site, {"loop"}, {"0,0", "0,2", "2,0", "2,2"})
