"""Walkthroughs: a puzzle solved the way a person solves it, one step at a time, each step with
the smallest set of island numbers that forces it.

A **step** narrows the bridge counts one pair of neighbouring islands can still take (from
{0, 1, 2} to {1, 2}: at least one bridge; to {0}: none; ...).  Its **reason** is a set of
islands whose numbers force it, together with the rules (straight, no crossing, at most K per
pair, no loops where the puzzle says so) and what the earlier steps established; a step that
also needs "all islands are connected" says so.  Precisely: every assignment of a count to
every pair that keeps within the counts the earlier steps left, breaks no rule, gives each
island of the reason its number (the others' numbers are not used) and, for a connectivity
step, connects all islands, gives the pair a count the step keeps.  The reason is minimal:
drop any one of its islands and some assignment gives the pair a count the step rules out.

**Finding** steps (:class:`_Board`, plain Python): easiest first, the way a good solver reads a
puzzle.  Levels in order: reasons of 0 islands (a bridge that would cross a certain bridge, or
close a loop; with connectivity, the only link left between two parts), then 1, 2 and 3
islands near each other (joined by a pair, or owning pairs that cross), each level first
without and then with connectivity.  For a set of islands every assignment of the pairs
touching them is enumerated; the counts each pair takes across them are what the set forces.
Without connectivity this is exact, since pairs away from the set can always take their least
count.  With connectivity an assignment is ruled out when it closes a group of islands off from
the rest (every pair leaving the group decided or enumerated), which is sound but may miss
something that only the whole board shows.  When the levels find nothing, clingo looks at the
whole board (``step.lp`` with every number switched on): a count of a pair no solution has,
with a minimal set of numbers that rules it out.

Ties are broken by a fixed rule, so a walkthrough is the same every time: the previous step's
reason first if it forces more (one island's consequences are read together), then the reasons
in reading order of their islands, then the pair in reading order.

**Checking** steps (:class:`_Checker`, clingo with ``encodings/step.lp``, its own reading of
the rules and of which islands see each other): before a step is shown, the assignments the
step rules out must not exist with its reason (else it is a fault, and raises); islands whose
drop keeps it so are dropped, so that the reason shown is minimal by clingo's account.  A final
state with every pair decided is a solution the independent checker passes.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .asp import interface
from .asp.control import Grounded, enumerate_solutions, ground
from .asp.interface import Program
from .checking import check
from .difficulty import Difficulty, rate
from .drawing import Picture, svg
from .puzzle import (
    Cell,
    HashiError,
    Pair,
    Puzzle,
    PuzzleError,
    Solution,
    bridge,
    cell_name,
    connected_groups,
    plural,
)
from .status import Status
from .stopping import Deadline

if TYPE_CHECKING:
    import clingo

READING = tuple((size, connectivity, None) for size in range(4) for connectivity in (False, True))
"""The order of a walkthrough: reasons of 0 to 3 islands (larger ones are found by clingo),
smallest first, each size without connectivity before with it."""

EFFORT = (
    (0, False, None),
    (1, False, "easy"),
    (1, False, "medium"),
    (1, False, None),
    (0, True, None),
    (1, True, None),
    (2, False, None),
    (2, True, None),
    (3, False, None),
    (3, True, None),
)
"""The order of a person using the easiest technique that applies, which the difficulty
rates: the classic patterns of one island (:data:`EASY`) before its other consequences, and
every connectivity argument after them all (Simon Tatham's solver, whose levels the rating is
calibrated against, orders them so)."""

EASY = {"crossing", "loop", "complete", "all-bridges", "low-number", "one-each-way"}
"""Techniques a beginner sees at once: a bridge over a certain one, a finished island, an
island that needs every bridge it can get, a number below the most bridges a pair may have
(a 1 takes no double bridge), an island that needs more than its other neighbours can give.
(Simon Tatham's solver at its easy level uses these.)"""

MEDIUM = EASY | {"at-least"}
"""And an island that needs at least one bridge to a neighbour because the others cannot give
it enough (Simon Tatham's medium level adds this)."""

TIERS = {"easy": EASY, "medium": MEDIUM}

STATUSES = ("solved", "stuck", "contradiction", "unfinished", "unknown")
"""solved: every pair decided; stuck: no further step follows (several solutions, or the given
bridges leave several); contradiction: the last step shows there is no solution; unfinished:
stopped after the number of steps asked for; unknown: the time limit came first."""


class Unrated(PuzzleError):
    """A puzzle that has no difficulty, where a rating was asked for; ``verdict`` says why, as
    ``unique`` would (``unsolvable``, ``multiple``).  Only a puzzle with exactly one solution is
    rated."""

    status = Status.CANNOT_ANSWER
    verdict = "unknown"


class Unsolvable(Unrated):
    """A puzzle with no solution, where a rating was asked for."""

    verdict = "unsolvable"


class SeveralSolutions(Unrated):
    """A puzzle with more than one solution, where a rating was asked for."""

    verdict = "multiple"


class InvalidStep(HashiError):
    """A step the checker does not confirm: a fault in the program, never shown as a step."""

    status = Status.FAULT


# ---------------------------------------------------------------------------- results


@dataclass(frozen=True)
class Progress:
    """How far a walkthrough has come, told after each of its steps: ``steps`` found so far,
    ``decided`` pairs of the ``pairs`` undecided at its start; ``rating`` for the walkthrough of
    the easiest techniques that a difficulty rates (after the shown one, in :func:`steps`)."""

    steps: int
    decided: int
    pairs: int
    rating: bool = False


OnStep = Callable[[Progress], None]


@dataclass(frozen=True)
class Step:
    """One step: ``pair`` may now take only the counts ``bridges`` (ascending; ``()`` when no
    count is left, a contradiction), where ``before`` it could take more; ``reason`` the islands
    whose numbers force it (reading order), ``connectivity`` whether it also needs all islands
    connected; ``technique`` names the kind of step and ``text`` says it to a player."""

    pair: Pair | None  # None only for a contradiction at islands with no neighbours
    before: tuple[int, ...]
    bridges: tuple[int, ...]
    reason: tuple[Cell, ...]
    connectivity: bool
    technique: str
    text: str

    def to_json(self) -> dict:
        return {
            "pair": [*self.pair[0], *self.pair[1]] if self.pair is not None else None,
            "bridges": list(self.bridges),
            "before": list(self.before),
            "reason": [list(cell) for cell in self.reason],
            "connectivity": self.connectivity,
            "technique": self.technique,
            "text": self.text,
        }


@dataclass
class Walkthrough:
    """The steps from the starting state (the empty board, or a player's bridges) on.

    ``possible`` maps every pair of neighbours to the counts it can still take after the last
    step; ``status`` is one of :data:`STATUSES`.  ``solution`` is the final state when solved
    (checked by the independent checker); ``conflict`` the islands of the contradiction.
    ``difficulty`` rates a walkthrough that ran to its end (None when stopped early)."""

    puzzle: Puzzle
    steps: list[Step]
    status: str
    possible: dict[Pair, tuple[int, ...]]
    given: Solution | None = None  # the bridges the walkthrough started from
    solution: Solution | None = None
    conflict: tuple[Cell, ...] | None = None
    difficulty: Difficulty | None = None
    checked: bool = False
    timed_out: bool = False
    interrupted: bool = False
    stats: dict = field(default_factory=dict)

    @property
    def open(self) -> dict[Pair, tuple[int, ...]]:
        """The pairs still undecided, with the counts they can take."""
        return {pair: ks for pair, ks in self.possible.items() if len(ks) > 1}

    def state(self) -> Solution:
        """The bridges certain after the last step: each pair's least possible count."""
        return Solution.of(
            bridge(*pair, ks[0]) for pair, ks in self.possible.items() if ks and ks[0]
        )

    def picture(self, number: int | None = None) -> Picture:
        """Step ``number`` (from 1; default the last) as an SVG picture: the board after it,
        its pair and its reason's islands highlighted, its sentence as the title.  Without
        steps, the starting board."""
        if not self.steps:
            return svg(self.puzzle, self.given, title="No step yet")
        number = len(self.steps) if number is None else number
        if not 1 <= number <= len(self.steps):
            raise IndexError(f"step {number}: the walkthrough has steps 1 to {len(self.steps)}")
        step, board = next(itertools.islice(self.boards(), number - 1, None))
        return self._drawn(number, step, board)

    def pictures(self) -> Iterator[Picture]:
        """Every step's picture, in order (as :meth:`picture` draws each)."""
        for number, (step, board) in enumerate(self.boards(), 1):
            yield self._drawn(number, step, board)

    def _drawn(self, number: int, step: Step, board: Solution) -> Picture:
        ends = step.pair if step.pair is not None else ()
        return svg(
            self.puzzle,
            board,
            highlight_bridges=[b for b in board.bridges if b.ends == step.pair],
            highlight_islands=[*step.reason, *ends],
            title=f"Step {number}: {step.text}",
        )

    def _repr_svg_(self) -> str:
        """A Jupyter notebook shows a walkthrough as its last step (``picture(n)`` shows
        step n)."""
        return self.picture()

    def boards(self) -> Iterator[tuple[Step, Solution]]:
        """Each step with the bridges certain after it (the start's, then each step's least
        count): the board a player has drawn so far."""
        least = {b.ends: b.count for b in (self.given.bridges if self.given else ())}
        for step in self.steps:
            if step.pair is not None and step.bridges:
                least[step.pair] = step.bridges[0]
            yield step, Solution.of(bridge(*pair, k) for pair, k in least.items() if k)


# ---------------------------------------------------------------------------- the walkthrough


def steps(
    puzzle: Puzzle,
    given: Solution | None = None,
    *,
    limit: int | None = None,
    checked: bool = True,
    time_limit: float | Deadline | None = None,
    on_step: OnStep | None = None,
) -> Walkthrough:
    """Walk through ``puzzle`` from the empty board, or from ``given`` (a player's bridges,
    each a lower bound, as ``hint`` reads them), one step at a time: at most ``limit`` steps
    (``limit=1``: the next move), else to the end.  With ``checked`` every step is confirmed by
    clingo before it is kept (``False`` only for measuring, as :func:`difficulty` does).
    ``on_step`` hears the :class:`Progress` after each step (of the rating too), e.g. to show
    it."""
    deadline = Deadline.of(time_limit)
    start = _starting_counts(puzzle, given)
    board = _Board(puzzle, list(start))
    told = _Teller(start, on_step)
    checker = _Checker(puzzle, deadline) if checked else None
    walk = Walkthrough(puzzle, [], "unknown", {}, given=given, checked=checked)
    try:
        while limit is None or len(walk.steps) < limit:
            if deadline.expired():
                raise _OutOfTime
            found = board.next_step(checker, deadline)
            if found is None:
                break
            if checker is not None:
                found = checker.confirm(found, board.domain, deadline)
            walk.steps.append(board.describe(found))
            board.apply(found)
            told(len(walk.steps), board.domain)
            if not found.new:
                break
    except KeyboardInterrupt:
        walk.interrupted = True
    except _OutOfTime:
        walk.timed_out = True
    walk.possible = board.possible()
    walk.status = _status(walk, board, limit)
    if walk.status == "contradiction":
        walk.conflict = walk.steps[-1].reason
    if walk.status == "solved":
        walk.solution = walk.state()
        broken = check(puzzle, walk.solution)
        if broken:
            raise InvalidStep(f"the walkthrough ends in a state that breaks the rules: {broken[0]}")
    if walk.status == "solved":  # only a puzzle with one solution is rated (stuck: several)
        try:
            walk.difficulty = _rated(puzzle, start, deadline, _Teller(start, on_step, rating=True))
        except _OutOfTime:
            walk.timed_out = True
        except KeyboardInterrupt:
            walk.interrupted = True
    return walk


def difficulty(
    puzzle: Puzzle, time_limit: float | Deadline | None = None, *, on_step: OnStep | None = None
) -> Difficulty:
    """How hard ``puzzle`` is for a person (:mod:`.difficulty`): the walkthrough of a solver
    who always uses the easiest technique that applies, rated.  Only a puzzle with exactly one
    solution has a difficulty: raises :class:`Unsolvable` for none and
    :class:`SeveralSolutions` for more (both :class:`Unrated`, status ``CANNOT_ANSWER``), and
    :class:`~hashi_asp.stopping.TimeLimitReached` at the time limit.  ``on_step`` hears the
    :class:`Progress` after each step."""
    deadline = Deadline.of(time_limit)
    start = _starting_counts(puzzle, None)
    # First, as it takes a fraction of the walkthrough's time: a puzzle with several solutions
    # would be walked until it is stuck, only to be refused.
    _refuse_unless_unique(puzzle, deadline)
    try:
        return _rated(puzzle, start, deadline, _Teller(start, on_step, rating=True))
    except _OutOfTime:
        raise deadline.reached("rating the puzzle") from None


def _refuse_unless_unique(puzzle: Puzzle, deadline: Deadline) -> None:
    """Raise :class:`SeveralSolutions` or :class:`Unsolvable` unless clingo finds exactly one
    solution, searching for two."""
    found = enumerate_solutions(puzzle, Program(), 2, deadline, keep=False)
    if found.search.interrupted:
        raise KeyboardInterrupt
    if found.search.timed_out:
        raise deadline.reached("deciding whether the puzzle has one solution")
    if found.found > 1:
        raise SeveralSolutions(
            "several solutions: only a puzzle with exactly one has a difficulty", puzzle.source
        )
    if found.found == 0:
        raise Unsolvable(
            "no solution: only a puzzle with exactly one has a difficulty", puzzle.source
        )


class _Teller:
    """Tells ``on_step`` the :class:`Progress` of a walkthrough from the counts ``start``."""

    def __init__(self, start: list[int], on_step: OnStep | None, rating: bool = False):
        self.on_step, self.rating = on_step, rating
        self.pairs = sum(not _single(mask) for mask in start)

    def __call__(self, steps: int, domain: list[int]) -> None:
        if self.on_step is not None:
            decided = self.pairs - sum(not _single(mask) for mask in domain)
            self.on_step(Progress(steps, decided, self.pairs, self.rating))


def _rated(puzzle: Puzzle, start: list[int], deadline: Deadline, told: _Teller) -> Difficulty:
    board = _Board(puzzle, list(start))
    tiers = []
    while (found := board.next_step(None, deadline, EFFORT)) is not None:
        if not found.new:  # the puzzle has a solution: a step before this one was wrong
            raise InvalidStep("internal error: the rated walkthrough reaches a contradiction")
        tiers.append(board.tier(found))
        board.apply(found)
        told(len(tiers), board.domain)
    return rate(tiers, board.solved())


def _status(walk: Walkthrough, board: _Board, limit: int | None) -> str:
    if walk.steps and not walk.steps[-1].bridges:
        return "contradiction"
    if board.solved():
        return "solved"
    if walk.timed_out or walk.interrupted:
        return "unknown"
    if limit is not None and len(walk.steps) >= limit:
        return "unfinished"
    return "stuck"


def _starting_counts(puzzle: Puzzle, given: Solution | None) -> list[int]:
    """The counts each pair can take at the start, as bit sets: anything up to the most bridges
    a pair may have, and with ``given`` at least as many as the player drew."""
    geometry = puzzle.geometry
    top = puzzle.rules.max_bridges
    counts = [(1 << (top + 1)) - 1 for _ in geometry.ends]
    for drawn in given.bridges if given is not None else ():
        a, z = sorted(drawn.ends)
        p = _pair_index(geometry, a, z)
        if p is None:
            where = f"{cell_name(a)}-{cell_name(z)}"
            raise PuzzleError(f"given bridge {where} does not join two neighbouring islands")
        if not 1 <= drawn.count <= top:
            raise PuzzleError(
                f"given bridge {cell_name(a)}-{cell_name(z)} has {drawn.count} "
                f"bridges; allowed 1..{top}"
            )
        counts[p] &= ~((1 << drawn.count) - 1)
    return counts


def _pair_index(geometry, a: Cell, z: Cell) -> int | None:
    i, j = geometry.index.get(a), geometry.index.get(z)
    if i is None or j is None:
        return None
    return next((p for p in geometry.at[i] if j in geometry.ends[p]), None)


# ---------------------------------------------------------------------------- finding steps


class _OutOfTime(Exception):
    pass


@dataclass(frozen=True)
class _Found:
    """A step as found: the islands of the reason (indices, reading order), connectivity, the
    pair (index) and its counts after the step (a bit set; 0 = contradiction)."""

    reason: tuple[int, ...]
    connectivity: bool
    pair: int
    new: int
    kind: str = ""  # set for steps of no island: crossing, loop, only-link, closed


def _values(mask: int) -> tuple[int, ...]:
    return tuple(k for k in range(mask.bit_length()) if mask >> k & 1)


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _single(mask: int) -> bool:
    return mask & (mask - 1) == 0


class _Board:
    """The counts each pair can still take (bit sets: bit k set = k bridges possible), and the
    search for the next step over them."""

    def __init__(self, puzzle: Puzzle, domain: list[int]):
        geometry = puzzle.geometry
        self.puzzle = puzzle
        self.geometry = geometry
        self.cells = geometry.cells
        self.number = [puzzle.islands[cell] for cell in geometry.cells]
        self.ends = geometry.ends
        self.at = geometry.at
        self.crossing = geometry.crossing
        self.no_loops = puzzle.rules.no_loops
        self.domain = domain
        self.last: tuple[int, ...] | None = None  # the reason of the previous step
        self._cache: dict[tuple[tuple[int, ...], bool], tuple[tuple, dict[int, int] | None]] = {}
        self._touching: dict[tuple[int, ...], tuple[list[int], list[int], list[int]]] = {}
        self._groups: tuple[list[int], list[int], list[int]] | None = None

    # ------------------------------------------------------------------ state

    def present(self, p: int) -> bool:
        """Pair ``p`` certainly has a bridge."""
        return not self.domain[p] & 1

    def possible(self) -> dict[Pair, tuple[int, ...]]:
        return {self.geometry.pair(p): _values(mask) for p, mask in enumerate(self.domain)}

    def solved(self) -> bool:
        """Every pair decided and every island given its number (connectivity and loops are
        the levels of no island's concern: they have found nothing wrong when this is asked)."""
        return all(mask and _single(mask) for mask in self.domain) and not any(
            map(self.unsettled, range(len(self.cells)))
        )

    def unsettled(self, island: int) -> bool:
        """The island has an undecided pair, or its decided pairs miss its number."""
        masks = [self.domain[p] for p in self.at[island]]
        if any(not _single(mask) for mask in masks):
            return True
        total = sum(_low(mask) for mask in masks)
        number = self.number[island]
        return total == 0 if number is None else total != number

    def apply(self, found: _Found) -> None:
        if found.pair >= 0:
            self.domain[found.pair] = found.new
        self.last = found.reason
        self._groups = None

    def groups(self) -> tuple[list[int], list[int], list[int]]:
        """Islands joined by certain bridges: each island's group (named by its first island),
        each group's size, and the number of open pair ends at each group (pairs that may or may
        not get a bridge, counted once at each end)."""
        if self._groups is None:
            n = len(self.cells)
            joined: list[list[int]] = [[] for _ in range(n)]
            for p, (a, b) in enumerate(self.ends):
                if self.present(p):
                    joined[a].append(b)
                    joined[b].append(a)
            group = [0] * n
            for members in connected_groups(range(n), joined.__getitem__):
                for i in members:
                    group[i] = members[0]
            size, open_ends = [0] * n, [0] * n
            for i in range(n):
                size[group[i]] += 1
            for p, (a, b) in enumerate(self.ends):
                if self.domain[p] & 1 and self.domain[p] > 1:
                    open_ends[group[a]] += 1
                    open_ends[group[b]] += 1
            self._groups = (group, size, open_ends)
        return self._groups

    # ------------------------------------------------------------------ the next step

    def next_step(
        self, checker: _Checker | None, deadline: Deadline, levels: tuple = READING
    ) -> _Found | None:
        """The first step of the first level in ``levels`` that has one; when none has, one
        that clingo finds on the whole board (only with a ``checker``); None when no step
        follows (solved, or stuck)."""
        for size, connectivity, tier in levels:
            if deadline.expired():
                raise _OutOfTime
            found = self._level(size, connectivity, TIERS.get(tier))
            if found is not None:
                return self._shrink(found)
        if self.solved() or checker is None:
            return None
        return checker.deeper(self, deadline)

    def _level(self, size: int, connectivity: bool, only: set[str] | None) -> _Found | None:
        if size == 0:
            return self._cut() if connectivity else self._crossing_or_loop()
        order = self._candidates(size)
        if self.last is not None and len(self.last) == size and self.last in order:
            order.insert(0, self.last)
        for reason in order:
            forced = self.forced(reason, connectivity)
            if forced is None:
                return _Found(reason, connectivity, self.first_pair(reason), 0)
            for p in sorted(forced):
                found = _Found(reason, connectivity, p, forced[p])
                if only is None or self.technique(found) in only:
                    return found
        return None

    def _candidates(self, size: int) -> list[tuple[int, ...]]:
        """Sets of ``size`` islands near each other, each unsettled (:meth:`unsettled`)."""
        undecided = [not _single(mask) for mask in self.domain]
        active = [i for i in range(len(self.cells)) if self.unsettled(i)]
        if size == 1:
            return [(i,) for i in active]
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
        if connectivity or self.no_loops:
            group, size, open_ends = self.groups()
            key += tuple((group[i], size[group[i]], open_ends[group[i]]) for i in ends)
        cached = self._cache.get((reason, connectivity))
        if cached is not None and cached[0] == key:
            return cached[1]
        result = self._enumerate(reason, connectivity)
        self._cache[(reason, connectivity)] = (key, result)
        return result

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
        check_groups = connectivity or self.no_loops
        groups = self.groups() if check_groups else None
        found = False

        def fits() -> bool:
            """The assignment closes no loop (where forbidden) and no group off."""
            group, size, open_ends = groups  # type: ignore[misc]
            parent: dict[int, int] = {}

            def find(x: int) -> int:
                while parent.get(x, x) != x:
                    x = parent[x]
                return x

            for k, p in enumerate(pairs):
                if value[k] > 0 and domain[k] & 1:  # a new bridge: joins two groups
                    ra, rb = find(group[self.ends[p][0]]), find(group[self.ends[p][1]])
                    if ra == rb:
                        if self.no_loops:
                            return False
                        continue
                    parent[max(ra, rb)] = min(ra, rb)
            if not connectivity:
                return True
            open_left: dict[int, int] = {}
            members: dict[int, int] = {}
            for g in {group[i] for p in pairs for i in self.ends[p]}:
                root = find(g)
                open_left[root] = open_left.get(root, 0) + open_ends[g]
                members[root] = members.get(root, 0) + size[g]
            for k, p in enumerate(pairs):
                if domain[k] & 1 and domain[k] > 1:  # open before, assigned now
                    for i in self.ends[p]:
                        open_left[find(group[i])] -= 1
            n = len(self.cells)
            return all(left > 0 or members[root] == n for root, left in open_left.items())

        def assign(k: int) -> bool:
            """Assign slot k and those after it; True once nothing can be narrowed any more."""
            nonlocal found
            if k == len(pairs):
                if check_groups and not fits():
                    return False
                found = True
                done = True
                for j, v in enumerate(value):
                    seen[j] |= 1 << v
                    done = done and seen[j] == domain[j]
                for c, slots in enumerate(crossed_by):
                    free[c] = free[c] or all(value[j] <= 0 for j in slots)
                    done = done and free[c]
                return done
            mask = domain[k]
            for v in range(mask.bit_length()):
                if not mask >> v & 1:
                    continue
                if v and (blocked[k] or any(value[j] > 0 for j in crossing_slots[k])):
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
        assign(0)
        if not found:
            return None
        forced = {p: seen[k] for k, p in enumerate(pairs) if seen[k] != domain[k]}
        forced.update((q, 1) for q, is_free in zip(open_crossers, free) if not is_free)
        return forced

    # ------------------------------------------------------------------ steps of no island

    def _crossing_or_loop(self) -> _Found | None:
        """A bridge that would cross a certain bridge, or (no loops) join two islands already
        joined; two certain bridges that cross, or certain bridges round a loop, are a
        contradiction."""
        for p, mask in enumerate(self.domain):
            if mask > 1 and any(self.present(q) for q in self.crossing[p]):
                return _Found((), False, p, 0 if self.present(p) else 1, "crossing")
        if self.no_loops:
            group, _, _ = self.groups()
            certain = sum(self.present(p) for p in range(len(self.ends)))
            if certain > len(self.cells) - len(set(group)):  # more bridges than a forest has
                p = next(p for p in range(len(self.ends)) if self.present(p))
                return _Found((), False, p, 0, "loop")
            for p, (a, b) in enumerate(self.ends):
                if self.domain[p] > 1 and not self.present(p) and group[a] == group[b]:
                    return _Found((), False, p, 1, "loop")
        return None

    def first_pair(self, reason: tuple[int, ...]) -> int:
        """The first pair at the islands of ``reason`` (-1 if they have none): where a
        contradiction among them is shown."""
        pairs = self._touching_pairs(reason)[0] if reason else range(len(self.ends))
        return min(pairs, default=-1)

    def _cut(self) -> _Found | None:
        """With connectivity: a group of islands with no way out (a contradiction), or a pair
        that is the only link left between two parts of the board (at least one bridge)."""
        group, size, open_ends = self.groups()
        n = len(self.cells)
        for g in sorted(set(group)):
            if open_ends[g] == 0 and size[g] < n:
                members = tuple(i for i in range(n) if group[i] == g)
                return _Found((), True, self.first_pair(members), 0, "closed")
        # Bridges (in the graph sense) of the groups joined by open pairs.
        edges: dict[int, list[tuple[int, int]]] = {}
        for p, (a, b) in enumerate(self.ends):
            if self.domain[p] & 1 and self.domain[p] > 1 and group[a] != group[b]:
                edges.setdefault(group[a], []).append((group[b], p))
                edges.setdefault(group[b], []).append((group[a], p))
        nodes = sorted(set(group))
        order: dict[int, int] = {}
        low: dict[int, int] = {}
        cuts: list[int] = []
        for start in nodes:
            if start in order:
                continue
            if order:  # a second part with nothing to join it: a contradiction
                return _Found((), True, self.first_pair((start,)), 0, "closed")
            order[start] = low[start] = 0
            stack = [(start, -1, iter(edges.get(start, ())))]
            while stack:
                node, via, neighbours = stack[-1]
                advanced = False
                for other, p in neighbours:
                    if p == via:
                        continue
                    if other in order:
                        low[node] = min(low[node], order[other])
                    else:
                        order[other] = low[other] = len(order)
                        stack.append((other, p, iter(edges.get(other, ()))))
                        advanced = True
                        break
                if not advanced:
                    stack.pop()
                    if stack:
                        parent = stack[-1][0]
                        low[parent] = min(low[parent], low[node])
                        if low[node] > order[parent]:
                            cuts.append(via)
        if cuts:
            p = min(cuts)
            return _Found((), True, p, self.domain[p] & ~1, "only-link")
        return None

    # ------------------------------------------------------------------ minimal reasons

    def _shrink(self, found: _Found) -> _Found:
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
                    contradiction = _Found(smaller, found.connectivity, self.first_pair(smaller), 0)
                    return self._shrink(contradiction)
                if found.new and found.pair in forced and not forced[found.pair] & ~found.new:
                    reason, shrinking = smaller, True
                    break
        return _Found(reason, found.connectivity, found.pair, found.new, found.kind)

    # ------------------------------------------------------------------ saying it

    def tier(self, found: _Found) -> int:
        """How hard a step is: 0 easy, 1 medium, 2 hard, 3 expert (:mod:`.difficulty`)."""
        technique = self.technique(found)
        if technique in EASY:
            return 0
        if technique in MEDIUM:
            return 1
        return 2 if len(found.reason) <= 2 else 3

    def technique(self, found: _Found) -> str:
        """The name of the kind of step (see :func:`_explain` for what each says)."""
        if not found.new:
            return "contradiction"
        if found.kind:
            return found.kind
        if len(found.reason) != 1:
            return "isolation" if found.connectivity else "combined"
        if found.connectivity:
            return "isolation"
        (island,) = found.reason
        if found.pair not in self.at[island]:
            return "crossed"  # a pair the island's bridges cross, whichever they are
        number, pairs = self.number[island], self.at[island]
        before = self.domain[found.pair]
        low, high = _low(before), before.bit_length() - 1
        new_low, new_high = _low(found.new), found.new.bit_length() - 1
        if number is None:
            return "at-least"
        # As Simon Tatham's solver counts: the bridges the island is still missing beyond the
        # certain ones, and the room each pair has for them.
        missing = number - sum(_low(self.domain[q]) for q in pairs)
        room = {
            q: min(self.domain[q].bit_length() - 1 - _low(self.domain[q]), missing) for q in pairs
        }
        if found.new == 1 << low and missing == 0:
            return "complete"
        if found.new == 1 << (low + room[found.pair]) and missing == sum(room.values()):
            return "all-bridges"
        contiguous = found.new == ((1 << (new_high + 1)) - 1) & ~((1 << new_low) - 1) & before
        if contiguous and new_low == low:  # a cap: by the number itself, or by what is missing
            return "low-number" if new_high == number else "at-most"
        joinable = sum(1 for q in pairs if self.domain[q] > 1)
        top = self.puzzle.rules.max_bridges
        if contiguous and new_high == high and low == 0 and new_low == 1:
            return "one-each-way" if number > (joinable - 1) * top else "at-least"
        return "at-least" if contiguous and new_high == high else "count"

    def describe(self, found: _Found) -> Step:
        technique, text = _explain(self, found)
        return Step(
            pair=self.geometry.pair(found.pair) if found.pair >= 0 else None,
            before=_values(self.domain[found.pair]) if found.pair >= 0 else (),
            bridges=_values(found.new),
            reason=tuple(self.cells[i] for i in found.reason),
            connectivity=found.connectivity,
            technique=technique,
            text=text,
        )


# ---------------------------------------------------------------------------- checking steps


class _Checker:
    """``step.lp`` grounded once for the puzzle; each question switches the reason's numbers and
    connectivity on and assumes away the counts ruled out so far."""

    def __init__(self, puzzle: Puzzle, deadline: Deadline):
        program = Program(encoding=interface.encoding_path(interface.STEP))
        # No failed-literal round before each search: it pays on a whole puzzle, not on the
        # thousands of small questions a walkthrough asks (it doubled their time).
        options = ["--lookahead=no"]
        self.grounded: Grounded = ground(puzzle, program, options=options, deadline=deadline)
        self.puzzle = puzzle
        geometry = puzzle.geometry
        self.count = [
            [
                self.grounded.literal(interface.count(geometry.pair(p), k))
                for k in range(puzzle.rules.max_bridges + 1)
            ]
            for p in range(len(geometry.ends))
        ]
        self.clue = [self.grounded.literal(interface.clue(cell)) for cell in geometry.cells]
        self.connected = self.grounded.literal(interface.CONNECTED)
        # Switches left free, not false: a question assumes the ones it needs on, and a switch
        # left free only lets clingo add a rule, which never makes a question's answer appear.
        for switch in [*map(interface.clue, geometry.cells), interface.CONNECTED]:
            self.grounded.switch(switch, None)

    def _assumptions(
        self, domain: list[int], reason: Iterable[int], connectivity: bool, pair: int, keep: int
    ) -> list[int]:
        """Counts outside ``domain`` away, and for ``pair`` the counts of ``keep`` too (asking
        for one it rules out; ``pair`` -1 asks nothing of any pair); the numbers of ``reason``
        on, connectivity on if asked."""
        assumed = [
            -literal
            for p, mask in enumerate(domain)
            for k, literal in enumerate(self.count[p])
            if literal is not None and not (mask >> k & 1 and not (p == pair and keep >> k & 1))
        ]
        assumed += [literal for i in reason if (literal := self.clue[i]) is not None]
        if connectivity and self.connected is not None:
            assumed.append(self.connected)
        return assumed

    def _search(self, assumed: list[int], deadline: Deadline, seen: list[int]) -> bool:
        """Whether there is an assignment under ``assumed`` (a search over the whole board, in
        clingo's thread, watched for the deadline); its counts are added to ``seen``."""

        def record(model: clingo.Model) -> bool:
            for p, literals in enumerate(self.count):
                for k, literal in enumerate(literals):
                    if literal is not None and model.is_true(literal):
                        seen[p] |= 1 << k
            return False

        outcome = self.grounded.search(record, assumptions=assumed, deadline=deadline)
        if outcome.interrupted:
            raise KeyboardInterrupt
        if outcome.timed_out:
            raise _OutOfTime
        return not outcome.exhausted

    def blamed(
        self,
        domain: list[int],
        reason: Iterable[int],
        connectivity: bool,
        pair: int,
        keep: int,
        deadline: Deadline,
    ) -> list[int] | None:
        """When every assignment within ``domain`` that meets the numbers of ``reason`` (and
        connectivity) gives ``pair`` a count in ``keep``: the islands of ``reason`` whose
        numbers clingo needed for that (its unsatisfiable core); None when some assignment does
        not.  A question about a step, which propagation mostly settles: asked in this thread."""
        reason = list(reason)
        assumed = self._assumptions(domain, reason, connectivity, pair, keep)
        if deadline.expired():
            raise _OutOfTime
        core = self.grounded.settle(assumed)
        if core is None:
            return None
        needed = set(core)
        return [i for i in reason if self.clue[i] in needed]

    def follows(self, domain: list[int], reason: Iterable[int], *question) -> bool:
        """Whether every assignment within ``domain`` meeting the numbers of ``reason`` (and
        connectivity) gives ``pair`` a count in ``keep`` (``question``: connectivity, pair,
        keep, deadline, as for :meth:`blamed`)."""
        return self.blamed(domain, reason, *question) is not None

    def confirm(self, found: _Found, domain: list[int], deadline: Deadline) -> _Found:
        """The step, once clingo confirms that it follows from its reason (else a fault: it
        raises), with the islands clingo finds unneeded dropped (:meth:`_needed`), so that the
        reason shown is minimal by clingo's account.  (The finder reads connectivity only near
        the reason, and a loop or crossing that a smaller set forces on a pair away from its
        own islands it does not see; such an island is dropped here.)"""
        question = (found.connectivity, found.pair, found.new)
        if not self.follows(domain, found.reason, *question, deadline):
            raise InvalidStep(self._fault(found, "does not follow from its reason"))
        reason = self._needed(domain, found.reason, *question, deadline)
        return _Found(reason, found.connectivity, found.pair, found.new, found.kind)

    def _needed(
        self,
        domain: list[int],
        reason: Iterable[int],
        connectivity: bool,
        pair: int,
        keep: int,
        deadline: Deadline,
    ) -> tuple[int, ...]:
        """The islands of ``reason`` the step needs, which it follows from: each dropped in
        turn while the rest still forces it (clingo's :meth:`~Grounded.minimal_core`, with the
        counts and the question held fixed)."""
        base = self._assumptions(domain, (), connectivity, pair, keep)
        island = {literal: i for i in reason if (literal := self.clue[i]) is not None}
        core = self.grounded.minimal_core(list(island), deadline, fixed=base, quick=True)
        if not core.minimal:
            raise _OutOfTime
        return tuple(sorted(island[literal] for literal in core.literals))

    def _fault(self, found: _Found, what: str) -> str:
        geometry = self.puzzle.geometry
        cells = ", ".join(cell_name(geometry.cells[i]) for i in found.reason) or "none"
        where = (
            "" if found.pair < 0 else " on " + "-".join(map(cell_name, geometry.pair(found.pair)))
        )
        return f"internal error: the step{where} (reason: {cells}) {what}"

    def deeper(self, board: _Board, deadline: Deadline) -> _Found | None:
        """A step no small reason shows: a count of some pair that no solution (within the
        counts left) has, with a minimal set of numbers ruling it out; None when every count
        left is in some solution (the puzzle is not unique from here)."""
        everyone = list(range(len(board.cells)))
        domain = board.domain
        seen = [0] * len(domain)
        if not self._search(self._assumptions(domain, everyone, True, -1, 0), deadline, seen):
            connectivity, reason = self._minimal(domain, everyone, -1, 0, deadline)
            return _Found(reason, connectivity, board.first_pair(reason), 0)
        for p, mask in enumerate(domain):
            for k in _values(mask):
                if seen[p] >> k & 1:
                    continue
                keep = mask & ~(1 << k)
                if not self._search(
                    self._assumptions(domain, everyone, True, p, keep), deadline, seen
                ):
                    connectivity, reason = self._minimal(domain, everyone, p, keep, deadline)
                    return _Found(reason, connectivity, p, keep)
        return None

    def _minimal(
        self, domain: list[int], everyone: list[int], pair: int, keep: int, deadline: Deadline
    ) -> tuple[bool, tuple[int, ...]]:
        """Connectivity only if needed, and the islands needed (:meth:`_needed`), starting from
        clingo's core."""
        without = self.blamed(domain, everyone, False, pair, keep, deadline)
        connectivity = without is None
        reason = without or self.blamed(domain, everyone, True, pair, keep, deadline) or everyone
        return connectivity, self._needed(domain, reason, connectivity, pair, keep, deadline)


# ---------------------------------------------------------------------------- sentences


def _explain(board: _Board, found: _Found) -> tuple[str, str]:
    """The technique of a step and a sentence a player understands."""
    technique = board.technique(found)
    cells, numbers = board.cells, board.number

    def island(i: int) -> str:
        n = numbers[i]
        return (
            f"the {n} at {cell_name(cells[i])}"
            if n is not None
            else f"the island at {cell_name(cells[i])}"
        )

    def between(p: int) -> str:
        a, z = board.ends[p]
        return f"between {cell_name(cells[a])} and {cell_name(cells[z])}"

    reason = _listing([island(i) for i in found.reason])
    p = found.pair
    if technique == "contradiction":
        if found.kind == "crossing":
            certain = next(q for q in board.crossing[p] if board.present(q))
            return (
                technique,
                f"the bridges {between(p)} and {between(certain)} would cross: "
                "no solution from here",
            )
        if found.kind == "loop":
            return (
                technique,
                "the certain bridges close a loop, and loops are not allowed: "
                "no solution from here",
            )
        if found.kind == "closed":
            return technique, (
                "some islands form a group with no way left to the others, and all "
                "islands must be connected: no solution from here"
            )
        connected = ", with all islands connected," if found.connectivity else ""
        cannot = (
            "cannot get its number" if len(found.reason) == 1 else "cannot all get their numbers"
        )
        return technique, f"{reason} {cannot}{connected}: no solution from here"
    a, z = board.ends[p]
    what = _say(found.new, board.puzzle.rules.max_bridges)
    if technique == "crossed":
        (only,) = found.reason
        return technique, (
            f"whichever way {island(only)} gets its number, one of its bridges crosses the pair "
            f"{between(p)}: {what} there"
        )
    if len(found.reason) == 1:
        (only,) = found.reason
        other = cell_name(cells[z if a == only else a])
        missing = (numbers[only] or 0) - sum(_low(board.domain[q]) for q in board.at[only])
        sentences = {
            "complete": f"{island(only)} already has all its bridges: {what} to {other}",
            "all-bridges": f"{island(only)} needs every bridge it can still get: {what} to {other}",
            "low-number": f"{island(only)} has room for {what} to {other}",
            "at-most": f"{island(only)} needs only {plural(missing, 'more bridge')}: "
            f"{what} to {other}",
            "one-each-way": f"{island(only)} needs more than its other neighbours can give: "
            f"{what} to {other}",
            "at-least": f"even with every other bridge it can get, {island(only)} needs {what} "
            f"to {other}",
            "count": f"{island(only)} forces {what} to {other}",
            "isolation": f"{what} to {other}, or {island(only)} ends up in a group cut off "
            "from the other islands (all islands must be connected)",
        }
        return technique, sentences[technique]
    sentences = {
        "crossing": f"a bridge {between(p)} would cross a certain bridge: {what} there",
        "loop": f"{cell_name(cells[a])} and {cell_name(cells[z])} are already joined, and "
        f"loops are not allowed: {what} between them",
        "only-link": f"{cell_name(cells[a])} and {cell_name(cells[z])} are the only link left "
        f"between two parts of the puzzle, and all islands must be connected: {what} between "
        "them",
        "combined": f"together, {reason} force {what} {between(p)}",
        "isolation": f"together, {reason} force {what} {between(p)}: anything else cuts a "
        "group off from the other islands (all islands must be connected)",
    }
    return technique, sentences[technique]


def _say(mask: int, top: int) -> str:
    """Bridge counts in words: "no bridge", "a double bridge", "at least one bridge"..."""
    values = _values(mask)
    words = {0: "no bridge", 1: "a single bridge", 2: "a double bridge"}
    if len(values) == 1:
        return words.get(values[0], f"{values[0]} bridges")
    low, high = values[0], values[-1]
    if values == tuple(range(low, high + 1)):
        if low == 0:
            return "at most one bridge" if high == 1 else f"at most {high} bridges"
        if high == top:
            return "at least one bridge" if low == 1 else f"at least {low} bridges"
        return f"{low} to {high} bridges"
    if values == (0, 2):
        return "no bridge or a double one"
    *most, last = values
    return ", ".join(map(str, most)) + f" or {last} bridges"


def _listing(items: list[str]) -> str:
    if not items:
        return "the rules alone"
    *most, last = items
    return f"{', '.join(most)} and {last}" if most else last
