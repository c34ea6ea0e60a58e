"""The flow formulation under each engine that can state it, beside reachability: which engine
``--connectivity flow`` uses is chosen by these figures (docs/encoding.md, "The flow").

    python benchmarks/flow_engines.py PUZZLE... [--time-limit 10]

Engines (each the front end of its own Python package, ``python -m MODULE``, on the puzzle's
facts as ``hashi-asp facts`` exports them, with hashi-asp's solver options, for the first
answer):

- ``reach``: ``encodings/hashi.lp`` under clingo, for reference;
- ``binary``: ``encodings/bridges.lp`` and ``encodings/flow.lp`` under clingo (what
  ``--connectivity flow`` runs): integer flows in binary, balances as ``#sum``;
- ``unary``: ``benchmarks/flow/unary.lp`` under clingo: integer flows in unary;
- ``clingcon``: ``benchmarks/flow/clingcon.lp`` under clingcon (``pip install clingcon``):
  integer variables and ``&sum`` constraints;
- ``lpx``: ``benchmarks/flow/lpx.lp`` under clingo-lpx (``pip install clingo-lpx``): rational
  flows, a simplex solver.

An engine whose package is not installed is left out.  The engines run one after another on
each puzzle (paired: a change of the machine's load falls on all of them alike); each answer's
bridges are judged by hashi-asp's checker, so a fast wrong answer counts as a failure.  Prints
one Markdown table: per engine, how many were solved within ``--time-limit``, the median and
largest seconds (clingo's own total, grounding included; an unsolved puzzle counts as the
limit), and the load average before and after.  Not a test.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from hashi_asp import Solution, bridge, check, facts, read
from hashi_asp.asp.control import SOLVER_OPTIONS

REPO = Path(__file__).resolve().parent.parent
ENCODINGS = REPO / "encodings"
HERE = Path(__file__).resolve().parent / "flow"

ENGINES = {
    "reach": ("clingo", [ENCODINGS / "hashi.lp"]),
    "binary": ("clingo", [ENCODINGS / "bridges.lp", ENCODINGS / "flow.lp"]),
    "unary": ("clingo", [ENCODINGS / "bridges.lp", HERE / "unary.lp"]),
    "clingcon": ("clingcon", [ENCODINGS / "bridges.lp", HERE / "clingcon.lp"]),
    "lpx": ("clingolpx", [ENCODINGS / "bridges.lp", HERE / "lpx.lp"]),
}
BRIDGE = re.compile(r"bridge\((-?\d+),(-?\d+),(-?\d+),(-?\d+),(-?\d+)\)")


def run(engine: str, facts_file: Path, seconds: float) -> tuple[str, float, list[str]]:
    """One engine on one puzzle: its verdict, its seconds, the first answer's atoms."""
    module, files = ENGINES[engine]
    command = [sys.executable, "-m", module, *map(str, files), str(facts_file), "--outf=2"]
    command += [*SOLVER_OPTIONS, f"--time-limit={max(1, round(seconds))}"]
    try:
        completed = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60)
        output = json.loads(completed.stdout)
    except (subprocess.TimeoutExpired, json.JSONDecodeError):
        return "UNKNOWN", seconds, []
    witnesses = output["Call"][-1].get("Witnesses", []) if output.get("Call") else []
    atoms = witnesses[0]["Value"] if witnesses else []
    return output["Result"], float(output["Time"]["Total"]), atoms


def answer(atoms: list[str]) -> Solution:
    found = []
    for atom in atoms:
        match = BRIDGE.fullmatch(atom)
        if match:
            r1, c1, r2, c2, k = map(int, match.groups())
            found.append(bridge((r1, c1), (r2, c2), k))
    return Solution.of(found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("puzzles", nargs="+", type=Path)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--engine", action="append", choices=list(ENGINES))
    options = parser.parse_args()
    engines = [
        name
        for name in options.engine or list(ENGINES)
        if importlib.util.find_spec(ENGINES[name][0]) is not None
    ]
    load_before = os.getloadavg()[0]
    seconds: dict[str, list[float]] = {name: [] for name in engines}
    solved = dict.fromkeys(engines, 0)
    wrong = dict.fromkeys(engines, 0)
    with tempfile.TemporaryDirectory() as folder:
        for path in options.puzzles:
            puzzle = read(path)
            facts_file = Path(folder) / "facts.lp"
            facts_file.write_text(facts(puzzle))
            for name in engines:
                verdict, took, atoms = run(name, facts_file, options.time_limit)
                if verdict == "SATISFIABLE" and check(puzzle, answer(atoms)):
                    wrong[name] += 1
                    verdict = "WRONG"
                if verdict == "SATISFIABLE":
                    solved[name] += 1
                seconds[name].append(took if verdict == "SATISFIABLE" else options.time_limit)
                print(f"{path.name} {name} {verdict} {took:.3f}", file=sys.stderr)
    print(f"{len(options.puzzles)} puzzles, first answer, limit {options.time_limit:g} s\n")
    print("| engine | solved | wrong | median s | largest s |")
    print("|---|---|---|---|---|")
    for name in engines:
        times = seconds[name]
        print(
            f"| {name} | {solved[name]} | {wrong[name]} | {statistics.median(times):.3f} "
            f"| {max(times):.3f} |"
        )
    print(f"\nload average {load_before:.2f} -> {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
