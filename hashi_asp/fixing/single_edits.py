"""The single-edit prover: every single edit free mode allows, tried on one grounding.

Free mode's loop proves that no single edit leaves a puzzle with one solution too, but mostly
slower: so :func:`single_edit` tries them all in a thread beside it (see
:func:`hashi_asp.fixing.fix`), on a geometry of its own (``encodings/single_edit.lp``: the
pairs of the puzzle and those a single edit makes, each edit a switch).  Its answer is a fix of
one edit, which ends the loop, or the proof that none exists, which raises the loop's lower
bound to 2; :func:`single_fix` and :func:`proven_bound` read it for the others.

Many edits are ruled out without a search: a number above what the island's neighbours can give,
and an edit under which two known solutions stay solutions (their merged forms,
:func:`~hashi_asp.fixing.edits.merged`, still fit the edited puzzle).
"""

from __future__ import annotations

import itertools
from concurrent.futures import Future

from ..asp import PLAIN, predicates
from ..asp.control import ground
from ..asp.interface import Program, encoding_path
from ..puzzle import Cell, Puzzle, Solution
from ..stopping import Deadline, Stopped
from .edits import differing, edited, merged
from .results import Edit, FixFault, FoundFix, only_solution

SINGLE_EDIT_ENCODING = predicates.SINGLE_EDIT_LP
AT_ONCE = 2  # solutions per number a search of every new number at a cell may find


def single_edit(
    puzzle: Puzzle,
    solutions: list[Solution],
    deadline: Deadline,
    offered: list[Edit] | None = None,
) -> FoundFix | None:
    """Every single edit free mode allows, tried nearest the pairs where the first two
    solutions differ first: a fix of one edit, or None, the proof that no single edit leaves
    one solution.  An edit under which two known solutions stay solutions (merged: see
    :func:`merged`) is ruled out without a search, and so is a number above what the island's
    neighbours can give; the others are asked on one control (:class:`SingleEdits`), each
    edited puzzle searched for two solutions.  ``offered``: only these edits, in this order
    (the puzzle may then have no solution: ``solutions`` empty)."""
    doing = "trying single edits"
    known = []
    for solution in deadline.looking(solutions, doing, every=1):
        ends, over = merged(solution)
        known.append((ends, over, _wrong(puzzle, ends, over)))
    tried = offered if offered is not None else _free_edits(puzzle, solutions[:2], deadline)
    edits = [
        edit
        for edit in deadline.looking(tried, doing)
        if sum(_stays(*one, edit) for one in known) <= 1
    ]
    if not edits:
        return None
    trials = SingleEdits(puzzle, edits, deadline)
    for edit in edits:
        found = trials.solutions(edit)
        if found == 1:
            fixed = edited(puzzle, [edit])
            only = only_solution(fixed, deadline)
            if only is None:
                raise FixFault("internal error: a fresh solve disagrees about a single edit")
            return FoundFix((edit,), fixed, only)
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
            found, all_there_are = self.grounded.models(assumed, AT_ONCE * len(left), self.deadline)
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
        return self.grounded.count([literal], 2, self.deadline)


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
    most bridges times the islands it sees) and that keeps the numbers' sum even (see
    :func:`keeps_parity`), nearest the bridges where ``solutions`` differ first."""
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
    if None not in islands.values():
        edits = [edit for edit in edits if keeps_parity(edit)]
    near = differing(solutions)
    if not near:
        return edits
    distance = {
        cell: min(abs(cell[0] - r) + abs(cell[1] - c) for r, c in near)
        for cell in deadline.looking(dict.fromkeys(e.cell for e in edits), "trying single edits")
    }
    return sorted(edits, key=lambda e: distance[e.cell])


def keeps_parity(edit: Edit) -> bool:
    """The edit changes the sum of the numbers by an even amount.  Every bridge adds one line
    to each of its two ends, so in a puzzle whose islands all have numbers the sum of the
    numbers is twice the lines of any solution: an edit that makes it odd leaves no solution,
    which clingo proves only slowly (parity is hard for its learning)."""
    change = (edit.new or 0) - (edit.old or 0)
    return change % 2 == 0


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


# ---------------------------------------------------------------------------- its answer, read


def single_fix(single: Future) -> FoundFix | None:
    """The single edits' fix of one edit, if they found one."""
    return single.result() if _through(single) else None


def proven_bound(single: Future, lower: int) -> int:
    """The lower bound once the single edits are through: 2 if they proved none will do."""
    if _through(single) and single.result() is None:
        return max(lower, 2)
    return lower


def _through(single: Future) -> bool:
    """The single edits ended with an answer (not cut short by the time); an internal error
    there is raised here."""
    if not single.done():
        return False
    error = single.exception()
    if error is not None and not isinstance(error, Stopped):
        raise error
    return error is None
