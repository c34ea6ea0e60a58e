"""hashi-asp: solve, check, explain and generate Hashiwokakero puzzles with answer set
programming.

The layers, bottom up (each imports only from the layers below it):

1. :mod:`.puzzle` (islands, rules, bridges, where bridges can go), :mod:`.stopping` (time
   limits, signals), :mod:`.files`;
2. :mod:`.notations` (reading and writing puzzles), :mod:`.checking` (the independent checker),
   :mod:`.drawing` (text, SVG and PNG pictures);
3. :mod:`.asp`, the only code that knows clingo: the encoding's interface and the one owner of
   ``clingo.Control``;
4. the capabilities, each a function with the name of its command: :func:`solve`,
   :func:`unique`, :func:`count` (:mod:`.solving`), :func:`hint`, :func:`explain`
   (:mod:`.reasoning`), :func:`steps` (:mod:`.walkthrough`, which also has ``difficulty``
   on the scale of :mod:`.difficulty`), :func:`generate`, and ``bench.bench``;
5. :mod:`.commands`, one unit per command, each with the text and JSON documents it prints;
   :mod:`.cli`, click wiring.

``import hashi_asp`` is cheap: each name below is imported from its module on first use.
"""

from __future__ import annotations

import importlib

# typing.TYPE_CHECKING without importing typing, which brings re, enum and more (about 10 ms of
# a `python -c "import hashi_asp"`); type checkers take any name TYPE_CHECKING as true.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__version__ = "0.1.0"

_HOMES = {
    "puzzle": [
        "Bridge",
        "Cell",
        "Geometry",
        "HashiError",
        "Pair",
        "Puzzle",
        "PuzzleError",
        "Rules",
        "Solution",
        "bridge",
    ],
    "status": ["Question", "Status", "Stop", "Verdict"],
    "stopping": ["Deadline", "Stopped"],
    "notations": ["parse", "read", "read_solutions", "write"],
    "checking": ["Violation", "check"],
    "drawing": ["draw", "png", "svg", "write_picture"],
    "asp.interface": ["EncodingError", "InvalidAnswer", "Program", "encoding_path", "facts"],
    "solving": ["Difference", "Result", "count", "solve", "unique"],
    "reasoning": ["Explanation", "Hint", "explain", "hint"],
    "difficulty": ["Difficulty"],
    "walkthrough": ["Step", "Walkthrough", "steps"],
    "generation": ["Generated", "GenerationError", "generate"],
    "fixing": ["Edit", "Fix", "fix"],
    "reviewing": ["Review", "review"],
    "bench": ["Row"],
}
_HOME = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [
    "Bridge",
    "Cell",
    "Deadline",
    "Difference",
    "Difficulty",
    "Edit",
    "EncodingError",
    "Explanation",
    "Fix",
    "Generated",
    "GenerationError",
    "Geometry",
    "HashiError",
    "Hint",
    "InvalidAnswer",
    "Pair",
    "Program",
    "Puzzle",
    "PuzzleError",
    "Question",
    "Result",
    "Review",
    "Row",
    "Rules",
    "Solution",
    "Status",
    "Step",
    "Stop",
    "Stopped",
    "Verdict",
    "Violation",
    "Walkthrough",
    "bridge",
    "check",
    "count",
    "draw",
    "encoding_path",
    "explain",
    "facts",
    "fix",
    "generate",
    "hint",
    "parse",
    "png",
    "read",
    "read_solutions",
    "review",
    "solve",
    "steps",
    "svg",
    "unique",
    "write",
    "write_picture",
]
assert sorted(__all__) == sorted(_HOME), "every public name has one home"


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'hashi_asp' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])


if TYPE_CHECKING:
    from .asp.interface import EncodingError, InvalidAnswer, Program, encoding_path, facts
    from .bench import Row
    from .checking import Violation, check
    from .difficulty import Difficulty
    from .drawing import draw, png, svg, write_picture
    from .fixing import Edit, Fix, fix
    from .generation import Generated, GenerationError, generate
    from .notations import parse, read, read_solutions, write
    from .puzzle import (
        Bridge,
        Cell,
        Geometry,
        HashiError,
        Pair,
        Puzzle,
        PuzzleError,
        Rules,
        Solution,
        bridge,
    )
    from .reasoning import Explanation, Hint, explain, hint
    from .reviewing import Review, review
    from .solving import Difference, Result, count, solve, unique
    from .status import Question, Status, Stop, Verdict
    from .stopping import Deadline, Stopped
    from .walkthrough import Step, Walkthrough, steps
