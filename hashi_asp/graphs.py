"""Graph algorithms on a puzzle's islands and pairs, each a small function of its own."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from .puzzle import Geometry


def connected_without(geometry: Geometry, count: Sequence[int], skipped: int) -> bool:
    """Whether the two ends of pair ``skipped`` stay joined by the bridges ``count`` (per pair
    of ``geometry``) without that pair: it lies on a cycle.  Breadth first, as cycles are mostly
    short."""
    ends, at = geometry.ends, geometry.at
    start, goal = ends[skipped]
    seen, todo = {start}, deque([start])
    while todo:
        island = todo.popleft()
        if island == goal:
            return True
        for pair in at[island]:
            if pair != skipped and count[pair]:
                a, b = ends[pair]
                other = b if a == island else a
                if other not in seen:
                    seen.add(other)
                    todo.append(other)
    return False
