"""The pictures of the workbench in the README and docs/web.md, made from the real page: a
``hashi-asp serve`` started here, its page in a headless Chromium (Debian's ``chromium`` and
``chromium-driver``, as the browser tests use), the README's puzzle played by Next step until
a step's reason shows, and a screenshot at a laptop's size and at a phone's.

    python scripts/screenshot.py                 # docs/images/workbench.png, workbench-phone.png
    python scripts/screenshot.py --steps 4 --out /tmp/shots

Needs the ``web`` and ``test`` extras (Starlette, uvicorn, Selenium).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import urllib.parse
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parent.parent
PUZZLE = "7x7m2:4a4a2a2w2k4c3a1"  # the README's puzzle
SIZES = {"workbench.png": (1280, 760), "workbench-phone.png": (390, 844)}
WAIT = 60  # seconds at most for what the page shows
READY = re.compile(r"serving (http://\S+/)")


def serve() -> tuple[subprocess.Popen, str]:
    """``hashi-asp serve`` on a free port, and its address once it says it listens."""
    server = subprocess.Popen(
        [sys.executable, "-m", "hashi_asp", "serve", "--port", "0"],
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert server.stderr is not None
    for line in server.stderr:
        found = READY.search(line)
        if found:
            return server, found.group(1)
    raise SystemExit(f"hashi-asp serve ended before it listened (exit {server.wait()})")


def browser() -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/lib/chromium/chromium"
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
    ):
        options.add_argument(argument)
    return webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))


def picture(driver, url: str, size: tuple[int, int], presses: int, path: Path) -> None:
    width, height = size
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
    )
    driver.get(f"{url}api")  # the page's origin: its storage emptied, a player's first visit
    driver.execute_script("localStorage.clear()")
    driver.get(f"{url}?puzzle={urllib.parse.quote(PUZZLE, safe='')}")
    wait = WebDriverWait(driver, WAIT)
    wait.until(lambda d: "unique" in d.find_element(By.ID, "verdict").text)
    for _ in range(presses):
        before = driver.find_element(By.ID, "message").text
        driver.find_element(By.ID, "next-step").click()
        wait.until(lambda d, b=before: d.find_element(By.ID, "message").text not in ("", b))
    driver.execute_script("document.activeElement.blur()")
    driver.save_screenshot(str(path))
    print(f"{path} ({width}x{height}): {driver.find_element(By.ID, 'message').text}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=10, help="Next step pressed (default 10)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    arguments = parser.parse_args()
    arguments.out.mkdir(parents=True, exist_ok=True)
    server, url = serve()
    try:
        driver = browser()
        try:
            for name, size in SIZES.items():
                picture(driver, url, size, arguments.steps, arguments.out / name)
        finally:
            driver.quit()
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
