"""The workbench's speed, as a person and as many programs see it: page load to drawn puzzle,
the live verdict after an edit, and 50 concurrent API requests.

    python benchmarks/web.py                     # starts `hashi-asp serve --port 0` itself
    python benchmarks/web.py --rounds 10 --requests 50

- **Page load**: a headless Chromium (Debian's chromium and chromium-driver, as the tests use)
  opens ``/?puzzle=<a 15x15 Tatham ID>``; the time is the page's own ``hashi:drawn``
  performance mark, counted from the start of navigation (the page fetched, its script run,
  the puzzle read by the API and drawn).
- **Live verdict**: on that page, a number typed into an empty cell; the time runs from the
  keystroke (a ``keydown`` listener's timestamp) to the ``hashi:verdict`` mark, so it includes
  the page's 150 ms pause for more edits.
- **Load**: ``--requests`` API requests at once from as many threads (solve, unique, steps and
  hint on 7x7 and 15x15 Tatham puzzles and the bundled Coelho instances of 100-400 islands),
  each answer checked, sent as from ten programs (``Hashi-Client``); p50, p95 and the largest
  latency.  (benchmarks/load.py: the server under one greedy program.)

Not a test: the figures depend on the machine and its load, printed with them.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PUZZLES_15 = (  # Simon Tatham's generator, 15x15 hard (sgt-bridges --generate 1 '15x15m2d2#web-S')
    "15x15m2:3b3a3e2b3o5b4i2q2b3b2d2u4d4b4r3a2b2f3a3c6e4c5l1u2g3a4j3b2a3m2",
    "15x15m2:3a4j1d2b4g3o3g2o2d43i2p1a24p5c6a5a4c2d1g1e1d2j3a6c3a5a3r2b3c1c14a3a2g3b",
    "15x15m2:a4c5b2c1l2c1f1a2g4c6d7a4a41a2a5d3x2zzq4x1d2l1b2a4g6b2a",
)


def start_server() -> tuple[subprocess.Popen, str]:
    server = subprocess.Popen(
        [sys.executable, "-m", "hashi_asp", "serve", "--port", "0"],
        stderr=subprocess.PIPE,
        text=True,
    )
    line = server.stderr.readline()
    found = re.search(r"serving (http://\S+/)", line)
    if not found:
        server.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return server, found.group(1)


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/lib/chromium/chromium"
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--window-size=1280,900",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
    ):
        options.add_argument(argument)
    return webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))


def mark(driver, name: str) -> float | None:
    return driver.execute_script(
        "const m = performance.getEntriesByName(arguments[0]); "
        "return m.length ? m[m.length - 1].startTime : null;",
        name,
    )


def until(driver, condition, bound: float = 60) -> None:
    ends = time.monotonic() + bound
    while not condition(driver):
        if time.monotonic() > ends:
            raise SystemExit("the page never showed what was waited for")
        time.sleep(0.01)


def page_figures(url: str, rounds: int) -> tuple[list[float], list[float]]:
    from selenium.webdriver.common.action_chains import ActionChains

    loads, verdicts = [], []
    driver = browser()
    try:
        for i in range(rounds):
            puzzle = PUZZLES_15[i % len(PUZZLES_15)]
            driver.get(f"{url}?puzzle={urllib.parse.quote(puzzle, safe='')}")
            until(driver, lambda d: mark(d, "hashi:verdict") is not None)
            loads.append(mark(driver, "hashi:drawn") / 1000)
            # An empty cell: the first one in reading order without an island.
            empty = driver.execute_script(
                "const taken = new Set([...document.querySelectorAll('#board .island')]"
                "  .map((g) => g.dataset.cell));"
                "const cell = [...document.querySelectorAll('#board .cell')]"
                "  .find((c) => !taken.has(`${c.dataset.row},${c.dataset.col}`));"
                "return [Number(cell.dataset.row), Number(cell.dataset.col)];"
            )
            driver.execute_script(
                "window.typedAt = null; document.getElementById('mode-edit').click();"
                "hashi.select(...arguments[0]);"
                "document.getElementById('board').focus();"
                "document.addEventListener('keydown', e => { window.typedAt = e.timeStamp; },"
                "  { once: true, capture: true });"
                "performance.clearMarks('hashi:verdict');",
                empty,
            )
            ActionChains(driver).send_keys("1").perform()
            until(driver, lambda d: mark(d, "hashi:verdict") is not None)
            typed = driver.execute_script("return window.typedAt")
            verdicts.append((mark(driver, "hashi:verdict") - typed) / 1000)
    finally:
        driver.quit()
    return loads, verdicts


def requests_mixed(count: int) -> list[tuple[str, dict, str]]:
    """(command, body, expected status) for ``count`` requests of mixed sizes."""
    from hashi_asp import notations
    from hashi_asp.solving import unique

    tatham = [
        line
        for name in ("7x7i30e10m2d2.txt", "10x10i30e10m2d2.txt")
        for line in (ROOT / "puzzles/tatham" / name).read_text().splitlines()
        if line and not line.startswith("#")
    ]
    coelho = [path.read_text() for path in sorted((ROOT / "puzzles/coelho").glob("*.has"))[::4]]
    texts = [*PUZZLES_15, *tatham, *coelho]
    expected = {text: unique(notations.parse(text)).status for text in texts}
    commands = ("solve", "unique", "steps", "hint")
    made = []
    for i in range(count):
        text = texts[i % len(texts)]
        command = commands[i % len(commands)]
        body = {"puzzle": text, **({"steps": 5} if command == "steps" else {})}
        made.append((command, body, expected[text]))
    return made


def load_figures(url: str, count: int) -> list[float]:
    from hashi_asp import notations
    from hashi_asp.checking import check

    wanted = requests_mixed(count)

    def one(numbered: tuple[int, tuple[str, dict, str]]) -> float:
        n, (command, body, status) = numbered
        started = time.perf_counter()
        # From ten programs, as many share a server (one alone may have 16 requests of a kind).
        headers = {"Content-Type": "application/json", "Hashi-Client": f"program {n % 10}"}
        request = urllib.request.Request(f"{url}api/{command}", json.dumps(body).encode(), headers)
        with urllib.request.urlopen(request, timeout=120) as response:
            document = json.load(response)
        seconds = time.perf_counter() - started
        puzzle = notations.parse(body["puzzle"])
        if command == "solve":
            solution = notations.parse_solutions(json.dumps(document["solutions"][0]))[0]
            assert not check(puzzle, solution), "a wrong solution"
        elif command in ("unique", "hint"):
            assert document["status"] == status, (document["status"], status)
        else:
            assert document["checked"] and len(document["steps"]) <= 5
        return seconds

    with concurrent.futures.ThreadPoolExecutor(count) as pool:
        latencies = list(pool.map(one, enumerate(wanted)))
    for command in dict.fromkeys(command for command, _, _ in wanted):
        mine = [t for (c, _, _), t in zip(wanted, latencies) if c == command]
        print(f"  {command}: {len(mine)} requests, median {statistics.median(mine):.3f} s")
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=6, help="page loads and edits")
    parser.add_argument("--requests", type=int, default=50, help="concurrent API requests")
    arguments = parser.parse_args()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    server, url = start_server()
    try:
        loads, verdicts = page_figures(url, arguments.rounds)
        latencies = load_figures(url, arguments.requests)
    finally:
        server.terminate()
        server.wait()

    def line(name: str, values: list[float]) -> str:
        ordered = sorted(values)
        p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
        return (
            f"{name}: median {statistics.median(values):.3f} s, p95 {p95:.3f} s, "
            f"max {max(values):.3f} s ({len(values)})"
        )

    print(line("page load to drawn 15x15 puzzle", loads))
    print(line("keystroke to live verdict, 15x15", verdicts))
    print(line(f"{arguments.requests} concurrent API requests", latencies))
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
