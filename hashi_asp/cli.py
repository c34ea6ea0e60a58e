"""The ``hashi-asp`` command line: each command is a thin click wrapper over the library function
of the same name.

Exit codes: 0 success, 1 no solution (or ``check`` found a broken rule, or ``unique`` found
two), 2 bad input or usage, 3 time limit reached before the search gave what was asked,
4 ``unique`` found no solution, 5 the encoding produced an answer that breaks the rules,
130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import itertools
import sys

import click
from tqdm import tqdm

from . import notations, reasoning, rendering
from .checking import check
from .puzzle import HashiError, Puzzle, PuzzleError, Solution, bridge
from .solving import Result, facts, max_bridges_of, solve

EXIT_NO_SOLUTION = 1
EXIT_MULTIPLE = 1         # `unique`: more than one solution
EXIT_TIME_LIMIT = 3
EXIT_UNSOLVABLE = 4       # `unique`: no solution (1 is taken by "multiple")
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
    why = _why(board, result, time_limit, encoding=encoding, additions=additions,
               constants=constants)
    if output == "json":
        click.echo(rendering.dumps(_with_explanation(
            rendering.result_json(board, result, stats=stats), board, why)))
    else:
        comment = "% " if output == "facts" else ""
        if why is not None:
            _echo_explanation(board, why, "text" if output == "facts" else output, comment)
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


# ---------------------------------------------------------------------------- reasoning

def _search_options(command):
    """The rule and search options of `solve`, for the commands that reason about all solutions."""
    command = click.option("--time-limit", type=click.FloatRange(min=0, min_open=True),
                           metavar="SECONDS", help="Stop searching after this long.")(command)
    command = click.option("--max-bridges", type=click.IntRange(min=1), default=None,
                           help="Most bridges between two islands [default: 2].")(command)
    command = click.option("-c", "--const", "constant", multiple=True, metavar="NAME=VALUE",
                           help="Set a clingo #const (repeatable).")(command)
    command = click.option("--add", "additions", multiple=True, type=click.Path(dir_okay=False),
                           help="Extra rules loaded with the encoding (repeatable).")(command)
    return click.option("--encoding", type=click.Path(dir_okay=False),
                        help="Encoding to use instead of the bundled encodings/hashi.lp.")(command)


def _format_option(*choices):
    return click.option("--format", "output", type=click.Choice(choices), default=choices[0],
                        show_default=True, help="Drawing style, or one JSON document.")


def _board_and_rules(puzzle, notation, encoding, additions, constant, max_bridges):
    """The puzzle, and the keyword arguments that give the library functions the same rules."""
    constants = _constants(constant)
    if max_bridges is not None:
        constants["max_bridges"] = str(max_bridges)
    board = load_puzzle(puzzle, notation, max_bridges_of(constants))
    return board, {"encoding": encoding, "additions": additions, "constants": constants}


def _highlight(text: str) -> str:
    # click.echo drops the colour when standard output is not a terminal; the lists printed
    # beside each drawing say the same in plain text.
    return click.style(text, fg="red", bold=True)


def _undecided(text: str) -> str:
    return click.style("?", fg="yellow", bold=True)


def _cell(cell) -> str:
    return f"({cell[0]}, {cell[1]})"


def _pair(a, b) -> str:
    return f"{_cell(a)}-{_cell(b)}"


def _why(board: Puzzle, result: Result, time_limit, **rules) -> reasoning.Explanation | None:
    """For an unsolvable verdict, the explanation (its searches get their own time limit)."""
    if result.status != "unsolvable":
        return None
    return reasoning.explain(board, time_limit=time_limit, **rules)


def _with_explanation(document: dict, board: Puzzle, why: reasoning.Explanation | None) -> dict:
    if why is not None:
        document["explanation"] = why.to_json(board)
    return document


def _echo_explanation(board: Puzzle, why: reasoning.Explanation, style: str,
                      prefix: str = "") -> None:
    lines = ["Why there is no solution:"]
    lines += [f"  - {failed.message}" for failed in why.checks]
    if why.core is None:
        stopped = "time limit reached" if why.timed_out else "interrupted"
        lines.append(f"  ({stopped} before a set of islands to blame was found)")
    elif not why.core:
        lines.append("  - even with every island number ignored, no bridges connect all the "
                     "islands without crossing")
    else:
        listing = ", ".join(f"{_cell(cell)} {board.islands[cell]}" for cell in why.core)
        if len(why.core) == 1:
            lines.append(f"  - the number of island {listing} cannot be met, whatever the other "
                         "islands' numbers")
        else:
            proof = ("minimal: without any one of them, the others can be met" if why.minimal
                     else "not proven minimal: the time limit came first")
            lines.append(f"  - these {len(why.core)} island numbers cannot all be met together "
                         f"({proof}): {listing}")
        lines += ["", rendering.draw(board, None, style,
                                     marks={cell: _highlight for cell in why.core})]
    for line in "\n".join(lines).splitlines():
        click.echo(prefix + line)
    click.echo(prefix.rstrip())


@main.command("unique")
@_puzzle_options
@_format_option("text", "unicode", "json")
@_search_options
def unique_command(puzzle, notation, output, encoding, additions, constant, max_bridges,
                   time_limit):
    """Decide whether PUZZLE has exactly one solution, by searching for two.

    For two, draws both and lists the pairs of islands where they differ; for none, says why.
    Exit 0 unique, 1 multiple, 4 unsolvable, 3 time limit before a verdict.
    """
    board, rules = _board_and_rules(puzzle, notation, encoding, additions, constant, max_bridges)
    result = reasoning.unique(board, time_limit=time_limit, **rules)
    why = _why(board, result, time_limit, **rules)
    if output == "json":
        document = rendering.result_json(board, result)
        document["differences"] = [list(d) for d in result.differences]
        click.echo(rendering.dumps(_with_explanation(document, board, why)))
    else:
        marks = {(d[:2], d[2:4]): _highlight for d in result.differences}
        for number, solution in enumerate(result.solutions, 1):
            if len(result.solutions) > 1:
                click.echo(f"Solution {number}:")
            click.echo(rendering.draw(board, solution, output, marks=marks))
            click.echo()
        if result.differences:
            click.echo(f"The two solutions differ at {len(result.differences)} pairs of islands "
                       "(bridges in solution 1, in solution 2):")
            for d in result.differences:
                click.echo(f"  {_pair(d[:2], d[2:4])}: {d.first}, {d.second}")
            click.echo()
        if why is not None:
            _echo_explanation(board, why, output)
        click.echo(_unique_summary(result))
    sys.exit({"unique": 0, "multiple": EXIT_MULTIPLE, "unsolvable": EXIT_UNSOLVABLE}.get(
        result.status, EXIT_INTERRUPTED if result.interrupted else EXIT_TIME_LIMIT))


def _unique_summary(result: reasoning.Uniqueness) -> str:
    stopped = "time limit reached" if result.timed_out else "interrupted"
    return {
        "unique": "unique: exactly 1 solution; search exhausted",
        "multiple": "multiple: at least 2 solutions (the search stops at 2; "
                    "`hashi-asp count` counts them)",
        "unsolvable": "unsolvable: no solution; search exhausted",
        "solved": f"solved: 1 solution found; {stopped} before a second was ruled out",
    }.get(result.status, f"unknown: {stopped} before any solution was found")


@main.command("count")
@_puzzle_options
@_format_option("text", "json")
@_search_options
@click.option("--check/--no-check", "verify", default=True, show_default=True,
              help="Check every solution with the independent checker (about 1.5 ms each).")
def count_command(puzzle, notation, output, encoding, additions, constant, max_bridges,
                  time_limit, verify):
    """Count the solutions of PUZZLE by enumerating them all.

    A live count shows on standard error when it is a terminal.  Exit 0 with the exact count,
    1 if there is no solution, 3 with "at least N" when the time limit cut the count short.
    """
    board, rules = _board_and_rules(puzzle, notation, encoding, additions, constant, max_bridges)
    with tqdm(desc="counting", unit=" solutions", file=sys.stderr, leave=False,
              disable=not sys.stderr.isatty()) as progress:
        result = reasoning.count(board, time_limit=time_limit, verify=verify,
                                 on_solution=lambda n: progress.update())
    if output == "json":
        document = {"status": result.status, "count": result.count,
                    "exhausted": result.exhausted, "timed_out": result.timed_out,
                    "checked": verify, "seconds": result.stats["solve_seconds"],
                    "puzzle": board.to_json()}
        click.echo(rendering.dumps(document))
    elif result.exhausted:
        click.echo(f"{result.count} solution{'s' * (result.count != 1)}; search exhausted")
    else:
        stopped = "time limit reached" if result.timed_out else "interrupted"
        click.echo(f"at least {result.count} solution{'s' * (result.count != 1)} ({stopped} "
                   f"after {result.stats['solve_seconds']:.1f} s)")
    if result.interrupted:
        sys.exit(EXIT_INTERRUPTED)
    sys.exit(EXIT_TIME_LIMIT if not result.exhausted else 0 if result.count else EXIT_NO_SOLUTION)


@main.command("hint")
@_puzzle_options
@click.option("--given", metavar="SOLUTION_OR_PARTIAL.json",
              help="Bridges a player has drawn (JSON, as `check` reads): can they still be "
                   "completed, and what do they force?  Each is a lower bound: a single bridge "
                   "may still become a double.")
@_format_option("text", "unicode", "json")
@_search_options
def hint_command(puzzle, notation, given, output, encoding, additions, constant, max_bridges,
                 time_limit):
    """Show the bridges every solution of PUZZLE has, and where solutions differ.

    The drawing shows the bridges all solutions share; '?' marks a pair of islands whose bridges
    differ between solutions, listed below with the counts they take.  With --given, only the
    solutions extending the player's bridges count: the bridges they force are listed, and if
    none extends them, a minimal set of the drawn bridges that cannot all stay.  Exit 0 if there
    is a solution (extending --given), 1 if not, 3 if the time limit came first.
    """
    board, rules = _board_and_rules(puzzle, notation, encoding, additions, constant, max_bridges)
    drawn = None
    if given is not None:
        solutions = (notations.parse_solutions(notations.decode(sys.stdin.buffer.read(), "<stdin>"),
                                               "<stdin>") if given == "-"
                     else notations.read_solutions(given))
        if len(solutions) != 1:
            raise PuzzleError(f"expected one set of bridges, found {len(solutions)}", given)
        drawn = solutions[0]
    found = reasoning.consequences(board, drawn, time_limit=time_limit, **rules)
    why = None
    if found.status == "unsolvable" and found.conflict == []:     # the puzzle itself
        why = reasoning.explain(board, time_limit=time_limit, **rules)
    if output == "json":
        click.echo(rendering.dumps(_with_explanation(_hint_json(board, found), board, why)))
    else:
        _echo_hint(board, found, output)
        if why is not None:
            _echo_explanation(board, why, output)
        click.echo(_hint_summary(found))
    if found.interrupted:
        sys.exit(EXIT_INTERRUPTED)
    sys.exit({"unique": 0, "multiple": 0, "unsolvable": EXIT_NO_SOLUTION}.get(found.status,
                                                                             EXIT_TIME_LIMIT))


def _options_text(counts) -> str:
    words = [str(k) for k in counts]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _echo_hint(board: Puzzle, found: reasoning.Consequences, style: str) -> None:
    if found.illegal:
        click.echo("The drawn bridges break the rules:")
        for failed in found.illegal:
            click.echo(f"  - {failed.message}")
        click.echo()
        return
    if found.conflict:
        click.echo("The drawn bridges cannot be completed: no solution has all of these "
                   f"together{'' if found.minimal else ' (not proven minimal: time limit)'}:")
        for b in found.conflict:
            click.echo(f"  {_pair(*b.ends)}: {b.count}")
        click.echo()
        click.echo(rendering.draw(board, found.given, style,
                                  marks={b.ends: _highlight for b in found.conflict}))
        click.echo()
        return
    if found.status not in ("unique", "multiple"):
        return
    undecided = found.undecided
    forced = found.forced if found.given is not None else []
    if found.given is not None:
        if found.given.bridges and not check(board, found.given):
            click.echo("The drawn bridges already solve the puzzle.")
        else:
            click.echo(f"The drawn bridges can be completed; they force {len(forced)} more:")
            for b in forced:
                options = undecided.get(b.ends)
                click.echo(f"  {_pair(*b.ends)}: " + (f"at least {b.count} ({_options_text(options)})"
                                                      if options else str(b.count)))
        click.echo()
    # Decided pairs drawn as they are in every solution; undecided ones as '?'.
    shown = Solution.of([*found.cautious, *(bridge(*pair, 1) for pair in undecided)])
    marks = {**{b.ends: _highlight for b in forced}, **{pair: _undecided for pair in undecided}}
    click.echo(rendering.draw(board, shown, style, marks=marks))
    click.echo()
    if undecided:
        click.echo(f"Pairs whose bridges differ between solutions ({len(undecided)}; "
                   "the counts they take):")
        for pair, counts in undecided.items():
            click.echo(f"  {_pair(*pair)}: {_options_text(counts)}")
        click.echo()


def _hint_summary(found: reasoning.Consequences) -> str:
    pairs = len(found.options)
    extending = " extending the drawn bridges" if found.given is not None else ""
    if found.status == "unique":
        return f"unique: all {pairs} pairs of neighbours are decided: exactly 1 solution{extending}"
    if found.status == "multiple":
        return (f"multiple: {pairs - len(found.undecided)} of {pairs} pairs of neighbours are the "
                f"same in every solution{extending}, {len(found.undecided)} differ")
    if found.status == "unsolvable":
        return f"unsolvable: no solution{extending}"
    stopped = "time limit reached" if found.timed_out else "interrupted"
    return f"unknown: {stopped} before the consequences were complete"


def _hint_json(board: Puzzle, found: reasoning.Consequences) -> dict:
    document = {
        "status": found.status,
        "exhausted": found.exhausted,
        "timed_out": found.timed_out,
        "cautious": [list(b) for b in found.cautious],
        "brave_only": [list(b) for b in found.brave if len(found.options[b.ends]) > 1],
        "empty": [[*a, *b] for a, b in found.empty],
        "undecided": [[*a, *b, list(ks)] for (a, b), ks in found.undecided.items()],
        "solutions": [found.solution.to_json()] if found.solution else [],
    }
    if found.given is not None:
        document.update({
            "given": found.given.to_json(),
            "forced": [list(b) for b in found.forced] if found.options else [],
            "illegal": [reasoning.violation_json(v) for v in found.illegal],
            "conflict": None if found.conflict is None else [list(b) for b in found.conflict],
            "minimal": found.minimal,
        })
    document["puzzle"] = board.to_json()
    return document


if __name__ == "__main__":
    main()
