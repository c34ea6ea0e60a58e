"""What a picture read is, known without numpy or OpenCV: the kinds of files read, by their first
bytes, and the largest picture read (checked from its header before anything is decoded)."""

from __future__ import annotations

SIGNATURES = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"BM")
KINDS = "PNG, JPEG, WebP or BMP"


def is_picture(data: bytes) -> bool:
    """Whether ``data`` starts as a PNG, JPEG, WebP or BMP file does: the kinds read."""
    return data.startswith(SIGNATURES) or (data[:4] == b"RIFF" and data[8:12] == b"WEBP")


MAX_PIXELS = 8192 * 6144
"""The largest picture read, its width times its height: 50.3 million pixels, a photo of a
phone's 50-megapixel camera (8192 x 6144; 8160 x 6144 and 8160 x 6120 for others of 50, 8000 x
6000 for 48).  Reading needs far less (:data:`.reading.LONGEST` pixels on the longer side: such
a photo is shrunk 3.4 times on each side first), but a phone's photo should be read as it
comes; a 200-megapixel camera's full size (16320 x 12240) is refused, which such a phone saves
only when asked.  Measured at this size, the peak memory of a whole read: 212 MB for a JPEG (of
8000 x 6000, decoded at half its size; 322 MB decoded whole), 206 MB for a PNG or a BMP without
transparency, 237 MB for a WebP (see :data:`.reading.MAX_DECODED` for pictures with
transparency).  A header that declares more is refused before anything is decoded."""
