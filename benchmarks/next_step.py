"""Next step pressed until the end, through the API of a real server, against the walkthrough
``hashi-asp steps`` shows, on Simon Tatham's puzzles.

    apt-get install sgt-puzzles                               # his generator
    python benchmarks/next_step.py                            # 7x7 and 10x10, 6 per level
    python benchmarks/next_step.py --folder next-step-set     # the set kept (made if absent)
    python benchmarks/next_step.py --sizes 7 10 15 --per-level 10
    python benchmarks/next_step.py --sizes 10 15 25 --per-level 2   # a press at 25x25

The set: for each size and each of his levels d0 (easy), d1 (medium) and d2 (hard),
``--per-level`` puzzles from ``sgt-bridges --generate 1 SxSi30e10m2dL#hashi-asp-next-S-L-i``
(the seed after ``#`` makes the same puzzles on every machine); with ``--folder``, one game ID
per line in ``DIR/SxS-dL.txt``, made there unless it exists.

For each puzzle, ``hashi-asp steps ID --format json`` (a process of its own) gives the whole
walkthrough; then, against one ``hashi-asp serve --port 0`` started here, Next step is pressed
as the page presses it: ``POST /api/steps`` with ``"steps": 1`` and the player's state, each
step returned applied as the state's form says (its counts added to ``narrowed``, the bridges
it makes certain drawn, a pair it leaves no bridge ruled out), until the answer says
``solved`` (or gives no step, or is not ``unfinished``).  Per puzzle: the presses, the steps of
``hashi-asp steps``, the steps repeated (a pair given the same counts twice), whether the
steps pressed are the walkthrough's, in its order, how it ended, and each press's seconds:
their median over the game, the first, the last and the slowest press (which one); per set,
the median and the largest of the games' medians and last presses.  ``--bridges-only``
sends only the bridges drawn, as the page did before the state had marks and narrowed counts
(pressing stops ``--most`` presses past the walkthrough's length).  Not a test: the seconds
depend on the machine and its load, printed with them.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

GENERATOR = "/usr/games/sgt-bridges"
LEVELS = (0, 1, 2)


def puzzle_set(folder: Path | None, sizes: list[int], per_level: int) -> dict[str, list[str]]:
    """Game IDs by set name (``7x7-d0``): read from ``folder`` where its file exists, else made
    (and written there, with a folder)."""
    found = {}
    for size in sizes:
        for level in LEVELS:
            name = f"{size}x{size}-d{level}"
            path = folder / f"{name}.txt" if folder is not None else None
            if path is not None and path.exists():
                found[name] = path.read_text().split()
                continue
            ids = []
            for i in range(1, per_level + 1):
                params = f"{size}x{size}i30e10m2d{level}#hashi-asp-next-{size}-{level}-{i}"
                made = subprocess.run(
                    [GENERATOR, "--generate", "1", params],
                    capture_output=True,
                    text=True,
                    check=True,
                )
                ids.append(made.stdout.strip())
            if path is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text("\n".join(ids) + "\n")
            found[name] = ids
    return found


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


def post(base: str, command: str, body: dict) -> tuple[int, dict]:
    request = urllib.request.Request(
        f"{base}api/{command}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def walkthrough(game_id: str) -> list[dict]:
    """The steps ``hashi-asp steps`` shows."""
    shown = subprocess.run(
        [sys.executable, "-m", "hashi_asp", "steps", game_id, "--format", "json"],
        capture_output=True,
        text=True,
    )
    if shown.returncode not in (0, 1):
        raise SystemExit(f"hashi-asp steps {game_id}: {shown.stderr.strip()}")
    return json.loads(shown.stdout)["steps"]


def applied(state: dict, step: dict) -> dict:
    """The state with ``step`` applied as the page applies it."""
    r1, c1, r2, c2 = step["pair"]
    counts = step["bridges"]
    bridges = [b for b in state["bridges"] if b[:4] != [r1, c1, r2, c2]]
    if counts and counts[0]:
        bridges.append([r1, c1, r2, c2, counts[0]])
    ruled_out = list(state["ruled_out"])
    if counts == [0] and [r1, c1, r2, c2] not in ruled_out:
        ruled_out.append([r1, c1, r2, c2])
    narrowed = [*state["narrowed"], [r1, c1, r2, c2, counts]]
    return {"bridges": bridges, "ruled_out": ruled_out, "narrowed": narrowed}


def pressed(base: str, game_id: str, most: int, bridges_only: bool = False) -> dict:
    """Next step pressed until the end (at most ``most`` times): the presses, the steps seen,
    the repeats, the last status, the seconds.  ``bridges_only``: the state sent is the
    bridges drawn alone."""
    state: dict = {"bridges": [], "ruled_out": [], "narrowed": []}
    seen: list[dict] = []
    repeats, status = 0, "unfinished"
    started = time.perf_counter()
    presses, timings = 0, []
    while presses < most:
        presses += 1
        sent = {"bridges": state["bridges"]} if bridges_only else state
        pressed_at = time.perf_counter()
        code, document = post(base, "steps", {"puzzle": game_id, "steps": 1, "given": sent})
        timings.append(time.perf_counter() - pressed_at)
        if code != 200:
            return {"error": f"{code}: {document.get('error')}", "presses": presses}
        status = document["status"]
        for step in document["steps"]:
            repeats += any(
                (s["pair"], s["bridges"]) == (step["pair"], step["bridges"]) for s in seen
            )
            seen.append(step)
            state = applied(state, step)
        if status != "unfinished" or not document["steps"]:
            break
    return {
        "presses": presses,
        "steps": seen,
        "repeats": repeats,
        "status": status,
        "seconds": time.perf_counter() - started,
        "press_seconds": timings,
    }


def press_figures(seconds: list[float]) -> dict:
    """A game's presses: the median over the game, the first, the last and the slowest press
    (and which one that was, from 1), in seconds (0 without a press)."""
    if not seconds:
        return {"median_press": 0.0, "first_press": 0.0, "last_press": 0.0, "most_press": 0.0}
    return {
        "median_press": round(statistics.median(seconds), 4),
        "first_press": round(seconds[0], 4),
        "last_press": round(seconds[-1], 4),
        "most_press": round(max(seconds), 4),
        "slowest_press": seconds.index(max(seconds)) + 1,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, help="keep the set here (made if absent)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[7, 10])
    parser.add_argument("--per-level", type=int, default=6)
    parser.add_argument("--json", type=Path, help="write every row here as JSON")
    parser.add_argument("--bridges-only", action="store_true", help="send the bridges alone")
    parser.add_argument("--most", type=int, default=10, help="presses past the walkthrough")
    args = parser.parse_args()

    sets = puzzle_set(args.folder, args.sizes, args.per_level)
    started_load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    server, base = start_server()
    rows = []
    try:
        for name, ids in sets.items():
            for game_id in ids:
                whole = walkthrough(game_id)
                most = len(whole) + args.most
                got = pressed(base, game_id, most, args.bridges_only)
                row = {
                    "set": name,
                    "puzzle": game_id,
                    "walkthrough": len(whole),
                    "presses": got["presses"],
                    "repeats": got.get("repeats"),
                    "same": got.get("steps") == whole,
                    "status": got.get("status", got.get("error")),
                    "seconds": round(got.get("seconds", 0.0), 3),
                    **press_figures(got.get("press_seconds", [])),
                }
                rows.append(row)
                print(
                    f"{name:9} {game_id[:44]:44} steps {row['walkthrough']:3} presses "
                    f"{row['presses']:3} repeats {row['repeats']} same {row['same']!s:5} "
                    f"{row['status']:10} {row['seconds']:.2f} s; a press: median "
                    f"{row['median_press']:.3f} first {row['first_press']:.3f} last "
                    f"{row['last_press']:.3f} most {row['most_press']:.3f} s (press "
                    f"{row.get('slowest_press', 0)})",
                    flush=True,
                )
    finally:
        server.terminate()
        server.wait()

    print()
    print(
        "set        puzzles  presses = steps  repeats  same steps  solved  s per press  "
        "median press (max)  last press (max)  slowest press"
    )
    for name in sets:
        mine = [row for row in rows if row["set"] == name]
        equal = sum(row["presses"] == row["walkthrough"] for row in mine)
        repeats = sum(row["repeats"] or 0 for row in mine)
        same = sum(row["same"] for row in mine)
        solved = sum(row["status"] == "solved" for row in mine)
        per_press = sum(row["seconds"] for row in mine) / max(1, sum(r["presses"] for r in mine))
        medians = [row["median_press"] for row in mine]
        lasts = [row["last_press"] for row in mine]
        print(
            f"{name:10} {len(mine):7}  {equal:15}  {repeats:7}  {same:10}  {solved:6}  "
            f"{per_press:11.3f}  {statistics.median(medians):6.3f} ({max(medians):.3f})   "
            f"{statistics.median(lasts):6.3f} ({max(lasts):.3f})  "
            f"{max(row['most_press'] for row in mine):13.3f}"
        )
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"\n{len(rows)} puzzles; load average {started_load:.2f} at the start, {load:.2f} at "
        "the end"
    )
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
