"""How `fix` does: the fewest edits that make an ambiguous puzzle unique, in each mode.

    python benchmarks/fix.py                                   # generated 7x7 to 15x15
    python benchmarks/fix.py --coelho /path/to/coelho/100 --sample 40 --limit 60
    python benchmarks/fix.py --sizes 7 9 --per-size 5 --modes keep
    python benchmarks/fix.py --coelho /path/to/coelho/100 --sample 10 --limit 60 --modes default
    python benchmarks/fix.py --drafts 20 --per-size 20 --limit 30 --modes default
    python benchmarks/fix.py --sizes 25 --density 0.25 --per-size 10 --limit 60 --modes default
    python benchmarks/fix.py --sizes 15 --per-size 8 --limit 10 --alternatives 5

Drafts as authors make them (--drafts SIDE...): a unique puzzle, from the project's generator
with --unique (--density islands per cell) and from Simon Tatham's (``sgt-bridges --generate 1
SIDExSIDEm2d2#SEED``, where installed) in turn, with one to three islands removed, added or
renumbered (seeded), kept when the result has several solutions: such a draft has a fix of at
most that many edits (undoing them), shown as "made with".

The generated set: for each side from --sizes, puzzles of about 0.3 islands per cell made by
the project's generator without --unique, seeds 1, 2, ... until --per-size of them have
several solutions.  For each puzzle and mode (keep: the first solution kept, strictly; free;
default: keep mode, then free mode where keeping is proven impossible) it runs the library's
:func:`hashi_asp.fixing.fix` with --limit seconds and prints a Markdown table per set and
mode: share fixed, share proven fewest, edits per fixed puzzle (mean, max), seconds (mean,
max).  Every fix the library returns has been proven unique by a fresh solve and passed by the
checker; this script checks again (an independent `unique`) and counts any disagreement as a
failure.  With --alternatives K, instead of the modes: the default mode's fix alone and with K
alternatives, the seconds of each and their ratio.  Not a test: the figures depend on the
machine and its load, so the load average is printed too.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import time
from pathlib import Path

from hashi_asp import Puzzle, read, unique
from hashi_asp.fixing import fix
from hashi_asp.generation import GenerationError, generate


def generated(sizes: list[int], per_size: int, density: float = 0.3) -> dict[str, list]:
    """Ambiguous generated puzzles by board side."""
    sets = {}
    for side in sizes:
        found, seed = [], 1
        while len(found) < per_size and seed < 50 * per_size:
            islands = max(4, round(density * side * side))
            made = generate(islands, side, side, seed=seed)
            if unique(made.puzzle).status == "multiple":
                found.append((f"{side}x{side} seed {seed}", made.puzzle))
            seed += 1
        sets[f"{side}x{side}"] = found
    return sets


def drafts(sides: list[int], per_size: int, density: float) -> dict[str, list]:
    """Author drafts by board side: (name, puzzle, edits it was made with)."""
    sets = {}
    for side in sides:
        found: list = []
        seed = 0
        while len(found) < per_size and seed < 20 * per_size:
            seed += 1
            base, origin = _unique_puzzle(side, density, seed)
            if base is None:
                continue
            edits = 1 + len(found) % 3
            chance = random.Random(f"{side} {seed}")
            for _ in range(50):  # drafts until one has several solutions
                draft = _drafted(base, edits, chance)
                if draft is not None and unique(draft).status == "multiple":
                    found.append((f"{side}x{side} {origin} seed {seed}", draft, edits))
                    break
        sets[f"{side}x{side} drafts"] = found
    return sets


def _unique_puzzle(side: int, density: float, seed: int) -> tuple[Puzzle | None, str]:
    """A unique puzzle: the project's generator on odd seeds, Tatham's on even ones."""
    program = shutil.which("sgt-bridges") or "/usr/games/sgt-bridges"
    if seed % 2 == 0 and Path(program).exists():
        done = subprocess.run(
            [program, "--generate", "1", f"{side}x{side}m2d2#{seed}"],
            capture_output=True,
            text=True,
            timeout=600,
        )
        return read(done.stdout.strip()), "Tatham"
    try:
        made = generate(max(4, round(density * side * side)), side, side, seed=seed, unique=True)
    except GenerationError:
        return None, "generator"
    return made.puzzle, "generator"


def _drafted(puzzle: Puzzle, count: int, chance: random.Random) -> Puzzle | None:
    """``puzzle`` with ``count`` islands removed, added or renumbered at random."""
    islands = dict(puzzle.islands)
    touched: set = set()
    for _ in range(count):
        kind = chance.choice(["remove", "add", "renumber"])
        if kind == "add":
            water = [
                (r, c)
                for r in range(puzzle.rows)
                for c in range(puzzle.cols)
                if (r, c) not in islands and (r, c) not in touched
            ]
            cell = chance.choice(water)
            islands[cell] = chance.randint(1, 4)
        else:
            cell = chance.choice(sorted(set(islands) - touched))
            if kind == "remove":
                del islands[cell]
            else:
                islands[cell] = chance.choice([n for n in range(1, 9) if n != islands[cell]])
        touched.add(cell)
    if len(islands) < 2:
        return None
    return Puzzle(puzzle.rows, puzzle.cols, islands, puzzle.source, puzzle.rules)


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
    for name, puzzle, *made in puzzles:
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
            f"  {name} ({len(puzzle.islands)} islands"
            + (f", made with {made[0]}" if made else "")
            + f"): {found.status}, {len(found.edits)} edits, fewest {found.fewest}, "
            f"lower bound {found.lower_bound}, {found.rounds} rounds, {seconds:.2f} s"
            + (f", keeping {found.keeping}" if found.keeping else ""),
            flush=True,
        )
    return summary(rows)


def offering(puzzles: list, count: int, limit: float) -> list:
    """Per puzzle, the default mode's fix alone and with ``alternatives=count``: the seconds
    of each, the fixes offered and their edits, each offered fix checked again."""
    rows = []
    for name, puzzle, *_ in puzzles:
        started = time.perf_counter()
        alone = fix(puzzle, time_limit=limit)
        single = time.perf_counter() - started
        started = time.perf_counter()
        made = fix(puzzle, alternatives=count, time_limit=limit)
        seconds = time.perf_counter() - started
        for other in made.alternatives:
            if unique(other.puzzle).status != "unique":
                print(f"  DISAGREEMENT on {name}: an alternative is not unique")
        sizes = [len(other.edits) for other in made.alternatives]
        bands = [other.difficulty.band if other.difficulty else "-" for other in made.alternatives]
        rows.append((single, seconds, len(sizes), alone.fewest, made.fewest))
        print(
            f"  {name}: alone {len(alone.edits)} edits (fewest {alone.fewest}) in {single:.2f} s; "
            f"with {count} alternatives {seconds:.2f} s ({seconds / single:.1f}x), "
            f"{len(sizes)} offered, edits {sizes}, bands {bands}, fewest {made.fewest}",
            flush=True,
        )
    return rows


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
    parser.add_argument("--density", type=float, default=0.3, help="islands per cell")
    parser.add_argument("--drafts", type=int, nargs="*", default=[], help="author drafts: sides")
    parser.add_argument("--coelho", type=Path, help="a folder of puzzles (Coelho et al.'s)")
    parser.add_argument("--sample", type=int, default=0, help="this many of its puzzles")
    parser.add_argument("--limit", type=float, default=10.0, help="seconds per fix")
    parser.add_argument(
        "--modes",
        nargs="*",
        default=["keep", "free", "default"],
        choices=["keep", "free", "default"],
    )
    parser.add_argument(
        "--alternatives",
        type=int,
        default=0,
        help="instead of the modes: the default mode alone and with this many alternatives",
    )
    arguments = parser.parse_args()
    sets = coelho(arguments.coelho, arguments.sample) if arguments.coelho else {}
    sets = {**drafts(arguments.drafts, arguments.per_size, arguments.density), **sets}
    if not (arguments.coelho or arguments.drafts) or arguments.sizes != parser.get_default("sizes"):
        made = generated(arguments.sizes, arguments.per_size, arguments.density)
        sets = {**made, **sets}
    load = os.getloadavg()
    if arguments.alternatives:
        _offered(sets, arguments.alternatives, arguments.limit, load)
        return
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


def _offered(sets: dict, count: int, limit: float, load: tuple) -> None:
    """The table of --alternatives: per set, the seconds of the fix alone and with the
    alternatives (mean, max), the ratio (mean, max), fixes offered (mean) and proven fewest."""
    table = []
    for name, puzzles in sets.items():
        print(f"{name}, default, alternatives {count}:", flush=True)
        table.append((name, offering(puzzles, count, limit)))
    print(
        f"\nload average at start {load[0]:.2f}, at end {os.getloadavg()[0]:.2f}; "
        f"{time.strftime('%Y-%m-%d')}; limit {limit:g} s per fix\n"
    )
    print(
        "| set | puzzles | fix alone: s mean (max) | with alternatives: s mean (max) "
        "| ratio mean (max) | offered mean | proven fewest alone, with |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, rows in table:
        single = [r[0] for r in rows]
        offered = [r[1] for r in rows]
        ratio = [b / a for a, b in zip(single, offered)]
        print(
            f"| {name} | {len(rows)} | {statistics.mean(single):.2f} ({max(single):.2f}) | "
            f"{statistics.mean(offered):.2f} ({max(offered):.2f}) | "
            f"{statistics.mean(ratio):.2f} ({max(ratio):.2f}) | "
            f"{statistics.mean(r[2] for r in rows):.1f} | "
            f"{sum(r[3] for r in rows)}, {sum(r[4] for r in rows)} |"
        )


if __name__ == "__main__":
    main()
