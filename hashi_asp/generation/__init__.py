"""Puzzle generation: the generator of Coelho, Laporte, Lindbeck & Vidal (2019), and a repair loop
that makes its puzzles unique.

- :mod:`.construction`: the four steps of Coelho et al. (a random layout built with its
  solution), the defaults and the checks of a request;
- :mod:`.repair`: the uniqueness repair of ``--unique``, on a known-solution search
  (:class:`hashi_asp.another_solution.KnownSolution`);
- :mod:`.generator`: :func:`generate`, one puzzle built, repaired, rated and checked;
- :mod:`.batch`: many puzzles as the generate command asks for them, and their files.

Fixing a puzzle someone wrote (the fewest edits that make it unique) is :mod:`hashi_asp.fixing`.
"""

from .batch import Making, batch, file_name, keep, save, solution_name
from .construction import (
    DEFAULT_ALPHA,
    DEFAULT_ATTEMPTS,
    DEFAULT_BETA,
    GenerationError,
    default_size,
    defaults,
)
from .generator import Generated, generate

__all__ = [
    "DEFAULT_ALPHA",
    "DEFAULT_ATTEMPTS",
    "DEFAULT_BETA",
    "Generated",
    "GenerationError",
    "Making",
    "batch",
    "default_size",
    "defaults",
    "file_name",
    "generate",
    "keep",
    "save",
    "solution_name",
]
