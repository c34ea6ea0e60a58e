"""The server's memory handed back to the system once a request is done with it.

A server reads photos (a decoded picture of up to 200 MB) and checks huge solutions in threads;
glibc's allocator keeps what they free, in an arena per thread, and raises its threshold for
mapping large blocks each time one is freed, so that the next ones come from the arenas too.
Measured with 40 pictures and four checks of solutions crossing a million times: the server
stayed at 806 MB after them, against 42 MB idle.  :func:`map_large_blocks` fixes the threshold
(every block of :data:`MAPPED_BYTES` or more is mapped on its own and unmapped when freed), and
:func:`give_back` trims the arenas after each large request.  Elsewhere than glibc both do
nothing.

Before that, :func:`give_back` collects Python's cycles: a request stopped at its time limit
leaves an exception whose traceback holds the frames of the work (a decoded picture among
their locals) in a cycle, which an idle server, allocating nothing, would not collect for a
long time (500 MB held after 40 photos of 5000 x 5000 pixels).  A collection takes 7 to 15 ms,
so it is for large requests only.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
from typing import Any

MAPPED_BYTES = 1 << 20
"""Blocks from this size on are mapped on their own (glibc's default starts at 128 KiB and grows
to 32 MiB as blocks are freed): a grey picture of 2400 x 1800 pixels is 4 MB, a row of blocks
of the checker's a few hundred bytes each."""
_M_MMAP_THRESHOLD = -3  # (glibc's malloc.h)


def _glibc() -> Any:
    try:
        library = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        library.malloc_trim  # noqa: B018  (glibc's own: absent elsewhere)
        return library
    except (OSError, AttributeError):
        return None


_LIBRARY = _glibc()


def map_large_blocks() -> None:
    """From now on, blocks of :data:`MAPPED_BYTES` or more are mapped on their own."""
    if _LIBRARY is not None:
        _LIBRARY.mallopt(_M_MMAP_THRESHOLD, MAPPED_BYTES)


def give_back() -> None:
    """Collect Python's cycles, then hand what the allocator holds free back to the system
    (every thread's arena)."""
    gc.collect()
    if _LIBRARY is not None:
        _LIBRARY.malloc_trim(0)
