"""Hostile work from two programs beside a player's small request, against a real ``hashi-asp
serve``: what the server holds at its peak and after, and how long the small one waits.

    python benchmarks/hostile_load.py
    python benchmarks/hostile_load.py --pictures 40 --bombs 4 -- --workers 4

One program (``Hashi-Client: A``) sends ``--pictures`` photos at once, each with a time limit of
1 s, in turn (made by tests/hostile_pictures.py): a PNG of 16-bit colour with transparency of
5000 x 5000 pixels (200 MB decoded, 195 KB of file), one of 9000 x 9000 (over the budget of
pixels), 2000 x 2400 pixels of 1-bit noise, and a 70-byte PNG whose header declares 60000 x
60000.  Another (``B``) sends ``--bombs``
checks of a solution whose bridges cross a million times on a 1000 x 1000 board (a body of
101 KB).  Half a second later a third (``C``) solves a three-island puzzle.  The server's
resident memory is read from /proc every 50 ms; "idle" is after a solve, a check and a render
of a few islands (the modules they load), "after" 10 s after the last answer.

Prints the answers by program and status, the small solve's time, and the memory.  Exit 0 when
the targets hold (peak under 2 GiB, the small solve under 1 s, after within 100 MB of idle),
else 1.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "benchmarks"))

from fuzz_api import bombs, post  # noqa: E402
from hostile_pictures import declared_png, deep_png, noise, url  # noqa: E402
from serving import Server  # noqa: E402


def resident(pid: int) -> int:
    """The process's resident memory, in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024
    raise ValueError("no VmRSS")


def photos() -> list[str]:
    """The photos sent, as data URLs."""
    made = [url(deep_png(side, side)) for side in (5000, 9000)]
    return [*made, url(noise(2000, 2400, bits=1)), url(declared_png(60_000, 60_000))]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pictures", type=int, default=40, help="photos from A [40]")
    parser.add_argument("--bombs", type=int, default=4, help="checks of crossings from B [4]")
    parser.add_argument("serve", nargs="*", help="options for hashi-asp serve (after --)")
    arguments = parser.parse_args()
    pictures, bomb = photos(), bombs()[1]
    server = Server(*arguments.serve)
    port, pid = server.port, server.process.pid

    def ask(command: str, body: dict, client: str) -> tuple[int, float]:
        began = time.monotonic()
        status, _ = post(port, command, json.dumps(body).encode(), client=client)
        return status, time.monotonic() - began

    try:
        ask("solve", {"puzzle": "3 . 3\n"}, "C")
        ask("check", {"puzzle": "1 . 1\n", "solution": "[[0, 0, 0, 2, 1]]"}, "C")
        ask("render", {"puzzle": "1 . 1\n"}, "C")
        idle = resident(pid)
        answers: Counter[tuple[str, int]] = Counter()
        slowest: dict[str, float] = {}

        def send(client: str, command: str, body: dict) -> None:
            status, seconds = ask(command, body, client)
            answers[client, status] += 1
            slowest[client] = max(slowest.get(client, 0.0), seconds)

        senders = [
            threading.Thread(
                target=send,
                args=("A", "solve", {"puzzle": pictures[i % len(pictures)], "time-limit": 1}),
            )
            for i in range(arguments.pictures)
        ]
        senders += [
            threading.Thread(target=send, args=("B", "check", bomb)) for _ in range(arguments.bombs)
        ]
        peak = resident(pid)
        for sender in senders:
            sender.start()
        time.sleep(0.5)
        small, small_seconds = ask("solve", {"puzzle": "3 . 3\n"}, "C")
        while any(sender.is_alive() for sender in senders):
            peak = max(peak, resident(pid))
            time.sleep(0.05)
        time.sleep(10)
        after = resident(pid)
    finally:
        server.close()
    print(f"load average {os.getloadavg()[0]:.2f}")
    for (client, status), count in sorted(answers.items()):
        print(f"{client}: {count} answered {status} (slowest {slowest[client]:.2f} s)")
    print(f"C: the three-island solve answered {small} in {small_seconds:.2f} s")
    print(f"resident memory: idle {idle} MB, peak {peak} MB, after {after} MB")
    held = small == 200 and small_seconds < 1 and peak < 2048 and after - idle <= 100
    print("targets: " + ("held" if held else "missed"))
    return 0 if held else 1


if __name__ == "__main__":
    sys.exit(main())
