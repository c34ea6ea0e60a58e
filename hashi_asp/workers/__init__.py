"""Where work is made: in this process, in local runner processes, or on a Dask cluster.

- :mod:`.runners`: the runner processes, each making one piece of work after another;
- :mod:`.executors`: the executors that hand the work out (:class:`~.executors.Here`,
  :class:`~.executors.Processes`, :class:`~.executors.Cluster`) and the bound on local jobs;
- :mod:`.puzzles`: the puzzles of ``generate --jobs`` and ``--scheduler``, as such work.

The machinery knows nothing of what it carries.  A piece of work is any picklable object with

- ``make(runner=None, *, within=None)``: its result, made in a runner process (``runner``, the
  runner's :class:`~.runners.Serving`: a folder of its own, the address space it took before any
  work) or in this process (``runner`` None, ``within`` the deadline of the whole);
- ``lost(message, status=None)``: its result when its runner ended without one (``status``:
  the verdict for work ended at its time limit, :attr:`~hashi_asp.status.Verdict.UNKNOWN`);
- ``time_limit`` (optional): seconds, past which (and a grace) its runner is ended.

A study's run (:class:`hashi_asp.study.runs.Task`) is one kind of work, a generated puzzle
(:class:`.puzzles.Made`) another.
"""

from __future__ import annotations

from ..errors import HashiError


class WorkError(HashiError):
    """Where the work cannot be made (no Dask, no scheduler there): one line, bad input
    (exit 2)."""
