"""Next step pressed in the real page until the end, on Simon Tatham's puzzles, against the
walkthrough ``hashi-asp steps`` shows: does the page reach "solved" in exactly its steps, in its
order, with no step given twice? And how long is each press, as the page's clock says?

    apt-get install sgt-puzzles                                # his generator
    python scripts/next_step_page.py                           # 7x7 and 10x10, 6 per level
    python scripts/next_step_page.py --folder next-step-set    # the set kept (made if absent)
    python scripts/next_step_page.py --sizes 7 10 15 --per-level 10
    python scripts/next_step_page.py --sizes 15 --phone --ladder   # by Hint, on a phone's screen

The set is the one ``benchmarks/next_step.py`` makes (which presses Next step through the API
alone): for each size and each of his levels d0, d1 and d2, ``--per-level`` puzzles from
``sgt-bridges --generate 1 SxSi30e10m2dL#hashi-asp-next-S-L-i``.  Here the page is opened on
each (``hashi-asp serve`` started here, a headless Chromium as the browser tests use, the
browser's storage emptied first) and its ``#next-step`` button pressed, each press waited for
(the player's state changes, or the message says the end), until ``#message`` says
``Nothing left to find: solved.``; with ``--ladder``, *Hint* three times a step instead (where
to look, the technique, the move; the third press timed), and ``--phone`` at 390x844 pixels
rather than 1280x900.  Per puzzle: the presses that gave a step, the walkthrough's
steps, whether the sentences shown are the walkthrough's in its order, the verdict at the
end, and the seconds of its presses (the median, the last and the slowest; the last is the
press that says solved).  Not a test: it takes minutes; the figures are printed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import urllib.parse
from pathlib import Path

from screenshot import browser, serve
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from next_step import puzzle_set  # the same set as the API's measurement

END = "Nothing left to find: solved."
WAIT = 120  # seconds at most for one press


def walkthrough(game_id: str) -> list[str]:
    shown = subprocess.run(
        [sys.executable, "-m", "hashi_asp", "steps", game_id, "--format", "json"],
        capture_output=True,
        text=True,
    )
    return [step["text"] for step in json.loads(shown.stdout)["steps"]]


def pressed(
    driver, url: str, game_id: str, most: int, ladder: bool = False
) -> tuple[list[str], str, list[float]]:
    """The sentences the page showed, press after press, its verdict at the end, and the
    seconds of each press (from the click to the state changed, as the page's own clock says:
    ``performance.now()`` at the click and at the change)."""
    driver.get(f"{url}api")
    driver.execute_script("localStorage.clear()")
    driver.get(f"{url}?puzzle={urllib.parse.quote(game_id, safe='')}")
    wait = WebDriverWait(driver, WAIT)
    wait.until(lambda d: "analysing" not in d.find_element(By.ID, "verdict").text)
    said, seconds = [], []
    for _ in range(most):
        if ladder and not _two_rungs(driver, wait):
            break  # (the first rung said the end)
        # The page's clock times the press: a click, then a frame callback polling for the
        # state changed (or the end said), so the figure is the page's, not Selenium's.
        driver.execute_script(
            """
            const before = hashi.snapshot(), button = document.getElementById(arguments[1]);
            window.pressTook = null;
            const started = performance.now();
            const look = () => {
              const text = document.getElementById("message").textContent;
              if (hashi.snapshot() !== before || text === arguments[0]) {
                window.pressTook = (performance.now() - started) / 1000;
              } else requestAnimationFrame(look);
            };
            button.click();
            requestAnimationFrame(look);
            """,
            END,
            "hint" if ladder else "next-step",
        )
        wait.until(lambda d: d.execute_script("return window.pressTook") is not None)
        seconds.append(float(driver.execute_script("return window.pressTook")))
        text = driver.find_element(By.ID, "message").text
        if text == END:
            break
        said.append(text)
    wait.until(lambda d: d.find_element(By.ID, "verdict").text == "solved")
    return said, driver.find_element(By.ID, "verdict").text, seconds


def _two_rungs(driver, wait: WebDriverWait) -> bool:
    """The hint ladder's first two rungs pressed (where to look, then the technique named),
    each waited for; False where the first says the end instead."""
    driver.find_element(By.ID, "hint").click()
    wait.until(
        lambda d: (
            d.find_element(By.ID, "hint-line").text.startswith("Hint (1 of 3)")
            or d.find_element(By.ID, "message").text == END
        )
    )
    if driver.find_element(By.ID, "message").text == END:
        return False
    driver.find_element(By.ID, "hint").click()
    wait.until(lambda d: d.find_element(By.ID, "hint-line").text.startswith("Hint (2 of 3)"))
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[7, 10])
    parser.add_argument("--per-level", type=int, default=6)
    parser.add_argument("--folder", type=Path, help="where the set is kept (made if absent)")
    parser.add_argument("--phone", action="store_true", help="a phone's screen, 390x844")
    parser.add_argument(
        "--ladder", action="store_true", help="Hint pressed three times a step, not Next step"
    )
    arguments = parser.parse_args()
    sets = puzzle_set(arguments.folder, arguments.sizes, arguments.per_level)
    server, url = serve()
    driver = browser()
    width, height = (390, 844) if arguments.phone else (1280, 900)
    way = "the hint ladder" if arguments.ladder else "Next step"
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
    )
    total = exact = 0
    try:
        for name, ids in sets.items():
            matched = 0
            for game_id in ids:
                steps = walkthrough(game_id)
                said, verdict, seconds = pressed(
                    driver, url, game_id, len(steps) + 3, arguments.ladder
                )
                same = said == steps and verdict == "solved"
                print(
                    f"  {game_id[:40]}: {len(seconds)} presses, median "
                    f"{statistics.median(seconds):.3f} s, last {seconds[-1]:.3f} s, "
                    f"slowest {max(seconds):.3f} s"
                )
                matched += same
                repeated = len(said) - len(set(said))
                if not same:
                    print(
                        f"  {game_id}: {len(said)} pressed, {len(steps)} steps, "
                        f"{repeated} repeated, verdict {verdict!r}"
                    )
            print(
                f"{name}: {matched} of {len(ids)} solved by {way} in exactly the "
                "walkthrough's steps"
            )
            total += len(ids)
            exact += matched
    finally:
        driver.quit()
        server.terminate()
        server.wait()
    print(f"all: {exact} of {total}")


if __name__ == "__main__":
    main()
