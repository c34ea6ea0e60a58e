"""``solve``: a puzzle's solutions, shown as they are found, and the verdict."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from ..status import Question
from .declaration import FLAG, INT, Command, Given, Option, Outcome, Printed, lines
from .shared_options import SEARCHING, formats, read_program

if TYPE_CHECKING:
    from ..puzzle import Puzzle, Solution
    from ..solving import Result
    from .output import Look


def solve(given: Given) -> Outcome:
    from .. import notations
    from ..solving import solve

    board, output = given.puzzle, given.format
    if output == "pzprv3":
        notations.write(board, "pzprv3")  # refuses, before the search, what it cannot hold
    numbers = itertools.count(1)
    drawn = output in ("text", "unicode", "facts")
    # Each solution's part of the document, laid out as it is found (within the time limit)
    # rather than all at the end: a thousand solutions of 1 000 islands take a second to lay out
    # (one, a fraction of a millisecond: not worth it, nor where no document is asked for).
    documented = (output == "json" or not given.hooks.showing) and given.models != 1
    laid: list[dict] = []

    def show(solution) -> None:
        if documented:
            from ..notations.json import Laid  # (with Python's json: only where a document is)

            laid.append(Laid(solution.to_json()))
        elif drawn and given.hooks.showing:  # (a study's or the API's run shows nothing)
            numbered = {"numbered": given.models != 1, "style": output}
            given.hooks.show(lines(solution_text(board, solution, next(numbers), **numbered)))

    search = {"program": given.program, "time_limit": given.deadline, "explained": True}
    result = solve(board, given.models, on_solution=show, **search)

    def printed() -> Printed:
        out = ""
        if not drawn and result.solutions:  # svg and pzprv3: the file of the first solution
            out = solution_file(board, result.solutions[0], output)
        text = solve_text(board, result, given.models, stats=given.stats, look=given.look)
        if output == "facts":
            text = "\n".join("% " + line if line else "%" for line in text.split("\n"))
        return Printed(out=out + lines(text), err="") if drawn else Printed(out, lines(text))

    return Outcome.of(
        result.status,
        Question.FIND,
        result.stopped,
        document=lambda: result_json(board, result, stats=given.stats, laid=laid),
        printed=printed,
        result=result,
    )


# ---------------------------------------------------------------------------- its output


def solution_text(
    puzzle: Puzzle, solution: Solution, number: int, *, numbered: bool, style: str = "text"
) -> str:
    """One solution as ``solve`` prints it as it is found: drawn (then a blank line), or as
    ``bridge/5`` facts."""
    from ..drawing import draw

    if style == "facts":
        return f"% solution {number}\n" + solution_facts(solution)
    heading = f"Solution {number}:\n" if numbered else ""
    return heading + draw(puzzle, solution, style) + "\n"


def solution_file(puzzle: Puzzle, solution: Solution, notation: str) -> str:
    """A solution as a file of its own: ``svg``, a picture; ``pzprv3``, the file puzz.link's
    editor opens, with the bridges drawn."""
    if notation == "svg":
        from ..drawing import svg

        return svg(puzzle, solution)
    from ..notations import puzzlink

    return puzzlink.format_pzprv3(puzzle, solution)


def solution_facts(solution: Solution) -> str:
    """A solution as ``bridge/5`` facts, the encoding's output predicate."""
    from ..asp import interface

    return " ".join(interface.bridge_atom(b.ends, b.count) + "." for b in solution.bridges)


def solve_text(
    puzzle: Puzzle, result: Result, models: int, *, stats: bool = False, look: Look | None = None
) -> str:
    """What ``solve`` prints after the solutions: why there is none (if so), the closing line
    (verdict, count, whether the search space was exhausted) and, with ``stats``, clingo's."""
    from ..puzzle import plural
    from .output import TEXT, explained

    look = look or TEXT
    found = len(result.solutions)
    count = "no solution" if found == 0 else plural(found, "solution")
    if result.exhausted:
        how = "search exhausted"
    elif result.timed_out:
        how = "time limit reached, search not exhausted"
    elif result.stopped is not None:
        how = f"{look.signal}, search not exhausted"
    elif found < models:  # a search that is not complete (--connectivity lns) ended
        how = "the neighbourhood search found none, which proves nothing (auto searches on)"
    else:
        how = f"stopped after {models} as asked (-n 0 finds all)"
    text = [f"{result.status}: {count}; {how}"]
    text += [f"{key}: {value}" for key, value in result.stats.items()] if stats else []
    return explained(puzzle, result.explanation, look) + "\n".join(text)


def result_json(
    puzzle: Puzzle, result: Result, *, stats: bool = False, laid: list[dict] | None = None
) -> dict:
    """The document ``solve --format json`` prints (and ``unique``'s, with ``differences``);
    ``laid``: the solutions' parts made as they were found, when they are all there."""
    from .output import with_explanation

    whole = laid is not None and len(laid) == len(result.solutions)
    document: dict = {
        "status": result.status,
        "exhausted": result.exhausted,
        "count": len(result.solutions),
        "timed_out": result.timed_out,
        "solutions": laid if whole else [s.to_json() for s in result.solutions],
        "puzzle": puzzle.to_json(),
    }
    if stats:
        document["stats"] = result.stats
    return with_explanation(document, puzzle, result.explanation)


COMMAND = Command(
    "solve",
    """Solve PUZZLE and print its solutions as they are found (-n 0: all of them); the last line
    gives the count and the verdict, and for no solution the lines before it say why.  --format
    svg and pzprv3 print the first solution as a file, and the rest on stderr.

    The puzzle's own rules apply (a Tatham ID's mK and L) unless --max-bridges, --no-loops or
    -c max_bridges=K / -c no_loops=1 say otherwise.
    """,
    (
        *SEARCHING,
        Option("models", INT, "Solutions (0: all).", default=1, low=0, short="-n"),
        formats(
            "text", "unicode", "json", "facts", "svg", "pzprv3", help="How to print solutions."
        ),
        Option("stats", FLAG, "Print clingo's choices, conflicts and times.", default=False),
    ),
    solve,
    prepare=read_program,
    asks=Question.FIND,
)
