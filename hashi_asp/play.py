"""A player's state: the bridges drawn, the pairs ruled out (a paper player's "x") and what the
walkthrough's steps have narrowed, in the one JSON form that the web page, ``--given`` on the
command line and the API share; and the bridge counts each pair of neighbours can still take
in it.

The form, every key optional (``{}`` is the empty board)::

    {"bridges":   [[r1, c1, r2, c2, k], ...],
     "ruled_out": [[r1, c1, r2, c2], ...],
     "narrowed":  [[r1, c1, r2, c2, [k, ...]], ...]}

- a bridge drawn is a lower bound (k or more: a single bridge may still become a double), but
  when the bridges drawn are a valid solution on their own (the independent checker finds
  nothing) each pair takes exactly its drawn count: a complete drawing is decided;
- a pair ruled out takes no bridge;
- a narrowed pair takes only the counts listed: what an applied step left it, as ``steps
  --format json`` gives a step's ``bridges``.  A pair may be narrowed again by a later step:
  the counts are then those every entry allows.

A pair's counts are ``{0..max}`` (the puzzle's most bridges per pair), at least the count
drawn, ``{0}`` if ruled out, and within each narrowed set.  Refused, with one line naming the
pair as ``(r1, c1)-(r2, c2)`` (and, for a text, the line and column of its entry): a pair that
is not two neighbouring islands, a count out of range, a pair left with no count (drawn and
ruled out, say), a pair drawn or ruled out twice, an unknown key.

The forms read before the player's state existed mean what they meant: a bare list of
bridges, ``{"bridges": [...]}``, the output of ``solve --format json`` (its one solution) and a
pzprv3 file with lines.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .checking import Violation, check
from .errors import PuzzleError
from .graphs import connected_groups
from .notations.lexing import is_int
from .puzzle import Bridge, Cell, Pair, Puzzle, Solution, bridge, cell_name, pair_name, plural

KEYS = ("bridges", "ruled_out", "narrowed")
"""The keys of the state's JSON form, in the order it is written."""

Narrowing = tuple[Pair, tuple[int, ...]]
"""A pair and the counts a step left it, ascending."""

Blame = Callable[[str, int, str], Exception]
"""Makes the error for an entry: its list (one of :data:`KEYS`), its index there, the message."""


@dataclass(frozen=True)
class Play:
    """What a player has established on the board: ``bridges`` drawn (each at least its count),
    pairs ``ruled_out`` (no bridge), and the pairs ``narrowed`` by the steps applied, with the
    counts each step left them; each in the order given (a pair's cells in reading order).
    :meth:`counts` says what each pair of neighbours can still take."""

    bridges: tuple[Bridge, ...] = ()
    ruled_out: tuple[Pair, ...] = ()
    narrowed: tuple[Narrowing, ...] = ()

    def __post_init__(self) -> None:
        # As the rest of the library has them: a pair's cells in reading order, counts ascending.
        fields = {
            "bridges": tuple(bridge(b[:2], b[2:4], b[4]) for b in self.bridges),
            "ruled_out": tuple(_ordered(pair) for pair in self.ruled_out),
            "narrowed": tuple(
                (_ordered(pair), tuple(sorted(set(ks)))) for pair, ks in self.narrowed
            ),
        }
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    @classmethod
    def of(cls, given: Play | Solution | None) -> Play:
        """A state as the library takes one: a :class:`Play`, or a :class:`Solution` (the
        bridges drawn, nothing else), or None (the empty board)."""
        if isinstance(given, Play):
            return given
        return cls(given.bridges if given is not None else ())

    @classmethod
    def from_json(cls, value: Any, puzzle: Puzzle) -> Play:
        """The state in a parsed JSON value (any form the module docstring names but pzprv3),
        judged against ``puzzle``; a mistake raises :class:`PuzzleError` naming it."""

        def fail(message: str, *path: str | int) -> Exception:
            return PuzzleError(message)

        return _read(value, puzzle, fail)

    def to_json(self) -> dict:
        """The full form: all three keys."""
        return {
            "bridges": [list(b) for b in self.bridges],
            "ruled_out": [[*a, *z] for a, z in self.ruled_out],
            "narrowed": [[*a, *z, list(ks)] for (a, z), ks in self.narrowed],
        }

    def entries(self) -> list[list]:
        """Every entry in its own JSON form, drawn bridges first (``[r1, c1, r2, c2, k]``), then
        ruled-out pairs (``[r1, c1, r2, c2]``), then narrowed ones (``[r1, c1, r2, c2, [k,
        ...]]``): how a hint lists the part of a state that cannot all stay."""
        return [entry for key in KEYS for entry in self.to_json()[key]]

    @property
    def empty(self) -> bool:
        return not (self.bridges or self.ruled_out or self.narrowed)

    @property
    def drawn(self) -> Solution:
        """The bridges drawn, as a set of bridges."""
        return Solution.of(self.bridges)

    def solves(self, puzzle: Puzzle) -> bool:
        """Whether the bridges drawn are, on their own, a valid solution of ``puzzle``."""
        return bool(self.bridges) and not check(puzzle, self.drawn)

    def broken(self, puzzle: Puzzle) -> list[Violation]:
        """The rules the bridges drawn break already, whatever is drawn next (each bridge drawn
        stays, and more may come): the independent checker's but the island numbers and the
        connection, which a partial drawing does not meet yet; an island with more bridges than
        its number, a pair with more than one of its islands takes, and a group of islands
        that each have all their bridges, closed off from the others (:func:`broken_so_far`)."""
        return broken_so_far(puzzle, self.drawn)

    def counts(self, puzzle: Puzzle, *, bounds: bool = False) -> dict[Pair, tuple[int, ...]]:
        """The counts each pair of neighbours of ``puzzle`` can take in this state (ascending,
        pairs in reading order); a state the module docstring refuses raises
        :class:`PuzzleError`.  ``bounds``: each bridge drawn a lower bound, even in a complete
        drawing (as the steps of a walkthrough leave a pair they have not yet decided)."""

        def blame(key: str, index: int, message: str) -> Exception:
            return PuzzleError(message)

        return _judged(self, puzzle, blame, bounds)


# ---------------------------------------------------------------------------- the rules broken

# Rules a partial drawing breaks on its way to a solution: too few bridges at an island, islands
# not yet joined.  Too many at an island, and a group closed off, are broken for good.
PARTIAL_OK = {"island-count", "disconnected"}


def broken_so_far(puzzle: Puzzle, drawn: Solution) -> list[Violation]:
    """The rules ``drawn``, a partial drawing, breaks whatever is added to it (as
    :meth:`Play.broken`): the checker's violations but :data:`PARTIAL_OK`; each pair with more
    bridges than one of its islands' numbers (``pair-count``, its two islands); each other
    island with more bridges than its number (``island-count``); each group of islands joined
    by the bridges, each island with all its bridges, that is not every island
    (``closed-off``, its islands)."""
    found = [v for v in check(puzzle, drawn) if v.rule not in PARTIAL_OK]
    islands = puzzle.islands
    degree: dict[Cell, int] = dict.fromkeys(islands, 0)
    joined: dict[Cell, list[Cell]] = {cell: [] for cell in islands}
    for b in drawn.bridges:
        if all(end in islands for end in b.ends):
            a, z = b.ends
            for end, other in ((a, z), (z, a)):
                degree[end] += b.count
                joined[end].append(other)
    explained: set[Cell] = set()
    for b in drawn.bridges:
        over = [e for e in b.ends if e in islands and b.count > _most(islands[e], b.count)]
        for end in over[:1]:
            explained.update(over)
            found.append(
                Violation(
                    "pair-count",
                    f"{pair_name(*b.ends)} has {plural(b.count, 'bridge')}, more than the "
                    f"{islands[end]} at {cell_name(end)} takes",
                    b.ends,
                )
            )
    for cell, number in islands.items():
        if number is not None and degree[cell] > number and cell not in explained:
            found.append(
                Violation(
                    "island-count",
                    f"island {cell_name(cell)} has {plural(degree[cell], 'bridge')}, more "
                    f"than its number {number}",
                    (cell,),
                )
            )
    found.extend(_closed_off(puzzle, degree, joined))
    return found


def _most(number: int | None, count: int) -> int:
    """The most bridges an island of ``number`` takes (one without a number: any ``count``)."""
    return count if number is None else number


def _closed_off(
    puzzle: Puzzle, degree: dict[Cell, int], joined: dict[Cell, list[Cell]]
) -> list[Violation]:
    """The groups of islands joined by bridges whose islands each have exactly their number
    of bridges (no bridge can be added to any of them), but not all the islands: no solution
    joins them to the rest."""
    islands = puzzle.islands
    found = []
    for group in connected_groups(islands, joined.__getitem__):
        if len(group) < len(islands) and all(
            islands[cell] is not None and degree[cell] == islands[cell] for cell in group
        ):
            others = len(islands) - len(group)
            rest = "other island" if others == 1 else f"other {others} islands"
            shown = ", ".join(map(cell_name, group[:4])) + (", ..." if len(group) > 4 else "")
            found.append(
                Violation(
                    "closed-off",
                    f"the {len(group)} islands {shown} have all their bridges and no way to "
                    f"the {rest}",
                    tuple(group),
                )
            )
    return found


def _ordered(pair: Pair) -> Pair:
    """The pair, its first cell first in reading order."""
    return bridge(*pair, 0).ends


# ---------------------------------------------------------------------------- the counts


def _judged(
    play: Play, puzzle: Puzzle, blame: Blame, bounds: bool = False
) -> dict[Pair, tuple[int, ...]]:
    """The counts of every pair of neighbours in ``play``, each entry judged first: the first
    mistake, in the order of the entries, raises what ``blame`` makes of it (``bounds``: as
    :meth:`Play.counts`)."""
    top = puzzle.rules.max_bridges
    counts = {pair: set(range(top + 1)) for pair in puzzle.geometry.pairs}

    def known(key: str, index: int, pair: Pair, what: str, seen: dict[Pair, int]) -> None:
        if pair not in counts:
            raise blame(
                key, index, f"{what} {pair_name(*pair)} does not join two neighbouring islands"
            )
        if pair in seen and key != "narrowed":
            raise blame(key, index, f"{what} {pair_name(*pair)} is given twice")
        seen[pair] = index

    drawn: dict[Pair, int] = {}
    for i, b in enumerate(play.bridges):
        known("bridges", i, b.ends, "bridge", drawn)
        if not 1 <= b.count <= top:
            raise blame(
                "bridges", i, f"bridge {pair_name(*b.ends)} has {b.count} bridges; allowed 1..{top}"
            )
    ruled: dict[Pair, int] = {}
    for i, pair in enumerate(play.ruled_out):
        known("ruled_out", i, pair, "ruled-out pair", ruled)
    narrowed: dict[Pair, int] = {}
    for i, (pair, ks) in enumerate(play.narrowed):
        known("narrowed", i, pair, "narrowed pair", narrowed)
        wrong = [k for k in ks if not 0 <= k <= top]
        if wrong:
            raise blame(
                "narrowed",
                i,
                f"narrowed pair {pair_name(*pair)}: count {wrong[0]} is not in 0..{top}",
            )

    exact = not bounds and play.solves(puzzle)  # a complete drawing: each pair exactly its count
    said: dict[Pair, list[str]] = {}
    for i, b in enumerate(play.bridges):
        allowed = {b.count} if exact else set(range(b.count, top + 1))
        _narrow(counts, said, b.ends, allowed, f"drawn with {b.count}", "bridges", i, blame)
    if exact:
        for pair in counts.keys() - drawn.keys():
            counts[pair] = {0}
            said[pair] = ["left without a bridge by a complete drawing"]
    for i, pair in enumerate(play.ruled_out):
        _narrow(counts, said, pair, {0}, "ruled out", "ruled_out", i, blame)
    for i, (pair, ks) in enumerate(play.narrowed):
        shown = " or ".join(map(str, ks)) if ks else "nothing"
        _narrow(counts, said, pair, set(ks), f"narrowed to {shown}", "narrowed", i, blame)
    return {pair: tuple(sorted(ks)) for pair, ks in counts.items()}


def _narrow(
    counts: dict[Pair, set[int]],
    said: dict[Pair, list[str]],
    pair: Pair,
    allowed: set[int],
    why: str,
    key: str,
    index: int,
    blame: Blame,
) -> None:
    """Keep only the ``allowed`` counts of ``pair``; none left is the mistake of this entry."""
    counts[pair] &= allowed
    said.setdefault(pair, []).append(why)
    if not counts[pair]:
        reasons = " and ".join(said[pair])
        raise blame(key, index, f"pair {pair_name(*pair)} is left no bridge count: {reasons}")


# ---------------------------------------------------------------------------- reading


def read(source: str | os.PathLike, puzzle: Puzzle) -> Play:
    """The state in a file, ``-`` for standard input, or the text itself (JSON), judged against
    ``puzzle``: a mistake raises :class:`PuzzleError` naming the source, line and column."""
    from . import notations

    text, name = notations.read_source(source)
    return parse(text, puzzle, name)


def parse(text: str, puzzle: Puzzle, source: str = "<given>") -> Play:
    """The state in ``text`` (JSON, or a pzprv3 file with lines), judged against ``puzzle``: a
    mistake raises :class:`PuzzleError` naming ``source`` and, in JSON, the line and column of
    the entry at fault."""
    from .notations import json, puzzlink
    from .notations.lexing import trusted

    if puzzlink.is_pzprv3(text):  # a pzprjs editor's file: its lines are the bridges drawn
        drawn = Play(puzzlink.parse_pzprv3_solution(text, source).bridges)

        def blame(key: str, index: int, message: str) -> Exception:
            return PuzzleError(message, source)

        _judged(drawn, puzzle, blame)
        return drawn

    def located() -> Play:
        data, fail = json.load_located(text)
        return _read(data, puzzle, fail)

    return trusted(located, source)


def _read(data: Any, puzzle: Puzzle, fail: Callable[..., Exception]) -> Play:
    """The state in ``data``, every entry checked for its shape and then judged against
    ``puzzle``; ``fail(message, *path)`` makes the error for the value at ``path``."""
    at: dict[str, tuple[str | int, ...]] = {key: (key,) for key in KEYS}  # where each list is
    if isinstance(data, list):
        data, at["bridges"] = {"bridges": data}, ()
    elif isinstance(data, dict) and "solutions" in data:  # the output of solve --format json
        found = data["solutions"]
        if not isinstance(found, list):
            raise fail("'solutions' must be a list of objects with 'bridges'", "solutions")
        for i, entry in enumerate(found):
            if not (isinstance(entry, dict) and "bridges" in entry):
                raise fail(f"solutions[{i}]: expected an object with 'bridges'", "solutions", i)
        if len(found) != 1:
            raise fail(f"expected one set of bridges, found {len(found)}")
        data, at["bridges"] = {"bridges": found[0]["bridges"]}, ("solutions", 0, "bridges")
    elif not isinstance(data, dict):
        raise fail(
            'expected a player\'s state {"bridges": [...], "ruled_out": [...], "narrowed": '
            "[...]}, a list of bridges, or the output of solve --format json"
        )
    unknown = [key for key in data if key not in KEYS]
    if unknown:
        raise fail(
            f"unknown key {unknown[0]!r}: a player's state has bridges, ruled_out and narrowed",
            unknown[0],
        )
    bridges = _entries(data, "bridges", 5, at, fail)
    ruled_out = _entries(data, "ruled_out", 4, at, fail)
    narrowed = _entries(data, "narrowed", 5, at, fail)
    play = Play(
        tuple(Bridge(*entry) for entry in bridges),
        tuple(((r1, c1), (r2, c2)) for r1, c1, r2, c2 in ruled_out),
        tuple((((r1, c1), (r2, c2)), ks) for r1, c1, r2, c2, ks in narrowed),
    )

    def blame(key: str, index: int, message: str) -> Exception:
        return fail(message, *at[key], index)

    _judged(play, puzzle, blame)
    return play


_SHAPES = {
    "bridges": ("bridge", "[r1, c1, r2, c2, count]"),
    "ruled_out": ("ruled-out pair", "[r1, c1, r2, c2]"),
    "narrowed": ("narrowed pair", "[r1, c1, r2, c2, [count, ...]]"),
}


def _entries(
    data: dict, key: str, size: int, at: dict, fail: Callable[..., Exception]
) -> list[list]:
    """The entries of list ``key``, each of the shape the form gives it (of integers)."""
    entries = data.get(key, [])
    what, shape = _SHAPES[key]
    if not isinstance(entries, list):
        raise fail(f"'{key}' must be a list of {shape}", *at[key])
    for i, entry in enumerate(entries):
        good = isinstance(entry, list) and len(entry) == size and all(map(is_int, entry[:4]))
        if good and key == "bridges":
            good = is_int(entry[4])
        elif good and key == "narrowed":
            good = isinstance(entry[4], list) and all(map(is_int, entry[4]))
        if not good:
            raise fail(f"{what} {i}: expected {shape} of integers", *at[key], i)
    return entries
