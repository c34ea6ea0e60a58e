"""What the numbers of a reason force (plain Python): every assignment of counts to the pairs at
its islands that gives those islands their numbers, crosses nothing certain and nothing else
assigned, closes no loop (where forbidden) and, with connectivity, closes no group off from the
rest; the counts each pair takes across them are what the reason forces, and a pair crossing
them that every assignment crosses can have no bridge.

:class:`Slots` is the reason's pairs as the search assigns them (one slot each), :class:`Groups`
what it reads of the groups of islands the certain bridges join, and :class:`Forcing` one
search's assignment as it goes: a search per count not yet seen, far fewer assignments than all
of them in order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..graphs import joined_roots
from .board import low

if TYPE_CHECKING:
    from .board import Board

Forced = dict[int, int]
"""For each pair whose counts a reason narrows, the counts left (bit set)."""


@dataclass(frozen=True)
class Slots:
    """The pairs at the islands of a reason (``pairs``), each a slot, with what the search reads
    of them: each slot's counts left (``domain``, and as a list: ``options``); for each island of
    the reason its slots (``own``) and the number it needs; the reason's islands at each slot;
    the least and most the slots from k on can add at each island (``rest_low``,
    ``rest_high``); whether a certain bridge away from the reason blocks a slot; the slots
    crossing each slot; and the pairs crossing the reason's pairs that may or may not get a
    bridge (``open_crossers``), with the slots each crosses (``crossed_by``)."""

    pairs: list[int]
    domain: list[int]
    options: list[list[int]]
    own: list[list[int]]
    need: list[int | None]
    at_slot: list[list[int]]
    rest_low: list[list[int]]
    rest_high: list[list[int]]
    blocked: list[bool]
    crossing: list[list[int]]
    open_crossers: list[int]
    crossed_by: list[list[int]]

    @classmethod
    def of(cls, board: Board, reason: tuple[int, ...], pairs: list[int], crossers: list[int]):
        """The slots of the pairs ``pairs`` at the islands of ``reason``, crossed by
        ``crossers``."""
        domain = [board.domain[p] for p in pairs]
        slot = {p: k for k, p in enumerate(pairs)}
        own = [[slot[p] for p in board.at[i]] for i in reason]
        at_slot: list[list[int]] = [[] for _ in pairs]
        for s, slots in enumerate(own):
            for k in slots:
                at_slot[k].append(s)
        rest_low, rest_high = _rests(domain, own)
        open_crossers = [q for q in crossers if board.domain[q] & 1 and board.domain[q] > 1]
        return cls(
            pairs=pairs,
            domain=domain,
            options=[[v for v in range(mask.bit_length()) if mask >> v & 1] for mask in domain],
            own=own,
            need=[board.number[i] for i in reason],
            at_slot=at_slot,
            rest_low=rest_low,
            rest_high=rest_high,
            blocked=[
                any(board.present(q) for q in board.crossing[p] if q not in slot) for p in pairs
            ],
            crossing=[[slot[q] for q in board.crossing[p] if q in slot] for p in pairs],
            open_crossers=open_crossers,
            crossed_by=[[slot[p] for p in board.crossing[q] if p in slot] for q in open_crossers],
        )

    def unreachable(self) -> bool:
        """An island of the reason with no pair left to give it its number."""
        return any(not slots and self.need[s] != 0 for s, slots in enumerate(self.own))


def _rests(domain: list[int], own: list[list[int]]) -> tuple[list[list[int]], list[list[int]]]:
    """The least and the most the slots from k on can add at each island (its slots ``own``)."""
    rest_low = [[0] * (len(domain) + 1) for _ in own]
    rest_high = [[0] * (len(domain) + 1) for _ in own]
    for s, slots in enumerate(own):
        for k in range(len(domain) - 1, -1, -1):
            rest_low[s][k] = rest_low[s][k + 1] + (low(domain[k]) if k in slots else 0)
            high = domain[k].bit_length() - 1 if k in slots else 0
            rest_high[s][k] = rest_high[s][k + 1] + high
    return rest_low, rest_high


@dataclass(frozen=True)
class Groups:
    """What a search reads of the groups of islands, once: each slot that would add a new
    bridge (``newable``), with the groups at its ends; the groups there (``here``), each one's
    spare open pair ends (those no slot decides) and size; the number of ``islands``; and
    whether loops are forbidden and connectivity is asked.  A group with a spare end can never
    be closed off here."""

    newable: list[tuple[int, int, int]]
    here: list[int]
    spare: dict[int, int]
    size: list[int]
    islands: int
    no_loops: bool
    connectivity: bool

    @classmethod
    def of(cls, board: Board, slots: Slots, connectivity: bool) -> Groups:
        group, size, open_ends = board.groups()
        newable = [
            (k, group[board.ends[p][0]], group[board.ends[p][1]])
            for k, p in enumerate(slots.pairs)
            if slots.domain[k] & 1
        ]
        here = sorted({g for _, ga, gb in newable for g in (ga, gb)})
        spare = {g: open_ends[g] for g in here}
        for k, ga, gb in newable:
            if slots.domain[k] > 1:  # open before, decided by every assignment
                spare[ga] -= 1
                spare[gb] -= 1
        return cls(newable, here, spare, size, len(board.cells), board.no_loops, connectivity)

    def idle(self, board: Board, reason: tuple[int, ...]) -> bool:
        """Connectivity rules nothing out here (where loops are allowed).  Only a group left
        without a spare end can be closed off, alone or joined to others like it.  An island of
        the reason with no certain bridge yet, which needs one, is never closed off alone: when
        no two such groups can be joined either, the islands force what they force without
        it."""
        group = board.groups()[0]
        tight = {g for g in self.here if self.spare[g] == 0 and self.size[g] < self.islands}
        needing = {group[i] for i in reason if self.size[group[i]] == 1 and board.number[i] != 0}
        joined = any(ga in tight and gb in tight for _, ga, gb in self.newable)
        return not joined and tight <= needing

    def fits(self, value: list[int]) -> bool:
        """The assignment ``value`` (a count per slot) closes no loop (where forbidden) and no
        group off."""
        new = [(ga, gb) for k, ga, gb in self.newable if value[k] > 0]
        roots = joined_roots(new, acyclic=self.no_loops)
        if roots is None:
            return False
        if not self.connectivity:
            return True
        left: dict[int, int] = {}
        members: dict[int, int] = {}
        for g in self.here:
            root = roots.get(g, g)
            left[root] = left.get(root, 0) + self.spare[g]
            members[root] = members.get(root, 0) + self.size[g]
        return all(left[root] > 0 or members[root] == self.islands for root in left)


class Forcing:
    """The searches for the assignments of one reason's slots: the assignment as it goes
    (``value``, and each island's ``total``), the counts ``seen`` at each slot across the
    assignments found, which open crossers some assignment leaves ``free``, and the counts
    the current search may give each slot (``allowed``)."""

    def __init__(self, slots: Slots, groups: Groups | None):
        self.slots, self.groups = slots, groups
        self.value = [-1] * len(slots.pairs)
        self.total = [0] * len(slots.own)
        self.seen = [0] * len(slots.pairs)
        self.free = [False] * len(slots.open_crossers)
        self.allowed = list(slots.domain)

    def forced(self) -> Forced | None:
        """What the reason forces; None when its numbers cannot all be met."""
        slots = self.slots
        if slots.unreachable() or not self.assign(0):
            return None
        # One search per count not yet seen, for an assignment that gives it (each also shows
        # the other counts it uses).
        for k, counts in enumerate(slots.options):
            for v in counts:
                if not self.seen[k] >> v & 1:
                    self.allowed[k] = 1 << v
                    self.assign(0)
                    self.allowed[k] = slots.domain[k]
        # And one per pair crossing them, for an assignment that leaves it free.
        for c, crossed in enumerate(slots.crossed_by):
            if not self.free[c] and all(slots.domain[j] & 1 for j in crossed):
                for j in crossed:
                    self.allowed[j] = 1
                self.assign(0)
                for j in crossed:
                    self.allowed[j] = slots.domain[j]
        forced = {
            p: self.seen[k] for k, p in enumerate(slots.pairs) if self.seen[k] != slots.domain[k]
        }
        forced.update((q, 1) for q, free in zip(slots.open_crossers, self.free) if not free)
        return forced

    def assign(self, k: int) -> bool:
        """Assign slot k and those after it, within ``allowed``; True at the first assignment
        found, whose counts are then seen."""
        if k == len(self.slots.pairs):
            return self._found()
        for v in self.slots.options[k]:
            if not self.allowed[k] >> v & 1 or not self._may(k, v):
                continue
            self.value[k] = v
            for s in self.slots.at_slot[k]:
                self.total[s] += v
            stop = self.assign(k + 1)
            for s in self.slots.at_slot[k]:
                self.total[s] -= v
            self.value[k] = -1
            if stop:
                return True
        return False

    def _may(self, k: int, v: int) -> bool:
        """Slot k may take count v: a bridge crosses nothing certain and no slot assigned one,
        and each island at the slot can still get its number."""
        slots = self.slots
        crossing = slots.crossing[k]
        if v and (slots.blocked[k] or (crossing and any(self.value[j] > 0 for j in crossing))):
            return False
        for s in slots.at_slot[k]:
            t = self.total[s] + v
            wanted = slots.need[s]
            if wanted is None:  # an island without a number needs a bridge
                if t + slots.rest_high[s][k + 1] < 1:
                    return False
            elif not t + slots.rest_low[s][k + 1] <= wanted <= t + slots.rest_high[s][k + 1]:
                return False
        return True

    def _found(self) -> bool:
        """A whole assignment: kept (its counts seen, the crossers it leaves free) if it fits
        the groups."""
        if self.groups is not None and not self.groups.fits(self.value):
            return False
        for j, v in enumerate(self.value):
            self.seen[j] |= 1 << v
        for c, crossed in enumerate(self.slots.crossed_by):
            self.free[c] = self.free[c] or all(self.value[j] <= 0 for j in crossed)
        return True
