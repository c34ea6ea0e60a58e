"""How well puzzles are read from pictures: the targets of docs/benchmarks.md.

    python benchmarks/pictures.py [--count 4] [--seed 1] [--pzpr DIR] [--keep DIR] [--readers]

For each size from 5x5 to 25x25, ``--count`` puzzles of Simon Tatham's generator (each with
one solution) are drawn as clean pictures: the project's own drawing (islands as circles,
squares or bare numbers, dark on light or light on dark, cells of 24 to 48 pixels, in turn),
the same in a window with a title, buttons and a clock (a screenshot), puzz.link's drawing
(pzpr, when ``--pzpr`` names a node_modules folder holding it) and a page printed by
sgt-bridges (Ghostscript, at 100 or 150 dpi); and each again as a photo (picture_material.photo:
turned, at an angle, uneven light, a shadow, blur, noise, a background, JPEG 50-70).

Each picture is read; a read is exact when it has the puzzle's islands (rows and columns without
an island at the edges left out: no picture shows them). Of the reads that are not, the suspects
are looked for (hashi_asp.suspects) and counted as naming the misread islands when the read with
their changes made (a number changed, a mark taken for a number removed) is the puzzle. The time
of a 15x15 picture is the read and the check for uniqueness together (in this process, the
classifier loaded once; a command's start-up adds about 0.3 s). A third set, "damaged", has one
number of each puzzle's drawing partly painted over (its top, bottom, left or right: a 3 may
look like a 5), to see the suspects at work where a number is misread.

``--readers`` compares the shipped classifier with Tesseract (Debian's tesseract-ocr, one call
per number, single character mode, digits 1-8 only) on the numbers of a share of the pictures,
cut out as the reader cuts them.  ``--keep DIR`` writes every picture read wrong there.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import picture_material as material

from hashi_asp.pictures import read_picture
from hashi_asp.puzzle import Puzzle
from hashi_asp.solving import unique

SIZES = (5, 7, 10, 15, 20, 25)


def pictures(
    size: int, count: int, seed: int, modules: Path | None, rng: random.Random
) -> list[tuple[str, Puzzle, bytes]]:
    """The clean pictures of one size: (kind, the puzzle, the picture)."""
    made = []
    for i, puzzle in enumerate(material.tatham_puzzles(size, count, seed * 1000 + size)):
        style = material.STYLES[i % 3]
        scheme = material.SCHEMES[(i // 3 + size) % 2]
        cell = (24, 32, 40, 48)[(i + size) % 4]
        made.append(
            (f"ours {style} {scheme}", puzzle, material.drawing(puzzle, cell, style, scheme))
        )
        drawn = material.drawing(puzzle, 32, material.STYLES[(i + 1) % 3], scheme)
        made.append(("screenshot", puzzle, material.screenshot(drawn, rng)))
        if modules is not None:
            made.append(
                ("puzz.link", puzzle, material.puzzlink_drawing(puzzle, 24 + 8 * (i % 3), modules))
            )
        if material.printing_available():
            printed, page = material.tatham_print(
                size, seed * 1000 + size * 10 + i, (100, 150)[i % 2]
            )
            made.append(("Tatham print", printed, page))
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=4, help="puzzles per size [4]")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pzpr", type=Path, help="a node_modules folder with pzpr")
    parser.add_argument("--keep", type=Path, help="folder for the pictures read wrong")
    parser.add_argument("--readers", action="store_true", help="compare with Tesseract")
    options = parser.parse_args()
    modules = material.pzpr_modules(options.pzpr)
    rng = random.Random(options.seed)
    results: dict[tuple[str, str], list[tuple[bool, bool | None]]] = defaultdict(list)
    by_size: dict[tuple[str, int], list[bool]] = defaultdict(list)
    times: dict[str, list[float]] = defaultdict(list)
    glyph_sample: list[tuple[bytes, Puzzle]] = []
    if options.keep:
        options.keep.mkdir(parents=True, exist_ok=True)
    for size in SIZES:
        for kind, puzzle, clean in pictures(size, options.count, options.seed, modules, rng):
            for set_name, data in (("clean", clean), ("photo", material.photo(clean, rng))):
                started = time.perf_counter()
                try:
                    read = read_picture(data, kind)
                    verdict = unique(read).status
                except Exception as error:
                    read, verdict = None, error
                seconds = time.perf_counter() - started
                if size == 15:
                    times[set_name].append(seconds)
                exact = read is not None and material.same_puzzle(read, puzzle)
                named = None if exact or read is None else material.named(read, puzzle)
                results[set_name, kind].append((exact, named))
                by_size[set_name, size].append(exact)
                if not exact and options.keep:
                    name = (
                        f"{set_name}-{size}-{kind.replace(' ', '-')}-{len(results[set_name, kind])}"
                    )
                    (
                        options.keep / f"{name}.{'jpg' if set_name == 'photo' else 'png'}"
                    ).write_bytes(data)
                    (options.keep / f"{name}.txt").write_text(f"{puzzle.to_json()}\n{verdict}\n")
                if len(glyph_sample) < 60 and rng.random() < 0.25:
                    glyph_sample.append((data, puzzle))
        for puzzle in material.tatham_puzzles(size, options.count, options.seed * 1000 + size):
            cell = rng.choice(sorted(puzzle.islands))
            part = rng.choice(sorted(material.PARTS))
            for set_name, data in (("damaged", material.damaged(puzzle, cell, part)),):
                read = read_picture(data, "damaged")
                exact = material.same_puzzle(read, puzzle)
                results[set_name, f"one number {part}"].append(
                    (exact, None if exact else material.named(read, puzzle))
                )
                if not exact and options.keep:
                    name = (
                        f"{set_name}-{size}-{part}-{len(results[set_name, f'one number {part}'])}"
                    )
                    (options.keep / f"{name}.png").write_bytes(data)
                    (options.keep / f"{name}.txt").write_text(f"{puzzle.to_json()}\n{cell}\n")
        print(f"{size}x{size} done", file=sys.stderr, flush=True)
    _report(results, by_size, times)
    if options.readers:
        _compare_readers(glyph_sample)


def _report(results: dict, by_size: dict, times: dict) -> None:
    print("\nset    pictures of          count   exact  not exact  suspects name the misread")
    for set_name in ("clean", "photo", "damaged"):
        total = []
        for (name, kind), rows in sorted(results.items()):
            if name != set_name:
                continue
            total += rows
            print(_line(set_name, kind, rows))
        print(_line(set_name, "all", total))
    print("\nexact reads by size: " + "  ".join(
        f"{size}x{size} clean {_share(by_size['clean', size])} "
        f"photo {_share(by_size['photo', size])}"
        for size in SIZES
    ))  # fmt: skip
    for set_name, seconds in times.items():
        print(
            f"15x15 {set_name}: read and checked for uniqueness in "
            f"{statistics.median(seconds):.2f} s"
            f" (median of {len(seconds)}), {max(seconds):.2f} s at most"
        )


def _line(set_name: str, kind: str, rows: list) -> str:
    exact = sum(1 for e, _ in rows if e)
    rest = [named for e, named in rows if not e]
    named = sum(1 for n in rest if n)
    shown = f"{named} of {len(rest)}" if rest else "-"
    share = 100 * exact / len(rows)
    return f"{set_name:6} {kind:20} {len(rows):5} {share:6.1f}%  {len(rest):9}  {shown}"


def _share(rows: list[bool]) -> str:
    return f"{sum(rows)}/{len(rows)}"


def _compare_readers(sample: list[tuple[bytes, Puzzle]]) -> None:
    """The shipped classifier and Tesseract on the same numbers, cut out as the reader cuts
    them at the islands it placed right."""
    import cv2
    import numpy as np

    from hashi_asp.pictures import digits, reading
    from hashi_asp.pictures.lattice import fit

    masks, truths = [], []
    for data, puzzle in sample:
        gray = reading.grey(data, "sample")
        _, found = reading._first_look(gray)
        if len(found) < 2:
            continue
        lattice = fit(
            np.array([g.centre for g in found]), float(np.median([g.height for g in found]))
        )
        meant = material.normalised(puzzle)
        placed = {cell: found[i] for i, cell in lattice.cells.items()}
        if set(placed) != set(meant):
            continue
        for cell, glyph in placed.items():
            masks.append(glyph.mask)
            truths.append(meant[cell])
    started = time.perf_counter()
    chances = digits.chances(masks)
    ours_seconds = time.perf_counter() - started
    ours = [int(row[1:9].argmax()) + 1 for row in chances]
    print(f"\ndigit readers on {len(masks)} numbers cut out of {len(sample)} pictures:")
    right = sum(a == b for a, b in zip(ours, truths))
    print(
        f"  shipped classifier: {right / len(truths):.2%} right, "
        f"{1000 * ours_seconds / len(masks):.2f} ms a number"
    )
    if shutil.which("tesseract") is None:
        print("  tesseract: not installed")
        return
    answers = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        for i, mask in enumerate(masks):
            scale = 40 / mask.shape[0]
            big = cv2.resize(255 - mask, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
            page = cv2.copyMakeBorder(big, 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=255)
            path = Path(folder, f"{i}.png")
            cv2.imwrite(str(path), page)
            said = subprocess.run(
                [
                    "tesseract",
                    str(path),
                    "-",
                    "--psm",
                    "10",
                    "-c",
                    "tessedit_char_whitelist=12345678",
                ],
                capture_output=True,
                text=True,
            ).stdout.strip()
            answers.append(int(said[0]) if said[:1].isdigit() else None)
    seconds = time.perf_counter() - started
    right = sum(a == b for a, b in zip(answers, truths))
    print(
        f"  tesseract --psm 10: {right / len(truths):.2%} right, "
        f"{1000 * seconds / len(masks):.0f} ms a number"
    )


if __name__ == "__main__":
    main()
