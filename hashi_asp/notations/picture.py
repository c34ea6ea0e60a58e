"""Pictures: a screenshot, a scan or a photo of a puzzle (PNG, JPEG, WebP, BMP), read only.

A file or standard input is a picture by its first bytes (:func:`hashi_asp.notations.read`
tells); as text (an argument, a request of the JSON API) a picture is a data URL,
``data:image/png;base64,...``, what a browser's ``FileReader.readAsDataURL`` gives.  Its bytes
are judged as a file's are, by what they start with, whatever its media type says: a data URL
of a GIF, a TIFF or nothing at all is refused as text is (:func:`validate`).  The
reading itself is :mod:`hashi_asp.pictures`'s: the puzzle comes with its
:class:`~hashi_asp.puzzle.Reading`, the confidence of each island.  No notation writes a picture
of this kind back (``render`` draws puzzles).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..errors import PuzzleError
from ..pictures import KINDS, is_picture
from ..puzzle import Puzzle
from .lexing import Problem

if TYPE_CHECKING:
    from ..stopping import Deadline

NAME = "picture"
_DATA_URL = re.compile(r"\s*data:image/[\w.+-]+(?:;[\w.+-]+=[\w.+-]+)*;base64,", re.ASCII)


def detect(text: str) -> bool:
    """A data URL of an image."""
    return text.lstrip()[:5].lower() == "data:" and _DATA_URL.match(text[:200]) is not None


def validate(text: str, max_number: int | None = None) -> Problem | None:
    """A data URL's problem (a picture's own is found only by reading it)."""
    try:
        _bytes(text)
    except Problem as problem:
        return problem
    return None


def parse(text: str, source: str = "<picture>", max_number: int | None = None) -> Puzzle:
    """The puzzle in the picture a data URL holds."""
    try:
        data = _bytes(text)
    except Problem as problem:
        raise problem.error(source) from None
    return read(data, source)


def read(data: bytes, source: str, deadline: Deadline | None = None) -> Puzzle:
    """The puzzle in a picture's bytes (a file's), within ``deadline`` if given."""
    from ..pictures import read_picture

    return read_picture(data, source, deadline)


def write(puzzle: Puzzle) -> str:
    raise PuzzleError("the picture notation is read only: render draws a puzzle as SVG or PNG")


def _bytes(text: str) -> bytes:
    import base64
    import binascii

    found = _DATA_URL.match(text)
    if found is None:
        raise Problem("expected a data URL of a picture, data:image/...;base64,...", 1, 1)
    try:
        data = base64.b64decode(text[found.end() :].strip(), validate=True)
    except (binascii.Error, ValueError):
        raise Problem("the picture's data URL is not valid base64", 1, found.end() + 1) from None
    if not data:
        raise Problem("the picture's data URL is empty", 1, found.end() + 1)
    if not is_picture(data):
        raise Problem(
            f"the picture's data URL holds no picture of a kind read ({KINDS})", 1, found.end() + 1
        )
    return data
