"""``bench``: the solver timed on many puzzles, grouped like Table 1 of Coelho et al.: a study
(:mod:`hashi_asp.study`) of one variant without a database (:func:`hashi_asp.bench.bench`)."""

from __future__ import annotations

import time
from dataclasses import replace

from ..status import Status, Verdict
from .common import FORCE, PROGRAM, RUN_TIME_LIMIT, prepare_output, program_of
from .unit import FLAG, INT, OUTPUT, PATHS, Command, Given, Option, Outcome, Printed, lines


def bench(given: Given) -> Outcome:
    from .. import bench
    from ..files import write_output
    from ..puzzle import PuzzleError

    prepare_output(given, given.csv_file, given.json_file)
    program, rules = program_of(given.values)  # -c max_bridges=K: every puzzle's
    files = bench.puzzle_files(given.paths)
    if not files:
        raise PuzzleError("no puzzle files found", " ".join(given.paths))
    started = time.perf_counter()
    options = {"jobs": given.jobs, "unique_verdict": given.unique_verdict, "rules": rules}
    with given.hooks.progress(total=len(files), unit="puzzle") as progress:
        tick = lambda row: progress.update()  # noqa: E731
        rows = bench.bench(
            files,
            program=program,
            time_limit=given.time_limit,
            on_row=tick,
            deadline=given.deadline,
            **options,
        )
    stopped = given.deadline.stopped  # a signal: the rows finished
    # The rows of the puzzles finished are reported and written, also after an interruption.
    for path, text in ((given.csv_file, bench.csv_text), (given.json_file, bench.json_text)):
        if path:
            write_output(path, text(rows).encode("utf-8"), force=given.force)
    elapsed = time.perf_counter() - started
    errors = "".join(f"hashi-asp: {row.file}: {row.error}\n" for row in rows if row.error)
    if stopped is not None:
        finished = f"{len(rows)} of {len(files)} puzzles finished"
        errors += f"hashi-asp: {stopped.value}: {finished}\n"
        status = stopped.status(answered=True)
    elif any(row.status in bench.FAILED for row in rows):
        status = Status.NO
    else:
        status = Status.PARTIAL if any(row.status == Verdict.UNKNOWN for row in rows) else Status.OK
    summary = lines(bench.summary(rows, elapsed)) if rows else ""
    return Outcome(status, printed=lambda: Printed(summary, errors), result=rows)


COMMAND = Command(
    "bench",
    """Solve every puzzle in PATHS (files, or folders searched for .has, .txt and .json) and
    report the times: per puzzle in --csv/--json, grouped like Table 1 of Coelho et al. (islands,
    beta, alpha) on standard output.  Exit 0 if every puzzle was solved and its answer passed
    the checker, 1 if any had no solution, failed the check or could not be read, 3 if any ran
    out of time.  (A study of one variant, without a database: see `study`.)""",
    (
        Option("paths", PATHS, argument=True, required=True),
        Option("jobs", INT, "Worker processes.", default=1, low=1, short="-j"),
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
    bench,
)
