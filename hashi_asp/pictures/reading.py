"""A puzzle read from a picture: the steps, from the bytes of a file to islands with how sure
the reader is of each.

1. The picture: its header read first (:func:`dimensions`: a PNG, JPEG, WebP or BMP file), and
   refused if too large (:data:`MAX_PIXELS`, :data:`MAX_DECODED`) or damaged, before OpenCV
   decodes it (in grey, a JPEG at the least size reading needs, a transparent background as
   white, turned as its EXIF orientation says), shrunk to :data:`LONGEST` pixels at most.
2. The glyphs (:mod:`.glyphs`) of both polarities, dark on light and light on dark; the one
   whose digits read with more confidence is the picture's.  Of those, the numbers 1 to 8 of
   about the usual height and clear of their paper (not noise shaped like a digit); if most
   sit in a circle or a square, only those.  Far more pieces shaped like a digit than a
   puzzle has islands (:data:`CROWDED`, :data:`MAX_ISLANDS`) are no puzzle.
3. The lattice through their centres (:mod:`.lattice`): the grid, drawn or not.  Too few
   numbers for its rows and columns (:data:`SPARSE`), or too many of them
   (:data:`MAX_SIDE`), are no puzzle: noise, a page of text.
4. The picture rectified: the homography undone, each cell :data:`PITCH` pixels, the numbers
   upright; every cell of the grid is looked at again (:func:`.glyphs.cell_glyph`), which
   reads the numbers at their size and finds an island the first look missed (one read with
   a chance of :data:`NEW_ISLAND` or more, of the height of the others).  An island's
   chances are those of both looks together; its number the likeliest of 1 to 8, its
   confidence that number's chance.  Islands too sure of nothing on average
   (:data:`UNSURE`) are no puzzle.
5. The bridges drawn between neighbouring islands, if any (:mod:`.bridges`): a game going on.

A deadline, if given, is looked at between the steps and in their long loops.
"""

from __future__ import annotations

import contextlib
import itertools
import struct
import threading
import zlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace

import cv2
import numpy as np

from ..errors import PuzzleError
from ..puzzle import Cell, Pair, Puzzle, Reading
from ..stopping import Deadline
from . import digits
from .bridges import drawn, moved_bridges
from .glyphs import SMALLEST, Crowded, Glyph, candidates, cell_glyph, frames, ink, relative
from .kinds import KINDS, MAX_PIXELS, SIGNATURES
from .lattice import CLOSE, Lattice, fit, misfit, neighbours

LONGEST = 2400  # pixels: a larger picture is shrunk first (a phone's photo is 4000 or more)
PITCH = 48  # pixels a cell in the rectified picture
BORDER = 2  # cells of the rectified picture before the lattice's first row and column
SURE = 0.5  # the least chance of a first look's digit
ENCLOSED = 0.2  # the least chance of being one of 1 to 8 of a first look's glyph in a circle
SOLID = 0.9  # the solidity (Glyph.solidity) from which a glyph is a blob, not strokes
SURE_SOLID = 0.8  # the least chance of its number of a blob in a circle
CLEAR = 0.03  # share of ink around a glyph on clear paper, at most
SURE_IN_CLUTTER = 0.9  # the least chance of a digit with more ink than that around it
CLUTTERED = 0.1  # share of ink around a glyph beyond which it is taken for no number
NEW_ISLAND = 0.9  # the least chance of a digit the second look alone finds
FAINT = 0.3  # of the usual contrast of a glyph with its paper, the least a number has
UNREADABLE = 0.3  # of a number in a frame the second look alone finds, less: not read
READABLE = 12
"""Pixels: numbers at least this tall are read as the picture is, smaller ones enlarged first.
Measured on the project's drawing of a 15 x 15 with 40 islands: numbers 9 pixels tall are all
read as they are, 7 pixels 31 of 40 (enlarged twice, 40), 6 pixels 8 of 40 (four times, 40)."""
FEW = 3
"""Numbers found, fewer than which a picture is also looked at enlarged, whatever their
height: in a drawing of 20 x 20 cells at 12.6 pixels a cell (numbers 5 pixels tall) the first
look sees 2 pieces of 19 pixels, none of the numbers, and 18 numbers enlarged twice."""
ENLARGED = (2, 3, 4)  # times a picture of smaller numbers is enlarged, in turn
SHARP = 0.99  # the least certainty of every number for a picture to be taken as sharp
SHARPENED = (1.5, 3.0)  # pixels: the blurs an unsharp mask undoes in a blurred picture
LOST = 0.3
"""Of the usual height, the least of a glyph not taken for a number to be offered as where an
island may have been lost (:attr:`~hashi_asp.puzzle.Reading.missed`, whatever its chances: the
suspects take the likeliest).  Measured on the held-out photos read with islands lost: of 75
islands lost, 20 were offered with the least chance 0.1 and half a usual height, 29 so."""
MAX_SIDE = 50
"""The most rows or columns of a puzzle read from a picture: in :data:`LONGEST` pixels, cells
of 48 pixels; the benchmark's largest is 25 x 25.  Its rectified picture (step 4) takes 26 MB
(twice as many rows and columns, which the first look's lattice may have, 98 MB); a lattice
through noise, 106 x 92 cells, would take 91 MB."""
MAX_ISLANDS = MAX_SIDE * MAX_SIDE // 2
"""The most numbers the first look may see: the islands of a puzzle of :data:`MAX_SIDE` at its
densest, every other cell.  Fitting the lattice to them takes a second (its steps compare
every two glyphs, so 4 seconds for 2 500 and 14 GB for 30 000)."""
CROWDED = 4 * MAX_ISLANDS
"""The most pieces of ink shaped like a digit the first look reads (:func:`.glyphs.candidates`;
more are no puzzle): four times :data:`MAX_ISLANDS`, for the letters of the text around a puzzle.
Measured: 776 at most in the pictures of the benchmark (a screenshot's photo), 314 in random
noise; 30 000 small digits on a page took 14 s to read."""
SPARSE = 0.25
"""The least number of islands of a puzzle for each of its rows and columns together.
Measured: 0.53 at least in the 216 reads of the benchmark (a Tatham print of 25 x 25 with 36
islands, 0.72), 0.57 in the tests'; 0.21 at most in the reads of random noise, blurred noise
and pages of text (5 numbers on 42 x 52 cells, 0.05, for noise of 2000 x 2000 pixels)."""
UNSURE = 0.6
"""The least mean confidence of a puzzle's islands.  Measured: 0.81 at least in the reads of the
benchmark, 0.88 in the tests' (a damaged number among them); 0.34 to 0.53 in the reads of
noise and of words and pages of text that :data:`SPARSE` leaves (2 or 3 numbers in a line)."""


# ---------------------------------------------------------------------------- the file

MAX_DECODED = 3 * MAX_PIXELS
"""The most bytes a picture with transparency may take decoded (PNG, WebP: OpenCV decodes it
whole, to 4 bytes a pixel, 8 for 16-bit colour, and holds it twice meanwhile; measured: 427 MB
at the peak for 200 MB decoded, 5000 x 5000 pixels of 16-bit colour).  Three bytes for each of
:data:`MAX_PIXELS` (151 MB) keep the peak of any such read under 400 MB: 37.7 million pixels of
8-bit colour with transparency, 18.9 million of 16-bit.  A picture without transparency is
decoded in grey (a byte a pixel; a WebP to colour first): within the budget of pixels, at most
237 MB at the peak."""
INFLATED_PIECE = 1 << 20  # bytes of a PNG's pixel rows checked at a time (their memory)
BAND = 1 << 20  # pixels of a picture with transparency laid on white at a time (their memory)

UNREADABLE_PICTURE = "not a picture that can be read"
_PNG = SIGNATURES[0]
_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # of each PNG colour type
_DEPTHS = {0: (1, 2, 4, 8, 16), 2: (8, 16), 3: (1, 2, 4, 8), 4: (8, 16), 6: (8, 16)}
_ADAM7 = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2),
          (0, 1, 1, 2))  # fmt: skip
_SOF = {*range(0xC0, 0xC4), *range(0xC5, 0xC8), *range(0xC9, 0xCC), *range(0xCD, 0xD0)}
_LONE = {0x01, *range(0xD0, 0xD8)}  # JPEG markers without a segment (TEM, RST0 to RST7)


class Damaged(ValueError):
    """What is wrong with a picture's file, found before OpenCV decodes it (whose own decoders
    would say it on standard error, beside the one line the command prints)."""


@dataclass(frozen=True)
class Header:
    """What a picture's header says: its ``kind`` (PNG, JPEG, WebP or BMP), ``width`` and
    ``height`` in pixels, whether it is ``transparent`` (decoded with its transparency, to lay
    it on white) and ``deep`` (16 bits a channel)."""

    kind: str
    width: int
    height: int
    transparent: bool = False
    deep: bool = False

    @property
    def decoded(self) -> int:
        """The bytes OpenCV decodes it to with its transparency (8 or 16 bits of blue, green,
        red and alpha a pixel); 0 if it has none (decoded in grey)."""
        return (8 if self.deep else 4) * self.width * self.height if self.transparent else 0


def dimensions(data: bytes) -> tuple[int, int] | None:
    """The width and height in pixels a picture's header declares (a PNG's IHDR, a JPEG's
    SOFn, a WebP's VP8, VP8L or VP8X, a BMP's header), without decoding it; None if there is no
    header of those kinds."""
    try:
        header = _header(data)
    except Damaged:
        return None
    return None if header is None else (header.width, header.height)


def _header(data: bytes) -> Header | None:
    """The header of a PNG, JPEG, WebP or BMP file, None if it starts as none of them does;
    one of them whose header is damaged raises :class:`Damaged`."""
    for kind, starts, read in _KINDS:
        if starts(data):
            try:
                header = read(data)
            except (struct.error, IndexError):
                header = None
            if header is None:
                raise Damaged(f"the {kind}'s header is damaged")
            return header
    return None


def _png_header(data: bytes) -> Header | None:
    if data[12:16] != b"IHDR":
        return None
    width, height, depth, colour = struct.unpack(">IIBB", data[16:26])
    # A palette or colour picture with a tRNS chunk is decoded with its transparency too.
    try:
        chunks = _png_chunks(data, b"IDAT")  # (tRNS comes before the pixels)
        marked = colour in (2, 3) and any(kind == b"tRNS" for kind, _, _ in chunks)
    except Damaged:  # (cut short: said when it is read)
        marked = False
    transparent = colour in (4, 6) or marked
    return Header("PNG", width, height, transparent, depth == 16)


def _png_chunks(data: bytes, until: bytes = b"IEND") -> Iterator[tuple[bytes, int, int]]:
    """A PNG's chunks, each as its kind and where its body starts and ends, up to the first of
    kind ``until`` (included); it raises :class:`Damaged` for a chunk cut short."""
    at = len(_PNG)
    while at < len(data):
        if at + 12 > len(data):
            raise Damaged("the PNG is cut short")
        length, kind = struct.unpack(">I4s", data[at : at + 8])
        if at + 12 + length > len(data):
            raise Damaged("the PNG is cut short")
        yield kind, at + 8, at + 8 + length
        if kind == until:
            return
        at += 12 + length


def _jpeg_header(data: bytes) -> Header | None:
    for marker, start, end in _jpeg_segments(data):
        if marker in _SOF:
            if end - start < 6:
                return None
            height, width = struct.unpack(">HH", data[start + 1 : start + 5])
            return Header("JPEG", width, height)
        if marker == 0xDA:  # a scan before any frame
            return None
    return None


def _webp_header(data: bytes) -> Header | None:
    kind, body = data[12:16], data[20:30]
    if kind == b"VP8 " and body[3:6] == b"\x9d\x01\x2a":
        width, height = struct.unpack("<HH", body[6:10])
        return Header("WebP", width & 0x3FFF, height & 0x3FFF)
    if kind == b"VP8L" and body[:1] == b"\x2f":
        bits = int.from_bytes(body[1:5], "little")
        width, height = (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
        return Header("WebP", width, height, bool(bits >> 28 & 1))
    if kind == b"VP8X" and len(body) == 10:
        width = int.from_bytes(body[4:7], "little") + 1
        height = int.from_bytes(body[7:10], "little") + 1
        return Header("WebP", width, height, bool(body[0] & 0x10))
    return None


def _bmp_header(data: bytes) -> Header | None:
    (size,) = struct.unpack("<I", data[14:18])
    if size == 12:  # OS/2's BITMAPCOREHEADER: 16-bit sides
        width, height = struct.unpack("<HH", data[18:22])
    elif size >= 16:
        width, height = struct.unpack("<ii", data[18:26])
    else:
        return None
    # A negative height is a picture stored top down.
    return Header("BMP", width, abs(height)) if width > 0 else None


_KINDS: tuple[tuple[str, Callable[[bytes], bool], Callable[[bytes], Header | None]], ...] = (
    ("PNG", lambda data: data.startswith(_PNG), _png_header),
    ("JPEG", lambda data: data.startswith(b"\xff\xd8\xff"), _jpeg_header),
    ("WebP", lambda data: data[:4] == b"RIFF" and data[8:12] == b"WEBP", _webp_header),
    ("BMP", lambda data: data.startswith(b"BM"), _bmp_header),
)


def _within_budget(header: Header, source: str) -> None:
    """Refuse a picture too large to read (:data:`MAX_PIXELS`, :data:`MAX_DECODED`), or too
    thin to hold a puzzle once shrunk (a side of less than a glyph's least height)."""
    width, height = header.width, header.height
    pixels = width * height
    if pixels > MAX_PIXELS:
        raise PuzzleError(
            f"the picture is too large to read: {width} x {height} pixels, "
            f"{pixels / 1e6:.1f} million; at most {MAX_PIXELS / 1e6:.1f} million are read",
            source,
        )
    if header.decoded > MAX_DECODED:
        depth, each = (16, 8) if header.deep else (8, 4)
        raise PuzzleError(
            f"the picture is too large to read: {width} x {height} pixels of {depth}-bit colour "
            f"with transparency take {header.decoded / 1e6:.0f} MB decoded; at most "
            f"{MAX_DECODED / 1e6:.0f} MB are ({MAX_DECODED / each / 1e6:.1f} million such "
            "pixels)",
            source,
        )
    if min(width, height) * min(1.0, LONGEST / max(width, height, 1)) < SMALLEST:
        raise PuzzleError(
            f"no puzzle found in the picture: {width} x {height} pixels is too small to hold one",
            source,
        )


def _png_cleaned(data: bytes, deadline: Deadline) -> tuple[bytes, int]:
    """A PNG that libpng reads without a word on standard error, and its EXIF orientation (1
    if none): only its IHDR, PLTE (padded to every index its depth allows), tRNS, IDAT and IEND
    chunks, each checked (its checksum; its pixel rows inflated, :func:`_rows_checked`).
    libpng writes its warnings and errors to standard error itself (a chunk it does not like,
    an ICC profile, a checksum, rows cut short); written again without what it would warn of,
    the PNG reads the same in silence.  Raises :class:`Damaged`."""
    chunks: dict[bytes, bytes] = {}
    pixels = []
    turn = 1
    for kind, start, end in _png_chunks(data):
        body = data[start:end]
        good = zlib.crc32(kind + body) == int.from_bytes(data[end : end + 4], "big")
        if kind == b"IDAT":
            if not good:
                raise Damaged("the PNG's pixel data is damaged (a checksum is wrong)")
            pixels.append(body)
        elif kind in (b"IHDR", b"PLTE") and not good:
            raise Damaged(f"the PNG's {kind.decode()} chunk is damaged (its checksum is wrong)")
        elif kind in (b"IHDR", b"PLTE", b"tRNS") and good:
            chunks.setdefault(kind, body)
        elif kind == b"eXIf" and good:
            turn = _tiff_orientation(body)
        elif kind[0] < 0x61 and kind != b"IEND":  # (upper case: critical, cannot be skipped)
            raise Damaged(f"the PNG has a chunk no reader knows ({kind.decode('latin-1')!r})")
    header = chunks.get(b"IHDR", b"")
    if len(header) != 13:
        raise Damaged("the PNG's header is damaged")
    width, height, depth, colour, compression, filtering, interlace = struct.unpack(
        ">IIBBBBB", header
    )
    if (
        not (0 < width < 2**31 and 0 < height < 2**31)
        or depth not in _DEPTHS.get(colour, ())
        or (compression, filtering) != (0, 0)
        or interlace not in (0, 1)
    ):
        raise Damaged("the PNG's header is damaged")
    if not pixels:
        raise Damaged("the PNG has no pixel data")
    stream = b"".join(pixels)
    _rows_checked(stream, _png_rows(width, height, depth * _CHANNELS[colour], interlace), deadline)
    kept = [_chunk(b"IHDR", header)]
    if colour == 3:
        palette = chunks.get(b"PLTE", b"")
        if not palette or len(palette) % 3:
            raise Damaged("the PNG's palette is missing or damaged")
        # An index beyond the palette is black: libpng would warn of it, row after row.
        entries = 1 << depth
        kept.append(_chunk(b"PLTE", palette[: 3 * entries].ljust(3 * entries, b"\0")))
        transparency = chunks.get(b"tRNS", b"")[: len(palette) // 3]
    else:
        transparency = chunks.get(b"tRNS", b"") if colour == 2 else b""
        if len(transparency) != 6 or max(struct.unpack(">3H", transparency)) >> depth:
            transparency = b""  # (of no use, or out of the depth's range: libpng warns)
    if transparency:
        kept.append(_chunk(b"tRNS", transparency))
    kept += [_chunk(b"IDAT", stream), _chunk(b"IEND", b"")]
    return _PNG + b"".join(kept), turn


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def _png_rows(width: int, height: int, bits: int, interlace: int) -> list[tuple[int, int]]:
    """The pixel rows of a PNG, as runs of (bytes a row with its filter byte, rows): one run,
    or one for each of Adam7's seven passes."""
    passes = _ADAM7 if interlace else ((0, 0, 1, 1),)
    runs = []
    for x0, y0, dx, dy in passes:
        across, down = -(-(width - x0) // dx), -(-(height - y0) // dy)
        if across > 0 and down > 0:
            runs.append((1 + (across * bits + 7) // 8, down))
    return runs


def _rows_checked(stream: bytes, runs: list[tuple[int, int]], deadline: Deadline) -> None:
    """That a PNG's compressed pixel data inflates to exactly its rows, each starting with a
    filter libpng knows (0 to 4), inflated :data:`INFLATED_PIECE` bytes at a time and dropped:
    what libpng would stop at, and say so on standard error, is found here first."""
    starts = []  # where each run of rows starts in the inflated data
    total = 0
    for size, count in runs:
        starts.append(total)
        total += size * count
    inflating = zlib.decompressobj()
    done = 0  # bytes inflated so far
    pending = stream
    while True:
        deadline.check("reading the picture")
        try:
            piece = inflating.decompress(pending, INFLATED_PIECE)
        except zlib.error:
            raise Damaged("the PNG's pixel data is damaged") from None
        pending = inflating.unconsumed_tail
        if done + len(piece) > total:
            raise Damaged("the PNG has more pixel data than its size")
        for (size, count), begin in zip(runs, starts):
            # The filter bytes of this run within the piece: every size-th byte from the
            # run's first row on.
            first = max(begin, done + (-(done - begin) % size))
            last = min(begin + size * count, done + len(piece))
            if first < last and piece[first - done : last - done : size].translate(
                None, b"\0\1\2\3\4"
            ):
                raise Damaged("the PNG's pixel rows are damaged (a filter no reader knows)")
        done += len(piece)
        if not piece and not pending:
            break
    if not inflating.eof or done < total:
        raise Damaged("the PNG is cut short")
    if inflating.unused_data:
        raise Damaged("the PNG has more pixel data than its size")


def _jpeg_segments(data: bytes) -> Iterator[tuple[int, int, int]]:
    """A JPEG's markers after its SOI, each as the marker and where its segment's body starts
    and ends; the entropy-coded data after each SOS skipped, the last its EOI.  A file cut
    short, or bytes where a marker should be, raise :class:`Damaged` (libjpeg would say
    "Premature end of JPEG file", "extraneous bytes before marker" on standard error)."""
    at = 2
    while True:
        if data[at : at + 1] != b"\xff":
            raise Damaged("the JPEG is cut short" if at >= len(data) else "the JPEG is damaged")
        while data[at : at + 1] == b"\xff":  # (fill bytes)
            at += 1
        if at >= len(data):
            raise Damaged("the JPEG is cut short")
        marker = data[at]
        at += 1
        if marker == 0xD9:
            yield marker, at, at
            return
        if marker in _LONE or marker in (0x00, 0xD8):
            raise Damaged("the JPEG is damaged (a marker out of place)")
        if at + 2 > len(data):
            raise Damaged("the JPEG is cut short")
        length = int.from_bytes(data[at : at + 2], "big")
        if length < 2 or at + length > len(data):
            raise Damaged("the JPEG is cut short" if length >= 2 else "the JPEG is damaged")
        yield marker, at + 2, at + length
        at += length
        if marker == 0xDA:
            at = _scan_end(data, at)


def _scan_end(data: bytes, at: int) -> int:
    """Where the entropy-coded data of a JPEG's scan starting at ``at`` ends: at the first
    marker but a stuffed 0xff (0xff 0x00) or a restart (RST0 to RST7)."""
    while True:
        found = data.find(b"\xff", at)
        if found < 0:
            raise Damaged("the JPEG is cut short")
        after = found + 1
        while data[after : after + 1] == b"\xff":
            after += 1
        if after >= len(data):
            raise Damaged("the JPEG is cut short")
        if data[after] != 0 and data[after] not in _LONE:
            return found
        at = after + 1


def _jpeg_checked(data: bytes) -> int:
    """A JPEG's EXIF orientation (1 if none), its markers walked to its EOI first: there is a
    frame (SOFn), and a scan (SOS) after it.  Raises :class:`Damaged`."""
    frame = scan = False
    turn = 1
    for marker, start, end in _jpeg_segments(data):
        if marker in _SOF:
            if frame:
                raise Damaged("the JPEG is damaged (a second frame)")
            frame = True
        elif marker == 0xDA:
            if not frame:
                raise Damaged("the JPEG is damaged (a scan before its frame)")
            scan = True
        elif marker == 0xE1 and data[start : start + 6] == b"Exif\0\0" and turn == 1:
            turn = _tiff_orientation(data[start + 6 : end])
    if not scan:
        raise Damaged("the JPEG has no picture data")
    return turn


def _webp_orientation(data: bytes) -> int:
    """A WebP's EXIF orientation (its EXIF chunk's), 1 if none."""
    at = 12
    while at + 8 <= len(data):
        kind, size = data[at : at + 4], int.from_bytes(data[at + 4 : at + 8], "little")
        if kind == b"EXIF":
            body = data[at + 8 : at + 8 + size]
            return _tiff_orientation(body[6:] if body.startswith(b"Exif\0\0") else body)
        at += 8 + size + (size & 1)
    return 1


def _tiff_orientation(tiff: bytes) -> int:
    """The Orientation tag (0x0112) of an EXIF block's first IFD: 1 to 8, 1 if none or not
    valid (1: as stored, 6: turned a quarter clockwise to be seen, as a phone held upright
    stores it)."""
    order = {b"II": "<", b"MM": ">"}.get(tiff[:2])
    if order is None or len(tiff) < 8:
        return 1
    magic, offset = struct.unpack(order + "HI", tiff[2:8])
    if magic != 42 or offset + 2 > len(tiff):
        return 1
    (count,) = struct.unpack(order + "H", tiff[offset : offset + 2])
    for entry in range(offset + 2, min(offset + 2 + 12 * count, len(tiff) - 11), 12):
        tag, kind, _, value = struct.unpack(order + "HHIH", tiff[entry : entry + 10])
        if tag == 0x0112 and kind == 3:  # (a SHORT)
            return value if 1 <= value <= 8 else 1
    return 1


def grey(data: bytes, source: str, deadline: Deadline | None = None) -> np.ndarray:
    """The picture in grey, a transparent background white, turned as its EXIF orientation
    says, at most :data:`LONGEST` pixels.  Its header is checked first (:func:`dimensions`,
    :data:`MAX_PIXELS`), so that nothing too large is decoded; a JPEG is decoded at the least
    size reading needs (OpenCV's reduced modes, at 1/2, 1/4 or 1/8 of its size: libjpeg decodes
    at that size), anything else in grey (decoded whole: libpng and OpenCV convert each row),
    or with its transparency, laid on white a band of rows at a time.  A file that is not
    such a picture, or damaged, raises :class:`PuzzleError`, never OpenCV's error."""
    deadline = deadline or Deadline()
    try:
        header = _header(data)
    except Damaged as damage:
        raise PuzzleError(f"{UNREADABLE_PICTURE}: {damage}", source) from None
    if header is None:
        raise PuzzleError(f"{UNREADABLE_PICTURE}: not a {KINDS} file", source)
    _within_budget(header, source)
    try:
        if header.kind == "PNG":
            data, turn = _png_cleaned(data, deadline)
        elif header.kind == "JPEG":
            turn = _jpeg_checked(data)
        else:
            turn = _webp_orientation(data) if header.kind == "WebP" else 1
    except Damaged as damage:
        raise PuzzleError(f"{UNREADABLE_PICTURE}: {damage}", source) from None
    deadline.check("reading the picture")
    image = _decoded(data, header, source)
    longest = max(image.shape)
    if longest > LONGEST:
        factor = LONGEST / longest
        image = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    return _turned(image, turn)


def _decoded(data: bytes, header: Header, source: str) -> np.ndarray:
    """The picture decoded by OpenCV, in 8-bit grey (see :func:`grey`), its orientation not
    applied (that is :func:`_turned`'s, the same whatever OpenCV's release does)."""
    flags = cv2.IMREAD_GRAYSCALE
    if header.kind == "JPEG":
        longest = max(header.width, header.height)
        flags = next(
            (flag for flag, part in _REDUCED if longest >= part * LONGEST), cv2.IMREAD_GRAYSCALE
        )
    if header.transparent:
        flags = cv2.IMREAD_UNCHANGED  # (which never applies the orientation)
    else:
        flags |= cv2.IMREAD_IGNORE_ORIENTATION
    with _quiet():
        try:
            image = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
        except cv2.error:  # (a picture OpenCV refuses: beyond its own limits, damaged)
            image = None
    if image is None or image.size == 0:
        raise PuzzleError(f"{UNREADABLE_PICTURE}: the {header.kind} is damaged", source)
    return _on_white(image)


_REDUCED = (
    (cv2.IMREAD_REDUCED_GRAYSCALE_8, 8),
    (cv2.IMREAD_REDUCED_GRAYSCALE_4, 4),
    (cv2.IMREAD_REDUCED_GRAYSCALE_2, 2),
)
_quieting = threading.Lock()
_quiet_state = {"decoding": 0, "level": 0}


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """OpenCV's log silent while a picture is decoded (its decoders warn there of what the
    reader says in its one line, "[ WARN:0@...] imgcodecs..."), as it was once no decoding is
    going on, whatever the threads."""
    logging = getattr(getattr(cv2, "utils", None), "logging", None)
    if logging is None:  # (an OpenCV without it)
        yield
        return
    with _quieting:
        if _quiet_state["decoding"] == 0:
            _quiet_state["level"] = logging.getLogLevel()
            logging.setLogLevel(logging.LOG_LEVEL_SILENT)
        _quiet_state["decoding"] += 1
    try:
        yield
    finally:
        with _quieting:
            _quiet_state["decoding"] -= 1
            if _quiet_state["decoding"] == 0:
                logging.setLogLevel(_quiet_state["level"])


def _on_white(image: np.ndarray) -> np.ndarray:
    """A decoded picture in 8-bit grey: 16 bits shifted to 8, transparency laid on white in
    integers, :data:`BAND` pixels at a time, so that nothing but the grey picture is as large
    as the decoded one (a 9000 x 9000 picture of 16-bit colour with transparency took 3.5 GB
    laid on white in floats at once)."""
    if image.ndim == 2 and image.dtype == np.uint8:
        return image
    result = np.empty(image.shape[:2], np.uint8)
    rows = max(1, BAND // image.shape[1])
    for top in range(0, image.shape[0], rows):
        band = image[top : top + rows]
        if band.dtype == np.uint16:
            band = (band >> 8).astype(np.uint8)
        elif band.dtype != np.uint8:
            band = np.clip(band, 0, 255).astype(np.uint8)
        if band.ndim == 3 and band.shape[2] in (2, 4):  # (grey or colour, then alpha)
            colour, alpha = np.split(band.astype(np.uint16), [band.shape[2] - 1], axis=2)
            # At most 255 * 255 + 127: within 16 bits.
            laid = (colour * alpha + 255 * (255 - alpha) + 127) // 255
            band = laid.astype(np.uint8)
        if band.ndim == 3:
            band = band[..., 0] if band.shape[2] == 1 else cv2.cvtColor(band, cv2.COLOR_BGR2GRAY)
        result[top : top + rows] = band
    return result


def _turned(image: np.ndarray, orientation: int) -> np.ndarray:
    """The picture as seen: turned and mirrored as its EXIF orientation says (as OpenCV's
    own imdecode does when it applies it)."""
    if orientation in (5, 6, 7, 8):
        image = cv2.transpose(image)
    flip = {2: 1, 3: -1, 4: 0, 6: 1, 7: -1, 8: 0}.get(orientation)
    return image if flip is None else cv2.flip(image, flip)


_DOING = "reading the picture"  # what a deadline that ends says was going on


def islands(
    data: bytes, source: str, *, deadline: Deadline | None = None
) -> tuple[int, int, dict[Cell, int | None], Reading]:
    """The grid's rows and columns, the islands read and how sure the reader is of each;
    ``deadline`` is looked at between the steps and in their long loops (raising
    :class:`~hashi_asp.stopping.Stopped` at its end)."""
    deadline = deadline or Deadline()
    gray = grey(data, source, deadline)
    deadline.check(_DOING)
    flattened, found = _numbers_seen(gray, source, deadline)
    lattice, seen = _lattice_of(found, source, deadline)
    rows, cols, numbers, reading = _read_on(flattened, lattice, seen, source, deadline)
    others = _on_neighbours(flattened, lattice, found, source, deadline)
    return rows, cols, numbers, replace(reading, alternatives=others) if others else reading


def _read_on(
    flattened: np.ndarray,
    lattice: Lattice,
    seen: dict[Cell, Glyph],
    source: str,
    deadline: Deadline,
) -> tuple[int, int, dict[Cell, int | None], Reading]:
    """The puzzle read on ``lattice``: the second look at every cell, the numbers read from
    both looks, moved to the grid's top left corner."""
    second, framed, rectified = _second_look(flattened, lattice, seen, deadline)
    deadline.check(_DOING)
    numbers, confidence, likely, missed = _numbers_read(seen, second, framed)
    bridges = drawn(rectified, numbers, PITCH, BORDER)  # (the player's, if a game is going on)
    return _placed(numbers, confidence, likely, missed, source, bridges)


def _on_neighbours(
    flattened: np.ndarray, lattice: Lattice, found: list[Glyph], source: str, deadline: Deadline
) -> tuple[Puzzle, ...]:
    """The puzzles read on the lattices next to ``lattice`` (:func:`.lattice.neighbours`),
    where it may be a row or a column off: a row or a column within it holds no number (the
    extra line a steep angle or a shadow makes a lattice grow), or some number is farther from
    its point than :data:`.lattice.CLOSE`.  Each is read as the first is; none where the
    lattice is sure."""
    points = np.array([glyph.centre for glyph in found], np.float64)
    used = [{cell[axis] for cell in lattice.cells.values()} for axis in (0, 1)]
    gaps = any(len(lines) <= max(lines) - min(lines) for lines in used)
    if not gaps and misfit(lattice, points) <= CLOSE:
        return ()
    made = []
    for other in neighbours(lattice, points):
        seen = {cell: found[i] for i, cell in other.cells.items()}
        try:
            rows, cols, numbers, reading = _read_on(flattened, other, seen, source, deadline)
        except PuzzleError:  # (no puzzle on that grid)
            continue
        made.append(Puzzle(rows, cols, numbers, source, reading=reading))
    return tuple(made)


def _numbers_seen(
    gray: np.ndarray, source: str, deadline: Deadline
) -> tuple[np.ndarray, list[Glyph]]:
    """The first look's picture and island numbers (:func:`_first_look`), refused where they
    are too many or too few to be a puzzle's."""
    try:
        flattened, found = _first_look_sized(gray, deadline)
    except Crowded as crowded:
        raise PuzzleError(
            f"no puzzle found in the picture: {crowded.count} marks shaped like numbers, far "
            "more than a puzzle has islands",
            source,
        ) from None
    if len(found) > MAX_ISLANDS:
        raise PuzzleError(
            f"no puzzle found in the picture: {len(found)} numbers seen, more than the "
            f"{MAX_ISLANDS} islands of the largest puzzle read ({MAX_SIDE} x {MAX_SIDE})",
            source,
        )
    if len(found) < 2:
        raise PuzzleError(
            "no puzzle found in the picture: "
            + ("no island numbers" if not found else "only one island number")
            + " seen",
            source,
        )
    return flattened, found


def _lattice_of(
    found: list[Glyph], source: str, deadline: Deadline
) -> tuple[Lattice, dict[Cell, Glyph]]:
    """The lattice through the numbers ``found``, and the number seen at each of its cells;
    refused where no grid holds two of them, or the grid is none a puzzle has."""
    height = float(np.median([glyph.height for glyph in found]))
    points = np.array([glyph.centre for glyph in found], np.float64)
    enclosed = [glyph.frame for glyph in found if glyph.enclosed]
    frame = float(np.median(enclosed)) if len(enclosed) >= 0.6 * len(found) else 0.0
    deadline.check(_DOING)
    lattice = fit(points, height, frame, deadline)
    deadline.check(_DOING)
    seen = {cell: found[i] for i, cell in lattice.cells.items()}
    if len(seen) < 2:
        raise PuzzleError("no puzzle found in the picture: the numbers seen are on no grid", source)
    # Before the rectified picture is made (of a lattice through noise: 91 MB), twice as loose
    # as the read's: a number seen off the puzzle (a clock's) may stretch the lattice.
    _grid_checked(len(seen), lattice.rows, lattice.cols, source, slack=2)
    return lattice, seen


def _second_look(
    flattened: np.ndarray, lattice: Lattice, seen: dict[Cell, Glyph], deadline: Deadline
) -> tuple[dict[Cell, Glyph], set[Cell], np.ndarray]:
    """The glyph at each cell of the picture rectified by ``lattice`` (the lattice's cells,
    and those of the ring around it with an island's frame), the cells framed so that were
    not ``seen``, and the rectified picture."""
    rows, cols = lattice.rows, lattice.cols
    # The rectified picture: cell (r, c) centred at ((c + BORDER) * PITCH, (r + BORDER) *
    # PITCH), a ring of cells around the lattice (a frame there whose number was not read).
    to_lattice = np.array([[1 / PITCH, 0, -BORDER], [0, 1 / PITCH, -BORDER], [0, 0, 1.0]])
    rectified = cv2.warpPerspective(
        flattened,
        lattice.homography @ to_lattice,
        ((cols + 2 * BORDER - 1) * PITCH, (rows + 2 * BORDER - 1) * PITCH),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=1.0,
    )
    framed = _framed(rectified, rows, cols, set(seen))
    second: dict[Cell, Glyph] = {}
    discs: dict[Cell, Glyph] = {}
    around = itertools.product(range(-1, rows + 1), range(-1, cols + 1))
    for r, c in deadline.looking(around, _DOING):
        if not (0 <= r < rows and 0 <= c < cols) and (r, c) not in framed:
            continue
        x, y = (c + BORDER) * PITCH, (r + BORDER) * PITCH
        known = (r, c) in seen or (r, c) in framed
        glyph = cell_glyph(rectified, x, y, PITCH, touching=known)
        if glyph is not None:
            second[r, c] = glyph
            # A number that touches its circle, where a bridge joins the circle to the edge of
            # the window, is left as a piece of itself: the disc around the centre holds it.
            whole = cell_glyph(rectified, x, y, PITCH, touching=known, disc=True)
            if whole is not None and whole.mask.shape != glyph.mask.shape:
                discs[r, c] = whole
    return _likelier(second, discs), framed, rectified


def _likelier(pieces: dict[Cell, Glyph], discs: dict[Cell, Glyph]) -> dict[Cell, Glyph]:
    """Of the two cuts of each cell's glyph, its pieces clear of the window's edge and the ink
    of the disc around its centre, the one read as a number 1 to 8 with more confidence."""
    if not discs:
        return pieces
    cells = list(discs)
    chances = digits.chances([pieces[cell].mask for cell in cells] + [discs[c].mask for c in cells])
    chosen = dict(pieces)
    for i, cell in enumerate(cells):
        if chances[len(cells) + i][1:9].max() > chances[i][1:9].max() + 0.05:
            chosen[cell] = discs[cell]
    return chosen


_Chances = dict[Cell, tuple[float, ...]]


def _numbers_read(
    seen: dict[Cell, Glyph], second: dict[Cell, Glyph], framed: set[Cell]
) -> tuple[dict[Cell, int | None], dict[Cell, float], _Chances, _Chances]:
    """The number of each island, how sure the reader is of it and the chances of 1 to 8 there,
    from both looks (an island seen at the first, one framed, one new at the second); and the
    cells of numbers probably there but left out, with their chances."""
    read = digits.chances([glyph.mask for glyph in second.values()])
    looked = dict(zip(second, read))
    seen_heights = [glyph.height for cell, glyph in second.items() if cell in seen]
    usual = float(np.median(seen_heights)) if seen_heights else 0.4 * PITCH
    numbers: dict[Cell, int | None] = {}
    confidence: dict[Cell, float] = {}
    likely: _Chances = {}
    missed: _Chances = {}
    for cell in sorted({*seen, *looked, *framed}):
        chances = looked.get(cell)
        if cell in seen:
            first = seen[cell].chances
            assert first is not None
            chances = first if chances is None else (first + chances) / 2
        elif cell in framed:  # an island whose number may be unreadable
            if chances is None or chances[1:9].max() < UNREADABLE:
                numbers[cell], confidence[cell] = None, 0.0
                likely[cell] = () if chances is None else _rounded(chances)
                continue
        else:
            assert chances is not None
            if (
                chances.argmax() not in range(1, 9)
                or chances.max() < NEW_ISLAND
                or not 0.75 * usual <= second[cell].height <= 1.3 * usual
            ):  # not a number of this puzzle's size: perhaps one the picture spoils
                if LOST * usual <= second[cell].height:
                    missed[cell] = _rounded(chances)
                continue
        number = int(chances[1:9].argmax()) + 1
        numbers[cell] = number
        confidence[cell] = round(float(chances[number]), 3)
        likely[cell] = _rounded(chances)
    return numbers, confidence, likely, missed


def _placed(
    numbers: dict[Cell, int | None],
    confidence: dict[Cell, float],
    likely: _Chances,
    missed: _Chances,
    source: str,
    bridges: Mapping[Pair, int],
) -> tuple[int, int, dict[Cell, int | None], Reading]:
    """The puzzle's grid and islands, moved to its top left corner, and its reading: the
    numbers each with another in its row or column (the others left out as missed), the
    ``bridges`` drawn between them; refused where they are no puzzle's, or read too
    unsure."""
    kept = _seen_by_another(_without_rulers(numbers))
    missed.update({cell: likely[cell] for cell in numbers if cell not in kept and likely[cell]})
    numbers = kept
    if len(numbers) < 2:
        raise PuzzleError(
            "no puzzle found in the picture: no two numbers in a row or column", source
        )
    top = min(r for r, _ in numbers)
    left = min(c for _, c in numbers)
    rows = 1 + max(r for r, _ in numbers) - top
    cols = 1 + max(c for _, c in numbers) - left
    _grid_checked(len(numbers), rows, cols, source)
    sureness = float(np.mean([confidence[cell] for cell in numbers]))
    if sureness < UNSURE:
        raise PuzzleError(
            f"no puzzle found in the picture: the {len(numbers)} numbers read are too unsure "
            f"to be a puzzle's (a confidence of {sureness:.2f} on average, less than {UNSURE})",
            source,
        )
    moved = {(r - top, c - left): n for (r, c), n in numbers.items()}
    reading = Reading(
        {(r - top, c - left): confidence[r, c] for r, c in numbers},
        chances={(r - top, c - left): likely[r, c] for r, c in numbers},
        missed={
            (r - top, c - left): chances
            for (r, c), chances in sorted(missed.items(), key=lambda item: -max(item[1]))
            if 0 <= r - top < rows and 0 <= c - left < cols
        },
        bridges=moved_bridges(bridges, numbers, (top, left)),
    )
    return rows, cols, moved, reading


def _grid_checked(count: int, rows: int, cols: int, source: str, slack: float = 1) -> None:
    """Refuse a grid of ``count`` numbers no puzzle has: fewer islands than :data:`SPARSE` of
    its rows and columns together (noise, a page of text, where numbers that happen to share
    a row or a column are far apart), or more than :data:`MAX_SIDE` rows or columns; each
    ``slack`` times looser (for the lattice of the first look, before a number seen off the
    puzzle is left out)."""
    if count < SPARSE / slack * (rows + cols):
        raise PuzzleError(
            f"no puzzle found in the picture: {count} numbers on a grid of {rows} x {cols}, "
            "too few to be a puzzle's islands",
            source,
        )
    if max(rows, cols) > MAX_SIDE * slack:
        raise PuzzleError(
            f"no puzzle found in the picture: the numbers seen make a grid of {rows} x {cols}, "
            f"larger than the largest read ({MAX_SIDE} x {MAX_SIDE})",
            source,
        )


def _rounded(chances: np.ndarray) -> tuple[float, ...]:
    """The chances of the numbers 1 to 8, rounded."""
    return tuple(round(float(p), 4) for p in chances[1:9])


def _framed(rectified: np.ndarray, rows: int, cols: int, seen: set[Cell]) -> set[Cell]:
    """The cells of the lattice, and of the ring of cells around it, with an island's circle
    or square, when the islands seen have them: a frame of about their frames' size centred on
    the cell (a number painted over, or too faint to read, leaves its frame).  None where
    frames are found at many empty cells (a grid drawn, a pattern)."""
    at: dict[Cell, float] = {}
    for x, y, size in frames(rectified, PITCH):
        col, row = x / PITCH - BORDER, y / PITCH - BORDER
        cell = (round(row), round(col))
        near = max(abs(row - cell[0]), abs(col - cell[1])) <= 0.2
        if near and cell not in at and -1 <= cell[0] <= rows and -1 <= cell[1] <= cols:
            at[cell] = size
    sizes = [size for cell, size in at.items() if cell in seen]
    if len(sizes) < max(2, 0.6 * len(seen)):
        return set()
    usual = float(np.median(sizes))
    found = {cell for cell, size in at.items() if 0.8 * usual <= size <= 1.25 * usual}
    if len(found - seen) > 1 + 0.3 * len(seen):
        return set()
    return found - seen


RULER = 4
"""The least numbers of a row or column at the grid's edge that count up cell by cell for it to
be taken for the row or column labels an app draws beside its board (the workbench's 0, 1, 2,
...), not for islands: each number its cell's place along the line plus one offset, as labels
are whichever of them are left out (a 0, a 9, a 10 not read as an island's number).  Four
islands of a puzzle on its edge, each its place plus one offset, are unlikely; labels of a board
of 5 or more cells have at least four numbers from 1 to 8."""


def _without_rulers(numbers: dict[Cell, int | None]) -> dict[Cell, int | None]:
    """The numbers without the rows and columns at the grid's edges that are labels
    (:data:`RULER`), until none is left: a screenshot of an app that numbers its rows and
    columns beside the board."""
    while len(numbers) > RULER:
        for axis, edge in itertools.product((0, 1), (min, max)):
            line = edge(cell[axis] for cell in numbers)
            along = sorted((cell[1 - axis], n) for cell, n in numbers.items() if cell[axis] == line)
            offsets = {n - place for place, n in along if n is not None}
            if len(along) >= RULER and len(offsets) == 1 and None not in dict(along).values():
                numbers = {cell: n for cell, n in numbers.items() if cell[axis] != line}
                break
        else:
            return numbers
    return numbers


def _seen_by_another(numbers: dict[Cell, int | None]) -> dict[Cell, int | None]:
    """The islands with another in their row or column, until every one has: an island alone
    on its lines could have no bridge, so it is something else (a mark on the table, a letter
    of a word that looked like a number)."""
    while True:
        rows: dict[int, int] = {}
        cols: dict[int, int] = {}
        for r, c in numbers:
            rows[r] = rows.get(r, 0) + 1
            cols[c] = cols.get(c, 0) + 1
        kept = {(r, c): n for (r, c), n in numbers.items() if rows[r] > 1 or cols[c] > 1}
        if len(kept) == len(numbers):
            return kept
        numbers = kept


def _first_look_sized(gray: np.ndarray, deadline: Deadline) -> tuple[np.ndarray, list[Glyph]]:
    """The first look (:func:`_first_look`) at the size the numbers read best at: as the
    picture is, and, where its numbers are smaller than :data:`READABLE` pixels (or none are
    found and its pieces of ink are that small, or none of them is shaped like a digit at all,
    or fewer than :data:`FEW` are found: too small to be seen as numbers, where the picture
    has small pieces of ink that may be such numbers: :func:`_small_pieces`), enlarged by
    :data:`ENLARGED` in turn, within the pixels of a picture :data:`LONGEST` pixels square (a
    phone's screenshot, 390 x 844, three times); the look whose numbers read with the most
    confidence is kept, the smaller picture where they tie.  A small print or a puzzle of many
    cells in a small picture (12 pixels a cell, numbers 5 to 8 pixels tall) is read as a large
    one is: its strokes apart, its holes open."""
    looks = relative(gray)
    best = (*_first_look(gray, deadline, looks), gray)
    heights = [glyph.height for glyph in best[1]]
    if not heights:  # (no number seen: the pieces of ink there are, dark on light)
        heights = [glyph.height for glyph in candidates(ink(best[0]), CROWDED)]
    score = sum(glyph.certainty for glyph in best[1])
    small = bool(heights) and float(np.median(heights)) < READABLE
    if small or ((len(best[1]) < FEW or not heights) and _small_pieces(looks) >= 2):
        for factor in ENLARGED:
            if gray.size * factor * factor > LONGEST * LONGEST:
                break
            deadline.check(_DOING)
            enlarged = cv2.resize(gray, None, fx=factor, fy=factor, interpolation=cv2.INTER_CUBIC)
            flattened, found = _first_look(enlarged, deadline)
            if sum(glyph.certainty for glyph in found) > score:
                best, score = (flattened, found, enlarged), sum(glyph.certainty for glyph in found)
    return _sharpest(best, score, deadline)


def _small_pieces(looks: tuple[np.ndarray, np.ndarray]) -> int:
    """The most pieces of ink smaller than :data:`READABLE` pixels (2 pixels tall or more, at
    most about twice as wide as tall: a digit, or a digit run into its circle) in either of the
    ``looks`` (:func:`.glyphs.relative`): where there are fewer than two, no enlargement can
    show the two numbers of a puzzle that the picture as it is did not (measured: half of 320
    pictures of words in real fonts have none or one, and leaving their enlarged looks out
    took their reading from 37.7 to 17.4 s of CPU)."""
    most = 0
    for flattened in looks:
        _, _, stats, _ = cv2.connectedComponentsWithStats(ink(flattened), connectivity=8)
        w, h = stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT]
        most = max(most, int(np.count_nonzero((h >= 2) & (h < READABLE) & (w <= 2 * h + 2))))
    return most


def _sharpest(
    best: tuple[np.ndarray, list[Glyph], np.ndarray], score: float, deadline: Deadline
) -> tuple[np.ndarray, list[Glyph]]:
    """The first look ``best`` (its picture relative to its paper, its numbers, the picture
    it looked at), or that at the picture sharpened (an unsharp mask of each of
    :data:`SHARPENED` pixels, twice as strong as the blur it undoes) where its numbers read
    with more confidence: in a blurred photo strokes run together and a number's holes fill.
    Where every number read is sure (:data:`SHARP`), the picture is taken as it is."""
    found = best[1]
    if len(found) >= 2 and min(glyph.certainty for glyph in found) >= SHARP:
        return best[0], best[1]
    for sigma in SHARPENED:
        deadline.check(_DOING)
        soft = cv2.GaussianBlur(best[2], (0, 0), sigma)
        flattened, seen = _first_look(cv2.addWeighted(best[2], 2.0, soft, -1.0, 0), deadline)
        if sum(glyph.certainty for glyph in seen) > 1.05 * score:
            best, score = (flattened, seen, best[2]), sum(glyph.certainty for glyph in seen)
    return best[0], best[1]


def _first_look(
    gray: np.ndarray, deadline: Deadline, looks: tuple[np.ndarray, np.ndarray] | None = None
) -> tuple[np.ndarray, list[Glyph]]:
    """The glyphs of the polarity whose numbers read with more confidence, and that polarity's
    picture relative to its paper (of ``looks``, :func:`.glyphs.relative` of ``gray``, if
    already made): numbers 1 to 8 read with a chance of :data:`SURE` or more, of about the
    usual height, and only those in circles or squares if most are."""
    best: tuple[float, np.ndarray, list[Glyph]] | None = None
    for flattened in looks or relative(gray):
        deadline.check("reading the picture")
        pieces = candidates(ink(flattened), CROWDED)
        found = [glyph for glyph in pieces if _island_number(glyph)]
        found = _clear(gray, _usual_height(found))
        enclosed = [glyph for glyph in found if glyph.enclosed]
        if len(enclosed) >= 0.6 * len(found) and len(enclosed) >= 2:
            found = enclosed
        score = sum(glyph.certainty for glyph in found)
        if best is None or score > best[0]:
            best = (score, flattened, found)
    assert best is not None
    return best[1], best[2]


def _clear(gray: np.ndarray, found: list[Glyph]) -> list[Glyph]:
    """The glyphs whose ink stands out from the paper in their box by :data:`FAINT` of the
    usual glyph's contrast or more: not grain or noise of a dark page that happens to be
    shaped like a digit."""
    if len(found) < 3:
        return found
    contrast = []
    for glyph in found:
        box = gray[glyph.y : glyph.y + glyph.height, glyph.x : glyph.x + glyph.width]
        inked = glyph.mask > 0
        paper = box[~inked]
        contrast.append(abs(float(box[inked].mean()) - float(paper.mean())) if paper.size else 0.0)
    usual = float(np.median(contrast))
    return [glyph for glyph, value in zip(found, contrast) if value >= FAINT * usual]


def _island_number(glyph: Glyph) -> bool:
    """Whether a glyph of the first look is taken for an island's number: one in a circle or a
    square with a chance of :data:`ENCLOSED` or more of being one of 1 to 8 (a number drawn
    small or blurred), or one of 1 to 8 with a chance of :data:`SURE` or more, or
    :data:`SURE_IN_CLUTTER` where there is some ink around it; never one not enclosed in the
    midst of ink (the grain of a table, a pattern)."""
    assert glyph.chances is not None
    if glyph.enclosed:  # (its circle is ink around it: no clutter)
        if glyph.solidity >= SOLID and glyph.certainty < SURE_SOLID:
            return False  # the counter of a letter, taking the paper for ink (an "o")
        return float(glyph.chances[1:9].sum()) >= ENCLOSED
    if glyph.clutter > CLUTTERED:
        return False
    sure = SURE if glyph.clutter <= CLEAR else SURE_IN_CLUTTER
    return glyph.number is not None and glyph.chances[glyph.digit] >= sure


def _usual_height(found: list[Glyph]) -> list[Glyph]:
    """The glyphs of about the most common height (island numbers are of one size)."""
    if len(found) < 3:
        return found
    heights = np.array([glyph.height for glyph in found], np.float64)
    # The height most glyphs are near (not the median: text around the puzzle may be many).
    near = [np.count_nonzero(np.abs(heights - h) <= 0.2 * h) for h in heights]
    usual = float(np.median(heights[np.array(near) >= max(near) * 0.8]))
    return [glyph for glyph in found if 0.72 * usual <= glyph.height <= 1.35 * usual]
