"""A generated puzzle: built (:mod:`.construction`), made unique if asked (:mod:`.repair`), rated
if a difficulty is asked for, and checked before it is returned."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
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
    _Layout,
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
    missed = _Missed()
    for attempt in range(1, attempts + 1):
        deadline.check("building a layout")
        layout = _build_layout(islands, rows, cols, alpha, beta, rules, rng, deadline)
        made = _made(layout, islands, unique, wanted, rng, beta, deadline, missed)
        if made is None:
            continue
        puzzle, solution, rounds, repairs, measured = made
        _check_hidden(puzzle, solution)
        if unique and verify:
            confirm_unique(puzzle, solution, deadline)
        return Generated(
            puzzle=puzzle,
            solution=solution,
            seed=seed,
            alpha=alpha,
            beta=beta,
            extra_bridges=layout.extra_bridges,
            attempts=attempt,
            repair_rounds=rounds,
            repairs=repairs,
            difficulty=measured,
            seconds=time.perf_counter() - started,
        )
    raise _failure(
        islands,
        rows,
        cols,
        attempts,
        missed.stuck,
        missed.unrepaired,
        missed.scores,
        difficulty,
        missed.several,
    )


@dataclass
class _Missed:
    """The layouts that gave no puzzle, by why, for the message if none does: the islands
    placed by each that ran out of room (``stuck``), how many a uniqueness repair did not
    converge for (``unrepaired``), the difficulty scores of those outside the request
    (``scores``), and how many had several solutions, which have no difficulty (``several``)."""

    stuck: list[int] = field(default_factory=list)
    unrepaired: int = 0
    scores: list[float] = field(default_factory=list)
    several: int = 0


def _made(
    layout: _Layout,
    islands: int,
    unique: bool,
    wanted: Callable[[Difficulty], bool] | None,
    rng: random.Random,
    beta: Fraction,
    deadline: Deadline,
    missed: _Missed,
) -> tuple[Puzzle, Solution, int | None, int | None, Difficulty | None] | None:
    """The puzzle of ``layout``, its solution, the repair's rounds and repairs (with
    ``unique``) and its difficulty (when one is ``wanted``); None, said in ``missed``, for a
    layout that ran out of room, whose repair did not converge or that misses the difficulty."""
    if len(layout.cells) < islands:
        missed.stuck.append(len(layout.cells))
        return None
    rounds = repairs = None
    if unique:
        repaired = Repair(layout, rng, beta, deadline).run()
        if repaired is None:
            missed.unrepaired += 1
            return None
        rounds, repairs = repaired
    puzzle, solution = layout.puzzle(), layout.solution()
    measured = None
    if wanted is not None:
        try:
            measured = measure_difficulty(puzzle, deadline)
        except SeveralSolutions:
            missed.several += 1
            return None
        if not wanted(measured):
            missed.scores.append(measured.score)
            return None
    return puzzle, solution, rounds, repairs, measured


def _check_hidden(puzzle: Puzzle, solution: Solution) -> None:
    """The hidden solution solves the puzzle: if the construction or a repair is wrong, the
    puzzle is never handed out."""
    violations = check(puzzle, solution)
    if violations:
        raise GenerationError(
            f"internal error: the hidden solution breaks the rules: {violations[0].message}",
            status=Status.FAULT,
        )


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
