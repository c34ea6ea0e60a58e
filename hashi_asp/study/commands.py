"""What ``hashi-asp study run``, ``study report``, ``study plot`` and ``bench`` do once their
options are read (:mod:`hashi_asp.cli` declares the options): each returns the command's exit
code.

``study run``: 0 when every cell of the plan has a row; 1 when some have none (their runs were
lost with their workers, or the database could not be written: the rows before stay); 2 for a
bad plan, variant or database (one that holds another plan); 130 on Ctrl-C and 143 on SIGTERM,
with every finished run's row kept.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from .. import stopping
from ..puzzle import plural

EXIT_MISSING = 1


def run(
    database: str,
    paths: tuple[str, ...],
    plan_file: str | None,
    variants: tuple[str, ...],
    task: str | None,
    repeat: int | None,
    *,
    time_limit: float | None,
    memory_limit: int | None,
    jobs: int | None,
    scheduler: str | None,
) -> int:
    from tqdm import tqdm

    from . import plan as plans
    from . import run as run_study
    from .database import Database, StudyError
    from .executors import executor

    if plan_file is not None:
        named: dict[str, object] = {
            "PATHS": paths,
            "--variant": variants,
            "--task": task,
            "--repeat": repeat,
        }
        named.update({"--time-limit": time_limit, "--memory-limit": memory_limit})
        given = [name for name, value in named.items() if value]
        if given:
            raise click.UsageError(
                f"--plan says what {', '.join(given)} would: give one or the other"
            )
        spec = plans.load(plan_file)
    elif paths or variants:
        if not paths:
            raise click.UsageError("give PATHS (files, folders) with --variant, or --plan")
        spec = plans.one_off(
            list(paths),
            list(variants),
            task=task or "solve",
            repeat=repeat or 1,
            time_limit=time_limit,
            memory_limit=memory_limit,
        )
    else:
        if not Path(database).exists():
            raise click.UsageError(
                "give PATHS and --variant, or --plan (or a study database to resume)"
            )
        with Database(database) as stored:
            spec = stored.setting("plan")
        if spec is None:
            raise StudyError(f"{database}: holds no plan to resume")
    where = executor(jobs or _cores(), scheduler)
    plan = plans.resolve(spec)
    with Database(database, create=True) as db:
        db.adopt(spec, plan.fingerprint())
        before = len(db.done())
        pending = plan.cells - before
        click.echo(
            f"hashi-asp: {database}: {plural(plan.cells, 'cell')}, {before} with a row already, "
            f"{pending} to run on {where.where}",
            err=True,
        )
        failures: dict[str, list[str]] = {}
        bar = tqdm(total=pending, unit="run", disable=None, smoothing=0.05)

        def tick(progress, record) -> None:
            if record is not None and not record.answered:
                failures.setdefault(f"{record.variant}: {record.status}", []).append(
                    record.message or record.instance
                )
            bar.update()
            if progress.failed or progress.lost:
                bar.set_postfix(failed=progress.failed, lost=len(progress.lost), refresh=False)

        try:
            with bar:
                progress = run_study(plan, where, db, on_record=tick)
        except KeyboardInterrupt:
            done = len(db.done())
            click.echo(
                f"hashi-asp: {stopping.stopped_by()}: {done} of {plural(plan.cells, 'cell')} "
                f"{_have(done)} a row; `hashi-asp study run {database}` goes on from there",
                err=True,
            )
            return stopping.exit_code()
        done = len(db.done())
    for what, messages in sorted(failures.items()):
        click.echo(f"hashi-asp: {what} {len(messages)}, first: {messages[0]}", err=True)
    click.echo(
        f"hashi-asp: {database}: {done} of {plural(plan.cells, 'cell')} {_have(done)} a row "
        f"({progress.made} run now, {progress.failed} not solved)",
        err=True,
    )
    if progress.lost:
        first = progress.lost[0]
        click.echo(
            f"hashi-asp: {plural(len(progress.lost), 'run')} lost (first: {first.task.instance}, "
            f"variant {first.task.variant.name}: {first.message}); run again to retry",
            err=True,
        )
    return 0 if done >= plan.cells else EXIT_MISSING


def _have(count: int) -> str:
    return "has" if count == 1 else "have"


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def report(database: str, output: str) -> int:
    from ..notations.json import dumps
    from . import report as reports
    from .database import Database

    with Database(database) as db:
        document = reports.summary(db.records(), db.setting("fingerprint"))
    if output == "json":
        click.echo(dumps(document))
    elif output == "csv":
        click.echo(reports.csv_text(document), nl=False)
    else:
        click.echo(reports.text(document, markdown=output == "markdown"))
    return 0


def plot(
    database: str,
    cactus: str | None,
    scatter: tuple[str, str] | None,
    scaling: str | None,
) -> int:
    from . import plots
    from .database import Database

    if not (cactus or scatter or scaling):
        raise click.UsageError("name a figure: --cactus FILE, --scatter A,B FILE or --scaling FILE")
    pair = None
    if scatter:
        pair = scatter[0].split(",")
        if len(pair) != 2 or not all(pair):
            raise click.UsageError(f"--scatter {scatter[0]!r}: expected two variants, A,B")
    for path in (cactus, scatter[1] if scatter else None, scaling):
        if path is not None:
            plots.check_path(path)
    with Database(database) as db:
        records, plan = db.records(), db.setting("fingerprint")
    if cactus:
        plots.cactus(records, plan, cactus)
    if scatter and pair:
        plots.scatter(records, plan, pair[0], pair[1], scatter[1])
    if scaling:
        plots.scaling(records, plan, scaling)
    written = [p for p in (cactus, scatter[1] if scatter else None, scaling) if p]
    click.echo(f"hashi-asp: wrote {', '.join(written)}", err=True)
    return 0


def bench(
    paths: tuple[str, ...],
    jobs: int,
    unique: bool,
    time_limit: float | None,
    csv_file: str | None,
    json_file: str | None,
    program_options: dict,
) -> int:
    """``hashi-asp bench``: exit 0 when every puzzle was solved and checked, 1 when any was not
    (no solution, a failed check, unreadable), 3 when any ran out of time."""
    import time

    from tqdm import tqdm

    from .. import bench as benching
    from ..asp.control import judge_program
    from ..asp.interface import program_and_rules
    from ..files import write_atomically
    from ..puzzle import PuzzleError

    program, rules = program_and_rules(**program_options)  # -c max_bridges=K: every puzzle's
    judge_program(program)
    files = benching.puzzle_files(paths)
    if not files:
        raise PuzzleError("no puzzle files found", " ".join(paths))
    stopped, started = False, time.perf_counter()
    options: dict[str, Any] = {
        "jobs": jobs,
        "unique_verdict": unique,
        "time_limit": time_limit,
        "rules": rules,
    }
    try:
        with tqdm(total=len(files), unit="puzzle", disable=None) as progress:
            tick = lambda row: progress.update()  # noqa: E731
            rows = benching.bench(files, program=program, on_row=tick, **options)
    except KeyboardInterrupt as cut:  # the rows finished, when the signal came while benching
        rows, stopped = getattr(cut, "rows", []), True
    # The rows of the puzzles finished are reported and written, also after an interruption.
    for path, text in ((csv_file, benching.csv_text), (json_file, benching.json_text)):
        if path:
            write_atomically(path, text(rows).encode("utf-8"))
    if rows:
        click.echo(benching.summary(rows, time.perf_counter() - started))
    for row in rows:
        if row.error:
            click.echo(f"hashi-asp: {row.file}: {row.error}", err=True)
    if stopped:
        finished = f"{len(rows)} of {len(files)} puzzles finished"
        click.echo(f"hashi-asp: {stopping.stopped_by()}: {finished}", err=True)
        return stopping.exit_code()
    if any(row.status in benching.FAILED for row in rows):
        return 1
    return 3 if any(row.status == "unknown" for row in rows) else 0
