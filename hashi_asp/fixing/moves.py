"""Moves: what turns one solution of a puzzle into another, and what it needs to apply again.

Two solutions of a puzzle differ on some pairs.  Often the difference falls apart into parts
that each turn the first solution into a solution on their own (two separate places where the
puzzle is ambiguous): :func:`parts` finds them.  A :class:`Move` is one such part, with what it
needs to be a move in *another* puzzle and solution too:

- the cells it touches hold the same: islands at the ends of its pairs and of its anchors,
  water between them.  An island's number does not matter where the move takes as many lines
  away as it adds (the other solution meets the number, and goes on meeting it); only where it
  does not (an island without a number) the island must stay without one;
- the other solution has the move's "before" counts on its pairs;
- no bridge of the other solution crosses a line the move draws anew;
- the islands at the move's ends stay connected: the move's new lines together with a few of
  the solution's own bridges outside the move (its *anchors*, which the other solution must
  have too, their cells unchanged) connect every end.

Then the move turns the other solution into a second one: the numbers at its ends add up as
before (both solutions of the first puzzle had them), no line crosses another, and every island
still reaches every end, and through them every other.  Every end keeps a line, too, even an
island without a number that the move takes lines from: each end is reached by one of the
move's new lines or by an anchor.  So a puzzle in which some solution allows the move has two
solutions or more.  The counterexample loop of free mode
(:mod:`hashi_asp.fixing.counterexamples`) uses this to rule out, with one small constraint per
move, every set of edits far from an ambiguity (not just the edits that were tried).  The
move from the master's solution to another solution of the edited puzzle holds in the master's
solution, so it is one the loop had not learnt: every round learns something new.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from ..asp.predicates import (
    MOVE_ANCHOR,
    MOVE_BLANK,
    MOVE_CLEAR,
    MOVE_ISLAND,
    MOVE_PAIR,
    MOVE_WATER,
)
from ..checking import check
from ..graphs import connected_groups
from ..puzzle import Bridge, Cell, Pair, Puzzle, Solution, bridge


@dataclass(frozen=True)
class Move:
    """``before`` and ``after``: the counts on the pairs the move changes; ``anchors`` the
    pairs outside it a solution must have bridges on; ``cells`` the state each cell it needs
    has: None water, ``island`` an island with any number or none, ``any`` an island without a
    number; ``clear`` the cells under its new lines with the direction no other bridge may
    cross them in (``h`` or ``v``)."""

    before: tuple[tuple[Pair, int], ...]
    after: tuple[tuple[Pair, int], ...]
    anchors: tuple[Pair, ...]
    cells: tuple[tuple[Cell, str | None], ...]
    clear: tuple[tuple[Cell, str], ...]

    def facts(self, j: int) -> str:
        """The move as the facts of part ``move(j)`` of ``encodings/fix.lp``."""
        cells = self.cells
        return "".join(
            [
                MOVE_WATER.facts((j, r, c) for (r, c), state in cells if state is None),
                MOVE_ISLAND.facts((j, r, c) for (r, c), state in cells if state is not None),
                MOVE_BLANK.facts((j, r, c) for (r, c), state in cells if state == "any"),
                MOVE_PAIR.facts((j, *a, *b, k) for (a, b), k in self.before),
                MOVE_ANCHOR.facts((j, *a, *b) for a, b in self.anchors),
                MOVE_CLEAR.facts((j, r, c, direction) for (r, c), direction in self.clear),
            ]
        )


def parts(puzzle: Puzzle, one: Solution, other: Solution) -> list[Solution]:
    """Solutions of ``puzzle``, each ``one`` changed on one part of where it differs from
    ``other`` (pairs that share an end or a cell lie in one part), for the parts that make a
    solution on their own, checked by the independent checker; ``[other]`` when none does."""
    a, b = one.counts(), other.counts()
    differ = sorted(p for p in set(a) | set(b) if a.get(p, 0) != b.get(p, 0))
    if not differ:
        return []
    groups = _touching(differ)
    if len(groups) == 1:
        return [other]
    found = []
    for group in groups:
        counts = dict(a)
        for pair in group:
            counts[pair] = b.get(pair, 0)
        candidate = Solution.of(bridge(*p, k) for p, k in counts.items() if k)
        if not check(puzzle, candidate):
            found.append(candidate)
    return found or [other]


def move(puzzle: Puzzle, before: Solution, after: Solution) -> Move:
    """The move that turns ``before`` into ``after``, two solutions of ``puzzle``."""
    a, b = before.counts(), after.counts()
    changed = sorted(p for p in set(a) | set(b) if a.get(p, 0) != b.get(p, 0))
    ends = {cell for pair in changed for cell in pair}
    drawn = [bridge(*p, b[p]) for p in changed if b.get(p, 0)]
    anchors = _anchors(ends, drawn, [x for x in after.bridges if x.ends not in changed])
    state: dict[Cell, str | None] = {}
    net: dict[Cell, int] = {}
    for pair in changed:
        for end in pair:
            net[end] = net.get(end, 0) + b.get(pair, 0) - a.get(pair, 0)
    for pair in [*changed, *anchors]:
        state.update(dict.fromkeys(bridge(*pair, 1).cells_between()))
        for end in pair:
            # Lines taken and added in equal number leave any number met; else (an island
            # without a number only: a number would be broken) it stays without one.
            state[end] = "island" if net.get(end, 0) == 0 else "any"
    cells = tuple(sorted(state.items()))
    covered = {
        (cell, x.horizontal)
        for x in (bridge(*p, a[p]) for p in changed if a.get(p, 0))
        for cell in x.cells_between()
    }
    clear = sorted(
        (cell, "v" if line.horizontal else "h")
        for line in (bridge(*p, b[p]) for p in changed if b.get(p, 0) and not a.get(p, 0))
        for cell in line.cells_between()
        if (cell, not line.horizontal) not in covered
    )
    return Move(
        before=tuple((p, a.get(p, 0)) for p in changed),
        after=tuple((p, b.get(p, 0)) for p in changed),
        anchors=tuple(anchors),
        cells=cells,
        clear=tuple(clear),
    )


def _touching(pairs: list[Pair]) -> list[list[Pair]]:
    """The pairs grouped: two pairs sharing an end or a cell between lie in one group."""
    at: dict[Cell, list[Pair]] = {}
    for pair in pairs:
        for cell in (*pair, *bridge(*pair, 1).cells_between()):
            at.setdefault(cell, []).append(pair)

    def touching(pair: Pair) -> list[Pair]:
        return [other for cell in (*pair, *bridge(*pair, 1).cells_between()) for other in at[cell]]

    return connected_groups(pairs, touching)


def _anchors(ends: set[Cell], drawn: list[Bridge], kept: list[Bridge]) -> list[Pair]:
    """Bridges of ``kept`` (the solution's bridges outside the move) that connect every island
    of ``ends`` together with the move's ``drawn`` lines: short paths (the move's lines first,
    breadth first), one at a time from what is connected already to an end not yet connected."""
    links: dict[Cell, list[tuple[Cell, Pair | None]]] = {}
    for line in drawn:
        x, y = line.ends
        links.setdefault(x, []).append((y, None))
        links.setdefault(y, []).append((x, None))
    for line in kept:
        x, y = line.ends
        links.setdefault(x, []).append((y, line.ends))
        links.setdefault(y, []).append((x, line.ends))
    start = min(ends)
    joined = _reached({start}, links)
    anchors: list[Pair] = []
    while not ends <= joined:
        # Breadth first, the move's own lines taken before kept bridges: few anchors.
        came: dict[Cell, tuple[Cell, Pair | None] | None] = dict.fromkeys(joined)
        queue = deque(joined)
        reached = None
        while queue:
            here = queue.popleft()
            if here in ends and here not in joined:
                reached = here
                break
            for there, pair in links.get(here, ()):
                if there not in came:
                    came[there] = (here, pair)
                    if pair is None:
                        queue.appendleft(there)
                    else:
                        queue.append(there)
        if reached is None:  # cannot be: the solution after the move is connected
            raise ValueError("a move whose ends its solution does not connect")
        path = [reached]
        here = reached
        while (step := came[here]) is not None:
            previous, pair = step
            if pair is not None:
                anchors.append(pair)
            here = previous
            path.append(here)
        joined = _reached(joined | set(path), links)
    return sorted(set(anchors))


def _reached(start: set[Cell], links: dict) -> set[Cell]:
    """The cells reached from ``start`` over the move's own lines."""
    seen = set(start)
    queue = deque(start)
    while queue:
        here = queue.popleft()
        for there, pair in links.get(here, ()):
            if there not in seen and pair is None:
                seen.add(there)
                queue.append(there)
    return seen
