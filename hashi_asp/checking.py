"""An independent checker: does a set of bridges solve the puzzle?

Pure Python with its own geometry (no clingo, nothing shared with the encoding), so that an
answer from any encoding, including a user's edited one, is judged against the rules themselves.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .puzzle import Bridge, Cell, Puzzle, Solution, cell_name, pair_name

if TYPE_CHECKING:
    from .stopping import Deadline


@dataclass(frozen=True)
class Violation:
    """One broken rule: a machine-readable ``rule``, a message, and the cells involved."""

    rule: str
    message: str
    cells: tuple[Cell, ...] = ()

    def __str__(self) -> str:
        return self.message


class _Broken(list):
    """The violations found, at most ``most`` of each rule (None: all); past that a rule's are
    counted, and :meth:`listed` ends with one more of the rule saying how many were left out."""

    def __init__(self, most: int | None):
        super().__init__()
        self.most = most
        self.found: Counter[str] = Counter()

    def append(self, violation: Violation) -> None:
        if self.listing(violation.rule):
            self.keep(violation)

    def keep(self, violation: Violation) -> None:
        """List ``violation``, counted already (:meth:`listing`)."""
        super().append(violation)

    def listing(self, rule: str) -> bool:
        """Count one more violation of ``rule``: whether it is listed (if not, there is no need
        to make it: a million messages take seconds)."""
        self.found[rule] += 1
        return self.most is None or self.found[rule] <= self.most

    def listed(self) -> list[Violation]:
        left_out = [
            Violation(rule, f"{rule}: {count - self.most} more not listed")
            for rule, count in self.found.items()
            if self.most is not None and count > self.most
        ]
        return [*self, *left_out]


def check(
    puzzle: Puzzle,
    solution: Solution,
    *,
    most: int | None = None,
    deadline: Deadline | None = None,
) -> list[Violation]:
    """Every rule ``solution`` breaks in ``puzzle`` under the puzzle's rules; an empty list means
    it is a valid solution.  With ``most``, at most that many of each rule are listed, and one
    more says how many of it were left out (bridges drawn at random over a large board cross a
    million times: a report of them all would be hundreds of megabytes).  With ``deadline``,
    the walk over the bridges' cells looks at it, and raises
    :class:`~hashi_asp.stopping.Stopped` when it ends."""
    violations = _Broken(most)
    walk = (lambda items: items) if deadline is None else _looking(deadline)
    lines = _well_formed(puzzle, solution, violations)
    horizontal_at = _over_water(puzzle, walk(lines), violations)
    _crossings(horizontal_at, walk(lines), violations)
    _island_counts(puzzle, solution, violations)
    joined = [
        b for b in solution.bridges if b.count > 0 and all(e in puzzle.islands for e in b.ends)
    ]
    _connected(puzzle, joined, violations)
    if puzzle.rules.no_loops:
        _no_cycle(joined, violations)
    return violations.listed()


def _well_formed(puzzle: Puzzle, solution: Solution, violations: _Broken) -> list[Bridge]:
    """Each bridge listed once, between two islands, with a count the rules allow, straight
    and not from an island to itself; the bridges well-formed enough to occupy cells."""
    islands, max_bridges = puzzle.islands, puzzle.rules.max_bridges
    lines: list[Bridge] = []
    seen: set[tuple[Cell, Cell]] = set()
    for b in solution.bridges:
        a, z = sorted(b.ends)  # a pair is the same pair in either order
        if (a, z) in seen:
            violations.append(
                Violation("duplicate", f"bridge {pair_name(a, z)} is listed twice", (a, z))
            )
            continue
        seen.add((a, z))
        ends_ok = True
        for end in (a, z):
            if end not in islands:
                violations.append(
                    Violation(
                        "not-island",
                        f"bridge {pair_name(a, z)}: end {cell_name(end)} is not an island",
                        (end,),
                    )
                )
                ends_ok = False
        if not 1 <= b.count <= max_bridges:
            violations.append(
                Violation(
                    "bridge-count",
                    f"bridge {pair_name(a, z)} has {b.count} bridges; allowed 1..{max_bridges}",
                    (a, z),
                )
            )
        if a == z:
            violations.append(
                Violation("self", f"bridge {pair_name(a, z)} joins an island to itself", (a,))
            )
        elif a[0] != z[0] and a[1] != z[1]:
            violations.append(
                Violation("diagonal", f"bridge {pair_name(a, z)} is diagonal", (a, z))
            )
        elif ends_ok:
            lines.append(b)
    return lines


def _over_water(puzzle: Puzzle, lines: Iterable[Bridge], violations: _Broken) -> dict[Cell, Bridge]:
    """Bridges run over water only; the horizontal bridge over each water cell that has one."""
    horizontal_at: dict[Cell, Bridge] = {}
    for b in lines:
        for cell in b.cells_between():
            if cell in puzzle.islands:
                if violations.listing("over-island"):
                    violations.keep(
                        Violation(
                            "over-island",
                            f"bridge {pair_name(*b.ends)} passes over the island at "
                            f"{cell_name(cell)}",
                            (cell,),
                        )
                    )
            elif b.horizontal:
                horizontal_at[cell] = b
    return horizontal_at


def _crossings(
    horizontal_at: dict[Cell, Bridge], lines: Iterable[Bridge], violations: _Broken
) -> None:
    """A horizontal and a vertical bridge may not share a water cell."""
    for b in lines:
        if b.horizontal:
            continue
        for cell in b.cells_between():
            other = horizontal_at.get(cell)
            if other is not None and violations.listing("crossing"):
                violations.keep(
                    Violation(
                        "crossing",
                        f"crossing at cell {cell_name(cell)}: bridges {pair_name(*other.ends)} "
                        f"and {pair_name(*b.ends)}",
                        (cell,),
                    )
                )


def _island_counts(puzzle: Puzzle, solution: Solution, violations: _Broken) -> None:
    """Each island has exactly its number of bridges (one without a number, at least one)."""
    degree: Counter[Cell] = Counter()
    for b in solution.bridges:
        for end in b.ends:
            degree[end] += b.count
    for cell, number in puzzle.islands.items():
        if number is None:
            if degree[cell] == 0:
                violations.append(
                    Violation(
                        "island-count",
                        f"island {cell_name(cell)} without a number has no bridge; "
                        "it needs at least 1",
                        (cell,),
                    )
                )
        elif degree[cell] != number:
            violations.append(
                Violation(
                    "island-count",
                    f"wrong count at island {cell_name(cell)}: has {degree[cell]} "
                    f"bridge(s), needs {number}",
                    (cell,),
                )
            )


def _connected(puzzle: Puzzle, joined: list[Bridge], violations: _Broken) -> None:
    """All islands form one connected group by the bridges ``joined`` (those between islands)."""
    components = _components(puzzle.islands, joined)
    if len(components) > 1:
        smallest = min(components, key=len)
        violations.append(
            Violation(
                "disconnected",
                f"disconnected: {len(components)} components (smallest: "
                f"{len(smallest)} island(s) including {cell_name(min(smallest))})",
                tuple(sorted(smallest)),
            )
        )


def _no_cycle(joined: list[Bridge], violations: _Broken) -> None:
    """Variant (Tatham's "L"): the bridges form no cycle, whatever their counts."""
    cycle = _cycle(joined)
    if cycle:
        shown = ", ".join(map(cell_name, cycle[:6])) + (", ..." if len(cycle) > 6 else "")
        violations.append(
            Violation(
                "loop",
                f"loop: the bridges form a cycle through {len(cycle)} islands: {shown}",
                tuple(cycle),
            )
        )


def _looking(deadline: Deadline) -> Callable[[list[Bridge]], Iterable[Bridge]]:
    """The bridges one by one, the deadline looked at between them (each may be a thousand
    cells long)."""
    return lambda bridges: deadline.looking(bridges, "checking the bridges", every=16)


def _cycle(bridges) -> list[Cell]:
    """The islands of one cycle in the graph of bridged pairs (in order), or [] if there is none."""
    neighbours: dict[Cell, set[Cell]] = {}
    for b in bridges:
        a, z = b.ends
        if a != z:
            neighbours.setdefault(a, set()).add(z)
            neighbours.setdefault(z, set()).add(a)
    parent: dict[Cell, Cell | None] = {}
    for start in sorted(neighbours):
        if start in parent:
            continue
        parent[start] = None
        stack = [start]
        while stack:
            cell = stack.pop()
            for other in sorted(neighbours[cell]):
                if other == parent[cell]:
                    continue
                if other in parent:
                    # Two tree paths meet: walk both up to their common ancestor.
                    up: list[Cell] = [cell]
                    while (above := parent[up[-1]]) is not None:
                        up.append(above)
                    down = [other]
                    while down[-1] not in up:
                        down.append(parent[down[-1]])  # type: ignore[arg-type]
                    # Up from one end to the common ancestor, then down to the other end.
                    return up[: up.index(down[-1]) + 1] + list(reversed(down))[1:]
                parent[other] = cell
                stack.append(other)
    return []


def _components(islands, bridges) -> list[list[Cell]]:
    parent = {cell: cell for cell in islands}

    def root(cell: Cell) -> Cell:
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    for b in bridges:
        a, z = b.ends
        parent[root(a)] = root(z)
    groups: dict[Cell, list[Cell]] = {}
    for cell in islands:
        groups.setdefault(root(cell), []).append(cell)
    return list(groups.values())
