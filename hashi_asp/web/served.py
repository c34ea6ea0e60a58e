"""Which commands the JSON API serves, and which of their options a request may give: one list,
reviewed, and nothing else (deny by default).

A command not listed here is not offered (``POST /api/facts`` is a 404), and an option of a
listed command that is not named here is refused ("no option", 400) however the command
declares it: an option added to a command later is not served until someone adds it here,
having looked at what it can do.  Left out on purpose, and why:

- files and folders (``--encoding``, ``--add``, ``-o``, ``--out``, ``--force``, ``bench``'s
  paths, a study's database): the server reads and writes nothing on its disk for a request;
- processes (``--jobs``, ``--connectivity race``, which starts one per core, ``bench`` and
  ``study``): one request could start as many as it likes on a machine others share;
- other machines (``--scheduler``): the server would connect wherever a request says, tell a
  refused port from a silent one, and compute with what a Dask scheduler there sends it;
- clingo's own option strings and constants (``--clingo``, ``-c``, ``--variant``): clingo reads
  them as it likes (threads, files, its own limits), past every check of the declaration;
- bounded here, not left out: ``fix``'s ``alternatives`` (each fix offered is proven unique and
  rated, so a server offers at most ``Limits.alternatives``);
- the command line's presentation (each report's ``--format``: the API answers with the JSON
  document; ``generate``'s ``--count``, ``--solution`` and ``--quiet``): one request, one
  answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .. import asp, commands
from ..commands.declaration import Command, Option

READING = ("puzzle", "notation", "max-bridges", "no-loops")
"""What every command that reads a puzzle takes: the puzzle as text, and its rules."""
SEARCHING = (*READING, "connectivity", "time-limit")
"""What a searching command takes besides (``connectivity`` narrowed, below)."""

SERVED: dict[str, tuple[str, ...]] = {
    "solve": (*SEARCHING, "models", "stats"),
    "check": (*READING, "solution", "time-limit"),
    "render": (*READING, "solution", "cell-size", "time-limit"),
    "convert": (*READING, "to"),
    "unique": (*SEARCHING, "difficulty", "propose"),
    "fix": (*READING, "keep", "free", "to", "alternatives", "difficulty", "time-limit"),
    "count": (*SEARCHING, "check"),
    "hint": (*SEARCHING, "given"),
    "steps": (*READING, "given", "steps", "brief", "time-limit"),
    "difficulty": (*READING, "time-limit"),
    "generate": (
        "islands",
        "size",
        "alpha",
        "beta",
        "seed",
        "format",
        "unique",
        "difficulty",
        "max-bridges",
        "no-loops",
        "attempts",
        "time-limit",
    ),
}
"""Per command, the options a request may give, by their long names."""

NARROWED: dict[str, Sequence[str]] = {"connectivity": asp.Names(race=False)}
"""Choices a request has fewer of than the command line, wherever the option is served: the
catalogue's formulations and ``auto``, not ``race``."""


def units() -> dict[str, Command]:
    """The commands served, by name, in the order ``hashi-asp --help`` lists them."""
    return {name: commands.command(name) for name in commands.NAMES if name in SERVED}


def options(unit: Command) -> tuple[Option, ...]:
    """The options of ``unit`` a request may give, in the order the command declares them, each
    with the choices a request has; none for a command not served.  A name listed that the
    command does not declare is a fault of this list, said at once."""
    listed = SERVED.get(unit.name, ())
    declared = {option.name for option in unit.options}
    missing = sorted(set(listed) - declared)
    if missing:
        raise LookupError(f"the API serves {unit.name} {missing[0]!r}, which it does not declare")
    return tuple(_narrowed(option) for option in unit.options if option.name in listed)


def _narrowed(option: Option) -> Option:
    choices = NARROWED.get(option.name)
    if choices is None:
        return option
    wider = [choice for choice in choices if choice not in option.choices]
    if wider:
        raise LookupError(f"the API offers {option.name} {wider[0]!r}, which it does not declare")
    return replace(option, choices=choices)
