"""The ``hashi-asp`` command line: each command is a thin click wrapper over the library function
of the same name.

Exit codes: 0 success, 1 no solution (or ``check`` found a broken rule), 2 bad input or usage,
3 time limit reached before the search gave what was asked, 5 the encoding produced an answer
that breaks the rules, 130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import itertools
import sys

import click

from . import notations, rendering
from .checking import check
from .puzzle import HashiError, Puzzle, PuzzleError
from .solving import Result, facts, max_bridges_of, solve

EXIT_NO_SOLUTION = 1
EXIT_TIME_LIMIT = 3
EXIT_INTERRUPTED = 130


class _Group(click.Group):
    """Turns the library's errors into one line on stderr and the documented exit code."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except HashiError as error:
            click.echo(f"hashi-asp: {error}", err=True)
            ctx.exit(error.exit_code)
        except KeyboardInterrupt:
            click.echo("hashi-asp: interrupted", err=True)
            ctx.exit(EXIT_INTERRUPTED)
        except BrokenPipeError:
            # The reader went away (e.g. `| head`); say nothing more.
            sys.stderr.close()
            ctx.exit(0)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="hashi-asp")
def main() -> None:
    """Solve, check and draw Hashiwokakero ("Bridges") puzzles with answer set programming.

    PUZZLE is a file (.has, dot grid or JSON), '-' for standard input, or the puzzle text itself.
    """


def _puzzle_options(command):
    command = click.option("--notation", type=click.Choice(sorted(notations.PARSERS)),
                           help="Notation of PUZZLE (default: from the extension or the content).")(command)
    return click.argument("puzzle")(command)


def load_puzzle(argument: str, notation: str | None, max_bridges: int = 2) -> Puzzle:
    """PUZZLE as given on the command line: '-' for stdin, else a path or the puzzle text."""
    if argument == "-":
        text = notations.decode(sys.stdin.buffer.read(), "<stdin>")
        return notations.parse(text, notation=notation, source="<stdin>", max_bridges=max_bridges)
    return notations.read(argument, notation=notation, max_bridges=max_bridges)


def _constants(pairs: tuple[str, ...]) -> dict[str, str]:
    constants = {}
    for pair in pairs:
        name, equals, value = pair.partition("=")
        if not equals or not name or not value:
            raise click.BadParameter(f"{pair!r} is not NAME=VALUE", param_hint="'-c'")
        constants[name] = value
    return constants


# ---------------------------------------------------------------------------- solve

@main.command("solve")
@_puzzle_options
@click.option("-n", "--models", type=click.IntRange(min=0), default=1, show_default=True,
              help="Solutions to find; 0 finds all, printing each as it is found.")
@click.option("--format", "output", type=click.Choice(["text", "unicode", "json", "facts"]),
              default="text", show_default=True, help="How to print solutions.")
@click.option("--encoding", type=click.Path(dir_okay=False),
              help="Encoding to use instead of the bundled encodings/hashi.lp.")
@click.option("--add", "additions", multiple=True, type=click.Path(dir_okay=False),
              help="Extra rules loaded with the encoding (repeatable).")
@click.option("-c", "--const", "constant", multiple=True, metavar="NAME=VALUE",
              help="Set a clingo #const (repeatable).")
@click.option("--max-bridges", type=click.IntRange(min=1), default=None,
              help="Most bridges between two islands [default: 2].")
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="Stop searching after this long and print what was found.")
@click.option("--stats", is_flag=True, help="Print clingo's choices, conflicts and times.")
def solve_command(puzzle, notation, models, output, encoding, additions, constant, max_bridges,
                  time_limit, stats):
    """Solve PUZZLE and draw its solutions; the last line gives the count and the verdict."""
    constants = _constants(constant)
    if max_bridges is not None:
        constants["max_bridges"] = str(max_bridges)
    board = load_puzzle(puzzle, notation, max_bridges_of(constants))
    numbers = itertools.count(1)

    def show(solution):
        number = next(numbers)
        if output in ("text", "unicode"):
            if models != 1:
                click.echo(f"Solution {number}:")
            click.echo(rendering.draw(board, solution, output))
            click.echo()
        elif output == "facts":
            click.echo(f"% solution {number}")
            click.echo(rendering.solution_facts(solution))

    result = solve(board, models, encoding=encoding, additions=additions, constants=constants,
                   time_limit=time_limit,
                   on_solution=None if output == "json" else show)
    if output == "json":
        click.echo(rendering.dumps(rendering.result_json(board, result, stats=stats)))
    else:
        comment = "% " if output == "facts" else ""
        click.echo(comment + summary(result, models))
        if stats:
            for key, value in result.stats.items():
                click.echo(f"{comment}{key}: {value}")
    sys.exit(exit_code(result))


def summary(result: Result, models: int) -> str:
    """The closing line: verdict, count, and whether the search space was exhausted."""
    found = len(result.solutions)
    count = "no solution" if found == 0 else f"{found} solution{'s' * (found != 1)}"
    if result.exhausted:
        how = "search exhausted"
    elif result.timed_out:
        how = "time limit reached, search not exhausted"
    elif result.interrupted:
        how = "interrupted, search not exhausted"
    else:
        how = f"stopped after {models} as asked (-n 0 finds all)"
    return f"{result.status}: {count}; {how}"


def exit_code(result: Result) -> int:
    if result.interrupted:
        return EXIT_INTERRUPTED
    if result.status == "unsolvable":
        return EXIT_NO_SOLUTION
    if result.timed_out:
        return EXIT_TIME_LIMIT
    return 0


# ---------------------------------------------------------------------------- check

@main.command("check")
@_puzzle_options
@click.argument("solution")
@click.option("--max-bridges", type=click.IntRange(min=1), default=2, show_default=True,
              help="Most bridges between two islands.")
def check_command(puzzle, solution, notation, max_bridges):
    """Check SOLUTION (JSON) against PUZZLE without clingo, naming every broken rule.

    SOLUTION is {"bridges": [[r1, c1, r2, c2, k], ...]}, the output of `solve --format json`
    (each solution is checked), or a bare list of bridges.  Exit 0 if all are valid, else 1.
    """
    board = load_puzzle(puzzle, notation, max_bridges)
    if solution == "-":
        solutions = notations.parse_solutions(
            notations.decode(sys.stdin.buffer.read(), "<stdin>"), "<stdin>")
    else:
        solutions = notations.read_solutions(solution)
    if not solutions:
        raise PuzzleError("no solutions to check", solution)
    broken = 0
    for number, candidate in enumerate(solutions, 1):
        label = f"solution {number}" if len(solutions) > 1 else "solution"
        violations = check(board, candidate, max_bridges=max_bridges)
        broken += bool(violations)
        if not violations:
            click.echo(f"{label}: valid")
        for violation in violations:
            click.echo(f"{label}: {violation.message}")
    sys.exit(EXIT_NO_SOLUTION if broken else 0)


# ---------------------------------------------------------------------------- facts

@main.command("facts")
@_puzzle_options
@click.option("--max-bridges", type=click.IntRange(min=1), default=2, show_default=True,
              help="Most bridges between two islands (island numbers go up to 4 times this).")
def facts_command(puzzle, notation, max_bridges):
    """Print PUZZLE as ASP facts, the input of encodings/hashi.lp.

    Then: python -m clingo encodings/hashi.lp facts.lp
    """
    click.echo(facts(load_puzzle(puzzle, notation, max_bridges)), nl=False)


if __name__ == "__main__":
    main()
