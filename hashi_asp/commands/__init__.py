"""The commands, one unit each: one module per command, holding the declaration of its options,
the function that runs it and the text and JSON documents it prints (:mod:`.unit` says what a
unit is, :mod:`.common` holds the options several share, :mod:`.output` what several outputs
share).  The registry, :data:`MODULES`, lists them in the order ``hashi-asp --help`` shows them;
the command line, the JSON API (for those of its reviewed list), study tasks and study variants
are all derived from it.

A command is added by one module that declares it (its ``COMMAND``) and its registration: a
line of :data:`MODULES` for a command of hashi-asp, or :func:`register` in a program of one's
own, at run time.  A module is loaded when its command is first asked for, so that a command's
start-up pays for its own declaration only.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, overload

if TYPE_CHECKING:
    from .declaration import Command

MODULES: dict[str, str] = {
    **{
        name: f"{__name__}.{name}"
        for name in (
            "solve",
            "check",
            "facts",
            "render",
            "convert",
            "unique",
            "fix",
            "count",
            "hint",
            "steps",
            "difficulty",
            "generate",
        )
    },
    # The commands that start a front live with it, on the floor above the units it runs.
    "serve": "hashi_asp.web.serve",
    "bench": "hashi_asp.study.bench",
    "study": "hashi_asp.study.command",
}
"""Every command, by the name users type, and the module that declares it (as ``COMMAND``)."""


def register(module: str) -> Command:
    """Add the command that ``module`` (a module's importable name) declares as ``COMMAND``,
    and return it: from now on the command line runs it, it is a study task if it gives a
    verdict (:data:`TASKS`), and the JSON API serves it once its options are on the API's
    reviewed list (:mod:`hashi_asp.web.served`).  A study's runs import the module by name
    wherever they are made (its runner processes, a cluster's workers), so it must be importable
    there too.  Registering a module again changes nothing; a name taken by another module is
    refused."""
    from .declaration import Command

    unit = getattr(importlib.import_module(module), "COMMAND", None)
    if not isinstance(unit, Command):
        raise LookupError(f"{module} declares no command: no COMMAND of hashi-asp's Command")
    taken = MODULES.get(unit.name)
    if taken is not None and taken != module:
        raise LookupError(f"a command {unit.name} exists already, declared by {taken}")
    MODULES[unit.name] = module
    return unit


def command(name: str, module: str = "") -> Command:
    """The command ``name`` (one of :data:`NAMES`); where this process does not know it (a
    study's runner, a cluster's worker), registered first from ``module`` if given."""
    if name not in MODULES and module:
        register(module)
    unit: Command = importlib.import_module(MODULES[name]).COMMAND
    return unit


class _Names(Sequence[str]):
    """Names read from the registry whenever they are looked at, so that a command registered
    at run time is among them: every command's, or with ``tasks`` those a study may run."""

    def __init__(self, *, tasks: bool = False):
        self.tasks = tasks

    def _names(self) -> list[str]:
        if not self.tasks:
            return list(MODULES)
        return [name for name in MODULES if command(name).task]

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...
    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        return self._names()[index]

    def __len__(self) -> int:
        return len(self._names())

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __contains__(self, name: object) -> bool:
        if not self.tasks:
            return name in MODULES
        return isinstance(name, str) and name in MODULES and command(name).task

    def __eq__(self, other: object) -> bool:  # equal to any sequence of the same names
        if isinstance(other, (_Names, list, tuple)):
            return self._names() == list(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.tasks)

    def __repr__(self) -> str:
        return repr(self._names())


NAMES: Sequence[str] = _Names()
"""Every command's name, in the registry's order."""

TASKS: Sequence[str] = _Names(tasks=True)
"""The commands a study may run, one per run (its task): those that read a puzzle and give a
verdict (:attr:`.unit.Command.task`).  Looking at them loads every command's module."""
