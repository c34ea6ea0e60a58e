"""A command of the tests' own, in one module, as a program of one's own adds a command to
hashi-asp at run time (tests/test_added_command.py): ``doubles``, how many bridges of the first
solution found are double.

Run as a program, it is hashi-asp with the command registered and served by the JSON API:
``python tests/doubles.py doubles PUZZLE``, ``python tests/doubles.py serve``.
"""

from __future__ import annotations

from hashi_asp.commands.declaration import Command, Given, Outcome, Printed, lines
from hashi_asp.commands.shared_options import SEARCHING, formats, read_program
from hashi_asp.puzzle import plural
from hashi_asp.status import Question


def doubles(given: Given) -> Outcome:
    from hashi_asp.solving import solve

    board = given.puzzle
    result = solve(board, program=given.program, time_limit=given.deadline)
    bridges = result.solutions[0].bridges if result.solutions else []
    double = sum(bridge.count >= 2 for bridge in bridges)
    said = f"{plural(double, 'double bridge')} of {len(bridges)}" if bridges else "no solution"

    def document() -> dict:
        return {
            "status": result.status,
            "doubles": double,
            "bridges": len(bridges),
            "timed_out": result.timed_out,
            "puzzle": board.to_json(),
        }

    return Outcome.of(
        result.status,
        Question.FIND,
        result.stopped,
        document=document,
        printed=lambda: Printed(lines(f"{result.status}: {said}")),
        result=result,
    )


COMMAND = Command(
    "doubles",
    """Count the double bridges in the first solution found of PUZZLE.  Exit 0 for a solution,
    1 for none, 3 at the time limit.""",
    (*SEARCHING, formats("text", "json", help="One line of text, or one JSON document.")),
    doubles,
    prepare=read_program,
    asks=Question.FIND,
)


if __name__ == "__main__":
    from hashi_asp import commands
    from hashi_asp.__main__ import main
    from hashi_asp.web import served

    commands.register("doubles")  # this module, by the name it is imported by
    served.SERVED["doubles"] = served.SEARCHING  # reviewed: the puzzle, its rules, the search
    main()
