"""The workbench page takes a picture of a puzzle, in a real headless Chromium against a real
``hashi-asp serve``: opened as a file, taken by the phone's camera (a file input with
``capture``), dropped on the page, pasted from the clipboard; the puzzle read opens with its
islands and numbers, and the islands probably misread are marked for the player to confirm.
"""

from __future__ import annotations

import base64
import random
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from browsing import (
    bridges,
    islands,
    message,
    press,
    read,
    settled,
    wait,
)
from selenium.webdriver.common.by import By

from hashi_asp import notations
from hashi_asp.drawing import svg
from hashi_asp.puzzle import Puzzle, Solution
from hashi_asp.solving import solve

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import picture_material as material

SEVEN = notations.parse("7x7m2:4a4a2a2w2k4c3a1")
MISREAD = notations.parse("7x7m2:3a4a5a4g3m4a5k3a6a5a4")  # its 3 at (0, 0) reads as a 5, damaged


def shown(puzzle: Puzzle) -> dict:
    return dict(puzzle.islands)


def loaded(driver, puzzle: Puzzle) -> None:
    """Wait for the board to show ``puzzle``'s islands and numbers."""
    wait(driver, lambda d: islands(d) == shown(puzzle), "the islands read from the picture")


def saved(tmp_path: Path, data: bytes, name: str) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def hand_over(driver, data: bytes, name: str, how: str) -> None:
    """A file of ``data`` dropped on the page (``drop``) or pasted (``paste``), as the browser
    hands one over: in a DataTransfer of the event."""
    driver.execute_script(
        """
        const [data, name, how] = arguments;
        const bytes = Uint8Array.from(atob(data), (ch) => ch.charCodeAt(0));
        const type = name.endsWith(".png") ? "image/png" : "image/jpeg";
        const transfer = new DataTransfer();
        transfer.items.add(new File([bytes], name, { type }));
        if (how === "drop") {
          document.getElementById("board").dispatchEvent(
            new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
        } else {
          document.getElementById("source").dispatchEvent(
            new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true,
                                          cancelable: true }));
        }
        """,
        base64.b64encode(data).decode(),
        name,
        how,
    )


def test_a_picture_opened_as_a_file_is_read_and_played(browser, tmp_path):
    path = saved(tmp_path, material.drawing(SEVEN, 32), "seven.png")
    browser.find_element(By.ID, "picture").send_keys(str(path))
    loaded(browser, SEVEN)
    assert "unique" in settled(browser)
    # The puzzle read is in the box as text, to edit; the reading is summed up.
    text = browser.find_element(By.ID, "source").get_attribute("value")
    assert notations.parse(text).islands == SEVEN.islands
    summary = browser.find_element(By.ID, "reading-summary").text
    assert summary.startswith(f'Read {len(SEVEN.islands)} islands from "seven.png"')
    assert read(browser, ".suspect-mark") == []
    assert browser.find_element(By.ID, "mode-play").is_selected()


def test_the_phones_camera_is_a_file_input_that_captures(browser, tmp_path):
    camera = browser.find_element(By.ID, "camera")
    assert camera.get_attribute("capture") == "environment"
    assert camera.get_attribute("accept") == "image/*"
    photo = material.photo(material.drawing(SEVEN, 32), random.Random(1))
    camera.send_keys(str(saved(tmp_path, photo, "photo.jpg")))
    loaded(browser, SEVEN)


@pytest.mark.parametrize("how", ["drop", "paste"])
def test_a_picture_dropped_or_pasted_is_read(browser, how):
    shot = material.screenshot(material.drawing(SEVEN, 32), random.Random(5))
    hand_over(browser, shot, "screenshot.png", how)
    loaded(browser, SEVEN)
    assert "unique" in settled(browser)


def test_a_large_photo_is_made_smaller_before_it_is_sent(browser, tmp_path):
    """A phone's photo of several megabytes (over the server's 1 MB for a request) is drawn
    again smaller in the page and read all the same."""
    import cv2

    picture = material.decoded(material.drawing(SEVEN, 32))
    large = cv2.resize(picture, None, fx=11, fy=11, interpolation=cv2.INTER_CUBIC)
    noise = np.random.default_rng(3).normal(0, 6, large.shape)
    large = np.clip(large.astype(float) + noise, 0, 255).astype(np.uint8)
    data = cv2.imencode(".png", large)[1].tobytes()
    assert len(data) > 2_000_000 and max(large.shape[:2]) > 2400
    browser.find_element(By.ID, "picture").send_keys(str(saved(tmp_path, data, "large.png")))
    loaded(browser, SEVEN)


def test_a_probable_misread_is_marked_and_confirmed(browser, tmp_path):
    path = saved(tmp_path, material.damaged(MISREAD, (0, 0), "top"), "damaged.png")
    browser.find_element(By.ID, "picture").send_keys(str(path))
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#suspects li"), "a suspect")
    misread = {**shown(MISREAD), (0, 0): 5}
    assert islands(browser) == misread
    items = browser.find_elements(By.CSS_SELECTOR, "#suspects li")
    assert [item.find_element(By.TAG_NAME, "span").text for item in items] == [
        "probably a 3, not a 5, at (0, 0)"
    ]
    assert read(browser, ".island.suspect", "cell") == [["0,0", "5"]]
    assert read(browser, ".suspect-mark", "cell") == [["0,0", "3"]]
    summary = browser.find_element(By.ID, "reading-summary")
    assert "least sure: the 5 at (0, 0)" in summary.text
    items[0].find_element(By.CLASS_NAME, "confirm").click()
    loaded(browser, MISREAD)
    assert "least sure" not in summary.text  # the player decided that island
    assert "unique" in settled(browser)
    assert browser.find_elements(By.CSS_SELECTOR, "#suspects li") == []
    assert read(browser, ".island.suspect") == []
    wait(
        browser,
        lambda d: (
            notations.parse(d.find_element(By.ID, "source").get_attribute("value")).islands
            == MISREAD.islands
        ),
        "the text box following the confirmed puzzle",
    )
    press(browser, "undo")  # the number read comes back
    wait(browser, lambda d: islands(d) == misread, "the number read back")


def test_an_island_whose_number_was_not_read_gets_the_one_suggested(browser, tmp_path):
    """The 3 at (2, 0) erased, its circle left: an island without a number on the board, ringed,
    its badge the number the suspects give it; confirmed, it has it."""
    drawing = re.sub(
        r'(data-row="2" data-col="0">\n<circle [^>]*/>\n)<text [^>]*>3</text>',
        r"\1",
        str(svg(MISREAD, cell=40)),
    )
    path = saved(tmp_path, material.png_of_svg(drawing), "erased.png")
    browser.find_element(By.ID, "picture").send_keys(str(path))
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#suspects li"), "a suspect")
    assert islands(browser) == {**shown(MISREAD), (2, 0): None}
    assert browser.find_element(By.CSS_SELECTOR, "#suspects li span").text == (
        "probably a 3 at (2, 0), not read"
    )
    assert read(browser, ".island.suspect", "cell") == [["2,0", ""]]
    assert read(browser, ".suspect-mark", "cell") == [["2,0", "3"]]
    browser.find_element(By.CSS_SELECTOR, "#suspects li .confirm").click()
    loaded(browser, MISREAD)
    assert "unique" in settled(browser)


def test_a_suspect_dismissed_leaves_the_number_read(browser, tmp_path):
    path = saved(tmp_path, material.damaged(MISREAD, (0, 0), "top"), "damaged.png")
    browser.find_element(By.ID, "picture").send_keys(str(path))
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#suspects li"), "a suspect")
    browser.find_element(By.CSS_SELECTOR, "#suspects li .dismiss").click()
    wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "#suspects li"), "none left")
    assert read(browser, ".suspect-mark") == []
    assert islands(browser)[0, 0] == 5


def test_a_photographed_game_goes_on_with_its_bridges_drawn(browser, tmp_path):
    """The bridges drawn in the picture are the player's (one step of undo), said in the
    reading's summary; what the page's hint and check say follows from them."""
    drawn = solve(SEVEN).solutions[0].bridges[::2]
    data = material.drawing(SEVEN, 32, solution=Solution.of(drawn))
    browser.find_element(By.ID, "picture").send_keys(str(saved(tmp_path, data, "game.png")))
    loaded(browser, SEVEN)
    wait(browser, lambda d: bridges(d).counts() == Solution.of(drawn).counts(), "the bridges drawn")
    lines = sum(b.count for b in drawn)
    summary = browser.find_element(By.ID, "reading-summary").text
    assert summary.endswith(f"Continuing from the {lines} bridges drawn in it.")
    press(browser, "undo")  # the puzzle read, without the bridges
    wait(browser, lambda d: bridges(d).counts() == {}, "no bridges after undo")
    assert islands(browser) == shown(SEVEN)


def test_a_picture_without_a_puzzle_says_so(browser, tmp_path):
    import cv2

    blank = np.full((200, 300), 255, np.uint8)
    cv2.putText(blank, "Hello", (20, 100), cv2.FONT_HERSHEY_SIMPLEX, 2, 0, 3)
    path = saved(tmp_path, cv2.imencode(".png", blank)[1].tobytes(), "hello.png")
    browser.find_element(By.ID, "picture").send_keys(str(path))
    wait(browser, lambda d: "no puzzle found in the picture" in message(d), "the reader's error")
    assert browser.find_element(By.ID, "reading").get_attribute("hidden") is not None
