"""hashi-asp: solve, check, explain and generate Hashiwokakero puzzles with answer set
programming.

The floors, bottom up (a module imports only from the floors below and from the layers below
its own on its floor; tests/test_layout.py holds the one list of them and the code to it):

1. the ground: :mod:`.status` (verdicts, stops, exit codes), :mod:`.errors`, :mod:`.puzzle`
   (islands, rules, bridges, where bridges can go), :mod:`.checking` (the independent checker),
   :mod:`.stopping` (deadlines, signals, work that cannot be interrupted), :mod:`.files`,
   :mod:`.graphs` (graph algorithms, each a function of its own), and :mod:`.workers` (where
   work is made: this process, runner processes, a Dask cluster);
2. puzzles in and out: :mod:`.pictures` (puzzles read from pictures), :mod:`.notations` (reading
   and writing puzzles), :mod:`.drawing` (text, SVG, PNG), :mod:`.play` (a player's state:
   bridges drawn, pairs ruled out, counts narrowed);
3. clingo: :mod:`.asp`, the only code that knows clingo (the predicates between Python and the
   encodings, the one owner of ``clingo.Control``, the catalogue of formulations);
4. the capabilities: a function for each, named for what it does: :func:`solve`, :func:`unique`,
   :func:`count` (:mod:`.solving`), :func:`hint`, :func:`explain` (:mod:`.reasoning`),
   :func:`steps` (:mod:`.walkthrough`, with ``difficulty`` on the scale of :mod:`.difficulty`),
   :func:`generate`, :func:`fix` (:mod:`.fixing`), :func:`review` (what ``unique`` prints),
   :func:`suspects` (:mod:`.misreading`: the islands of a puzzle read from a picture probably
   misread);
5. the commands: one unit per command in :mod:`.commands` (its options declared once, the
   function that runs it and the documents it prints);
6. the fronts: :mod:`.cli` (the command line), :mod:`.web` (the JSON API and the page),
   :mod:`.study` (many runs, each a unit's, and ``bench``, a study of one variant).  A command
   that starts a front lives with it (``serve`` in :mod:`.web.serve`, ``study`` in
   :mod:`.study.command`, ``bench`` in :mod:`.study.bench`).

``import hashi_asp`` is cheap: each name below is imported from its module on first use.  In a
notebook (IPython running) a puzzle shows as its picture (:func:`.drawing.show_in_notebooks`).
"""

from __future__ import annotations

import importlib

from .version import VERSION as __version__  # noqa: F401  (the package's version, as usual)

# typing.TYPE_CHECKING without importing typing, which brings re, enum and more (about 10 ms of
# a `python -c "import hashi_asp"`); type checkers take any name TYPE_CHECKING as true.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


_HOMES = {
    "puzzle": ["Bridge", "Cell", "Geometry", "Pair", "Puzzle", "Rules", "Solution", "bridge"],
    "errors": ["HashiError", "PuzzleError"],
    "status": ["Question", "Status", "Stop", "Verdict"],
    "stopping": ["Deadline", "Stopped"],
    "notations": ["parse", "read", "read_solutions", "write"],
    "checking": ["Violation", "check"],
    "play": ["Play"],
    "drawing": ["draw", "png", "svg", "write_picture"],
    "asp.interface": ["EncodingError", "InvalidAnswer", "Program", "encoding_path", "facts"],
    "solving": ["Difference", "Result", "count", "solve", "unique"],
    "reasoning": ["Explanation", "Hint", "explain", "hint"],
    "difficulty": ["Difficulty"],
    "walkthrough": ["Step", "Walkthrough", "steps"],
    "generation": ["Generated", "GenerationError", "generate"],
    "fixing": ["Edit", "Fix", "fix"],
    "reviewing": ["Review", "review"],
    "misreading": ["suspects"],
    "study.bench": ["Row"],
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
    "Play",
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
    "suspects",
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


def _notebook() -> None:
    """In a notebook, puzzles show as their pictures: registered with IPython when it is running
    (checked without importing it), so that the puzzle itself knows nothing of drawings."""
    import sys

    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is not None:
        from .drawing import show_in_notebooks

        show_in_notebooks(shell)


_notebook()


if TYPE_CHECKING:
    from .asp.interface import EncodingError, InvalidAnswer, Program, encoding_path, facts
    from .checking import Violation, check
    from .difficulty import Difficulty
    from .drawing import draw, png, svg, write_picture
    from .errors import HashiError, PuzzleError
    from .fixing import Edit, Fix, fix
    from .generation import Generated, GenerationError, generate
    from .misreading import suspects
    from .notations import parse, read, read_solutions, write
    from .play import Play
    from .puzzle import Bridge, Cell, Geometry, Pair, Puzzle, Rules, Solution, bridge
    from .reasoning import Explanation, Hint, explain, hint
    from .reviewing import Review, review
    from .solving import Difference, Result, count, solve, unique
    from .status import Question, Status, Stop, Verdict
    from .stopping import Deadline, Stopped
    from .study.bench import Row
    from .walkthrough import Step, Walkthrough, steps
