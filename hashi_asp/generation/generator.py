"""A generated puzzle: built (:mod:`.construction`), made unique if asked (:mod:`.repair`), rated
if a difficulty is asked for, and checked before it is returned."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from ..checking import check
from ..difficulty import BANDS, Difficulty
from ..puzzle import Puzzle, Rules, Solution
from ..status import Status
from ..stopping import Deadline
from ..walkthrough import SeveralSolutions
from ..walkthrough import difficulty as measure_difficulty
from .construction import (
    DEFAULT_ATTEMPTS,
    GenerationError,
    _build_layout,
    _validate,
    default_size,
    defaults,
)
from .repair import Repair, confirm_unique


@dataclass(frozen=True)
class Generated:
    """A generated puzzle with the solution it was built from, and how it was made."""

    puzzle: Puzzle
    solution: Solution  # the hidden construction solution (the only one if unique)
    seed: int
    alpha: Fraction
    beta: Fraction
    extra_bridges: int  # step 2 bridges actually added (at most floor(alpha * islands))
    attempts: int  # layouts built: 1 unless one got stuck, a repair failed or
    # the difficulty was missed
    repair_rounds: int | None  # --unique: searches that found another solution (0 = it was unique)
    repairs: int | None  # --unique: changes made to the hidden solution
    difficulty: Difficulty | None
    seconds: float

    @property
    def double_share(self) -> float:
        """Share of the solution's bridges (pairs) with a count of 2 or more."""
        return sum(b.count >= 2 for b in self.solution.bridges) / max(1, len(self.solution.bridges))


# ---------------------------------------------------------------------------- entry point


def generate(
    islands: int,
    rows: int | None = None,
    cols: int | None = None,
    alpha: float | Fraction | str | None = None,
    beta: float | Fraction | str | None = None,
    seed: int = 1,
    *,
    unique: bool = False,
    difficulty: str | tuple[float, float] | None = None,
    rules: Rules = Rules(),
    attempts: int = DEFAULT_ATTEMPTS,
    verify: bool = True,
    time_limit: float | Deadline | None = None,
) -> Generated:
    """A random puzzle with ``islands`` islands on a ``rows`` x ``cols`` board (default:
    :func:`default_size`), built by the four steps of Coelho et al. (see the module docstring);
    ``alpha`` and ``beta`` default to :func:`defaults` for the rules.

    ``unique`` repairs the puzzle until it has exactly one solution (``verify`` then confirms it
    with a separate :func:`solve`).  ``difficulty`` is a band name (``easy``, ``medium``,
    ``hard``, ``expert``) or a ``(low, high)`` range of scores of
    :func:`hashi_asp.walkthrough.difficulty`;
    puzzles outside it are discarded and another is built, at most ``attempts`` layouts in all.
    ``rules`` are the rules the puzzle is posed under: with ``max_bridges`` K a "double" bridge
    is 2..K, and ``no_loops`` builds a tree (``alpha`` must be 0).
    ``time_limit`` (seconds, or a :class:`Deadline`) bounds the whole generation.  Raises
    :class:`GenerationError`, or :class:`~hashi_asp.stopping.Stopped` when the deadline ends first.
    """
    started = time.perf_counter()
    deadline = Deadline.of(time_limit)
    alpha, beta = defaults(alpha, beta, rules)
    if rows is None and cols is None:
        rows, cols = default_size(islands)
    elif rows is None or cols is None:
        raise GenerationError("give both rows and cols, or neither")
    wanted = _difficulty_test(difficulty)
    _validate(islands, rows, cols, alpha, beta, rules, attempts)
    rng = random.Random(seed)
    stuck: list[int] = []  # islands placed by each layout that ran out of room
    unrepaired = 0  # layouts whose uniqueness repair did not converge
    scores: list[float] = []  # difficulty scores of the layouts outside the request
    several = 0  # layouts with several solutions, which have no difficulty
    for attempt in range(1, attempts + 1):
        deadline.check("building a layout")
        layout = _build_layout(islands, rows, cols, alpha, beta, rules, rng, deadline)
        if len(layout.cells) < islands:
            stuck.append(len(layout.cells))
            continue
        rounds = repairs = None
        if unique:
            made = Repair(layout, rng, beta, deadline).run()
            if made is None:
                unrepaired += 1
                continue
            rounds, repairs = made
        puzzle, solution = layout.puzzle(), layout.solution()
        measured = None
        if wanted is not None:
            try:
                measured = measure_difficulty(puzzle, deadline)
            except SeveralSolutions:
                several += 1
                continue
            if not wanted(measured):
                scores.append(measured.score)
                continue
        violations = check(puzzle, solution)
        if violations:  # the construction or a repair is wrong: never emit it
            raise GenerationError(
                f"internal error: the hidden solution breaks the rules: {violations[0].message}",
                status=Status.FAULT,
            )
        if unique and verify:
            confirm_unique(puzzle, solution, deadline)
        return Generated(
            puzzle,
            solution,
            seed,
            alpha,
            beta,
            layout.extra_bridges,
            attempt,
            rounds,
            repairs,
            measured,
            time.perf_counter() - started,
        )
    raise _failure(islands, rows, cols, attempts, stuck, unrepaired, scores, difficulty, several)


def _difficulty_test(
    request: str | tuple[float, float] | None,
) -> Callable[[Difficulty], bool] | None:
    """Whether a measured difficulty meets the request: a band name or a (low, high) score range."""
    if request is None:
        return None
    if isinstance(request, str):
        if request not in BANDS:
            raise GenerationError(
                f"unknown difficulty {request!r}; use {', '.join(BANDS)} or a score"
            )
        return lambda measured: measured.band == request
    low, high = request
    if not 0 <= low <= high <= 1:
        raise GenerationError(
            f"difficulty range must satisfy 0 <= low <= high <= 1, got {low}-{high}"
        )
    return lambda measured: low <= measured.score <= high


def _failure(
    islands: int,
    rows: int,
    cols: int,
    attempts: int,
    stuck: list[int],
    unrepaired: int,
    scores: list[float],
    difficulty,
    several: int = 0,
) -> GenerationError:
    if len(stuck) == attempts:
        fits = default_size(islands)
        return GenerationError(
            f"the {cols}x{rows} board cannot hold {islands} islands: in {attempts} attempts the "
            f"construction ran out of free cells after at most {max(stuck)} islands; give a larger "
            f"--size (the default for {islands} islands is {'x'.join(map(str, fits))})"
        )
    seen = []
    if scores:
        shown = ", ".join(f"{score:.2f}" for score in scores[:8])
        seen.append(f"scores {shown}{', ...' if len(scores) > 8 else ''}")
    if several:
        seen.append(f"{several} with several solutions, which have no difficulty: add --unique")
    if unrepaired:
        seen.append(f"{unrepaired} repairs did not converge")
    if stuck:
        seen.append(f"{len(stuck)} layouts ran out of room")
    if isinstance(difficulty, tuple):
        difficulty = "{:g}-{:g}".format(*difficulty)
    wanted = f"difficulty {difficulty}" if difficulty is not None else "a unique puzzle"
    return GenerationError(
        f"no puzzle with {wanted} in {attempts} attempts ({'; '.join(seen)}); "
        "try other --alpha, --beta or --size, or more --attempts",
        status=Status.CANNOT_ANSWER,
    )
