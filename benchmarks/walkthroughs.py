"""Walkthroughs and their difficulty, measured on Simon Tatham's own puzzles and levels.

    apt-get install sgt-puzzles                                    # his generator
    python benchmarks/walkthroughs.py make tatham-set              # fixed seeds
    python benchmarks/walkthroughs.py measure tatham-set --jobs 2  # a study of the steps task

``make`` writes, for each size (7, 10, 15 and 30 by default) and each of his levels d0 (easy),
d1 (medium) and d2 (hard), ``--per-level`` puzzles from
``sgt-bridges --generate 1 SxSi30e10m2dL#hashi-asp-S-L-i`` (the seed after ``#`` makes the same
puzzles on every machine), one game ID per line, to ``DIR/SxS-dL.txt``.

``measure`` is a study (``hashi-asp study``, task ``steps``, in ``--jobs`` runner processes):
each puzzle walked through with every step checked (clingo confirms that the step follows
from its reason and that no island of the reason can be dropped; a step that fails is an
error row, named after the table), then per size and level: puzzles walked to the end,
steps, the steps that needed connectivity (and in how many puzzles), largest reason, seconds
per walkthrough (mean and maximum), the bands of the
difficulty and the mean score.  Then per size: the Spearman rank correlation between score
and level, and the agreement of band and level (easy = d0, medium = d1, hard = d2).  Whole
processes (``hashi-asp steps ID -n 1``) are timed by ``benchmarks/startup.py``'s kind of
measure, not here.  Not a test: times depend on the machine and its load, so the load
average is printed too.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

GENERATOR = "/usr/games/sgt-bridges"
LEVELS = (0, 1, 2)


def make(folder: Path, sizes: list[int], per_level: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for size in sizes:
        for level in LEVELS:
            ids = []
            for i in range(1, per_level + 1):
                params = f"{size}x{size}i30e10m2d{level}#hashi-asp-{size}-{level}-{i}"
                made = subprocess.run(
                    [GENERATOR, "--generate", "1", params],
                    capture_output=True,
                    text=True,
                    check=True,
                )
                ids.append(made.stdout.strip())
            (folder / f"{size}x{size}-d{level}.txt").write_text("\n".join(ids) + "\n")
            print(f"{size}x{size} d{level}: {len(ids)} puzzles", file=sys.stderr)


def ranks(values: list[float]) -> list[float]:
    """Ranks from 1, ties sharing their average rank."""
    order = sorted(range(len(values)), key=values.__getitem__)
    result = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            result[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return result


def spearman(x: list[float], y: list[float]) -> float:
    """Spearman's rank correlation: Pearson's correlation of the ranks (ties averaged)."""
    rx, ry = ranks(x), ranks(y)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    spread = (sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry)) ** 0.5
    return cov / spread if spread else 0.0


def walk(folder: Path, jobs: int) -> dict[str, list]:
    """Every puzzle of the set walked through as a study; the records by file, in order."""
    from hashi_asp import study
    from hashi_asp.study.plan import Instance, Plan
    from hashi_asp.study.variants import Variant
    from hashi_asp.workers.executors import Processes

    instances = [
        Instance(f"{path.name}:{number}", game_id)
        for path in sorted(folder.glob("*-d*.txt"))
        for number, game_id in enumerate(path.read_text().split(), 1)
    ]
    plan = Plan(instances, [Variant("steps", "")], "steps")
    records = study.run(plan, Processes(jobs)).records
    by_file: dict[str, list] = defaultdict(list)
    for record in sorted(records, key=lambda r: int(r.instance.rpartition(":")[2])):
        by_file[record.instance.rpartition(":")[0]].append(record)
    return by_file


def measure(folder: Path, jobs: int) -> None:
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores\n")
    walked = walk(folder, jobs)
    print(
        "| size | level | walked to the end | steps (mean) | connectivity steps (puzzles) "
        "| largest reason | seconds (mean / max) | bands | mean score |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    by_size: dict[str, list[tuple[int, float, str]]] = defaultdict(list)
    failed = []
    ordered = sorted(walked, key=lambda name: (int(name.split("x")[0]), name))
    for name in ordered:
        size, level = Path(name).stem.split("-d")
        records = walked[name]
        failed += [r for r in records if r.status not in ("solved", "stuck")]
        details = [json.loads(r.detail) for r in records if r.detail]
        for detail in details:
            rated = detail["difficulty"]
            by_size[size].append((int(level), rated["score"], rated["band"]))
        finished = sum(r.status == "solved" for r in records)
        step_counts = [detail["steps"] for detail in details]
        linked = [detail.get("connectivity_steps", 0) for detail in details]
        largest = max(detail["largest_reason"] for detail in details)
        times = [r.wall for r in records]
        bands = Counter(detail["difficulty"]["band"] for detail in details)
        score = statistics.fmean(detail["difficulty"]["score"] for detail in details)
        print(
            f"| {size} | d{level} | {finished}/{len(records)} | "
            f"{statistics.fmean(step_counts):.0f} | {sum(linked)} of {sum(step_counts)} "
            f"({sum(n > 0 for n in linked)}) | {largest} | "
            f"{statistics.fmean(times):.3f} / {max(times):.3f}"
            f" | {', '.join(f'{b} {n}' for b, n in sorted(bands.items()))} | {score:.3f} |",
            flush=True,
        )
    print("\n| size | puzzles | Spearman (score, level) | band = level | mean score d0 / d1 / d2 |")
    print("|---|---|---|---|---|")
    for size, rated in sorted(by_size.items(), key=lambda item: int(item[0].split("x")[0])):
        levels = [float(level) for level, _, _ in rated]
        scores = [score for _, score, _ in rated]
        agree = sum(band == ("easy", "medium", "hard")[level] for level, _, band in rated)
        means = [
            statistics.fmean(score for level, score, _ in rated if level == wanted)
            for wanted in LEVELS
        ]
        print(
            f"| {size} | {len(rated)} | {spearman(levels, scores):.3f} | {agree}/{len(rated)}"
            f" | {' / '.join(f'{m:.3f}' for m in means)} |"
        )
    for record in failed:
        print(f"{record.instance}: {record.status}: {record.message}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    making = commands.add_parser("make", help="make the calibration set with sgt-bridges")
    making.add_argument("folder", type=Path)
    making.add_argument("--sizes", type=int, nargs="+", default=[7, 10, 15, 30])
    making.add_argument("--per-level", type=int, default=30)
    measuring = commands.add_parser("measure", help="walk every puzzle through and rate it")
    measuring.add_argument("folder", type=Path)
    measuring.add_argument("--jobs", type=int, default=1, help="runner processes")
    options = parser.parse_args()
    if options.command == "make":
        make(options.folder, options.sizes, options.per_level)
    else:
        measure(options.folder, options.jobs)


if __name__ == "__main__":
    main()
