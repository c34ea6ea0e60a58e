"""What the outputs of several commands share: how a text report looks (:class:`Look`, with its
:class:`Palette`), why a puzzle has no solution (the explanation, as text and as JSON), a
broken rule as JSON, a difficulty in one line, and the small helpers of their wording.  Each
command's own text and JSON are built in its module (``commands/solve.py``...), beside it.

Text functions return lines without a final newline; JSON functions return plain dicts (turned
into text by :func:`~hashi_asp.notations.json.dumps`).  Colour comes from a :class:`Palette`:
plain by default, and the command line passes one that colours for a terminal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # Only their types are needed here: a command imports the modules it runs, and every other
    # command's start-up is spared them.
    from ..checking import Violation
    from ..difficulty import Difficulty
    from ..puzzle import Puzzle
    from ..reasoning import Explanation


@dataclass(frozen=True)
class Palette:
    """How marked characters are shown: ``highlight`` for the islands and bridges a report points
    at, ``undecided`` for a pair whose bridges differ between solutions (drawn as ``?``)."""

    highlight: Callable[[str], str] = str
    undecided: Callable[[str], str] = lambda text: "?"


PLAIN = Palette()


@dataclass(frozen=True)
class Look:
    """How a text report is drawn: ``style`` of the drawings (``text`` or ``unicode``), the
    ``palette`` of marks, and ``signal``, the word for a stop by signal (``interrupted`` or
    ``terminated``; a stop by the time limit says so itself)."""

    style: str = "text"
    palette: Palette = PLAIN
    signal: str = "interrupted"


TEXT = Look()


def counts(words: Iterable[int]) -> str:
    """``0, 1 or 2``."""
    *first, last = (str(k) for k in words)
    return ", ".join(first) + " or " + last


def stopped(timed_out: bool, signal: str) -> str:
    """Why a search ended early: its time limit, or the signal (``interrupted``, ``terminated``)."""
    return "time limit reached" if timed_out else signal


# ---------------------------------------------------------------------------- explanations


def explanation_text(puzzle: Puzzle, why: Explanation, look: Look = TEXT) -> str:
    """Why there is no solution: the counting checks that fail, then the islands whose numbers
    cannot all be met, drawn; a blank line after."""
    from ..drawing import draw
    from ..puzzle import cell_name

    lines = ["Why there is no solution:"]
    lines += [f"  - {failed.message}" for failed in why.checks]
    if why.core is None:
        cut = stopped(why.timed_out, look.signal)
        lines.append(f"  ({cut} before a set of islands to blame was found)")
    elif not why.core:
        lines.append(
            "  - even with every island number ignored, no bridges connect all the "
            "islands without crossing"
        )
    else:
        listing = ", ".join(f"{cell_name(cell)} {puzzle.islands[cell]}" for cell in why.core)
        if len(why.core) == 1:
            lines.append(
                f"  - the number of island {listing} cannot be met, whatever the other "
                "islands' numbers"
            )
        else:
            proof = (
                "minimal: without any one of them, the others can be met"
                if why.minimal
                else "not proven minimal: the time limit came first"
            )
            lines.append(
                f"  - these {len(why.core)} island numbers cannot all be met together "
                f"({proof}): {listing}"
            )
        marks = dict.fromkeys(why.core, look.palette.highlight)
        lines += ["", draw(puzzle, None, look.style, marks=marks)]
    return "\n".join(lines) + "\n\n"


def explained(puzzle: Puzzle, why: Explanation | None, look: Look) -> str:
    """The explanation's text, if there is one (no solution), else nothing."""
    return "" if why is None else explanation_text(puzzle, why, look)


def explanation_json(puzzle: Puzzle, why: Explanation) -> dict:
    """The explanation as the ``explanation`` member of a document."""
    return {
        "checks": [violation_json(v) for v in why.checks],
        "core": None if why.core is None else [[r, c, puzzle.islands[(r, c)]] for r, c in why.core],
        "minimal": why.minimal,
        "timed_out": why.timed_out,
    }


def with_explanation(document: dict, puzzle: Puzzle, why: Explanation | None) -> dict:
    """``document`` with its ``explanation``, when there is one."""
    if why is not None:
        document["explanation"] = explanation_json(puzzle, why)
    return document


# ---------------------------------------------------------------------------- rules, difficulty


def violation_json(violation: Violation) -> dict:
    """A broken rule as JSON: its rule name, message and cells."""
    return {
        "rule": violation.rule,
        "message": violation.message,
        "cells": [list(cell) for cell in violation.cells],
    }


def difficulty_line(rated: Difficulty) -> str:
    """``0.62 (hard; steps: 40 easy, 3 medium, 2 hard, 0 expert)``."""
    per_band = ", ".join(f"{n} {band}" for band, n in rated.to_json()["steps"].items())
    unfinished = "" if rated.finished else "; the easiest-technique walkthrough does not finish"
    return f"{rated.score:.2f} ({rated.band}; steps: {per_band}{unfinished})"
