"""Reasoning about all the solutions of a puzzle at once, for puzzle authors and players.

- :func:`hint`: the bridge counts each pair of islands takes across all solutions, so which
  bridges every solution has and where solutions differ; given a player's bridges, whether they
  can still be completed, what they force, or a minimal set of them no solution has together.
- :func:`explain`: why a puzzle has no solution: counting checks that need no search
  (:func:`necessary_checks`), then a minimal set of islands whose numbers cannot all be met.

Both ground the puzzle with the program and a helper encoding (``consequences.lp``,
``relax.lp``) and shrink unsatisfiable cores with :meth:`Grounded.minimal_core`; every solution
they return has passed the independent checker.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from .asp import interface
from .asp.control import Grounded, ground, within
from .asp.interface import InvalidAnswer, Program
from .asp.predicates import AT_LEAST, CONSEQUENCES_LP, GIVEN_PART, RELAX, RELAX_LP, STATE
from .checking import Violation
from .graphs import connected_groups
from .play import Play
from .puzzle import Bridge, Cell, Pair, Puzzle, Solution, bridge, cell_name
from .status import Stop, Verdict
from .stopping import Deadline, Stopped

if TYPE_CHECKING:
    import clingo

# ---------------------------------------------------------------------------- hint


@dataclass
class Hint:
    """What all the solutions (those that keep to a player's state ``given``, if any) have in
    common.

    ``options`` maps each pair of neighbouring islands to the bridge counts it has across those
    solutions (0 = no bridge), so a pair with one option is decided and one with several is
    where solutions differ.  ``status`` is ``unique`` (every pair decided), ``multiple``,
    ``unsolvable`` (no solution, or none keeps to ``given``) or ``unknown`` (the time limit
    came first; ``options`` then holds only what was seen, so a pair with two options is
    certainly undecided but one with a single option may not be).
    """

    status: Verdict
    options: dict[Pair, tuple[int, ...]]
    solution: Solution | None = None  # one of the solutions, checked
    given: Play | None = None
    illegal: list[Violation] = field(default_factory=list)  # given bridges that break the rules
    # The entries of ``given`` that no solution has together; empty: the puzzle has none.
    conflict: Play | None = None
    minimal: bool = False  # dropping any entry from ``conflict`` leaves a state some solution has
    complete: bool = False  # the bridges of ``given`` already solve the puzzle
    mistakes: Mistakes | None = None  # the entries of ``given`` no solution has, each on its own
    known: dict[Pair, tuple[int, ...]] = field(default_factory=dict)  # the counts ``given`` leaves
    explanation: Explanation | None = None  # why the puzzle itself has no solution (if asked)
    exhausted: bool = False
    stopped: Stop | None = None  # why the search ended early (the time limit, a signal)
    stats: dict = field(default_factory=dict)

    @property
    def timed_out(self) -> bool:
        return self.stopped is Stop.TIME

    @property
    def cautious(self) -> list[Bridge]:
        """Bridges every solution has: pairs decided with at least one bridge."""
        return [bridge(*pair, k) for pair, (k, *more) in self.options.items() if k and not more]

    @property
    def brave(self) -> list[Bridge]:
        """Bridges some solution has: every pair and count other than 0 in ``options``."""
        return [bridge(*pair, k) for pair, ks in self.options.items() for k in ks if k]

    @property
    def empty(self) -> list[Pair]:
        """Pairs of neighbours that no solution joins."""
        return [pair for pair, ks in self.options.items() if ks == (0,)]

    @property
    def undecided(self) -> dict[Pair, tuple[int, ...]]:
        """Pairs whose bridge count differs between solutions, with the counts they take."""
        return {pair: ks for pair, ks in self.options.items() if len(ks) > 1}

    @property
    def forced(self) -> list[Bridge]:
        """Bridges every solution has beyond ``given``: for each pair, the fewest bridges any
        solution has there, where that is more than the least ``given`` leaves it (exact
        unless undecided)."""
        have = {pair: ks[0] for pair, ks in self.known.items()}
        return [
            bridge(*pair, ks[0]) for pair, ks in self.options.items() if ks[0] > have.get(pair, 0)
        ]


@dataclass
class Mistakes:
    """The entries of a player's state that no solution of the puzzle has, each taken on its
    own: ``bridges`` drawn (no solution has that many bridges or more there) and pairs
    ``ruled_out`` (every solution joins them), in the order of the state, each proven by
    clingo (no solution with that entry).  ``solvable`` says whether the puzzle has a solution
    at all (None: not known); one without has every entry.  Unless ``exhausted``, the search
    was cut short (``stopped``: the time limit, a signal): those listed are proven, the
    entries after them were not asked about."""

    bridges: list[Bridge] = field(default_factory=list)
    ruled_out: list[Pair] = field(default_factory=list)
    exhausted: bool = True
    stopped: Stop | None = None
    solvable: bool | None = True  # whether the puzzle has a solution (None: not known)

    @property
    def timed_out(self) -> bool:
        return self.stopped is Stop.TIME

    def add(self, entry: Bridge | Pair) -> None:
        if isinstance(entry, Bridge):
            self.bridges.append(entry)
        else:
            self.ruled_out.append(entry)

    def to_json(self) -> dict:
        return {
            "bridges": [list(b) for b in self.bridges],
            "ruled_out": [[*a, *z] for a, z in self.ruled_out],
            "exhausted": self.exhausted,
            "solvable": self.solvable,
        }


def hint(
    puzzle: Puzzle,
    given: Play | Solution | None = None,
    *,
    program: Program = Program(),
    time_limit: float | Deadline | None = None,
    explained: bool = False,
) -> Hint:
    """The bridge counts each pair of neighbours has across all solutions (clingo's brave
    consequences over the pairs' states; the cautious ones follow), optionally only solutions
    that keep to ``given``, a player's state (:class:`~hashi_asp.play.Play`: bridges drawn,
    each a lower bound unless they solve the puzzle, pairs ruled out, counts narrowed; a
    :class:`Solution` is the bridges drawn).  If its bridges break a rule already, whatever
    is added (crossing, a loop where loops are not allowed, an island with more bridges than
    its number, a group closed off: :meth:`~hashi_asp.play.Play.broken`) the search is
    skipped and ``illegal`` lists why; if no solution keeps to it, ``conflict`` is a minimal
    part of it that no solution has together.  With ``given``, ``mistakes`` lists its
    entries that no solution has, each on its own (:func:`mistakes`).  With ``explained``,
    a puzzle that has no solution at all gets its :func:`explain` as ``explanation``.  A
    state the player's form refuses (:mod:`hashi_asp.play`) raises
    :class:`~hashi_asp.errors.PuzzleError`."""
    deadline = Deadline.of(time_limit)
    play = None if given is None else Play.of(given)
    found = _hint(puzzle, play, program, deadline)
    if play is not None:
        # A solution that keeps to the whole state has each of its entries.
        kept = found.solution is not None
        found.mistakes = Mistakes() if kept else mistakes(puzzle, play, program, deadline)
    if explained and found.status is Verdict.UNSOLVABLE and found.conflict == Play():
        found.explanation = explain(puzzle, program=program, time_limit=deadline)
    return found


def _hint(puzzle: Puzzle, given: Play | None, program: Program, deadline: Deadline) -> Hint:
    complete, known = False, {}
    if given is not None:  # the rules are the puzzle's: judged before any grounding
        known = given.counts(puzzle)
        illegal = given.broken(puzzle)  # the rules broken already: too few is no fault yet
        if illegal:
            return Hint(
                Verdict.UNSOLVABLE, {}, given=given, illegal=illegal, known=known, exhausted=True
            )
        complete = given.solves(puzzle)
    grounded, claims = _grounded_state(
        puzzle, given, program, deadline, known if complete else None, brave=True
    )
    if claims.impossible is not None:  # an entry the encoding has no atom for cannot hold
        return Hint(
            Verdict.UNSOLVABLE,
            {},
            given=given,
            conflict=claims.impossible,
            minimal=True,
            known=known,
            exhausted=True,
        )

    witness: list[Solution] = []
    union: list[clingo.Symbol] = []

    def accept(model: clingo.Model) -> None:
        if not witness:  # the first brave model is a whole answer set
            witness.append(grounded.solution(model, 1))
        union[:] = grounded.shown(model)

    assumed = list(claims.entry)
    outcome = grounded.search(accept, assumptions=[*assumed, *claims.fixed], deadline=deadline)
    options = interface.states(union)
    common: dict[str, Any] = {
        "given": given,
        "complete": complete,
        "known": known,
        "exhausted": outcome.exhausted,
        "stopped": outcome.stopped,
        "stats": grounded.statistics(outcome),
    }
    if witness and outcome.exhausted:
        several = any(len(ks) > 1 for ks in options.values())
        return Hint(Verdict.MULTIPLE if several else Verdict.UNIQUE, options, witness[0], **common)
    if witness or not outcome.exhausted:
        return Hint(Verdict.UNKNOWN, options, witness[0] if witness else None, **common)
    # No solution keeps to the given state: find a minimal part of it to blame.
    core = grounded.minimal_core(within(outcome.core, assumed), deadline, fixed=claims.fixed)
    if core.cut is not None:
        common.update(stopped=core.cut.stopped)
    return Hint(
        Verdict.UNSOLVABLE,
        {},
        conflict=claims.part(core.literals),
        minimal=core.minimal,
        **common,
    )


def _grounded_state(
    puzzle: Puzzle,
    given: Play | None,
    program: Program,
    deadline: Deadline,
    exact: dict[Pair, tuple[int, ...]] | None,
    *,
    brave: bool,
) -> tuple[Grounded, _Claims]:
    """The puzzle grounded with ``consequences.lp`` (and the part of a player's state, with
    one), and the state as assumptions on it (:class:`_Claims`; ``exact``: the counts of a
    complete drawing).  ``brave``: every search enumerates the brave consequences (a hint),
    else it looks for one answer (whether any solution keeps to the state)."""
    parts = [("base", ()), *([GIVEN_PART.of()] if given is not None else [])]
    grounded = ground(
        puzzle,
        program,
        extra=[CONSEQUENCES_LP],
        text=interface.pair_facts(puzzle),
        parts=parts,
        models=0 if brave else 1,
        brave=brave,
        deadline=deadline,
    )
    return grounded, _Claims(grounded, given, exact)


class _Claims:
    """A player's state as assumptions on the grounded program: each drawn bridge's "at least
    this many" atom, each ruled-out pair's "no bridge" state, each narrowed pair's states ruled
    out, as literals (``entry``: which entry of the state each stands for, ``("bridges", i)``
    ...); the counts of a complete drawing, held ``fixed`` (they are a valid solution, nothing
    to blame).  ``impossible``: an entry that needs an atom grounding left out (a count no
    solution can have there), alone, or None."""

    def __init__(
        self, grounded: Grounded, given: Play | None, exact: dict[Pair, tuple[int, ...]] | None
    ):
        self.given = given or Play()
        self.entry: dict[int, tuple[str, int]] = {}
        self.fixed: list[int] = []
        self.impossible: Play | None = None

        def state(pair: Pair, k: int) -> int | None:
            return grounded.literal(STATE.symbol(*pair[0], *pair[1], k))

        for i, drawn in enumerate(self.given.bridges):
            self._claim(grounded.literal(AT_LEAST.symbol(*drawn)), ("bridges", i))
        for i, pair in enumerate(self.given.ruled_out):
            self._claim(state(pair, 0), ("ruled_out", i))
        top = grounded.puzzle.rules.max_bridges
        for i, (pair, ks) in enumerate(self.given.narrowed):
            for k in set(range(top + 1)) - set(ks):
                literal = state(pair, k)
                if literal is not None:
                    self._claim(-literal, ("narrowed", i))
        for pair, (k,) in (exact or {}).items():
            ruled = (state(pair, j) for j in range(top + 1) if j != k)
            self.fixed += [-literal for literal in ruled if literal is not None]

    def _claim(self, literal: int | None, entry: tuple[str, int]) -> None:
        if literal is None:
            if self.impossible is None:
                self.impossible = self.part([], [entry])
        else:
            self.entry.setdefault(literal, entry)

    def part(self, literals: list[int], entries: Iterable[tuple[str, int]] = ()) -> Play:
        """The entries of the state that ``literals`` (and ``entries``) stand for, as a state."""
        chosen = {*entries, *(self.entry[literal] for literal in literals)}
        given = self.given

        def kept(key: str, values: tuple) -> tuple:
            return tuple(value for i, value in enumerate(values) if (key, i) in chosen)

        return Play(
            kept("bridges", given.bridges),
            kept("ruled_out", given.ruled_out),
            kept("narrowed", given.narrowed),
        )


# ---------------------------------------------------------------------------- agreement


@dataclass
class Agreement:
    """Whether some solution of a puzzle keeps to a player's state: ``agrees`` (None: the
    deadline or a signal came first, ``stopped`` says which).  ``solution`` is a solution that
    keeps to the state when it agrees, else one of the puzzle that does not (None: the puzzle
    has none, ``solvable`` False; a state of a puzzle without a solution agrees with none, and
    is no mistake of the player's).  Every solution here has passed the independent checker
    and was read against the state."""

    agrees: bool | None
    solution: Solution | None = None
    solvable: bool | None = None
    stopped: Stop | None = None

    @property
    def mistaken(self) -> bool:
        """The state agrees with no solution of a puzzle that has one: what a player got
        wrong."""
        return self.agrees is False and self.solvable is True


def agreement(
    puzzle: Puzzle,
    given: Play | Solution,
    *,
    program: Program = Program(),
    time_limit: float | Deadline | None = None,
) -> Agreement:
    """Whether some solution of ``puzzle`` keeps to ``given`` (a player's state, read as
    :func:`hint` reads it: bridges drawn as lower bounds, pairs ruled out as none, counts
    narrowed; a complete drawing exactly): a drawing that breaks a rule on its own agrees with
    none, a complete drawing with itself; else one search for one answer under the state, the
    grounding and claims of :func:`hint`.  Only when none keeps to it, one search without the
    state says whether the puzzle has a solution at all.  A state the player's form refuses
    raises :class:`~hashi_asp.errors.PuzzleError`."""
    deadline = Deadline.of(time_limit)
    play = Play.of(given)
    known = play.counts(puzzle)
    if play.solves(puzzle):
        return Agreement(True, play.drawn, True)
    illegal = play.broken(puzzle)  # (the rules broken already, as hint reads them)
    try:
        grounded, claims = _grounded_state(puzzle, play, program, deadline, None, brave=False)
    except Stopped as stop:
        return Agreement(None, stopped=stop.why)
    found: list[Solution] = []

    def keep(model: clingo.Model) -> bool:
        found.append(grounded.solution(model, 1))
        return False

    if not illegal and claims.impossible is None:
        outcome = grounded.search(keep, assumptions=list(claims.entry), deadline=deadline)
        if outcome.cut_short:
            return Agreement(None, stopped=outcome.stopped)
        if found:
            _read_against(found[0], known, True)
            return Agreement(True, found[0], True)
    outcome = grounded.search(keep, deadline=deadline)  # any solution at all
    if outcome.cut_short:
        return Agreement(False, stopped=outcome.stopped)
    if found:
        _read_against(found[0], known, False)
    return Agreement(False, found[0] if found else None, bool(found))


def _read_against(solution: Solution, known: dict[Pair, tuple[int, ...]], keeps: bool) -> None:
    """A fault unless ``solution`` keeps to the counts of a state (``keeps``) or does not: the
    search's answer read against the state, as every answer is checked before it is used."""
    counts = solution.counts()
    kept = all(counts.get(pair, 0) in ks for pair, ks in known.items())
    if kept != keeps:
        said = "breaks" if keeps else "keeps to"
        raise InvalidAnswer(1, [Violation("given", f"the answer {said} the player's state")])


# ---------------------------------------------------------------------------- mistakes


def mistakes(
    puzzle: Puzzle,
    given: Play | Solution,
    program: Program = Program(),
    time_limit: float | Deadline | None = None,
) -> Mistakes:
    """The bridges drawn and the pairs ruled out in ``given`` that no solution of ``puzzle``
    has, each taken on its own (:class:`Mistakes`): the question a player asks when stuck, is
    it me or the puzzle.  One search for any solution, then one per entry that no solution
    seen so far has: with that entry assumed ("at least k bridges there", "no bridge there"),
    none means a mistake, proven."""
    deadline = Deadline.of(time_limit)
    play = Play.of(given)
    play.counts(puzzle)  # a state the form refuses raises here
    claims: list[tuple[Bridge | Pair, clingo.Symbol]] = [
        *((b, AT_LEAST.symbol(*b)) for b in play.bridges),
        *((pair, STATE.symbol(*pair[0], *pair[1], 0)) for pair in play.ruled_out),
    ]
    found = Mistakes(solvable=None)
    try:
        grounded = ground(
            puzzle,
            program,
            extra=[CONSEQUENCES_LP],
            text=interface.pair_facts(puzzle),
            parts=[("base", ()), GIVEN_PART.of()],
            deadline=deadline,
        )
    except Stopped as stop:
        return Mistakes(exhausted=False, stopped=stop.why, solvable=None)
    seen: dict[Pair, set[int]] = {}

    def record(model: clingo.Model) -> bool:
        grounded.solution(model, 1)  # a solution, by the independent checker
        for pair, ks in interface.states(grounded.shown(model)).items():
            seen.setdefault(pair, set()).update(ks)
        return False

    def agreed(claim: Bridge | Pair) -> bool:
        if isinstance(claim, Bridge):
            return any(k >= claim.count for k in seen.get(claim.ends, ()))
        return 0 in seen.get(claim, ())

    solvable = grounded.search(record, deadline=deadline)
    if solvable.cut_short:
        return Mistakes(exhausted=False, stopped=solvable.stopped, solvable=None)
    found.solvable = not solvable.exhausted
    for claim, symbol in claims:
        literal = None if solvable.exhausted else grounded.literal(symbol)
        if literal is not None and not agreed(claim):
            asked = grounded.search(record, assumptions=[literal], deadline=deadline)
            if asked.cut_short:
                return replace(found, exhausted=False, stopped=asked.stopped)
        if literal is not None and agreed(claim):
            continue  # a solution has it
        found.add(claim)  # no solution at all, no atom for it, or none under it
    return found


# ---------------------------------------------------------------------------- explanations


@dataclass
class Explanation:
    """Why a puzzle has no solution.

    ``checks`` are counting conditions every solvable puzzle meets that this one fails (found
    without search).  ``core`` is a set of islands whose numbers cannot all be met together,
    whatever the other islands' numbers: ``[]`` when even with every number ignored no set of
    bridges connects the islands, ``None`` when not found (solvable, or out of time).  It is
    ``minimal`` when dropping any one island from it leaves numbers that can be met.
    ``solvable`` is False when proven unsolvable, True when a solution exists after all, None
    when the time limit came first.
    """

    solvable: bool | None
    checks: list[Violation] = field(default_factory=list)
    core: list[Cell] | None = None
    minimal: bool = False
    stopped: Stop | None = None  # why the search ended early (the time limit, a signal)

    @property
    def timed_out(self) -> bool:
        return self.stopped is Stop.TIME


def explain(
    puzzle: Puzzle, *, program: Program = Program(), time_limit: float | Deadline | None = None
) -> Explanation:
    """Why ``puzzle`` has no solution: :func:`necessary_checks`, then a minimal set of islands
    whose numbers cannot all be met together.

    ``relax.lp`` makes the encoding's hook ``relax(R,C)``, which switches off the number of
    island (R,C), an external atom for every island; each is assumed false, clingo's unsat core
    names the islands whose numbers it needed, and deletion shrinks that to a minimal set (one
    search per island in it, each with the other numbers free).  ``time_limit`` bounds the
    searches together."""
    deadline = Deadline.of(time_limit)
    checks = necessary_checks(puzzle)
    try:
        grounded = ground(puzzle, program, extra=[RELAX_LP], deadline=deadline)
    except Stopped as stop:  # the checks are an explanation of their own
        return Explanation(None, checks, stopped=stop.why)
    numbers = {}  # "island (R,C) keeps its number" -> (R,C)
    for symbol, literal in grounded.atoms(*RELAX.signature):
        grounded.switch(symbol, None)  # free (number ignored) unless assumed
        r, c = RELAX.numbers(symbol)
        numbers[-literal] = (r, c)
    outcome = grounded.attempt(list(numbers), deadline)
    if not outcome.exhausted:
        solvable = None if outcome.cut_short else True
        return Explanation(solvable, checks, stopped=outcome.stopped)
    core = grounded.minimal_core(within(outcome.core, list(numbers)), deadline)
    return Explanation(
        False,
        checks,
        sorted(numbers[literal] for literal in core.literals),
        core.minimal,
        stopped=core.cut.stopped if core.cut is not None else None,
    )


def necessary_checks(puzzle: Puzzle) -> list[Violation]:
    """Counting conditions every solvable puzzle meets, checked without search.  Each failure is
    a :class:`~hashi_asp.checking.Violation` naming the islands involved.  Passing them all
    proves nothing."""
    islands = puzzle.islands
    max_bridges = puzzle.rules.max_bridges
    sight = {cell: puzzle.geometry.neighbours(cell) for cell in islands}
    # An island without a number (None, in variants) needs at least one bridge.
    numbered = {cell: n for cell, n in islands.items() if n is not None}
    failed = []
    total = sum(numbered.values())
    if total % 2 and len(numbered) == len(islands):
        failed.append(
            Violation(
                "odd-total",
                f"the island numbers add up to {total}, an odd "
                "number, but every bridge adds 2 to the total",
            )
        )
    for cell in islands:
        if not sight[cell]:
            failed.append(
                Violation(
                    "no-neighbour",
                    f"island {cell_name(cell)} needs "
                    f"{numbered.get(cell, 'at least 1')} bridge(s) but no other "
                    "island lies in its row or column",
                    (cell,),
                )
            )
    for cell, number in numbered.items():
        # A neighbour takes at most max_bridges from it, and no more than its own number.
        room = sum(min(max_bridges, numbered.get(other, max_bridges)) for other in sight[cell])
        if sight[cell] and number > room:
            failed.append(
                Violation(
                    "too-few-neighbours",
                    f"island {cell_name(cell)} needs {number} "
                    f"bridges but its {len(sight[cell])} neighbour(s) can take at "
                    f"most {room}: "
                    + ", ".join(f"{cell_name(o)} {islands[o] or '?'}" for o in sight[cell]),
                    (cell, *sight[cell]),
                )
            )
    if len(islands) > 2:
        for cell, number in numbered.items():
            # Its only neighbour takes all its bridges; with the same number, that neighbour has
            # none left for anyone else, and the two are cut off.
            other = sight[cell][0] if len(sight[cell]) == 1 else None
            if (
                other is not None
                and numbered.get(other) == number <= max_bridges
                and not (sight[other] == [cell] and other < cell)
            ):  # name a pair once
                failed.append(
                    Violation(
                        "closed-pair",
                        f"islands {cell_name(cell)} and "
                        f"{cell_name(other)} would be cut off from the rest: "
                        f"{cell_name(other)} is the only neighbour of "
                        f"{cell_name(cell)}, so it takes all {number} of its "
                        f"bridges, and needs exactly {number}",
                        (cell, other),
                    )
                )
    groups = connected_groups(sight, sight.__getitem__)
    if len(groups) > 1:
        smallest = min(groups, key=len)
        failed.append(
            Violation(
                "separated",
                f"the islands fall into {len(groups)} groups that "
                "no bridge can join; the smallest: " + ", ".join(map(cell_name, smallest)),
                tuple(smallest),
            )
        )
    return failed
