"""Held-out pictures for the picture reader: families made apart from its own benchmark, each
clean and photographed by both simulators.

    python benchmarks/held_out.py [--seed 1] [--count 2] [--pzpr DIR] [--keep DIR] [--still]

Puzzles come from Simon Tatham's generator, 7x7 to 25x25, sparse (the generator asked for
islands on 6 % of the cells, 12 % at 7x7) and dense (30 %, its most; see :func:`params`).
A puzzle whose islands' rows (or columns) are all a multiple of some step above 1 apart is
marked ``spacing_seen: False``: a picture without a grid shows its cells only by the size
of what is drawn.  Their pages:

- ``Tatham print 72 dpi`` (and 96, 120, 150): the page sgt-bridges prints, through
  Ghostscript at that resolution;
- ``puzz.link``: pzpr's drawing at 24, 32 or 40 pixels a cell (needs pzpr, see ``--pzpr``);
- ``small drawing``: the project's drawing at 12 to 16 pixels a cell;
- ``small print``: Tatham's print at the resolution giving 12 to 16 pixels a cell;
- ``screenshot``: the project's drawing at 24 to 40 pixels a cell in a window.

Each page is given ``clean``, as a ``camera`` photo (camera.photographed: a pinhole camera
seeing a tilted page, a cell 14 to 36 photo pixels, 12 to 16 for the small families) and a
``warp`` photo (picture_material.wide_photo, the image-space warps, the same cells); a
screenshot also as a ``screen`` photo (camera.photographed with ``screen=True``).

Run as a script, each picture is read as the commands read it (read_picture, then
misreading.on_its_grid) and counted per family and for each treatment: read exactly (islands
as the puzzle's, empty edge rows and columns left out), with fewer islands than the puzzle,
otherwise wrong, refused (a PuzzleError), or failed otherwise, and of those not exact, how
many have suspects naming every island misread ("named");
then by density and by the photo's cell.  ``--still`` instead photographs the pages that are
not small at 28 pixels a cell by the camera, once with every setting drawn and once with
each group of STILL held still (the same seed), to see which costs the reads most.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import subprocess
import sys
import traceback
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import camera
import picture_material as material

from hashi_asp import notations
from hashi_asp.puzzle import Puzzle

SIZES = (7, 10, 15, 20, 25)
DENSITIES = ("sparse", "dense")


def params(size: int, density: str) -> str:
    """The generator's parameters for a puzzle ``size`` x ``size`` of that density: sparse
    islands on 6 % of the cells (12 % at 7x7, which would have 3 islands), dense on 30 %
    (the generator's most, spread as little as it can; it makes about 12 to 15 % of the
    cells islands on the larger sizes)."""
    if density == "sparse":
        return f"{size}x{size}i{6 if size >= 10 else 12}e10m2d0"
    return f"{size}x{size}i30e0m2d0"


PRINT_DPI = (72, 96, 120, 150)


def generated(size: int, density: str, count: int, seed: int) -> list[Puzzle]:
    """``count`` puzzles of Tatham's generator, ``size`` x ``size``, of that density."""
    ids = subprocess.run(
        [material.TATHAM, "--generate", str(count), f"{params(size, density)}#{seed}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return [notations.parse(game_id) for game_id in ids]


def spacing_seen(puzzle: Puzzle) -> bool:
    """Whether the islands' rows and columns, each, are one apart somewhere in steps (the
    greatest common divisor of their differences is 1), so that a picture's spacing of the
    islands shows the cell."""
    rows = sorted({r for r, _ in puzzle.islands})
    columns = sorted({c for _, c in puzzle.islands})
    return all(
        len(line) < 2 or math.gcd(*(b - a for a, b in itertools.pairwise(line))) == 1
        for line in (rows, columns)
    )


def pages(
    size: int, density: str, count: int, seed: int, rng: random.Random, modules: Path | None
) -> Iterator[tuple[str, Puzzle, bytes, float]]:
    """The clean pages of one size and density: (source, the puzzle, the page, its pixels a
    cell)."""
    base = seed * 100_000 + size * 100 + (density == "dense") * 50
    for i, puzzle in enumerate(generated(size, density, count, base)):
        chosen = params(size, density)
        if material.printing_available():
            dpi = PRINT_DPI[(i + size) % len(PRINT_DPI)]
            printed, page = material.tatham_print(size, base + 10 + i, dpi, chosen)
            yield f"Tatham print {dpi} dpi", printed, page, material.print_cell(size, dpi)
            small = rng.uniform(12, 16)
            dpi_small = round(small * 72 / material.print_cell(size, 72))
            printed, page = material.tatham_print(size, base + 20 + i, dpi_small, chosen)
            yield "small print", printed, page, material.print_cell(size, dpi_small)
        if modules is not None:
            cell = (24, 32, 40)[(i + size) % 3]
            yield "puzz.link", puzzle, material.puzzlink_drawing(puzzle, cell, modules), cell
        style = material.STYLES[(i + size) % 3]
        cell = rng.randrange(12, 17)
        yield "small drawing", puzzle, material.drawing(puzzle, cell, style), cell
        cell = rng.randrange(24, 41)
        scheme = material.SCHEMES[(i + size // 5) % 2]
        drawn = material.drawing(puzzle, cell, material.STYLES[i % 3], scheme)
        yield "screenshot", puzzle, material.screenshot(drawn, rng), cell


def held_out(
    seed: int, count: int, sizes: tuple[int, ...] = SIZES, modules: Path | None = None
) -> Iterator[tuple[str, Puzzle, bytes, dict]]:
    """The held-out pictures: (family, the puzzle, the picture's bytes, the settings), the
    family named ``source / treatment`` (``Tatham print 96 dpi / camera``), the settings
    holding the size, the density, the page's cell and the simulator's settings drawn (so
    that one picture can be made again).  ``count`` puzzles per size and density."""
    rng = random.Random(seed)
    for size in sizes:
        for density in DENSITIES:
            for source, puzzle, page, page_cell in pages(size, density, count, seed, rng, modules):
                small = source.startswith("small")
                base = {"size": size, "density": density, "source": source}
                base.update(page_cell=page_cell, spacing_seen=spacing_seen(puzzle))
                base["islands"] = len(puzzle.islands)
                yield f"{source} / clean", puzzle, page, {**base, "treatment": "clean"}
                cell = rng.uniform(12, 16) if small else rng.uniform(14, 36)
                photo_seed = rng.randrange(1 << 30)
                data, drawn = camera.photographed(
                    page, random.Random(photo_seed), cell=cell, page_cell=page_cell
                )
                settings = {**base, "treatment": "camera", "seed": photo_seed, **drawn}
                yield f"{source} / camera", puzzle, data, settings
                photo_seed = rng.randrange(1 << 30)
                data, drawn = material.wide_photo(
                    page, random.Random(photo_seed), cell=cell, page_cell=page_cell
                )
                settings = {**base, "treatment": "warp", "seed": photo_seed, **drawn}
                yield f"{source} / warp", puzzle, data, settings
                if source == "screenshot":
                    photo_seed = rng.randrange(1 << 30)
                    data, drawn = camera.photographed(
                        page, random.Random(photo_seed), cell=cell, page_cell=page_cell, screen=True
                    )
                    settings = {**base, "treatment": "screen", "seed": photo_seed, **drawn}
                    yield f"{source} / screen", puzzle, data, settings


STILL = {  # groups of the camera's settings held still, to see what costs the reads most
    "all drawn": {},
    "sharp (a defocus of 0.7)": {"blur": "defocus", "blur_radius": 0.7},
    "no glare, no shadow": {"glare": 0.0, "shadow": "none"},
    "flat (no tilt, turn, lens)": {
        "tilt": 0.0, "turn": 0.0, "k1": 0.0, "k2": 0.0, "p1": 0.0, "p2": 0.0,
    },
    "clean sensor (JPEG 95, less noise)": {"quality": 95, "full_well": 1e5, "read_noise": 0.5},
}  # fmt: skip
STILL["all these held still"] = {k: v for group in STILL.values() for k, v in group.items()}


def held_still(
    seed: int, count: int, sizes: tuple[int, ...] = (10, 15), modules: Path | None = None
) -> Iterator[tuple[str, Puzzle, bytes, dict]]:
    """Camera photos at 28 pixels a cell of the pages that are not small, each made once per
    entry of STILL with the same seed: (the entry's name, the puzzle, the photo, the
    settings)."""
    rng = random.Random(seed)
    for size in sizes:
        for density in DENSITIES:
            for source, puzzle, page, page_cell in pages(size, density, count, seed, rng, modules):
                if source.startswith("small"):
                    continue
                photo_seed = rng.randrange(1 << 30)
                for name, fixed in STILL.items():
                    data, drawn = camera.photographed(
                        page, random.Random(photo_seed), cell=28, page_cell=page_cell, **fixed
                    )
                    settings = {"size": size, "density": density, "source": source, **drawn}
                    yield name, puzzle, data, {**settings, "seed": photo_seed}


def verdict(data: bytes, puzzle: Puzzle, name: str) -> tuple[str, str]:
    """How a picture is read, as the commands read it (the reader, then the puzzle on the
    neighbouring grids where one of them has exactly one solution: misreading.on_its_grid):
    ``exact``, ``fewer islands``, ``wrong``, ``refused`` (a PuzzleError) or ``failed`` (any
    other exception), and a line saying more; a read not exact whose suspects (looked for
    within :data:`SUSPECTS_SECONDS`) name every island misread says ``named`` in it."""
    from hashi_asp.errors import PuzzleError
    from hashi_asp.misreading import on_its_grid
    from hashi_asp.pictures import read_picture

    try:
        read = on_its_grid(read_picture(data, name))
    except PuzzleError as error:
        return "refused", str(error)
    except Exception:
        return "failed", traceback.format_exc(limit=3).replace("\n", " | ")
    if material.same_puzzle(read, puzzle):
        return "exact", ""
    lost = len(puzzle.islands) - len(read.islands)
    said = f"{len(read.islands)} islands of {len(puzzle.islands)}"
    if material.named(read, puzzle, SUSPECTS_SECONDS):
        said += ", named"
    return ("fewer islands" if lost > 0 else "wrong"), said


SUSPECTS_SECONDS = 2.0  # the suspects' search, a picture


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2, help="puzzles per size and density [2]")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pzpr", type=Path, help="a node_modules folder with pzpr")
    parser.add_argument("--keep", type=Path, help="folder for the pictures read wrong")
    parser.add_argument("--sizes", type=int, nargs="*", default=list(SIZES))
    parser.add_argument(
        "--still", action="store_true", help="camera photos with groups of settings held still"
    )
    options = parser.parse_args()
    modules = material.pzpr_modules(options.pzpr)
    if options.still:
        _still(options.seed, options.count, tuple(options.sizes), modules)
        return
    counts: dict[str, Counter] = defaultdict(Counter)
    by_density: dict[tuple[str, str], Counter] = defaultdict(Counter)
    by_cell: dict[tuple[str, str], Counter] = defaultdict(Counter)
    if options.keep:
        options.keep.mkdir(parents=True, exist_ok=True)
    pictures = held_out(options.seed, options.count, tuple(options.sizes), modules)
    for n, (family, puzzle, data, settings) in enumerate(pictures):
        outcome, said = verdict(data, puzzle, family)
        counts[family][outcome] += 1
        counts[family]["named"] += said.endswith("named")
        counts["all " + settings["treatment"]][outcome] += 1
        counts["all " + settings["treatment"]]["named"] += said.endswith("named")
        by_density[settings["treatment"], settings["density"]][outcome] += 1
        cell = settings.get("cell", settings["page_cell"])
        band = "cells < 16" if cell < 16 else "cells 16-24" if cell < 24 else "cells >= 24"
        by_cell[settings["treatment"], band][outcome] += 1
        if not settings["spacing_seen"]:
            by_cell[settings["treatment"], "spacing not seen"][outcome] += 1
        if outcome != "exact" and options.keep:
            name = f"{n:04d}-{family.replace(' / ', '-').replace(' ', '-')}"
            kind = "png" if settings["treatment"] == "clean" else "jpg"
            (options.keep / f"{name}.{kind}").write_bytes(data)
            (options.keep / f"{name}.txt").write_text(
                f"{notations.write(puzzle, 'tatham')}\n{outcome}: {said}\n{settings}\n"
            )
    outcomes = ("exact", "fewer islands", "wrong", "refused", "failed")
    print(f"{'family':36} {'count':>5} " + " ".join(f"{o:>13}" for o in outcomes) + "  named")
    for family in sorted(counts):
        row = counts[family]
        total = sum(row[o] for o in outcomes)
        shown = " ".join(f"{row[o]:13}" for o in outcomes)
        print(f"{family:36} {total:5} {shown}  {row['named']:5}")
    for groups in (by_density, by_cell):
        print()
        for (treatment, group), row in sorted(groups.items()):
            name = f"all {treatment}, {group}"
            shown = " ".join(f"{row[o]:13}" for o in outcomes)
            print(f"{name:36} {sum(row.values()):5} {shown}")


def _still(seed: int, count: int, sizes: tuple[int, ...], modules: Path | None) -> None:
    counts: dict[str, Counter] = defaultdict(Counter)
    for name, puzzle, data, _ in held_still(seed, count, sizes, modules):
        counts[name][verdict(data, puzzle, name)[0]] += 1
    outcomes = ("exact", "fewer islands", "wrong", "refused", "failed")
    print(f"{'camera, 28 px a cell':36} {'count':>5} " + " ".join(f"{o:>13}" for o in outcomes))
    for name in STILL:
        row = counts[name]
        print(f"{name:36} {sum(row.values()):5} " + " ".join(f"{row[o]:13}" for o in outcomes))


if __name__ == "__main__":
    main()
