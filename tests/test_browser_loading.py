"""The workbench page in a real headless Chromium against a real ``hashi-asp serve``: loading a
puzzle (a link, a file, bad input), generating one, exporting it, and the author's fix; after
every test the browser's console holds no error (see tests/browsing.py).
"""

from __future__ import annotations

import urllib.parse

from browsing import (
    islands,
    message,
    open_puzzle,
    press,
    read,
    settled,
    shot,
    verdict,
    wait,
)
from selenium.webdriver.common.by import By

from hashi_asp import notations
from hashi_asp.solving import unique

UNIQUE = "7x7m2:4a4a2a2w2k4c3a1"  # the README's walkthrough puzzle


# ---------------------------------------------------------------------------- loading, exporting


def test_an_exported_link_loads_the_same_puzzle(site, browser):
    open_puzzle(browser, site, UNIQUE)
    before = islands(browser)
    browser.find_element(By.CSS_SELECTOR, "#export-panel summary").click()
    press(browser, "export-puzzlink")
    box = browser.find_element(By.ID, "export-text")
    wait(browser, lambda d: box.get_attribute("value").startswith("https://puzz.link/"), "URL")
    url = box.get_attribute("value")
    assert notations.read(url) == notations.read(UNIQUE)
    press(browser, "export-link")
    wait(browser, lambda d: "?puzzle=" in box.get_attribute("value"), "the page's link")
    link = box.get_attribute("value")
    assert urllib.parse.unquote(link.split("?puzzle=", 1)[1]) == url
    browser.get(link)
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#board .island"), "the islands")
    assert islands(browser) == before
    assert "unique" in settled(browser)


def test_a_generated_puzzle_is_drawn_and_unique(site, browser):
    browser.find_element(By.CSS_SELECTOR, "#generate-panel summary").click()
    field = browser.find_element(By.ID, "gen-islands")
    field.clear()
    field.send_keys("30")
    press(browser, "generate")
    wait(browser, lambda d: len(islands(d)) == 30, "30 islands")
    assert "unique" in settled(browser)
    assert browser.find_element(By.ID, "mode-play").is_selected()
    shot(browser, "10-generated")


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


def test_bad_input_is_one_clear_message(site, browser):
    """A puzzle that does not load is an error that stays: the live analysis of the puzzle
    shown before ends, and its answer (held here until the error shows) replaces nothing."""
    browser.execute_script(HOLD_UNIQUE)
    source = browser.find_element(By.ID, "source")
    source.send_keys(UNIQUE)
    press(browser, "load")
    wait(browser, lambda d: d.execute_script("return window.held.length") == 1, "the analysis")
    assert verdict(browser) == "analysing…"
    source.clear()
    source.send_keys("7x7m2:4a4a2a2w2k4c3a1zzz")
    press(browser, "load")
    wait(browser, lambda d: verdict(d) == "error", "the error")
    said = message(browser)
    assert said.startswith("the puzzle") and "Traceback" not in said and "<text>" not in said
    browser.execute_script("window.held.forEach((send) => send())")
    wait(browser, lambda d: d.execute_script("return window.settled") == 1, "the analysis ended")
    assert browser.execute_script("return window.aborted") == 1
    assert (verdict(browser), message(browser)) == ("error", said)
    shot(browser, "11-bad-input")


# Each download the page starts (a click on its link #download to an object URL) is caught on
# its way out and kept in `window.caught`: its name, type, size and text (none for a PNG).
CATCH_DOWNLOADS = """
window.caught = [];
const made = new Map(), objectUrl = URL.createObjectURL;
URL.createObjectURL = (blob) => { const url = objectUrl(blob); made.set(url, blob); return url; };
document.getElementById("download").addEventListener("click", async (event) => {
  event.preventDefault();
  const name = event.currentTarget.download, blob = made.get(event.currentTarget.href);
  const text = blob.type === "image/png" ? "" : await blob.text();
  window.caught.push([name, blob.type, blob.size, text]);
});
"""


def test_downloads_and_opening_a_file(site, browser, tmp_path):
    open_puzzle(browser, site, UNIQUE)
    settled(browser)
    browser.find_element(By.CSS_SELECTOR, "#export-panel summary").click()
    browser.execute_script(CATCH_DOWNLOADS)
    for button in ("export-has", "export-svg", "export-png"):
        press(browser, button)
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
    browser.get(site)
    browser.execute_script("localStorage.clear()")
    browser.find_element(By.ID, "file").send_keys(str(saved))
    wait(browser, lambda d: islands(d) == dict(notations.read(UNIQUE).islands), "the file's puzzle")
    assert "unique" in settled(browser)


def test_the_fix_is_offered_shown_applied_and_undone(site, browser):
    text = "https://puzz.link/p?hashikake/5/5/2g1m4g3g1k3i2"  # the Prolog report's 5x5
    open_puzzle(browser, site, text)
    assert "solutions" in settled(browser)
    wait(browser, lambda d: d.find_element(By.ID, "fix").is_displayed(), "the fix button")
    press(browser, "fix")
    wait(browser, lambda d: d.find_element(By.ID, "apply-fix").is_displayed(), "the apply button")
    from hashi_asp.fixing import fix

    puzzle = notations.read(text)
    made = fix(puzzle)  # the same search as the API's
    assert "To make it unique (fix 1 of" in message(browser) and "the fewest;" in message(browser)
    added = {edit.cell: edit.new for edit in made.edits if edit.kind == "add"}
    assert added  # this puzzle's fix is a new island: marked on its water cell, with its number
    shown = {tuple(map(int, at.split(","))): int(n) for at, n in read(browser, ".added", "cell")}
    assert shown == added
    before = islands(browser)
    press(browser, "apply-fix")
    wait(browser, lambda d: islands(d) != before, "the edited islands")
    after = islands(browser)
    assert {cell: n for cell, n in after.items() if before.get(cell, "water") != n} == {
        edit.cell: edit.new for edit in made.edits
    }
    assert "unique" in settled(browser)
    assert unique(type(puzzle)(puzzle.rows, puzzle.cols, after)).status == "unique"
    press(browser, "undo")
    wait(browser, lambda d: islands(d) == before, "the fix undone")
    assert "solutions" in settled(browser)
