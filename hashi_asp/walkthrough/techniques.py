"""The technique catalogue: every kind of step a walkthrough takes, each one unit (its name,
its level, the pass that finds it, how it is told from the others of its pass, its sentence),
in the order of the effort a person spends on it.

The order follows Simon Tatham's solver (bridges.c), whose levels the difficulty is calibrated
against: first arithmetic on one island (his stage 1: a finished island, one that needs every
bridge it can get, a number that caps a pair, one bridge each way), then one connection at a
time (his stage 2: no bridge that would close a loop, where loops are not allowed; at least
one bridge here, because the other neighbours cannot give enough),
then the other things one island forces and what two islands force together, and only when
none of that applies the groups of islands (his stage 3: all islands must be connected), then
reasons of three islands (expert), and last a step that clingo finds on the whole board.  The
finder runs the passes of :func:`passes` in this order and takes the first step found, so the
walkthrough shown is a person's, and the difficulty rates the same walkthrough by the levels of
its steps.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING

from ..puzzle import cell_name, plural
from .board import Found, values
from .board import low as _low

if TYPE_CHECKING:
    from .board import Board

LEVELS = ("easy", "medium", "hard", "expert")
"""The levels of techniques, easiest first (the bands of :mod:`hashi_asp.difficulty`)."""


# ---------------------------------------------------------------------------- reading a step


@dataclass(frozen=True)
class Words:
    """What a sentence says about a step: its islands, pair and counts, in words."""

    board: Board
    found: Found

    def island(self, i: int) -> str:
        """``the 3 at (2, 0)``, or ``the island at (2, 0)`` for an island without a number."""
        n, cell = self.board.number[i], cell_name(self.board.cells[i])
        return f"the {n} at {cell}" if n is not None else f"the island at {cell}"

    @property
    def only(self) -> str:
        """The one island of the reason."""
        return self.island(self.found.reason[0])

    @property
    def islands(self) -> str:
        """The islands of the reason, listed."""
        return _listing([self.island(i) for i in self.found.reason])

    @property
    def at_island(self) -> bool:
        """The pair is at the one island of the reason.  Not always so: clingo makes a reason
        minimal (:meth:`.checker.Checker.confirm`), and may keep of two islands the one away
        from the pair."""
        return self.found.reason[0] in self.board.ends[self.found.pair]

    @property
    def across_island(self) -> bool:
        """The pair crosses a pair at the one island of the reason."""
        crossing = self.board.crossing[self.found.pair]
        return any(q in crossing for q in self.board.at[self.found.reason[0]])

    @property
    def other(self) -> str:
        """The pair's other end, seen from the one island of the reason (which must be one of
        its ends: a sentence says "to" only then)."""
        a, z = self.board.ends[self.found.pair]
        island = self.found.reason[0]
        if island not in (a, z):
            raise AssertionError("a bridge 'to' a cell from an island away from the pair")
        return cell_name(self.board.cells[z if a == island else a])

    def ends(self, p: int | None = None) -> tuple[str, str]:
        a, z = self.board.ends[self.found.pair if p is None else p]
        return cell_name(self.board.cells[a]), cell_name(self.board.cells[z])

    def between(self, p: int | None = None) -> str:
        a, z = self.ends(p)
        return f"between {a} and {z}"

    @property
    def what(self) -> str:
        """The counts the step leaves, in words (``a double bridge``)."""
        return _say(self.found.new, self.board.puzzle.rules.max_bridges)

    @property
    def missing(self) -> int:
        """What the one island of the reason still needs beyond its certain bridges."""
        i = self.found.reason[0]
        return (self.board.number[i] or 0) - sum(
            _low(self.board.domain[q]) for q in self.board.at[i]
        )

    @property
    def neighbours_left(self) -> int:
        """The neighbours the one island of the reason can still get a bridge from."""
        return sum(1 for q in self.board.at[self.found.reason[0]] if self.board.domain[q] > 1)

    @property
    def certain_crossing(self) -> int:
        """A certain bridge the pair would cross."""
        return next(q for q in self.board.crossing[self.found.pair] if self.board.present(q))


@dataclass(frozen=True)
class Counts:
    """A step of one island, as Simon Tatham's solver counts: the island's number, the pair's
    counts before and after, what the island still misses beyond its certain bridges, and the
    room each of its pairs has for that."""

    number: int | None
    at_island: bool
    low: int
    high: int
    new_low: int
    new_high: int
    missing: int
    room: dict[int, int]
    joinable: int
    contiguous: bool
    top: int
    new: int
    pair: int


def counts(board: Board, found: Found) -> Counts:
    (island,) = found.reason
    pairs = board.at[island]
    before = board.domain[found.pair]
    low, high = _low(before), before.bit_length() - 1
    new_low, new_high = _low(found.new), found.new.bit_length() - 1
    number = board.number[island]
    missing = (number or 0) - sum(_low(board.domain[q]) for q in pairs)
    room = {
        q: min(board.domain[q].bit_length() - 1 - _low(board.domain[q]), missing) for q in pairs
    }
    contiguous = found.new == ((1 << (new_high + 1)) - 1) & ~((1 << new_low) - 1) & before
    return Counts(
        number=number,
        at_island=found.pair in pairs,
        low=low,
        high=high,
        new_low=new_low,
        new_high=new_high,
        missing=missing,
        room=room,
        joinable=sum(1 for q in pairs if board.domain[q] > 1),
        contiguous=contiguous,
        top=board.puzzle.rules.max_bridges,
        new=found.new,
        pair=found.pair,
    )


def _numbered(c: Counts) -> bool:
    return c.at_island and c.number is not None


# ---------------------------------------------------------------------------- the catalogue


@dataclass(frozen=True)
class Technique:
    """One kind of step.  ``islands`` and ``connectivity`` name the pass that finds it (the
    size of the reason it reads, None for clingo on the whole board; whether it may use "all
    islands are connected"); ``kind`` is what a pass of no island marks its steps with;
    ``applies`` tells a step of one island from the others of its pass (by its
    :class:`Counts`); ``says`` is its sentence, ``reason`` and ``example`` what the docs show."""

    name: str
    level: str
    islands: int | None
    connectivity: bool
    reason: str
    says: Callable[[Words], str]
    example: str
    applies: Callable[[Counts], bool] | None = None
    kind: str = ""


def _one_neighbour_or_every_bridge(w: Words) -> str:
    if w.neighbours_left == 1:
        return f"{w.only} has one neighbour left: {w.what} to {w.other}"
    return f"{w.only} needs every bridge it can still get: {w.what} to {w.other}"


def _crossed(w: Words) -> str:
    if w.across_island:
        return (
            f"{w.only} gets its number only with a bridge across the pair {w.between()}: "
            f"{w.what} there"
        )
    return f"{w.only} forces {w.what} {w.between()}"


def _isolation(w: Words) -> str:
    if w.at_island:
        return f"{w.only} needs {w.what} to {w.other}: {CLOSED_OFF} {CONNECTED}"
    return f"{w.only} forces {w.what} {w.between()}: {CLOSED_OFF} {CONNECTED}"


CONNECTED = "(all islands must be connected)"
CLOSED_OFF = "anything else closes a group off from the other islands"

CATALOGUE: tuple[Technique, ...] = (
    # Stage 1 of Tatham's solver: what the rules and one island's arithmetic show at once.
    Technique(
        "crossing", "easy", 0, False, "none",
        lambda w: f"a bridge {w.between()} would cross the certain bridge "
        f"{w.between(w.certain_crossing)}: {w.what} there",
        "a bridge between (4, 3) and (8, 3) would cross the certain bridge between (5, 2) and "
        "(5, 6): no bridge there",
        kind="crossing",
    ),
    Technique(
        "rules", "easy", 0, False, "none",
        lambda w: f"the bridges already certain leave {w.what} {w.between()}",
        "the bridges already certain leave no bridge between (r, c) and (r, c)",
        kind="rules",
    ),
    Technique(
        "complete", "easy", 1, False, "1 island",
        lambda w: f"{w.only} already has all its bridges: {w.what} to {w.other}"
        + (", no more" if w.found.new > 1 else ""),
        "the 3 at (2, 0) already has all its bridges: no bridge to (4, 0)",
        applies=lambda c: _numbered(c) and c.missing == 0 and c.new == 1 << c.low,
    ),
    Technique(
        "all-bridges", "easy", 1, False, "1 island",
        _one_neighbour_or_every_bridge,
        "the 2 at (1, 1) has one neighbour left: a double bridge to (1, 3)",
        applies=lambda c: _numbered(c)
        and c.new == 1 << (c.low + c.room[c.pair])
        and c.missing == sum(c.room.values()),
    ),
    Technique(
        "low-number", "easy", 1, False, "1 island",
        lambda w: f"{w.only} needs only {plural(w.board.number[w.found.reason[0]] or 0, 'bridge')}"
        f": {w.what} to {w.other}",
        "the 1 at (4, 5) needs only 1 bridge: at most one bridge to (4, 3)",
        applies=lambda c: _numbered(c)
        and c.contiguous
        and c.new_low == c.low
        and c.new_high == c.number,
    ),
    Technique(
        "one-each-way", "easy", 1, False, "1 island",
        lambda w: f"{w.only} needs more than its other neighbours can give: {w.what} to "
        f"{w.other}",
        "the 5 at (1, 3) needs more than its other neighbours can give: at least one bridge to "
        "(1, 6)",
        applies=lambda c: _numbered(c)
        and c.contiguous
        and c.new_high == c.high
        and c.low == 0
        and c.new_low == 1
        and (c.number or 0) > (c.joinable - 1) * c.top,
    ),
    # Stage 2: one connection at a time (a loop it would close, at least one bridge here).
    Technique(
        "loop", "medium", 0, False, "none (no-loops puzzles)",
        lambda w: "{} and {} are already joined, and loops are not allowed: {} between "
        "them".format(*w.ends(), w.what),
        "(2, 4) and (2, 6) are already joined, and loops are not allowed: no bridge between them",
        kind="loop",
    ),
    Technique(
        "at-least", "medium", 1, False, "1 island",
        lambda w: f"{w.only} cannot get enough from its other neighbours: {w.what} to "
        f"{w.other}",
        "the 4 at (0, 2) cannot get enough from its other neighbours: at least one bridge to (0, "
        "0)",
        applies=lambda c: c.at_island
        and (c.number is None or (c.contiguous and c.new_high == c.high)),
    ),
    # The rest of what one island forces, which Tatham's solver leaves to its hard level.
    Technique(
        "at-most", "hard", 1, False, "1 island",
        lambda w: f"{w.only} needs only {plural(w.missing, 'more bridge')}: {w.what} to "
        f"{w.other}",
        "the 2 at (0, 3) needs only 1 more bridge: at most one bridge to (0, 0)",
        applies=lambda c: _numbered(c) and c.contiguous and c.new_low == c.low,
    ),
    Technique(
        "count", "hard", 1, False, "1 island",
        lambda w: f"{w.only} can take only {w.what} to {w.other}",
        "the 5 at (0, 3) can take only 1 to 2 bridges to (0, 5)",
        applies=lambda c: c.at_island,
    ),
    Technique(
        "crossed", "hard", 1, False, "1 island",
        _crossed,
        "the N at (r, c) gets its number only with a bridge across the pair between (r, c) and "
        "(r, c): no bridge there",
        applies=lambda c: not c.at_island,
    ),
    # Two islands read together, without connectivity.
    Technique(
        "combined", "hard", 2, False, "2 islands",
        lambda w: f"{w.islands}, taken together, force {w.what} {w.between()}",
        "the 7 at (6, 7) and the 1 at (7, 8), taken together, force no bridge or a double one "
        "between (6, 7) and (6, 9)",
    ),
    # Stage 3: groups of islands, only when no reason without connectivity of up to two
    # islands applies.
    Technique(
        "only-link", "hard", 0, True, "none, connectivity",
        lambda w: "{} and {} are the only link left between two parts of the puzzle, and all "
        "islands must be connected: {} between them".format(*w.ends(), w.what),
        "(5, 6) and (5, 11) are the only link left between two parts of the puzzle, and all "
        "islands must be connected: a single bridge between them",
        kind="only-link",
    ),
    Technique(
        "connected", "hard", 0, True, "none, connectivity",
        lambda w: f"all islands must be connected, and the bridges already certain leave "
        f"{w.what} {w.between()} for that",
        "all islands must be connected, and the bridges already certain leave a single bridge "
        "between (1, 6) and (1, 8) for that",
        kind="connected",
    ),
    Technique(
        "isolation", "hard", 1, True, "1 island, connectivity",
        _isolation,
        "the 1 at (6, 3) needs a single bridge to (4, 3): anything else closes a group off from "
        "the other islands (all islands must be connected)",
    ),
    Technique(
        "group-isolation", "hard", 2, True, "2 islands, connectivity",
        lambda w: f"{w.islands}, taken together, force {w.what} {w.between()}: {CLOSED_OFF} "
        f"{CONNECTED}",
        "the 3 at (3, 7) and the 2 at (6, 7), taken together, force no bridge between (0, 3) and "
        "(4, 3): anything else closes a group off from the other islands (all islands must be "
        "connected)",
    ),
    Technique(
        "three-islands", "expert", 3, False, "3 islands",
        lambda w: f"{w.islands}, taken together, force {w.what} {w.between()}",
        "the 3 at (2, 3), the 1 at (2, 5) and the 2 at (4, 5), taken together, force a single "
        "bridge between (4, 5) and (6, 5)",
    ),
    Technique(
        "three-isolation", "expert", 3, True, "3 islands, connectivity",
        lambda w: f"{w.islands}, taken together, force {w.what} {w.between()}: {CLOSED_OFF} "
        f"{CONNECTED}",
        "the 2 at (0, 4), the 3 at (2, 4) and the 2 at (2, 8), taken together, force at least "
        "one bridge between (2, 2) and (2, 4): anything else closes a group off from the other "
        "islands (all islands must be connected)",
    ),
    # No chain of small reasons shows the next step: clingo on the whole board.
    Technique(
        "deeper", "expert", None, True, "any number of islands, found by clingo",
        lambda w: f"{w.islands}, taken together, force {w.what} {w.between()}: no solution "
        "has anything else there"
        + (f" {CONNECTED}" if w.found.connectivity else ""),
        "the 5 at (12, 19), the 4 at (12, 20), the 6 at (12, 26) and the 5 at (13, 19), taken "
        "together, force no bridge between (12, 19) and (12, 20): no solution has anything else "
        "there",
        kind="deeper",
    ),
)  # fmt: skip

CONTRADICTION = Technique(
    "contradiction", "", None, False, "any",
    lambda w: _contradiction(w),
    "the 2 at (0, 2) cannot get its number: no solution from here",
)  # fmt: skip
"""A step that leaves a pair no count: found by any pass, at that pass's level."""

BY_NAME = {technique.name: technique for technique in (*CATALOGUE, CONTRADICTION)}


@dataclass(frozen=True)
class Pass:
    """One pass of the finder: reasons of ``islands`` islands (None: clingo on the whole board),
    with or without connectivity, keeping steps of the techniques ``names`` (all of one
    ``level``; contradictions are always kept)."""

    islands: int | None
    connectivity: bool
    level: str
    names: frozenset[str]


@cache
def passes() -> tuple[Pass, ...]:
    """The finder's passes, in the catalogue's order: consecutive techniques found the same way
    and of the same level share a pass."""
    found: list[Pass] = []
    for t in CATALOGUE:
        last = found[-1] if found else None
        if last is not None and (last.islands, last.connectivity, last.level) == (
            t.islands,
            t.connectivity,
            t.level,
        ):
            found[-1] = replace(last, names=last.names | {t.name})
        else:
            found.append(Pass(t.islands, t.connectivity, t.level, frozenset({t.name})))
    return tuple(found)


def at_level(found: Found, level: str) -> Found:
    """The step as found by a pass of ``level``."""
    return replace(found, level=level)


def classify(board: Board, found: Found) -> Technique:
    """The technique of a step: the first of the catalogue found the way the step was (its
    kind, or the size of its reason and connectivity) that applies to it."""
    if not found.new:
        return CONTRADICTION
    if found.kind:
        return BY_NAME[found.kind]
    size = len(found.reason)
    reading = counts(board, found) if size == 1 and not found.connectivity else None
    for technique in CATALOGUE:
        if technique.kind or technique.islands != size:
            continue
        if technique.connectivity != found.connectivity:
            continue
        if technique.applies is None or (reading is not None and technique.applies(reading)):
            return technique
    raise AssertionError(f"no technique for a step of {size} islands")  # pragma: no cover


def sentence(board: Board, found: Found) -> tuple[str, str, str]:
    """The technique, level and sentence of a step, said to a player (before it is applied)."""
    technique = classify(board, found)
    return technique.name, technique.level or found.level, technique.says(Words(board, found))


# ---------------------------------------------------------------------------- words


def _contradiction(w: Words) -> str:
    found, board = w.found, w.board
    if found.kind == "crossing":
        return (
            f"the bridges {w.between()} and {w.between(w.certain_crossing)} would cross: "
            "no solution from here"
        )
    if found.kind == "loop":
        return "the certain bridges close a loop, and loops are not allowed: no solution from here"
    if found.kind == "closed":
        return (
            "some islands form a group with no way left to the others, and all islands must be "
            "connected: no solution from here"
        )
    del board
    connected = ", with all islands connected," if found.connectivity else ""
    cannot = "cannot get its number" if len(found.reason) == 1 else "cannot all get their numbers"
    return f"{w.islands} {cannot}{connected}: no solution from here"


def _say(mask: int, top: int) -> str:
    """Bridge counts in words: "no bridge", "a double bridge", "at least one bridge"..."""
    counted = values(mask)
    words = {0: "no bridge", 1: "a single bridge", 2: "a double bridge"}
    if len(counted) == 1:
        return words.get(counted[0], f"{counted[0]} bridges")
    low, high = counted[0], counted[-1]
    if counted == tuple(range(low, high + 1)):
        if low == 0:
            return "at most one bridge" if high == 1 else f"at most {high} bridges"
        if high == top:
            return "at least one bridge" if low == 1 else f"at least {low} bridges"
        return f"{low} to {high} bridges"
    if counted == (0, 2):
        return "no bridge or a double one"
    *most, last = counted
    return ", ".join(map(str, most)) + f" or {last} bridges"


def _listing(items: list[str]) -> str:
    if not items:
        return "the rules alone"
    *most, last = items
    return f"{', '.join(most)} and {last}" if most else last
