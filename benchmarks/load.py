"""The server under load from one greedy program: do small requests of another still get answers
at once, and are the long requests the server cannot take refused rather than left to expire?

    python benchmarks/load.py /work/shared/puzzles/coelho/400/Hs_34_400_25_00_001.has
    python benchmarks/load.py PUZZLE --long 40 --time-limit 60 --every 0.25 -- --workers 4

- **Long requests**: ``--long`` ``count`` requests at once on PUZZLE (a 400-island Coelho
  puzzle: more solutions than a minute counts) with a ``--time-limit`` each, all from one
  client (``Hashi-Client: batch``).  Each ends as one of: refused at once (503: the client's
  bound or the queue's), refused after waiting for a thread (503: "never ran"), or answered
  (200) having searched; a 200 that timed out with nothing counted would be a request left to
  expire in a queue.
- **Small requests**: from the start of the long ones until they have all ended, one small
  request every ``--every`` seconds from another client (``Hashi-Client: page``), each in a
  thread of its own: a 3-island solve, ``unique`` on a 7x7 puzzle, a ``convert`` and a
  ``render``; their latencies' p50, p95 and largest (target: p95 under 1 s).
- **Attempts from another site**: a foreign ``Host`` (DNS rebinding), a foreign ``Origin``, a
  ``text/plain`` and a form-encoded POST: each must be refused (421, 403, 415, 415).

Arguments after ``--`` go to ``hashi-asp serve``.  Not a test: the figures depend on the machine
and its load, printed with them.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

SMALL = [
    ("solve", {"puzzle": "1 . 2 . 1\n"}),
    ("unique", {"puzzle": "7x7m2:4a4a2a2w2k4c3a1"}),
    ("convert", {"puzzle": "7x7m2:4a4a2a2w2k4c3a1", "to": "puzzlink"}),
    ("render", {"puzzle": "7x7m2:4a4a2a2w2k4c3a1"}),
]


def start_server(options: list[str]) -> tuple[subprocess.Popen, int]:
    server = subprocess.Popen(
        [sys.executable, "-m", "hashi_asp", "serve", "--port", "0", *options],
        stderr=subprocess.PIPE,
        text=True,
    )
    for line in server.stderr:
        found = re.search(r"serving http://\S+:(\d+)/", line)
        if found:
            threading.Thread(target=server.stderr.read, daemon=True).start()  # keep it drained
            return server, int(found.group(1))
    raise SystemExit("the server did not start")


def ask(
    port: int,
    method: str,
    path: str,
    body: bytes = b"",
    headers: dict[str, str] | None = None,
    timeout: float = 600,
) -> tuple[int, dict, float]:
    """One request on a connection of its own: the status, the JSON answer and the seconds."""
    began = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body, headers or {})
        response = connection.getresponse()
        document = json.loads(response.read() or b"null")
        return response.status, document, time.perf_counter() - began
    finally:
        connection.close()


def post(port: int, command: str, body: dict, client: str) -> tuple[int, dict, float]:
    headers = {"Content-Type": "application/json", "Hashi-Client": client}
    return ask(port, "POST", f"/api/{command}", json.dumps(body).encode(), headers)


def long_outcome(status: int, document: dict, seconds: float) -> str:
    if status == 503 and "never ran" in document.get("error", ""):
        return "refused (503) after waiting for a thread: never ran"
    if status == 503:
        return "refused (503) at once"
    if status == 200 and document.get("timed_out") and document.get("count") == 0:
        return "answered 200 having never searched (expired)"
    if status == 200:
        return "answered 200 after searching"
    return f"answered {status}: {document.get('error', '')[:60]}"


def attempts(port: int) -> list[tuple[str, int, int]]:
    """(what, status expected, status got) for requests another site's page could make."""
    body = json.dumps({"puzzle": "7x7m2:4a4a2a2w2k4c3a1"}).encode()
    jsonish = {"Content-Type": "application/json"}
    tried = [
        ("Host: evil.example (DNS rebinding)", 421, {**jsonish, "Host": "evil.example"}, body),
        ("Host: evil.example:PORT", 421, {**jsonish, "Host": f"evil.example:{port}"}, body),
        ("Origin: http://evil.example", 403, {**jsonish, "Origin": "http://evil.example"}, body),
        ("Origin: null", 403, {**jsonish, "Origin": "null"}, body),
        ("Content-Type: text/plain", 415, {"Content-Type": "text/plain"}, body),
        ("a form", 415, {"Content-Type": "application/x-www-form-urlencoded"}, b"puzzle=1"),
    ]
    return [
        (what, expected, ask(port, "POST", "/api/solve", sent, headers)[0])
        for what, expected, headers, sent in tried
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("puzzle", type=Path, help="the puzzle of the long counts")
    parser.add_argument("--long", type=int, default=40, help="long requests at once [40]")
    parser.add_argument("--time-limit", type=float, default=60, help="of each long one [60]")
    parser.add_argument("--every", type=float, default=0.25, help="seconds between small ones")
    parser.add_argument("serve", nargs="*", help="options for hashi-asp serve (after --)")
    arguments = parser.parse_args()
    puzzle = arguments.puzzle.read_text()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"cores: {os.cpu_count()}; serve options: {' '.join(arguments.serve) or '(defaults)'}")
    server, port = start_server(arguments.serve)
    try:
        assert post(port, "solve", SMALL[0][1], "warm")[0] == 200  # modules loaded
        refused = attempts(port)
        body = {"puzzle": puzzle, "time-limit": arguments.time_limit}
        many = concurrent.futures.ThreadPoolExecutor
        with many(arguments.long) as pool, many(512) as others:  # (never a wait for a thread here)
            longs = [pool.submit(post, port, "count", body, "batch") for _ in range(arguments.long)]
            smalls = []
            began = time.perf_counter()
            while not all(future.done() for future in longs):
                command, sent = SMALL[len(smalls) % len(SMALL)]
                smalls.append((command, others.submit(post, port, command, sent, "page")))
                time.sleep(arguments.every)
            ran = time.perf_counter() - began
            long_results = [future.result() for future in longs]
            small_results = [(command, future.result()) for command, future in smalls]
    finally:
        server.terminate()
        server.wait()

    print(
        f"\n{arguments.long} long counts of {arguments.puzzle.name}, {arguments.time_limit:g} s "
        f"each, from one client; all ended after {ran:.1f} s"
    )
    outcomes: dict[str, list[float]] = {}
    for status, document, seconds in long_results:
        outcomes.setdefault(long_outcome(status, document, seconds), []).append(seconds)
    for outcome, times in sorted(outcomes.items()):
        print(f"  {len(times):3d} {outcome} (median {statistics.median(times):.2f} s)")
    wrong = [(c, s, d) for c, (s, d, _) in small_results if s != 200]
    latencies = sorted(seconds for _, (_, _, seconds) in small_results)
    p50 = statistics.median(latencies)
    p95 = latencies[min(len(latencies) - 1, round(0.95 * (len(latencies) - 1)))]
    print(
        f"{len(latencies)} small requests from another client meanwhile: p50 {p50:.3f} s, "
        f"p95 {p95:.3f} s, max {latencies[-1]:.3f} s; not answered 200: {len(wrong)}"
    )
    for command, status, document in wrong[:5]:
        print(f"  {command}: {status} {document}")
    for command in dict.fromkeys(command for command, _ in SMALL):
        mine = sorted(s for c, (_, _, s) in small_results if c == command)
        print(f"  {command}: {len(mine)}, median {statistics.median(mine):.3f} s")
    kept = sum(expected == got for _, expected, got in refused)
    print(f"requests another site's page could send: {kept} of {len(refused)} refused")
    for what, expected, got in refused:
        print(f"  {what}: {got}{'' if got == expected else f' (expected {expected})'}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
