"""Start-up: `hashi-asp solve` as a whole process, side by side with a minimal script that does
the same clingo work (load encodings/hashi.lp and the puzzle's facts, ground, solve with the same
solver options, print the answer set) and nothing else.

    python benchmarks/startup.py              # 20 runs of each, interleaved
    python benchmarks/startup.py --runs 50
    python benchmarks/startup.py --many          # also the 48 bundled Coelho puzzles in one process

Run it with the Python of a regular install whose bytecode is compiled (`pip install .` writes
it): an editable install runs the checkout's sources, and with PYTHONDONTWRITEBYTECODE set
(or a read-only checkout) every run compiles them again.  The first line says which kind is
measured.  Every command runs in an empty temporary folder, so that `python -c "import
hashi_asp"` finds the installed package, not a checkout in the working directory.

The cases run in turn within each round, so that a change in the machine's load falls on all of
them alike.  Prints a Markdown table: best and median wall-clock milliseconds, the best CPU time
(user + system, which waiting for a busy processor does not inflate), and for `hashi-asp solve` the
ratios to the minimal script on the same puzzle (best, median and best CPU); importing clingo,
clingo and click (what any click command line over clingo loads before its own code), and an
empty Python are there for reference.
The puzzles are the first 7x7 game ID of puzzles/tatham/7x7i30e10m2d2.txt and the Coelho et al.
puzzle puzzles/coelho/Hs_16_100_25_00_001.has (100 islands).  With ``--many``, what a command
that solves many puzzles in one process leaves of the start-up: ``hashi-asp bench -j 1`` over
the 48 bundled Coelho puzzles (100 to 400 islands; it reads, solves and checks each, in this
process) against the minimal script solving the same 48 in one process (a new ``Control`` for
each).  Not a test: figures depend on the machine and its load (the load average is printed
too).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import hashi_asp
from hashi_asp import encoding_path, facts, read
from hashi_asp.asp.control import SOLVER_OPTIONS
from hashi_asp.puzzle import Puzzle

REPO = Path(__file__).resolve().parent.parent
SEVEN = REPO / "puzzles" / "tatham" / "7x7i30e10m2d2.txt"
HUNDRED = REPO / "puzzles" / "coelho" / "Hs_16_100_25_00_001.has"
COELHO = sorted((REPO / "puzzles" / "coelho").glob("*.has"))

MINIMAL = """\
import os
import sys

import clingo

for facts in sys.argv[2].split(os.pathsep):  # one puzzle, or many solved in this one process
    control = clingo.Control(sys.argv[3:])
    control.load(sys.argv[1])
    control.load(facts)
    control.ground([("base", [])])
    with control.solve(yield_=True) as models:
        for model in models:
            print(" ".join(map(str, model.symbols(shown=True))))
"""


def first_game_id(path: Path) -> str:
    lines = (line.strip() for line in path.read_text().splitlines())
    return next(line for line in lines if line and not line.startswith("#"))


def install_kind() -> str:
    """Where the measured package comes from, and whether its bytecode is there to load."""
    source = Path(hashi_asp.__file__).resolve().parent
    editable = source == REPO / "hashi_asp"
    compiled = all(
        Path(importlib.util.cache_from_source(str(module))).is_file()
        for module in source.rglob("*.py")
    )
    kind = "editable install (the checkout's sources)" if editable else "regular install"
    return f"{kind} at {source}, bytecode {'compiled' if compiled else 'NOT compiled'}"


def timed(command: list[str], folder: str) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one run of ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)}: exit {done.returncode}\n{done.stderr.decode()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def facts_file(folder: Path, name: str, puzzle: Puzzle) -> Path:
    """``puzzle``'s facts written to ``folder`` (the minimal script's input)."""
    path = folder / f"{name}.lp"
    path.write_text(facts(puzzle))
    return path


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=20, help="Timed runs of each case [20].")
    parser.add_argument("--warm-up", type=int, default=3, help="Untimed runs first [3].")
    parser.add_argument(
        "--many", action="store_true", help="Also the bundled Coelho puzzles in one process."
    )
    arguments = parser.parse_args()
    load = os.getloadavg()[0]
    python = sys.executable
    program = str(Path(python).with_name("hashi-asp"))
    seven = first_game_id(SEVEN)
    options = [*SOLVER_OPTIONS, "--models=1"]
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "minimal.py"
        script.write_text(MINIMAL)

        def minimal(*inputs: Path) -> list[str]:
            files = os.pathsep.join(map(str, inputs))
            return [python, str(script), str(encoding_path()), files, *options]

        seven_facts = facts_file(Path(folder), "7x7", read(seven))
        hundred_facts = facts_file(Path(folder), "n=100", read(HUNDRED))
        cases = {
            "minimal script, 7x7": minimal(seven_facts),
            "`hashi-asp solve` 7x7": [program, "solve", seven],
            "minimal script, n=100": minimal(hundred_facts),
            "`hashi-asp solve` n=100": [program, "solve", str(HUNDRED)],
            '`python -c "import hashi_asp"`': [python, "-c", "import hashi_asp"],
            '`python -c "import clingo"`': [python, "-c", "import clingo"],
            '`python -c "import clingo, click"`': [python, "-c", "import clingo, click"],
            '`python -c "pass"`': [python, "-c", "pass"],
        }
        references = {  # each command measured against the script doing its clingo work
            "`hashi-asp solve` 7x7": "minimal script, 7x7",
            "`hashi-asp solve` n=100": "minimal script, n=100",
        }
        if arguments.many:
            many = f"{len(COELHO)} puzzles"
            inputs = [facts_file(Path(folder), path.stem, read(path)) for path in COELHO]
            cases[f"minimal script, {many}"] = minimal(*inputs)
            bench = f"`hashi-asp bench -j 1` {many}"
            cases[bench] = [program, "bench", "-j", "1", *map(str, COELHO)]
            references[bench] = f"minimal script, {many}"
        walls: dict[str, list[float]] = {name: [] for name in cases}
        cpus: dict[str, list[float]] = {name: [] for name in cases}
        for round_ in range(arguments.warm_up + arguments.runs):
            for name, command in cases.items():
                wall, cpu = timed(command, folder)
                if round_ >= arguments.warm_up:
                    walls[name].append(wall * 1000)
                    cpus[name].append(cpu * 1000)
    print(f"{install_kind()}; Python {sys.version.split()[0]}; {seven}")
    print(f"load average (1 min) before and after: {load:.2f}, {os.getloadavg()[0]:.2f}")
    print()
    print("| case | best ms | median ms | best CPU ms | ratio best | ratio median | ratio CPU |")
    print("|---|---|---|---|---|---|---|")
    for name in cases:
        best, median = min(walls[name]), statistics.median(walls[name])
        ratio = ["", "", ""]
        if name in references:
            reference = references[name]
            ratio = [
                f"{best / min(walls[reference]):.2f}",
                f"{median / statistics.median(walls[reference]):.2f}",
                f"{min(cpus[name]) / min(cpus[reference]):.2f}",
            ]
        print(
            f"| {name} | {best:.1f} | {median:.1f} | {min(cpus[name]):.1f} | {' | '.join(ratio)} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
