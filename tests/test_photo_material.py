"""The photo simulators of the picture benchmark: the camera model (benchmarks/camera.py) and
the image warps (picture_material.wide_photo) make the same photo again for a seed, and the
camera puts a page's marks where its forward model (OpenCV's projectPoints) says."""

from __future__ import annotations

import json
import random
import sys

import cv2
import numpy as np
import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))

import camera
import picture_material as material

MARKS = [(60, 50), (340, 50), (200, 150), (60, 250), (340, 250)]
STILL = {  # no noise, little blur, no shadow: the marks' middles can be measured
    "full_well": 1e7,
    "read_noise": 0.0,
    "blur": "defocus",
    "blur_radius": 0.7,
    "shadow": "none",
    "glare": 0.0,
    "quality": 95,
}


def page() -> bytes:
    """A white page 400 x 300 with five black dots at MARKS."""
    image = np.full((300, 400, 3), 255, np.uint8)
    for x, y in MARKS:
        cv2.circle(image, (x, y), 8, (0, 0, 0), -1, cv2.LINE_AA)
    ok, data = cv2.imencode(".png", image)
    assert ok
    return data.tobytes()


def dots(data: bytes, within: np.ndarray | None = None) -> np.ndarray:
    """The middles of the dark blobs of a photo (those ``within`` a polygon, if given)."""
    grey = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE).astype(np.float32)
    inner = grey if within is None else grey[_mask(grey.shape, within)]
    dark = (grey < 0.5 * np.median(inner)).astype(np.uint8)
    count, _, stats, centres = cv2.connectedComponentsWithStats(dark)
    found = [centres[i] for i in range(1, count) if 4 <= stats[i, cv2.CC_STAT_AREA] <= 1000]
    if within is not None:
        polygon = within.astype(np.float32).reshape(-1, 1, 2)
        found = [c for c in found if cv2.pointPolygonTest(polygon, tuple(map(float, c)), True) > 3]
    return np.array(found)


def _mask(shape: tuple[int, ...], polygon: np.ndarray) -> np.ndarray:
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(mask, [polygon.astype(np.int32)], 1)
    return mask.astype(bool)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_camera_puts_marks_where_its_model_says(seed: int) -> None:
    data, settings = camera.photographed(
        page(), random.Random(seed), cell=12, page_cell=20, k1=0.12 * (seed - 2), **STILL
    )
    sheet = camera.projected(settings, np.array([[0, 0], [400, 0], [400, 300], [0, 300]], float))
    found = dots(data, within=sheet)
    assert len(found) == len(MARKS)
    expected = camera.projected(settings, np.array(MARKS, float))
    distances = np.linalg.norm(found[None, :, :] - expected[:, None, :], axis=2)
    assert distances.min(axis=1).max() < 0.6, (distances.min(axis=1), settings["tilt"])
    photo = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert [photo.shape[1], photo.shape[0]] == settings["photo_size"]


def test_camera_is_the_same_for_a_seed() -> None:
    first, settings = camera.photographed(page(), random.Random(5), cell=10, page_cell=20)
    again, same = camera.photographed(page(), random.Random(5), cell=10, page_cell=20)
    other, _ = camera.photographed(page(), random.Random(6), cell=10, page_cell=20)
    assert first == again and settings == same
    assert first != other
    assert 30 <= settings["quality"] <= 70 and 0 <= settings["tilt"] <= 25
    # The settings drawn, kept as JSON, make the same photo again, whatever the generator.
    remade, _ = camera.photographed(page(), random.Random(99), **json.loads(json.dumps(settings)))
    assert remade == first


def test_screen_is_the_same_for_a_seed_and_striped() -> None:
    first, settings = camera.photographed(
        page(), random.Random(3), cell=12, page_cell=20, screen=True
    )
    again, _ = camera.photographed(page(), random.Random(3), cell=12, page_cell=20, screen=True)
    assert first == again
    assert 2 <= settings["pitch"] <= 4
    # A white screen seen in its sub-pixels: the channels differ from pixel to pixel.
    photo = cv2.imdecode(np.frombuffer(first, np.uint8), cv2.IMREAD_COLOR).astype(float)
    middle = photo[photo.shape[0] // 3 : 2 * photo.shape[0] // 3, photo.shape[1] // 3 :][:, :40]
    assert np.abs(middle[..., 2] - middle[..., 1]).mean() > 3


def test_wide_photo_is_the_same_for_a_seed_and_at_its_cell() -> None:
    first, settings = material.wide_photo(page(), random.Random(4), cell=12, page_cell=24)
    again, _ = material.wide_photo(page(), random.Random(4), cell=12, page_cell=24)
    assert first == again
    assert settings["factor"] == pytest.approx(0.5)
    assert -15 <= settings["turn"] <= 15 and 30 <= settings["quality"] <= 70
    photo = cv2.imdecode(np.frombuffer(first, np.uint8), cv2.IMREAD_COLOR)
    assert photo.shape[1] == 200 + 2 * (int(0.3 * 200) + 20)
    assert len(dots(first)) >= 3  # the page's dots still there, if blurred
