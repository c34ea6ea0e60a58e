"""How many cores this process may use: the race's workers, a study's local processes, the
server's threads and the sweep's second direction are sized by it."""

from __future__ import annotations

import os


def cores() -> int:
    """The cores this process may run on (its affinity on Linux, else the machine's)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
