"""How `fix` does: the fewest edits that make an ambiguous puzzle unique, in each mode.

    python benchmarks/fix.py                                   # generated 7x7 to 15x15
    python benchmarks/fix.py --coelho /path/to/coelho/100 --sample 40 --limit 60
    python benchmarks/fix.py --sizes 7 9 --per-size 5 --modes keep
    python benchmarks/fix.py --coelho /path/to/coelho/100 --sample 10 --limit 60 --modes default

The generated set: for each side from --sizes, puzzles of about 0.3 islands per cell made by
the project's generator without --unique, seeds 1, 2, ... until --per-size of them have
several solutions.  For each puzzle and mode (keep: the first solution kept, strictly; free;
default: keep mode, then free mode where keeping is proven impossible) it runs the library's
:func:`hashi_asp.fixing.fix` with --limit seconds and prints a Markdown table per set and
mode: share fixed, share proven fewest, edits per fixed puzzle (mean, max), seconds (mean,
max).  Every fix the library returns has been proven unique by a fresh solve and passed by the
checker; this script checks again (an independent `unique`) and counts any disagreement as a
failure.  Not a test: the figures depend on the machine and its load, so the load average is
printed too.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from hashi_asp import read, unique
from hashi_asp.fixing import fix
from hashi_asp.generation import generate


def generated(sizes: list[int], per_size: int) -> dict[str, list]:
    """Ambiguous generated puzzles by board side."""
    sets = {}
    for side in sizes:
        found, seed = [], 1
        while len(found) < per_size and seed < 50 * per_size:
            islands = max(4, round(0.3 * side * side))
            made = generate(islands, side, side, seed=seed)
            if unique(made.puzzle).status == "multiple":
                found.append((f"{side}x{side} seed {seed}", made.puzzle))
            seed += 1
        sets[f"{side}x{side}"] = found
    return sets


def coelho(folder: Path, sample: int) -> dict[str, list]:
    files = sorted(p for p in folder.iterdir() if p.suffix in {".has", ".txt", ".json"})
    if sample and sample < len(files):
        step = len(files) / sample
        files = [files[int(i * step)] for i in range(sample)]
    return {f"Coelho {folder.name}": [(p.name, read(p)) for p in files]}


def run(puzzles: list, mode: str, limit: float) -> dict:
    """keep: the first solution kept, strictly (``keep=``); free: ``free=True``; default:
    neither (keep mode, then free mode where keeping is proven impossible)."""
    rows = []
    for name, puzzle in puzzles:
        started = time.perf_counter()
        keep = unique(puzzle).solutions[0] if mode == "keep" else None
        found = fix(puzzle, keep=keep, free=mode == "free", time_limit=limit)
        seconds = time.perf_counter() - started
        ok = found.status == "fixed"
        if ok and unique(found.puzzle).status != "unique":
            print(f"  DISAGREEMENT on {name}: the fixed puzzle is not unique")
            ok = False
        rows.append((ok, ok and found.fewest, len(found.edits) if ok else None, seconds))
        print(
            f"  {name}: {found.status}, {len(found.edits)} edits, fewest {found.fewest}, "
            f"lower bound {found.lower_bound}, {found.rounds} rounds, {seconds:.2f} s"
            + (f", keeping {found.keeping}" if found.keeping else ""),
            flush=True,
        )
    return summary(rows)


def summary(rows: list) -> dict:
    n = len(rows)
    edits = [e for _, _, e, _ in rows if e is not None]
    seconds = [s for *_, s in rows]
    return {
        "puzzles": n,
        "fixed": 100 * sum(r[0] for r in rows) / max(1, n),
        "fewest": 100 * sum(bool(r[1]) for r in rows) / max(1, n),
        "edits": (statistics.mean(edits) if edits else 0, max(edits, default=0)),
        "seconds": (statistics.mean(seconds) if seconds else 0, max(seconds, default=0)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[7, 9, 11, 13, 15])
    parser.add_argument("--per-size", type=int, default=10)
    parser.add_argument("--coelho", type=Path, help="a folder of puzzles (Coelho et al.'s)")
    parser.add_argument("--sample", type=int, default=0, help="this many of its puzzles")
    parser.add_argument("--limit", type=float, default=10.0, help="seconds per fix")
    parser.add_argument(
        "--modes",
        nargs="*",
        default=["keep", "free", "default"],
        choices=["keep", "free", "default"],
    )
    arguments = parser.parse_args()
    sets = coelho(arguments.coelho, arguments.sample) if arguments.coelho else {}
    if not arguments.coelho or arguments.sizes != parser.get_default("sizes"):
        sets = {**generated(arguments.sizes, arguments.per_size), **sets}
    load = os.getloadavg()
    table = []
    for name, puzzles in sets.items():
        for mode in arguments.modes:
            print(f"{name}, {mode}:", flush=True)
            s = run(puzzles, mode, arguments.limit)
            table.append((name, mode, s))
    print(
        f"\nload average at start {load[0]:.2f}, at end {os.getloadavg()[0]:.2f}; "
        f"{time.strftime('%Y-%m-%d')}; limit {arguments.limit:g} s per fix\n"
    )
    print(
        "| set | mode | puzzles | fixed | proven fewest | edits mean (max) | seconds mean (max) |"
    )
    print("|---|---|---:|---:|---:|---:|---:|")
    for name, mode, s in table:
        print(
            f"| {name} | {mode} | {s['puzzles']} | {s['fixed']:.0f}% | {s['fewest']:.0f}% | "
            f"{s['edits'][0]:.2f} ({s['edits'][1]}) | "
            f"{s['seconds'][0]:.2f} ({s['seconds'][1]:.2f}) |"
        )


if __name__ == "__main__":
    main()
