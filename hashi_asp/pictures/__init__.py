"""Puzzles read from pictures: a screenshot, a scan or a photo of a printed page.

:func:`read_picture` finds the island numbers in the picture (:mod:`.glyphs`), works out the
grid from where they are (:mod:`.lattice`), reads each number with the classifier shipped in
the package (:mod:`.digits`) and says how sure it is of each (:mod:`.reading` has the steps).
What the puzzle read cannot be (no solution, or more than one) is for the layers above to
check: :func:`hashi_asp.misreading.suspects` names the islands most likely misread.

It needs numpy and OpenCV, the ``image`` extra (``pip install 'hashi-asp[image]'``); nothing
is downloaded when it runs.  Without them, reading a picture is refused with one line saying
so.  This module itself imports neither: whether bytes are a picture is known from their first
bytes (:func:`is_picture`).
"""

from __future__ import annotations

import os

from ..errors import PuzzleError
from ..puzzle import Puzzle

MAX_PIXELS = 100_000_000
"""Largest picture decoded (its width times its height), checked by OpenCV before it
allocates the picture: a small file can unpack to a huge picture."""

SIGNATURES = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"BM")
MISSING = "reading pictures needs the image extra: pip install 'hashi-asp[image]'"


def is_picture(data: bytes) -> bool:
    """Whether ``data`` starts as a PNG, JPEG, WebP or BMP file does."""
    return data.startswith(SIGNATURES) or (data[:4] == b"RIFF" and data[8:12] == b"WEBP")


def read_picture(data: bytes, source: str = "<picture>") -> Puzzle:
    """The puzzle in the picture ``data`` (a file's bytes), with its
    :class:`~hashi_asp.puzzle.Reading`: the confidence of each island.  A picture with no
    puzzle found in it, or one that cannot be decoded, raises :class:`PuzzleError`; so does a
    missing ``image`` extra."""
    os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(MAX_PIXELS))
    try:
        from .reading import islands
    except ImportError:
        raise PuzzleError(MISSING, source) from None
    rows, cols, numbers, reading = islands(data, source)
    return Puzzle(rows, cols, numbers, source, reading=reading)
