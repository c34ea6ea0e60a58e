"""The command line's form of a declaration: each option as a click parameter, and an option
string read by them, as the command line would read it (the options of a study variant:
``--connectivity tree --clingo "--configuration=handy"``)."""

from __future__ import annotations

import contextlib
import math
import shlex
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import click

from . import declaration


def parameter(option: declaration.Option) -> click.Parameter:
    """The click argument or option of an option's declaration."""
    kind = option.kind
    if option.argument:
        if kind == declaration.PATHS:
            return click.Argument(
                [option.key], nargs=-1, required=option.required, type=click.Path()
            )
        return click.Argument([option.key], required=option.required)
    names = [option.short] if option.short else []
    names += [f"--{option.name}/--{option.negative}" if option.negative else f"--{option.name}"]
    settings: dict[str, Any] = {
        "help": option.help,
        "multiple": option.multiple,
        "required": option.required,
    }
    if option.default is not None or kind == declaration.FLAG:  # (a flag's None: neither was given)
        settings["default"] = option.default
    if option.metavar:
        settings["metavar"] = option.metavar
    if option.nargs != 1:
        settings["nargs"] = option.nargs
    if kind == declaration.FLAG:
        settings["is_flag"] = True
    else:
        settings["type"] = click_type(option)
    return click.Option([*names, option.key], **settings)


def click_type(option: declaration.Option) -> Any:
    kind, low, high = option.kind, option.low, option.high
    if kind == declaration.INT:
        whole = (None if low is None else int(low)), (None if high is None else int(high))
        return Whole(*whole, min_open=option.low_open)
    if kind in (declaration.FLOAT, declaration.SECONDS):
        return Finite(low, high, min_open=option.low_open)
    if kind == declaration.CHOICE:
        return click.Choice(option.choices)
    if kind in (declaration.FILE, declaration.OUTPUT):
        return click.Path(dir_okay=False)
    if kind == declaration.FOLDER:
        return click.Path(file_okay=False, path_type=Path)
    return str  # text, a puzzle or bridges: read by the command's own reader


class Finite(click.FloatRange):
    """A number in a range, but neither NaN nor infinite (which every comparison lets pass: a
    number of 310 digits and more, ``1e400``, is infinite as a float), refused before its range
    is looked at."""

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        with contextlib.suppress(TypeError, ValueError):  # (not a number: click says so)
            if not math.isfinite(float(value)):
                self.fail(f"{abridged(value)} is not a finite number", param, ctx)
        return super().convert(value, param, ctx)


class Whole(click.IntRange):
    """A whole number in a range, and one a float can hold (at most 1.8e308 either way):
    the JSON API refuses larger ones as not finite, and the command line with it, whatever the
    range, before it is looked at."""

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        text = str(value).strip().replace("_", "")
        digits = text.removeprefix("-").removeprefix("+").lstrip("0")
        # (Python writes no int of over 4300 digits, and reads none: a long one is too large.)
        if digits.isdigit() and (len(digits) > 309 or not declaration.finite(int(digits))):
            sign = "negative " if text.startswith("-") else ""
            self.fail(f"{abridged(value)} is too large a {sign}number", param, ctx)
        return super().convert(value, param, ctx)


def abridged(value: Any) -> str:
    """A value as a message shows it: a long one (a number of 400 digits) by its start and its
    length."""
    text = str(value)
    return text if len(text) <= 40 else f"{text[:20]}... ({len(text)} characters)"


def parse(
    options: Iterable[declaration.Option], text: str, what: str = "options"
) -> dict[str, Any]:
    """The values of ``options`` in ``text`` (split as a shell would), by their Python names,
    each as the command line reads it, the defaults where not given; a mistake raises
    :class:`~hashi_asp.commands.declaration.OptionError` with click's message."""
    try:
        argv = shlex.split(text)
    except ValueError as error:  # an unclosed quote
        raise declaration.OptionError(f"{what} {text!r}: {error}") from None
    command = click.Command(what, params=[parameter(option) for option in options])
    try:
        with command.make_context(what, argv, resilient_parsing=False) as context:
            return dict(context.params)
    except click.ClickException as error:
        message = " ".join(error.format_message().split())
        raise declaration.OptionError(f"{what} {text!r}: {message}") from None


def variant(text: str) -> tuple[Any, dict[str, Any]]:
    """A study variant: the searching commands' own options (:data:`.shared_options.VARIANT`) in
    ``text``, as the program clingo is given and the rules they set (``--max-bridges 3``,
    ``-c no_loops=1``)."""
    from .shared_options import VARIANT, program_of, rules_given

    values = parse(VARIANT, text, "variant")
    program, rules = program_of(values)
    return program, rules_given(values, rules)
