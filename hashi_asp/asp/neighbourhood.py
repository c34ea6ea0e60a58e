"""A neighbourhood search for a first solution (``--connectivity lns``): for the giants, where
connectivity makes the complete search too slow.

It searches a candidate of numbers and crossings only, then mends its connectivity part by part
(but where it sweeps, below):

1. the first round grounds ``bridges.lp`` (with ``neighbourhood.lp``, which then adds nothing
   but heuristics and a rule against closed groups of three) on the whole puzzle: a candidate
   whose bridges meet every number and never cross, but may fall apart into parts.  It tries
   single bridges first, then decides lines band of rows by band from the top, each height of
   :data:`BANDS` in turn, each within a budget of conflicts that doubles with each turn;
2. each further round takes the smallest part (of those given up least often) and frees the
   pairs near it (both islands within a few pairs of it; for a large part, near a few of its
   islands that border another part), keeps every other bridge, and grounds a small program of
   its own: ``bridges.lp`` and ``neighbourhood.lp`` on the round's islands and the frame around
   them, with what the kept bridges imply as facts (:meth:`Neighbourhoods.round_program`): the
   frame's bridges, the islands left out next to them, the groups the kept bridges join, one
   anchor in every other part.  Its answer joins the part to another and splits none, so every
   round that finds one leaves a part fewer;
3. a round that finds none within its budget of conflicts frees a wider neighbourhood, up to
   :data:`WIDEST`, then gives the part up for now; one that proves its neighbourhood holds no
   answer widens on, past :data:`WIDEST` (such proofs take clasp a few conflicts).

On a giant where some numbers force double bridges on a crowded board (:func:`~.sweep.swept`,
or wherever neighbourhood.lp's ``sweep_first`` is ``yes``), the first candidate is swept
instead, window by window from the top (or the left), and is connected by construction
(:mod:`.sweep`, on this search's candidate and programs), so that no round follows.

Each round is a fresh grounding of a few hundred atoms, milliseconds where solving the whole
puzzle again under assumptions took a tenth of a second or more a call (docs/benchmarks.md,
"The giants").  The search never proves anything: it ends with a solution (checked by the
independent checker, as every answer), at its deadline, or when a round that frees the whole
puzzle finds nothing; then it says it found none, never that there is none.  Races run it
beside the complete search, which gives the proofs, counts and uniqueness.
"""

from __future__ import annotations

import random
import time
from collections import deque
from collections.abc import Callable, Iterable
from itertools import chain, count

from ..graphs import groups_of
from ..puzzle import Puzzle, Solution, bridge
from ..status import Stop
from ..stopping import Deadline, Stopped
from . import interface
from .control import Enumeration, Grounded, SearchEnd, ground
from .interface import EncodingError, InvalidAnswer, Program
from .predicates import (
    ANCHOR,
    BAND,
    BAND_ROWS,
    FRAME,
    GROUP,
    HIDDEN,
    KEPT,
    LOOSE,
    SINGLES_FIRST,
    SWEEP,
)
from .sweep import FORCE, FORCES, SIDE, SIDES, Sweep, sweeps, swept, transposed

NARROWEST = 2
"""Pairs from the part (or from a border island) a round frees first."""

WIDEST = 7
"""The widest neighbourhood searched within a budget before its part is given up for now (one
proven to hold no answer widens on)."""

SMALL_PART = 40
"""A part of at most this many islands is freed whole; a larger one near :data:`BORDERS` of
its islands that border another part (freeing around all of a large part stalls: the program
grows with it and its answer need not move the part's border)."""

BORDERS = 3

CONFLICTS = 3_200
"""A round's budget of conflicts, per pair of its width.  Rounds that search longer give up
and widen less: the rounds after the same first candidates of six puzzles of 10 000 islands
with a quarter double took 418 s in all at 400 (one not solved in 120 s), 308 s at 800, 230 s
at 1 600, 229 s at 3 200, 209 s at 6 400 (docs/benchmarks.md, "The giants")."""

BANDS = (16, 8, 32, 12, 24)
"""The heights of bands (rows) the first round tries in turn (neighbourhood.lp's ``band/1``),
each within a budget of conflicts, :data:`FIRST` on the first turn and twice the last on each
further turn."""

SINGLES = 16_000
"""The first round's budget of conflicts for single bridges first, before the bands: puzzles
without doubles take a few hundred (10 000 islands: 589 and 643).  With a quarter of the
bridges double it finds none, but what clasp learns on the way helps the bands: ten generated
puzzles of 10 000 islands, 8 with a candidate within 40 s after 16 000 conflicts here, 5 after
2 000."""

FIRST = 15_000
"""The first round's budget of conflicts for each height of :data:`BANDS`: a generated puzzle
of 10 000 islands took 1 400 to 13 000 conflicts with a height that suited it, and 150 000 to
300 000 without bands (docs/benchmarks.md, "The giants")."""

ROUND_OPTIONS = ("--lookahead=no", "--heuristic=Domain")
"""clingo's options for a round besides hashi-asp's own: no lookahead (its cost is per atom,
and a round's answer usually comes within a few hundred conflicts)."""


def first_solution(
    puzzle: Puzzle,
    program: Program,
    deadline: Deadline,
    *,
    on_solution: Callable[[Solution], None] | None = None,
    seed: int = 1,
) -> Enumeration:
    """Search ``puzzle`` round by round for one solution, as an
    :class:`~.control.Enumeration` of it or of none (never exhausted: finding none proves
    nothing)."""
    if puzzle.rules.no_loops:
        raise EncodingError(
            "--connectivity lns does not take puzzles without loops: its rounds cannot count "
            "the islands a loop needs; use reach, tree, flow or lazy"
        )
    search = Neighbourhoods(puzzle, program, deadline, random.Random(seed))
    try:
        found = search.run()
    except Stopped as stop:
        found, search.stopped = None, stop.why
    stats = search.statistics()
    if found is None:
        return Enumeration(0, [], SearchEnd(False, search.stopped, stats["solve_seconds"]), stats)
    if on_solution is not None:
        on_solution(found)
    return Enumeration(1, [found], SearchEnd(False, None, stats["solve_seconds"]), stats)


class Neighbourhoods:
    """The candidate (a count of bridges for every pair of the puzzle's geometry) and the rounds
    that mend it."""

    def __init__(self, puzzle: Puzzle, program: Program, deadline: Deadline, chance: random.Random):
        self.puzzle, self.program, self.deadline, self.chance = puzzle, program, deadline, chance
        self.side = str(program.constants.get(SIDE, SIDES[0]))  # (neighbourhood.lp's sweep_from)
        if self.side not in SIDES:
            raise EncodingError(f"-c {SIDE} must be {' or '.join(SIDES)}, got {self.side[:40]!r}")
        self.force = str(program.constants.get(FORCE, FORCES[0]))  # (neighbourhood.lp's)
        if self.force not in FORCES:
            raise EncodingError(f"-c {FORCE} must be {', '.join(FORCES)}, got {self.force[:40]!r}")
        geometry = puzzle.geometry
        self.geometry = geometry
        self.cells = geometry.cells
        self.ends = geometry.ends
        self.pair_of = {ends: p for p, ends in enumerate(geometry.ends)}
        # The islands each one sees, with the pair between them.
        self.seen: list[list[tuple[int, int]]] = [
            [(b if a == i else a, p) for p in geometry.at[i] for a, b in (geometry.ends[p],)]
            for i in range(len(geometry.cells))
        ]
        self.counts = [0] * len(geometry.ends)
        self.stopped: Stop | None = None
        self.rounds = self.joined = 0
        self.ground_seconds = self.solve_seconds = 0.0
        self.choices = self.conflicts = 0
        self.impossible = False  # the last round's neighbourhood proven to hold no answer
        self.parts: dict[int, list[int]] = {}  # the candidate's parts, by number
        self.part_of: list[int] = []  # each island's part
        self.next_part = 0
        self.free_pairs: list[int] = []
        self.core: list[int] = []  # the assumptions clingo blamed in the last search
        self.windows = 0  # the sweep's (:mod:`.sweep`)
        self.started = time.perf_counter()

    # ------------------------------------------------------------------ the search

    def run(self) -> Solution | None:
        """The rounds, until the candidate is one part (its solution), or none (a round that
        freed the whole puzzle found nothing)."""
        if not self.first():
            return None
        width, border, target = NARROWEST, None, -1
        tried: dict[int, int] = {}  # a part (by its first island): the times it was given up
        self.parts, self.part_of = {0: list(range(len(self.cells)))}, [0] * len(self.cells)
        self.regroup([0], list(range(len(self.cells))))
        while len(self.parts) > 1:
            # The smallest part, unless one given up fewer times is there: a part that no
            # neighbourhood joins within its budget waits while the others join around it.
            smallest = min(self.parts.values(), key=lambda part: (tried.get(part[0], 0), len(part)))
            if smallest[0] != target:
                target, width, border = smallest[0], NARROWEST, None
            if len(smallest) <= SMALL_PART:
                centres: list[int] = smallest
            else:
                if border is None or width == NARROWEST:
                    border = self.border(smallest)
                centres = border
            freed = self.ball(centres, width)
            whole = len(freed) == len(self.cells)
            budget = CONFLICTS * width * (1 + tried.get(target, 0))
            found = self.mend(self.part_of[target], freed, budget, whole=whole)
            if found is None:
                return None  # the whole puzzle freed, and no answer: none found
            if found:
                width = NARROWEST
                self.joined += 1
            elif width < WIDEST or self.impossible:
                # (a neighbourhood proven to hold no answer is cheap to widen: clasp proves it
                # in a few conflicts, where a long chain of changes leads further out)
                width += 1
            else:
                tried[target] = tried.get(target, 0) + 1
                width = NARROWEST
        return self.solution()

    def first(self) -> bool:
        """The first candidate: swept window by window where :func:`~.sweep.swept` says so (then
        in one part, and no round follows), else (or when the sweep gives up) the first round: a
        candidate of the whole puzzle, numbers and crossings only, single bridges first, then
        its lines decided band by band, each height of :data:`BANDS` in turn with a budget of
        conflicts, turn after turn (the learned clauses kept all along).  False when there is
        none at all."""
        if self.sweeps() and self.sweep():
            return True
        self.deadline.check("searching a first candidate")
        self.rounds += 1
        text = BAND_ROWS.facts((height,) for height in BANDS)
        grounded = ground(
            self.puzzle,
            self.program,
            text=text,
            options=("--heuristic=Domain",),
            deadline=self.deadline,
        )
        self.ground_seconds += grounded.ground_seconds
        # Single bridges first, then each height of band in turn, the budget doubled after
        # each turn: no unbounded search, as one can wander for minutes where another height
        # finds a candidate at once (a search that proves there is none ends it).
        attempts = chain(
            [(None, SINGLES)],
            ((height, FIRST << turn) for turn in count() for height in BANDS),
        )
        for chosen, budget in attempts:
            for height in BANDS:
                grounded.switch(BAND.symbol(height), height == chosen)
            grounded.switch(SINGLES_FIRST.symbol(), chosen is None)
            grounded.limit(budget)
            answer, exhausted = self.solve(grounded)
            if answer is not None:
                self.take(answer, first=True)
                return True
            if exhausted:
                return False
        raise AssertionError("unreachable: the attempts never end")

    def sweeps(self) -> bool:
        """Whether the first candidate is swept: as :func:`~.sweep.swept` says (``sweep_first``
        auto), or forced (yes: where the puzzle is more than a window long from the side it is
        swept from; no: never)."""
        if self.force == FORCES[0]:
            return swept(self.puzzle)
        across = self.puzzle if self.side == SIDES[0] else transposed(self.puzzle)
        return sweeps(across, self.force)

    def sweep(self) -> bool:
        """The first candidate swept window by window (:mod:`.sweep`) from the side
        neighbourhood.lp's ``sweep_from`` names: from the top, or from the left (the puzzle
        with rows and columns exchanged swept from the top, its candidate read back); False
        when the sweep gave up."""
        if self.side == SIDES[0]:
            return Sweep(self).run()
        across = Neighbourhoods(transposed(self.puzzle), self.program, self.deadline, self.chance)
        drawn = Sweep(across).run()
        self.rounds, self.windows, self.choices, self.conflicts = (
            across.rounds,
            across.windows,
            across.choices,
            across.conflicts,
        )
        self.ground_seconds = across.ground_seconds
        if drawn:  # (read back row for column: a pair's ends keep their reading order)
            index, cells = self.geometry.index, across.cells
            self.counts = [0] * len(self.ends)
            for (a, b), bridges in zip(across.ends, across.counts):
                if bridges:
                    (r1, c1), (r2, c2) = cells[a], cells[b]
                    self.counts[self.pair_of[(index[(c1, r1)], index[(c2, r2)])]] = bridges
        return drawn

    # ---------------------------------------------- rounds and windows: facts, grounding, search

    def stated(
        self,
        free_pairs: list[int],
        searched: set[int],
        frame: set[int],
        groups: dict[int, int],
        anchors: set[int],
        *,
        loose: set[int] | None = None,
    ) -> tuple[Puzzle, str]:
        """The program of a round, or of a window of the sweep (with its ``loose`` islands): the
        ``searched`` islands, the ``frame`` around them (and the ends of any kept bridge across
        a free pair), the islands left out next to those, the kept bridges, and each island of
        ``groups`` in its group, as a puzzle and the facts of neighbourhood.lp."""
        counts, ends, seen, crossing = self.counts, self.ends, self.seen, self.geometry.crossing
        below = loose or set()
        searched_or_loose = searched | below
        for p in free_pairs:  # a kept bridge across a free pair is stated with its islands
            for q in crossing[p]:
                if counts[q]:
                    frame.update(end for end in ends[q] if end not in searched_or_loose)
        islands = searched_or_loose | frame
        hidden = {j for i in frame | below for j, _ in seen[i] if j not in islands}
        kept = {p for i in frame for j, p in seen[i] if j in islands and counts[p]}
        self.free_pairs = free_pairs
        cells, numbers = self.cells, self.puzzle.islands
        puzzle = Puzzle(
            self.puzzle.rows,
            self.puzzle.cols,
            # A frame island's number is not read; one without (any) is given one, as the
            # rule "an island without a number needs a bridge" does not look at relax.
            {cells[i]: numbers[cells[i]] or (1 if i in frame else None) for i in islands},
            rules=self.puzzle.rules,
        )
        text = "".join(
            [
                SWEEP.fact() if loose is not None else "",
                FRAME.facts(cells[i] for i in frame),
                HIDDEN.facts(cells[i] for i in hidden),
                KEPT.facts((*cells[ends[p][0]], *cells[ends[p][1]], counts[p]) for p in kept),
                LOOSE.facts(cells[i] for i in below),
                GROUP.facts((*cells[i], group) for i, group in groups.items()),
                ANCHOR.facts((group,) for group in anchors),
            ]
        )
        return puzzle, text

    def mend(
        self, joining: int, freed: list[int], budget: int, *, whole: bool = False
    ) -> bool | None:
        """One round: the pairs between ``freed`` islands searched again, every other bridge
        kept, and part ``joining`` made to join another.  True with an answer (the candidate
        and its parts take it), False without one within ``budget`` conflicts, None when there
        is none at all and ``whole`` (which has no budget)."""
        self.deadline.check("searching a neighbourhood")
        self.rounds += 1
        puzzle, text = self.round_program(set(freed), joining)
        answer, exhausted = self.solve(self.grounded(puzzle, text, None if whole else budget))
        self.impossible = answer is None and exhausted
        if answer is None:
            return None if whole and exhausted else False
        kept, before = list(self.counts), len(self.parts)
        self.take(answer)
        made = self.regroup({self.part_of[i] for i in freed}, freed)
        if len(self.parts) < before:  # (neighbourhood.lp's anchors see to it)
            return True
        self.counts = kept
        self.regroup(made, freed)
        return False

    def grounded(self, puzzle: Puzzle, text: str, budget: int | None) -> Grounded:
        """A round's (or a window's) program grounded: ``puzzle`` as facts with ``text``, the
        program's files, :data:`ROUND_OPTIONS`, at most ``budget`` conflicts a search."""
        limit = () if budget is None else (f"--solve-limit={budget}",)
        options = (*ROUND_OPTIONS, *limit)
        grounded = ground(puzzle, self.program, text=text, options=options, deadline=self.deadline)
        self.ground_seconds += grounded.ground_seconds
        return grounded

    def solve(
        self, grounded: Grounded, assumptions: list[int] | None = None
    ) -> tuple[Solution | None, bool]:
        """A search of a round's grounding: its answer (or None), and whether the search space
        was exhausted (under the ``assumptions``: then :attr:`core` holds the ones clingo
        blamed)."""
        answer: list = []

        def take(model) -> bool:
            answer.extend(grounded.shown(model))
            return False

        search = grounded.search(take, assumptions=assumptions or (), deadline=self.deadline)
        self.core = search.core or []
        self.solve_seconds += search.seconds
        if search.stopped is not None:
            self.stopped = search.stopped
            raise Stopped("the neighbourhood search was stopped", search.stopped)
        figures = grounded.statistics(search)
        self.choices += figures.get("choices", 0)
        self.conflicts += figures.get("conflicts", 0)
        found = interface.solution(answer) if answer else None
        return found, search.exhausted

    def take(self, found: Solution, *, first: bool = False) -> None:
        """The candidate with the round's answer on the pairs it freed (all of them: the
        ``first``)."""
        if first:
            self.counts = [0] * len(self.ends)
        else:
            for p in self.free_pairs:
                self.counts[p] = 0
        index = self.geometry.index
        for each in found.bridges:
            a, b = index[(each.r1, each.c1)], index[(each.r2, each.c2)]
            self.counts[self.pair_of[(a, b)]] = each.count

    # ------------------------------------------------------------------ a round of mending

    def round_program(self, freed: set[int], joining: int) -> tuple[Puzzle, str]:
        """The round's islands (``freed`` and the frame around them) as a puzzle, and the facts
        of neighbourhood.lp: part ``joining`` to join another."""
        ends, seen = self.ends, self.seen
        free_pairs = [p for i in freed for j, p in seen[i] if j in freed and ends[p][0] == i]
        frame: set[int] = {j for i in freed for j, _ in seen[i] if j not in freed}
        # The groups the kept bridges join (only the freed islands' are needed).
        starts = sorted(freed)
        group_of, _ = groups_of(starts, self.joins(set(free_pairs)))
        groups = dict(zip(starts, group_of))
        # One anchor for every other part: each of its other groups must reach an anchor too,
        # so no part falls apart, and the round leaves a part fewer.
        anchored: dict[int, int] = {}
        for i in starts:
            if self.part_of[i] != joining:
                anchored.setdefault(self.part_of[i], groups[i])
        in_order = {i: groups[i] for i in freed}  # (the facts in the order they always were)
        return self.stated(free_pairs, freed, frame, in_order, set(anchored.values()))

    # ------------------------------------------------------------------ parts and places

    def joins(self, skipped: set[int] | frozenset[int] = frozenset()) -> Callable[[int], list[int]]:
        """The islands each island's bridges join it to, but for the ``skipped`` pairs (a
        round's free pairs: what the bridges it keeps join)."""
        counts, seen = self.counts, self.seen
        return lambda i: [j for j, p in seen[i] if counts[p] and p not in skipped]

    def regroup(self, changed: Iterable[int], starts: list[int]) -> list[int]:
        """The ``changed`` parts found again as the candidate's bridges join their islands now,
        where bridges changed only between islands of ``starts`` (each part holds one of them);
        the new parts' numbers."""
        members = [i for part in changed for i in self.parts.pop(part)]
        _, found = groups_of(starts, self.joins())
        groups = [sorted(group) for group in found.values()]
        if sum(map(len, groups)) < len(members):  # the one group left open: the rest
            placed = {i for group in groups for i in group}
            groups.append([i for i in sorted(members) if i not in placed])
        made = []
        for group in groups:
            self.next_part += 1
            made.append(self.next_part)
            self.parts[self.next_part] = group
            for i in group:
                self.part_of[i] = self.next_part
        return made

    def border(self, part: list[int]) -> list[int]:
        """A few islands of ``part`` that see an island of another part, picked at random."""
        part_of = self.part_of
        mine = part_of[part[0]]
        bordering = [i for i in part if any(part_of[j] != mine for j, _ in self.seen[i])]
        return self.chance.sample(bordering, min(BORDERS, len(bordering))) or part[:1]

    def ball(self, centres: list[int], width: int) -> list[int]:
        """The islands within ``width`` pairs of the centres (pairs drawn or not)."""
        distance = dict.fromkeys(centres, 0)
        queue = deque(centres)
        while queue:
            i = queue.popleft()
            if distance[i] == width:
                continue
            for j, _ in self.seen[i]:
                if j not in distance:
                    distance[j] = distance[i] + 1
                    queue.append(j)
        return list(distance)

    # ------------------------------------------------------------------ the end

    def solution(self) -> Solution:
        """The candidate, one part now, as a solution the independent checker has passed."""
        from ..checking import check

        cells = self.cells
        found = Solution.of(
            bridge(cells[a], cells[b], count)
            for (a, b), count in zip(self.ends, self.counts)
            if count
        )
        violations = check(self.puzzle, found)
        if violations:
            raise InvalidAnswer(1, violations)
        return found

    def statistics(self) -> dict:
        return {
            "ground_seconds": round(self.ground_seconds, 6),
            "solve_seconds": round(time.perf_counter() - self.started - self.ground_seconds, 6),
            "choices": self.choices,
            "conflicts": self.conflicts,
            "rounds": self.rounds,
            "windows": self.windows,
        }
