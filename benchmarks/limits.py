"""How far past --time-limit each searching command returns, as a whole process.

    python benchmarks/limits.py                    # limits of 1 and 5 s, 3 runs each
    python benchmarks/limits.py --limits 0.5 2 --runs 5

Each command gets a search that cannot end on its own (the Prolog report's 5x5 plus a pigeonhole
problem, 13 pigeons in 12 holes, that clingo needs far longer than minutes to refute), so the
limit is what stops it; `generate` is asked for a 100 000-island unique puzzle.  Prints a
Markdown table: the limit, the worst wall-clock time over the runs, the margin (worst minus
limit, start-up included) and the exit codes seen (3 expected).  Not a test: the margin depends
on the machine and its load.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PROLOG = REPO / "puzzles" / "prolog-5x5.txt"
PIGEONS = REPO / "tests" / "programs" / "pigeons.lp"  # 13 pigeons in 12 holes: no end


def commands(pigeons: Path) -> dict[str, list[str]]:
    search = ["--add", str(pigeons)]
    return {
        "solve": ["solve", str(PROLOG), *search],
        "solve -n 0": ["solve", str(PROLOG), "-n", "0", *search],
        "unique": ["unique", str(PROLOG), *search],
        "count": ["count", str(PROLOG), *search],
        "hint": ["hint", str(PROLOG), *search],
        "bench": ["bench", str(PROLOG), *search],
        "generate --unique": ["generate", "--islands", "100000", "--unique", "--seed", "1"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--limits", type=float, nargs="+", default=[1, 5])
    parser.add_argument("--runs", type=int, default=3)
    arguments = parser.parse_args()
    program = Path(sys.executable).with_name("hashi-asp")
    with tempfile.TemporaryDirectory() as folder:
        print("| command | limit s | worst wall s | margin s | exit codes |")
        print("|---|---|---|---|---|")
        for name, args in commands(PIGEONS).items():
            for limit in arguments.limits:
                walls, codes = [], set()
                for _ in range(arguments.runs):
                    started = time.perf_counter()
                    done = subprocess.run(
                        [str(program), *args, "--time-limit", str(limit)],
                        capture_output=True,
                        cwd=folder,
                    )
                    walls.append(time.perf_counter() - started)
                    codes.add(done.returncode)
                worst = max(walls)
                print(
                    f"| {name} | {limit:g} | {worst:.2f} | {worst - limit:+.2f} | "
                    f"{', '.join(map(str, sorted(codes)))} |",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
