"""A long fuzz run of every reader and reading command, with a time budget.

    python benchmarks/fuzz.py --minutes 30 --seed 1 --failures fuzz-failures/

The inputs are those of the suite's fuzz test (tests/fuzzing.py: valid puzzles and solutions in
every notation, mutated, in foreign encodings, or random bytes), drawn from a seeded
``random.Random`` instead of hypothesis, so a run is repeatable and cheap per input.  The entry
points take turns.  Prints how many inputs each tried and every distinct failure (an exception
other than the library's own errors, a traceback, an exit code other than 0, 1, 2, or an error
of more than one line); with --failures, the first input of each failure is saved there.
Exit 0 when nothing failed, 1 otherwise.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import fuzzing


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--minutes", type=float, default=10, help="time budget [10]")
    parser.add_argument("--seed", type=int, default=1, help="seed of the inputs [1]")
    parser.add_argument(
        "--only",
        action="append",
        choices=sorted(fuzzing.ENTRY_POINTS),
        help="fuzz only this entry point (repeatable)",
    )
    parser.add_argument("--failures", type=Path, help="folder to save a failing input of each kind")
    arguments = parser.parse_args()

    rng = random.Random(arguments.seed)
    names = arguments.only or list(fuzzing.ENTRY_POINTS)
    seeds = {name: fuzzing.ENTRY_POINTS[name][0]() for name in names}
    tried: Counter[str] = Counter()
    failures: dict[str, tuple[str, bytes]] = {}  # description -> (entry point, input)
    started = time.monotonic()
    end = started + 60 * arguments.minutes
    report_at = started + 60
    while time.monotonic() < end:
        for name in names:
            data = fuzzing.hostile(rng, seeds[name])
            failure = fuzzing.ENTRY_POINTS[name][1](data)
            tried[name] += 1
            if failure is not None and failure not in failures:
                failures[failure] = (name, data)
                print(f"FAILURE in {name}: {failure}", flush=True)
        if time.monotonic() >= report_at:
            report_at += 60
            print(
                f"{(time.monotonic() - started) / 60:.0f} min: {sum(tried.values())} inputs, "
                f"{len(failures)} distinct failures",
                flush=True,
            )

    seconds = time.monotonic() - started
    print(
        f"\n{sum(tried.values())} inputs in {seconds:.0f} s (seed {arguments.seed}); "
        f"{len(failures)} distinct failures"
    )
    for name in names:
        print(f"  {name:15} {tried[name]:8} inputs")
    if arguments.failures and failures:
        arguments.failures.mkdir(parents=True, exist_ok=True)
        for i, (failure, (name, data)) in enumerate(failures.items(), 1):
            (arguments.failures / f"failure-{i:03d}.bin").write_bytes(data)
            print(f"  failure-{i:03d}.bin ({name}): {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
