"""Generation benchmark: time per unique puzzle, repair rounds, plain generation at scale, Simon
Tatham's generator beside it, and statistics against the Coelho et al. instances.

    python benchmarks/generation.py                      # the default run (a few minutes)
    python benchmarks/generation.py --unique 100 400 1000 --count 9 --plain 1000 10000 100000
    python benchmarks/generation.py --coelho /path/to/coelho --tatham 60x60i30e10m2d2

Prints Markdown tables.  Not a test: figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

from hashi_asp import check, read, solve
from hashi_asp.generation import default_size, generate


def unique_table(sizes: list[str], count: int) -> None:
    print(
        "| islands | board | median s | min s | max s | median rounds | median changes "
        "| layouts | verified |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for size in sizes:
        islands, _, board = size.partition(":")  # N, or N:WxH for a board other than the default
        islands = int(islands)
        rows, cols = reversed(list(map(int, board.split("x")))) if board else default_size(islands)
        made = [
            generate(islands, rows, cols, seed=seed, unique=True) for seed in range(1, count + 1)
        ]
        verified = 0
        for g in made:  # a separate exhaustive solve, not timed
            result = solve(g.puzzle, models=0 if islands <= 1000 else 2)
            verified += result.status == "unique" and result.solutions[0] == g.solution
        seconds = [g.seconds for g in made]
        print(
            f"| {islands} | {cols}x{rows} | {statistics.median(seconds):.2f} | {min(seconds):.2f} "
            f"| {max(seconds):.2f} | {statistics.median(g.repair_rounds for g in made):g} "
            f"| {statistics.median(g.repairs for g in made):g} "
            f"| {sum(g.attempts for g in made)}/{count} | {verified}/{count} |",
            flush=True,
        )


def plain_table(sizes: list[int]) -> None:
    print("| islands | board | seconds | valid |")
    print("|---|---|---|---|")
    for islands in sizes:
        started = time.perf_counter()
        g = generate(islands, seed=1)
        seconds = time.perf_counter() - started
        rows, cols = default_size(islands)
        print(
            f"| {islands} | {cols}x{rows} | {seconds:.2f} | {check(g.puzzle, g.solution) == []} |",
            flush=True,
        )


def tatham_table(parameters: list[str], count: int, timeout: float) -> None:
    program = shutil.which("sgt-bridges") or "/usr/games/sgt-bridges"
    if not Path(program).exists():
        print("sgt-bridges not found (Debian package sgt-puzzles): skipped")
        return
    print("| sgt-bridges parameters | median islands | median s | min s | max s | timed out |")
    print("|---|---|---|---|---|---|")
    for parameter in parameters:
        seconds, islands, late = [], [], 0
        for seed in range(1, count + 1):
            started = time.perf_counter()
            try:
                done = subprocess.run(
                    [program, "--generate", "1", f"{parameter}#{seed}"],
                    capture_output=True,
                    text=True,
                    timeout=timeout,
                )
            except subprocess.TimeoutExpired:
                late += 1
                continue
            seconds.append(time.perf_counter() - started)
            description = done.stdout.strip().split(":", 1)[1]
            islands.append(sum(ch.isdigit() or "A" <= ch <= "G" for ch in description))
        if seconds:
            print(
                f"| {parameter} | {statistics.median(islands):g} "
                f"| {statistics.median(seconds):.2f} "
                f"| {min(seconds):.2f} | {max(seconds):.2f} | {late}/{count} (> {timeout:g} s) |",
                flush=True,
            )
        else:
            print(f"| {parameter} | - | - | - | - | {late}/{count} (> {timeout:g} s) |", flush=True)


def layout(puzzle) -> dict:
    """Statistics of the island layout alone, so generated and published puzzles compare fairly."""
    islands = puzzle.islands
    gaps = []
    for r, c in islands:
        for dr, dc in ((0, 1), (1, 0)):
            y, x = r + dr, c + dc
            while y < puzzle.rows and x < puzzle.cols:
                if (y, x) in islands:
                    gaps.append(y - r + x - c)
                    break
                y, x = y + dr, x + dc
    n = len(islands)
    return {
        "islands per cell": n / (puzzle.rows * puzzle.cols),
        "seeing pairs per island": len(gaps) / n,
        "adjacent share": sum(g == 1 for g in gaps) / len(gaps),
        "mean gap": statistics.mean(gaps),
        "mean number": statistics.mean(islands.values()),
    }


def coelho_table(folder: Path, per_group: int) -> None:
    """Each group of the published set beside puzzles generated with its parameters.  The file
    name's third field X behaves as the share of SINGLE bridges (X = 25 has about 75% doubles),
    so the generated twin uses --beta 1 - X/100; its extra bridges are never double, ours are
    drawn like every other bridge (step 3 after step 2, as the steps are stated)."""
    groups: dict[tuple, list[Path]] = defaultdict(list)
    for path in sorted(folder.rglob("Hs_*.has")):
        _, size, n, third, alpha, _ = path.stem.split("_")
        groups[int(size), int(n), int(third), int(alpha)].append(path)
    keys = [
        "islands per cell",
        "seeing pairs per island",
        "adjacent share",
        "mean gap",
        "mean number",
    ]
    print("| group | source | " + " | ".join(keys) + " | double share (tree) |")
    print("|---|---|" + "---|" * (len(keys) + 1))
    for (size, n, third, alpha), paths in sorted(groups.items()):
        theirs = [read(p) for p in paths[:per_group]]
        beta = (100 - third) / 100
        ours = [
            generate(n, size, size, alpha / 100, beta, seed=seed)
            for seed in range(1, per_group + 1)
        ]
        for source, puzzles, doubles in (
            ("published", theirs, [_tree_doubles(p, n, alpha) for p in theirs]),
            (f"generated, beta {beta:g}", [g.puzzle for g in ours], [g.double_share for g in ours]),
        ):
            stats = [layout(p) for p in puzzles]
            cells = " | ".join(f"{statistics.mean(s[k] for s in stats):.3f}" for k in keys)
            print(
                f"| Hs_{size}_{n}_{third:02d}_{alpha:02d} | {source} | {cells} | "
                f"{statistics.mean(doubles):.3f} |",
                flush=True,
            )


def _tree_doubles(puzzle, n: int, alpha: int) -> float:
    """Share of doubles among the published tree bridges, from the numbers alone, assuming (as
    the numbers show) that the floor(alpha * n) extra bridges are single."""
    total = sum(puzzle.islands.values()) // 2
    extra = alpha * n // 100
    return (total - (n - 1) - extra) / (n - 1)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--unique", nargs="*", default=["100", "400", "1000"], help="island counts, each N or N:WxH"
    )
    parser.add_argument("--count", type=int, default=9, help="puzzles per size")
    parser.add_argument("--plain", type=int, nargs="*", default=[1000, 10_000, 100_000])
    parser.add_argument(
        "--tatham", nargs="*", default=["30x30i30e10m2d2", "45x45i30e10m2d2", "60x60i30e10m2d2"]
    )
    parser.add_argument("--tatham-count", type=int, default=5)
    parser.add_argument("--tatham-timeout", type=float, default=300)
    parser.add_argument("--coelho", type=Path, help="folder of the published .has files")
    parser.add_argument("--per-group", type=int, default=10)
    arguments = parser.parse_args()
    if arguments.unique:
        print("\n## Unique puzzles (hashi-asp generate --unique, alpha 0.1, beta 0.5)\n")
        unique_table(arguments.unique, arguments.count)
    if arguments.tatham:
        print("\n## Simon Tatham's generator (sgt-bridges --generate 1 PARAMS#SEED)\n")
        tatham_table(arguments.tatham, arguments.tatham_count, arguments.tatham_timeout)
    if arguments.plain:
        print("\n## Plain generation (no uniqueness)\n")
        plain_table(arguments.plain)
    if arguments.coelho:
        print("\n## Against the published Coelho et al. instances\n")
        coelho_table(arguments.coelho, arguments.per_group)


if __name__ == "__main__":
    sys.exit(main())
