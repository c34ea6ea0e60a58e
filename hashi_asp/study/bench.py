"""Benchmarking, the quick way: ``hashi-asp bench`` solves many puzzles with one program and
prints the times grouped like Table 1 of Coelho, Laporte, Lindbeck & Vidal (2019).

It is a study (:mod:`hashi_asp.study`) of one variant and no database: the same runs, made by
the same loop, in this process (one job) or in local runner processes (``jobs``), each row kept
in memory and reported at the end (``--csv``, ``--json``).  For many variants, seeds, limits per
run, a database that survives interruptions, or a cluster: ``hashi-asp study``.

Every answer passes the independent checker before its row counts as solved; a failed check
is a failed row (status ``invalid``), never a fast one.  A row's status is its run's, in the
one vocabulary of verdicts (:class:`~hashi_asp.status.Verdict`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from ..asp.interface import Program
from ..commands.declaration import (
    FLAG,
    INT,
    OUTPUT,
    PATHS,
    Command,
    Given,
    Option,
    OptionError,
    Outcome,
    Printed,
    lines,
)
from ..commands.shared_options import FORCE, PROGRAM, RUN_TIME_LIMIT, prepare_output, program_of
from ..errors import HashiError, PuzzleError
from ..puzzle import plural
from ..status import Status, Verdict
from ..stopping import Deadline
from ..workers.executors import JOBS_PER_CORE
from .runs import DATASET_NAME, Record, Task

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
FAILED = {Verdict.UNSOLVABLE, Verdict.INVALID, Verdict.MEMOUT, Verdict.ERROR}
"""The statuses of a failed row: no solution, an answer the checker refused, no run."""
__all__ = ["COLUMNS", "DATASET_NAME", "FAILED", "Row", "bench", "bench_one"]


@dataclass
class Row:
    """One puzzle's outcome.  ``seconds`` = reading + grounding + solving (to the first solution,
    or to the verdict with ``unique``).  ``status``: solved (or unique, multiple), unknown (out of
    time, or a solution but no verdict), unsolvable, invalid (an answer failed the check),
    memout, error."""

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

    @classmethod
    def of(cls, record: Record) -> Row:
        """A study's record as a bench row: its status is the run's."""
        read, ground, search = (x or 0.0 for x in (record.read, record.ground, record.search))
        return cls(
            record.instance,
            record.islands or 0,
            record.status,
            read + ground + search,
            read,
            ground,
            search,
            record.choices or 0,
            record.conflicts or 0,
            record.message if record.status in FAILED else "",
        )


def puzzle_files(paths: Iterable[str | os.PathLike]) -> list[Path]:
    """The files given, with directories searched recursively for puzzle files, sorted."""
    from ..files import puzzle_files as found

    return sorted({Path(name) for name in found([str(p) for p in paths])})


def bench(
    paths: Iterable[str | os.PathLike],
    *,
    jobs: int = 1,
    unique_verdict: bool = False,
    time_limit: float | None = None,
    program: Program = Program(),
    rules: Mapping[str, Any] | None = None,
    on_row: Callable[[Row], None] | None = None,
    deadline: Deadline | None = None,
) -> list[Row]:
    """Benchmark every puzzle under ``paths`` (``jobs`` runner processes, or this process for
    one): the time to the first solution, or with ``unique_verdict`` to the uniqueness verdict;
    rows sorted by file.  ``rules`` (``max_bridges=``, ``no_loops=``) replace each puzzle's own.
    ``on_row`` is called as each puzzle is finished.  When ``deadline`` (the whole benchmark's)
    is stopped, by a signal or Ctrl-C, the runners are ended and the rows finished are returned
    (``deadline.stopped`` says why)."""
    from ..files import read_text
    from ..workers.executors import Here, Processes
    from . import Progress, run
    from .plan import Instance, Plan
    from .variants import Variant

    rows: list[Row] = []

    def keep(row: Row) -> None:
        rows.append(row)
        if on_row:
            on_row(row)

    instances = []
    for path in puzzle_files(paths):
        try:
            instances.append(Instance(str(path), read_text(path)))
        except HashiError as error:  # a file that cannot be read is a failed row, as any
            keep(Row(str(path), 0, Verdict.ERROR.value, 0.0, 0.0, 0.0, 0.0, 0, 0, str(error)))
    variant = Variant("bench", "", program, dict(rules or {}))
    plan = Plan(instances, [variant], _task(unique_verdict), (1,), time_limit)
    executor = Here() if jobs <= 1 else Processes(jobs).at_most(len(instances))

    def made(progress: Progress, record: Record | None) -> None:
        if record is not None:
            keep(Row.of(record))

    run(plan, executor, on_record=made, deadline=deadline)
    return sorted(rows, key=lambda row: row.file)


def bench_one(
    path: str | os.PathLike,
    *,
    unique_verdict: bool = False,
    time_limit: float | None = None,
    program: Program = Program(),
    rules: Mapping[str, Any] | None = None,
) -> Row:
    """One puzzle file, in this process, as :func:`bench` times it."""
    from ..files import read_text
    from .plan import task_of
    from .runs import perform
    from .variants import Variant

    try:
        text = read_text(path)
    except HashiError as error:
        return Row(str(path), 0, Verdict.ERROR.value, 0.0, 0.0, 0.0, 0.0, 0, 0, str(error))
    variant = Variant("bench", "", program, dict(rules or {}))
    name, options = task_of(_task(unique_verdict), "bench")
    task = Task(str(path), text, variant, 1, name, time_limit, options=options)
    return Row.of(perform(task))


def _task(unique_verdict: bool) -> str:
    """What each puzzle's run times: the first solution, or the uniqueness verdict alone (not
    the fix ``unique`` proposes for two solutions)."""
    return "unique --no-propose" if unique_verdict else "solve"


# ---------------------------------------------------------------------------- reports


def summary(rows: list[Row], elapsed: float | None = None) -> str:
    """A table of mean and worst seconds per group: (islands, beta, alpha) for files named like the
    Coelho et al. dataset, else by island count; then the totals: the puzzles' seconds added up,
    and ``elapsed``, the wall-clock time of the whole run, if given (less with several jobs)."""
    from .report import grouped

    header, groups = grouped(rows, lambda row: row.file, lambda row: row.islands)
    dataset = len(header) == 3
    lines = [[*header, "count", "mean s", "median s", "max s", "failed"]]
    for key in groups:
        lines.append([str(k) for k in key] + _stats(groups[key]))
    if dataset:
        for n in sorted({key[0] for key in groups}):
            members = [row for key, group in groups.items() if key[0] == n for row in group]
            lines.append([str(n), "all", "all", *_stats(members)])
    lines.append(["all"] + [""] * (len(header) - 1) + _stats(rows))
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    text = "\n".join(
        "  ".join(cell.rjust(width) for cell, width in zip(line, widths)) for line in lines
    )
    total = sum(row.seconds for row in rows)
    statuses: dict[str, int] = {}
    for row in rows:
        statuses[row.status] = statuses.get(row.status, 0) + 1
    counts = ", ".join(f"{count} {status}" for status, count in sorted(statuses.items()))
    wall = "" if elapsed is None else f", {elapsed:.2f} s elapsed"
    return f"{text}\n{plural(len(rows), 'puzzle')} ({counts}); total {total:.2f} s{wall}"


def _stats(rows: list[Row]) -> list[str]:
    import statistics

    seconds = [row.seconds for row in rows]
    failed = sum(row.status in FAILED for row in rows)
    return [
        str(len(rows)),
        f"{statistics.mean(seconds):.4f}",
        f"{statistics.median(seconds):.4f}",
        f"{max(seconds):.4f}",
        str(failed),
    ]


def csv_text(rows: list[Row]) -> str:
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow(
            [
                f"{value:.6f}" if isinstance(value, float) else str(value)
                for value in (getattr(row, name) for name in COLUMNS)
            ]
        )
    return out.getvalue()


def json_text(rows: list[Row]) -> str:
    import json
    from dataclasses import asdict

    return json.dumps([asdict(row) for row in rows], indent=1) + "\n"


assert tuple(f.name for f in fields(Row)) == COLUMNS


# ---------------------------------------------------------------------------- the command


def benchmark(given: Given) -> Outcome:
    """The ``bench`` command: :func:`bench` with the options given, its rows written and
    summed up."""
    from ..files import write_output
    from ..workers.executors import local_jobs
    from . import different_outputs

    local_jobs(given.jobs, refused=OptionError)
    different_outputs(("--csv", given.csv_file), ("--json", given.json_file))
    prepare_output(given, given.csv_file, given.json_file)
    program, rules = program_of(given.values)  # -c max_bridges=K: every puzzle's
    files = puzzle_files(given.paths)
    if not files:
        raise PuzzleError("no puzzle files found", " ".join(given.paths))
    started = time.perf_counter()
    options = {"jobs": given.jobs, "unique_verdict": given.unique_verdict, "rules": rules}
    with given.hooks.progress(total=len(files), unit="puzzle") as progress:
        tick = lambda row: progress.update()  # noqa: E731
        rows = bench(
            files,
            program=program,
            time_limit=given.time_limit,
            on_row=tick,
            deadline=given.deadline,
            **options,
        )
    stopped = given.deadline.stopped  # a signal: the rows finished
    # The rows of the puzzles finished are reported and written, also after an interruption.
    for path, text in ((given.csv_file, csv_text), (given.json_file, json_text)):
        if path:
            write_output(path, text(rows).encode("utf-8"), force=given.force)
    elapsed = time.perf_counter() - started
    errors = "".join(f"hashi-asp: {row.file}: {row.error}\n" for row in rows if row.error)
    if stopped is not None:
        finished = f"{len(rows)} of {len(files)} puzzles finished"
        errors += f"hashi-asp: {stopped.value}: {finished}\n"
        status = stopped.status(answered=True)
    elif any(row.status in FAILED for row in rows):
        status = Status.NO
    else:
        status = Status.PARTIAL if any(row.status == Verdict.UNKNOWN for row in rows) else Status.OK
    table = lines(summary(rows, elapsed)) if rows else ""
    return Outcome(status, printed=lambda: Printed(table, errors), result=rows)


COMMAND = Command(
    "bench",
    """Solve every puzzle in PATHS (files, or folders searched for .has, .txt and .json) and
    report the times: per puzzle in --csv/--json, grouped like Table 1 of Coelho et al. (islands,
    beta, alpha) on standard output.  Exit 0 if every puzzle was solved and its answer passed
    the checker, 1 if any had no solution, failed the check or could not be read, 3 if any ran
    out of time.  (A study of one variant, without a database: see `study`.)""",
    (
        Option("paths", PATHS, argument=True, required=True),
        Option(
            "jobs",
            INT,
            f"Worker processes (at most {JOBS_PER_CORE} a core).",
            default=1,
            low=1,
            short="-j",
        ),
        Option(
            "unique",
            FLAG,
            "Time the uniqueness verdict, not a first solution.",
            default=False,
            dest="unique_verdict",
        ),
        RUN_TIME_LIMIT,
        Option("csv", OUTPUT, "Write one row per puzzle.", dest="csv_file"),
        Option("json", OUTPUT, "Write one object per puzzle.", dest="json_file"),
        replace(FORCE, help="Replace the --csv and --json files if they exist."),
        *PROGRAM,
    ),
    benchmark,
)
