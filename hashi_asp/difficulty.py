"""Difficulty: how hard a puzzle is for a person, rated from its walkthrough.

The walkthrough rated is the one ``steps`` shows: a solver who always uses the easiest
technique that applies, in the order of the technique catalogue
(:data:`hashi_asp.walkthrough.techniques.CATALOGUE`).  Each step has its technique's level:

0. **easy**: the patterns a beginner sees at once (a bridge over a certain one, a finished
   island, an island that needs every bridge it can get, a number below the most bridges a pair
   may have, an island needing more than its other neighbours can give);
1. **medium**: an island that needs at least one bridge to a neighbour because its other
   neighbours cannot give it enough;
2. **hard**: anything else one or two islands force, and every argument from connectivity of
   up to two islands;
3. **expert**: reasons of three islands, and a step that only the whole board shows (found
   by clingo).

Only a puzzle with exactly one solution has a difficulty (:func:`hashi_asp.walkthrough.difficulty`
refuses the others).

The levels follow Simon Tatham's solver, whose easy, medium and hard levels use the same
techniques, so his levels are the calibration: see ``benchmarks/walkthroughs.py`` and
docs/walkthroughs.md for how well the score ranks his puzzles.

``score`` lies in 0..1: a quarter per level, ``(level + share) / 4``, where ``share`` grows with
the number of steps that needed the puzzle's top level (``m / (m + 2)``; 0 for an easy puzzle),
so that within a band a puzzle needing its hardest technique more often rates higher.  The
band is the top level's name.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from .errors import PuzzleError

BANDS = ("easy", "medium", "hard", "expert")
"""The bands, one per tier, each a quarter of the score: easy below 0.25, medium below 0.5,
hard below 0.75, expert from 0.75."""


@dataclass(frozen=True)
class Difficulty:
    """``score`` (0..1) and its ``band``; ``tiers`` counts the rated walkthrough's steps by band,
    ``finished`` says whether that walkthrough reached the solution."""

    score: float
    band: str
    tiers: tuple[int, ...] = (0, 0, 0, 0)
    finished: bool = True

    @property
    def steps(self) -> int:
        return sum(self.tiers)

    def to_json(self) -> dict:
        return {
            "score": round(self.score, 4),
            "band": self.band,
            "steps": dict(zip(BANDS, self.tiers)),
            "finished": self.finished,
        }


def rate(tiers: Iterable[int], finished: bool) -> Difficulty:
    """The difficulty of a walkthrough whose steps had these ``tiers`` (0 easy .. 3 expert);
    one that did not reach a solution is expert."""
    counted = Counter(tiers)
    top = max(counted, default=0)
    if not finished:
        top = 3
    needing = counted[top]
    share = needing / (needing + 2) if top else 0.0
    score = (top + share) / len(BANDS)
    per_band = tuple(counted[t] for t in range(len(BANDS)))
    return Difficulty(score, BANDS[top], per_band, finished)


def parse_request(text: str) -> str | tuple[float, float]:
    """A difficulty as users ask for it: a band name, a score ``X`` (at least) or a range
    ``X-Y``, scores from 0 to 1; as the band, or a (low, high) range."""
    if text in BANDS:
        return text
    match = re.fullmatch(r"\s*(\d*\.?\d+)\s*(?:[-]\s*(\d*\.?\d+)\s*)?", text)
    if not match:
        raise PuzzleError(
            f"difficulty {text!r}: expected {', '.join(BANDS)}, a score X or a range X-Y"
        )
    low, high = float(match.group(1)), float(match.group(2) or 1.0)
    if not 0 <= low <= high <= 1:
        raise PuzzleError(f"difficulty {text!r}: scores go from 0 to 1, low before high")
    return low, high


def band_of(score: float) -> str:
    """The band a score falls in."""
    return BANDS[min(int(score * len(BANDS)), len(BANDS) - 1)]
