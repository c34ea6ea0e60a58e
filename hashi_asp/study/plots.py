"""A study's figures, from its database alone, with matplotlib (the ``plot`` extra), as SVG or
PNG by the file's suffix:

- :func:`cactus`: per variant, its solved runs' seconds sorted, against how many were solved
  within that time (the further right and lower, the better);
- :func:`scatter`: two variants' seconds on each cell both ran, log-log, with the diagonal; a
  run that was not solved sits on the border (at the time limit);
- :func:`scaling`: seconds against islands per variant, each solved run a point, the median
  per number of islands a line.

In an SVG each variant's points are one group with the id ``variant-NAME`` (``pairs`` in the
scatter plot), one marker per point, so that other tools can read the figure back.
"""

from __future__ import annotations

import os
import statistics
from pathlib import Path
from typing import Any

from .database import StudyError
from .runs import Record

SUFFIXES = (".svg", ".png")


def _figure(title: str) -> tuple[Any, Any]:
    try:
        import matplotlib
        from matplotlib.figure import Figure
    except ImportError:
        raise StudyError(
            "study plot needs the plot extra (matplotlib is not installed): "
            "pip install 'hashi-asp[plot]'"
        ) from None
    matplotlib.rcParams["svg.hashsalt"] = "hashi-asp"  # the same figure, the same file
    matplotlib.rcParams["svg.fonttype"] = "none"  # text as text
    figure = Figure(figsize=(7, 5), layout="constrained")
    axes = figure.add_subplot()
    axes.set_title(title)
    axes.grid(True, which="major", alpha=0.3)
    return figure, axes


def save(figure: Any, path: str | os.PathLike, force: bool = False) -> None:
    """Write the figure as the file's suffix says, whole or not at all; a file that exists is
    replaced only with ``force``."""
    import io

    from ..files import write_output

    path = Path(path)
    kind = path.suffix.lower()
    out = io.BytesIO()
    metadata = {"Date": None} if kind == ".svg" else {"Software": None}
    figure.savefig(out, format=kind[1:], metadata=metadata, dpi=120)
    write_output(path, out.getvalue(), force=force)


def check_path(path: str | os.PathLike) -> None:
    if Path(path).suffix.lower() not in SUFFIXES:
        raise StudyError(f"{path}: a figure is a .svg or .png file")


def _variants(records: list[Record], plan: dict | None) -> list[str]:
    names = list((plan or {}).get("variants", {}))
    return [*names, *(n for n in dict.fromkeys(r.variant for r in records) if n not in names)]


def cactus(
    records: list[Record], plan: dict | None, path: str | os.PathLike, force: bool = False
) -> None:
    figure, axes = _figure("Runs solved within a time, per variant")
    for name in _variants(records, plan):
        times = sorted(r.wall for r in records if r.variant == name and r.answered)
        (line,) = axes.plot(
            range(1, len(times) + 1), times, marker="o", markersize=2, linewidth=1, label=name
        )
        line.set_gid(f"variant-{name}")
    axes.set_xlabel("runs solved")
    axes.set_ylabel("seconds (each run)")
    axes.set_yscale("log")
    axes.legend()
    save(figure, path, force)


def scatter(
    records: list[Record],
    plan: dict | None,
    first: str,
    second: str,
    path: str | os.PathLike,
    force: bool = False,
) -> None:
    names = _variants(records, plan)
    for name in (first, second):
        if name not in names:
            raise StudyError(f"--scatter: no variant {name!r} in the study ({', '.join(names)})")
    theirs = {(r.instance, r.seed): r for r in records if r.variant == second}
    common = [
        (r, theirs[(r.instance, r.seed)])
        for r in records
        if r.variant == first and (r.instance, r.seed) in theirs
    ]
    limit = (plan or {}).get("time_limit")
    solved = [r.wall for pair in common for r in pair if r.answered and r.wall > 0]
    border = limit or (2 * max(solved) if solved else 1.0)
    low = min(solved, default=border) / 2
    at = lambda r: max(r.wall, low) if r.answered else border  # noqa: E731
    figure, axes = _figure(f"Seconds per cell: {first} against {second}")
    (line,) = axes.plot(
        [at(a) for a, _ in common], [at(b) for _, b in common], "o", markersize=3, alpha=0.6
    )
    line.set_gid("pairs")
    axes.plot([low, border], [low, border], color="gray", linewidth=0.8)
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlim(low, border * 1.2)
    axes.set_ylim(low, border * 1.2)
    axes.set_aspect("equal")
    unsolved = "at the time limit" if limit else "on the border"
    axes.set_xlabel(f"{first}: seconds (not solved: {unsolved})")
    axes.set_ylabel(f"{second}: seconds")
    save(figure, path, force)


def scaling(
    records: list[Record], plan: dict | None, path: str | os.PathLike, force: bool = False
) -> None:
    figure, axes = _figure("Seconds against islands, per variant (solved runs; line: median)")
    for name in _variants(records, plan):
        runs = [r for r in records if r.variant == name and r.answered and r.islands is not None]
        (points,) = axes.plot(
            [r.islands for r in runs],
            [r.wall for r in runs],
            "o",
            markersize=2,
            alpha=0.5,
            label=name,
        )
        points.set_gid(f"variant-{name}")
        sizes = sorted({r.islands or 0 for r in runs})
        medians = [statistics.median(r.wall for r in runs if r.islands == n) for n in sizes]
        axes.plot(sizes, medians, color=points.get_color(), linewidth=1)
    axes.set_xlabel("islands")
    axes.set_ylabel("seconds (each run)")
    axes.set_yscale("log")
    axes.legend()
    save(figure, path, force)
