"""Studies: many instances, many variants (formulations, clingo options, encodings), seeds,
one task, every run a row.

- :mod:`.variants`: a variant's option string, read by the searching commands' own options;
- :mod:`.plan`: the plan (a TOML file, or the command line's one-off form) and its cells;
- :mod:`.runs`: one run of one cell, in a runner process with its time and memory limits;
- :mod:`.executors`: where runs are made: local processes, or a Dask cluster;
- :mod:`.database`: the SQLite database, a row committed per run, resumed, never mixed;
- :mod:`.report` and :mod:`.plots`: tables and figures, from the database alone.

:func:`run` is the one loop over a study's runs: ``hashi-asp study run`` calls it with a
database, ``hashi-asp bench`` (one variant, no database) without.  The bounds of what a run may
be given are here too, for the plan and the command line alike.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..status import Stop
from ..stopping import Deadline

if TYPE_CHECKING:
    from .database import Database
    from .executors import Cluster, Here, Lost, Processes
    from .plan import Plan
    from .runs import Record


MOST_SEED = 2**32 - 1
"""The largest of clingo's seeds (``--seed``, from 0): the seeds of a study, and its repeats."""

MEMORY_LIMITS = (64, 16 * 2**20)
"""A run's memory limit in MB: from 64 (less than any run maps before its work: a ``memout`` at
once) to 16 TiB (more than a machine has; the limit is set in bytes, which must fit the
operating system's own limit)."""


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
    from .executors import Lost

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
