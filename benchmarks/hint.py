"""Speed of `hint` (hashi_asp.hint): seconds per puzzle, grouped by number of islands.

    python benchmarks/hint.py /work/shared/puzzles/coelho/400          # a folder of puzzles
    python benchmarks/hint.py set/*.has --cli --repeat 3 --each

    # the 2 000-island puzzles of the README's table, made with the project's own generator:
    for beta in 0.75 0.5 0.25; do
        hashi-asp generate --islands 2000 --alpha 0.1 --beta $beta --seed 1 --count 5 --out g2000 -q
    done
    python benchmarks/hint.py g2000

For each puzzle it times the library call (wall clock and the process's CPU time, which the
load of other jobs inflates less) and with --cli the whole command `hashi-asp hint PUZZLE
--format json` in a child process (start-up, reading, drawing included).  With --repeat R
each figure is the fastest of R runs.  Prints a Markdown table per size: median, 90th
percentile and maximum, and how many puzzles ended unknown (time limit).  Not a test: figures
depend on the machine and its load, so the load average is printed too.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

from hashi_asp import hint, read

_SUFFIXES = {".has", ".txt", ".json"}


def puzzle_files(arguments: list[Path]) -> list[Path]:
    files = []
    for path in arguments:
        if path.is_dir():
            files += sorted(
                p
                for p in path.rglob("*")
                if p.suffix in _SUFFIXES and not p.name.endswith(".solution.json")
            )
        else:
            files.append(path)
    return files


def time_library(path: Path, time_limit: float) -> dict:
    puzzle = read(path)
    wall, cpu = time.perf_counter(), time.process_time()
    found = hint(puzzle, time_limit=time_limit)
    return {
        "islands": len(puzzle.islands),
        "status": found.status,
        "wall": time.perf_counter() - wall,
        "cpu": time.process_time() - cpu,
        "pairs": len(found.options),
        "undecided": len(found.undecided),
    }


def time_command(path: Path, time_limit: float) -> dict:
    program = Path(sys.executable).with_name("hashi-asp")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    done = subprocess.run(
        [str(program), "hint", str(path), "--format", "json", "--time-limit", str(time_limit)],
        capture_output=True,
    )
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"cli_wall": wall, "cli_cpu": cpu, "cli_exit": done.returncode}


def fastest(runs: list[dict]) -> dict:
    """Each timing the fastest of the runs (the other fields from the first)."""
    best = dict(runs[0])
    for key in ("wall", "cpu", "cli_wall", "cli_cpu"):
        if key in best:
            best[key] = min(run[key] for run in runs)
    return best


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]  # nearest rank, rounded down
    return f"{statistics.median(ordered):.3f} | {p90:.3f} | {ordered[-1]:.3f}"


def report(rows: list[dict], cli: bool) -> None:
    by_size: dict[int, list[dict]] = defaultdict(list)
    for row in rows:
        by_size[row["islands"]].append(row)
    columns = [("wall", "library wall s"), ("cpu", "library CPU s")]
    if cli:
        columns += [("cli_wall", "command wall s"), ("cli_cpu", "command CPU s")]
    print(
        "| islands | puzzles | undecided pairs (median share) | unknown | "
        + " | ".join(f"{title} median / p90 / max" for _, title in columns)
        + " |"
    )
    print("|---|---|---|---|" + "---|" * len(columns))
    for size, group in sorted(by_size.items()):
        share = statistics.median(r["undecided"] / r["pairs"] if r["pairs"] else 0 for r in group)
        unknown = sum(r["status"] == "unknown" for r in group)
        cells = " | ".join(
            summary([r[key] for r in group]).replace(" | ", " / ") for key, _ in columns
        )
        print(f"| {size} | {len(group)} | {share:.0%} | {unknown} | {cells} |")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("paths", nargs="+", type=Path, help="puzzle files or folders of them")
    parser.add_argument("--cli", action="store_true", help="also time the hashi-asp hint command")
    parser.add_argument("--repeat", type=int, default=1, help="runs per puzzle; the fastest counts")
    parser.add_argument("--time-limit", type=float, default=300, help="seconds per run")
    parser.add_argument("--each", action="store_true", help="print a line per puzzle as it is done")
    arguments = parser.parse_args()
    files = puzzle_files(arguments.paths)
    print(
        f"{len(files)} puzzles; {os.cpu_count()} CPUs; load average before: "
        + " ".join(f"{x:.2f}" for x in os.getloadavg()),
        flush=True,
    )
    rows = []
    for path in files:
        runs = []
        for _ in range(arguments.repeat):
            run = time_library(path, arguments.time_limit)
            if arguments.cli:
                run.update(time_command(path, arguments.time_limit))
            runs.append(run)
        row = fastest(runs)
        rows.append(row)
        if arguments.each:
            print(
                f"{path.name}: {row['islands']} islands, {row['status']}, "
                f"{row['undecided']}/{row['pairs']} undecided, {row['wall']:.3f} s "
                f"(CPU {row['cpu']:.3f} s)"
                + (
                    f", command {row['cli_wall']:.3f} s (CPU {row['cli_cpu']:.3f} s, exit "
                    f"{row['cli_exit']})"
                    if arguments.cli
                    else ""
                ),
                flush=True,
            )
    print("load average after: " + " ".join(f"{x:.2f}" for x in os.getloadavg()) + "\n")
    report(rows, arguments.cli)


if __name__ == "__main__":
    sys.exit(main())
