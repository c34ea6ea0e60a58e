"""Walkthrough sentences read back over generated puzzles: every sentence of every step names
only its step's pair and reason islands (hashi_asp.walkthrough.reading, as
tests/test_sentences.py asks of fewer puzzles).

    python benchmarks/sentences.py                              # 7x7 to 15x15, 14 per band: 504
    python benchmarks/sentences.py --sizes 10 --per-band 30 --seed 100

For each board size and each difficulty band (easy, medium, hard, expert) it makes
``--per-band`` unique puzzles as ``hashi-asp generate --size SxS --unique --difficulty BAND``
does (the islands drawn between a fifth and a third of the cells, so that every band can be
met at every size; a request the generator cannot meet in its layouts is counted as not made
and the next seed tried; the n-th puzzle tried has the seed ``--seed`` + n), walks each
through (``hashi_asp.walkthrough.steps``, every step checked by clingo) and reads every
sentence back.  Each wrong sentence is printed on standard error with the command that makes
its puzzle; the exit status is 1 if there is any.  Prints a Markdown table per band and per
size: puzzles (and those walked to the solution), steps, steps whose reason is one island
away from the pair (what once named a bridge that cannot exist), sentences wrong, seconds
spent making the puzzles and walking them.  Not a test: times depend on the machine and its
load.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

from hashi_asp.difficulty import BANDS
from hashi_asp.generation import GenerationError, batch
from hashi_asp.walkthrough import Walkthrough, steps
from hashi_asp.walkthrough.reading import misreadings


@dataclass
class Tally:
    """What one band, one size or all of them came to."""

    puzzles: int = 0
    solved: int = 0
    not_made: int = 0
    steps: int = 0
    away: int = 0
    wrong: int = 0
    making: float = 0.0
    walking: float = 0.0
    techniques: Counter = field(default_factory=Counter)

    def add(self, walk: Walkthrough, wrong: int, making: float, walking: float) -> None:
        self.puzzles += 1
        self.solved += walk.status == "solved"
        self.steps += len(walk.steps)
        self.away += sum(
            len(step.reason) == 1 and step.pair is not None and step.reason[0] not in step.pair
            for step in walk.steps
        )
        self.wrong += wrong
        self.making += making
        self.walking += walking
        self.techniques.update(step.technique for step in walk.steps)

    def row(self, name: str) -> str:
        return (
            f"| {name} | {self.puzzles} | {self.solved} | {self.not_made} | {self.steps} "
            f"| {self.away} | {self.wrong} | {self.making:.1f} | {self.walking:.1f} |"
        )


HEADER = (
    "| {} | puzzles | walked to the solution | not made | steps "
    "| one-island reason away from its pair | sentences wrong | s making | s walking |\n"
    "|---|---|---|---|---|---|---|---|---|"
)


def run(sizes: list[int], per_band: int, seed: int, tries: int) -> dict[str, Tally]:
    """The tallies by band (``easy``...), by size (``7x7``...) and in all (``all``)."""
    tallies: dict[str, Tally] = {}
    tried = 0  # the puzzle tried n-th in all has the seed seed + n
    for side in sizes:
        for band in BANDS:
            made = 0
            for _ in range(per_band * tries):
                if made == per_band:
                    break
                puzzle_seed = seed + tried
                tried += 1
                islands = random.Random(puzzle_seed).randint(side * side // 5, side * side // 3)
                size = f"{side}x{side}"
                command = (
                    f"hashi-asp generate -n {islands} --size {size} --unique --difficulty {band} "
                    f"--seed {puzzle_seed}"
                )
                started = time.perf_counter()
                try:
                    _, making = batch(
                        islands, size=size, unique=True, difficulty=band, seed=puzzle_seed
                    )
                    _, generated, _ = next(making)
                except GenerationError:
                    for name in (band, size, "all"):
                        tally = tallies.setdefault(name, Tally())
                        tally.not_made += 1
                        tally.making += time.perf_counter() - started
                    continue
                walking = time.perf_counter()
                walk = steps(generated.puzzle)
                wrong = misreadings(walk)
                done = time.perf_counter()
                for line in wrong:
                    print(f"{command}: {line}", file=sys.stderr)
                for name in (band, size, "all"):
                    tallies.setdefault(name, Tally()).add(
                        walk, len(wrong), walking - started, done - walking
                    )
                made += 1
            print(f"{side}x{side} {band}: {made} puzzles", file=sys.stderr, flush=True)
    return tallies


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=list(range(7, 16)), help="board sides"
    )
    parser.add_argument("--per-band", type=int, default=14, help="puzzles per size and band")
    parser.add_argument("--seed", type=int, default=1, help="the first seed")
    parser.add_argument(
        "--tries", type=int, default=6, help="seeds tried per puzzle asked, at most"
    )
    arguments = parser.parse_args()
    started = time.perf_counter()
    tallies = run(arguments.sizes, arguments.per_band, arguments.seed, arguments.tries)
    seconds = time.perf_counter() - started
    print(HEADER.format("band"))
    for band in BANDS:
        print(tallies.get(band, Tally()).row(band))
    print(tallies.get("all", Tally()).row("**all**"))
    print()
    print(HEADER.format("board"))
    for side in arguments.sizes:
        print(tallies.get(f"{side}x{side}", Tally()).row(f"{side}x{side}"))
    print()
    everything = tallies.get("all", Tally())
    print(
        "techniques: " + ", ".join(f"{name} {n}" for name, n in everything.techniques.most_common())
    )
    print(f"{seconds:.0f} s in all; load average {os.getloadavg()[0]:.2f}")
    if everything.wrong:
        sys.exit(1)


if __name__ == "__main__":
    main()
