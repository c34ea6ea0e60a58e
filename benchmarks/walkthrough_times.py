"""How long `hashi-asp steps --brief` and `hashi-asp difficulty` take, by the number of islands:
the times docs/walkthroughs.md quotes.

    python benchmarks/walkthrough_times.py                                    # generated only
    python benchmarks/walkthrough_times.py --coelho /work/shared/puzzles/coelho --runs 3

For each size (25, 100, 200 and 400 islands by default) it makes unique puzzles with
``hashi-asp generate -n N --unique --seed S`` (seeds 1 to ``--seeds``) and, with ``--coelho``,
takes the ``_001`` puzzles of the Coelho et al. set of that size with the parameters of
``--coelho-kinds`` (their puzzles have several solutions: ``steps`` walks until it is stuck,
``difficulty`` refuses them).  Each command runs ``--runs`` times (``--coelho-runs`` for the
Coelho puzzles) as a whole process (start-up, reading and printing included), stopped by its
own ``--time-limit`` if given; a puzzle's figure is the median of its runs.  Prints per size,
source and command: the puzzles, the median and the largest of their wall-clock seconds, the
median CPU seconds (which the load of other jobs inflates less), and how the runs ended.  Not a
test: times depend on the machine and its load, so the load average is printed before and after.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

COMMANDS = {"steps --brief": ["steps", "--brief"], "difficulty": ["difficulty"]}
VERDICTS = ("solved", "stuck", "contradiction", "multiple", "unsolvable", "unknown")


def program() -> str:
    return str(Path(sys.executable).with_name("hashi-asp"))


def generated(folder: Path, islands: int, seeds: int) -> list[Path]:
    made = []
    for seed in range(1, seeds + 1):
        path = folder / f"generated-{islands}-{seed}.has"
        with path.open("w") as out:
            subprocess.run(
                [program(), "generate", "-n", str(islands), "--unique", "--seed", str(seed)],
                stdout=out,
                stderr=subprocess.DEVNULL,
                check=True,
            )
        made.append(path)
    return made


def coelho(folder: Path, islands: int, kinds: list[str]) -> list[Path]:
    found = []
    for kind in kinds:
        found += sorted((folder / str(islands)).glob(f"Hs_*_{islands}_{kind}_001.has"))
    return found


def timed(command: list[str], path: Path, limit: float | None) -> tuple[float, float, str]:
    """Wall-clock and CPU seconds of one run, and how it ended (the verdict's first word, or
    the difficulty's band; ``unknown`` or ``exit 3`` at the time limit)."""
    arguments = [program(), *command[:1], str(path), *command[1:]]
    arguments += ["--time-limit", str(limit)] if limit else []
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(arguments, capture_output=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = done.stdout.decode().splitlines()
    words = [word for line in lines if (word := line.split(" ")[0].rstrip(":")) in VERDICTS]
    if words:
        ended = words[-1]
    elif lines and "(" in lines[0]:
        ended = lines[0].split("(")[1].split(";")[0]  # 0.62 (hard; ...): the band
    else:
        ended = f"exit {done.returncode}"
    return wall, cpu, ended


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[25, 100, 200, 400])
    parser.add_argument("--seeds", type=int, default=3, help="generated puzzles per size [3]")
    parser.add_argument("--coelho", type=Path, help="the Coelho et al. set: DIR/N/*.has")
    parser.add_argument("--coelho-kinds", nargs="+", default=["25_00", "50_10", "75_15"])
    parser.add_argument("--runs", type=int, default=3, help="runs of each command [3]")
    parser.add_argument("--coelho-runs", type=int, help="for the Coelho puzzles [--runs]")
    parser.add_argument("--time-limit", type=float, help="each command's --time-limit")
    options = parser.parse_args()
    print("load average before: " + " ".join(f"{x:.2f}" for x in os.getloadavg()), flush=True)
    rows = defaultdict(list)
    with tempfile.TemporaryDirectory() as folder:
        for islands in options.sizes:
            sources = {"generate --unique": generated(Path(folder), islands, options.seeds)}
            if options.coelho and islands != 25:
                sources["Coelho et al."] = coelho(options.coelho, islands, options.coelho_kinds)
            for source, paths in sources.items():
                for name, command in COMMANDS.items():
                    for path in paths:
                        many = options.runs if source != "Coelho et al." else options.coelho_runs
                        runs = [
                            timed(command, path, options.time_limit)
                            for _ in range(many or options.runs)
                        ]
                        wall = statistics.median(run[0] for run in runs)
                        cpu = statistics.median(run[1] for run in runs)
                        ended = Counter(run[2] for run in runs).most_common(1)[0][0]
                        rows[(islands, source, name)].append((wall, cpu, ended))
                        print(f"  {path.name} {name}: {wall:.2f} s ({ended})", file=sys.stderr)
    print("load average after: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    coelho_runs = options.coelho_runs or options.runs
    print(
        f"\n{options.runs} runs of each command per puzzle ({coelho_runs} of a Coelho et al. "
        "puzzle); a puzzle's figure is their median\n"
    )
    print("| islands | puzzles | command | wall s, median / max | CPU s, median | ended |")
    print("|---|---|---|---|---|---|")
    for (islands, source, name), found in rows.items():
        walls = [wall for wall, _, _ in found]
        cpus = [cpu for _, cpu, _ in found]
        ended = ", ".join(f"{n} {word}" for word, n in Counter(e for *_, e in found).items())
        print(
            f"| {islands} | {len(found)} {source} | `{name}` | {statistics.median(walls):.2f} / "
            f"{max(walls):.2f} | {statistics.median(cpus):.2f} | {ended} |"
        )


if __name__ == "__main__":
    main()
