"""The workbench in a real headless Chromium against a real ``hashi-asp serve``: help that is
never wrong.  From a state that agrees with no solution, Next step gives no step (one would
build on the mistake) and offers the first mistake instead; what the steps applied drew is
theirs, never counted as the player's mistake."""

from __future__ import annotations

import pytest
from browsing import (
    PHONE,
    WIDE,
    bridges,
    drag,
    marked,
    message,
    open_puzzle,
    press,
    read,
    ruled_out,
    screen,
    settled,
    tap,
    verdict,
    wait,
)
from selenium.webdriver.common.by import By

from hashi_asp import notations
from hashi_asp.walkthrough import steps

UNIQUE = "7x7m2:4a4a2a2w2k4c3a1"  # the README's walkthrough puzzle
NO_STEP = "Your bridges and marks agree with no solution: no step follows from them."


def offered(driver) -> bool:
    return driver.find_element(By.ID, "offer-mistake").is_displayed()


def test_next_step_from_a_wrong_mark_offers_the_mistake_instead(site, browser):
    open_puzzle(browser, site, UNIQUE)
    settled(browser)
    assert not offered(browser)
    # Every solution joins (0, 0) and (6, 0): the mark "no bridge" there is wrong.
    drag(browser, (0, 0), (6, 0), button="right")
    wait(browser, lambda d: ruled_out(d) == {((0, 0), (6, 0))}, "the mark")
    press(browser, "next-step")
    wait(browser, lambda d: message(d) == NO_STEP, "no step from a wrong state")
    assert offered(browser)
    assert not bridges(browser).bridges  # nothing drawn on top of the mistake
    browser.find_element(By.ID, "offer-mistake").click()
    first = (
        'Your first mistake: the mark "no bridge" on (0, 0)-(6, 0): every solution has a '
        "bridge there."
    )
    wait(browser, lambda d: message(d) == first, "the mark named, and nothing after it")
    assert not offered(browser)
    # The mark undone, the sentence about it goes.
    press(browser, "undo")
    wait(browser, lambda d: message(d) == "", "the mistake's sentence gone")


def test_the_steps_applied_are_never_the_players_mistakes(site, browser):
    open_puzzle(browser, site, UNIQUE)
    settled(browser)
    for i in range(3):
        press(browser, "next-step")
        wait(browser, lambda d, n=i + 1: len(read(d, "[data-by='step']")) >= n, f"step {i + 1}")
    stepped = {ends for ends, _ in read(browser, "[data-by='step']", "pair")}
    # A wrong bridge of the player's: no solution joins (6, 4) and (6, 6).
    drag(browser, (6, 6), (6, 4))
    wait(browser, lambda d: ((6, 4), (6, 6)) in bridges(d).counts(), "the wrong bridge")
    assert "6,4,6,6" not in {ends for ends, _ in read(browser, "[data-by='step']", "pair")}
    press(browser, "next-step")
    wait(browser, lambda d: message(d) == NO_STEP, "no step")
    press(browser, "check")
    wrong = "Your first mistake: the bridge (6, 4)-(6, 6): no solution has a bridge there."
    wait(browser, lambda d: message(d) == wrong, "the player's bridge named alone")
    assert {ends for ends, _ in read(browser, ".mistake", "pair")} == {"6,4,6,6"}
    assert not stepped & {"6,4,6,6"}
    # The steps' three doubles; the player takes one away and draws it again: the player's.
    assert stepped == {"0,0,0,2", "0,0,6,0", "0,2,4,2"}
    tap(browser, "#board .bridge[data-pair='0,0,0,2']", touch=False)  # a third line: none
    wait(browser, lambda d: ((0, 0), (0, 2)) not in bridges(d).counts(), "the double taken away")
    drag(browser, (0, 0), (0, 2))
    wait(browser, lambda d: bridges(d).counts().get(((0, 0), (0, 2))) == 1, "the player's line")
    assert {ends for ends, _ in read(browser, "[data-by='step']", "pair")} == {
        "0,0,6,0",
        "0,2,4,2",
    }


def hint_line(driver) -> str:
    return driver.find_element(By.ID, "hint-line").text


def test_the_hint_ladder_looks_names_then_applies_each_rung_undone(site, browser):
    puzzle = notations.read(UNIQUE)
    first = steps(puzzle, limit=1).steps[0]
    open_puzzle(browser, site, UNIQUE)
    settled(browser)
    assert not browser.find_element(By.ID, "hints-used").is_displayed()
    press(browser, "hint")  # where to look: the reason ringed, no pair said
    wait(browser, lambda d: hint_line(d).startswith("Hint (1 of 3): look at"), "the first rung")
    assert marked(browser, "look") == set(first.reason)
    assert not read(browser, ".pair-step") and not bridges(browser).bridges
    assert str(first.pair[1]) not in hint_line(browser)
    press(browser, "hint")  # the technique, with its sentence
    rung_two = f"Hint (2 of 3): {first.technique.replace('-', ' ')} ({first.level}): {first.text}."
    wait(browser, lambda d: hint_line(d).startswith(rung_two), "the second rung")
    press(browser, "undo")
    wait(browser, lambda d: hint_line(d).startswith("Hint (1 of 3)"), "the second rung undone")
    press(browser, "hint")
    wait(browser, lambda d: hint_line(d).startswith(rung_two), "the second rung again")
    press(browser, "hint")  # the move applied
    wait(browser, lambda d: message(d) == first.text, "the third rung: the step applied")
    least = min(first.bridges)
    assert bridges(browser).counts() == {first.pair: least}
    assert hint_line(browser) == "" and not marked(browser, "look")
    press(browser, "undo")
    wait(browser, lambda d: not bridges(d).bridges, "the move undone")
    wait(browser, lambda d: hint_line(d).startswith(rung_two), "back on the second rung")
    # Every rung pressed is in the game's record, beside the timer, kept over a reload.
    used = browser.find_element(By.ID, "hints-used")
    assert used.is_displayed() and used.text == "4 hints used"
    browser.refresh()
    wait(browser, lambda d: d.find_element(By.ID, "hints-used").text == "4 hints used", "kept")


@pytest.mark.parametrize("size", [WIDE, PHONE], ids=["1280x900", "390x844"])
def test_a_whole_game_by_the_hint_ladder(site, browser, size):
    """The README's puzzle played by Hint alone, three presses a step: each step of the
    walkthrough in order, then solved, every rung in the record."""
    screen(browser, size)
    walk = steps(notations.read(UNIQUE)).steps
    open_puzzle(browser, site, UNIQUE)
    settled(browser)
    for i, step in enumerate(walk):
        press(browser, "hint")
        wait(browser, lambda d: hint_line(d).startswith("Hint (1 of 3)"), f"step {i + 1} looked")
        assert marked(browser, "look") == set(step.reason)
        press(browser, "hint")
        wait(browser, lambda d, s=step: s.text in hint_line(d), f"step {i + 1} named")
        press(browser, "hint")
        wait(browser, lambda d, s=step: message(d) == s.text, f"step {i + 1} applied")
    wait(browser, lambda d: verdict(d) == "solved", "solved")
    used = browser.find_element(By.ID, "hints-used").text
    assert used == f"{3 * len(walk)} hints used"


def test_mistakes_as_i_play_names_a_wrong_mark_after_the_move(site, browser):
    """With "mistakes as I play" on, a wrong mark is named and drawn red after the move that
    made it, with no button pressed, and goes once it is undone; a right move says nothing.
    The seconds from the move to the mark drawn red are printed (the page's clock), not
    asserted: the machine may be busy."""
    open_puzzle(browser, site, UNIQUE)
    settled(browser)
    browser.find_element(By.ID, "check-as-i-play").click()
    drag(browser, (0, 0), (0, 2))  # right: every solution has a double there
    wait(browser, lambda d: ((0, 0), (0, 2)) in bridges(d).counts(), "a right bridge")
    assert message(browser) == "" and not read(browser, ".mistake", "pair")
    browser.execute_script(
        """
        window.markedAt = null;
        let released = null;
        document.addEventListener("pointerup", () => { released = performance.now(); },
                                  { capture: true, once: true });
        const look = () => {
          const red = document.querySelector("#board .mistake");
          if (red && released !== null) window.markedAt = performance.now() - released;
          else requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
        """
    )
    drag(browser, (0, 0), (6, 0), button="right")  # wrong: every solution joins them
    first = (
        'Your first mistake: the mark "no bridge" on (0, 0)-(6, 0): every solution has a '
        "bridge there."
    )
    wait(browser, lambda d: message(d) == first, "the wrong mark named without a press")
    assert {ends for ends, _ in read(browser, ".mistake", "pair")} == {"0,0,6,0"}
    took = browser.execute_script("return window.markedAt")
    print(f"a wrong mark drawn red {took:.0f} ms after the pointer's release")
    press(browser, "undo")
    wait(browser, lambda d: message(d) == "" and not read(d, ".mistake", "pair"), "mended")
    # The toggle is kept as a preference, over a reload.
    browser.refresh()
    wait(browser, lambda d: d.find_element(By.ID, "check-as-i-play").is_selected(), "kept")
