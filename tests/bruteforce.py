"""A brute-force Hashiwokakero enumerator for small puzzles.

Written from the rules alone and sharing no code with hashi_asp, so that agreement between the
two is evidence rather than an echo.  Depth-first over neighbour pairs with two prunings
(island numbers and crossings); connectivity is tested on complete assignments.
"""

from __future__ import annotations

Cell = tuple[int, int]


def neighbour_pairs(rows: int, cols: int, islands: dict[Cell, int]) -> list[tuple[Cell, Cell]]:
    """Pairs of islands that see each other along a row or column with only water between."""
    pairs = []
    for r, c in sorted(islands):
        for x in range(c + 1, cols):
            if (r, x) in islands:
                pairs.append(((r, c), (r, x)))
                break
        for y in range(r + 1, rows):
            if (y, c) in islands:
                pairs.append(((r, c), (y, c)))
                break
    return pairs


def _between(a: Cell, b: Cell) -> set[Cell]:
    if a[0] == b[0]:
        return {(a[0], x) for x in range(a[1] + 1, b[1])}
    return {(y, a[1]) for y in range(a[0] + 1, b[0])}


def solutions(
    rows: int,
    cols: int,
    islands: dict[Cell, int | None],
    max_bridges: int = 2,
    limit: int = 10**6,
    no_loops: bool = False,
) -> set[frozenset[tuple[int, int, int, int, int]]]:
    """All solutions, each a frozenset of (r1, c1, r2, c2, count) with count >= 1.  An island
    numbered None needs at least one bridge; ``no_loops`` rejects cycles of bridged pairs."""
    pairs = neighbour_pairs(rows, cols, islands)
    crossing = [set() for _ in pairs]
    for i, p in enumerate(pairs):
        for j, q in enumerate(pairs):
            if i != j and _between(*p) & _between(*q):
                crossing[i].add(j)
    open_pairs = dict.fromkeys(islands, 0)  # undecided pairs touching each island
    for a, b in pairs:
        open_pairs[a] += 1
        open_pairs[b] += 1
    # An island without a number needs "at least 1": count it down from 1 and let it go negative.
    need = {cell: 1 if n is None else n for cell, n in islands.items()}
    free = {cell for cell, n in islands.items() if n is None}
    counts = [0] * len(pairs)
    found: set = set()

    def feasible(cell: Cell) -> bool:
        if cell in free:
            return need[cell] <= 0 or open_pairs[cell] > 0
        return 0 <= need[cell] <= max_bridges * open_pairs[cell]

    def satisfied(cell: Cell) -> bool:
        return need[cell] <= 0 if cell in free else need[cell] == 0

    def search(i: int) -> None:
        if len(found) >= limit:
            return
        if i == len(pairs):
            if (
                all(map(satisfied, islands))
                and _connected(islands, pairs, counts)
                and not (no_loops and sum(map(bool, counts)) != len(islands) - 1)
            ):
                found.add(frozenset((*a, *b, k) for (a, b), k in zip(pairs, counts) if k))
            return
        a, b = pairs[i]
        open_pairs[a] -= 1
        open_pairs[b] -= 1
        for k in range(max_bridges + 1):
            if k and any(counts[j] for j in crossing[i]):
                break
            counts[i] = k
            need[a] -= k
            need[b] -= k
            if feasible(a) and feasible(b):
                search(i + 1)
            need[a] += k
            need[b] += k
        counts[i] = 0
        open_pairs[a] += 1
        open_pairs[b] += 1

    if all(feasible(cell) for cell in islands):
        search(0)
    return found


def _connected(islands, pairs, counts) -> bool:
    start = next(iter(islands))
    adjacent: dict[Cell, list[Cell]] = {cell: [] for cell in islands}
    for (a, b), k in zip(pairs, counts):
        if k:
            adjacent[a].append(b)
            adjacent[b].append(a)
    seen, stack = {start}, [start]
    while stack:
        for other in adjacent[stack.pop()]:
            if other not in seen:
                seen.add(other)
                stack.append(other)
    return len(seen) == len(islands)


def solutions_of(puzzle) -> set[frozenset[tuple[int, int, int, int, int]]]:
    """:func:`solutions` of a puzzle object under its own rules: anything with ``rows``,
    ``cols``, ``islands`` and ``rules.max_bridges``, ``rules.no_loops`` (read, not imported)."""
    rules = puzzle.rules
    return solutions(
        puzzle.rows,
        puzzle.cols,
        dict(puzzle.islands),
        max_bridges=rules.max_bridges,
        no_loops=rules.no_loops,
    )
