"""Checking steps (clingo with ``encodings/step.lp``, its own reading of the rules and of which
islands see each other): before a step is shown, the assignments the step rules out must not
exist with its reason (else it is a fault, and raises); islands whose drop keeps it so are
dropped, so that the reason shown is minimal by clingo's account.  And the step no small reason
shows: a count of a pair that no solution has, with a minimal set of numbers ruling it out."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from ..asp import interface
from ..asp.control import Grounded, ground
from ..asp.interface import Program
from ..asp.predicates import CLUE, CONNECTED, COUNT, STEP_LP
from ..puzzle import Pair, Puzzle, cell_name
from ..stopping import Deadline
from . import techniques
from .board import Board, Found, values
from .results import InvalidStep

if TYPE_CHECKING:
    import clingo


class Checker:
    """``step.lp`` grounded once for the puzzle; each question switches the reason's numbers and
    connectivity on and assumes away the counts ruled out so far."""

    def __init__(self, puzzle: Puzzle, deadline: Deadline):
        program = Program(encoding=interface.encoding_path(STEP_LP))
        # No failed-literal round before each search: it pays on a whole puzzle, not on the
        # thousands of small questions a walkthrough asks (it doubled their time).
        options = ["--lookahead=no"]
        self.grounded: Grounded = ground(puzzle, program, options=options, deadline=deadline)
        self.puzzle = puzzle
        geometry = puzzle.geometry
        doing = "preparing the check of the steps"
        # Each pair's count atoms and each island's clue, read off the grounding in one pass
        # (a lookup per atom took 2.5 s at 10 000 islands), the deadline looked at as it goes.
        most = puzzle.rules.max_bridges
        pair = {_ends(geometry.pair(p)): p for p in range(len(geometry.ends))}
        self.count: list[list[int | None]] = [[None] * (most + 1) for _ in geometry.ends]
        atoms = self.grounded.atoms(*COUNT.signature)
        deadline.check(doing)
        for (_, literal), (r1, c1, r2, c2, k) in zip(atoms, COUNT.read_text(s for s, _ in atoms)):
            p = pair.get((r1, c1, r2, c2))
            if p is not None and k <= most:
                self.count[p][k] = literal
        island = {cell: i for i, cell in enumerate(geometry.cells)}
        self.clue: list[int | None] = [None] * len(geometry.cells)
        atoms = self.grounded.atoms(*CLUE.signature)
        deadline.check(doing)
        for (_, literal), (r, c) in zip(atoms, CLUE.read_text(s for s, _ in atoms)):
            if (r, c) in island:
                self.clue[island[r, c]] = literal
        self.connected = self.grounded.literal(CONNECTED.symbol())
        # Switches left free, not false: a question assumes the ones it needs on, and a switch
        # left free only lets clingo add a rule, which never makes a question's answer appear.
        switches = [*(CLUE.symbol(*cell) for cell in geometry.cells), CONNECTED.symbol()]
        for switch in deadline.looking(switches, doing):
            self.grounded.switch(switch, None)
        top = (1 << (most + 1)) - 1
        self.settled = [top] * len(geometry.ends)  # the counts clingo still allows, per pair
        # clasp prepares the program (its preprocessing, 0.8 s at 10 000 islands) at the first
        # search, and the many small questions are asked in this thread without looking at the
        # deadline: a first question that fails at once (connectivity on and off) is asked
        # here, watched, so that a large puzzle's preparation stops at the deadline.
        both = [self.connected, -self.connected] if self.connected is not None else []
        if both and self.grounded.attempt(both, deadline).stopped:
            raise deadline.reached(doing)

    def _assumptions(
        self,
        domain: list[int],
        reason: Iterable[int],
        connectivity: bool,
        pair: int,
        keep: int,
        only: Iterable[int] | None = None,
    ) -> list[int]:
        """Counts outside ``domain`` away (of the pairs ``only``, default all), and for ``pair``
        the counts of ``keep`` too (asking for one it rules out; ``pair`` -1 asks nothing of
        any pair); the numbers of ``reason`` on, connectivity on if asked."""
        pairs = range(len(domain)) if only is None else sorted(only)
        settled = self.settled
        assumed = [
            -literal
            for p in pairs
            for k, literal in enumerate(self.count[p])
            if literal is not None
            and not (domain[p] >> k & 1 and not (p == pair and keep >> k & 1))
            and (settled[p] >> k & 1 or p == pair)
        ]
        assumed += [literal for i in reason if (literal := self.clue[i]) is not None]
        if connectivity and self.connected is not None:
            assumed.append(self.connected)
        return assumed

    def _settle(self, domain: list[int]) -> None:
        """The counts ruled out so far, ruled out in clingo for good (a walkthrough's counts
        only narrow), so that the many questions of a step no small reason shows, and every
        question after it, assume only what is new.  Done before such a step only: each time
        updates clingo's program."""
        gone = []
        for p, mask in enumerate(domain):
            if mask != self.settled[p]:
                gone += [
                    literal
                    for k, literal in enumerate(self.count[p])
                    if literal is not None and self.settled[p] >> k & 1 and not mask >> k & 1
                ]
                self.settled[p] = mask
        if gone:
            self.grounded.forbid(gone)

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
        if outcome.stopped:
            raise deadline.reached("checking a step")
        return not outcome.exhausted

    def blamed(
        self,
        domain: list[int],
        reason: Iterable[int],
        connectivity: bool,
        pair: int,
        keep: int,
        deadline: Deadline,
        only: Iterable[int] | None = None,
    ) -> list[int] | None:
        """When every assignment within ``domain`` that meets the numbers of ``reason`` (and
        connectivity) gives ``pair`` a count in ``keep``: the islands of ``reason`` whose
        numbers clingo needed for that (its unsatisfiable core); None when some assignment does
        not.  A question about a step, which propagation mostly settles: asked in this thread.
        ``only``: the pairs whose counts are assumed (default all)."""
        reason = list(reason)
        assumed = self._assumptions(domain, reason, connectivity, pair, keep, only)
        deadline.check("checking a step")
        core = self.grounded.settle(assumed, deadline)
        if core is None:
            return None
        needed = set(core)
        return [i for i in reason if self.clue[i] in needed]

    def follows(
        self,
        domain: list[int],
        reason: Iterable[int],
        connectivity: bool,
        pair: int,
        keep: int,
        deadline: Deadline,
    ) -> bool:
        """Whether every assignment within ``domain`` meeting the numbers of ``reason`` (and
        connectivity) gives ``pair`` a count in ``keep`` (as for :meth:`blamed`).

        Asked first with only the counts left near the step (the pairs at the reason's islands
        and the step's pair, and the pairs crossing them), the rest of the board left free: an
        answer of no assignment there holds a fortiori within the whole ``domain``, and most
        steps get it with a few assumptions instead of thousands.  Otherwise asked again with
        the whole ``domain``."""
        reason = list(reason)
        question = (connectivity, pair, keep, deadline)
        if self.blamed(domain, reason, *question, only=self._near(reason, pair)) is not None:
            return True
        return self.blamed(domain, reason, *question) is not None

    def _near(self, reason: list[int], pair: int) -> set[int]:
        geometry = self.puzzle.geometry
        pairs = {p for i in reason for p in geometry.at[i]} | ({pair} if pair >= 0 else set())
        return pairs | {q for p in pairs for q in geometry.crossing[p]}

    def confirm(self, found: Found, board: Board, deadline: Deadline) -> Found:
        """The step, once clingo confirms that it follows from its reason (else a fault: it
        raises), with the islands clingo finds unneeded dropped (:meth:`_needed`), so that the
        reason shown is minimal by clingo's account.  (The finder reads connectivity only near
        the reason, and a loop or crossing that a smaller set forces on a pair away from its
        own islands it does not see; such an island is dropped here.)

        A reason of one island without connectivity, as the finder reads it, is minimal
        already where loops are allowed: the empty reason forces nothing, since the finder's
        first stage, exact for what the rules alone force, found nothing just before.  Those
        steps (most of any walkthrough) are only confirmed, which halves clingo's work on them.
        (Where loops are not allowed, the loop a bridge would close is looked for after the easy
        techniques, so clingo is asked.)"""
        domain = board.domain
        question = (found.connectivity, found.pair, found.new)
        if not self.follows(domain, found.reason, *question, deadline):
            raise InvalidStep(self._fault(found, "does not follow from its reason"))
        loops = not self.puzzle.rules.no_loops  # else a loop the rules alone rule out comes later
        counted = found.technique is None  # a reason the finder read island by island
        if len(found.reason) == 1 and not found.connectivity and counted and loops:
            return found
        reason = self._needed(domain, found.reason, *question, deadline)
        if reason or not found.reason or not found.new:
            return replace(found, reason=reason)
        # Every island dropped: the certain bridges alone force the step (with connectivity:
        # all islands connected), where the finder read a larger reason.
        told = techniques.without_islands(board, found)
        return replace(found, reason=reason, technique=told)

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
            raise deadline.reached("making a step's reason minimal")
        return tuple(sorted(island[literal] for literal in core.literals))

    def _fault(self, found: Found, what: str) -> str:
        geometry = self.puzzle.geometry
        cells = ", ".join(cell_name(geometry.cells[i]) for i in found.reason) or "none"
        where = (
            "" if found.pair < 0 else " on " + "-".join(map(cell_name, geometry.pair(found.pair)))
        )
        return f"internal error: the step{where} (reason: {cells}) {what}"

    def deeper(self, board: Board, deadline: Deadline) -> Found | None:
        """A step no small reason shows: a count of some pair that no solution (within the
        counts left) has, with a minimal set of numbers ruling it out; None when every count
        left is in some solution (the puzzle is not unique from here).  The finder's stage of
        the whole board names its technique."""
        everyone = list(range(len(board.cells)))
        domain = board.domain
        self._settle(domain)
        seen = [0] * len(domain)
        if not self._search(self._assumptions(domain, everyone, True, -1, 0), deadline, seen):
            connectivity, reason = self._minimal(domain, everyone, -1, 0, deadline)
            return Found(reason, connectivity, board.first_pair(reason), 0)
        for p, mask in enumerate(domain):
            for k in values(mask):
                if seen[p] >> k & 1:
                    continue
                keep = mask & ~(1 << k)
                if not self._search(
                    self._assumptions(domain, everyone, True, p, keep), deadline, seen
                ):
                    connectivity, reason = self._minimal(domain, everyone, p, keep, deadline)
                    return Found(reason, connectivity, p, keep)
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


def _ends(pair: Pair) -> tuple[int, int, int, int]:
    """A pair's cells as the first four arguments of its atoms."""
    (r1, c1), (r2, c2) = pair
    return r1, c1, r2, c2
