"""``solve``: a puzzle's solutions, shown as they are found, and the verdict."""

from __future__ import annotations

import itertools

from ..status import Question
from .common import SEARCHING, formats, read_program
from .unit import FLAG, INT, Command, Given, Option, Outcome, Printed, lines


def solve(given: Given) -> Outcome:
    from .. import notations, reports
    from ..solving import solve

    board, output = given.puzzle, given.format
    if output == "pzprv3":
        notations.write(board, "pzprv3")  # refuses, before the search, what it cannot hold
    numbers = itertools.count(1)
    drawn = output in ("text", "unicode", "facts")

    def show(solution) -> None:
        if drawn:
            numbered = {"numbered": given.models != 1, "style": output}
            given.hooks.show(
                lines(reports.solution_text(board, solution, next(numbers), **numbered))
            )

    search = {"program": given.program, "time_limit": given.deadline, "explained": True}
    result = solve(board, given.models, on_solution=show, **search)

    def printed() -> Printed:
        out = ""
        if not drawn and result.solutions:  # svg and pzprv3: the file of the first solution
            out = reports.solution_file(board, result.solutions[0], output)
        text = reports.solve_text(board, result, given.models, stats=given.stats, look=given.look)
        if output == "facts":
            text = "\n".join("% " + line if line else "%" for line in text.split("\n"))
        return Printed(out=out + lines(text), err="") if drawn else Printed(out, lines(text))

    return Outcome.of(
        result.status,
        Question.FIND,
        result.stopped,
        document=lambda: reports.result_json(board, result, stats=given.stats),
        printed=printed,
        result=result,
    )


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
)
