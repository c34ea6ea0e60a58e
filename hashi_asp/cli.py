"""The ``hashi-asp`` command line: each command is a thin click wrapper over the library function
of the same name.

Exit codes: 0 success, 1 no solution (or ``check`` found a broken rule, or ``unique`` found
two), 2 bad input or usage, 3 time limit reached before the search gave what was asked,
4 ``unique`` found no solution, 5 the encoding produced an answer that breaks the rules,
130 interrupted (Ctrl-C), 143 terminated (SIGTERM).
"""

from __future__ import annotations

import itertools
import math
import os
import re
import sys
import time
from pathlib import Path

import click

from . import (bench, difficulty, generation, interruption, notations, pictures, puzzlink,
               reasoning, rendering)
from .checking import check
from .files import write_atomically
from .puzzle import MAX_BRIDGES_LIMIT, HashiError, Puzzle, PuzzleError, Solution, bridge
from .solving import (Deadline, Result, TimeLimitReached, facts, grounding_abandoned,
                      max_bridges_of, no_loops_of, solve)

EXIT_NO_SOLUTION = 1
EXIT_MULTIPLE = 1         # `unique`: more than one solution
EXIT_TIME_LIMIT = 3
EXIT_UNSOLVABLE = 4       # `unique`: no solution (1 is taken by "multiple")


class _Group(click.Group):
    """Turns the library's errors into one line on stderr and the documented exit code, and
    Ctrl-C and SIGTERM into a clean stop (see :mod:`hashi_asp.interruption`)."""

    def main(self, *args, **kwargs):
        with interruption.handling_signals():
            try:
                return super().main(*args, **kwargs)
            except SystemExit as done:
                if grounding_abandoned():
                    # clingo is still grounding in a thread that cannot be stopped, and the
                    # interpreter's shutdown would wait on it or cut it down mid-call: leave now.
                    _flush()
                    os._exit(done.code if isinstance(done.code, int) else 1)
                raise

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except HashiError as error:
            click.echo(f"hashi-asp: {error}", err=True)
            ctx.exit(error.exit_code)
        except KeyboardInterrupt:
            click.echo(f"hashi-asp: {interruption.stopped_by()}", err=True)
            ctx.exit(interruption.exit_code())
        except MemoryError:
            click.echo("hashi-asp: out of memory: the input is too large for this machine", err=True)
            ctx.exit(2)
        except BrokenPipeError:
            # The reader went away (e.g. `| head`); say nothing more.
            sys.stderr.close()
            ctx.exit(0)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="hashi-asp")
def main() -> None:
    """Solve, check and draw Hashiwokakero ("Bridges") puzzles with answer set programming.

    PUZZLE is a file (.has, dot grid, JSON, pzprv3), '-' for standard input, or the puzzle
    itself: its text, a puzz.link URL or a Simon Tatham game ID.
    """


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass


def _deadline(ctx, param, value) -> Deadline:
    """--time-limit as one deadline for the whole command, counted from here, before the
    puzzle is read; grounding still running at the deadline is left behind (the command ends)."""
    return Deadline(value, abandon_grounding=True)


def _time_limit_option(help: str):
    return click.option("--time-limit", "time_limit", type=click.FloatRange(min=0, min_open=True),
                        metavar="SECONDS", callback=_deadline, help=help)


def _finite(value: float, option: str) -> float:
    if not math.isfinite(value):
        raise click.BadParameter(f"{value} is not a finite number", param_hint=f"'{option}'")
    return value


def _stopped(timed_out: bool) -> str:
    """Why a search ended early, for messages."""
    return "time limit reached" if timed_out else interruption.stopped_by()


def _stdin_text() -> str:
    """Standard input as text, read up to the size limit of files."""
    if sys.stdin is None:
        raise PuzzleError("standard input is closed", "<stdin>")
    return notations.read_stream(sys.stdin.buffer, "<stdin>")


def _puzzle_options(command):
    command = click.option("--notation", type=click.Choice(sorted(notations.PARSERS)),
                           help="Notation of PUZZLE (default: from the extension or the content).")(command)
    return click.argument("puzzle")(command)


def _rule_options(command):
    """--max-bridges and --no-loops/--loops: override the rules the puzzle's notation states."""
    command = click.option("--no-loops/--loops", "no_loops", default=None,
                           help="Forbid (or allow) cycles of bridges [default: the puzzle's "
                                "rule, else allowed].")(command)
    return click.option("--max-bridges", type=click.IntRange(1, MAX_BRIDGES_LIMIT), default=None,
                        help="Most bridges between two islands; island numbers may then go up "
                             "to 4 times this [default: the puzzle's rule, else 2].")(command)


def _encoding_options(command):
    """--encoding, --add and -c: the rules clingo is given."""
    command = click.option("-c", "--const", "constant", multiple=True, metavar="NAME=VALUE",
                           help="Set a clingo #const (repeatable).")(command)
    command = click.option("--add", "additions", multiple=True, type=click.Path(dir_okay=False),
                           help="Extra rules loaded with the encoding (repeatable).")(command)
    return click.option("--encoding", type=click.Path(dir_okay=False),
                        help="Encoding to use instead of the bundled encodings/hashi.lp.")(command)


def load_puzzle(argument: str, notation: str | None, max_bridges: int | None = None,
                no_loops: bool | None = None) -> Puzzle:
    """PUZZLE as given on the command line: '-' for stdin, else a path, the puzzle text, a
    puzz.link URL or a Tatham game ID.  Rules given (not None) replace the puzzle's own."""
    if argument == "-":
        return notations.parse(_stdin_text(), notation=notation, source="<stdin>", max_bridges=max_bridges,
                               no_loops=no_loops)
    return notations.read(argument, notation=notation, max_bridges=max_bridges, no_loops=no_loops)


def _not_the_input(path: str, puzzle_argument: str) -> None:
    """-o names the file to (over)write, but never the puzzle file being read."""
    if os.path.exists(path) and os.path.exists(puzzle_argument) \
            and os.path.samefile(path, puzzle_argument):
        raise HashiError(f"{path}: is the puzzle being read; choose another output file")


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
@click.option("--format", "output",
              type=click.Choice(["text", "unicode", "json", "facts", "svg", "pzprv3"]),
              default="text", show_default=True,
              help="How to print solutions; svg and pzprv3 print the first solution as a file "
                   "(the verdict goes to stderr).")
@_encoding_options
@_rule_options
@_time_limit_option("Stop after this long (the whole command) and print what was found.")
@click.option("--stats", is_flag=True, help="Print clingo's choices, conflicts and times.")
def solve_command(puzzle, notation, models, output, encoding, additions, constant, max_bridges,
                  no_loops, time_limit, stats):
    """Solve PUZZLE and draw its solutions; the last line gives the count and the verdict.

    The puzzle's own rules apply (a Tatham ID's mK and L); --max-bridges, --no-loops and
    -c max_bridges=K / -c no_loops=1 override them.
    """
    board, rules = _board_and_rules(puzzle, notation, encoding, additions, constant, max_bridges,
                                    no_loops)
    if output == "pzprv3":
        puzzlink.format_pzprv3(board)        # refuses, before the search, what pzprv3 cannot hold
    numbers = itertools.count(1)
    first = []                               # the solution a one-file format shows

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
        elif not first:
            first.append(solution)

    result = solve(board, models, time_limit=time_limit,
                   on_solution=None if output == "json" else show, **rules)
    why = _why(board, result, time_limit, **rules)
    if output == "json":
        click.echo(rendering.dumps(_with_explanation(
            rendering.result_json(board, result, stats=stats), board, why)))
    elif output in ("svg", "pzprv3"):
        # Standard output holds just the file, so that `> answer.svg` works; the verdict (and
        # for no solution the explanation) goes to stderr.  No solution: no file.
        if first:
            click.echo(pictures.svg(board, first[0]) if output == "svg"
                       else puzzlink.format_pzprv3(board, first[0]), nl=False)
        if why is not None:
            _echo_explanation(board, why, "text", err=True)
        click.echo(summary(result, models), err=True)
        if stats:
            for key, value in result.stats.items():
                click.echo(f"{key}: {value}", err=True)
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
        how = f"{interruption.stopped_by()}, search not exhausted"
    else:
        how = f"stopped after {models} as asked (-n 0 finds all)"
    return f"{result.status}: {count}; {how}"


def exit_code(result: Result) -> int:
    if result.interrupted:
        return interruption.exit_code()
    if result.status == "unsolvable":
        return EXIT_NO_SOLUTION
    if result.timed_out:
        return EXIT_TIME_LIMIT
    return 0


# ---------------------------------------------------------------------------- check

@main.command("check")
@_puzzle_options
@click.argument("solution")
@_rule_options
def check_command(puzzle, solution, notation, max_bridges, no_loops):
    """Check SOLUTION (JSON) against PUZZLE without clingo, naming every broken rule.

    SOLUTION is {"bridges": [[r1, c1, r2, c2, k], ...]}, the output of `solve --format json`
    (each solution is checked), a bare list of bridges, or a pzprv3 file with lines.  The
    puzzle's own rules apply unless overridden.  Exit 0 if all are valid, else 1.
    """
    board = load_puzzle(puzzle, notation, max_bridges, no_loops)
    solutions = load_solutions(solution)
    broken = 0
    for number, candidate in enumerate(solutions, 1):
        label = f"solution {number}" if len(solutions) > 1 else "solution"
        violations = check(board, candidate)
        broken += bool(violations)
        if not violations:
            click.echo(f"{label}: valid")
        for violation in violations:
            click.echo(f"{label}: {violation.message}")
    sys.exit(EXIT_NO_SOLUTION if broken else 0)


# ---------------------------------------------------------------------------- facts

def load_solutions(argument: str) -> list:
    """SOLUTION as given on the command line: '-' for stdin, else a path or the JSON itself."""
    if argument == "-":
        solutions = notations.parse_solutions(_stdin_text(), "<stdin>")
    else:
        solutions = notations.read_solutions(argument)
    if not solutions:
        raise PuzzleError("no solutions in it", argument)
    return solutions


@main.command("facts")
@_puzzle_options
@_rule_options
def facts_command(puzzle, notation, max_bridges, no_loops):
    """Print PUZZLE as ASP facts, the input of encodings/hashi.lp.

    Then: python -m clingo encodings/hashi.lp facts.lp (for a puzzle with other than the
    standard rules, a comment line gives the -c options to add).
    """
    click.echo(facts(load_puzzle(puzzle, notation, max_bridges, no_loops)), nl=False)


# ---------------------------------------------------------------------------- render

@main.command("render")
@_puzzle_options
@click.argument("solution", required=False)
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Picture file: .svg or .png (PNG needs the [png] extra) [default: SVG on "
                   "standard output].")
@click.option("--cell-size", type=click.FloatRange(4, 1000), callback=lambda ctx, param, value:
              _finite(value, "--cell-size"), default=pictures.CELL, show_default=True,
              help="Pixels between neighbouring cell centres.")
def render_command(puzzle, solution, notation, output, cell_size):
    """Draw PUZZLE, with the bridges of SOLUTION if given, as a picture.

    SOLUTION is what `check` takes (JSON, or a pzprv3 file with lines); of several solutions
    the first is drawn.  One that breaks a rule is drawn all the same, with a warning.
    """
    board = load_puzzle(puzzle, notation)
    drawn = None
    if solution is not None:
        drawn = load_solutions(solution)[0]
        for b in drawn.bridges:
            for r, c in b.ends:
                if not (0 <= r < board.rows and 0 <= c < board.cols):
                    raise PuzzleError(f"bridge {list(b)} ends outside the {board.rows}x{board.cols} "
                                      "grid", solution)
        violations = check(board, drawn)
        if violations:
            click.echo(f"hashi-asp: warning: the solution breaks {len(violations)} rule(s), "
                       f"first: {violations[0].message}", err=True)
    largest = pictures.png_cell_limit(board)
    if output is not None and output.lower().endswith(".png") and cell_size > largest:
        fits = math.floor(largest)
        advice = (f"--cell-size {fits} fits" if fits >= 4 else "even --cell-size 4 does not fit; "
                  "draw it as SVG")
        raise HashiError(f"{output}: a PNG of this {board.cols}x{board.rows} grid at --cell-size "
                         f"{cell_size:g} would be over the limit of "
                         f"{pictures.MAX_PNG_PIXELS // 1_000_000} million pixels; {advice}")
    picture = pictures.svg(board, drawn, cell=cell_size)
    if output is None:
        click.echo(picture, nl=False)
    else:
        _not_the_input(output, puzzle)
        pictures.write_picture(output, picture)


# ---------------------------------------------------------------------------- convert

_TARGETS = {**{name: name for name in notations.WRITERS}, "txt": "grid"}


@main.command("convert")
@_puzzle_options
@click.option("--to", "target", type=click.Choice(sorted(_TARGETS)), required=True,
              help="Notation to write (txt is the dot grid).")
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="File to write [default: standard output].")
@_rule_options
def convert_command(puzzle, notation, target, output, max_bridges, no_loops):
    """Write PUZZLE in another notation.

    A notation that cannot hold the puzzle (an island without a number in .has, other than the
    standard rules in .has, grid and puzz.link, a grid under 3x3 in a Tatham ID, ...) is an
    error (exit 2), never a silent change of the puzzle.
    """
    board = load_puzzle(puzzle, notation, max_bridges, no_loops)
    text = notations.write(board, _TARGETS[target])
    if output is None:
        click.echo(text, nl=False)
    else:
        _not_the_input(output, puzzle)
        write_atomically(output, text.encode("utf-8"))


# ---------------------------------------------------------------------------- bench

@main.command("bench")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes solving puzzles side by side.")
@click.option("--unique", is_flag=True,
              help="Time the uniqueness verdict (two solutions, or proof of one) instead of the "
                   "first solution.")
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="Time limit per puzzle (reading, grounding and search).")
@click.option("--csv", "csv_file", type=click.Path(dir_okay=False), help="Write one row per puzzle.")
@click.option("--json", "json_file", type=click.Path(dir_okay=False), help="Write one object per puzzle.")
@_encoding_options
def bench_command(paths, jobs, unique, time_limit, csv_file, json_file, encoding, additions,
                  constant):
    """Solve every puzzle in PATHS (files, or folders searched for .has, .txt and .json) and
    report the times: per puzzle in --csv/--json, grouped like Table 1 of Coelho et al. (islands,
    beta, alpha) on standard output.

    Exit 0 if every puzzle was solved and its answer passed the checker, 1 if any had no
    solution, failed the check or could not be read, 3 if any ran out of time.
    """
    files = bench.puzzle_files(paths)
    if not files:
        raise PuzzleError("no puzzle files found", " ".join(paths))
    done: list[bench.Row] = []          # what is finished when Ctrl-C or SIGTERM comes

    def finished(row: bench.Row) -> None:
        done.append(row)
        progress.update()

    from tqdm import tqdm      # imported here: it slows every command's start-up otherwise
    stopped = False
    started = time.perf_counter()
    try:
        with tqdm(total=len(files), unit="puzzle", disable=not sys.stderr.isatty(),
                  file=sys.stderr) as progress:
            rows = bench.bench(files, jobs=jobs, unique=unique, time_limit=time_limit,
                               encoding=encoding, additions=additions,
                               constants=_constants(constant), on_row=finished)
    except KeyboardInterrupt:
        rows, stopped = sorted(done, key=lambda row: row.file), True
    # The rows of the puzzles finished are reported and written, also after an interruption.
    for path, text in ((csv_file, bench.rows_csv), (json_file, bench.rows_json)):
        if path:
            write_atomically(path, text(rows).encode("utf-8"))
    if rows:
        click.echo(bench.summary(rows, time.perf_counter() - started))
    for row in rows:
        if row.error:
            click.echo(f"hashi-asp: {row.file}: {row.error}", err=True)
    if stopped:
        click.echo(f"hashi-asp: {interruption.stopped_by()}: {len(rows)} of {len(files)} "
                   "puzzles finished", err=True)
        sys.exit(interruption.exit_code())
    if any(row.status in bench.FAILED for row in rows):
        sys.exit(EXIT_NO_SOLUTION)
    sys.exit(EXIT_TIME_LIMIT if any(row.status == "unknown" for row in rows) else 0)


# ---------------------------------------------------------------------------- reasoning

def _search_options(command):
    """The rule and search options of `solve`, for the commands that reason about all solutions."""
    command = _time_limit_option("Stop after this long (the whole command, every search in "
                                 "it) and print what was found.")(command)
    return _encoding_options(_rule_options(command))


def _format_option(*choices):
    return click.option("--format", "output", type=click.Choice(choices), default=choices[0],
                        show_default=True, help="Drawing style, or one JSON document.")


def _board_and_rules(puzzle, notation, encoding, additions, constant, max_bridges, no_loops):
    """The puzzle, and the keyword arguments that give the library functions the same rules.
    Rules given as options or constants replace the puzzle's own (a Tatham ID's mK and L);
    the others stay as the puzzle says."""
    constants = _constants(constant)
    if max_bridges is not None:
        constants["max_bridges"] = str(max_bridges)
    if no_loops is not None:
        constants["no_loops"] = "1" if no_loops else "0"
    board = load_puzzle(puzzle, notation,
                        max_bridges_of(constants) if "max_bridges" in constants else None,
                        no_loops_of(constants) if "no_loops" in constants else None)
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
    """For an unsolvable verdict, the explanation (within what is left of the time limit)."""
    if result.status != "unsolvable":
        return None
    return reasoning.explain(board, time_limit=time_limit, **rules)


def _with_explanation(document: dict, board: Puzzle, why: reasoning.Explanation | None) -> dict:
    if why is not None:
        document["explanation"] = why.to_json(board)
    return document


def _echo_explanation(board: Puzzle, why: reasoning.Explanation, style: str,
                      prefix: str = "", err: bool = False) -> None:
    lines = ["Why there is no solution:"]
    lines += [f"  - {failed.message}" for failed in why.checks]
    if why.core is None:
        stopped = _stopped(why.timed_out)
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
        click.echo(prefix + line, err=err)
    click.echo(prefix.rstrip(), err=err)


@main.command("unique")
@_puzzle_options
@_format_option("text", "unicode", "json")
@_search_options
def unique_command(puzzle, notation, output, encoding, additions, constant, max_bridges,
                   no_loops, time_limit):
    """Decide whether PUZZLE has exactly one solution, by searching for two.

    For two, draws both and lists the pairs of islands where they differ; for none, says why.
    Exit 0 unique, 1 multiple, 4 unsolvable, 3 time limit before a verdict.
    """
    board, rules = _board_and_rules(puzzle, notation, encoding, additions, constant, max_bridges,
                                    no_loops)
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
        result.status, interruption.exit_code() if result.interrupted else EXIT_TIME_LIMIT))


def _unique_summary(result: reasoning.Uniqueness) -> str:
    stopped = _stopped(result.timed_out)
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
                  no_loops, time_limit, verify):
    """Count the solutions of PUZZLE by enumerating them all.

    A live count shows on standard error when it is a terminal.  Exit 0 with the exact count,
    1 if there is no solution, 3 with "at least N" when the time limit cut the count short.
    """
    board, rules = _board_and_rules(puzzle, notation, encoding, additions, constant, max_bridges,
                                    no_loops)
    from tqdm import tqdm
    with tqdm(desc="counting", unit=" solutions", file=sys.stderr, leave=False,
              disable=not sys.stderr.isatty()) as progress:
        result = reasoning.count(board, time_limit=time_limit, verify=verify,
                                 on_solution=lambda n: progress.update(), **rules)
    if output == "json":
        document = {"status": result.status, "count": result.count,
                    "exhausted": result.exhausted, "timed_out": result.timed_out,
                    "checked": verify, "seconds": result.stats["solve_seconds"],
                    "puzzle": board.to_json()}
        click.echo(rendering.dumps(document))
    elif result.exhausted:
        click.echo(f"{result.count} solution{'s' * (result.count != 1)}; search exhausted")
    else:
        stopped = _stopped(result.timed_out)
        click.echo(f"at least {result.count} solution{'s' * (result.count != 1)} ({stopped} "
                   f"after {result.stats['solve_seconds']:.1f} s)")
    if result.interrupted:
        sys.exit(interruption.exit_code())
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
                 no_loops, time_limit):
    """Show the bridges every solution of PUZZLE has, and where solutions differ.

    The drawing shows the bridges all solutions share; '?' marks a pair of islands whose bridges
    differ between solutions, listed below with the counts they take.  With --given, only the
    solutions extending the player's bridges count: the bridges they force are listed, and if
    none extends them, a minimal set of the drawn bridges that cannot all stay.  Exit 0 if there
    is a solution (extending --given), 1 if not, 3 if the time limit came first.
    """
    board, rules = _board_and_rules(puzzle, notation, encoding, additions, constant, max_bridges,
                                    no_loops)
    drawn = None
    if given is not None:
        solutions = (notations.parse_solutions(_stdin_text(), "<stdin>") if given == "-"
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
        sys.exit(interruption.exit_code())
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
    stopped = _stopped(found.timed_out)
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


# ---------------------------------------------------------------------------- generate

def _size(ctx, param, value):
    """'WxH' (columns x rows) or 'N' for a square board; None keeps the default for --islands."""
    if value is None:
        return None
    match = re.fullmatch(r"\s*(\d+)\s*(?:[xX]\s*(\d+)\s*)?", value)
    if not match:
        raise click.BadParameter(f"{value!r} is not WxH (e.g. 16x16) or a single side")
    cols = int(match.group(1))
    rows = int(match.group(2) or cols)
    if rows < 1 or cols < 1:
        raise click.BadParameter(f"{value!r}: width and height must be at least 1")
    return rows, cols


def _difficulty(ctx, param, value):
    """A band name, a score X (at least X) or a range X-Y, scores from 0 to 1."""
    if value is None or value in difficulty.BANDS:
        return value
    match = re.fullmatch(r"\s*(\d*\.?\d+)\s*(?:-\s*(\d*\.?\d+)\s*)?", value)
    if not match:
        raise click.BadParameter(f"{value!r} is not {', '.join(difficulty.BANDS)}, a score X or a range X-Y")
    low = float(match.group(1))
    high = float(match.group(2)) if match.group(2) else 1.0
    if not 0 <= low <= high <= 1:
        raise click.BadParameter(f"{value!r}: scores go from 0 to 1, low before high")
    return low, high


@main.command("generate")
@click.option("--islands", "-n", type=click.IntRange(min=2), required=True, help="Islands per puzzle.")
@click.option("--size", callback=_size, metavar="WxH",
              help="Board width x height, or one number for a square [default: about 0.35 "
                   "islands per cell up to 400 islands, roomier above].")
@click.option("--alpha", type=click.FloatRange(0, 1), default=None,
              help="Extra bridges (cycles) per island: floor(alpha * islands) "
                   f"[default: {generation.DEFAULT_ALPHA}, 0 with --no-loops].")
@click.option("--beta", type=click.FloatRange(0, 1), default=None,
              help=f"Probability that a bridge is double [default: {generation.DEFAULT_BETA}].")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True,
              help="Random seed; puzzle i of --count uses seed + i.")
@click.option("--count", type=click.IntRange(min=1), default=1, show_default=True,
              help="Puzzles to generate.")
@click.option("--out", type=click.Path(file_okay=False), help="Folder to write the puzzles to "
              "(created if missing), named like the Coelho et al. files; default: standard output.")
@click.option("--format", "notation", default="has", show_default=True,
              type=click.Choice(sorted({*notations.WRITERS, "txt"})),
              help="Notation of the puzzles (txt is the dot grid).")
@click.option("--force", is_flag=True, help="Replace files that already exist in --out.")
@click.option("--solution", "with_solution", is_flag=True,
              help="With --out, also write each hidden solution as NAME.solution.json.")
@click.option("--unique", is_flag=True, help="Repair each puzzle until it has exactly one solution.")
@click.option("--difficulty", "wanted", callback=_difficulty, metavar="BAND|X|X-Y",
              help="easy, medium or hard, or a difficulty score X (at least) or range X-Y from 0 to 1.")
@click.option("--max-bridges", type=click.IntRange(1, MAX_BRIDGES_LIMIT), default=2, show_default=True,
              help="Most bridges between two islands (a 'double' bridge is then 2..K).")
@click.option("--no-loops", is_flag=True, help="Variant without cycles: build a tree (alpha 0).")
@click.option("--attempts", type=click.IntRange(min=1), default=generation.DEFAULT_ATTEMPTS,
              show_default=True, help="Layouts to try per puzzle before giving up.")
@click.option("-q", "--quiet", is_flag=True, help="No summary line per puzzle.")
@_time_limit_option("Stop after this long (all puzzles together); the puzzles finished by then "
                    "are kept.")
def generate_command(islands, size, alpha, beta, seed, count, out, notation, force, with_solution,
                     unique, wanted, max_bridges, no_loops, attempts, quiet, time_limit):
    """Generate puzzles with the method of Coelho, Laporte, Lindbeck & Vidal (2019).

    Grows a tree of islands joined by bridges, adds floor(alpha * islands) extra bridges, makes
    each bridge double with probability beta, writes each island's bridge count and erases the
    bridges.  The same options give the same puzzles on every machine.
    """
    notation = "grid" if notation == "txt" else notation
    if with_solution and out is None:
        raise click.UsageError("--solution needs --out")
    alpha = (0 if no_loops else generation.DEFAULT_ALPHA) if alpha is None else alpha
    beta = (0 if max_bridges == 1 else generation.DEFAULT_BETA) if beta is None else beta
    rows, cols = size or generation.default_size(islands)
    folder = Path(out) if out is not None else None
    if folder is not None:
        # Refuse before spending any time if a file to be written already exists.
        names = [generation.file_name(rows, cols, islands, alpha, beta, seed + i, notation)
                 for i in range(count)]
        if with_solution:
            names += [generation.solution_name(name) for name in names]
        existing = [name for name in names if (folder / name).exists()]
        if existing and not force:
            raise generation.GenerationError(f"{folder / existing[0]}: file exists "
                                             "(use --force to replace it)")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise generation.GenerationError(f"{folder}: cannot create folder: "
                                             f"{error.strerror or error}") from None
    for i in range(count):
        try:
            made = generation.generate(islands, rows, cols, alpha, beta, seed + i, unique=unique,
                                       difficulty=wanted, max_bridges=max_bridges,
                                       no_loops=no_loops, attempts=attempts, time_limit=time_limit)
        except TimeLimitReached as late:
            raise TimeLimitReached(f"{late}: {i} of {count} puzzles finished") from None
        except KeyboardInterrupt:
            click.echo(f"hashi-asp: {interruption.stopped_by()}: {i} of {count} puzzles finished",
                       err=True)
            sys.exit(interruption.exit_code())
        text = generation.formatted(made, notation)
        name = generation.file_name(rows, cols, islands, alpha, beta, seed + i, notation)
        if folder is None:
            click.echo(("\n" if i else "") + text, nl=False)
        else:
            generation.save(text, folder / name, force=force)
            if with_solution:
                generation.save(rendering.dumps(made.solution.to_json()) + "\n",
                                folder / generation.solution_name(name), force=force)
        if not quiet:
            click.echo(generation.describe(made, name), err=folder is None)


if __name__ == "__main__":
    main()
