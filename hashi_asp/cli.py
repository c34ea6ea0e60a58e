"""The ``hashi-asp`` command line: a click command made from each command's declaration
(:mod:`.commands`), whose outcome is printed in the format asked for and ends with the exit
code of its :class:`~hashi_asp.status.Status`.

Nothing a command does is written here: this module turns options into click's and back,
prints, and turns errors into one line on stderr.  Each command's module is loaded when the
command is used, and a command imports what it runs when it runs, so that a command's start-up
pays for its own modules only (``check``, ``convert`` and ``render`` never load clingo).
"""

from __future__ import annotations

import functools
import sys
from typing import Any, NoReturn

import click

from . import commands, stopping
from .commands import click_options, declaration
from .errors import HashiError
from .files import OutputLost, guarded_standard_error, guarded_standard_output
from .status import Status


class Group(click.Group):
    """The commands of :mod:`.commands`, each made into a click command when it is asked for.
    Turns the library's errors and click's usage errors into one line on stderr and the exit
    code of their status, and Ctrl-C and SIGTERM into a stop of the command's deadline: it
    prints what it found so far (see :mod:`.stopping`).  It ends by raising ``SystemExit``
    with the exit code, never ending the process itself: in-process callers (tests, programs
    using click's runner) go on."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*commands.NAMES, *super().list_commands(ctx)]

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in commands.NAMES:
            return command_of(commands.command(name))
        return super().get_command(ctx, name)

    def main(self, *args: Any, **kwargs: Any) -> NoReturn:
        with stopping.handling_signals(), guarded_standard_error(), guarded_standard_output():
            try:
                code = self._run(*args, **kwargs)
            except (KeyboardInterrupt, click.Abort):
                # A signal before the command's work began, or a second one insisting.
                stop = stopping.signal_stop() or stopping.Stop.INTERRUPTED
                click.echo(f"hashi-asp: {stop.value}", err=True)
                code = stop.status(answered=False).exit_code
            except OutputLost as lost:  # while printing --help or --version
                click.echo(f"hashi-asp: {lost}", err=True)
                code = lost.status.exit_code
            code = _flushed(code)
        raise SystemExit(code)

    def _run(self, *args: Any, **kwargs: Any) -> int:
        """The command's exit code; a usage error is one line on stderr."""
        try:
            code = super().main(*args, **{**kwargs, "standalone_mode": False})
        except SystemExit as done:
            code = done.code
        except click.exceptions.NoArgsIsHelpError as error:
            click.echo(error.format_message(), err=True)
            return Status.BAD_INPUT.exit_code
        except click.ClickException as error:
            ctx = getattr(error, "ctx", None)
            where = f" (see {ctx.command_path} --help)" if ctx else ""
            click.echo(f"hashi-asp: {' '.join(error.format_message().split())}{where}", err=True)
            return error.exit_code
        return code if isinstance(code, int) else 0 if code is None else 1

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except declaration.OptionError as error:
            where = f" (see {ctx.command_path} {ctx.invoked_subcommand} --help)"
            click.echo(f"hashi-asp: {error}{where}", err=True)
            ctx.exit(error.status.exit_code)
        except HashiError as error:
            click.echo(f"hashi-asp: {error}", err=True)
            ctx.exit(error.status.exit_code)
        except KeyboardInterrupt:  # a second signal, insisting: at once
            stop = stopping.signal_stop() or stopping.Stop.INTERRUPTED
            click.echo(f"hashi-asp: {stop.value}", err=True)
            ctx.exit(stop.status(answered=False).exit_code)
        except MemoryError:
            click.echo("hashi-asp: out of memory: the input is too large", err=True)
            ctx.exit(Status.BAD_INPUT.exit_code)
        except BrokenPipeError:  # the reader went away (e.g. `| head`): say nothing more
            sys.stderr.close()
            ctx.exit(0)


def _flushed(code: int) -> int:
    """``code``, once what is left of standard output is written: the status of
    :class:`OutputLost` if it cannot be (the command's output is lost, whatever it found), the
    same code if the reader has gone away."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except OutputLost as lost:
        click.echo(f"hashi-asp: {lost}", err=True)
        return lost.status.exit_code
    except (OSError, ValueError):  # a closed pipe (or standard output closed): quietly
        pass
    return code


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="hashi-asp")
def main() -> None:
    """Solve, check, explain and generate Hashiwokakero ("Bridges") puzzles with answer set
    programming.

    PUZZLE is a file (.has, dot grid, JSON, pzprv3, or a picture: PNG, JPEG, WebP, BMP), '-' for
    standard input, or the puzzle itself: its text, a puzz.link URL or a Simon Tatham game ID.
    """


# ---------------------------------------------------------------------------- a command


@functools.cache
def command_of(unit: declaration.Command) -> click.Command:
    """The click command of a command's declaration (a group of them for a command of
    commands)."""
    if unit.commands:
        subcommands = {sub.name: command_of(sub) for sub in unit.commands}
        return click.Group(unit.name, commands=subcommands, help=unit.help)

    def callback(**values: Any) -> NoReturn:
        # The command's deadline: its time limit (the whole command's), which a signal stops.
        deadline = stopping.Deadline(values.get("time_limit") if unit.searches else None)
        with stopping.watching(deadline):
            reader = declaration.Reader(deadline=deadline)  # reading counts towards the time limit
            given = unit.given(values, deadline=deadline, hooks=HOOKS, reader=reader)
            outcome = unit.run(given)
            if values.get("format") == "json" and outcome.document is not None:
                from .notations.json import dumps

                click.echo(dumps(outcome.document()))
            elif outcome.printed is not None:
                printed = outcome.printed()
                click.echo(printed.out, nl=False)
                click.echo(printed.err, nl=False, err=True)
        stop = stopping.signal_stop()
        code = outcome.status if stop is None else stop.status(answered=True)
        if stop is not None and code is not outcome.status:  # one its answer does not tell
            click.echo(f"hashi-asp: {stop.value}", err=True)
        sys.exit(code.exit_code)

    return click.Command(
        unit.name,
        callback=callback,
        params=[click_options.parameter(option) for option in unit.options],
        help=unit.help,
    )


# ---------------------------------------------------------------------------- printing


def _progress(**how: Any) -> Any:
    """A progress bar on standard error, shown only when it is a terminal."""
    from tqdm import tqdm

    return tqdm(**{"disable": None, **how})


HOOKS = declaration.Hooks(
    show=lambda text: click.echo(text, nl=False),
    note=lambda text: click.echo(text, nl=False, err=True),
    progress=_progress,
    # Colour marks: click.echo drops them when standard output is not a terminal (the lists
    # beside each drawing say the same in plain text).
    highlight=functools.partial(click.style, fg="red", bold=True),
    undecided=lambda text: click.style("?", fg="yellow", bold=True),
)
