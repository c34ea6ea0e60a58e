"""Pictures made to hurt a picture reader, most by hand: PNGs whose header declares more pixels
than they hold, a 9000 x 9000 PNG of 16-bit colour with transparency in 630 KB (what a few
repeated deflate blocks inflate to), JPEG and WebP frames declaring 65 500 x 65 500 and 16 384 x
16 384, BMPs of run lengths, noise, a phone's EXIF orientation.  Shared by
tests/test_picture_bounds.py and the server's benchmarks (benchmarks/fuzz_api.py,
benchmarks/hostile_load.py)."""

from __future__ import annotations

import base64
import struct
import zlib

import cv2
import numpy as np


def chunk(kind: bytes, body: bytes) -> bytes:
    """A PNG chunk, its checksum right."""
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png(width: int, height: int, depth: int, colour: int, pixels: bytes, *extra: bytes) -> bytes:
    """A PNG of one IDAT chunk (``pixels``: its compressed rows), ``extra`` chunks before it."""
    header = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + b"".join(extra)
        + chunk(b"IDAT", pixels)
        + chunk(b"IEND", b"")
    )


def repeated(row: bytes, count: int, per: int = 125) -> bytes:
    """``row`` ``count`` times, deflated as zlib does it, fast: ``per`` rows compressed once and
    that block repeated (a full flush makes each block stand alone)."""
    assert count % per == 0
    block = row * per
    squeezing = zlib.compressobj(9)
    first = squeezing.compress(block) + squeezing.flush(zlib.Z_FULL_FLUSH)
    again = squeezing.compress(block) + squeezing.flush(zlib.Z_FULL_FLUSH)
    last = squeezing.flush()
    check = 1
    for _ in range(count // per):
        check = zlib.adler32(block, check)
    return first + again * (count // per - 1) + last[: len(last) - 4] + struct.pack(">I", check)


def declared_png(width: int = 60000, height: int = 60000) -> bytes:
    """A PNG of 70 bytes whose header declares ``width`` x ``height`` pixels."""
    return png(width, height, 8, 0, zlib.compress(bytes(100)))


def deep_png(width: int, height: int) -> bytes:
    """A PNG of 16-bit colour with transparency, all transparent: 9000 x 9000 in 630 KB."""
    return png(width, height, 16, 6, repeated(bytes(1 + 8 * width), height))


def encoded(image: np.ndarray, suffix: str, *options: int) -> bytes:
    return cv2.imencode(suffix, image, list(options))[1].tobytes()


def jpeg_declaring(width: int, height: int) -> bytes:
    """A small JPEG whose frame (SOF0) declares ``width`` x ``height``."""
    data = bytearray(encoded(np.full((8, 8, 3), 200, np.uint8), ".jpg"))
    at = data.index(b"\xff\xc0")
    data[at + 5 : at + 9] = struct.pack(">HH", height, width)
    return bytes(data)


def webp_declaring(width: int, height: int) -> bytes:
    """A small lossless WebP whose VP8L header declares ``width`` x ``height``."""
    data = bytearray(
        encoded(np.full((8, 8, 3), 200, np.uint8), ".webp", cv2.IMWRITE_WEBP_QUALITY, 101)
    )
    assert data[12:16] == b"VP8L"
    bits = int.from_bytes(data[21:25], "little")
    bits = (bits & ~((1 << 28) - 1)) | (width - 1) | ((height - 1) << 14)
    data[21:25] = bits.to_bytes(4, "little")
    return bytes(data)


def rle_bmp(width: int, height: int) -> bytes:
    """A white BMP of 8-bit run lengths: 8192 x 6144 in 420 KB."""
    row = b""
    for start in range(0, width, 255):
        row += bytes([min(255, width - start), 0])
    pixels = (row + b"\0\0") * height + b"\0\1"
    palette = b"\xff\xff\xff\0" + bytes(4 * 255)
    info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 8, 1, len(pixels), 2835, 2835, 256, 0)
    start = 14 + len(info) + len(palette)
    return b"BM" + struct.pack("<IHHI", start + len(pixels), 0, 0, start) + info + palette + pixels


def noise(width: int, height: int, seed: int = 1, bits: int = 8) -> bytes:
    """Random noise as a PNG: grey levels, or random black and white pixels in a 1-bit PNG."""
    rng = np.random.default_rng(seed)
    if bits == 8:
        return encoded(rng.integers(0, 256, (height, width), dtype=np.uint8), ".png")
    rows = rng.integers(0, 256, (height, (width + 7) // 8), dtype=np.uint8)
    raw = b"".join(b"\0" + row.tobytes() for row in rows)
    return png(width, height, 1, 0, zlib.compress(raw, 9))


def exif(orientation: int, order: str = ">") -> bytes:
    """A JPEG's APP1 segment of EXIF data with only the Orientation tag (0x0112)."""
    mark = b"MM" if order == ">" else b"II"
    entry = struct.pack(order + "HHIHH", 0x0112, 3, 1, orientation, 0)
    tiff = mark + struct.pack(order + "HI", 42, 8) + struct.pack(order + "H", 1) + entry + bytes(4)
    body = b"Exif\0\0" + tiff
    return b"\xff\xe1" + struct.pack(">H", 2 + len(body)) + body


def url(data: bytes, media: str = "image/png") -> str:
    return f"data:{media};base64," + base64.b64encode(data).decode()
