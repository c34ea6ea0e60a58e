"""Studies: many instances, many variants (formulations, clingo options, encodings), seeds,
one task, every run a row.

- :mod:`.variants`: a variant's option string, read by the searching commands' own options;
- :mod:`.plan`: the plan (a TOML file, or the command line's one-off form) and its cells;
- :mod:`.runs`: one run of one cell, in a runner process with its time and memory limits
  (the runner processes, and where runs are made, local processes or a Dask cluster, are
  :mod:`hashi_asp.workers`);
- :mod:`.database`: the SQLite database, a row committed per run, resumed, never mixed;
- :mod:`.report` and :mod:`.plots`: tables and figures, from the database alone.

:func:`run` is the one loop over a study's runs: ``hashi-asp study run`` calls it with a
database, ``hashi-asp bench`` (:mod:`.bench`: one variant, no database) without.  The bounds of
what a run may be given are here too, for the plan and the command line alike, and the check
that the files ``study plot`` and ``bench`` write are files of their own.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..status import Stop
from ..stopping import Deadline

if TYPE_CHECKING:
    from ..workers.executors import Cluster, Here, Lost, Processes
    from .database import Database
    from .plan import Plan
    from .runs import Record


MOST_SEED = 2**32 - 1
"""The largest of clingo's seeds (``--seed``, from 0): the seeds of a study, and its repeats."""

MEMORY_LIMITS = (64, 16 * 2**20)
"""A run's memory limit in MB: from 64 (less than any run maps before its work: a ``memout`` at
once) to 16 TiB (more than a machine has; the limit is set in bytes, which must fit the
operating system's own limit)."""

MOST_RUNS = 1_000_000
"""The most runs (cells) a plan may make, counted from its figures (instances x variants x
seeds) before anything is built.  A row takes about 380 bytes of the database with its index
and ``study report`` and ``plot`` read every row at once, about 2 KB each in memory (measured:
207 MB and 2.3 s for 100 000 rows): a million rows is a 380 MB database and a 2 GB report,
what a laptop holds, and at some 80 ms for the smallest run (a 10-island puzzle, grounding
included) about 22 hours of one core, a day's work for a machine.  A plan beyond it is
several studies."""

MOST_VARIANTS = 64
"""The most variants a plan may compare: its report compares each pair of them (2 016 pairs at
64, one line each) and goes over every row once per variant; beyond that neither the report
nor a figure's legend can be read."""

MOST_TEXT = 2**30
"""The most bytes of instances a study holds (1 GiB, beside the 2 GB of a report of
:data:`MOST_RUNS` rows): every instance's text stays in memory while the study runs, and
travels with each run.  Files count by their size, looked at before any is read; generated
puzzles by their boards (:data:`GENERATED_BYTES`), before any is made.  That is 16 files of the
largest size a reader takes (64 MiB), 300 000 instances of 400 islands, or 35 boards of the
most cells a puzzle may have (10 million), which take about half an hour to make (5 us a cell,
measured for 2 000 islands)."""

GENERATED_BYTES = (3, 30)
"""What a generated puzzle's text takes, at most: per cell of its board in the ``has`` notation
(a number of 2 characters and a space: 19 694 bytes for 2 000 islands on 81x81), and per
island in JSON, the notation of puzzles with other rules (a line of two coordinates of up to 7
digits and a count; 19 bytes an island measured for 100 000 islands)."""

MOST_NESTING = 16
"""The most levels of arrays and tables a plan may nest (its deepest value, a ``generate``
table's, is 3 down: instances, one entry, its table).  Far below the depth at which Python's
TOML and JSON readers run out of recursion (330 levels of inline tables, 496 of arrays,
measured with Python's limit of 1 000 frames), and below what any walk of the plan could
reach, it lets a mistake be said as what it is (a list where a number goes)."""


def different_outputs(*named: tuple[str, str | os.PathLike | None]) -> None:
    """Refuse, before any work, two options (name, path; None: not given) naming the same file
    by whatever names (a link, another relative path; one not there yet, by where it would be
    made): the second write would be refused after all the work, or replace the first.  A
    device or a FIFO (``/dev/null``) is written into, not replaced, and may be named twice."""
    from ..commands.declaration import OptionError

    given = [(option, path) for option, path in named if path is not None]
    for number, (first, one) in enumerate(given):
        for second, other in given[number + 1 :]:
            if _same_file(one, other):
                raise OptionError(
                    f"{first} {one} and {second} {other} are the same file: give each its own"
                )


def _same_file(one: str | os.PathLike, other: str | os.PathLike) -> bool:
    """Whether a write to ``one`` and a write to ``other`` would replace the same file."""
    try:
        if os.path.samefile(one, other):  # both there: the same file of the same device
            return stat.S_ISREG(os.stat(one).st_mode)
    except (OSError, ValueError):  # one not there yet, or a path no file can have
        pass
    try:
        return os.path.realpath(one) == os.path.realpath(other)  # links followed
    except (OSError, ValueError):
        return os.fspath(one) == os.fspath(other)


@dataclass
class Progress:
    """A study's runs so far: ``cells`` in the plan, ``before`` done by earlier runs of it,
    ``records`` made now (kept only without a database), ``made`` and ``failed`` counted
    (failed: not solved), ``lost`` runs that could not be made (no row); ``stopped`` when the
    study's deadline was stopped (a signal) before every run was made."""

    cells: int
    before: int
    made: int = 0
    failed: int = 0
    records: list[Record] = field(default_factory=list)
    lost: list[Lost] = field(default_factory=list)
    stopped: Stop | None = None

    @property
    def missing(self) -> int:
        """Cells without a row."""
        return self.cells - self.before - self.made


def run(
    plan: Plan,
    executor: Here | Processes | Cluster,
    database: Database | None = None,
    *,
    on_record: Callable[[Progress, Record | None], None] | None = None,
    deadline: Deadline | None = None,
) -> Progress:
    """Make every run of ``plan`` whose cell has no row in ``database`` yet, with
    ``executor``; each record is committed to the database as it comes (or kept in
    :attr:`Progress.records` without one) and passed to ``on_record``.  When ``deadline`` is
    stopped (a signal; Ctrl-C without the command line's handlers stops it too) the study ends
    there, every record made so far committed, and :attr:`Progress.stopped` says why; the
    executor's processes are ended on the way out, however it ends."""
    from ..stopping import Stopped
    from ..workers.executors import Lost

    deadline = Deadline.of(deadline)

    done = database.done() if database is not None else set()
    planned = {task.key for task in plan.tasks(alone=executor.alone)} if done else set()
    progress = Progress(plan.cells, len(done & planned))
    stream = executor.run(plan.tasks(done, alone=executor.alone), deadline)
    try:
        for result in stream:
            if isinstance(result, Lost):
                progress.lost.append(result)
                if on_record:
                    on_record(progress, None)
                continue
            if database is None:
                progress.records.append(result)
            elif not database.add(result):
                continue  # its cell had a row already: another run of the study wrote it
            progress.made += 1
            progress.failed += not result.answered
            if on_record:
                on_record(progress, result)
    except KeyboardInterrupt:
        deadline.interrupt()
    except Stopped:  # a run cut by the study's stop (in this process): it has no row
        pass
    finally:
        stream.close()  # type: ignore[attr-defined]
    progress.stopped = deadline.stopped
    return progress
