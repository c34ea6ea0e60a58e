"""The commands, one unit each: one module per command, holding the declaration of its options,
the function that runs it and the text and JSON documents it prints (:mod:`.declaration` says
what a unit is, :mod:`.shared_options` holds the options several share, :mod:`.output` what
several outputs share).  The registry, :data:`MODULES`, lists them in the order
``hashi-asp --help`` shows them; the command line, the JSON API (for those of its reviewed
list), study tasks and study variants are all derived from it.

A command is added by one module that declares it (its ``COMMAND``) and its registration: a
line of :data:`MODULES` for a command of hashi-asp, or :func:`register` in a program of one's
own, at run time.  A module is loaded when its command is first asked for, so that a command's
start-up pays for its own declaration only.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..catalogue import Names

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


def _tasks() -> list[str]:
    """The names of the commands that give a verdict, in the registry's order."""
    return [name for name in MODULES if command(name).task]


def _is_task(name: object) -> bool:
    """Whether ``name`` is a task's, loading that one command's module only."""
    return isinstance(name, str) and name in MODULES and command(name).task


NAMES: Sequence[str] = Names(lambda: list(MODULES), MODULES.__contains__)
"""Every command's name, in the registry's order."""

TASKS: Sequence[str] = Names(_tasks, _is_task)
"""The commands a study may run, one per run (its task): those that read a puzzle and give a
verdict (:attr:`.declaration.Command.task`).  Looking at them loads every command's module."""
