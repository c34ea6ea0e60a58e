"""The hard set: large puzzles with few double bridges, where the search (not grounding) takes
the time, solved by each connectivity formulation and clingo configuration.

    python benchmarks/hard.py make hard-set                       # the generator, fixed seeds
    python benchmarks/hard.py measure hard-set                    # the default variants
    python benchmarks/hard.py measure hard-set --islands 2000 --time-limit 60 \\
        --variant reach=reach --variant tree=tree --variant "handy=reach --configuration=handy"

``make`` writes ``--count`` puzzles (default 3) for each of 2 000, 5 000 and 10 000 islands and
each beta 0, 0.1, 0.25 and 0.5 (the share of double bridges), alpha 0.1, seeds 1, 2, ...:
``hashi-asp generate -n N --beta B --seed S --count C --out DIR/N-B``.

``measure`` solves every puzzle once per variant, each in its own process (``hashi-asp solve
FILE --format json --stats``, with ``--connectivity`` and ``--clingo`` from the variant), and
prints one Markdown table per size: for each beta and variant the median and largest time
(seconds of the whole process, start-up and grounding included), the median number of clingo's
conflicts (the same on every run and load, unlike seconds) and how many were solved within
``--time-limit``.  A variant is ``NAME=CONNECTIVITY [CLINGO OPTIONS]``, or a race:
``NAME=race`` (the default variants on the machine's cores) or ``NAME=race VARIANT; VARIANT``
(``--variant`` for each; a race's conflicts are its winner's, and the lines after the table
say which variant won how often).  Not a test: the load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

SIZES = (2000, 5000, 10000)
BETAS = ("0", "0.1", "0.25", "0.5")
VARIANTS = (
    "reach=reach",
    "tree=tree",
    "reach-handy=reach --configuration=handy",
    "tree-handy=tree --configuration=handy",
)


def make(folder: Path, sizes: list[int], betas: list[str], count: int) -> None:
    for islands in sizes:
        for beta in betas:
            out = folder / f"{islands}-{beta}"
            arguments = ["-n", str(islands), "--beta", beta, "--alpha", "0.1", "--seed", "1"]
            command = [
                "hashi-asp",
                "generate",
                *arguments,
                "--count",
                str(count),
                "--out",
                str(out),
            ]
            subprocess.run([*command, "-q", "--force"], check=True)
            print(f"{out}: {count} puzzles", file=sys.stderr)


def solve(path: Path, variant: str, time_limit: float) -> dict:
    """One solve in its own process: status, seconds, conflicts (the winner's, in a race)."""
    connectivity, _, options = variant.partition(" ")
    command = ["hashi-asp", "solve", str(path), "--format", "json", "--stats"]
    command += ["--connectivity", connectivity, "--time-limit", str(time_limit)]
    if connectivity == "race" and options:  # the variants raced, separated by ';'
        command += [f"--variant={raced.strip()}" for raced in options.split(";")]
    elif options:
        command += ["--clingo", options]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    try:
        document = json.loads(done.stdout)
    except ValueError:
        return {"status": f"error: {done.stderr.strip()[:80]}", "seconds": seconds}
    stats = document.get("stats", {})
    return {
        "status": document["status"],
        "seconds": seconds,
        "conflicts": stats.get("conflicts"),
        "variant": stats.get("variant"),
    }


def measure(
    folder: Path, variants: list[str], sizes: list[int], betas: list[str], time_limit: float
) -> None:
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; limit {time_limit} s")
    named = [variant.partition("=")[::2] for variant in variants]
    for islands in sizes:
        cells: dict[tuple[str, str], list[dict]] = defaultdict(list)
        for beta in betas:
            for path in sorted((folder / f"{islands}-{beta}").glob("*.has")):
                for name, variant in named:
                    cells[(beta, name)].append(solve(path, variant, time_limit))
        print(f"\n{islands} islands: median / max seconds, median conflicts, solved\n")
        print(f"(load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())})\n")
        print("| beta | " + " | ".join(name for name, _ in named) + " |")
        print("|---|" + "---|" * len(named))
        for beta in betas:
            row = []
            for name, _ in named:
                runs = cells.get((beta, name), [])
                if not runs:
                    row.append("")
                    continue
                seconds = [run["seconds"] for run in runs]
                conflicts = [run["conflicts"] for run in runs if run.get("conflicts") is not None]
                solved = sum(run["status"] in ("solved", "unique", "multiple") for run in runs)
                median_conflicts = f"{statistics.median(conflicts):.0f}" if conflicts else "-"
                row.append(
                    f"{statistics.median(seconds):.2f} / {max(seconds):.2f}, "
                    f"{median_conflicts}, {solved}/{len(runs)}"
                )
            print(f"| {beta} | " + " | ".join(row) + " |", flush=True)
        for (beta, name), runs in sorted(cells.items()):
            won = Counter(
                run["variant"]
                for run in runs
                if run.get("variant") and run["status"] in ("solved", "unique", "multiple")
            )
            if won:
                print(
                    f"beta {beta}, {name} won by: " + ", ".join(f"{v} {n}" for v, n in won.items())
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    making = commands.add_parser("make", help="generate the hard set")
    making.add_argument("folder", type=Path)
    making.add_argument("--islands", type=int, nargs="+", default=list(SIZES))
    making.add_argument("--beta", nargs="+", default=list(BETAS))
    making.add_argument("--count", type=int, default=3)
    measuring = commands.add_parser("measure", help="solve it with each variant")
    measuring.add_argument("folder", type=Path)
    measuring.add_argument("--islands", type=int, nargs="+", default=list(SIZES))
    measuring.add_argument("--beta", nargs="+", default=list(BETAS))
    measuring.add_argument("--variant", action="append", help="NAME=CONNECTIVITY [OPTIONS]")
    measuring.add_argument("--time-limit", type=float, default=120)
    options = parser.parse_args()
    if options.command == "make":
        make(options.folder, options.islands, options.beta, options.count)
    else:
        variants = options.variant or list(VARIANTS)
        measure(options.folder, variants, options.islands, options.beta, options.time_limit)


if __name__ == "__main__":
    main()
