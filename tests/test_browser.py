"""The workbench page in a real headless Chromium, driven by Selenium against a real ``hashi-asp
serve`` process: what a player does (opening, editing, playing, on a laptop's screen and a
phone's), checked against the library's own answers; loading, generating and exporting are in
test_browser_loading.py.  After every test the browser's console holds no error (a script
error, anything the page's own Content-Security-Policy refused).  Screenshots of the main
states go to ``$HASHI_TEST_OUTPUT/screenshots`` (default ``test-output/screenshots``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from browsing import (
    PHONE,
    WIDE,
    board_state,
    bridges,
    chord,
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
    screen,
    settled,
    shot,
    tap,
    verdict,
    wait,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from hashi_asp import notations
from hashi_asp.checking import check
from hashi_asp.play import Play
from hashi_asp.solving import count, unique
from hashi_asp.walkthrough import steps

UNIQUE = "7x7m2:4a4a2a2w2k4c3a1"  # the README's walkthrough puzzle
SQUARE = json.dumps(  # four 3s in a square: two solutions, differing at every pair
    {"rows": 2, "cols": 2, "islands": [[0, 0, 3], [0, 1, 3], [1, 0, 3], [1, 1, 3]]}
)
NONE = json.dumps({"rows": 1, "cols": 3, "islands": [[0, 0, 1], [0, 2, 2]]})  # no solution
BIG = "15x15m2:3f5e3b2c4c3b2p24d3r5c5a4c5a3g4a2a1f1b2g1b2f3b4b5f5p1a1c3a2c1a3m5a2f5d1p2d2b5e4"
TEN = "10x10m2:a2b5a2b13b2a1a2l3c5a2d1a2l1c3b5j3b4e3a1d2f3a2"


def solution_of(text: str) -> dict:
    return unique(notations.read(text)).solutions[0].counts()


# ---------------------------------------------------------------------------- opening, editing


def test_a_shared_link_opens_in_play_mode(site, browser):
    puzzle = notations.read(UNIQUE)
    open_puzzle(browser, site, UNIQUE)
    assert islands(browser) == dict(puzzle.islands)
    assert "unique" in settled(browser)
    assert unique(puzzle).status == "unique"
    assert browser.find_element(By.ID, "mode-play").is_selected()
    # The first drag of a player draws a bridge; the 4 stays a 4.
    drag(browser, (0, 0), (0, 2))
    wait(browser, lambda d: bridges(d).counts() == {((0, 0), (0, 2)): 1}, "a bridge")
    assert islands(browser) == dict(puzzle.islands)
    shot(browser, "01-loaded-unique")


def test_placing_an_island_changes_the_live_verdict(site, browser):
    open_puzzle(browser, site, UNIQUE)
    assert "unique" in settled(browser)
    press(browser, "mode-edit")  # editing is an explicit switch
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
    # The keyboard: the selected cell takes a 3 instead: the page's verdict agrees with the
    # library's.
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
    keys(browser, Keys.DELETE)
    wait(browser, lambda d: (1, 6) not in islands(d), "the island removed")
    assert "unique" in settled(browser)


def test_a_puzzle_with_two_solutions_shows_where_they_differ(site, browser):
    text = Path("puzzles/prolog-5x5.txt").read_text()
    open_puzzle(browser, site, text)
    assert "solutions" in settled(browser)
    found = unique(notations.read("puzzles/prolog-5x5.txt"))
    drawn = browser.find_elements(By.CSS_SELECTOR, "#board .difference")
    assert len(drawn) == len(found.differences) > 0
    wait(browser, lambda d: re.fullmatch(r"\d+ solutions", verdict(d)), "the count")
    assert verdict(browser) == "2 solutions"
    shot(browser, "03-two-solutions")


def test_a_difference_between_islands_in_adjacent_rows_is_drawn_over_them(site, browser):
    """Two islands in adjacent cells leave a gap of a fifth of a cell between them: the pair's
    mark is drawn over the islands, from centre to centre, not in that gap alone."""
    open_puzzle(browser, site, SQUARE)
    wait(browser, lambda d: verdict(d) == "2 solutions", "the count")
    found = unique(notations.parse(SQUARE))
    assert {(d.r1, d.c1, d.r2, d.c2) for d in found.differences} >= {(0, 0, 1, 0)}
    drawn = {ends for ends, _ in read(browser, ".difference", "pair")}
    assert drawn == {f"{d.r1},{d.c1},{d.r2},{d.c2}" for d in found.differences}
    # A third of the way from the centre of (0, 0) to that of (1, 0), inside the island's
    # circle: what is painted on top there is the difference (hit-tested for this question).
    on_top = browser.execute_script(
        "document.querySelector('#board .overlays').style.pointerEvents = 'visibleStroke';"
        "const a = document.querySelector('#board .island[data-cell=\"0,0\"] circle')"
        "  .getBoundingClientRect();"
        "const b = document.querySelector('#board .island[data-cell=\"1,0\"] circle')"
        "  .getBoundingClientRect();"
        "const x = a.left + a.width / 2, y = a.top + a.height / 2 + (b.top - a.top) / 3;"
        "const found = document.elementFromPoint(x, y);"
        "document.querySelector('#board .overlays').style.pointerEvents = '';"
        "return found.classList.contains('difference') && found.dataset.pair;"
    )
    assert on_top == "0,0,1,0"
    shot(browser, "03-adjacent-difference")


def test_a_new_grid_is_edited_from_scratch(site, browser):
    browser.find_element(By.CSS_SELECTOR, "#grid-panel summary").click()
    for name, value in (("cols", "3"), ("rows", "1")):
        field = browser.find_element(By.ID, name)
        field.clear()
        field.send_keys(value)
    press(browser, "new")
    assert settled(browser) == "no islands yet"
    assert browser.find_element(By.ID, "mode-edit").is_selected()  # a new grid is to be made
    focus_board(browser)  # (0, 0) is selected
    keys(browser, "1", Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, "1")
    wait(browser, lambda d: islands(d) == {(0, 0): 1, (0, 2): 1}, "two islands typed")
    assert "unique" in settled(browser)
    document = json.loads(browser.execute_script("return hashi.puzzleText()"))
    assert document == {"rows": 1, "cols": 3, "islands": [[0, 0, 1], [0, 2, 1]]}


# ---------------------------------------------------------------------------- playing


def test_drawing_marking_and_the_first_mistake(site, browser):
    puzzle = notations.read(UNIQUE)
    solution = solution_of(UNIQUE)
    open_puzzle(browser, site, UNIQUE)
    settled(browser)
    drag(browser, (0, 0), (0, 2))
    drag(browser, (0, 0), (0, 2))
    wait(browser, lambda d: bridges(d).counts() == {((0, 0), (0, 2)): 2}, "a double bridge")
    assert solution[(0, 0), (0, 2)] == 2
    press(browser, "check")
    wait(browser, lambda d: message(d) == "No mistake so far.", "no mistake")
    # A wrong mark first (every solution joins (0, 0) and (6, 0)), then a wrong bridge (no
    # solution joins (6, 4) and (6, 6)): the first one made is named.
    drag(browser, (0, 0), (6, 0), button="right")
    wait(browser, lambda d: ruled_out(d) == {((0, 0), (6, 0))}, "the mark")
    assert ((6, 4), (6, 6)) not in solution
    drag(browser, (6, 6), (6, 4))
    wait(browser, lambda d: ((6, 4), (6, 6)) in bridges(d).counts(), "the wrong bridge")
    press(browser, "check")
    first = (
        'Your first mistake: the mark "no bridge" on (0, 0)-(6, 0): every solution has a '
        "bridge there (1 more after it)."
    )
    wait(browser, lambda d: message(d) == first, "the wrong mark named")
    assert read(browser, ".no-bridge.mistake", "pair") == [["0,0,6,0", ""]]
    assert [ends for ends, _ in read(browser, ".pair-mistake", "pair")] == ["0,0,6,0"]
    shot(browser, "04-first-mistake")
    # The mark taken off (the same gesture again): the bridge is the first mistake now.
    drag(browser, (0, 0), (6, 0), button="right")
    wait(browser, lambda d: not ruled_out(d), "the mark gone")
    press(browser, "check")
    wrong = "Your first mistake: the bridge (6, 4)-(6, 6): no solution has a bridge there."
    wait(browser, lambda d: message(d) == wrong, "the wrong bridge named")
    assert read(browser, ".bridge.mistake", "pair") == [["6,4,6,6", ""]]
    assert check(puzzle, bridges(browser)) != []
    # A puzzle without a solution: the player is not to blame.
    open_puzzle(browser, site, NONE)
    assert settled(browser) == "no solution"
    press(browser, "check")
    wait(browser, lambda d: message(d) == "The puzzle itself has no solution.", "the answer")


def test_touch_draws_and_marks_as_the_mouse_does(site, browser):
    open_puzzle(browser, site, UNIQUE)
    settled(browser)
    browser.execute_script(
        "window.kinds = new Set();"
        "document.getElementById('board').addEventListener('pointerdown',"
        "  (e) => window.kinds.add(e.pointerType));"
    )
    drag(browser, (0, 0), (0, 2), touch=True)
    wait(browser, lambda d: bridges(d).counts() == {((0, 0), (0, 2)): 1}, "a bridge")
    tap(browser, "#board .bridge[data-pair='0,0,0,2']")
    wait(browser, lambda d: bridges(d).counts() == {((0, 0), (0, 2)): 2}, "a tap's line")
    press(browser, "mode-mark")  # a finger has no right button: the mode "mark"
    drag(browser, (0, 2), (0, 4), touch=True)
    wait(browser, lambda d: ruled_out(d) == {((0, 2), (0, 4))}, "the mark")
    shot(browser, "05-touch-marks")
    tap(browser, "#board .no-bridge[data-pair='0,2,0,4']")
    wait(browser, lambda d: not ruled_out(d), "the mark taken off by a tap")
    assert browser.execute_script("return [...window.kinds]") == ["touch"]
    assert bridges(browser).counts() == {((0, 0), (0, 2)): 2}


def test_every_change_is_undone_and_redone(site, browser):
    """Drawing, marking, Next step, Solve, Clear and an edit, undone one by one (buttons, u,
    Ctrl+Z) back to the start, then redone (buttons, r, Ctrl+Y, Ctrl+Shift+Z) to the end."""
    open_puzzle(browser, site, UNIQUE)
    settled(browser)
    moments = [board_state(browser)]

    def then(action, what: str) -> None:
        action()
        wait(browser, lambda d: board_state(d) != moments[-1], what)
        moments.append(board_state(browser))

    then(lambda: drag(browser, (0, 0), (0, 2)), "a bridge")
    then(lambda: drag(browser, (0, 2), (0, 4), button="right"), "a mark")
    then(lambda: press(browser, "next-step"), "a step applied")
    then(lambda: press(browser, "solve"), "the solution")
    then(lambda: press(browser, "clear"), "a clear board")
    press(browser, "mode-edit")
    then(lambda: tap(browser, "#board .island[data-cell='6,6']", touch=False), "an island edited")
    assert islands(browser)[(6, 6)] == 2
    undoing = [
        lambda: press(browser, "undo"),
        lambda: keys(browser, "u"),
        lambda: chord(browser, Keys.CONTROL, "z"),
    ]
    focus_board(browser)
    for i, moment in enumerate(list(reversed(moments))[1:]):
        undoing[i % 3]()
        wait(browser, lambda d, m=moment: board_state(d) == m, f"undo {i + 1}")
        focus_board(browser)
    assert browser.find_element(By.ID, "undo").get_attribute("disabled") == "true"
    redoing = [
        lambda: press(browser, "redo"),
        lambda: keys(browser, "r"),
        lambda: chord(browser, Keys.CONTROL, "y"),
        lambda: chord(browser, Keys.CONTROL + Keys.SHIFT, "z"),
    ]
    for i, moment in enumerate(moments[1:]):
        redoing[i % 4]()
        wait(browser, lambda d, m=moment: board_state(d) == m, f"redo {i + 1}")
        focus_board(browser)
    assert browser.find_element(By.ID, "redo").get_attribute("disabled") == "true"


def hex_to_rgb(colour: str) -> str:
    r, g, b = (int(colour.strip()[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


@pytest.mark.parametrize("size", [WIDE, PHONE], ids=["1280x900", "390x844"])
def test_a_whole_game_by_next_step_alone(site, browser, size):
    """The README's puzzle, where Next step once gave the same step again and again: pressed
    until the end, it gives the walkthrough's steps in order, each applied and its reason
    shown in colours of its own, one of them undone and given again, then "solved"."""
    screen(browser, size)
    puzzle = notations.read(UNIQUE)
    walk = steps(puzzle)
    assert walk.status == "solved"
    open_puzzle(browser, site, UNIQUE)
    settled(browser)
    wrong = {
        hex_to_rgb(
            browser.execute_script(
                f"return getComputedStyle(document.body).getPropertyValue('--{name}')"
            )
        )
        for name in ("wrong", "wrong-fill", "wrong-band")
    }
    undone_at = 4
    for i, step in enumerate(walk.steps):
        before = board_state(browser)
        press(browser, "next-step")
        wanted = f"{step.pair[0][0]},{step.pair[0][1]},{step.pair[1][0]},{step.pair[1][1]}"

        def shown(d, wanted=wanted, text=step.text):
            pairs = [ends for ends, _ in read(d, ".pair-step", "pair")]
            return message(d) == text and pairs == [wanted]

        wait(browser, shown, f"step {i + 1}: {step.text}")
        assert marked(browser, "reason") == set(step.reason)
        assert marked(browser, "step") == set(step.pair)
        least = min(step.bridges)
        if least:
            assert bridges(browser).counts()[step.pair] >= least
        if step.bridges == (0,):
            assert step.pair in ruled_out(browser)
        colours = browser.execute_script(
            "const style = (s, p) => [...document.querySelectorAll(s)]"
            "  .map((e) => getComputedStyle(e)[p]);"
            "return [...style('#board .pair-step', 'stroke'),"
            "  ...style('#board .island.reason circle', 'fill'),"
            "  ...style('#board .island.step circle', 'stroke')];"
        )
        assert colours and not set(colours) & wrong
        if i == undone_at:
            shot(browser, f"06-next-step-{size[0]}")
            press(browser, "undo")
            wait(browser, lambda d, b=before: board_state(d) == b, "the step undone")
            assert not read(browser, ".pair-step")
            press(browser, "next-step")  # the same step again, nothing skipped or repeated
            wait(browser, shown, f"step {i + 1} again")
    assert bridges(browser) == unique(puzzle).solutions[0]
    wait(browser, lambda d: verdict(d) == "solved", "the verdict solved")
    press(browser, "next-step")
    wait(browser, lambda d: message(d) == "Nothing left to find: solved.", "the end")
    shot(browser, f"07-solved-by-steps-{size[0]}")


def test_solve_draws_a_checked_solution_and_next_step_says_solved(site, browser):
    puzzle = notations.read(UNIQUE)
    open_puzzle(browser, site, UNIQUE)
    settled(browser)
    press(browser, "solve")
    wait(browser, lambda d: bridges(d).bridges, "the solution")
    assert check(puzzle, bridges(browser)) == []
    assert bridges(browser) == unique(puzzle).solutions[0]
    wait(browser, lambda d: verdict(d) == "solved", "the verdict solved")
    press(browser, "next-step")
    wait(browser, lambda d: message(d) == "Nothing left to find: solved.", "solved")
    press(browser, "check")
    wait(browser, lambda d: message(d) == "Solved!", "the check of a solved board")
    press(browser, "undo")
    wait(browser, lambda d: not bridges(d).bridges, "the player's empty board back")
    assert verdict(browser) == "unique: one solution"


def test_the_verdict_says_solved_the_moment_the_drawing_is_a_solution(site, browser):
    open_puzzle(browser, site, UNIQUE)
    settled(browser)
    solution = solution_of(UNIQUE)
    for (a, b), k in sorted(solution.items()):
        for _ in range(k):
            drag(browser, a, b)
        wait(browser, lambda d, p=(a, b), k=k: bridges(d).counts().get(p) == k, f"{a}-{b}")
    wait(browser, lambda d: verdict(d) == "solved", "the verdict solved")
    assert message(browser) == ""  # nothing was asked
    drag(browser, (0, 4), (0, 6))  # a second line where one belongs
    wait(browser, lambda d: verdict(d) == "unique: one solution", "solved no more")
    keys(browser, "u")
    wait(browser, lambda d: verdict(d) == "solved", "solved again")
    shot(browser, "08-solved-by-hand")


def test_progress_and_the_timer_are_kept_across_a_reload(site, browser):
    puzzle = notations.read(UNIQUE)
    open_puzzle(browser, site, UNIQUE)
    settled(browser)
    browser.find_element(By.ID, "show-timer").click()
    wait(browser, lambda d: re.fullmatch(r"\d+:\d\d", d.find_element(By.ID, "timer").text), "t")
    browser.execute_script("hashi.setTime(754)")  # a player 12 minutes and more into it
    drag(browser, (0, 0), (0, 2))
    drag(browser, (6, 4), (6, 6), button="right")
    wait(browser, lambda d: ruled_out(d), "the mark")
    press(browser, "next-step")
    wait(browser, lambda d: read(d, ".pair-step"), "a step")
    played = board_state(browser)
    given = browser.execute_script("return hashi.given()")
    assert given["narrowed"]  # the step applied is part of the state kept
    for address in (browser.current_url, site):  # the link, then the page alone
        browser.get(address)
        wait(browser, lambda d: board_state(d) == played, "the state kept")
        assert browser.find_element(By.ID, "timer").is_displayed()
    # Next step goes on from there: the step after the one applied, as the library says.
    following = steps(puzzle, Play.from_json(given, puzzle), limit=1).steps[0]
    press(browser, "next-step")
    wait(browser, lambda d: message(d) == following.text, "the next step")
    # Solved, the time stops; a reload shows the same time, stopped.
    press(browser, "solve")
    wait(browser, lambda d: verdict(d) == "solved", "solved")
    wait(
        browser,
        lambda d: d.find_element(By.ID, "timer").get_attribute("data-running") == "false",
        "the timer stopped",
    )
    time = browser.find_element(By.ID, "timer").text
    browser.refresh()
    wait(browser, lambda d: verdict(d) == "solved", "solved after the reload")
    assert browser.find_element(By.ID, "timer").text == time
    assert browser.find_element(By.ID, "timer").get_attribute("data-running") == "false"
    # The time is the puzzle's: another puzzle's starts from nothing; undo brings this one back
    # with its own.
    source = browser.find_element(By.ID, "source")
    source.clear()
    source.send_keys(SQUARE)
    press(browser, "load")
    wait(browser, lambda d: len(islands(d)) == 4, "the other puzzle")
    assert re.fullmatch(r"0:0\d", browser.find_element(By.ID, "timer").text)
    press(browser, "undo")
    wait(browser, lambda d: board_state(d)[0] == dict(puzzle.islands), "the puzzle back")
    wait(browser, lambda d: verdict(d) == "solved", "solved, as it was")
    assert browser.find_element(By.ID, "timer").text == time


def test_keyboard_play(site, browser):
    open_puzzle(browser, site, UNIQUE)
    settled(browser)
    focus_board(browser)  # (0, 0), a 4, is selected
    chord(browser, Keys.CONTROL, Keys.ARROW_DOWN)
    wait(browser, lambda d: bridges(d).counts() == {((0, 0), (6, 0)): 1}, "a bridge down")
    keys(browser, Keys.ENTER, Keys.ARROW_DOWN)
    wait(browser, lambda d: bridges(d).counts() == {((0, 0), (6, 0)): 2}, "a double")
    keys(browser, Keys.ARROW_RIGHT)  # to the next island that way: the 4 at (0, 2)
    chord(browser, Keys.SHIFT, Keys.ARROW_RIGHT)
    wait(browser, lambda d: ruled_out(d) == {((0, 2), (0, 4))}, "a mark to the right")
    for held, undo, redo in (("", "u", "r"), (Keys.CONTROL, "z", "y")):
        chord(browser, held, undo)
        wait(browser, lambda d: not ruled_out(d), "the mark undone")
        chord(browser, held, redo)
        wait(browser, lambda d: ruled_out(d), "the mark redone")
    assert bridges(browser).counts() == {((0, 0), (6, 0)): 2}


# ---------------------------------------------------------------------------- any screen


FITS = [
    (WIDE, BIG, "a 15x15 within the window, no scrolling frame"),
    (WIDE, UNIQUE, "a 7x7 not tiny"),
    (PHONE, TEN, "a 10x10 on a phone, the play controls beside it"),
]


@pytest.mark.parametrize("size, text, what", FITS, ids=["15x15-wide", "7x7-wide", "10x10-phone"])
def test_the_board_fits_the_screen(site, browser, size, text, what):
    screen(browser, size)
    open_puzzle(browser, site, text)
    settled(browser)
    puzzle = notations.read(text)
    box = browser.execute_script(
        "const r = (id) => document.getElementById(id).getBoundingClientRect();"
        "const frame = document.getElementById('board-frame');"
        "const circle = document.querySelector('#board .island circle').getBoundingClientRect();"
        "return {board: r('board'), bar: r('play-bar'), next: r('next-step'),"
        "  frame: [frame.scrollWidth, frame.clientWidth, frame.scrollHeight, frame.clientHeight],"
        "  page: document.documentElement.scrollWidth, width: innerWidth, height: innerHeight,"
        "  island: circle.width};"
    )
    scroll_width, width, scroll_height, height = box["frame"]
    assert scroll_width <= width and scroll_height <= height, what  # no scrolling frame
    assert box["page"] <= box["width"], what  # no sideways scrolling
    assert box["board"]["bottom"] <= box["height"], what  # the whole board in the window
    per_cell = box["board"]["width"] / (puzzle.cols + 1)
    assert per_cell >= (60 if puzzle.cols <= 7 else 20), what
    # The play controls right under the board, in the window.
    assert 0 <= box["bar"]["top"] - box["board"]["bottom"] <= 20, what
    assert box["next"]["bottom"] <= box["height"], what
    # Row and column labels, as messages name cells.
    labels = [text for (text,) in read(browser, ".label")]
    assert labels == [*map(str, range(puzzle.cols)), *map(str, range(puzzle.rows))]
    shot(browser, f"09-fits-{puzzle.rows}x{puzzle.cols}-{size[0]}")
