"""The author's fix: the fewest edits that leave a puzzle with exactly one solution.

An edit adds an island (with a number), removes one, or changes an island's number (an island
without a number gets one).  By default the solution the author meant is kept: the first one
found, or the one given.  It stays a solution only under two kinds of edit: a new island on a
water cell under one of its bridges of K lines, numbered 2K (the bridge is split there), and an
island without a number given its count in that solution.  With ``free`` any edit is allowed and
the solution may change.

The search is a loop of two questions (counterexample-guided):

1. the master problem (``encodings/fix.lp``, clingo optimisation): a smallest set of edits that
   escapes every counterexample so far.  Keep mode: no solution seen stays a solution; one seen
   stands for all its splits by new islands, so it rules out every new island on a bridge it
   shares with the kept solution.  Free mode: the master finds a solution of the edited puzzle
   too, and no move seen (:mod:`hashi_asp.moves`) may turn it into another; a move stays true
   far from where it was found, so it rules out every edit set that leaves its place alone.
   The optimum is a lower bound on the edits of any fix;
2. the edited puzzle is searched for a second solution (the known-solution search of
   :class:`~hashi_asp.known.KnownSolution`, the known one being the kept solution split by the
   new islands, or the master's solution in free mode).  None: the edits are a fix with the
   fewest edits.  Otherwise the solutions found (keep mode) or the moves to them (free mode)
   join the counterexamples, and the master is asked again on the same control (clingo keeps
   what it learnt).

A fix is returned only once a fresh :func:`~hashi_asp.solving.unique` proves the edited puzzle
has exactly one solution and the independent checker passes it.  When the time limit comes
first, the best fix found (a master answer not yet proven least) is returned with the lower bound
of the last proven optimum.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from .asp import PLAIN, predicates
from .asp.control import ground
from .asp.interface import Program, encoding_path
from .asp.interface import solution as answer
from .checking import check
from .known import KnownSolution
from .moves import Move, move, parts
from .puzzle import Bridge, Cell, HashiError, Puzzle, Solution, bridge, cell_name
from .solving import Result, unique
from .status import Status, Stop, Verdict
from .stopping import Deadline, Stopped

if TYPE_CHECKING:
    import clingo

FIX_ENCODING = predicates.FIX_LP
SINGLE_EDIT_ENCODING = predicates.SINGLE_EDIT_LP
ALTERNATIVES = 8  # keep mode: other solutions asked for per round: more per round, fewer rounds
# Free mode: fewer, as each gives moves that stay with the master, which then grows slower (the
# loop alone on 8 generated 13x13 and 15x15 puzzles, 10 s: 3 proved the fewest for 4, 8 for 3,
# 1 for 1)
FREE_ALTERNATIVES = 3
IMPOSSIBLE = "impossible"  # keeping: keep mode proved no fix keeps the first solution
NOT_FOUND = "not found"  # keeping: keep mode found no such fix in its share of the time
MARGIN = 0.05  # of the time left, kept back from the searches to finish in time
KEEP_SHARE = 0.5  # of the time limit, for keep mode before free mode by default
KEEP_HINT = 0.2  # of the time limit, for keep mode's fix as a first fix in free mode
SINGLE_SHARE = 0.8  # of the time left, for the proof that no single edit will do (the loop
# proves it too, but slower on most puzzles)
AT_ONCE = 2  # solutions per number a search of every new number at a cell may find


class FixError(HashiError):
    """A fix asked for what cannot be: a solution to keep that does not solve the puzzle."""

    status = Status.BAD_INPUT


class FixFault(HashiError):
    """The fix search went wrong (a fixed puzzle a fresh solve does not confirm): never shown."""

    status = Status.FAULT


@dataclass(frozen=True)
class Edit:
    """One edit at ``cell``: ``kind`` ``add`` (a new island ``new``; ``old`` None), ``remove``
    (the island ``old``, None for one without a number; ``new`` None) or ``change`` (``old``
    becomes ``new``; ``old`` None for an island without a number)."""

    kind: str
    cell: Cell
    old: int | None
    new: int | None

    def words(self) -> str:
        place = cell_name(self.cell)
        if self.kind == "add":
            return f"add an island {self.new} at {place}"
        if self.kind == "remove":
            return f"remove the island {'?' if self.old is None else self.old} at {place}"
        if self.old is None:
            return f"give the island at {place} the number {self.new}"
        return f"change the {self.old} at {place} to {self.new}"


@dataclass(frozen=True)
class Fix:
    """What :func:`fix` found.  ``status``: ``fixed``, ``unique`` (nothing to fix), ``no fix
    found`` (proven: no edits of the kinds allowed make it unique), ``unsolvable`` or
    ``unknown`` (no fix found before the time limit or a signal).  ``edits`` the fix's edits;
    ``fewest`` whether no fix with fewer edits exists (proven); ``lower_bound`` the fewest
    edits any fix needs, as far as proven; ``stopped``, why the search stopped short of a
    proof (the time limit, a signal), if it did.  ``puzzle`` is the fixed puzzle and
    ``solution`` its only solution, proven unique and checked (for ``unique``: the puzzle and
    its solution; else None).  ``kept`` is the solution kept (keep mode) or the first solution
    found (free mode).  ``keeping``, by default when free mode followed keep mode:
    ``impossible`` (proven: no fix keeps the first solution) or ``not found`` (keep mode found
    none in its share of the time); else None."""

    status: Verdict
    edits: tuple[Edit, ...] = ()
    fewest: bool = False
    lower_bound: int = 0
    puzzle: Puzzle | None = None
    solution: Solution | None = None
    kept: Solution | None = None
    free: bool = False
    rounds: int = 0
    seconds: float = 0.0
    keeping: str | None = None
    seen: int = field(default=0, compare=False)  # solutions or moves the master learnt
    stopped: Stop | None = None  # why the search stopped short of a proof (if it did)

    @property
    def found(self) -> bool:
        """The puzzle has one solution now (fixed, or unique already)."""
        return self.status in (Verdict.FIXED, Verdict.UNIQUE)


def fix(
    puzzle: Puzzle,
    *,
    keep: Solution | None = None,
    free: bool = False,
    time_limit: float | Deadline | None = None,
    first: Result | None = None,
) -> Fix:
    """The fewest edits that leave ``puzzle`` with exactly one solution (see the module
    docstring), under the puzzle's rules and the bundled encoding.  ``keep`` is the solution to
    keep, strictly: without a fix that keeps it, ``no fix found``.  Without ``keep`` the first
    solution found is kept if some fix keeps it; when keep mode proves none does (or does not
    finish in its share of the time), free mode follows and ``keeping`` says why.  ``free``
    allows any edit from the start.  ``first`` is the puzzle's
    :func:`~hashi_asp.solving.unique` result, if already known.  ``time_limit`` (seconds, or a
    :class:`Deadline`) bounds the whole search.  Raises :class:`FixError` for a ``keep`` that
    does not solve the puzzle."""
    started = time.perf_counter()
    deadline = Deadline.of(time_limit)
    if keep is not None and not free:
        broken = check(puzzle, keep)
        if broken:
            raise FixError(f"the solution to keep does not solve the puzzle: {broken[0].message}")
    try:
        if first is None:
            first = unique(puzzle, time_limit=deadline)
    except Stopped as stop:
        return Fix(
            Verdict.UNKNOWN, free=free, seconds=time.perf_counter() - started, stopped=stop.why
        )
    if first.status is Verdict.UNSOLVABLE:
        return Fix(Verdict.UNSOLVABLE, free=free, seconds=time.perf_counter() - started)
    if first.status is Verdict.UNIQUE and (keep is None or free or first.solutions[0] == keep):
        only = first.solutions[0]
        return Fix(
            Verdict.UNIQUE, (), True, 0, puzzle, only, only, free, 0, time.perf_counter() - started
        )
    if first.status not in (Verdict.UNIQUE, Verdict.MULTIPLE):
        seconds = time.perf_counter() - started
        return Fix(Verdict.UNKNOWN, free=free, seconds=seconds, stopped=first.stopped)
    keeping, kept_fix = None, None
    work = deadline.part(1 - MARGIN)  # the rest: to confirm and return the last fix in time
    if not free:
        kept = keep or first.solutions[0]
        # Keep mode mostly ends fast (a fix, or the proof that none keeps the solution); by
        # default it gets half the time, so that free mode has the rest.
        share = work if keep is not None else work.part(KEEP_SHARE)
        found = _keep(puzzle, kept, first.solutions, share)
        if keep is not None or found["status"] == Verdict.FIXED:
            return _cut(Fix(**{**found, "seconds": time.perf_counter() - started}), work)
        keeping = IMPOSSIBLE if found["status"] == Verdict.NO_FIX else NOT_FOUND
    else:  # keep mode's fix, if found soon, is a first fix for free mode
        found = _keep(puzzle, first.solutions[0], first.solutions, work.part(KEEP_HINT))
        kept_fix = found if found["status"] == Verdict.FIXED else None
    found = _free(puzzle, first.solutions, work, kept_fix)
    fixed = Fix(**{**found, "keeping": keeping, "seconds": time.perf_counter() - started})
    return _cut(fixed, work)


def _cut(found: Fix, work: Deadline) -> Fix:
    """The fix, saying why the search stopped short (the time limit, a signal) unless what it
    found is proven: a fix of the fewest edits, or no fix at all."""
    proven = found.fewest or found.status == Verdict.NO_FIX
    return found if proven else replace(found, stopped=work.stopped)


def _keep(puzzle: Puzzle, kept: Solution, solutions: list[Solution], deadline: Deadline) -> dict:
    """Keep mode: the loop keeping ``kept``; the fields of the :class:`Fix`."""
    try:
        search = _Search(puzzle, kept, False, deadline)
    except Stopped:
        return {"status": Verdict.UNKNOWN, "kept": kept, "free": False, "lower_bound": 1}
    return search.run([s for s in solutions if s != kept])


def _free(
    puzzle: Puzzle, solutions: list[Solution], deadline: Deadline, kept: dict | None = None
) -> dict:
    """Free mode: a first fix from the uniqueness repair (its edits as few as reverting them
    one by one allows) or ``kept`` (keep mode's fix, if smaller); then the loop, told that only
    fixes with fewer edits than the first matter, while every single edit is tried beside it
    in a thread of its own (:func:`single_edit`, in a share of the time): its proof that no
    single edit will do tells the loop that two are needed, which the loop proves too but
    mostly slower.  A proof that no fix has fewer edits makes the first fix the fewest."""
    try:
        upper = repaired_fix(puzzle, solutions, deadline)
    except Stopped:
        upper = None
    # A fix that keeps a solution is one that may change it, often a small one.
    if kept is not None and (upper is None or len(kept["edits"]) < len(upper["edits"])):
        upper = {k: kept[k] for k in ("status", "edits", "puzzle", "solution")}
    base = {"kept": solutions[0], "free": True}
    lower = 1  # the puzzle is ambiguous: some edit is needed
    if upper is not None and len(upper["edits"]) == lower:
        return {**base, **upper, "fewest": True, "lower_bound": lower}
    proof = deadline.part(SINGLE_SHARE)
    with ThreadPoolExecutor(1, thread_name_prefix="hashi-asp: single edits") as pool:
        single = pool.submit(single_edit, puzzle, solutions, proof)
        try:
            below = None if upper is None else upper["edits"]
            search = _Search(puzzle, solutions[0], True, deadline, fewer_than=below)
            found = search.run(solutions, lower, single)
        except Stopped:
            found = {**base, "status": Verdict.UNKNOWN, "lower_bound": _proven(single, lower)}
        finally:
            proof.stop()  # the single edits stop at their next look if still at work
    one = _one(single)
    if one is not None:  # the single edits found a fix of one edit
        return {**base, **one, "fewest": True, "lower_bound": 1}
    found = {**found, "lower_bound": _proven(single, found["lower_bound"])}
    if found["status"] == Verdict.FIXED and found["lower_bound"] >= len(found["edits"]):
        found["fewest"] = True
    if upper is None:
        return found
    if (
        found["status"] == Verdict.NO_FIX
    ):  # no fix with fewer edits than the repair's: it is the fewest
        return {**found, **upper, "fewest": True, "lower_bound": len(upper["edits"])}
    if found["status"] == Verdict.FIXED and len(found["edits"]) < len(upper["edits"]):
        return found
    lower = max(lower, found["lower_bound"])
    return {**found, **upper, "fewest": lower >= len(upper["edits"]), "lower_bound": lower}


def _proven(single: Future, lower: int) -> int:
    """The lower bound once the single edits are through: 2 if they proved none will do."""
    if _through(single) and single.result() is None:
        return max(lower, 2)
    return lower


def _one(single: Future) -> dict | None:
    """The single edits' fix of one edit, if they found one."""
    return single.result() if _through(single) else None


def _through(single: Future) -> bool:
    """The single edits ended with an answer (not cut short by the time); an internal error
    there is raised here."""
    if not single.done():
        return False
    error = single.exception()
    if error is not None and not isinstance(error, Stopped):
        raise error
    return error is None


def single_edit(
    puzzle: Puzzle,
    solutions: list[Solution],
    deadline: Deadline,
) -> dict | None:
    """Every single edit free mode allows, tried nearest the pairs where the first two
    solutions differ first: a fix of one edit, or None, the proof that no single edit leaves
    one solution.  An edit under which two known solutions stay solutions (merged: see
    :func:`merged`) is ruled out without a search, and so is a number above what the island's
    neighbours can give; the others are asked on one control (:class:`SingleEdits`), each
    edited puzzle searched for two solutions."""
    doing = "trying single edits"
    known = []
    for solution in deadline.looking(solutions, doing, every=1):
        ends, over = merged(solution)
        known.append((ends, over, _wrong(puzzle, ends, over)))
    edits = [
        edit
        for edit in deadline.looking(_free_edits(puzzle, solutions[:2], deadline), doing)
        if sum(_stays(*one, edit) for one in known) <= 1
    ]
    if not edits:
        return None
    trials = SingleEdits(puzzle, edits, deadline)
    for edit in edits:
        found = trials.solutions(edit)
        if found == 1:
            fixed = edited(puzzle, [edit])
            only = _only_solution(fixed, deadline)
            if only is None:
                raise FixFault("internal error: a fresh solve disagrees about a single edit")
            return {"status": Verdict.FIXED, "edits": (edit,), "puzzle": fixed, "solution": only}
    return None


class SingleEdits:
    """The puzzle grounded once with every single edit to try as a switch
    (``encodings/single_edit.lp``), so that each edit is one search under one assumption, with
    what clingo learnt from the others (a fresh solve per edit took 10 to 20 ms at 15x15).  The
    pairs are those of the puzzle and those a single edit makes: from a new island to the
    islands it sees, and across a removed island."""

    def __init__(self, puzzle: Puzzle, edits: list[Edit], deadline: Deadline):
        self.deadline = deadline
        facts = [predicates.OFFERS[edit.kind].fact(*edit.cell, *_number(edit)) for edit in edits]
        self.puzzle = puzzle
        self.numbers: dict[Cell, list[int]] = {}
        for edit in edits:
            if edit.kind != "remove" and edit.new is not None:
                self.numbers.setdefault(edit.cell, []).append(edit.new)
        self.asked: set[Cell] = set()
        self.known: dict[Edit, int] = {}
        removable = {e.cell for e in edits if e.kind == "remove"}
        added = {e.cell for e in edits if e.kind == "add"}
        facts.append(_edited_pairs(puzzle, removable, added, deadline))
        program = Program(encoding=str(encoding_path(SINGLE_EDIT_ENCODING)), connectivity=PLAIN)
        self.grounded = ground(
            puzzle,
            program,
            text="".join(facts),
            models=0,  # as many as each question takes
            options=["--lookahead=no"],  # each search is short: lookahead made it 30x slower
            deadline=deadline,
        )

    def solutions(self, edit: Edit) -> int:
        """How many solutions the puzzle has with ``edit`` made: 0, 1 or 2 (two or more).  A new
        number at a cell is asked for every number there at once (most such searches find
        none); only where those have more solutions than that search takes, one by one."""
        if edit.kind != "remove":
            if edit.cell not in self.asked:
                self.asked.add(edit.cell)
                self._renumbered(edit.cell)
            if edit in self.known:
                return self.known[edit]
        return self._one(edit)

    def _renumbered(self, cell: Cell) -> None:
        """Every new number at ``cell`` in one search, up to :data:`AT_ONCE` solutions per
        number tried there; a number found with two is settled (two or more) and left out of
        the next search, until one search finds all there are of the numbers left: what they
        prove goes into ``known``."""
        literal = self.grounded.literal(predicates.RENUMBERED.symbol(*cell))
        numbers = self.numbers.get(cell, [])
        if literal is None or not numbers:
            return
        old = self.puzzle.islands.get(cell)
        kind = "add" if cell not in self.puzzle.islands else "change"
        left = list(numbers)
        while left:
            self.deadline.check("trying single edits")
            settled = [n for n in numbers if n not in left]
            leave_out = [
                self.grounded.literal(predicates.EDITS[kind].symbol(*cell, n)) for n in settled
            ]
            assumed = [literal, *(-x for x in leave_out if x is not None)]
            found, all_there_are = self.grounded.models(assumed, AT_ONCE * len(left))
            counts = dict.fromkeys(left, 0)
            for atoms in found:
                ((_, _, number),) = predicates.EDITS[kind].read_numbers(atoms)
                counts[number] += 1
            twice = [n for n, count in counts.items() if count >= 2]
            for number in twice if not all_there_are else counts:
                self.known[Edit(kind, cell, old, number)] = min(2, counts[number])
            if all_there_are or not twice:
                return
            left = [n for n in left if n not in twice]

    def _one(self, edit: Edit) -> int:
        literal = self.grounded.literal(
            predicates.EDITS[edit.kind].symbol(*edit.cell, *_number(edit))
        )
        if literal is None:
            raise FixFault(f"internal error: no switch for the edit {edit.words()}")
        self.deadline.check("trying single edits")
        return self.grounded.count([literal], 2)


def _number(edit: Edit) -> tuple[int, ...]:
    """The edit's new number as the last argument of its atoms (a removal has none)."""
    return () if edit.new is None or edit.kind == "remove" else (edit.new,)


def _edited_pairs(
    puzzle: Puzzle, removable: set[Cell], added: set[Cell], deadline: Deadline
) -> str:
    """The facts ``pair``, ``between``, ``crosses``, ``first`` and ``second`` of
    ``encodings/single_edit.lp``: every two cells in a row or column that see each other under
    one of the edits (islands with no island between; islands with one removable island
    between; an island and a cell that may get a new one, with no island between)."""
    islands = puzzle.islands
    possible = set(islands) | added
    pairs: list[tuple[int, ...]] = []
    betweens: list[tuple[int, ...]] = []
    crossings: list[tuple[int, ...]] = []
    lines: dict[str, list[tuple[Cell, Cell]]] = {"row": [], "column": []}
    for kind, outer, inner in (
        ("row", puzzle.rows, puzzle.cols),
        ("column", puzzle.cols, puzzle.rows),
    ):
        for i in deadline.looking(range(outer), "trying single edits", every=1):
            cells = [
                cell
                for j in range(inner)
                if (cell := (i, j) if kind == "row" else (j, i)) in possible
            ]
            for x, a in enumerate(cells):
                for y in range(x + 1, len(cells)):
                    b, inside = cells[y], cells[x + 1 : y]
                    on = [cell for cell in inside if cell in islands]
                    if a in islands and b in islands:
                        fits = not on or (len(on) == 1 and on[0] in removable)
                    else:
                        fits = (a in islands or b in islands) and not on
                    if len(on) > 1:
                        break  # farther cells are hidden behind two islands
                    if not fits:
                        continue
                    lines[kind].append((a, b))
                    pairs.append((*a, *b))
                    betweens += [(*a, *b, *cell) for cell in inside]
    across: dict[int, list[tuple[Cell, Cell]]] = {}
    for a, b in lines["column"]:
        across.setdefault(a[1], []).append((a, b))
    for a, b in lines["row"]:
        r = a[0]
        for c in range(a[1] + 1, b[1]):
            for top, bottom in across.get(c, ()):
                if top[0] < r < bottom[0]:
                    crossings.append((*a, *b, *top, *bottom))
    first, *rest = sorted(islands)
    return "".join(
        [
            predicates.PAIR.facts(pairs),
            predicates.BETWEEN.facts(betweens),
            predicates.CROSSES.facts(crossings),
            predicates.FIRST.fact(*first),
            predicates.SECOND.fact(*rest[0]) if rest else "",
        ]
    )


def _free_edits(puzzle: Puzzle, solutions: list[Solution], deadline: Deadline) -> list[Edit]:
    """Every single edit free mode allows whose number the island's neighbours can give (the
    most bridges times the islands it sees), nearest the bridges where ``solutions`` differ
    first."""
    top = puzzle.rules.max_bridges
    islands = puzzle.islands
    edits = []
    cells = itertools.product(range(puzzle.rows), range(puzzle.cols))
    for cell in deadline.looking(cells, "trying single edits"):
        most = top * _seen_from(puzzle, cell)
        if cell not in islands:
            edits += [Edit("add", cell, None, n) for n in range(1, most + 1)]
        else:
            old = islands[cell]
            if len(islands) > 1:
                edits.append(Edit("remove", cell, old, None))
            edits += [Edit("change", cell, old, n) for n in range(1, most + 1) if n != old]
    near = differing(solutions)
    if not near:
        return edits
    distance = {
        cell: min(abs(cell[0] - r) + abs(cell[1] - c) for r, c in near)
        for cell in deadline.looking(dict.fromkeys(e.cell for e in edits), "trying single edits")
    }
    return sorted(edits, key=lambda e: distance[e.cell])


def _seen_from(puzzle: Puzzle, cell: Cell) -> int:
    """How many islands ``cell`` sees along its row and column (the nearest in each
    direction)."""
    seen = 0
    for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
        r, c = cell[0] + dr, cell[1] + dc
        while 0 <= r < puzzle.rows and 0 <= c < puzzle.cols:
            if (r, c) in puzzle.islands:
                seen += 1
                break
            r, c = r + dr, c + dc
    return seen


def _wrong(puzzle: Puzzle, ends: dict[Cell, int], over: dict[Cell, int]) -> frozenset[Cell]:
    """The cells where a merged solution does not fit the puzzle (as ``ruled_out`` of
    ``fix.lp``): an island off it or whose number it does not give, an end not an island."""
    wrong = {cell for cell in ends if cell not in puzzle.islands}
    for cell, number in puzzle.islands.items():
        if not _fits(ends, over, cell, number):
            wrong.add(cell)
    return frozenset(wrong)


def _fits(ends: dict[Cell, int], over: dict[Cell, int], cell: Cell, number: int | None) -> bool:
    """An island ``number`` at ``cell`` fits the merged solution."""
    if cell in ends:
        return number is None or number == ends[cell]
    if cell in over:
        return number is None or number == 2 * over[cell]
    return False


def _stays(ends: dict, over: dict, wrong: frozenset[Cell], edit: Edit) -> bool:
    """The merged solution stays one under the single edit."""
    if not wrong <= {edit.cell}:
        return False
    if edit.kind == "remove":
        return edit.cell not in ends
    return _fits(ends, over, edit.cell, edit.new)


def repaired_fix(puzzle: Puzzle, solutions: list[Solution], deadline: Deadline) -> dict | None:
    """A fix found fast, not the fewest: the generator's uniqueness repair from each known
    solution in turn (seeded: the same puzzle gets the same fix), renumbering islands; then
    renumbered islands given back their numbers while the puzzle stays unique.  Proven unique
    by a fresh solve and passed by the checker; None if the repair gives up."""
    from .generation.repair import repaired

    for seed, solution in enumerate(solutions):
        made = repaired(puzzle, solution, seed, deadline)
        if made is None:
            continue
        fixed, _ = made
        edits = [
            Edit("change", cell, old, fixed.islands[cell])
            for cell, old in sorted(puzzle.islands.items())
            if fixed.islands[cell] != old
        ]
        only = _only_solution(edited(puzzle, edits), deadline)
        if only is None:
            raise FixFault("internal error: the repaired puzzle is not unique")
        # Fewer edits: give islands back their numbers while the puzzle stays unique, until
        # every edit left is needed (or the time is up: each smaller set was proven unique).
        try:
            reverted = True
            while reverted and len(edits) > 1:
                reverted = False
                for edit in list(edits):
                    fewer = [e for e in edits if e != edit]
                    found = _only_solution(edited(puzzle, fewer), deadline)
                    if found is not None:
                        edits, only, reverted = fewer, found, True
                        if len(edits) == 1:
                            break
        except Stopped:
            pass
        fixed = edited(puzzle, edits)
        return {"status": Verdict.FIXED, "edits": tuple(edits), "puzzle": fixed, "solution": only}
    return None


def _only_solution(puzzle: Puzzle, deadline: Deadline) -> Solution | None:
    """The puzzle's only solution, proven by a fresh solve and passed by the checker; None if
    it has none or several."""
    result = unique(puzzle, time_limit=deadline)
    if result.stopped:
        raise deadline.reached("checking a fix")
    if result.status is not Verdict.UNIQUE:
        return None
    if check(puzzle, result.solutions[0]):
        raise FixFault("internal error: the checker refuses the fixed puzzle's solution")
    return result.solutions[0]


# ---------------------------------------------------------------------------- the loop


class _Search:
    """The counterexample-guided loop on one puzzle: the master problem on one control, the
    solutions seen so far given to it one part each."""

    def __init__(
        self,
        puzzle: Puzzle,
        kept: Solution,
        free: bool,
        deadline: Deadline,
        fewer_than: tuple[Edit, ...] | None = None,
    ):
        """``fewer_than``: a fix known already; only fixes with fewer edits are looked for."""
        self.puzzle, self.kept, self.free, self.deadline = puzzle, kept, free, deadline
        if free:
            text = predicates.MODE.fact("free")
            if fewer_than is not None:
                text += predicates.EDITS_BELOW.fact(len(fewer_than))
        else:
            text = predicates.MODE.fact("keep") + predicates.KEPT.facts(kept.bridges)
        program = Program(encoding=str(encoding_path(FIX_ENCODING)), connectivity=PLAIN)
        # Core-guided optimisation (usc) starts from no edits and proves each lower bound on
        # the way up: fixes need few edits, so the proof of the last one is most of the work.
        self.grounded = ground(
            puzzle,
            program,
            text=text,
            models=0,
            options=["--opt-mode=opt", "--opt-strategy=usc", "--lookahead=no"],
            deadline=deadline,
        )
        self.seen: set[frozenset[Bridge]] = set()
        self.moves: set[Move] = set()
        self.waiting: list[tuple[str, str, str, list[int]]] = []  # parts to ground, in one step

    @property
    def learnt(self) -> int:
        """What the master has learnt from: solutions seen (keep mode), moves (free mode)."""
        return len(self.seen) + len(self.moves)

    def block(self, puzzle: Puzzle, solution: Solution, others: Iterable[Solution]) -> int:
        """Free mode: give the master the moves between ``solution`` and each of ``others``
        (solutions of ``puzzle``, an edited puzzle), each part of a difference on its own and
        both ways (:mod:`hashi_asp.moves`); how many were new."""
        new = 0
        for other in others:
            for part in parts(puzzle, solution, other):
                for before, after in ((solution, part), (part, solution)):
                    found = move(puzzle, before, after)
                    if found is None or found in self.moves:
                        continue
                    self.moves.add(found)
                    j = len(self.moves)
                    self.waiting.append(predicates.MOVE_PART.with_facts(found.facts(j), j))
                    new += 1
        return new

    def see(self, solutions: Iterable[Solution]) -> int:
        """Give the master the solutions not seen yet (merged); how many were new."""
        new = 0
        for solution in solutions:
            ends, over = merged(solution)
            key = joined_again(solution)
            if key in self.seen:
                continue
            self.seen.add(key)
            a = len(self.seen)
            facts = predicates.ALT_END.facts((a, r, c, d) for (r, c), d in ends.items())
            facts += predicates.ALT_OVER.facts((a, r, c, k) for (r, c), k in over.items())
            self.waiting.append(predicates.ALTERNATIVE_PART.with_facts(facts, a))
            new += 1
        return new

    def run(self, others: list[Solution], lower: int = 1, single: Future | None = None) -> dict:
        """The loop, from a proven ``lower`` bound; the fields of the :class:`Fix`.  ``single``:
        the single edits tried beside it (:func:`single_edit`): their proof raises the lower
        bound to 2; their fix ends the loop (the caller takes it from ``single``)."""
        rounds, best = 0, None
        base = {"kept": self.kept, "free": self.free}
        try:
            # a few more other solutions to start from
            known = KnownSolution.of(self.puzzle, self.kept, self.deadline, models=ALTERNATIVES)
            found, _ = known.others(ALTERNATIVES)
            others = [*others, *map(known.solution, found)]
            if self.free:
                self.block(self.puzzle, self.kept, [s for s in others if s != self.kept])
            else:
                self.see(others)
            while True:
                rounds += 1
                if single is not None and single.done():
                    if _one(single) is not None:  # a fix of one edit: the caller takes it
                        return {**base, "status": Verdict.FIXED, "lower_bound": 1, "rounds": rounds}
                    if _proven(single, lower) > lower:
                        lower = _proven(single, lower)
                        self._needs(lower)
                    single = None
                self.grounded.add_parts(self.waiting)
                self.waiting.clear()
                optimum = self.grounded.optimise(self.deadline)
                if optimum.symbols is None:
                    if optimum.search.exhausted:  # no edits of the kinds allowed will do
                        return {
                            **base,
                            "status": Verdict.NO_FIX,
                            "fewest": False,
                            "lower_bound": lower,
                            "rounds": rounds,
                            "seen": self.learnt,
                        }
                    break
                if optimum.proven and (optimum.cost or 0) > lower:
                    lower = optimum.cost or 0
                    self._needs(lower)
                edits = self._edits(optimum.symbols)
                fixed = edited(self.puzzle, edits)
                meant = answer(optimum.symbols) if self.free else split(self.kept, edits)
                if self.free and check(fixed, meant):
                    raise FixFault("internal error: the fix search's solution breaks the rules")
                others = self._others(fixed, meant)
                if not others:
                    made = self._confirmed(fixed, edits)
                    best = {
                        **base,
                        "status": Verdict.FIXED,
                        "edits": tuple(edits),
                        "puzzle": fixed,
                        "solution": made,
                        "fewest": optimum.proven,
                        "lower_bound": lower,
                        "rounds": rounds,
                    }
                    if optimum.proven:
                        return {**best, "seen": self.learnt}
                    break
                learnt = self.block(fixed, meant, others) if self.free else self.see(others)
                if not learnt:
                    raise FixFault("internal error: the fix search saw the same solution twice")
        except Stopped:
            pass
        if best is not None:
            return {**best, "lower_bound": lower, "seen": self.learnt}
        return {
            **base,
            "status": Verdict.UNKNOWN,
            "lower_bound": lower,
            "rounds": rounds,
            "seen": self.learnt,
        }

    # ------------------------------------------------------------------ one round

    def _needs(self, count: int) -> None:
        """Only edit sets of ``count`` edits or more from the next round on (proven needed:
        the optimisation need not prove it again in every round)."""
        self.waiting.append(predicates.AT_LEAST_PART.with_facts("", count))

    def _edits(self, symbols: list[clingo.Symbol]) -> list[Edit]:
        numbers = self.puzzle.islands
        edits = []
        for kind, made in predicates.EDITS.items():
            for r, c, *new in made.read_numbers(symbols):
                cell = (r, c)
                old = None if kind == "add" else numbers[cell]
                edits.append(Edit(kind, cell, old, new[0] if new else None))
        return sorted(edits, key=lambda e: e.cell)

    def _others(self, fixed: Puzzle, meant: Solution) -> list[Solution]:
        """Solutions of the edited puzzle besides the one it is meant to have: the kept one
        split (keep mode), or the one the master found (free mode)."""
        many = FREE_ALTERNATIVES if self.free else ALTERNATIVES
        known = KnownSolution.of(fixed, meant, self.deadline, models=many)
        found, _ = known.others(many)
        return [known.solution(counts) for counts in found]

    def _confirmed(self, fixed: Puzzle, edits: list[Edit]) -> Solution:
        """The fixed puzzle's only solution, once a fresh solve proves it and the checker
        passes it (:func:`_only_solution`), and in keep mode the kept one split."""
        only = _only_solution(fixed, self.deadline)
        meant = None if self.free else split(self.kept, edits)
        if only is None or (meant is not None and only != meant):
            raise FixFault("internal error: the fixed puzzle is not unique with the solution meant")
        return only


# ---------------------------------------------------------------------------- puzzles and splits


def edited(puzzle: Puzzle, edits: Iterable[Edit]) -> Puzzle:
    """The puzzle with the edits made."""
    islands = dict(puzzle.islands)
    for edit in edits:
        if edit.kind == "remove":
            del islands[edit.cell]
        else:
            islands[edit.cell] = edit.new
    return Puzzle(puzzle.rows, puzzle.cols, islands, puzzle.source, puzzle.rules)


def split(solution: Solution, edits: Iterable[Edit]) -> Solution:
    """The solution with its bridges split at the islands the edits add under them."""
    added = {edit.cell for edit in edits if edit.kind == "add"}
    bridges: list[Bridge] = []
    for drawn in solution.bridges:
        stops = [cell for cell in drawn.cells_between() if cell in added]
        ends = [drawn.ends[0], *stops, drawn.ends[1]]
        bridges += [bridge(a, b, drawn.count) for a, b in itertools.pairwise(ends)]
    return Solution.of(bridges)


def joined_again(solution: Solution) -> frozenset[Bridge]:
    """The solution's bridges joined again through every island they pass straight through with
    the same count on both sides: what stands for all its splits."""
    ends, _ = merged(solution)
    at = _links(solution)
    joined = set()
    for start in ends:
        for step, count in at[start]:
            previous, here = start, step
            while here not in ends:  # straight on through
                previous, here = here, next(c for c, _ in at[here] if c != previous)
            joined.add(bridge(start, here, count))
    return frozenset(joined)


def _links(solution: Solution) -> dict[Cell, list[tuple[Cell, int]]]:
    """Each island of the solution with the islands its bridges go to and their counts."""
    at: dict[Cell, list[tuple[Cell, int]]] = {}
    for drawn in solution.bridges:
        a, b = drawn.ends
        at.setdefault(a, []).append((b, drawn.count))
        at.setdefault(b, []).append((a, drawn.count))
    return at


def merged(solution: Solution) -> tuple[dict[Cell, int], dict[Cell, int]]:
    """A solution joined again through every island its bridges pass straight through with the
    same count on both sides (it stands for all its splits): the islands left with their
    bridges, and the cells under the joined bridges with their counts."""
    at = _links(solution)
    through = set()
    for cell, links in at.items():
        if len(links) == 2 and links[0][1] == links[1][1]:
            (a, _), (b, _) = links
            if (a[0] == b[0] == cell[0]) or (a[1] == b[1] == cell[1]):
                through.add(cell)
    ends = {cell: sum(k for _, k in links) for cell, links in at.items() if cell not in through}
    over: dict[Cell, int] = {}
    for drawn in solution.bridges:
        for cell in drawn.cells_between():
            over[cell] = drawn.count
    for cell in through:
        over[cell] = at[cell][0][1]
    if not ends:  # a cycle of straight runs cannot be: a rectangle has corners
        raise FixFault("internal error: a solution with no corner or end")
    return ends, over


def differing(solutions: list[Solution]) -> set[Cell]:
    """The cells where ``solutions`` differ: the ends of the bridges not all of them have, and
    the cells under those bridges."""
    first, *others = [set(s.bridges) for s in solutions]
    different = first.union(*others) - first.intersection(*others)
    return {c for b in different for c in (*b.ends, *b.cells_between())}
