"""How well the picture reader reads players' screenshots: the workbench's page, Simon Tatham's
window and puzz.link's page, fresh and mid-game (benchmarks/screens.py makes them).

    python benchmarks/screenshots.py [--count 1] [--seed 1] [--keep DIR] [--pzpr DIR]
                                     [--family workbench --family tatham ...]

Each shot is read (hashi_asp.pictures.read_picture, the PNG's bytes) and compared with what it
shows: the islands exactly (the rows and columns without an island at the edges left out of
both, as benchmarks/pictures.py compares them), and, where the reader reports the bridges drawn
(``puzzle.reading.bridges``, (r1, c1, r2, c2, k) in the read puzzle's cells), those, shifted as
the islands are; "not read" where it reports none.  A traceback is any exception but
PuzzleError.  ``--keep DIR`` writes every shot there, with its truth and what was read.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import traceback
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import picture_material as material
import screens

from hashi_asp.errors import PuzzleError
from hashi_asp.pictures import read_picture
from hashi_asp.puzzle import Puzzle


def shifted_bridges(read: Puzzle, truth: Puzzle, drawn: tuple) -> bool | None:
    """Whether the bridges the reader reports are the ones drawn, both moved as the islands
    are (the top row and left column with an island made 0); None where it reports none."""
    found = getattr(read.reading, "bridges", None)
    if found is None:
        return None

    def moved(puzzle: Puzzle, bridges) -> set:
        top = min(r for r, _ in puzzle.islands)
        left = min(c for _, c in puzzle.islands)
        return {(r1 - top, c1 - left, r2 - top, c2 - left, k) for r1, c1, r2, c2, k in bridges}

    return moved(read, [tuple(b) for b in found]) == moved(truth, drawn)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1, help="puzzles per size and family [1]")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="folder to write every shot in")
    parser.add_argument("--pzpr", type=Path, help="a node_modules folder with pzpr")
    parser.add_argument("--family", action="append", choices=screens.FAMILIES)
    options = parser.parse_args()
    families = options.family or list(screens.FAMILIES)
    left_out = set()
    for family in families:
        why = screens.available(family, options.pzpr)
        if why:
            print(f"{family}: left out, {why}", file=sys.stderr)
            left_out.add(family)
    if options.keep:
        options.keep.mkdir(parents=True, exist_ok=True)
    rows: dict[str, list[dict]] = defaultdict(list)
    started = time.perf_counter()
    for n, shot in enumerate(
        screens.shots(options.count, options.seed, families, pzpr=options.pzpr)
    ):
        game = shot.settings["game"]
        try:
            read = read_picture(shot.picture, f"{shot.family}-{n}")
            exact = material.same_puzzle(read, shot.puzzle)
            bridges = shifted_bridges(read, shot.puzzle, shot.drawn) if exact else None
            outcome, said = ("exact" if exact else "misread"), material.dumps(read)
        except PuzzleError as error:
            bridges, outcome, said = None, "refused", str(error)
        except Exception:
            bridges, outcome, said = None, "traceback", traceback.format_exc()
        rows[shot.family].append(
            {"game": game, "size": f"{shot.settings['size']}x{shot.settings['size']}",
             "look": look(shot), "outcome": outcome, "bridges": bridges}
        )  # fmt: skip
        print(
            f"{shot.family} {shot.settings['size']}x{shot.settings['size']} {game}: {outcome}",
            file=sys.stderr,
            flush=True,
        )
        if options.keep:
            name = f"{n:03d}-{shot.family}-{shot.settings['size']}-{game}"
            (options.keep / f"{name}.png").write_bytes(shot.picture)
            truth = {
                "puzzle": shot.puzzle.to_json(),
                "drawn": shot.drawn,
                "settings": shot.settings,
            }
            (options.keep / f"{name}.json").write_text(json.dumps(truth) + "\n")
            (options.keep / f"{name}.read.txt").write_text(f"{outcome}\n{said}\n")
    asked = {f: options.count * len(screens.SIZES[f]) for f in families if f not in left_out}
    _report(rows, asked)
    print(
        f"\n{sum(map(len, rows.values()))} shots made and read in "
        f"{time.perf_counter() - started:.0f} s"
    )


def look(shot: screens.Shot) -> str:
    """What a shot looks like besides its puzzle: the screen and crop, the tile size and colour
    scheme, the cell size and crop."""
    s = shot.settings
    if shot.family == "workbench":
        return f"{s['screen']} {s['crop']}"
    if shot.family == "tatham":
        return f"tile {s['tile']} {s['scheme']}"
    return f"cell {s['cell']} {s['crop']}"


def _report(rows: dict[str, list[dict]], asked: dict[str, int]) -> None:
    for family in screens.FAMILIES:
        if family not in asked:
            continue
        mine = rows.get(family, [])
        dropped = asked[family] - len(mine)
        print(f"\n{family}: {len(mine)} shots ({dropped} dropped: the bridges not as meant)")
        print("  by                 shots  islands exact  refused  tracebacks  bridges as drawn")
        for by in ("game", "size", "look"):
            for value in sorted({row[by] for row in mine}, key=_in_order):
                print("  " + _line(value, [row for row in mine if row[by] == value]))
        if mine:
            print("  " + _line("all", mine))


def _in_order(value: str) -> tuple:
    number = re.match(r"(\d+)x", value)
    return (int(number.group(1)) if number else 0, value)


def _line(name: str, found: list[dict]) -> str:
    count = {kind: sum(1 for row in found if row["outcome"] == kind) for kind in OUTCOMES}
    judged = [row["bridges"] for row in found if row["bridges"] is not None]
    bridges = f"{sum(judged)}/{len(judged)}" if judged else "not read"
    return (
        f"{name:20} {len(found):4} {count['exact']:8}/{len(found):<5} {count['refused']:7}"
        f" {count['traceback']:11}  {bridges}"
    )


OUTCOMES = ("exact", "misread", "refused", "traceback")


if __name__ == "__main__":
    main()
