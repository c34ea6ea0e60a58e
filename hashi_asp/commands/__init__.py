"""The commands, one unit each: one module per command, holding the declaration of its options
and the function that runs it (:mod:`.unit` says what a unit is, :mod:`.common` holds the
options several share).  This table lists them in the order ``hashi-asp --help`` shows them;
the command line, the JSON API and study variants are all derived from it.

A module is loaded when its command is first asked for, so that a command's start-up pays for
its own declaration only.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .unit import Command

NAMES = (
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
    "serve",
    "bench",
    "study",
)
"""Every command, by the name users type; each is the module ``commands/<name>.py``."""


def command(name: str) -> Command:
    """The command ``name`` (one of :data:`NAMES`)."""
    if name not in NAMES:
        raise KeyError(name)
    unit: Command = importlib.import_module(f".{name}", __name__).COMMAND
    return unit
