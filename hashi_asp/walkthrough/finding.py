"""Finding the next step (plain Python): the stages of the technique catalogue in order
(:func:`.techniques.stages`), the first step of the first stage that has one.

Three kinds of stage, as in Simon Tatham's solver (bridges.c), each a method of :class:`Finder`
giving the step it finds (a :class:`~.board.Found`) or None:

- :meth:`Finder.rules_stage`: what the rules and the certain bridges alone show (a bridge that
  would cross a certain one, close a loop, the only link left), each technique's own ``find``;
- :meth:`Finder.islands_stage`: reasons of one size (1 to 3 islands near each other: joined by
  a pair, or owning pairs that cross), without or with connectivity, keeping the steps whose
  technique it is for.  For a set of islands every assignment of the pairs touching them is
  enumerated (:mod:`.forcing`); the counts each pair takes across them are what the set
  forces.  Without connectivity this is exact, since pairs away from the set can always take
  their least count.  With connectivity an assignment is ruled out when it closes a group of
  islands off from the rest (every pair leaving the group decided or enumerated), which is
  sound but may miss something that only the whole board shows;
- :meth:`Finder.board_stage`: when no other stage finds a step, clingo looks at the whole board
  (:meth:`.checker.Checker.deeper`).

Ties are broken by a fixed rule, so a walkthrough is the same every time: the previous step's
reason first if it forces more (one island's consequences are read together), then the reasons
in reading order of their islands, then the pair in reading order.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..puzzle import Puzzle
from ..stopping import Deadline
from . import techniques
from .board import Board, Found
from .board import single as _single
from .forcing import Forced, Forcing, Groups, Slots
from .techniques import Finding, Stage

if TYPE_CHECKING:
    from .checker import Checker


class Finder(Board):
    """The board, and the search for its next step."""

    def __init__(self, puzzle: Puzzle, domain: list[int]):
        super().__init__(puzzle, domain)
        self._cache: dict[tuple[tuple[int, ...], bool], tuple[tuple, Forced | None]] = {}
        self._touching: dict[tuple[int, ...], tuple[list[int], list[int], list[int]]] = {}
        # Islands whose numbers alone force nothing at the counts now: skipped by the stages of
        # one island until a count they read changes (not kept where loops are forbidden,
        # since then any certain bridge can change what they force).
        self._quiet: set[int] = set()
        self._active: list[int] | None = None  # the unsettled islands, until the next step

    def apply(self, found: Found) -> None:
        super().apply(found)
        self._active = None
        if found.pair >= 0:
            for q in (found.pair, *self.crossing[found.pair]):
                self._quiet.difference_update(self.ends[q])

    def next_step(self, checker: Checker | None, deadline: Deadline) -> Found | None:
        """The first step of the first stage of the catalogue that has one, at that stage's
        level; the stage of the whole board only with a ``checker``; None when no step follows
        (solved, or stuck)."""
        for stage in techniques.stages():
            deadline.check("finding the next step")
            if stage.finding is Finding.RULES:
                found = self.rules_stage(stage)
            elif stage.finding is Finding.ISLANDS:
                found = self.islands_stage(stage)
            else:
                found = self.board_stage(stage, checker, deadline)
            if found is not None:
                return techniques.at_level(found, stage.level)
        return None

    # ------------------------------------------------------------------ the stages

    def rules_stage(self, stage: Stage) -> Found | None:
        """The first step that a technique of the rules (with the stage's connectivity) finds,
        if it is one of the stage's techniques or a contradiction (which any such technique
        shows at the first stage of the rules)."""
        for technique in techniques.of_the_rules(stage.connectivity):
            assert technique.find is not None
            found = technique.find(self)
            if found is not None:
                kept = not found.new or technique in stage.techniques
                return replace(found, technique=technique) if kept else None
        return None

    def islands_stage(self, stage: Stage) -> Found | None:
        """The first step that a reason of the stage's size forces whose technique is one of the
        stage's, or a contradiction, with its reason made minimal (:meth:`_shrink`)."""
        size, connectivity = stage.islands or 0, stage.connectivity
        quiet = self._quiet if size == 1 and not connectivity and not self.no_loops else None
        order = self._candidates(size, quiet)
        if self.last is not None and len(self.last) == size and self.last in order:
            order.insert(0, self.last)
        for reason in order:
            forced = self.forced(reason, connectivity)
            if forced is None:
                return self._shrink(Found(reason, connectivity, self.first_pair(reason), 0))
            if not forced and quiet is not None:
                quiet.add(reason[0])
            for p in sorted(forced):
                found = Found(reason, connectivity, p, forced[p])
                if techniques.classify(self, found) in stage.techniques:
                    return self._shrink(found)
        return None

    def board_stage(
        self, stage: Stage, checker: Checker | None, deadline: Deadline
    ) -> Found | None:
        """A step that clingo finds on the whole board (only with a ``checker``, and unless the
        board is solved), of the stage's technique."""
        if self.solved() or checker is None:
            return None
        found = checker.deeper(self, deadline)
        return None if found is None else replace(found, technique=stage.techniques[0])

    # ------------------------------------------------------------------ reasons of islands

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

    def forced(self, reason: tuple[int, ...], connectivity: bool) -> Forced | None:
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
        result = self._read(reason, connectivity, closable)
        self._cache[(reason, connectivity)] = (key, result)
        return result

    def _read(self, reason: tuple[int, ...], connectivity: bool, closable: bool) -> Forced | None:
        """What the numbers of ``reason`` force, enumerated (:mod:`.forcing`).  Where no
        group the reason's pairs could close off is left, connectivity rules out nothing: the
        islands force what they force without it (and that is cached as such)."""
        if connectivity and not closable:
            return self.forced(reason, False)
        pairs, crossers, _ = self._touching_pairs(reason)
        slots = Slots.of(self, reason, pairs, crossers)
        groups = Groups.of(self, slots, connectivity) if connectivity or self.no_loops else None
        if connectivity and not self.no_loops and groups is not None and groups.idle(self, reason):
            return self.forced(reason, False)
        return Forcing(slots, groups).forced()

    def _group_key(self, pairs: list[int], ends: list[int], connectivity: bool) -> tuple:
        """What the enumeration reads of the groups: which ends share a group (named by the
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

    def _shrink(self, found: Found) -> Found:
        """Drop islands the step does not need (a subset that is not a candidate set, such as
        two islands apart, can force the same), until every island is needed; a subset that
        cannot meet its numbers is the contradiction shown instead."""
        reason, pair, new, connectivity = found.reason, found.pair, found.new, found.connectivity
        shrinking = True
        while shrinking and len(reason) > 1:
            shrinking = False
            for i in reason:
                smaller = tuple(j for j in reason if j != i)
                forced = self.forced(smaller, connectivity)
                if forced is None:
                    reason, pair, new, shrinking = smaller, self.first_pair(smaller), 0, True
                    break
                if new and pair in forced and not forced[pair] & ~new:
                    reason, shrinking = smaller, True
                    break
        return Found(reason, connectivity, pair, new)
