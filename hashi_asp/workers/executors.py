"""Where work is made (a study's runs, the puzzles of ``generate --jobs``): in this process
(:class:`Here`, for ``bench`` with one job), in local runner processes (:class:`Processes`,
``--jobs N``: nothing to start), or on a Dask cluster (:class:`Cluster`, ``--scheduler
tcp://HOST:PORT``, with the ``cluster`` extra).

Each takes the work to make (:mod:`hashi_asp.workers`; a study's tasks, whose results are its
records) and yields each one's result as it completes, in whatever order they complete; work
that could not be made at all (Dask gave up on it after its workers died,
``distributed.scheduler.allowed-failures`` times) is a :class:`Lost`, and a study's cell stays
without a row for the next ``study run``.  The iterator ends when the deadline of the whole is
stopped (a signal), looking at it within :data:`~hashi_asp.stopping.POLL_SECONDS`; closing it
(at that stop, or at an error writing a row) ends the runners or cancels the cluster's
remaining tasks.

Dask reschedules the task of a worker that dies (a node lost, a Slurm job at its walltime):
nothing here repeats it.  The instance's text travels with each task, so the workers need no
file system shared with the client, only hashi-asp installed.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import HashiError
from ..stopping import POLL_SECONDS, Deadline
from . import WorkError
from .runners import Runner

Work = Any
"""A piece of work (:mod:`hashi_asp.workers`): ``make``, ``lost``, perhaps ``time_limit``."""

JOBS_PER_CORE = 4
"""The most local runner processes a study (``--jobs``) or ``bench`` may start, per core this
process may use (:func:`hashi_asp.cores.cores`): each runner makes one run at a time on one
core, and takes about 30 MB before any work (measured: 3.4 GB for 119 of them).  Beyond the
cores runners only share them, each run's seconds measuring the sharing; four a core leaves
room to measure that on purpose, and no more.  Fewer runners start than there are runs left."""


@dataclass
class Lost:
    """Work that was not made: the task and why."""

    task: Work
    message: str


Done = Any
"""What an executor yields: a piece of work's result (a study's record), or a :class:`Lost`."""


class Here:
    """Every piece of work in this process, one after the other (a study's run: no memory
    limit, no peak memory)."""

    alone = False
    where = "this process"

    def run(self, tasks: Iterable[Work], deadline: Deadline) -> Iterator[Done]:
        for task in tasks:
            if deadline.expired():
                return
            yield task.make(within=deadline)


class Processes:
    """``jobs`` runner processes on this machine, each making one piece of work at a time (a
    study's run: the time and memory limits per run, the peak memory measured)."""

    def __init__(self, jobs: int = 1):
        self.jobs = jobs
        self.alone = jobs > 1  # a race would compete with the other jobs for the cores
        self.where = f"{jobs} local process{'es' * (jobs != 1)}"

    def at_most(self, runs: int) -> Processes:
        """These processes, no more of them than ``runs`` (the runs left), at least one; a race
        is run as these jobs run it, alone or not, however few make the last runs."""
        if runs >= self.jobs:
            return self
        fewer = Processes(max(1, runs))
        fewer.alone = self.alone
        return fewer

    def run(self, tasks: Iterable[Work], deadline: Deadline) -> Iterator[Done]:
        from multiprocessing.connection import wait

        pending = iter(tasks)
        runners: list[Runner] = []

        def feed(runner: Runner) -> None:
            """Keep two tasks with each runner: the one it makes, and the next."""
            while len(runner.queue) < 2 and (task := next(pending, None)) is not None:
                runner.send(task)

        try:
            for _ in range(self.jobs):  # a runner only for a run to give it
                first = next(pending, None)
                if first is None:
                    break
                runners.append(Runner())
                runners[-1].send(first)
                feed(runners[-1])
            while busy := [runner for runner in runners if runner.queue]:
                ready = wait(busy, timeout=POLL_SECONDS)  # type: ignore[arg-type]
                if deadline.expired():
                    return
                for runner in busy:
                    if runner in ready or runner.overdue():
                        record = runner.finish()
                        feed(runner)
                        yield record
        finally:
            for runner in runners:
                runner.close()


class Cluster:
    """A Dask cluster's workers, through its scheduler at ``address``; each worker thread hands
    its work to a runner process of its own (:func:`~.runners.run_remote`)."""

    alone = True

    def __init__(self, address: str):
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise WorkError(
                "--scheduler needs the cluster extra (dask.distributed is not installed): "
                "pip install 'hashi-asp[cluster]'"
            ) from None
        self.address = address
        self.where = f"the Dask cluster at {address}"

    def run(self, tasks: Iterable[Work], deadline: Deadline) -> Iterator[Done]:
        from distributed import Client, as_completed

        from .runners import run_remote

        try:
            client = Client(self.address, timeout="30s", set_as_default=False)
        except (OSError, TimeoutError) as error:
            raise WorkError(f"cannot reach the Dask scheduler at {self.address}: {error}") from None
        pending = iter(tasks)
        submitted: dict[Any, Work] = {}  # by the future's key
        completed = as_completed(loop=client.loop, with_results=True, raise_errors=False)
        threads = [0]

        def window() -> int:
            """Runs in flight: enough to keep every worker thread busy, few enough that the
            instances' texts do not pile up in the client."""
            if len(submitted) % 64 == 0:
                threads[0] = sum(client.nthreads().values())
            return max(16, 4 * threads[0])

        def submit() -> bool:
            task = next(pending, None)
            if task is None:
                return False
            future = client.submit(run_remote, task, pure=False)
            submitted[future.key] = task
            completed.add(future)
            return True

        try:
            while len(submitted) < window() and submit():
                pass
            # The results that are in, gathered together: one request to the workers for
            # all of them, not one each.
            while not completed.is_empty():
                if deadline.expired():
                    return
                if not completed.has_ready():
                    time.sleep(POLL_SECONDS / 4)
                    continue
                for future, result in completed.next_batch(block=False):
                    task = submitted.pop(future.key)
                    future.release()
                    if isinstance(result, BaseException):  # Dask gave up on the task
                        yield Lost(task, f"{type(result).__name__}: {result}")
                    else:
                        yield result
                while len(submitted) < window() and submit():
                    pass
        finally:
            client.close()


def executor(
    jobs: int = 1, scheduler: str | None = None, *, refused: type[HashiError] = WorkError
) -> Processes | Cluster:
    """The executor a command asks for: a Dask cluster if ``scheduler`` names one, else
    ``jobs`` local processes (at most :func:`most_jobs`, else ``refused``)."""
    return Cluster(scheduler) if scheduler else Processes(local_jobs(jobs, refused=refused))


def most_jobs() -> int:
    """The most local runner processes a command may start: :data:`JOBS_PER_CORE`
    for each core this process may use."""
    from ..cores import cores

    return JOBS_PER_CORE * cores()


def local_jobs(jobs: int, *, refused: type[HashiError] = WorkError) -> int:
    """``jobs`` (``--jobs``), refused above :func:`most_jobs` before any work: with the error
    ``refused`` (a command's, for an option's value it does not allow)."""
    from ..puzzle import plural

    most = most_jobs()
    if jobs > most:
        cores = plural(most // JOBS_PER_CORE, "core")
        raise refused(
            f"--jobs {jobs}: at most {most}, {JOBS_PER_CORE} a core of the {cores} this "
            "process may use (fewer start when fewer runs are left)"
        )
    return jobs
