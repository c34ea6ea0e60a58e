"""The technique catalogue: every kind of step a walkthrough takes, each one unit that says all
the code asks of it (its name, its level, how its steps are found, how a step of it is told from
the others found the same way, its sentence, what the docs show of it), in the order of the
effort a person spends on it.

The order follows Simon Tatham's solver (bridges.c), whose levels the difficulty is calibrated
against: first arithmetic on one island (his stage 1: a finished island, one that needs every
bridge it can get, a number that caps a pair, one bridge each way), then one connection at a
time (his stage 2: no bridge that would close a loop, where loops are not allowed; at least
one bridge here, because the other neighbours cannot give enough),
then the other things one island forces and what two islands force together, and only when
none of that applies the groups of islands (his stage 3: all islands must be connected), then
reasons of three islands (expert), and last a step that clingo finds on the whole board.  The
finder runs the stages of :func:`stages` in this order and takes the first step found, so the
walkthrough shown is a person's, and the difficulty rates the same walkthrough by the levels of
its steps.

A technique is added by an entry in :data:`CATALOGUE` (:func:`register` at run time) and its
row in docs/walkthroughs.md (:func:`table`): the finder, the checker, the sentences, the levels
and the reader of sentences all ask the catalogue.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum
from functools import cache
from typing import TYPE_CHECKING

from ..graphs import connected_groups, cut_edges
from ..puzzle import plural
from .board import Found
from .words import Counts, Words, counts

if TYPE_CHECKING:
    from .board import Board

LEVELS = ("easy", "medium", "hard", "expert")
"""The levels of techniques, easiest first (the bands of :mod:`hashi_asp.difficulty`)."""


class Finding(Enum):
    """How the steps of a technique are found."""

    RULES = "the rules and the certain bridges alone: the technique's own ``find``"
    ISLANDS = "every assignment of the pairs at a reason of islands, enumerated"
    BOARD = "clingo, on the whole board"


@dataclass(frozen=True)
class Technique:
    """One kind of step.  ``islands`` and ``connectivity`` name the stage that finds it (the
    size of the reason it reads: 0 for a technique of the rules alone, which ``find`` finds,
    None for clingo on the whole board; whether it may use "all islands are connected");
    ``applies`` tells a step of one island from the others of its stage (by its
    :class:`~.words.Counts`); ``find`` gives the step (or contradiction) a technique of the
    rules shows on a board, None when none (a technique of the rules without it names the steps
    whose islands clingo finds all unneeded); ``says`` is its sentence and ``contradiction``
    what a contradiction it finds says (default: the islands cannot get their numbers);
    ``names_crossed`` whether its sentences name the certain bridge the pair would cross;
    ``reason`` and ``example`` what the docs show."""

    name: str
    level: str
    islands: int | None
    connectivity: bool
    reason: str
    says: Callable[[Words], str]
    example: str
    applies: Callable[[Counts], bool] | None = None
    find: Callable[[Board], Found | None] | None = None
    contradiction: Callable[[Words], str] | None = None
    names_crossed: bool = False

    @property
    def finding(self) -> Finding:
        """How its steps are found."""
        if self.islands is None:
            return Finding.BOARD
        return Finding.RULES if self.islands == 0 else Finding.ISLANDS


# ---------------------------------------------------------------------------- steps of the rules


def _crossing_step(board: Board) -> Found | None:
    """A bridge that would cross a certain bridge; two certain bridges that cross are a
    contradiction."""
    domain = board.domain
    for p, crossed in enumerate(board.crossing):
        if crossed and domain[p] > 1 and any(not domain[q] & 1 for q in crossed):
            return Found((), False, p, 0 if board.present(p) else 1)
    return None


def _loop_step(board: Board) -> Found | None:
    """Where loops are not allowed: a bridge that would join two islands already joined;
    certain bridges round a loop are a contradiction."""
    if not board.no_loops:
        return None
    group, _, _ = board.groups()
    present = [board.present(p) for p in range(len(board.ends))]
    if sum(present) > len(board.cells) - len(set(group)):  # more bridges than a forest has
        return Found((), False, present.index(True), 0)
    for p, (a, b) in enumerate(board.ends):
        if board.domain[p] > 1 and not present[p] and group[a] == group[b]:
            return Found((), False, p, 1)
    return None


def _only_link_step(board: Board) -> Found | None:
    """With connectivity: a group of islands with no way out (a contradiction), or a pair that
    is the only link left between two parts of the board (at least one bridge)."""
    group, size, open_ends = board.groups()
    n = len(board.cells)
    for g in sorted(set(group)):
        if open_ends[g] == 0 and size[g] < n:
            members = tuple(i for i in range(n) if group[i] == g)
            return Found((), True, board.first_pair(members), 0)
    # Cut edges (bridges in the graph sense) of the groups joined by open pairs: each the only
    # link left between two parts.
    edges: dict[int, list[tuple[int, int]]] = {}
    for p, (a, b) in enumerate(board.ends):
        if board.domain[p] & 1 and board.domain[p] > 1 and group[a] != group[b]:
            edges.setdefault(group[a], []).append((group[b], p))
            edges.setdefault(group[b], []).append((group[a], p))
    parts = sorted(set(group))
    joined = connected_groups(parts, lambda g: (other for other, _ in edges.get(g, ())))
    if len(joined) > 1:  # a part with nothing left to join it to the others
        return Found((), True, board.first_pair((joined[1][0],)), 0)
    cuts = cut_edges(parts, lambda g: edges.get(g, ()))
    if cuts:
        p = min(cuts)
        return Found((), True, p, board.domain[p] & ~1)
    return None


# ---------------------------------------------------------------------------- the catalogue


def _numbered(c: Counts) -> bool:
    return c.at_island and c.number is not None


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

CATALOGUE: list[Technique] = [
    # Stage 1 of Tatham's solver: what the rules and one island's arithmetic show at once.
    Technique(
        "crossing", "easy", 0, False, "none",
        lambda w: f"a bridge {w.between()} would cross the certain bridge "
        f"{w.between(w.certain_crossing)}: {w.what} there",
        "a bridge between (4, 3) and (8, 3) would cross the certain bridge between (5, 2) and "
        "(5, 6): no bridge there",
        find=_crossing_step,
        contradiction=lambda w: f"the bridges {w.between()} and {w.between(w.certain_crossing)} "
        "would cross: no solution from here",
        names_crossed=True,
    ),
    Technique(
        "rules", "easy", 0, False, "none",
        lambda w: f"the bridges already certain leave {w.what} {w.between()}",
        "the bridges already certain leave no bridge between (r, c) and (r, c)",
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
        find=_loop_step,
        contradiction=lambda w: "the certain bridges close a loop, and loops are not allowed: no "
        "solution from here",
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
        find=_only_link_step,
        contradiction=lambda w: "some islands form a group with no way left to the others, and "
        "all islands must be connected: no solution from here",
    ),
    Technique(
        "connected", "hard", 0, True, "none, connectivity",
        lambda w: f"all islands must be connected, and the bridges already certain leave "
        f"{w.what} {w.between()} for that",
        "all islands must be connected, and the bridges already certain leave a single bridge "
        "between (1, 6) and (1, 8) for that",
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
    ),
]  # fmt: skip


CONTRADICTION = Technique(
    "contradiction", "", None, False, "any",
    lambda w: _contradiction(w),
    "the 2 at (0, 2) cannot get its number: no solution from here",
    names_crossed=True,
)  # fmt: skip
"""A step that leaves a pair no count: found by any stage, at that stage's level (a crossing's
names the two bridges)."""


def named(name: str) -> Technique:
    """The technique of the catalogue (or the contradiction) called ``name``."""
    if name == CONTRADICTION.name:
        return CONTRADICTION
    found = next((t for t in CATALOGUE if t.name == name), None)
    if found is None:
        raise LookupError(f"no technique {name}")
    return found


def _entry(name: str) -> Technique:
    return next(t for t in CATALOGUE if t.name == name)


# The techniques the code names: those a step whose islands clingo finds all unneeded becomes.
_RULES, _LOOP, _CONNECTED = _entry("rules"), _entry("loop"), _entry("connected")


def register(technique: Technique, *, before: str | None = None) -> Technique:
    """Add ``technique`` to the catalogue, just before the one named ``before`` (default: at the
    end), and return it: from now on the finder runs it in that place, and its steps have its
    sentence and level.  Registering it again changes nothing; another technique of its name
    is refused (LookupError)."""
    taken = next((t for t in (*CATALOGUE, CONTRADICTION) if t.name == technique.name), None)
    if taken is technique:
        return technique
    if taken is not None:
        raise LookupError(f"a technique {technique.name} exists already")
    at = len(CATALOGUE) if before is None else CATALOGUE.index(named(before))
    CATALOGUE.insert(at, technique)
    return technique


def table() -> list[str]:
    """The catalogue's rows in docs/walkthroughs.md (under Techniques), in its order, and the
    contradiction's last."""
    return [
        *(f"| `{t.name}` | {t.level} | {t.reason} | {t.example} |" for t in CATALOGUE),
        f"| `{CONTRADICTION.name}` | the level of the pass that finds it | {CONTRADICTION.reason} "
        f"| {CONTRADICTION.example} |",
    ]


# ---------------------------------------------------------------------------- the stages


@dataclass(frozen=True)
class Stage:
    """One stage of the finder: steps found one way (``finding``: reasons of ``islands``
    islands, or the rules alone, or clingo on the whole board), with or without connectivity,
    of the ``techniques`` it keeps (all of one ``level``; contradictions are always kept)."""

    finding: Finding
    islands: int | None
    connectivity: bool
    level: str
    techniques: tuple[Technique, ...]

    @property
    def names(self) -> frozenset[str]:
        """The names of its techniques."""
        return frozenset(t.name for t in self.techniques)

    @property
    def name(self) -> str:
        """The stage in words: its level and what it reads (``hard: 2 islands, connectivity``)."""
        if self.finding is Finding.ISLANDS:
            what = plural(self.islands or 0, "island")
        else:
            what = "the rules alone" if self.finding is Finding.RULES else "the whole board"
        return f"{self.level}: {what}" + (", connectivity" if self.connectivity else "")


def stages() -> tuple[Stage, ...]:
    """The finder's stages, in the catalogue's order: consecutive techniques found the same way
    and of the same level share a stage."""
    return _stages(tuple(CATALOGUE))


@cache
def _stages(catalogue: tuple[Technique, ...]) -> tuple[Stage, ...]:
    found: list[Stage] = []
    for t in catalogue:
        way = (t.finding, t.islands, t.connectivity, t.level)
        last = found[-1] if found else None
        if last is not None and (last.finding, last.islands, last.connectivity, last.level) == way:
            found[-1] = replace(last, techniques=(*last.techniques, t))
        else:
            found.append(Stage(*way, (t,)))
    return tuple(found)


def of_the_rules(connectivity: bool) -> list[Technique]:
    """The techniques of the rules alone that find their own steps, with or without
    connectivity, in the catalogue's order: a stage of the rules runs them all, as a
    contradiction any of them shows is kept at the first such stage."""
    return [
        t
        for t in CATALOGUE
        if t.finding is Finding.RULES and t.connectivity == connectivity and t.find is not None
    ]


def at_level(found: Found, level: str) -> Found:
    """The step as found by a stage of ``level``."""
    return replace(found, level=level)


def classify(board: Board, found: Found) -> Technique:
    """The technique of a step: its own (a step of the rules, or clingo's), else the first of
    the catalogue found the way the step was (the size of its reason and connectivity) that
    applies to it."""
    if not found.new:
        return CONTRADICTION
    if found.technique is not None:
        return found.technique
    size = len(found.reason)
    reading = counts(board, found) if size == 1 and not found.connectivity else None
    for technique in CATALOGUE:
        if technique.finding is not Finding.ISLANDS or technique.islands != size:
            continue
        if technique.connectivity != found.connectivity:
            continue
        if technique.applies is None or (reading is not None and technique.applies(reading)):
            return technique
    raise AssertionError(f"no technique for a step of {size} islands")  # pragma: no cover


def without_islands(board: Board, found: Found) -> Technique:
    """The technique of a step whose islands clingo finds all unneeded: the certain bridges
    alone force it (with connectivity: all islands connected; where loops are not allowed, the
    loop a bridge would close)."""
    if found.connectivity:
        return _CONNECTED
    a, z = board.ends[found.pair]
    group = board.groups()[0]
    return _LOOP if board.no_loops and group[a] == group[z] else _RULES


def sentence(board: Board, found: Found) -> tuple[str, str, str]:
    """The technique, level and sentence of a step, said to a player (before it is applied)."""
    technique = classify(board, found)
    return technique.name, technique.level or found.level, technique.says(Words(board, found))


def _contradiction(w: Words) -> str:
    found = w.found
    if found.technique is not None and found.technique.contradiction is not None:
        return found.technique.contradiction(w)
    connected = ", with all islands connected," if found.connectivity else ""
    cannot = "cannot get its number" if len(found.reason) == 1 else "cannot all get their numbers"
    return f"{w.islands} {cannot}{connected}: no solution from here"
