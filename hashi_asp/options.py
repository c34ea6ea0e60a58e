"""What every ``hashi-asp`` command shares: the click group that turns errors into one line on
stderr and the documented exit code, the options several commands take (the puzzle and its
rules, the program, the time limit, the output format), and how reports are printed.

:mod:`.cli` holds the commands themselves, each a thin wrapper over a library function.

Both modules are loaded by every command, ``--help`` included, so what they import at the top
costs every start-up: each command imports what it runs (clingo, the reports, the JSON writer)
when it runs, and ``check``, ``convert`` and ``render`` never load clingo.
"""

from __future__ import annotations

import functools
import math
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from . import notations, stopping
from .asp import CONNECTIVITY
from .files import OutputLost, guarded_standard_output
from .puzzle import MAX_BRIDGES_LIMIT, HashiError, PuzzleError, Solution

if TYPE_CHECKING:
    from . import reports

T = TypeVar("T")


class Group(click.Group):
    """Turns the library's errors and click's usage errors into one line on stderr and the
    documented exit code, and Ctrl-C and SIGTERM into a clean stop (see :mod:`.stopping`)."""

    def main(self, *args: Any, **kwargs: Any) -> NoReturn:
        with stopping.handling_signals(), guarded_standard_output():
            try:
                code = self._run(*args, **kwargs)
            except (KeyboardInterrupt, click.Abort):
                # However late the signal came (only the first one raises), the stop is clean.
                click.echo(f"hashi-asp: {stopping.stopped_by()}", err=True)
                code = stopping.exit_code()
            except OutputLost as lost:  # while printing --help or --version
                click.echo(f"hashi-asp: {lost}", err=True)
                code = lost.exit_code
            stopping.leave(_flushed(code))

    def _run(self, *args: Any, **kwargs: Any) -> int:
        """The command's exit code; a usage error is one line on stderr."""
        try:
            code = super().main(*args, **{**kwargs, "standalone_mode": False})
        except SystemExit as done:
            code = done.code
        except click.exceptions.NoArgsIsHelpError as error:
            click.echo(error.format_message(), err=True)
            return 2
        except click.ClickException as error:
            ctx = getattr(error, "ctx", None)
            where = f" (see {ctx.command_path} --help)" if ctx else ""
            click.echo(f"hashi-asp: {' '.join(error.format_message().split())}{where}", err=True)
            return error.exit_code
        return code if isinstance(code, int) else 0 if code is None else 1

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except HashiError as error:
            click.echo(f"hashi-asp: {error}", err=True)
            ctx.exit(error.exit_code)
        except KeyboardInterrupt:
            click.echo(f"hashi-asp: {stopping.stopped_by()}", err=True)
            ctx.exit(stopping.exit_code())
        except MemoryError:
            click.echo("hashi-asp: out of memory: the input is too large", err=True)
            ctx.exit(2)
        except BrokenPipeError:  # the reader went away (e.g. `| head`): say nothing more
            sys.stderr.close()
            ctx.exit(0)


def _flushed(code: int) -> int:
    """``code``, once what is left of standard output is written: 2 if it cannot be (the
    command's output is lost, whatever it found), the same if the reader has gone away."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except OutputLost as lost:
        click.echo(f"hashi-asp: {lost}", err=True)
        return lost.exit_code
    except (OSError, ValueError):  # a closed pipe (or standard output closed): quietly
        pass
    return code


# ---------------------------------------------------------------------------- options


class Finite(click.FloatRange):
    """A number in a range, but neither NaN nor infinite (which every comparison lets pass)."""

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        number = super().convert(value, param, ctx)
        return number if math.isfinite(number) else self.fail(f"{value} is not a finite number")


def time_limit_option(help: str, *, per_puzzle: bool = False) -> Callable:
    """--time-limit: for the whole command (one deadline counted from here, before the puzzle is
    read; grounding still running at the deadline is left behind), or per puzzle (bench)."""

    def deadline(ctx: click.Context, param: click.Parameter, value: float | None) -> Any:
        return value if per_puzzle else stopping.Deadline(value, abandon_grounding=True)

    seconds = Finite(min=0, min_open=True)
    return click.option(
        "--time-limit", type=seconds, metavar="SECONDS", callback=deadline, help=help
    )


def stacked(*decorators: Callable) -> Callable:
    return lambda command: functools.reduce(lambda c, d: d(c), reversed(decorators), command)


BRIDGES = click.IntRange(1, MAX_BRIDGES_LIMIT)
FILE = click.Path(dir_okay=False)
WRITABLE = sorted([*notations.NOTATIONS, *notations.ALIASES])
RULES = stacked(
    click.option("--max-bridges", type=BRIDGES, help="Most bridges between two islands [2]."),
    click.option("--no-loops/--loops", "no_loops", default=None, help="Forbid (allow) cycles."),
)
_CONST, _LINKS = "Set a clingo #const (repeatable).", click.Choice(CONNECTIVITY)
_CLINGO = "clingo's options, e.g. '--configuration=handy -t 2'."
_VARIANT = "With --connectivity race: one raced, e.g. 'tree --configuration=handy' (repeatable)."
PROGRAM = stacked(
    click.option("--encoding", type=FILE, help="Encoding instead of encodings/hashi.lp."),
    click.option("--add", "additions", type=FILE, multiple=True, help="Rules to add, repeatable."),
    click.option("-c", "--const", "constants", metavar="NAME=VALUE", multiple=True, help=_CONST),
    click.option("--connectivity", type=_LINKS, default="auto", help="auto, reach, tree, ..."),
    click.option("--clingo", "solver_options", metavar="OPTIONS", help=_CLINGO),
    click.option("--variant", "variants", metavar="VARIANT", multiple=True, help=_VARIANT),
)


def with_puzzle(*, search: bool = False) -> Callable:
    """The PUZZLE argument, --notation and the rule options; with ``search``, the program
    options and --time-limit too.  The command gets ``board`` (the puzzle read, the rules given
    replacing its own: options first, then -c constants) and ``argument`` (PUZZLE as given), and
    with ``search`` also ``program`` and ``time_limit``."""

    def decorate(command: Callable) -> Callable:
        @functools.wraps(command)
        def run(puzzle: str, notation: str | None, max_bridges: Any, no_loops: Any, **rest: Any):
            rules: dict[str, Any] = {}
            if search:
                from .asp.control import judge_program
                from .asp.interface import program_and_rules

                names = ["encoding", "additions", "constants", "connectivity", "solver_options"]
                names += ["variants"]
                rest["program"], rules = program_and_rules(*(rest.pop(name) for name in names))
                judge_program(rest["program"])
            given = {"max_bridges": max_bridges, "no_loops": no_loops}
            rules.update((name, value) for name, value in given.items() if value is not None)
            board = within_time_limit(
                lambda: notations.read(puzzle, notation=notation, **rules), "reading the puzzle"
            )
            return command(board=board, argument=puzzle, **rest)

        notation = click.option("--notation", type=click.Choice(list(notations.NOTATIONS)))
        extra = (PROGRAM, time_limit_option("Stop after this long (the whole command).")) * search
        return stacked(click.argument("puzzle"), notation, RULES, *extra)(run)

    return decorate


def output_format(*choices: str, help: str = "Drawing style, or one JSON document.") -> Callable:
    kind: dict[str, Any] = {"type": click.Choice(choices), "default": choices[0]}
    return click.option("--format", "output", help=help, show_default=True, **kind)


def within_time_limit(read: Callable[[], T], doing: str) -> T:
    """What ``read()`` gives, read within the command's --time-limit when it has one: reading
    counts towards the limit like any other work, and an input that never comes (a FIFO
    nobody writes to, standard input kept open) ends at the limit (exit 3)."""
    context = click.get_current_context(silent=True)
    deadline = context.params.get("time_limit") if context is not None else None
    if not isinstance(deadline, stopping.Deadline) or deadline.end is None:
        return read()
    found: list[T] = []
    stopping.uninterruptible(lambda: found.append(read()), deadline, doing)
    return found[0]


def read_bridges(argument: str) -> list[Solution]:
    """SOLUTION as given on the command line: a path, '-' for standard input, or the JSON."""
    solutions = within_time_limit(lambda: notations.read_solutions(argument), "reading the bridges")
    if not solutions:
        raise PuzzleError("no solutions in it", argument)
    return solutions


def one_given(argument: str) -> Solution:
    """--given: the one set of bridges a player has drawn."""
    solutions = read_bridges(argument)
    if len(solutions) != 1:
        raise PuzzleError(f"expected one set of bridges, found {len(solutions)}", argument)
    return solutions[0]


def look(style: str = "text") -> reports.Look:
    """How text reports are drawn here: colour marks (click.echo drops them when standard output
    is not a terminal; the lists beside each drawing say the same in plain text)."""
    from . import reports

    highlight = functools.partial(click.style, fg="red", bold=True)
    undecided = functools.partial(click.style, "?", fg="yellow", bold=True)
    palette = reports.Palette(highlight, lambda text: undecided())
    return reports.Look(style if style == "unicode" else "text", palette, stopping.stopped_by())


def echo(text: str, *, err: bool = False, prefix: str = "") -> None:
    """A report, line by line, each with ``prefix`` (% before facts)."""
    for line in text.split("\n"):
        click.echo(prefix + line if line else prefix.rstrip(), err=err)


def finish(output: str, document: dict, text: str, code: int, result: Any) -> NoReturn:
    """Print the JSON document or the text report, and end with ``code`` (with the signal's
    when one stopped the search)."""
    from .notations.json import dumps

    click.echo(dumps(document)) if output == "json" else echo(text)
    sys.exit(stopping.exit_code() if result.interrupted else code)
