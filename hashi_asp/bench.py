"""Benchmarking: solve many puzzles in-process, one row of timings per puzzle, and a summary
grouped like Table 1 of Coelho, Laporte, Lindbeck & Vidal (2019).

Every answer passes the independent checker before its row counts as solved; a failed check
is a failed row (status ``invalid``), never a fast one.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import signal
import statistics
import time
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Callable, Iterable, Mapping

from . import notations
from .puzzle import HashiError, PuzzleError
from .solving import Deadline, checked, ground, search

COLUMNS = ("file", "islands", "status", "seconds", "read_seconds", "ground_seconds",
           "solve_seconds", "choices", "conflicts", "error")
DATASET_NAME = re.compile(r"Hs_(?P<size>\d+)_(?P<n>\d+)_(?P<beta>\d+)_(?P<alpha>\d+)_(?P<id>\d+)\.has$")
PUZZLE_SUFFIXES = {".has", ".txt", ".json"}
FAILED = {"unsolvable", "invalid", "error"}


@dataclass
class Row:
    """One puzzle's outcome.  ``seconds`` = reading + grounding + solving (to the first solution,
    or to the verdict with ``unique``)."""

    file: str
    islands: int
    status: str
    seconds: float
    read_seconds: float
    ground_seconds: float
    solve_seconds: float
    choices: int
    conflicts: int
    error: str = ""


def puzzle_files(paths: Iterable[str | os.PathLike]) -> list[Path]:
    """The files given, with directories searched recursively for puzzle files, sorted."""
    found: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            found.extend(p for p in path.rglob("*") if p.suffix in PUZZLE_SUFFIXES and p.is_file())
        elif path.exists():
            found.append(path)
        else:
            raise PuzzleError("no such file or directory", str(path))
    return sorted(set(found))


def bench_one(path: str | os.PathLike, *, unique: bool = False, time_limit: float | None = None,
              encoding: str | os.PathLike | None = None,
              additions: Iterable[str | os.PathLike] = (),
              constants: Mapping[str, str] | None = None) -> Row:
    """Solve one puzzle file and time each stage; ``time_limit`` covers all of them.  Ctrl-C
    (``KeyboardInterrupt``) is raised again, as the row would be incomplete."""
    started = time.perf_counter()
    deadline = Deadline.of(time_limit)
    try:
        puzzle = notations.read(path)
    except HashiError as error:
        return Row(str(path), 0, "error", 0.0, 0.0, 0.0, 0.0, 0, 0, str(error))
    read_seconds = time.perf_counter() - started
    found = []
    status = "error"
    try:
        grounded = ground(puzzle, encoding=encoding, additions=additions, constants=constants,
                          arguments=[f"--models={2 if unique else 1}"], time_limit=deadline)
        outcome = search(grounded.control,
                         lambda model: found.append(checked(grounded, model, len(found) + 1)),
                         time_limit=deadline)
        if outcome.interrupted:
            raise KeyboardInterrupt
        ground_seconds, solve_seconds = grounded.ground_seconds, outcome.seconds
        if len(found) >= 2:
            status = "multiple"
        elif found:
            status = "unique" if unique and outcome.exhausted else "solved"
        else:
            status = "unsolvable" if outcome.exhausted else "unknown"
        if unique and len(found) == 1 and not outcome.exhausted:
            status = "unknown"                 # a solution, but no verdict on uniqueness
        solvers = grounded.control.statistics["solving"]["solvers"]
        choices, conflicts, error = int(solvers["choices"]), int(solvers["conflicts"]), ""
    except HashiError as failure:
        ground_seconds = solve_seconds = 0.0
        choices = conflicts = 0
        status = "invalid" if failure.exit_code == 5 else "error"
        error = str(failure)
    return Row(str(path), len(puzzle.islands), status,
               read_seconds + ground_seconds + solve_seconds, read_seconds, ground_seconds,
               solve_seconds, choices, conflicts, error)


def bench(paths: Iterable[str | os.PathLike], *, jobs: int = 1, unique: bool = False,
          time_limit: float | None = None, encoding: str | os.PathLike | None = None,
          additions: Iterable[str | os.PathLike] = (), constants: Mapping[str, str] | None = None,
          on_row: Callable[[Row], None] | None = None) -> list[Row]:
    """Benchmark every puzzle under ``paths`` (``jobs`` worker processes); rows sorted by file.
    ``on_row`` is called as each puzzle is finished.  On Ctrl-C the workers are ended and
    ``KeyboardInterrupt`` is raised (the rows finished have been passed to ``on_row``)."""
    files = puzzle_files(paths)
    options = dict(unique=unique, time_limit=time_limit, encoding=encoding,
                   additions=tuple(additions), constants=dict(constants or {}))
    rows: list[Row] = []
    if jobs <= 1:
        for path in files:
            rows.append(bench_one(path, **options))
            if on_row:
                on_row(rows[-1])
    else:
        import multiprocessing     # imported only when needed: start-up time
        # Leaving the block (also by KeyboardInterrupt) ends the workers with SIGTERM.
        with multiprocessing.Pool(jobs, initializer=_worker_signals) as pool:
            for row in pool.imap_unordered(_bench_one_with, [(path, options) for path in files]):
                rows.append(row)
                if on_row:
                    on_row(row)
    return sorted(rows, key=lambda row: row.file)


def _bench_one_with(job: tuple[Path, dict]) -> Row:
    path, options = job
    return bench_one(path, **options)


def _worker_signals() -> None:
    """Ctrl-C reaches every process of the terminal's group: the workers leave it to the main
    process, which ends them with SIGTERM, their default (silent) end."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


# ---------------------------------------------------------------------------- reporting

def summary(rows: list[Row], elapsed: float | None = None) -> str:
    """A table of mean and worst seconds per group: (islands, beta, alpha) for files named like the
    Coelho et al. dataset, else by island count; then the totals: the puzzles' seconds added up,
    and ``elapsed``, the wall-clock time of the whole run, if given (less with several jobs)."""
    groups: dict[tuple, list[Row]] = {}
    dataset = bool(rows) and all(DATASET_NAME.search(Path(row.file).name) for row in rows)
    for row in rows:
        if dataset:
            match = DATASET_NAME.search(Path(row.file).name)
            key = (int(match["n"]), int(match["beta"]), int(match["alpha"]))
        else:
            key = (row.islands,)
        groups.setdefault(key, []).append(row)
    header = ["islands", "beta%", "alpha%"] if dataset else ["islands"]
    lines = [header + ["count", "mean s", "median s", "max s", "failed"]]
    for key in sorted(groups):
        lines.append([str(k) for k in key] + _stats(groups[key]))
    if dataset:
        for n in sorted({key[0] for key in groups}):
            members = [row for key, rows_ in groups.items() if key[0] == n for row in rows_]
            lines.append([str(n), "all", "all"] + _stats(members))
    lines.append(["all"] + [""] * (len(header) - 1) + _stats(rows))
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    text = "\n".join("  ".join(cell.rjust(width) for cell, width in zip(line, widths))
                     for line in lines)
    total = sum(row.seconds for row in rows)
    statuses = {}
    for row in rows:
        statuses[row.status] = statuses.get(row.status, 0) + 1
    counts = ", ".join(f"{count} {status}" for status, count in sorted(statuses.items()))
    wall = "" if elapsed is None else f", {elapsed:.2f} s elapsed"
    return f"{text}\n{len(rows)} puzzle{'s' * (len(rows) != 1)} ({counts}); total {total:.2f} s{wall}"


def _stats(rows: list[Row]) -> list[str]:
    seconds = [row.seconds for row in rows]
    failed = sum(row.status in FAILED for row in rows)
    return [str(len(rows)), f"{statistics.mean(seconds):.4f}", f"{statistics.median(seconds):.4f}",
            f"{max(seconds):.4f}", str(failed)]


def rows_csv(rows: list[Row]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow([_cell(getattr(row, name)) for name in COLUMNS])
    return out.getvalue()


def rows_json(rows: list[Row]) -> str:
    return json.dumps([asdict(row) for row in rows], indent=1) + "\n"


def _cell(value) -> str:
    return f"{value:.6f}" if isinstance(value, float) else str(value)


assert tuple(f.name for f in fields(Row)) == COLUMNS
