"""A study's variants: a name and the searching commands' own options (``--connectivity tree
--clingo "--configuration=handy" -c k=1 --encoding my.lp --add extra.lp --max-bridges 3``).

:func:`parse` is the one place that turns such an option string into what a run needs: it is
read by the very options ``solve``, ``unique``, ``count`` and ``bench`` declare
(:data:`hashi_asp.commands.shared_options.VARIANT`, through the command line's parser), so a variant
accepts exactly what those commands accept, with their messages.

A cluster shares no file system with the machine that plans the study: the files a variant
names (``--encoding``, ``--add``, and the files they ``#include`` from beside them) travel with
it as text (:attr:`Variant.files`) and are written out once per worker
(:meth:`Variant.program_in`).
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any

from ..asp.interface import Program
from ..errors import HashiError, PuzzleError

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,63}\Z")
"""A variant's name: a word (letters, digits, ``_ . + -``), as tables, plots and files use it."""

_INCLUDE = re.compile(r'#include\s*"((?:[^"\\\n]|\\.)*)"')


class VariantError(PuzzleError):
    """A variant whose name or options cannot be used (exit 2)."""


@dataclass(frozen=True)
class Variant:
    """One way of searching: ``name``, the ``options`` as given, the :class:`Program` and the
    rules (``max_bridges=``, ``no_loops=``, for every instance) they mean, and the rule files
    the program names, as (path inside the variant's folder, text) pairs.  ``program`` names
    the files where they are on this machine; :meth:`program_in` where a worker wrote them."""

    name: str
    options: str
    program: Program = field(default_factory=Program)
    rules: dict[str, Any] = field(default_factory=dict)
    files: tuple[tuple[str, str], ...] = ()
    places: tuple[tuple[str, str], ...] = ()  # (path as named, path inside the folder)

    @property
    def digest(self) -> str:
        """What identifies the variant's rules: its options and the text of every file."""
        text = "\0".join([self.options, *(f"{name}\0{body}" for name, body in self.files)])
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    def describe(self) -> dict:
        """The variant as a study's plan records it."""
        return {"options": self.options, "files": dict(self.files), "digest": self.digest}

    def program_in(self, folder: Path) -> Program:
        """The program with its files written into ``folder`` (once; the folder is the
        worker's own), for a machine that may not see the planning machine's files."""
        if not self.files:
            return self.program
        for name, text in self.files:
            target = folder / name
            if not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
        moved = {given: str(folder / inside) for given, inside in self.places}
        encoding = self.program.encoding
        return replace(
            self.program,
            encoding=moved[str(encoding)] if encoding is not None else None,
            additions=tuple(moved[str(path)] for path in self.program.additions),
        )

    def as_given(self, text: str, folder: Path) -> str:
        """``text`` (a message) with the paths of :meth:`program_in` as the variant gave them."""
        for given, inside in self.places:
            text = text.replace(str(folder / inside), given)
        return text


def parse(name: str, options: str, base: str | os.PathLike = ".") -> Variant:
    """The variant ``name`` with ``options``, the searching commands' own, read as the command
    line reads them (:func:`hashi_asp.commands.click_options.variant`); the files it names are read
    relative to ``base`` (the folder of a plan file, or the working directory).  Raises
    :class:`VariantError` with the command line's own message for an option it refuses."""
    from ..commands.click_options import variant

    if not NAME.match(name):
        raise VariantError(
            f"variant name {name[:40]!r}: use letters, digits and _ . + - (at most 64)"
        )
    try:
        program, rules = variant(options)
    except HashiError as error:
        raise VariantError(f"variant {name}: {error}") from None
    folder = Path(base)
    program = replace(
        program,
        encoding=str(folder / program.encoding) if program.encoding is not None else None,
        additions=tuple(str(folder / path) for path in program.additions),
    )
    files, places = _shipped(name, program)
    return Variant(name, " ".join(options.split()), program, rules, files, places)


def _shipped(
    name: str, program: Program
) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """The texts of the program's rule files and of the files they include from beside them,
    each under a folder of its own (``0/my.lp``, ``0/bridges.lp``, ``1/extra.lp``...), and
    where each file the program names goes."""
    named = [program.encoding] if program.encoding is not None else []
    files: dict[str, str] = {}
    places: dict[str, str] = {}
    for number, path in enumerate([*named, *program.additions]):
        path = Path(path)
        _gather(name, path, PurePosixPath(f"{number}/{path.name}"), files, places)
    return tuple(files.items()), tuple(places.items())


def _gather(
    name: str, path: Path, inside: PurePosixPath, files: dict[str, str], places: dict[str, str]
) -> None:
    places.setdefault(str(path), str(inside))
    if str(inside) in files:
        return
    from ..files import read_text

    try:  # a regular file within the size limit: it travels with every run
        text = read_text(path, regular=True, what="rules file")
    except HashiError as error:
        raise VariantError(f"variant {name}: {error}") from None
    files[str(inside)] = text
    for included in _INCLUDE.findall(text):
        relative = PurePosixPath(included)
        beside = path.parent / included
        # Only what lies beside the file travels with it; other includes are the worker's.
        if not relative.is_absolute() and ".." not in relative.parts and beside.is_file():
            _gather(name, beside, inside.parent / relative, files, places)
