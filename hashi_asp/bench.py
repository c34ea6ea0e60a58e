"""Benchmarking: solve many puzzles, in this process or in worker processes, one row of timings
per puzzle (reports.py groups them like Table 1 of Coelho, Laporte, Lindbeck & Vidal (2019)).

Every answer passes the independent checker before its row counts as solved; a failed check
is a failed row (status ``invalid``), never a fast one.
"""

from __future__ import annotations

import functools
import os
import re
import signal
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from . import notations
from .asp.interface import Program
from .puzzle import HashiError, PuzzleError
from .solving import solve, unique
from .status import Status
from .stopping import Deadline

COLUMNS = (
    "file",
    "islands",
    "status",
    "seconds",
    "read_seconds",
    "ground_seconds",
    "solve_seconds",
    "choices",
    "conflicts",
    "error",
)
DATASET_NAME = re.compile(
    r"Hs_(?P<size>\d+)_(?P<n>\d+)_(?P<beta>\d+)_(?P<alpha>\d+)_(?P<id>\d+)\.has$"
)
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


def bench_one(
    path: str | os.PathLike,
    *,
    unique_verdict: bool = False,
    time_limit: float | None = None,
    program: Program = Program(),
    rules: Mapping[str, Any] | None = None,
) -> Row:
    """Solve one puzzle file and time each stage; ``time_limit`` covers all of them.  ``rules``
    (``max_bridges=``, ``no_loops=``) replace the puzzle's own.  Ctrl-C (``KeyboardInterrupt``)
    is raised again, as the row would be incomplete."""
    started = time.perf_counter()
    deadline = Deadline.of(time_limit)
    try:
        puzzle = notations.read(path, **(rules or {}))
    except HashiError as error:
        return Row(str(path), 0, "error", 0.0, 0.0, 0.0, 0.0, 0, 0, str(error))
    read_seconds = time.perf_counter() - started
    try:
        if unique_verdict:
            result = unique(puzzle, program=program, time_limit=deadline)
        else:
            result = solve(puzzle, program=program, time_limit=deadline)
    except HashiError as failure:
        return Row(
            str(path),
            len(puzzle.islands),
            "invalid" if failure.status is Status.FAULT else "error",
            read_seconds,
            read_seconds,
            0.0,
            0.0,
            0,
            0,
            str(failure),
        )
    if result.interrupted:
        raise KeyboardInterrupt
    status = result.status
    if status == "solved" and unique_verdict:
        status = "unknown"  # a solution, but no verdict on uniqueness
    stats = result.stats
    return Row(
        str(path),
        len(puzzle.islands),
        status,
        read_seconds + stats["ground_seconds"] + stats["solve_seconds"],
        read_seconds,
        stats["ground_seconds"],
        stats["solve_seconds"],
        stats["choices"],
        stats["conflicts"],
    )


class Interrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM stopped a benchmark: ``rows`` are the puzzles finished, sorted."""

    def __init__(self, rows: list[Row]):
        super().__init__()
        self.rows = rows


def bench(
    paths: Iterable[str | os.PathLike],
    *,
    jobs: int = 1,
    unique_verdict: bool = False,
    time_limit: float | None = None,
    program: Program = Program(),
    rules: Mapping[str, Any] | None = None,
    on_row: Callable[[Row], None] | None = None,
) -> list[Row]:
    """Benchmark every puzzle under ``paths`` (``jobs`` worker processes): the time to the first
    solution, or with ``unique_verdict`` to the uniqueness verdict; rows sorted by file.
    ``on_row`` is called as each puzzle is finished.  On Ctrl-C the workers are ended and
    :class:`Interrupted` is raised with the rows finished."""
    files = puzzle_files(paths)
    one = functools.partial(
        bench_one,
        unique_verdict=unique_verdict,
        time_limit=time_limit,
        program=program,
        rules=dict(rules or {}),
    )
    rows: list[Row] = []
    try:
        if jobs <= 1:
            for path in files:
                rows.append(one(path))
                if on_row:
                    on_row(rows[-1])
        else:
            import multiprocessing  # imported only when needed: start-up time

            # Leaving the block (also by KeyboardInterrupt) ends the workers with SIGTERM.
            with multiprocessing.Pool(jobs, initializer=_worker_signals) as pool:
                for row in pool.imap_unordered(one, files):
                    rows.append(row)
                    if on_row:
                        on_row(row)
    except KeyboardInterrupt:
        raise Interrupted(sorted(rows, key=lambda row: row.file)) from None
    return sorted(rows, key=lambda row: row.file)


def _worker_signals() -> None:
    """Ctrl-C reaches every process of the terminal's group: the workers leave it to the main
    process, which ends them with SIGTERM, their default (silent) end."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


assert tuple(f.name for f in fields(Row)) == COLUMNS
