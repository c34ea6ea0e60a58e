"""Scaling benchmark: puzzles of 1 000, 10 000 and 100 000 islands made on demand with the
project's generator (alpha 0.1, beta 0.75, fixed seeds), each solved by `hashi-asp bench` in a
process of its own so that its peak memory is measured too.

    python benchmarks/scaling.py                          # 1 000 x5, 10 000 x3, 100 000 x1
    python benchmarks/scaling.py --dir /tmp/scaling --sizes 1000 10000 --seeds 3
    python benchmarks/scaling.py --beta 0.25 --sizes 1000 2000 --seeds 9   # few doubled bridges

With beta 0.75 three bridges in four are doubled and most of the time is grounding; with beta
0.25 most bridges are single, the numbers small and the search takes the time.

Prints a Markdown table.  Not a test: figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from hashi_asp.generation import file_name, generate, save
from hashi_asp.notations import write

DEFAULT_SEEDS = {1000: 5, 10000: 3, 100000: 1}


def make(folder: Path, islands: int, seeds: int, beta: float = 0.75) -> list[Path]:
    """The puzzles of one size, generated unless already there (same seeds, same puzzles)."""
    paths = []
    for seed in range(1, seeds + 1):
        made = generate(islands, alpha=0.1, beta=beta, seed=seed)
        path = folder / file_name(made.puzzle.rows, made.puzzle.cols, islands, 0.1, beta, seed)
        if not path.exists():
            save(write(made.puzzle, "has"), path)
        paths.append(path)
    return paths


def run(path: Path) -> tuple[dict, int]:
    """The bench row of one puzzle, solved in a child process, and that child's peak memory
    (KiB)."""
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "row.csv"
        child = subprocess.Popen(
            [sys.executable, "-m", "hashi_asp", "bench", str(path), "--csv", str(report)],
            stdout=subprocess.DEVNULL,
        )
        _, status, usage = os.wait4(child.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{path}: bench exited with {os.waitstatus_to_exitcode(status)}")
        (row,) = csv.DictReader(report.open())
    return row, usage.ru_maxrss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=Path("scaling"), help="where the puzzles live")
    parser.add_argument("--sizes", type=int, nargs="+", default=sorted(DEFAULT_SEEDS))
    parser.add_argument("--seeds", type=int, help="puzzles per size (default: 5, 3, 1)")
    parser.add_argument("--beta", type=float, default=0.75, help="share of doubled bridges")
    options = parser.parse_args()
    options.dir.mkdir(parents=True, exist_ok=True)

    print(f"beta {options.beta}")
    print(
        "| islands | board | puzzles | seconds (median) | max | read | ground | solve | choices | "
        "conflicts | µs per island | peak memory |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for islands in options.sizes:
        paths = make(
            options.dir, islands, options.seeds or DEFAULT_SEEDS.get(islands, 1), options.beta
        )
        rows, peaks = zip(*(run(path) for path in paths))
        middle = sorted(rows, key=lambda row: float(row["seconds"]))[len(rows) // 2]
        board = Path(middle["file"]).name.split("_")[1]
        seconds = statistics.median(float(row["seconds"]) for row in rows)
        worst = max(float(row["seconds"]) for row in rows)
        print(
            f"| {islands} | {board}x{board} | {len(rows)} | {seconds:.3f} | {worst:.3f} "
            f"| {float(middle['read_seconds']):.3f} | {float(middle['ground_seconds']):.3f} "
            f"| {float(middle['solve_seconds']):.3f} | {middle['choices']} "
            f"| {middle['conflicts']} | {seconds / islands * 1e6:.0f} "
            f"| {max(peaks) / 1024:.0f} MiB |",
            flush=True,
        )


if __name__ == "__main__":
    main()
