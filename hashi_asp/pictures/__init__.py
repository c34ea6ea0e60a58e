"""Puzzles read from pictures: a screenshot, a scan or a photo of a printed page.

:func:`read_picture` finds the island numbers in the picture (:mod:`.glyphs`), works out the
grid from where they are (:mod:`.lattice`), reads each number with the classifier shipped in
the package (:mod:`.digits`) and says how sure it is of each (:mod:`.reading` has the steps).
What the puzzle read cannot be (no solution, or more than one) is for the layers above to
check: :func:`hashi_asp.misreading.suspects` names the islands most likely misread.

The pictures read are PNG, JPEG, WebP and BMP files, in a file as in a data URL: what their
first bytes say they are (:func:`is_picture`), whatever a file's name or a data URL's media
type.  A picture's header is checked before it is decoded (its size within
:data:`.kinds.MAX_PIXELS`, its structure, what OpenCV's decoders would complain of on
standard error), and reading is bounded in time by an optional deadline; whatever the bytes,
a picture that cannot be read, is too large, or holds no puzzle is one :class:`PuzzleError`.

It needs numpy and OpenCV, the ``image`` extra (``pip install 'hashi-asp[image]'``); nothing
is downloaded when it runs.  Without them, reading a picture is refused with one line saying
so.  This module itself imports neither: whether bytes are a picture is known from their first
bytes.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ..errors import PuzzleError
from ..puzzle import Puzzle
from .kinds import KINDS, MAX_PIXELS, is_picture

if TYPE_CHECKING:
    from ..stopping import Deadline

OPENCV_MAX_PIXELS = MAX_PIXELS
"""OpenCV's own ceiling on a picture's pixels (``OPENCV_IO_MAX_IMAGE_PIXELS``), the budget of
:data:`.kinds.MAX_PIXELS`: every header is checked against that before it is decoded, and this
stops a decoder that would read more than its header declares.  OpenCV reads it once, when it
loads, so it is set before :mod:`.reading` is imported (and does nothing in a program that loaded
OpenCV first)."""

MISSING = "reading pictures needs the image extra: pip install 'hashi-asp[image]'"


def read_picture(
    data: bytes, source: str = "<picture>", deadline: Deadline | None = None
) -> Puzzle:
    """The puzzle in the picture ``data`` (a file's bytes), with its
    :class:`~hashi_asp.puzzle.Reading`: the confidence of each island.  Bytes of another kind, a
    picture too large, damaged, or with no puzzle found in it raise :class:`PuzzleError`; so
    does a missing ``image`` extra.  ``deadline`` bounds the time it takes (raising
    :class:`~hashi_asp.stopping.Stopped` at its end)."""
    if not is_picture(data):
        raise PuzzleError(f"not a picture of a kind read ({KINDS})", source)
    os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(OPENCV_MAX_PIXELS))
    try:
        from .reading import islands
    except ImportError:
        raise PuzzleError(MISSING, source) from None
    try:
        rows, cols, numbers, reading = islands(data, source, deadline=deadline)
    except MemoryError:  # (the budgets keep a read far below what a machine has; not this one)
        raise PuzzleError("the picture is too large to read in the memory left", source) from None
    return Puzzle(rows, cols, numbers, source, reading=reading)
