"""Finding the next step (plain Python): the passes of the technique catalogue in order, the
first step of the first pass that has one.

A pass reads reasons of one size (0 to 3 islands near each other: joined by a pair, or owning
pairs that cross), without or with connectivity, and keeps the steps whose technique it is for
(:func:`.techniques.passes`).  For a set of islands every assignment of the pairs touching
them is enumerated; the counts each pair takes across them are what the set forces.  Without
connectivity this is exact, since pairs away from the set can always take their least count.
With connectivity an assignment is ruled out when it closes a group of islands off from the
rest (every pair leaving the group decided or enumerated), which is sound but may miss
something that only the whole board shows.  When no pass finds a step, clingo looks at the
whole board (:meth:`.checker.Checker.deeper`).

Ties are broken by a fixed rule, so a walkthrough is the same every time: the previous step's
reason first if it forces more (one island's consequences are read together), then the reasons
in reading order of their islands, then the pair in reading order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..graphs import connected_groups, cut_edges
from ..puzzle import Puzzle
from ..stopping import Deadline
from . import techniques
from .board import Board, Found
from .board import low as _low
from .board import single as _single

if TYPE_CHECKING:
    from .checker import Checker


class Finder(Board):
    """The board, and the search for its next step."""

    def __init__(self, puzzle: Puzzle, domain: list[int]):
        super().__init__(puzzle, domain)
        self._cache: dict[tuple[tuple[int, ...], bool], tuple[tuple, dict[int, int] | None]] = {}
        self._touching: dict[tuple[int, ...], tuple[list[int], list[int], list[int]]] = {}
        # Islands whose numbers alone force nothing at the counts now: skipped by the passes of
        # one island until a count they read changes (not kept where loops are forbidden,
        # since then any certain bridge can change what they force).
        self._quiet: set[int] = set()
        self._active: list[int] | None = None  # the unsettled islands, until the next step
        self._crossable = [p for p, crossed in enumerate(self.crossing) if crossed]

    def apply(self, found: Found) -> None:
        super().apply(found)
        self._active = None
        if found.pair >= 0:
            for q in (found.pair, *self.crossing[found.pair]):
                self._quiet.difference_update(self.ends[q])

    def next_step(self, checker: Checker | None, deadline: Deadline) -> Found | None:
        """The first step of the first pass of the catalogue that has one; when none has, one
        that clingo finds on the whole board (only with a ``checker``); None when no step
        follows (solved, or stuck)."""
        for stage in techniques.passes():
            deadline.check("finding the next step")
            if stage.islands is None:
                if self.solved() or checker is None:
                    return None
                found = checker.deeper(self, deadline)
                return None if found is None else techniques.at_level(found, stage.level)
            found = self._pass(stage)
            if found is not None:
                return techniques.at_level(self._shrink(found), stage.level)
        return None

    def _pass(self, stage: techniques.Pass) -> Found | None:
        if stage.islands == 0:
            found = self._cut() if stage.connectivity else self._crossing_or_loop()
            keep = found is not None and (not found.new or found.kind in stage.names)
            return found if keep else None
        size, connectivity = stage.islands or 0, stage.connectivity
        quiet = self._quiet if size == 1 and not connectivity and not self.no_loops else None
        order = self._candidates(size, quiet)
        if self.last is not None and len(self.last) == size and self.last in order:
            order.insert(0, self.last)
        for reason in order:
            forced = self.forced(reason, connectivity)
            if forced is None:
                return Found(reason, connectivity, self.first_pair(reason), 0)
            if not forced and quiet is not None:
                quiet.add(reason[0])
            for p in sorted(forced):
                found = Found(reason, connectivity, p, forced[p])
                if techniques.classify(self, found).name in stage.names:
                    return found
        return None

    def _candidates(self, size: int, quiet: set[int] | None = None) -> list[tuple[int, ...]]:
        """Sets of ``size`` islands near each other, each unsettled (:meth:`unsettled`); of one
        island, leaving out those ``quiet``."""
        if size == 1:
            skip = quiet or set()
            return [(i,) for i in range(len(self.cells)) if i not in skip and self.unsettled(i)]
        if self._active is None:
            self._active = [i for i in range(len(self.cells)) if self.unsettled(i)]
        active = self._active
        undecided = [not _single(mask) for mask in self.domain]
        near: dict[int, set[int]] = {i: set() for i in active}
        for i in active:
            for p in self.at[i]:
                if undecided[p]:
                    near[i].update(self.ends[p])
                    for q in self.crossing[p]:
                        if undecided[q]:
                            near[i].update(self.ends[q])
        for i in active:
            near[i] = {j for j in near[i] if j != i and j in near}
        sets = {tuple(sorted((i, j))) for i in active for j in near[i]}
        for _ in range(size - 2):
            sets = {
                tuple(sorted((*group, k)))
                for group in sets
                for i in group
                for k in near[i]
                if k not in group
            }
        return sorted(sets)

    def _touching_pairs(self, reason: tuple[int, ...]) -> tuple[list[int], list[int], list[int]]:
        """The pairs at the islands of ``reason``, the pairs crossing them, and their ends."""
        if reason not in self._touching:
            pairs = sorted({p for i in reason for p in self.at[i]})
            crossers = sorted({q for p in pairs for q in self.crossing[p]} - set(pairs))
            ends = sorted({i for p in pairs for i in self.ends[p]})
            self._touching[reason] = (pairs, crossers, ends)
        return self._touching[reason]

    def forced(self, reason: tuple[int, ...], connectivity: bool) -> dict[int, int] | None:
        """What the numbers of ``reason`` force: for each pair at its islands whose counts it
        narrows, the counts left (bit set); None when they cannot all be met.  Cached until the
        counts it depends on change."""
        pairs, crossers, ends = self._touching_pairs(reason)
        key: tuple = (
            tuple(self.domain[p] for p in pairs),
            tuple(self.domain[q] for q in crossers),
        )
        closable = False
        if connectivity or self.no_loops:
            shape = self._group_key(pairs, ends, connectivity)
            closable = any(isinstance(g, tuple) and g != (-1, -1) for g in shape)
            key += shape
        cached = self._cache.get((reason, connectivity))
        if cached is not None and cached[0] == key:
            return cached[1]
        if connectivity and not closable:
            # No group the reason's pairs could close off: connectivity rules out nothing, and
            # the islands force what they force without it (cached as such).
            result = self.forced(reason, False)
        else:
            result = self._enumerate(reason, connectivity)
        self._cache[(reason, connectivity)] = (key, result)
        return result

    def _group_key(self, pairs: list[int], ends: list[int], connectivity: bool) -> tuple:
        """What :meth:`_enumerate` reads of the groups: which ends share a group (named by the
        first end in it, so that a merge far away changes nothing) and, with connectivity, each
        group's open pair ends and size, but only where they can matter.  A group with more open
        ends than the enumerated pairs can close cannot be closed off, whatever its exact count
        and size; keying on that keeps the cache across most steps of a big puzzle."""
        group, size, open_ends = self.groups()
        first: dict[int, int] = {}
        shape = tuple(first.setdefault(group[i], k) for k, i in enumerate(ends))
        if not connectivity:
            return shape
        closable = dict.fromkeys(first, 0)
        for p in pairs:
            if self.domain[p] & 1 and self.domain[p] > 1:
                for i in self.ends[p]:
                    closable[group[i]] += 1
        return shape + tuple(
            (-1, -1) if open_ends[g] > closable[g] else (open_ends[g], size[g]) for g in first
        )

    def _enumerate(self, reason: tuple[int, ...], connectivity: bool) -> dict[int, int] | None:
        """Every assignment of counts to the pairs at the islands of ``reason`` that gives those
        islands their numbers, crosses nothing certain and nothing else assigned, closes no loop
        (where forbidden) and, with ``connectivity``, closes no group off: the counts each pair
        takes across them; and a pair crossing them that every assignment crosses can have no
        bridge."""
        pairs, crossers, _ = self._touching_pairs(reason)
        # Pairs crossing the reason's pairs that may or may not get a bridge, with the slots
        # they cross: each is free once an assignment leaves all of those without a bridge.
        open_crossers = [q for q in crossers if self.domain[q] & 1 and self.domain[q] > 1]
        domain = [self.domain[p] for p in pairs]
        slot = {p: k for k, p in enumerate(pairs)}
        value = [-1] * len(pairs)
        seen = [0] * len(pairs)
        # For each island of the reason: its pairs' slots, and what it still needs.
        own = [[slot[p] for p in self.at[i]] for i in reason]
        need = [self.number[i] for i in reason]
        at_slot: list[list[int]] = [[] for _ in pairs]  # the reason's islands at each slot
        for s, slots in enumerate(own):
            for k in slots:
                at_slot[k].append(s)
        # The least and most the slots after k can add at each island.
        rest_low = [[0] * (len(pairs) + 1) for _ in reason]
        rest_high = [[0] * (len(pairs) + 1) for _ in reason]
        for s, slots in enumerate(own):
            for k in range(len(pairs) - 1, -1, -1):
                low = _low(domain[k]) if k in slots else 0
                high = domain[k].bit_length() - 1 if k in slots else 0
                rest_low[s][k] = rest_low[s][k + 1] + low
                rest_high[s][k] = rest_high[s][k + 1] + high
        blocked = [any(self.present(q) for q in self.crossing[p] if q not in slot) for p in pairs]
        crossing_slots = [[slot[q] for q in self.crossing[p] if q in slot] for p in pairs]
        crossed_by = [[slot[p] for p in self.crossing[q] if p in slot] for q in open_crossers]
        free = [False] * len(open_crossers)
        total = [0] * len(reason)
        options = [[v for v in range(mask.bit_length()) if mask >> v & 1] for mask in domain]
        check_groups = connectivity or self.no_loops
        # What fits() reads of the groups, once: each slot that would add a new bridge, with
        # the groups at its ends; and each group's spare open pair ends (those no slot here
        # decides) and size.  A group with a spare end can never be closed off here.
        group, size, open_ends = self.groups()
        newable = [
            (k, group[self.ends[p][0]], group[self.ends[p][1]])
            for k, p in enumerate(pairs)
            if domain[k] & 1
        ]
        here = sorted({g for _, ga, gb in newable for g in (ga, gb)})
        spare = {g: open_ends[g] for g in here}
        for k, ga, gb in newable:
            if domain[k] > 1:  # open before, decided by every assignment
                spare[ga] -= 1
                spare[gb] -= 1
        n = len(self.cells)
        if connectivity and not self.no_loops:
            # Only a group left without a spare end can be closed off, alone or joined to
            # others like it.  An island of the reason with no certain bridge yet, which needs
            # one, is never closed off alone: when no two such groups can be joined either,
            # connectivity rules nothing out, and the islands force what they force without it.
            tight = {g for g in here if spare[g] == 0 and size[g] < n}
            needing = {group[i] for i in reason if size[group[i]] == 1 and self.number[i] != 0}
            joined = any(ga in tight and gb in tight for _, ga, gb in newable)
            if not joined and tight <= needing:
                return self.forced(reason, False)

        def fits() -> bool:
            """The assignment closes no loop (where forbidden) and no group off."""
            parent: dict[int, int] = {}

            def find(x: int) -> int:
                while x in parent:
                    x = parent[x]
                return x

            for k, ga, gb in newable:
                if value[k] > 0:  # a new bridge: joins two groups
                    ra, rb = find(ga), find(gb)
                    if ra == rb:
                        if self.no_loops:
                            return False
                        continue
                    parent[max(ra, rb)] = min(ra, rb)
            if not connectivity:
                return True
            left: dict[int, int] = {}
            members: dict[int, int] = {}
            for g in here:
                root = find(g)
                left[root] = left.get(root, 0) + spare[g]
                members[root] = members.get(root, 0) + size[g]
            return all(left[root] > 0 or members[root] == n for root in left)

        allowed = list(domain)  # the counts the current search may give each slot

        def assign(k: int) -> bool:
            """Assign slot k and those after it, within ``allowed``; True at the first
            assignment found, whose counts are then seen."""
            if k == len(pairs):
                if check_groups and not fits():
                    return False
                for j, v in enumerate(value):
                    seen[j] |= 1 << v
                for c, slots in enumerate(crossed_by):
                    free[c] = free[c] or all(value[j] <= 0 for j in slots)
                return True
            crossing_here = crossing_slots[k]
            for v in options[k]:
                if not allowed[k] >> v & 1:
                    continue
                if v and (
                    blocked[k] or (crossing_here and any(value[j] > 0 for j in crossing_here))
                ):
                    continue
                ok = True
                for s in at_slot[k]:
                    t = total[s] + v
                    wanted = need[s]
                    if wanted is None:  # an island without a number needs a bridge
                        ok = t + rest_high[s][k + 1] >= 1
                    else:
                        ok = t + rest_low[s][k + 1] <= wanted <= t + rest_high[s][k + 1]
                    if not ok:
                        break
                if not ok:
                    continue
                value[k] = v
                for s in at_slot[k]:
                    total[s] += v
                stop = assign(k + 1)
                for s in at_slot[k]:
                    total[s] -= v
                value[k] = -1
                if stop:
                    return True
            return False

        if any(not slots and need[s] != 0 for s, slots in enumerate(own)):
            return None  # an island with no pair left to give it its number
        if not assign(0):
            return None
        # One search per count not yet seen, for an assignment that gives it (each also shows
        # the other counts it uses): far fewer assignments than all of them in order.
        for k, counts in enumerate(options):
            for v in counts:
                if not seen[k] >> v & 1:
                    allowed[k] = 1 << v
                    assign(0)
                    allowed[k] = domain[k]
        # And one per pair crossing them, for an assignment that leaves it free.
        for c, slots in enumerate(crossed_by):
            if not free[c] and all(domain[j] & 1 for j in slots):
                for j in slots:
                    allowed[j] = 1
                assign(0)
                for j in slots:
                    allowed[j] = domain[j]
        forced = {p: seen[k] for k, p in enumerate(pairs) if seen[k] != domain[k]}
        forced.update((q, 1) for q, is_free in zip(open_crossers, free) if not is_free)
        return forced

    # ------------------------------------------------------------------ steps of no island

    def _crossing_or_loop(self) -> Found | None:
        """A bridge that would cross a certain bridge, or (no loops) join two islands already
        joined; two certain bridges that cross, or certain bridges round a loop, are a
        contradiction."""
        domain = self.domain
        for p in self._crossable:
            if domain[p] > 1 and any(not domain[q] & 1 for q in self.crossing[p]):
                return Found((), False, p, 0 if self.present(p) else 1, "crossing")
        if self.no_loops:
            group, _, _ = self.groups()
            certain = sum(self.present(p) for p in range(len(self.ends)))
            if certain > len(self.cells) - len(set(group)):  # more bridges than a forest has
                p = next(p for p in range(len(self.ends)) if self.present(p))
                return Found((), False, p, 0, "loop")
            for p, (a, b) in enumerate(self.ends):
                if self.domain[p] > 1 and not self.present(p) and group[a] == group[b]:
                    return Found((), False, p, 1, "loop")
        return None

    def _cut(self) -> Found | None:
        """With connectivity: a group of islands with no way out (a contradiction), or a pair
        that is the only link left between two parts of the board (at least one bridge)."""
        group, size, open_ends = self.groups()
        n = len(self.cells)
        for g in sorted(set(group)):
            if open_ends[g] == 0 and size[g] < n:
                members = tuple(i for i in range(n) if group[i] == g)
                return Found((), True, self.first_pair(members), 0, "closed")
        # Cut edges (bridges in the graph sense) of the groups joined by open pairs: each the
        # only link left between two parts.
        edges: dict[int, list[tuple[int, int]]] = {}
        for p, (a, b) in enumerate(self.ends):
            if self.domain[p] & 1 and self.domain[p] > 1 and group[a] != group[b]:
                edges.setdefault(group[a], []).append((group[b], p))
                edges.setdefault(group[b], []).append((group[a], p))
        parts = sorted(set(group))
        joined = connected_groups(parts, lambda g: (other for other, _ in edges.get(g, ())))
        if len(joined) > 1:  # a part with nothing left to join it to the others
            return Found((), True, self.first_pair((joined[1][0],)), 0, "closed")
        cuts = cut_edges(parts, lambda g: edges.get(g, ()))
        if cuts:
            p = min(cuts)
            return Found((), True, p, self.domain[p] & ~1, "only-link")
        return None

    # ------------------------------------------------------------------ minimal reasons

    def _shrink(self, found: Found) -> Found:
        """Drop islands the step does not need (a subset that is not a candidate set, such as
        two islands apart, can force the same), until every island is needed."""
        reason = found.reason
        shrinking = True
        while shrinking and len(reason) > 1:
            shrinking = False
            for i in reason:
                smaller = tuple(j for j in reason if j != i)
                forced = self.forced(smaller, found.connectivity)
                if forced is None:
                    contradiction = Found(smaller, found.connectivity, self.first_pair(smaller), 0)
                    return self._shrink(contradiction)
                if found.new and found.pair in forced and not forced[found.pair] & ~found.new:
                    reason, shrinking = smaller, True
                    break
        return Found(reason, found.connectivity, found.pair, found.new, found.kind)

    # ------------------------------------------------------------------ saying it
