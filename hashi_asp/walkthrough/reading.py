"""Reading a walkthrough's sentences back, as a player reads them against the board: the islands
a sentence names (with the numbers it quotes), and where it puts a bridge (``to (r, c)``,
``between (r, c) and (r, c)``).

A step's sentence speaks of its own pair and the islands of its reason, which a picture of the
step highlights, and of nothing else: every cell it names is one of those islands, every number
it quotes is that island's own, every bridge it speaks of is on the step's pair (``to (r, c)``
from the island of the reason at the pair's other end), and it names every island of its
reason.  The one exception is a bridge that is already certain and that the step's pair would
cross: the sentence of a crossing step names it.  :func:`misreadings` lists what a
walkthrough's sentences say that their steps do not; a walkthrough's tests and
``benchmarks/sentences.py`` ask it of many walkthroughs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from ..puzzle import Cell, Pair, cell_name
from . import techniques
from .results import Step, Walkthrough

_CELL = r"\((\d+), (\d+)\)"
_NAMED_CELL = re.compile(_CELL)
_ISLAND = re.compile(rf"\bthe (?:(\d+)|island) at {_CELL}")
_TO = re.compile(rf"\bto {_CELL}")
_BETWEEN = re.compile(rf"\bbetween {_CELL} and {_CELL}")


@dataclass(frozen=True)
class Reading:
    """What a sentence names: every cell, in order; each island it quotes with the number it
    gives it (``the 3 at (2, 0)``; None for ``the island at (2, 0)``); the cells it puts a bridge
    ``to``; and the pairs it puts a bridge ``between``."""

    cells: tuple[Cell, ...]
    islands: tuple[tuple[int | None, Cell], ...]
    to: tuple[Cell, ...]
    between: tuple[Pair, ...]


def read(text: str) -> Reading:
    """The cells, islands, ``to`` cells and ``between`` pairs a sentence names."""
    return Reading(
        cells=tuple(_cell(m[1], m[2]) for m in _NAMED_CELL.finditer(text)),
        islands=tuple(
            (None if m[1] is None else int(m[1]), _cell(m[2], m[3])) for m in _ISLAND.finditer(text)
        ),
        to=tuple(_cell(m[1], m[2]) for m in _TO.finditer(text)),
        between=tuple(_pair(_cell(m[1], m[2]), _cell(m[3], m[4])) for m in _BETWEEN.finditer(text)),
    )


def misreadings(walk: Walkthrough) -> list[str]:
    """What the sentences of ``walk`` say that their steps do not, one line each: ``step N:
    what is wrong: the sentence``.  Empty when every sentence names only its step's pair and
    reason islands, as described in the module's docstring."""
    numbers = walk.puzzle.islands
    # The least count of each pair before the step: a bridge the sentence may call certain.
    least = {_pair(*b.ends): b.count for b in (walk.given.bridges if walk.given else ())}
    found = []
    for number, step in enumerate(walk.steps, 1):
        certain = {pair for pair, count in least.items() if count}
        for fault in _faults(step, read(step.text), numbers, certain):
            found.append(f"step {number}: {fault}: {step.text}")
        if step.pair is not None and step.bridges:
            least[_pair(*step.pair)] = step.bridges[0]
    return found


def _faults(
    step: Step, reading: Reading, numbers: Mapping[Cell, int | None], certain: set[Pair]
) -> Iterator[str]:
    own = _pair(*step.pair) if step.pair is not None else None
    ends = set(own or ())
    reason = set(step.reason)
    naming = _names_crossed(step.technique)
    crossed = {
        pair
        for pair in reading.between
        if naming and own is not None and pair in certain and _cross(pair, own)
    }
    allowed = ends | reason | {cell for pair in crossed for cell in pair}
    for cell in dict.fromkeys(reading.cells):
        if cell not in allowed:
            yield f"it names {cell_name(cell)}, neither an end of the pair nor of the reason"
    for cell in sorted(reason - set(reading.cells)):
        yield f"it does not name {cell_name(cell)}, an island of the reason"
    for quoted, cell in reading.islands:
        if cell not in numbers:
            yield f"it calls {cell_name(cell)} an island, which it is not"
        elif numbers[cell] != quoted:
            yield f"it quotes the island at {cell_name(cell)} as {quoted}, not {numbers[cell]}"
    for cell in reading.to:
        if cell not in ends or not ends - {cell} <= reason:
            yield f"its bridge to {cell_name(cell)} is not on the pair from an island of the reason"
    for pair in reading.between:
        if pair != own and pair not in crossed:
            yield (
                f"its bridge between {cell_name(pair[0])} and {cell_name(pair[1])} is not on "
                "the pair"
            )


def _names_crossed(name: str) -> bool:
    """Whether the sentences of the technique ``name`` name a certain bridge that the step's
    pair would cross (the catalogue says; a name it does not know names none)."""
    try:
        return techniques.named(name).names_crossed
    except LookupError:
        return False


def _cell(row: str, col: str) -> Cell:
    return int(row), int(col)


def _pair(a: Cell, b: Cell) -> Pair:
    return (a, b) if a <= b else (b, a)


def _cross(one: Pair, other: Pair) -> bool:
    """Bridges on the two pairs would cross: one is across the other's inside."""
    for (a, b), (c, d) in ((one, other), (other, one)):
        if a[0] == b[0] and c[1] == d[1]:  # a row and a column
            return a[1] < c[1] < b[1] and c[0] < a[0] < d[0]
    return False
