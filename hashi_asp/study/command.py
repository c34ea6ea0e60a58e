"""``study``: a command of three, ``study run`` (every cell of a plan a row in an SQLite
database, made on local processes or a Dask cluster), ``study report`` and ``study plot``
(from the database alone).  What a study is: :mod:`hashi_asp.study`.

``study run`` ends OK when every cell of the plan has a row; NO (exit 1) when some have none
(their runs were lost with their workers: running it again retries them); BAD_INPUT (exit 2)
for a bad plan, variant or database (one made for another plan, or one that cannot be
written: the rows before stay); interrupted or terminated (130, 143) with every finished
run's row kept.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from ..commands.declaration import (
    CHOICE,
    FILE,
    INT,
    OUTPUT,
    PATHS,
    TEXT,
    Command,
    Given,
    Option,
    OptionError,
    Outcome,
    Printed,
    lines,
)
from ..commands.shared_options import FORCE, JOBS, RUN_TIME_LIMIT, SCHEDULER, prepare_output, reads
from ..cores import cores
from ..puzzle import plural
from ..status import Status
from ..workers.executors import JOBS_PER_CORE
from . import MEMORY_LIMITS, MOST_SEED

LEAST_MEMORY, MOST_MEMORY = MEMORY_LIMITS

DATABASE = Option("db", FILE, argument=True, required=True)
"""DB, the study's database, read by ``study report`` and ``study plot``."""


def study(given: Given) -> Outcome:
    raise OptionError("study: give a command: run, report or plot")


# ---------------------------------------------------------------------------- run


def run(given: Given) -> Outcome:
    from ..files import not_the_input
    from ..workers.executors import Processes, executor
    from . import plan as plans
    from . import run as run_study
    from .database import Database

    spec, named = _spec(given)
    if given.jobs and given.scheduler:
        raise OptionError("--jobs is for local processes, --scheduler for a cluster: not both")
    where = executor(given.jobs or cores(), given.scheduler, refused=OptionError)
    note = given.hooks.note
    plan = plans.resolve(spec, where=named, deadline=given.deadline, note=note)
    not_the_input(given.db, [*reads(given), *plan.reads])
    failures: dict[str, list[str]] = {}
    with Database(given.db, create=True, alone=True) as db:
        db.adopt(spec, plan.fingerprint())
        before = len(db.done())
        pending = plan.cells - before
        if isinstance(where, Processes):
            where = where.at_most(pending)  # no runner without a run to make
        note(
            f"hashi-asp: {given.db}: {plural(plan.cells, 'cell')}, {before} with a row already, "
            f"{pending} to run on {where.where}\n"
        )
        with given.hooks.progress(total=pending, unit="run", smoothing=0.05) as bar:

            def tick(progress: Any, record: Any) -> None:
                if record is not None and not record.answered:
                    failures.setdefault(f"{record.variant}: {record.status}", []).append(
                        record.message or record.instance
                    )
                bar.update()
                if (progress.failed or progress.lost) and hasattr(bar, "set_postfix"):
                    bar.set_postfix(failed=progress.failed, lost=len(progress.lost))

            progress = run_study(plan, where, db, on_record=tick, deadline=given.deadline)
        done = len(db.done())
        if progress.stopped is not None and done < plan.cells:
            said = (
                f"hashi-asp: {progress.stopped.value}: {done} of {plural(plan.cells, 'cell')} "
                f"{_have(done)} a row; `hashi-asp study run {given.db}` goes on from there\n"
            )
            status = progress.stopped.status(answered=True)
            return Outcome(status, printed=lambda: Printed(err=said))
    said = "".join(
        f"hashi-asp: {what} {len(messages)}, first: {messages[0]}\n"
        for what, messages in sorted(failures.items())
    )
    said += (
        f"hashi-asp: {given.db}: {done} of {plural(plan.cells, 'cell')} {_have(done)} a row "
        f"({progress.made} run now, {progress.failed} not solved)\n"
    )
    if progress.lost:
        first = progress.lost[0]
        said += (
            f"hashi-asp: {plural(len(progress.lost), 'run')} lost (first: {first.task.instance}, "
            f"variant {first.task.variant.name}: {first.message}); run again to retry\n"
        )
    status = Status.OK if done >= plan.cells else Status.NO
    return Outcome(status, printed=lambda: Printed(err=said), result=progress)


def _spec(given: Given) -> tuple[dict, str | None]:
    """The plan asked for: --plan, or PATHS and --variant, or the database's own; and how
    messages name it (None: as :func:`hashi_asp.study.plan.resolve` does)."""
    from . import plan as plans
    from .database import Database, StudyError

    if given.plan is not None:
        named = {"PATHS": given.paths, "--variant": given.variant, "--task": given.task}
        named.update({"--repeat": given.repeat, "--time-limit": given.time_limit})
        named["--memory-limit"] = given.memory_limit
        said = [name for name, value in named.items() if value]
        if said:
            raise OptionError(f"--plan says what {', '.join(said)} would: give one or the other")
        return plans.load(given.plan, deadline=given.deadline), None
    if given.paths or given.variant:
        if not given.paths:
            raise OptionError("give PATHS (files, folders) with --variant, or --plan")
        spec = plans.one_off(
            list(given.paths),
            list(given.variant),
            task=given.task or "solve",
            repeat=given.repeat or 1,
            time_limit=given.time_limit,
            memory_limit=given.memory_limit,
        )
        return spec, None
    if not Path(given.db).exists():
        raise OptionError("give PATHS and --variant, or --plan (or a study database to resume)")
    with Database(given.db) as stored:
        spec = stored.setting("plan")
    if spec is None:
        raise StudyError(f"{given.db}: holds no plan to resume")
    return spec, f"{given.db}: its plan"


def _have(count: int) -> str:
    return "has" if count == 1 else "have"


RUN = Command(
    "run",
    """Run every cell (instance x variant x seed) of a study that has no row in DB yet, each
    with its limits in a runner process, and commit its row as it finishes: PATHS (files,
    folders) with --variant, or --plan; DB alone resumes its own plan.  Exit 0 when every cell
    has a row, 1 if some have none, 2 for a bad plan or a DB made for another one, 130 on
    Ctrl-C (the finished rows kept).""",
    (
        Option("db", OUTPUT, argument=True, required=True),
        Option("paths", PATHS, argument=True),
        Option("plan", FILE, "A TOML plan, instead of PATHS, --variant...", metavar="PLAN"),
        Option(
            "variant",
            TEXT,
            "A variant: NAME='OPTIONS', the searching commands' own (repeatable).",
            metavar="NAME='OPTIONS'",
            multiple=True,
        ),
        Option(
            "task",
            TEXT,
            "The command each run makes (solve, unique, fix, count, hint, steps, difficulty), "
            "with options of its own: 'unique --no-propose', 'steps -n 1'.  [solve]",
            metavar="'COMMAND [OPTIONS]'",
        ),
        Option(
            "repeat",
            INT,
            "Runs per cell: clingo seeds 1..K [1].",
            low=1,
            high=MOST_SEED,
            metavar="K",
        ),
        replace(RUN_TIME_LIMIT, help="Time limit per run."),
        Option(
            "memory-limit",
            INT,
            f"Per run (its address space), {LEAST_MEMORY} to {MOST_MEMORY} (16 TiB).",
            low=LEAST_MEMORY,
            high=MOST_MEMORY,
            metavar="MB",
        ),
        replace(JOBS, help=f"Local runner processes [the cores; at most {JOBS_PER_CORE} a core]."),
        SCHEDULER,
    ),
    run,
)


# ---------------------------------------------------------------------------- report, plot


def report(given: Given) -> Outcome:
    from . import report as reports
    from .database import Database

    with Database(given.db) as db:
        records, plan = db.records(), db.fingerprint()
    document = lambda: reports.summary(records, plan)  # noqa: E731
    if given.format == "csv":
        printed = lambda: Printed(reports.csv_text(document()))  # noqa: E731
    else:
        markdown = given.format == "markdown"
        printed = lambda: Printed(lines(reports.text(document(), markdown=markdown)))  # noqa: E731
    return Outcome(Status.OK, document=document, printed=printed)


REPORT = Command(
    "report",
    """Per variant, the layout of Table 1 of Coelho et al. (mean and max seconds by islands,
    beta, alpha; runs solved), PAR-2, and each pair of variants compared cell by cell.""",
    (
        DATABASE,
        Option(
            "format",
            CHOICE,
            "Tables as text, CSV, JSON or Markdown.  [default: text]",
            default="text",
            choices=("text", "csv", "json", "markdown"),
        ),
    ),
    report,
)


def plot(given: Given) -> Outcome:
    from . import different_outputs, plots
    from .database import Database

    cactus, scatter, scaling = given.cactus, given.scatter, given.scaling
    if not (cactus or scatter or scaling):
        raise OptionError("name a figure: --cactus FILE, --scatter A,B FILE or --scaling FILE")
    pair: list[str] = []
    if scatter:
        pair = scatter[0].split(",")
        if len(pair) != 2 or not all(pair):
            raise OptionError(f"--scatter {scatter[0]!r}: expected two variants, A,B")
    figures = {
        "--cactus": cactus,
        "--scatter": scatter[1] if scatter else None,
        "--scaling": scaling,
    }
    different_outputs(*figures.items())  # before any figure is drawn
    written = [path for path in figures.values() if path]
    for path in written:
        plots.check_path(path)
    prepare_output(given, *written)
    with Database(given.db) as db:
        records, plan = db.records(), db.fingerprint()
    if cactus:
        plots.cactus(records, plan, cactus, given.force)
    if scatter:
        plots.scatter(records, plan, pair[0], pair[1], scatter[1], given.force)
    if scaling:
        plots.scaling(records, plan, scaling, given.force)
    said = f"hashi-asp: wrote {', '.join(written)}\n"
    return Outcome(Status.OK, printed=lambda: Printed(err=said))


PLOT = Command(
    "plot",
    """Draw the study's figures with matplotlib (the plot extra), SVG or PNG by the suffix.""",
    (
        DATABASE,
        Option("cactus", OUTPUT, "Runs solved within a time.", metavar="FILE"),
        Option("scatter", TEXT, "Two variants' seconds, log-log.", metavar="A,B FILE", nargs=2),
        Option("scaling", OUTPUT, "Seconds against islands.", metavar="FILE"),
        replace(FORCE, help="Replace figures that exist."),
    ),
    plot,
)


COMMAND = Command(
    "study",
    """Many instances, many variants, seeds: every run a row in an SQLite database (DB), made
    on local processes or a Dask cluster; reports and plots from the database alone.  See
    docs/studies.md.""",
    (),
    study,
    commands=(RUN, REPORT, PLOT),
)
