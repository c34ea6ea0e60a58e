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

REPO = Path(__file__).resolve().parent.parent
SEVEN = REPO / "puzzles" / "tatham" / "7x7i30e10m2d2.txt"
HUNDRED = REPO / "puzzles" / "coelho" / "Hs_16_100_25_00_001.has"
COELHO = sorted((REPO / "puzzles" / "coelho").glob("*.has"))

MINIMAL = """\
import sys

import clingo

control = clingo.Control(sys.argv[3:])
control.load(sys.argv[1])
control.load(sys.argv[2])
control.ground([("base", [])])
with control.solve(yield_=True) as models:
    for model in models:
        print(" ".join(map(str, model.symbols(shown=True))))
"""

MANY = """\
import sys

import clingo

encoding, options = sys.argv[1], sys.argv[3:]
for facts in open(sys.argv[2]).read().split():
    control = clingo.Control(options)
    control.load(encoding)
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


REFERENCES = {
    f"`hashi-asp bench -j 1` {len(COELHO)} puzzles": f"minimal script, {len(COELHO)} puzzles",
}


def many_cases(folder: Path, python: str, program: str, options: list[str]) -> dict[str, list[str]]:
    """The bundled Coelho puzzles solved in one process, by ``bench`` and by the script."""
    script = folder / "many.py"
    script.write_text(MANY)
    listed = folder / "many.txt"
    names = []
    for path in COELHO:
        names.append(str(folder / f"{path.stem}.lp"))
        Path(names[-1]).write_text(facts(read(path)))
    listed.write_text("\n".join(names))
    count = len(COELHO)
    return {
        f"minimal script, {count} puzzles": [
            python,
            str(script),
            str(encoding_path()),
            str(listed),
            *options,
        ],
        f"`hashi-asp bench -j 1` {count} puzzles": [program, "bench", "-j", "1", *map(str, COELHO)],
    }


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
        inputs = {}
        for name, puzzle in (("7x7", read(seven)), ("n=100", read(HUNDRED))):
            inputs[name] = Path(folder) / f"{name}.lp"
            inputs[name].write_text(facts(puzzle))
        minimal = [python, str(script), str(encoding_path())]
        cases = {
            "minimal script, 7x7": [*minimal, str(inputs["7x7"]), *options],
            "`hashi-asp solve` 7x7": [program, "solve", seven],
            "minimal script, n=100": [*minimal, str(inputs["n=100"]), *options],
            "`hashi-asp solve` n=100": [program, "solve", str(HUNDRED)],
            '`python -c "import hashi_asp"`': [python, "-c", "import hashi_asp"],
            '`python -c "import clingo"`': [python, "-c", "import clingo"],
            '`python -c "import clingo, click"`': [python, "-c", "import clingo, click"],
            '`python -c "pass"`': [python, "-c", "pass"],
        }
        if arguments.many:
            cases.update(many_cases(Path(folder), python, program, options))
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
        reference = REFERENCES.get(name, "minimal script, " + name.split()[-1])
        if name.startswith(("`hashi-asp solve`", "`hashi-asp bench")):
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
