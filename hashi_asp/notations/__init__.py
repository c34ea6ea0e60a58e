"""Reading and writing puzzles in the common notations: one module per notation, one registry.

=============  ==========================================================================
``has``        Coelho et al. (2019): ``ROWS COLS NISLANDS``, then the grid, 0 = water
``grid``       the dot grid: optional ``ROWS COLS`` header, ``.`` for water, ``?`` unnumbered
``json``       ``{"rows": R, "cols": C, "islands": [[r, c, n], ...]}``, or ``[[[x, y], n], ...]``
``puzzlink``   puzz.link / pzv.jp URLs (module :mod:`.puzzlink`)
``pzprv3``     the files pzprjs's editors save, with their bridges (module :mod:`.puzzlink`)
``tatham``     Simon Tatham's Bridges game IDs, ``WxH[mK][L]:DESC`` (module :mod:`.tatham`)
``picture``    a screenshot or a photo (PNG, JPEG, WebP, BMP), read only (module :mod:`.picture`)
=============  ==========================================================================

Every notation is a :class:`Notation` in :data:`NOTATIONS`: how to recognise it, a validator
that finds the first problem (message, line, column), a reader that trusts what the validator
passed, a writer that refuses what the notation cannot hold (an island without a number, rules
other than the standard ones, numbers out of its range), and whether it records rules.
Detection, ``convert`` and every ``--notation`` choice read this one table, and :func:`register`
adds a notation to it at run time.

A file, or standard input, is read as bytes: a picture is known by its first bytes, anything
else is UTF-8 text; as text, a picture is a data URL (``data:image/png;base64,...``).
"""

from __future__ import annotations

import functools
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..catalogue import Names
from ..errors import PuzzleError
from ..files import decode, read_data, read_stream_data, read_text
from ..puzzle import Puzzle, Solution
from .lexing import Problem, line_column


@dataclass(frozen=True)
class Notation:
    """One notation: ``detect(text)`` says whether a text looks like it; ``validate(text,
    max_number)`` gives its first problem or None; ``parse(text, source, max_number)`` reads it
    (island numbers up to ``max_number``, by default what the notation's own rules allow);
    ``write(puzzle)`` writes it; ``rules``: it records rules other than the standard ones;
    ``extensions``: the file suffixes it is known by before its content; ``readonly``: no
    puzzle is written in it (``write`` refuses); ``inline``: a one-line argument it detects
    is the puzzle itself, not a file name; ``aliases``: other names the command line takes for
    it; ``detect_data(data)`` and ``read_data(data, source)``, for a notation of bytes rather
    than text: whether a file's bytes are in it, and the puzzle they hold."""

    name: str
    detect: Callable[[str], bool]
    validate: Callable[[str, int | None], object | None]
    parse: Callable[[str, str, int | None], Puzzle]
    write: Callable[[Puzzle], str]
    rules: bool
    extensions: tuple[str, ...] = ()
    readonly: bool = False
    inline: bool = False
    aliases: tuple[str, ...] = ()
    detect_data: Callable[[bytes], bool] | None = None
    read_data: Callable[[bytes, str], Puzzle] | None = None


def _deferred(module: str, name: str) -> Callable:
    """The function ``name`` of the notation module ``module``, imported at its first call: a
    command reads one notation, and the other modules (the JSON one brings Python's json) need
    not cost its start-up."""

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(f"{__name__}.{module}"), name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = f"{module}.{name}"
    return call


def _notation(name: str, module: str, functions: str, **kind: Any) -> Notation:
    """A notation whose detect, validate, parse and write functions (named in ``functions``),
    and ``detect_data`` and ``read_data`` when named in ``kind``, live in ``module``."""
    detect, validate, parse, write = (_deferred(module, function) for function in functions.split())
    for field in ("detect_data", "read_data"):
        if field in kind:
            kind[field] = _deferred(module, kind[field])
    return Notation(name, detect, validate, parse, write, **kind)


# In the order detection tries them: the dot grid, which takes anything, comes last.
_STANDARD = "detect validate parse write"
NOTATIONS: dict[str, Notation] = {
    notation.name: notation
    for notation in (
        # (Known by its first bytes in a file, by "data:image/" in a text: never by a name.)
        _notation(
            "picture",
            "picture",
            _STANDARD,
            rules=False,
            readonly=True,
            inline=True,
            detect_data="is_picture",
            read_data="read",
        ),
        _notation("json", "json", _STANDARD, rules=True, extensions=(".json",)),
        _notation(
            "pzprv3",
            "puzzlink",
            "is_pzprv3 validate_pzprv3 parse_pzprv3 format_pzprv3",
            rules=False,
        ),
        _notation(
            "puzzlink",
            "puzzlink",
            "is_url validate_url parse_url format_url",
            rules=False,
            inline=True,
        ),
        _notation(
            "tatham",
            "tatham",
            "is_game_id validate_game_id parse_game_id format_game_id",
            rules=True,
            inline=True,  # (a parameter string too: its reader says why that is no puzzle)
        ),
        _notation("has", "has", _STANDARD, rules=False, extensions=(".has",)),
        # .txt: detected by its content
        _notation("grid", "grid", _STANDARD, rules=False, aliases=("txt",)),
    )
}


def standing_for(name: str) -> str:
    """The name of the notation that ``name`` stands for: ``name`` itself, or the notation of
    which it is one of the other names the command line accepts (``txt``: the dot grid)."""
    return next((each.name for each in NOTATIONS.values() if name in each.aliases), name)


NAMES: Sequence[str] = Names(lambda: list(NOTATIONS))
"""Every notation's name, in the order detection tries them: the ``--notation`` choices."""

WRITABLE: Sequence[str] = Names(
    lambda: sorted(
        name
        for notation in NOTATIONS.values()
        if not notation.readonly
        for name in (notation.name, *notation.aliases)
    )
)
"""The notations a puzzle is written in, and their aliases, in alphabetical order: the choices
of ``convert --to``, ``fix --to`` and ``generate --format``."""


def register(notation: Notation) -> Notation:
    """Add ``notation`` to :data:`NOTATIONS` and return it: from now on it is read (known by its
    extensions, then its content, tried before the dot grid, which takes anything), written
    (unless ``readonly``), and among the choices of every command that names notations, on the
    command line and the JSON API alike.  Registering the same notation again changes nothing;
    a name or an alias taken by another notation is refused."""
    taken = NOTATIONS.get(notation.name)
    if taken == notation:
        return notation
    for name in (notation.name, *notation.aliases):
        if name in NOTATIONS or standing_for(name) != name:
            raise LookupError(f"a notation {name} exists already")
    *before, last = NOTATIONS.items()
    NOTATIONS.clear()
    NOTATIONS.update([*before, (notation.name, notation), last])
    return notation


def named(name: str) -> Notation:
    """The notation called ``name`` (or by one of its other names, :func:`standing_for`)."""
    found = NOTATIONS.get(standing_for(name))
    if found is None:
        raise PuzzleError(f"unknown notation {name!r}; known: {', '.join(NOTATIONS)}")
    return found


def extension(name: str) -> str:
    """The file extension of a notation: the one the readers recognise it by, else ``.txt``."""
    extensions = named(name).extensions
    return extensions[0] if extensions else ".txt"


# ---------------------------------------------------------------------------- entry points


def read(
    source: str | os.PathLike,
    *,
    notation: str | None = None,
    max_bridges: int | None = None,
    no_loops: bool | None = None,
) -> Puzzle:
    """Read a puzzle from a file path, ``-`` for standard input, or from the puzzle itself: text
    (anything with a newline or starting with ``{`` or ``[``), a puzz.link URL, a Simon Tatham
    game ID or a picture's data URL (when no file of that name exists).  A file or standard
    input that starts as a PNG, JPEG, WebP or BMP file does is a picture.  ``max_bridges`` and
    ``no_loops``, when given, override the rules the puzzle's notation states (island numbers
    may then go up to ``4 * max_bridges``)."""
    given = functools.partial(parse, notation=notation, max_bridges=max_bridges, no_loops=no_loops)
    if (
        isinstance(source, str)
        and source != "-"
        and (is_text(source) or (not os.path.exists(source) and is_inline(source)))
    ):
        return given(source, source="<text>")
    name = "<stdin>" if source == "-" else str(source)
    data = _stdin() if source == "-" else read_data(source)
    of_bytes = _of_bytes(data, notation)
    if of_bytes is not None:
        return of_bytes(data, name).with_rules(max_bridges, no_loops)
    return given(decode(data, name), source=name)


def _of_bytes(data: bytes, notation: str | None) -> Callable[[bytes, str], Puzzle] | None:
    """The reader of the notation of bytes that ``data`` is to be read by (``notation``, or
    the one its first bytes are in when none is named); None for a text."""
    if notation is not None:
        chosen = NOTATIONS.get(standing_for(notation))
        return None if chosen is None else chosen.read_data
    for candidate in NOTATIONS.values():
        if candidate.detect_data is not None and candidate.detect_data(data):
            return candidate.read_data
    return None


def parse(
    text: str,
    *,
    notation: str | None = None,
    source: str = "<text>",
    max_bridges: int | None = None,
    no_loops: bool | None = None,
) -> Puzzle:
    """Parse puzzle text in ``notation`` (detected from ``source``'s extension or the text if
    None).  Without ``max_bridges`` island numbers go up to 8, or to what the notation's own
    rules allow (a Tatham ID's ``mK``, a JSON ``max_bridges``)."""
    if "\0" in text:
        line, column = line_column(text, text.index("\0"))
        raise PuzzleError("NUL byte in input: not a text puzzle", source, line, column)
    chosen = named(notation or detect(text, source))
    max_number = None if max_bridges is None else 4 * max_bridges
    return chosen.parse(text, source, max_number).with_rules(max_bridges, no_loops)


def write(puzzle: Puzzle, notation: str) -> str:
    """``puzzle`` in ``notation``; raises :class:`PuzzleError` if the notation cannot hold it."""
    return named(notation).write(puzzle)


def detect(text: str, name: str = "") -> str:
    """The notation of ``text``: by the file extension of ``name`` first, then by content."""
    suffix = os.path.splitext(name)[1].lower()
    for candidate in NOTATIONS.values():
        if suffix in candidate.extensions:
            return candidate.name
    return next(candidate.name for candidate in NOTATIONS.values() if candidate.detect(text))


def is_text(source: str) -> bool:
    """Whether a command-line argument is puzzle text rather than a file name."""
    return "\n" in source or source.lstrip().startswith(("{", "["))


def is_inline(argument: str) -> bool:
    """Whether a one-line argument is a puzzle in itself: in a notation given ``inline`` (a
    puzz.link URL, a Tatham game ID or parameter string, a picture's data URL)."""
    return any(notation.inline and notation.detect(argument) for notation in NOTATIONS.values())


# ---------------------------------------------------------------------------- solutions


def read_solutions(source: str | os.PathLike) -> list[Solution]:
    """Solutions from a file, ``-`` for standard input, or the text itself: JSON
    (``{"bridges": [...]}``, the output of ``solve --format json`` with every entry of
    ``"solutions"``, or a bare list of bridges), or a pzprv3 file with lines."""
    return parse_solutions(*read_source(source))


def read_source(source: str | os.PathLike) -> tuple[str, str]:
    """The text of a file, of standard input (``-``) or the text itself (anything with a
    newline or starting with ``{`` or ``[``), with the name messages give its source."""
    if source == "-":
        return decode(_stdin(), "<stdin>"), "<stdin>"
    if isinstance(source, str) and is_text(source):
        return source, "<text>"
    return read_text(Path(source)), str(source)


def _stdin() -> bytes:
    """Standard input, read up to the size limit of files."""
    if sys.stdin is None:
        raise PuzzleError("standard input is closed", "<stdin>")
    return read_stream_data(sys.stdin.buffer, "<stdin>")


def parse_solutions(text: str, source: str = "<solution>") -> list[Solution]:
    from . import json, puzzlink

    if puzzlink.is_pzprv3(text):  # a pzprjs editor's file: its lines are a solution
        return [puzzlink.parse_pzprv3_solution(text, source)]
    return json.parse_solutions(text, source)


__all__ = [
    "NAMES",
    "NOTATIONS",
    "WRITABLE",
    "Notation",
    "Problem",
    "detect",
    "extension",
    "is_inline",
    "is_text",
    "named",
    "parse",
    "parse_solutions",
    "read",
    "read_solutions",
    "read_source",
    "register",
    "standing_for",
    "write",
]
