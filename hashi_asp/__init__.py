"""hashi-asp: solve, check and draw Hashiwokakero puzzles with answer set programming.

The data flow reads top to bottom: ``read`` a puzzle, ``solve`` it with clingo and the encoding
``encodings/hashi.lp``, ``check`` each answer independently, ``draw`` it.
"""

from .checking import Violation, check
from .generation import Generated, GenerationError, generate
from .notations import parse, read, read_solutions, write
from .pictures import svg, write_picture
from .puzzle import Bridge, HashiError, Puzzle, PuzzleError, Solution, bridge
from .reasoning import (Consequences, Count, Difference, Explanation, Uniqueness, consequences,
                        count, explain, unique)
from .rendering import draw
from .solving import EncodingError, InvalidAnswer, Result, encoding_path, facts, solve

__version__ = "0.1.0"

__all__ = [
    "Bridge", "EncodingError", "HashiError", "InvalidAnswer", "Puzzle", "PuzzleError", "Result",
    "Solution", "Violation", "bridge", "check", "draw", "encoding_path", "facts", "parse", "read",
    "read_solutions", "solve", "svg", "write", "write_picture",
    "Generated", "GenerationError", "generate",
    "Consequences", "Count", "Difference", "Explanation", "Uniqueness", "consequences", "count",
    "explain", "unique",
]
