"""The hard set: large puzzles with few double bridges, where the search (not grounding) takes
the time, solved by each connectivity formulation and clingo configuration.

    python benchmarks/hard.py make hard-set                       # the generator, fixed seeds
    python benchmarks/hard.py measure hard-set                    # the default variants
    python benchmarks/hard.py measure hard-set --islands 2000 --time-limit 60 \\
        --variant reach=reach --variant tree=tree --variant "handy=reach --configuration=handy"

``make`` writes ``--count`` puzzles (default 3) for each of 2 000, 5 000 and 10 000 islands and
each beta 0, 0.1, 0.25 and 0.5 (the share of double bridges), alpha 0.1, seeds 1, 2, ...:
``hashi-asp generate -n N --beta B --seed S --count C --out DIR/N-B``.

``measure`` is a study (``hashi-asp study``): every puzzle once per variant, each run in a
runner process with ``--time-limit`` (``--jobs`` of them; ``--database FILE`` keeps the rows,
and running again with it resumes), then one Markdown table per size: for each beta and
variant the median and largest seconds of the runs (grounding, search and the checks; not
the start-up of a process), the median number of clingo's conflicts (the same on every run
and load, unlike seconds) and how many were solved within the limit.  A variant is
``NAME=CONNECTIVITY [CLINGO OPTIONS]``, or a race: ``NAME=race`` (the default variants on
the machine's cores) or ``NAME=race VARIANT; VARIANT`` (a race's conflicts are its winner's,
and the lines after the table say which variant won how often).  Not a test: the load
average is printed with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import sys
import tempfile
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
    from hashi_asp import generation

    for islands in sizes:
        for beta in betas:
            out = folder / f"{islands}-{beta}"
            out.mkdir(parents=True, exist_ok=True)
            _, made = generation.batch(islands, count, alpha="0.1", beta=beta, seed=1)
            for name, puzzle, text in made:
                generation.keep(out, name, puzzle, text, force=True)
            print(f"{out}: {count} puzzles", file=sys.stderr)


def options(variant: str) -> str:
    """The study's options for ``CONNECTIVITY [CLINGO OPTIONS]``, or ``race [V; V...]``."""
    connectivity, _, rest = variant.partition(" ")
    words = ["--connectivity", connectivity]
    if connectivity == "race" and rest:  # the variants raced, separated by ';'
        words += [f"--variant={raced.strip()}" for raced in rest.split(";")]
    elif rest:
        words += ["--clingo", rest]
    return shlex.join(words)


def measure(
    folder: Path,
    variants: list[str],
    sizes: list[int],
    betas: list[str],
    time_limit: float,
    jobs: int,
    database: Path | None,
) -> None:
    from hashi_asp import study
    from hashi_asp.study.database import Database
    from hashi_asp.study.plan import resolve
    from hashi_asp.workers.executors import Processes

    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; limit {time_limit} s")
    named = [variant.partition("=")[::2] for variant in variants]
    cells = [(islands, beta) for islands in sizes for beta in betas]
    spec = {
        "base": str(folder.resolve()),
        "time_limit": time_limit,
        "instances": [{"paths": [f"{n}-{b}" for n, b in cells if (folder / f"{n}-{b}").is_dir()]}],
        "variants": {name: options(variant) for name, variant in named},
    }
    plan = resolve(spec)
    with (
        tempfile.TemporaryDirectory() as scratch,
        Database(database or Path(scratch) / "hard.db", create=True) as db,
    ):
        db.adopt(spec, plan.fingerprint())
        study.run(plan, Processes(jobs), db)
        records = db.records()
    print(f"(load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())})")
    runs: dict[tuple[int, str, str], list] = defaultdict(list)
    for record in records:
        islands, beta = Path(record.instance).parent.name.split("-")
        runs[(int(islands), beta, record.variant)].append(record)
    for islands in sizes:
        print(f"\n{islands} islands: median / max seconds, median conflicts, solved\n")
        print("| beta | " + " | ".join(name for name, _ in named) + " |")
        print("|---|" + "---|" * len(named))
        for beta in betas:
            row = []
            for name, _ in named:
                mine = runs.get((islands, beta, name), [])
                if not mine:
                    row.append("")
                    continue
                seconds = [r.wall for r in mine]
                conflicts = [r.conflicts for r in mine if r.conflicts is not None]
                median_conflicts = f"{statistics.median(conflicts):.0f}" if conflicts else "-"
                row.append(
                    f"{statistics.median(seconds):.2f} / {max(seconds):.2f}, "
                    f"{median_conflicts}, {sum(r.answered for r in mine)}/{len(mine)}"
                )
            print(f"| {beta} | " + " | ".join(row) + " |", flush=True)
    for (islands, beta, name), mine in sorted(runs.items()):
        details = [json.loads(r.detail) for r in mine if r.answered and r.detail]
        won = Counter(detail["won"] for detail in details if "won" in detail)  # races only
        if won:
            print(f"{islands} islands, beta {beta}, {name} won by: " + ", ".join(
                f"{v} {n}" for v, n in won.items()))  # fmt: skip


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
    measuring.add_argument("--jobs", type=int, default=1, help="runner processes")
    measuring.add_argument("--database", type=Path, help="keep the study's rows here")
    options = parser.parse_args()
    if options.command == "make":
        make(options.folder, options.islands, options.beta, options.count)
    else:
        variants = options.variant or list(VARIANTS)
        measure(
            options.folder,
            variants,
            options.islands,
            options.beta,
            options.time_limit,
            options.jobs,
            options.database,
        )


if __name__ == "__main__":
    main()
