"""Many puzzles at once, as the generate command and studies ask for them, and their files."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

from .. import notations
from ..difficulty import parse_request
from ..files import write_output
from ..notations.json import dumps
from ..puzzle import Rules, parse_size
from ..stopping import Deadline
from .construction import (
    DEFAULT_ATTEMPTS,
    GenerationError,
    _fraction,
    _validate,
    default_size,
    defaults,
)
from .generator import Generated, generate


def file_name(
    rows: int, cols: int, islands: int, alpha, beta, seed: int, notation: str = "has"
) -> str:
    """A name in the style of the Coelho et al. dataset: ``Hs_<size>_<n>_<beta%>_<alpha%>_<seed>``
    (size: the side of a square board, else ``<cols>x<rows>``; seed: at least 3 digits), with
    the notation's extension."""
    size = str(cols) if rows == cols else f"{cols}x{rows}"
    return (
        f"Hs_{size}_{islands}_{_percent(beta)}_{_percent(alpha)}_{seed:03d}"
        f"{notations.extension(notation)}"
    )


@lru_cache(maxsize=64)
def _percent(share: float | Fraction | str) -> str:
    # Cached: `generate --count` names every file up front, and exact fractions are slow.
    return f"{round(_fraction(share, 'share') * 100):02d}"


def solution_name(name: str) -> str:
    """Where ``--solution`` writes the hidden solution of the puzzle file ``name``."""
    return name.rsplit(".", 1)[0] + ".solution.json"


def batch(
    islands: int,
    count: int = 1,
    *,
    size: str | None = None,
    alpha: float | Fraction | str | None = None,
    beta: float | Fraction | str | None = None,
    seed: int = 1,
    notation: str = "has",
    difficulty: str | None = None,
    rules: Rules = Rules(),
    **options: Any,
) -> tuple[list[str], Iterator[tuple[str, Generated, str]]]:
    """``count`` puzzles as users ask for them: the board ``size`` as ``WxH`` (default: by the
    islands), ``difficulty`` as a band or scores (:func:`~hashi_asp.difficulty.parse_request`),
    puzzle i with seed ``seed + i``.  Returns their file names at once (every request checked
    first, a notation that cannot record the rules refused), and an iterator that makes them one
    by one: (file name, the puzzle made, its text in ``notation``).  ``options`` go to
    :func:`generate` (``unique``, ``attempts``, ``time_limit``...)."""
    time_limit = options.pop("time_limit", None)
    asked = (islands, count, size, alpha, beta, seed, notation, difficulty, rules, options)
    making = Making.of(*asked)
    return list(making.names), (making.one(i, time_limit) for i in range(count))


@dataclass(frozen=True)
class Making:
    """The puzzles of one request of :func:`batch`, checked: :meth:`one` makes puzzle i (seed +
    i), the same in any process on any machine (the generate command's ``--jobs`` and
    ``--scheduler`` make them on the workers' executors)."""

    islands: int
    rows: int
    cols: int
    alpha: Fraction
    beta: Fraction
    seed: int
    notation: str
    difficulty: tuple[float, float] | str | None
    rules: Rules
    options: dict[str, Any]
    names: tuple[str, ...]

    @classmethod
    def of(
        cls,
        islands: int,
        count: int,
        size: str | None,
        alpha: float | Fraction | str | None,
        beta: float | Fraction | str | None,
        seed: int,
        notation: str,
        difficulty: str | None,
        rules: Rules,
        options: dict[str, Any],
    ) -> Making:
        rows, cols = parse_size(size) if size else default_size(islands)
        alpha, beta = defaults(alpha, beta, rules)
        attempts = options.get("attempts", DEFAULT_ATTEMPTS)
        _validate(islands, rows, cols, alpha, beta, rules, attempts)
        wanted = parse_request(difficulty) if difficulty else None
        chosen = notations.named(notation)
        if not rules.standard and not chosen.rules:
            raise GenerationError(
                f"the {chosen.name} notation cannot record the rules asked for "
                f"({rules}); use json or tatham, which can"
            )
        names = tuple(
            file_name(rows, cols, islands, alpha, beta, seed + i, chosen.name) for i in range(count)
        )
        board = (islands, rows, cols, alpha, beta, seed)
        return cls(*board, chosen.name, wanted, rules, dict(options), names)

    def one(self, i: int, time_limit: float | Deadline | None = None) -> tuple[str, Generated, str]:
        """Puzzle i: (file name, the puzzle made, its text)."""
        puzzle = generate(
            self.islands,
            self.rows,
            self.cols,
            self.alpha,
            self.beta,
            self.seed + i,
            difficulty=self.difficulty,
            rules=self.rules,
            time_limit=time_limit,
            **self.options,
        )
        return self.names[i], puzzle, notations.write(puzzle.puzzle, self.notation)


def keep(
    folder: Path,
    name: str,
    made: Generated,
    text: str,
    *,
    with_solution: bool = False,
    force: bool = False,
) -> None:
    """Write a puzzle made by :func:`batch` into ``folder`` as ``name``, and with
    ``with_solution`` its hidden solution beside it (:func:`solution_name`), each whole or not at
    all; an existing file is never replaced unless ``force``."""
    save(text, folder / name, force=force)
    if with_solution:
        hidden = dumps(made.solution.to_json()) + "\n"
        save(hidden, folder / solution_name(name), force=force)


def save(text: str, path: Path, *, force: bool = False) -> None:
    """Write ``text`` to ``path`` whole or not at all (see
    :func:`~hashi_asp.files.write_output`); an existing file is never replaced unless
    ``force``."""
    write_output(path, text.encode("utf-8"), force=force)
