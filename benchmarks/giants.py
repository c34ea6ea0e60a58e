"""The giants' study: first-solution times of each strategy on generated families the project
did not tune on (sizes, betas, board densities and shapes, alphas), every run a process of its
own with a time limit, CPU and wall seconds both kept.

    python benchmarks/giants.py                                   # the whole design
    python benchmarks/giants.py --sizes 1000 2000 --shapes square --time-limit 30
    python benchmarks/giants.py --report                          # the table of what is in

A family is (islands, beta, density, shape, alpha); its puzzles are made by the project's
generator with seeds 1, 2, ... (``--count``), on a board of the density's islands per cell
(``default``: the generator's own board) and the shape's ratio of columns to rows, so another
machine makes the same set.  The strategies (``--strategies``) are ``solve``'s options:

- ``reach``: the complete search of the whole puzzle (``--connectivity reach``);
- ``sweep``: the neighbourhood search with its first candidate swept from the top, forced on
  (``--connectivity lns -c sweep_first=yes``); ``sweep-left``: the same from the left;
- ``lns``: the neighbourhood search from the whole puzzle's candidate, the sweep forced off;
- ``auto``: the default.

Rows go to ``OUT/runs.csv`` as each run ends (a run already there is not made again), puzzles
to ``OUT/puzzles/``.  Each run is ``hashi-asp solve PUZZLE --time-limit T --format json`` in a
child process at ``nice -n 5``; its CPU seconds (user and system, the child's) are read from
``os.wait4`` beside the wall seconds.  Not a test: figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from hashi_asp.generation import GenerationError, default_size, generate, save
from hashi_asp.notations import write

SIZES = (1000, 2000, 5000, 10000, 20000)
BETAS = (0.0, 0.25, 0.5, 0.75)
DENSITIES = {"sparse": 2.0, "default": 1.0, "dense": 0.9}
"""Cells of the board, in cells of the generator's default board (0.33 islands per cell at
1 000 islands, 0.28 at 10 000): dense is about as dense as the generator fills a giant (0.85
fails at 10 000 islands)."""
SHAPES = {"square": 1, "wide": 3, "tall": 1 / 3}
"""Columns per row."""
ALPHAS = (0.1, 0.3)

STRATEGIES = {
    "reach": ["--connectivity", "reach"],
    "sweep": ["--connectivity", "lns", "-c", "sweep_first=yes"],
    "sweep-left": ["--connectivity", "lns", "-c", "sweep_first=yes", "-c", "sweep_from=left"],
    "lns": ["--connectivity", "lns", "-c", "sweep_first=no"],
    "auto": [],
}

BEFORE = ("auto-before",)
"""Rows of earlier versions' ``auto``, renamed in runs.csv so as to be kept beside the new."""

FIELDS = [
    "family",
    "islands",
    "beta",
    "density",
    "shape",
    "alpha",
    "seed",
    "board",
    "strategy",
    "status",
    "wall",
    "cpu",
    "windows",
    "rounds",
    "limit",
]


def board(islands: int, density: str, shape: str) -> tuple[int, int]:
    """Rows and columns of a family's board: the density's cells (the generator's default board's
    for ``default``) in the shape's ratio."""
    rows, cols = default_size(islands)
    cells = math.ceil(rows * cols * DENSITIES[density])
    ratio = SHAPES[shape]
    rows = math.ceil(math.sqrt(cells / ratio))
    return rows, math.ceil(cells / rows)


def family(islands: int, beta: float, density: str, shape: str, alpha: float) -> str:
    return f"{islands}-b{beta:g}-{density}-{shape}-a{alpha:g}"


def puzzle(
    folder: Path, islands: int, beta: float, density: str, shape: str, alpha: float, seed: int
) -> tuple[Path, str]:
    """A family's puzzle of ``seed``, made unless already there, and its board as ``WxH`` (a
    board the generator cannot fill grown a row and a column at a time, the same everywhere)."""
    rows, cols = board(islands, density, shape)
    path = folder / f"{family(islands, beta, density, shape, alpha)}-s{seed}.has"
    if path.exists():  # (its first line: rows, columns, islands)
        rows, cols, _ = map(int, path.read_text().split("\n", 1)[0].split())
        return path, f"{cols}x{rows}"
    for grown in range(20):
        try:
            made = generate(islands, rows + grown, cols + grown, alpha=alpha, beta=beta, seed=seed)
        except GenerationError:
            continue
        save(write(made.puzzle, "has"), path)
        return path, f"{cols + grown}x{rows + grown}"
    raise SystemExit(f"{path.name}: no board up to {cols + grown}x{rows + grown} holds it")


def run(path: Path, strategy: str, limit: float) -> dict:
    """One run of ``solve`` in a child process: status, wall and CPU seconds, the sweep's windows
    and the rounds (where the search said them)."""
    command = [
        "nice",
        "-n",
        "5",
        sys.executable,
        "-m",
        "hashi_asp",
        "solve",
        str(path),
        "--time-limit",
        str(limit),
        "--format",
        "json",
        "--stats",
        *STRATEGIES[strategy],
    ]
    started = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = child.stdout.read() if child.stdout else b""
    _, _, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    try:
        answer = json.loads(out)
    except json.JSONDecodeError:
        answer = {"status": "error"}
    stats = answer.get("stats") or {}
    return {
        "status": answer.get("status", "error"),
        "wall": round(wall, 3),
        "cpu": round(usage.ru_utime + usage.ru_stime, 3),
        "windows": stats.get("windows", ""),
        "rounds": stats.get("rounds", ""),
    }


def design(options: argparse.Namespace) -> list[tuple]:
    """The families measured, in the order given: each size, beta, density, shape and alpha."""
    return list(
        itertools.product(
            options.sizes, options.betas, options.densities, options.shapes, options.alphas
        )
    )


def measure(options: argparse.Namespace) -> None:
    out: Path = options.out
    (out / "puzzles").mkdir(parents=True, exist_ok=True)
    table = out / "runs.csv"
    done = {
        (row["family"], row["seed"], row["strategy"], f"{float(row['limit']):g}")
        for row in read(table)
    }
    new = not table.exists()
    with table.open("a", newline="") as handle:
        writer = csv.DictWriter(handle, FIELDS)
        if new:
            writer.writeheader()
        for islands, beta, density, shape, alpha in design(options):
            name = family(islands, beta, density, shape, alpha)
            for seed in range(1, options.count + 1):
                path, size = puzzle(out / "puzzles", islands, beta, density, shape, alpha, seed)
                for strategy in options.strategies:
                    if (name, str(seed), strategy, f"{options.time_limit:g}") in done:
                        continue
                    row = run(path, strategy, options.time_limit)
                    row.update(
                        family=name,
                        islands=islands,
                        beta=beta,
                        density=density,
                        shape=shape,
                        alpha=alpha,
                        seed=seed,
                        board=size,
                        strategy=strategy,
                        limit=options.time_limit,
                    )
                    writer.writerow(row)
                    handle.flush()
                    print(name, seed, strategy, row["status"], row["wall"], row["cpu"], flush=True)


def read(table: Path) -> list[dict]:
    if not table.exists():
        return []
    with table.open() as handle:
        return list(csv.DictReader(handle))


def report(table: Path) -> None:
    """Per family: each strategy's CPU seconds on each puzzle (a miss marked with its limit),
    the best strategy by the median (a miss counted as endless), and auto's ratio to it."""
    rows = read(table)
    families: dict[str, dict[str, list[dict]]] = {}
    for row in rows:  # (a run made again with a longer limit replaces the shorter)
        runs = families.setdefault(row["family"], {}).setdefault(row["strategy"], [])
        runs[:] = [
            r for r in runs if r["seed"] != row["seed"] or float(r["limit"]) > float(row["limit"])
        ]
        if not any(r["seed"] == row["seed"] for r in runs):
            runs.append(row)
    names = [s for s in [*STRATEGIES, *BEFORE] if any(s in f for f in families.values())]
    print("| family | board | " + " | ".join(names) + " | best | auto / best |")
    print("|---|---|" + "---|" * len(names) + "---|---|")
    for name, runs in families.items():
        cells, medians = [], {}
        for strategy in names:
            took = runs.get(strategy, [])
            if not took:
                cells.append("")
                continue
            seconds = [float(r["cpu"]) if r["status"] == "solved" else math.inf for r in took]
            misses = sum(r["status"] != "solved" for r in took)
            medians[strategy] = statistics.median(seconds)
            missed = f" ({misses} of {len(took)})" if misses and len(took) > 1 else ""
            cells.append(" ".join(cell(r) for r in took) + missed)
        if not medians:
            continue
        best = min(
            (s for s in medians if s != "auto" and s not in BEFORE), key=medians.get, default="auto"
        )
        if math.isinf(medians[best]):
            best, ratio = "none", math.nan  # (no strategy answered)
        else:
            ratio = medians.get("auto", math.nan) / max(medians[best], 0.01)
        board_ = next(iter(runs.values()))[0]["board"]
        print(f"| {name} | {board_} | " + " | ".join(cells) + f" | {best} | {ratio:.2f} |")


def cell(row: dict) -> str:
    """A run's CPU seconds, or none within its limit."""
    if row["status"] == "solved":
        return f"{float(row['cpu']):.1f}"
    return f"none in {float(row['limit']):g} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("giants"), help="puzzles and runs.csv")
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--betas", type=float, nargs="+", default=list(BETAS))
    parser.add_argument("--densities", nargs="+", default=list(DENSITIES), choices=DENSITIES)
    parser.add_argument("--shapes", nargs="+", default=list(SHAPES), choices=SHAPES)
    parser.add_argument("--alphas", type=float, nargs="+", default=list(ALPHAS))
    parser.add_argument("--strategies", nargs="+", default=list(STRATEGIES), choices=STRATEGIES)
    parser.add_argument("--count", type=int, default=1, help="puzzles per family (seeds 1..N)")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per run")
    parser.add_argument("--report", action="store_true", help="print the table of OUT/runs.csv")
    options = parser.parse_args()
    if options.report:
        report(options.out / "runs.csv")
    else:
        measure(options)


if __name__ == "__main__":
    main()
