"""Pictures made to hurt the reader: whatever the bytes, reading ends soon, in little memory,
with the puzzle or one error (:class:`PuzzleError`), never OpenCV's error, a MemoryError or a
traceback; the command prints one line on standard error and exits with 2.

The hostile pictures are made in tests/hostile_pictures.py, most by hand: a PNG whose header
declares 60 000 x 60 000 pixels in 70 bytes, a JPEG's frame of 65 500 x 65 500, a WebP of
16 384 x 16 384, a 9000 x 9000 PNG of 16-bit colour with transparency in 630 KB (what a few
repeated deflate blocks inflate to), random noise, damaged files, a phone's photo stored turned
(its EXIF orientation), other kinds of pictures in a data URL."""

from __future__ import annotations

import contextlib
import json
import struct
import subprocess
import sys
import zlib

import cv2
import numpy as np
import pytest
from conftest import REPO
from hostile_pictures import (
    chunk,
    declared_png,
    deep_png,
    encoded,
    exif,
    jpeg_declaring,
    noise,
    png,
    rle_bmp,
    url,
    webp_declaring,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from processes import run

from hashi_asp import notations, pictures
from hashi_asp.errors import PuzzleError
from hashi_asp.notations import picture as picture_notation
from hashi_asp.pictures import KINDS, OPENCV_MAX_PIXELS, is_picture, read_picture, reading
from hashi_asp.stopping import Deadline, Stopped

sys.path.insert(0, str(REPO / "benchmarks"))

import picture_material as material

SEVEN = notations.parse("7x7m2:4a4a2a2w2k4c3a1")


# ---------------------------------------------------------------------------- making them


def drawing_pixels(puzzle=SEVEN, cell: int = 32) -> np.ndarray:
    return cv2.imdecode(np.frombuffer(material.drawing(puzzle, cell), np.uint8), cv2.IMREAD_COLOR)


def on_transparency(image: np.ndarray, deep: bool) -> bytes:
    """The drawing as a PNG with transparency: its paper transparent black, its ink opaque."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    alpha = 255 - grey
    layered = np.dstack([np.zeros_like(image), alpha])
    if deep:
        layered = layered.astype(np.uint16) * 257
    return encoded(layered, ".png")


def refusal(data: bytes, **kwargs) -> str:
    with pytest.raises(PuzzleError) as caught:
        read_picture(data, "hostile", **kwargs)
    assert caught.value.source == "hostile"
    return caught.value.message


# ---------------------------------------------------------------------------- the header


def test_the_dimensions_are_read_from_the_header_alone():
    image = np.full((30, 50, 3), 255, np.uint8)
    made = {
        "PNG": encoded(image, ".png"),
        "JPEG": encoded(image, ".jpg"),
        "WebP lossy": encoded(image, ".webp", cv2.IMWRITE_WEBP_QUALITY, 80),
        "WebP lossless": encoded(image, ".webp", cv2.IMWRITE_WEBP_QUALITY, 101),
        "BMP": encoded(image, ".bmp"),
        "progressive JPEG": encoded(image, ".jpg", cv2.IMWRITE_JPEG_PROGRESSIVE, 1),
    }
    for kind, data in made.items():
        assert reading.dimensions(data) == (50, 30), kind
    assert reading.dimensions(declared_png()) == (60000, 60000)
    assert reading.dimensions(jpeg_declaring(65500, 65500)) == (65500, 65500)
    assert reading.dimensions(webp_declaring(16384, 16384)) == (16384, 16384)
    assert reading.dimensions(rle_bmp(8192, 6144)) == (8192, 6144)
    for other in (b"", b"GIF89a" + bytes(20), b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff\xe0", b"BM"):
        assert reading.dimensions(other) is None


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (declared_png(), "60000 x 60000 pixels, 3600.0 million"),
        (jpeg_declaring(65500, 65500), "65500 x 65500 pixels, 4290.2 million"),
        (webp_declaring(16384, 16384), "16384 x 16384 pixels, 268.4 million"),
        (rle_bmp(9000, 9000), "9000 x 9000 pixels, 81.0 million"),
    ],
    ids=["PNG", "JPEG", "WebP", "BMP"],
)
def test_a_picture_larger_than_the_budget_is_refused_before_it_is_decoded(data, said):
    assert refusal(data) == (
        f"the picture is too large to read: {said}; at most 50.3 million are read"
    )
    assert reading.MAX_PIXELS == OPENCV_MAX_PIXELS == 8192 * 6144


def test_a_picture_with_transparency_is_read_to_fewer_pixels():
    """OpenCV decodes it whole, 4 or 8 bytes a pixel, and holds it twice meanwhile."""
    message = refusal(deep_png(9000, 9000))  # (over the budget of pixels too)
    assert message.startswith("the picture is too large to read: 9000 x 9000 pixels")
    assert refusal(deep_png(5000, 4000)) == (
        "the picture is too large to read: 5000 x 4000 pixels of 16-bit colour with "
        "transparency take 160 MB decoded; at most 151 MB are (18.9 million such pixels)"
    )


def test_a_picture_too_thin_for_a_puzzle_is_refused_before_it_is_decoded():
    assert refusal(declared_png(40000, 3)).endswith("40000 x 3 pixels is too small to hold one")


# The peak is the process's own (VmHWM, of the memory it has since it started): getrusage's
# ru_maxrss is kept across the exec, and counts the size of the test run that forked it.
MEASURED = """
import sys
from hashi_asp.errors import PuzzleError
from hashi_asp.pictures import read_picture
try:
    read_picture(open(sys.argv[1], "rb").read())
except PuzzleError as error:
    print(error)
peak = next(line for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(int(peak.split()[1]) // 1024)
"""


@pytest.mark.parametrize("kind", ["png", "bmp"])
def test_the_largest_pictures_within_the_budget_are_read_in_little_memory(kind, tmp_path):
    """A PNG of 16-bit colour with transparency of 4000 x 4500 pixels (144 MB decoded, 150 KB of
    file), and a BMP of 8192 x 6144 in run lengths (420 KB): within 400 MB at their peak, in a
    process of their own (laid on white in floats at once, a 9000 x 9000 PNG took 3.5 GB)."""
    path = tmp_path / f"large.{kind}"
    path.write_bytes(deep_png(4000, 4500) if kind == "png" else rle_bmp(8192, 6144))
    done = subprocess.run(
        [sys.executable, "-c", MEASURED, str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    said, peak = done.stdout.splitlines()
    assert said == "<picture>: no puzzle found in the picture: no island numbers seen"
    assert int(peak) < 400, f"{peak} MB"


# ---------------------------------------------------------------------------- what is in it


@pytest.mark.parametrize("deep", [False, True], ids=["8-bit", "16-bit"])
def test_transparency_is_laid_on_white(deep):
    """A drawing whose paper is transparent black: read as on white paper."""
    data = on_transparency(drawing_pixels(), deep)
    assert read_picture(data).islands == SEVEN.islands


@pytest.mark.parametrize(
    ("orientation", "stored", "order"),
    [
        (6, cv2.ROTATE_90_COUNTERCLOCKWISE, ">"),
        (8, cv2.ROTATE_90_CLOCKWISE, "<"),
        (3, cv2.ROTATE_180, ">"),
    ],
)
def test_a_phones_photo_is_read_as_its_exif_orientation_says(orientation, stored, order):
    """A phone held upright stores its photo turned, with EXIF orientation 6 (turn it a quarter
    clockwise to see it); without the tag, the numbers lie on their side: no puzzle."""
    turned = encoded(cv2.rotate(drawing_pixels(), stored), ".jpg", cv2.IMWRITE_JPEG_QUALITY, 90)
    tagged = turned[:2] + exif(orientation, order) + turned[2:]
    assert material.normalised(read_picture(tagged)) == material.normalised(SEVEN)
    try:
        untagged = material.normalised(read_picture(turned))
    except PuzzleError:
        untagged = None
    assert untagged != material.normalised(SEVEN)


def test_the_kinds_read_are_the_same_in_a_file_and_in_a_data_url(tmp_path):
    """PNG, JPEG, WebP and BMP, known by their first bytes; GIF, TIFF or HDR, which OpenCV
    decodes too, are refused alike, whatever a data URL's media type says."""
    image = drawing_pixels()
    for suffix in (".png", ".jpg", ".webp", ".bmp"):
        data = encoded(image, suffix)
        assert is_picture(data)
        assert read_picture(data).islands == SEVEN.islands, suffix
        # Judged by the bytes, not the media type.
        assert notations.parse(url(data, "image/gif")).islands == SEVEN.islands
    for suffix in (".tiff", ".hdr", ".ppm"):
        data = encoded(image, suffix)
        assert not is_picture(data)
        assert refusal(data) == f"not a picture of a kind read ({KINDS})"
        problem = picture_notation.validate(url(data, "image/tiff"))
        assert problem is not None
        assert (
            problem.message == f"the picture's data URL holds no picture of a kind read ({KINDS})"
        )
    gif = b"GIF89a" + bytes(40)
    with pytest.raises(PuzzleError) as caught:
        notations.parse(url(gif, "image/gif"))
    assert str(caught.value) == (
        f"<text>:1:23: the picture's data URL holds no picture of a kind read ({KINDS})"
    )
    with pytest.raises(PuzzleError) as caught:
        notations.parse("data:image/png;base64,")
    assert str(caught.value) == "<text>:1:23: the picture's data URL is empty"
    for module in (pictures, reading, picture_notation):
        assert module.__doc__ is not None
        assert all(kind in module.__doc__ for kind in ("PNG", "JPEG", "WebP", "BMP")), module


@pytest.mark.parametrize(
    "name",
    ["cut short", "checksum", "filter", "too much", "unknown chunk", "JPEG cut", "JPEG bytes"],
)
def test_a_damaged_file_is_one_error_naming_what_is_wrong(name):
    good = material.drawing(SEVEN, 32)
    pixels = good.index(b"IDAT") + 8  # (a byte of its compressed rows)
    raw = 1 + 4 * 10
    damaged = {
        "cut short": good[: len(good) // 2],
        "checksum": good[:pixels] + bytes([good[pixels] ^ 1]) + good[pixels + 1 :],
        "filter": png(10, 10, 8, 6, zlib.compress(b"\x07" * raw * 10)),
        "too much": png(10, 10, 8, 6, zlib.compress(bytes(raw * 11))),
        "unknown chunk": good[:33] + chunk(b"XXXX", b"") + good[33:],
        "JPEG cut": encoded(drawing_pixels(), ".jpg")[:3000],
        "JPEG bytes": encoded(drawing_pixels(), ".jpg").replace(b"\xff\xdb", b"junk\xff\xdb", 1),
    }[name]
    assert refusal(damaged).startswith("not a picture that can be read: the ")


# ---------------------------------------------------------------------------- time and confidence


def test_noise_is_no_puzzle():
    """Random grey levels (2000 x 2000 pixels, once read as a 38 x 50 puzzle of 5 islands), random
    black and white (a 1-bit PNG of 2000 x 2400, once 9.7 s and more to read: finding the holes
    of its ink took most), and a page of 30 000 small digits (once 14 GB to fit a lattice)."""
    assert refusal(noise(2000, 2000)).startswith("no puzzle found in the picture: ")
    assert refusal(noise(2000, 2400, bits=1)).startswith("no puzzle found in the picture: ")
    page = np.full((1200, 1200), 255, np.uint8)
    for y in range(14, 1200, 16):
        for x in range(4, 1190, 12):
            cv2.putText(page, str((x + y) % 8 + 1), (x, y), cv2.FONT_HERSHEY_PLAIN, 0.7, 0, 1)
    assert refusal(encoded(page, ".png")).endswith(
        "marks shaped like numbers, far more than a puzzle has islands"
    )


def test_reading_stops_at_its_deadline():
    data = material.drawing(SEVEN, 32)
    with pytest.raises(Stopped, match="reading the picture"):
        read_picture(data, deadline=Deadline(0))
    with pytest.raises(Stopped):
        reading.islands(data, "x", deadline=Deadline(0))
    assert read_picture(data, deadline=Deadline(60)).islands == SEVEN.islands


def test_words_and_a_few_numbers_of_noise_are_too_unsure_or_too_sparse():
    """What tells a puzzle from noise, each rule alone (see reading.SPARSE and UNSURE)."""
    with pytest.raises(PuzzleError, match="too few to be a puzzle's islands"):
        reading._grid_checked(5, 42, 52, "x")
    reading._grid_checked(36, 25, 25, "x")  # Tatham's sparsest in the benchmark
    reading._grid_checked(2, 1, 2, "x")
    with pytest.raises(PuzzleError, match="larger than the largest read"):
        reading._grid_checked(1000, 51, 51, "x")


# ---------------------------------------------------------------------------- the command


def hostile(tmp_path) -> dict[str, str]:
    """The hostile pictures, each as the command's argument: a file's path or a data URL."""
    made = {
        "declared.png": declared_png(),
        "declared.jpg": jpeg_declaring(65500, 65500),
        "declared.webp": webp_declaring(16384, 16384),
        "deep.png": deep_png(9000, 9000),
        "noise.png": noise(2000, 2400, bits=1),
        "cut.png": material.drawing(SEVEN, 32)[:2000],
        "filter.png": png(10, 10, 8, 0, zlib.compress(b"\x09" * 110)),
        "cut.jpg": encoded(drawing_pixels(), ".jpg")[:3000],
    }
    arguments = {}
    for name, data in made.items():
        path = tmp_path / name
        path.write_bytes(data)
        arguments[name] = str(path)
    arguments["empty data URL"] = "data:image/png;base64,"
    arguments["GIF data URL"] = url(b"GIF89a" + bytes(40), "image/gif")
    return arguments


def test_the_command_says_one_line_and_exits_with_2_for_each_hostile_picture(tmp_path):
    for name, argument in hostile(tmp_path).items():
        done = run("solve", argument)
        assert done.returncode == 2, (name, done.stderr)
        assert done.stdout == "", name
        assert done.stderr.count("\n") == 1, (name, done.stderr)
        assert done.stderr.startswith("hashi-asp: "), (name, done.stderr)


def test_what_libpng_would_warn_of_is_left_out_and_the_picture_read_in_silence(tmp_path):
    """An ICC profile that is none, a tEXt chunk whose checksum is wrong: libpng would say so on
    standard error ("libpng warning: iCCP: ..."); the chunks are left out before it reads."""
    good = material.drawing(SEVEN, 32)
    text = chunk(b"tEXt", b"a\0b")
    profile = chunk(b"iCCP", b"ICC\0\0" + zlib.compress(b"not a profile"))
    spoilt = text[: len(text) - 1] + bytes([text[-1] ^ 0xFF])
    path = tmp_path / "profile.png"
    path.write_bytes(good[:33] + profile + spoilt + good[33:])
    done = run("convert", path, "--to", "json")
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout)["islands"] == SEVEN.to_json()["islands"]


# ---------------------------------------------------------------------------- any bytes


HEADERS = [
    b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 40, 30, 8, 2, 0, 0, 0)),
    b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00",
    b"RIFF\x00\x01\x00\x00WEBPVP8L\x20\x00\x00\x00\x2f",
    b"BM" + bytes(12) + struct.pack("<Iii", 40, 40, 30),
]


def read_or_refused(data: bytes) -> None:
    """The picture read, or one PuzzleError: nothing else."""
    with contextlib.suppress(PuzzleError):
        read_picture(data)


@settings(max_examples=40)
@given(st.sampled_from(HEADERS), st.binary(max_size=400))
def test_any_bytes_after_a_header_are_read_or_refused(header, tail):
    read_or_refused(header + tail)


REAL = [
    material.drawing(SEVEN, 24),
    encoded(drawing_pixels(SEVEN, 24), ".jpg"),
    encoded(drawing_pixels(SEVEN, 24), ".webp"),
    encoded(drawing_pixels(SEVEN, 24), ".bmp"),
    on_transparency(drawing_pixels(SEVEN, 24), True),
]


@settings(max_examples=40)
@given(
    st.sampled_from(REAL),
    st.floats(0, 1),
    st.lists(st.tuples(st.floats(0, 1), st.integers(0, 255)), max_size=6),
)
def test_a_real_picture_cut_short_or_changed_is_read_or_refused(data, cut, changes):
    changed = bytearray(data[: max(1, int(cut * len(data)))])
    for where, value in changes:
        changed[int(where * (len(changed) - 1))] = value
    read_or_refused(bytes(changed))


@settings(max_examples=30)
@given(
    st.integers(1, 80),
    st.integers(1, 80),
    st.sampled_from([1, 3, 4]),
    st.sampled_from([".png", ".jpg", ".webp", ".bmp"]),
    st.integers(0, 2**32 - 1),
)
def test_any_small_picture_is_read_or_refused(width, height, channels, suffix, seed):
    pixels = np.random.default_rng(seed).integers(0, 256, (height, width, channels), np.uint8)
    if channels == 4 and suffix in (".jpg", ".bmp"):
        pixels = pixels[..., :3]
    read_or_refused(encoded(pixels, suffix))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.floats(-1e4, 1e4), st.floats(-1e4, 1e4)), min_size=1, max_size=40).map(
        lambda points: np.array(points, np.float64)
    ),
    st.sampled_from(["as drawn", "on a grid", "on one place", "on a line"]),
    st.floats(1, 60),
    st.booleans(),
)
def test_any_glyphs_are_fitted_to_a_lattice(points, layout, height, framed):
    """Whatever the numbers' places (two at one place, all on one line, a grid of any pitch,
    far apart or piled up), the lattice is found or leaves them out, never an error: the
    other pipeline's pictures once ended in min() of an empty sequence."""
    from hashi_asp.pictures.lattice import fit

    if layout == "on a grid":
        points = np.round(points / 2000) * height * 2
    elif layout == "on one place":
        points = np.repeat(points[:1], len(points), axis=0)
    elif layout == "on a line":
        points[:, 1] = points[0, 1]
    lattice = fit(points, height, 1.5 * height if framed else 0.0)
    assert set(lattice.cells) <= set(range(len(points)))
    assert all(r >= 0 and c >= 0 for r, c in lattice.cells.values())
    assert len(set(lattice.cells.values())) == len(lattice.cells)
    assert lattice.rows >= 0 and lattice.cols >= 0


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(2, 30),
    st.sampled_from(["clean", "turned", "smeared", "scratched"]),
)
def test_any_picture_of_numbers_is_read_or_refused(seed, count, damage):
    """Pictures that look like puzzles, made at random: numbers 0 to 9 at places near a grid
    of any pitch and turn, some in circles, some lines between them, then turned, smeared or
    scratched. Each is read or refused with one PuzzleError."""
    rng = np.random.default_rng(seed)
    side = int(rng.integers(60, 900))
    page = np.full((side, side), 255, np.uint8)
    pitch = float(rng.uniform(8, 80))
    for _ in range(count):
        x, y = rng.integers(0, max(1, side // pitch), 2) * pitch + rng.normal(0, pitch / 8, 2)
        size = float(rng.uniform(0.2, 1.5)) * pitch / 30
        at = (int(x), int(y))
        cv2.putText(page, str(int(rng.integers(0, 10))), at, cv2.FONT_HERSHEY_SIMPLEX, size, 0, 1)
        if rng.random() < 0.5:
            cv2.circle(
                page, (at[0] + int(8 * size), at[1] - int(10 * size)), int(pitch / 2.5), 0, 1
            )
        if rng.random() < 0.3:
            end = (int(x + pitch * rng.integers(1, 4)), int(y))
            cv2.line(page, at, end, 0, int(rng.integers(1, 4)))
    if damage == "turned":
        turn = cv2.getRotationMatrix2D((side / 2, side / 2), float(rng.uniform(-30, 30)), 1.0)
        page = cv2.warpAffine(page, turn, (side, side), borderValue=200)
    elif damage == "smeared":
        page = cv2.GaussianBlur(page, (0, 0), float(rng.uniform(0.5, 4)))
    elif damage == "scratched":
        for _ in range(int(rng.integers(1, 40))):
            a, b = rng.integers(0, side, 2), rng.integers(0, side, 2)
            cv2.line(page, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), 0, 1)
    read_or_refused(encoded(page, ".png"))
