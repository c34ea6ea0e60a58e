"""A photo of a page or a screen made by a camera model: test pictures for the picture reader
that share nothing with it but the page.

:func:`photographed` renders a page (a picture's bytes) as a plane in 3-D seen by a pinhole
camera, ray by ray: for each pixel of the photo the point of the plane it sees is found
(lens distortion undone, the ray met with the plane) and the page is sampled there
(``cv2.remap``).  Every choice is drawn from the ``random.Random`` given, and returned with
the photo, so that a seed makes the same photo again and a photo can be made again from its
settings (any setting named as a keyword is taken as given instead of drawn).

The model and its ranges:

- **Pose.** The page is turned in its plane by ``turn`` (-15 to 15 degrees), then tilted by
  ``tilt`` (0 to 25 degrees) about an axis in its plane at ``axis`` (0 to 360 degrees).  The
  camera's horizontal field of view is ``fov`` (50 to 75 degrees, a phone's main camera);
  the distance makes a cell of the page ``cell`` pixels at the page's middle (14 to 36 when
  not given), which needs ``page_cell``, the page's own pixels a cell; without it the page's
  drawn part fills ``fill`` (0.5 to 0.85) of the frame.  The drawn part (what differs from
  the page's ground) is framed off centre by up to ``shift`` (a share of the free margin).
- **Lens.** Brown-Conrady distortion, OpenCV's convention: radial ``k1`` (-0.15 to 0.15:
  barrel below 0, pincushion above) and ``k2`` (-0.05 to 0.05), tangential ``p1``, ``p2``
  (-0.003 to 0.003), on coordinates divided by the focal length.
- **Light** (in linear light, before the sensor): an ``ambient`` share (0.15 to 0.45) and a
  ``point`` or ``area`` light (a disk of 9 points) whose irradiance falls off as cos/r^2
  (Lambert) over the plane, placed where its mirror image lands at ``glare_at`` (on or near
  the page), at ``light_distance`` (0.6 to 2 page diagonals), so that the paper's specular
  lobe (Blinn-Phong, ``shininess`` 15 to 200, ``glare`` 0 to 0.7 of the diffuse light) makes
  a glare spot there; vignetting (cos^4 of the ray's angle to the axis, to the power
  ``vignetting`` 0.3 to 1.2); a soft ``shadow`` (none, a hand, or a phone's edge) blocking
  ``shadow_depth`` (0.25 to 0.7) of the direct light; a colour cast (``cast``, per channel
  gains 0.85 to 1.15) of light not balanced by the camera.
- **Paper**: off-white (``paper_tint``), fine grain, fibres (short light or dark strokes) and,
  now and then, a ``crease``: a line across the page with one side a little darker.
- **Screen** (``screen=True``, for a screenshot photographed): the page is shown on a screen
  whose pixel is ``pitch`` (2 to 4) photo pixels wide at the page's middle, each pixel three
  stripes (red, green, blue) with a dark gap between them and between rows; each photo pixel
  averages 2 x 2 points of it, so the stripes beat with the sensor's grid (moire).  The
  screen gives light of its own: ``glow`` (a wide halo of the bright parts, 0.05 to 0.25),
  dimmer off its axis (``falloff``), a reflection of the room (``reflection``), a dark bezel.
  No paper, no Lambert light on it.
- **Blur**: ``motion`` (a line kernel of ``blur_length`` 1 to 6 pixels at ``blur_angle``) or
  ``defocus`` (a disk of ``blur_radius`` 0.7 to 2.5 pixels), after the lens's own blur.
- **Sensor**: auto exposure puts the page's bright paper (a screen's brightest) at
  ``exposure`` (0.7 to 0.92 of full scale); shot noise (Poisson, ``full_well`` 300 to 3000
  electrons at full scale, so that it grows with brightness) and read noise (``read_noise``
  1 to 6 electrons); a Bayer (RGGB) mosaic demosaiced by OpenCV; the sRGB curve; the
  camera's sharpening (unsharp mask of ``sharpening`` 0.3 to 1.5 at ``sharpening_radius``
  0.8 to 2 pixels); JPEG of ``quality`` 30 to 70.

:func:`projected` tells where points of the page are in the photo, by OpenCV's
``projectPoints`` from the settings: the forward model, independent of the per-pixel inverse
used to render.  Needs numpy and OpenCV.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

Settings = dict[str, Any]


class _Draw:
    """Draws each setting from the generator, unless given; keeps what was used."""

    def __init__(self, rng: random.Random, given: Settings) -> None:
        self.rng, self.given, self.used = rng, given, {}

    def __call__(self, name: str, choose: Callable[[random.Random], Any]) -> Any:
        value = self.given[name] if name in self.given else choose(self.rng)
        self.used[name] = value
        return value

    def uniform(self, name: str, low: float, high: float) -> float:
        return float(self(name, lambda r: r.uniform(low, high)))


def photographed(
    page: bytes,
    rng: random.Random,
    *,
    cell: float | None = None,
    page_cell: float | None = None,
    screen: bool = False,
    **settings: Any,
) -> tuple[bytes, Settings]:
    """A JPEG photo of ``page`` (a picture's bytes) by the camera model of this module, and
    the settings used (JSON-able).  ``cell``: the pixels a cell of the page is to take at the
    page's middle in the photo, where the page's own is ``page_cell`` pixels (without them,
    the page's drawn part fills ``fill`` of the frame).  A setting named as a keyword is used
    as given instead of drawn, so ``photographed(page, rng, **settings)`` makes the same photo
    again whatever ``rng``."""
    draw = _Draw(rng, settings)
    draw.used.update(screen=screen, page_cell=page_cell)
    picture = _decoded(page)
    box = _drawn_part(picture)
    scale = _scale(draw, cell, page_cell, screen)
    camera = _camera(draw, picture.shape[:2], box, scale, 1800 if screen else 2400)
    width, height = camera["photo_size"]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    rays = _rays(camera, xs, ys)
    pu, pv, depth, inside = _plane_points(camera, rays)
    if screen:
        radiance, lit_level = _screen_radiance(draw, picture, camera, rays, pu, pv, inside)
    else:
        radiance, lit_level = _paper_radiance(draw, picture, camera, pu, pv, inside, depth)
    image = _sensor(draw, radiance, lit_level, rays)
    quality = int(draw("quality", lambda r: r.randrange(30, 71)))
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return encoded.tobytes(), draw.used


def projected(settings: Settings, points: np.ndarray) -> np.ndarray:
    """Where the page's points (``(n, 2)``, its pixels: x right, y down) are in the photo made
    with ``settings``, by OpenCV's forward camera model."""
    centre = np.asarray(settings["centre"], np.float64)
    plane = np.zeros((len(points), 3))
    plane[:, :2] = np.asarray(points, np.float64) - centre
    found, _ = cv2.projectPoints(
        plane,
        np.asarray(settings["rvec"], np.float64),
        np.asarray(settings["tvec"], np.float64),
        np.asarray(settings["matrix"], np.float64),
        np.asarray(settings["distortion"], np.float64),
    )
    return found.reshape(-1, 2)


# ---------------------------------------------------------------------------- the page


def _decoded(data: bytes) -> np.ndarray:
    """The page in colour (BGR, 0 to 1, sRGB), what is transparent in it white."""
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    if image is None:
        raise ValueError("not a picture")
    if image.dtype != np.uint8:
        image = (image / 257).astype(np.uint8)
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    image = image.astype(np.float32) / 255
    if image.shape[2] == 4:
        alpha = image[..., 3:4]
        image = image[..., :3] * alpha + (1 - alpha)
    return np.ascontiguousarray(image[..., :3])


def _drawn_part(picture: np.ndarray) -> tuple[float, float, float, float]:
    """The box (x, y, width, height) of what differs from the page's ground (its most common
    grey), with a little margin: what a photographer would frame."""
    grey = picture.mean(axis=2)
    ground = float(np.median(np.concatenate([grey[0], grey[-1], grey[:, 0], grey[:, -1]])))
    ys, xs = np.nonzero(np.abs(grey - ground) > 0.15)
    h, w = grey.shape
    if len(xs) == 0:
        return 0.0, 0.0, float(w), float(h)
    x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    pad = 0.04 * max(x1 - x0, y1 - y0)
    x0, y0 = max(0.0, x0 - pad), max(0.0, y0 - pad)
    x1, y1 = min(float(w), x1 + pad), min(float(h), y1 + pad)
    return float(x0), float(y0), float(x1 - x0), float(y1 - y0)


def _to_linear(srgb: np.ndarray) -> np.ndarray:
    return np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4).astype(
        np.float32
    )


def _to_srgb(linear: np.ndarray) -> np.ndarray:
    linear = np.clip(linear, 0, 1)
    return np.where(
        linear <= 0.0031308, 12.92 * linear, 1.055 * linear ** (1 / 2.4) - 0.055
    ).astype(np.float32)


# ---------------------------------------------------------------------------- the camera


def _scale(draw: _Draw, cell: float | None, page_cell: float | None, screen: bool) -> float | None:
    """Photo pixels a page pixel at the page's middle, or None to frame by ``fill``."""
    if screen:
        pitch = draw.uniform("pitch", 2, 4)
        if cell is not None and page_cell:
            # The screen shows the page zoomed so that its pixels have that pitch.
            draw.used["zoom"] = cell / (pitch * page_cell)
            return cell / page_cell
        draw.used["zoom"] = 1.0
        return pitch
    if page_cell:
        chosen = cell if cell is not None else draw.uniform("cell", 14, 36)
        draw.used["cell"] = chosen
        return chosen / page_cell
    return None


def _camera(
    draw: _Draw,
    shape: tuple[int, ...],
    box: tuple[float, float, float, float],
    scale: float | None,
    largest: int,
) -> Settings:
    """The pose, the lens and the frame: what :func:`projected` needs, also kept in the
    settings."""
    x0, y0, bw, bh = box
    fill = draw.uniform("fill", 0.5, 0.85)
    if scale is None:
        scale = fill * 1600 / max(bw, bh)
    # The frame: 4:3 the way the drawn part is longer, holding it at ``fill``.
    long, short = max(bw, bh) * scale / fill, min(bw, bh) * scale / fill
    width, height = max(long, 4 / 3 * short), max(long, 4 / 3 * short) * 3 / 4
    if bh > bw:
        width, height = height, width
    limit = largest / max(width, height)
    if limit < 1:  # too large a photo: seen from further away
        width, height, scale = width * limit, height * limit, scale * limit
        if "zoom" in draw.used:
            draw.used["zoom"] *= limit
    if draw.used.get("page_cell"):
        draw.used["cell"] = scale * draw.used["page_cell"]
    width, height = max(int(width), 320), max(int(height), 240)
    fov = math.radians(draw.uniform("fov", 50, 75))  # across the frame's longer side
    focal = (max(width, height) / 2) / math.tan(fov / 2)
    distance = focal / scale
    turn = math.radians(draw.uniform("turn", -15, 15))
    tilt = math.radians(draw.uniform("tilt", 0, 25))
    axis = math.radians(draw.uniform("axis", 0, 360))
    rotation = (
        cv2.Rodrigues(np.array([math.cos(axis), math.sin(axis), 0.0]) * tilt)[0]
        @ (cv2.Rodrigues(np.array([0.0, 0.0, turn]))[0])
    )
    free_x, free_y = max(0.0, width - bw * scale), max(0.0, height - bh * scale)
    sx, sy = draw.uniform("shift_x", -0.35, 0.35), draw.uniform("shift_y", -0.35, 0.35)
    offset = np.array([sx * free_x / 2, sy * free_y / 2]) * distance / focal
    k1 = draw.uniform("k1", -0.15, 0.15)
    k2 = draw.uniform("k2", -0.05, 0.05)
    p1, p2 = draw.uniform("p1", -0.003, 0.003), draw.uniform("p2", -0.003, 0.003)
    distortion = [k1, k2, p1, p2]
    camera = {
        "photo_size": [width, height],
        "matrix": [[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1]],
        "distortion": distortion,  # OpenCV's order: k1, k2, p1, p2
        "rvec": cv2.Rodrigues(rotation)[0].ravel().tolist(),
        "tvec": [float(offset[0]), float(offset[1]), distance],
        "centre": [x0 + bw / 2, y0 + bh / 2],
        "page_size": [shape[1], shape[0]],
    }
    # A photographer keeps the whole drawn part in the frame: the frame made larger where
    # the turn, the tilt or the lens would cut it (the lens's pixels as they were).
    corners = np.array([[x0, y0], [x0 + bw, y0], [x0 + bw, y0 + bh], [x0, y0 + bh]])
    reach = np.abs(projected(camera, corners) - [width / 2, height / 2]).max(axis=0) * 1.03 + 4
    width, height = max(width, int(2 * reach[0]) + 1), max(height, int(2 * reach[1]) + 1)
    camera["photo_size"] = [width, height]
    camera["matrix"] = [[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1]]
    draw.used.update(camera)
    return camera


def _rays(camera: Settings, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The ideal (undistorted) normalised coordinates of the rays through photo pixels: the
    lens's distortion undone by fixed-point iteration; NaN where it has no answer (past
    where a strong barrel folds back: the lens's dark corners)."""
    (f, _, cx), (_, _, cy), _ = camera["matrix"]
    k1, k2, p1, p2 = camera["distortion"]
    xd, yd = (xs - cx) / f, (ys - cy) / f
    x, y = xd.copy(), yd.copy()
    for _ in range(12):
        r2 = x * x + y * y
        radial = 1 + k1 * r2 + k2 * r2 * r2
        dx = 2 * p1 * x * y + p2 * (r2 + 2 * x * x)
        dy = p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
        x, y = (xd - dx) / radial, (yd - dy) / radial
    r2 = x * x + y * y
    radial = 1 + k1 * r2 + k2 * r2 * r2
    back_x = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x)
    back_y = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
    wrong = (np.abs(back_x - xd) + np.abs(back_y - yd) > 1e-4) | (radial < 0.5)
    return np.where(wrong, np.nan, x), np.where(wrong, np.nan, y)


def _plane_points(
    camera: Settings, rays: tuple[np.ndarray, np.ndarray]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For each photo pixel, the page point it sees (page pixels), the depth along the axis
    and whether its ray meets the plane in front of the camera."""
    x, y = rays
    rotation = cv2.Rodrigues(np.asarray(camera["rvec"]))[0].astype(np.float32)
    back = rotation.T
    t = np.asarray(camera["tvec"], np.float32)
    b = back @ t
    a = [back[i, 0] * x + back[i, 1] * y + back[i, 2] for i in range(3)]
    az = np.where(np.abs(a[2]) < 1e-6, 1e-6, a[2])
    along = b[2] / az
    cu, cv = camera["centre"]
    seen = np.isfinite(along) & (along > 0)
    along = np.where(seen, along, 0)
    pu = np.where(seen, along * a[0] - b[0] + cu, -1e5).astype(np.float32)
    pv = np.where(seen, along * a[1] - b[1] + cv, -1e5).astype(np.float32)
    return pu, pv, along.astype(np.float32), seen


# ---------------------------------------------------------------------------- paper in light


def _paper(draw: _Draw, picture: np.ndarray) -> np.ndarray:
    """The page's reflectance in linear light, with the paper's tint, grain, fibres and a
    crease: all on the page, before it is seen."""
    h, w = picture.shape[:2]
    albedo = _to_linear(picture)
    tint = draw("paper_tint", lambda r: [r.uniform(0.86, 0.95), r.uniform(0.9, 0.97), 0.97])
    albedo *= np.asarray(tint, np.float32)
    noise = np.random.default_rng(draw("paper_seed", lambda r: r.randrange(1 << 30)))
    grain = cv2.GaussianBlur(noise.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 1.2)
    texture = 1 + draw.uniform("grain", 0.01, 0.04) * grain / max(float(grain.std()), 1e-6)
    fibres = np.zeros((h, w), np.float32)
    for _ in range(int(h * w / 600)):
        x, y = noise.uniform(0, w), noise.uniform(0, h)
        angle, length = noise.uniform(0, np.pi), noise.uniform(3, 14)
        end = (int(x + length * np.cos(angle)), int(y + length * np.sin(angle)))
        cv2.line(fibres, (int(x), int(y)), end, float(noise.choice([-1, 1])), 1, cv2.LINE_AA)
    texture += draw.uniform("fibres", 0.02, 0.06) * cv2.GaussianBlur(fibres, (0, 0), 0.6)
    if draw("crease", lambda r: r.random() < 0.6):
        x, y = draw.uniform("crease_x", 0.2, 0.8) * w, draw.uniform("crease_y", 0.2, 0.8) * h
        angle = math.radians(draw.uniform("crease_angle", 0, 180))
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        side = (xs - x) * math.sin(angle) - (ys - y) * math.cos(angle)
        depth = draw.uniform("crease_depth", 0.03, 0.1)
        texture *= 1 - depth * (0.5 + 0.5 * np.tanh(side / 2))  # one side turned from the light
        texture *= 1 - 1.5 * depth * np.exp(-((side / 1.2) ** 2))  # the fold's line
    return albedo * texture[..., None]


def _sampled(
    image: np.ndarray, pu: np.ndarray, pv: np.ndarray, scale: float, border: float
) -> np.ndarray:
    """The image at page points, first made smaller where the photo sees it smaller (as the
    sensor's pixels average it), then sampled bilinearly."""
    factor = min(1.0, 1.5 * scale)
    if factor < 1:
        small = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
        pu, pv = (pu + 0.5) * factor - 0.5, (pv + 0.5) * factor - 0.5
        image = small
    return cv2.remap(
        image, pu, pv, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=border
    )


def _table(draw: _Draw, pu: np.ndarray, pv: np.ndarray) -> np.ndarray:
    """The reflectance of what the page lies on: a coloured surface with a wood-like grain,
    in the plane's own coordinates (so it is seen in the same perspective)."""
    base = np.asarray(draw("table", lambda r: [r.uniform(0.03, 0.35) for _ in range(3)]))
    noise = np.random.default_rng(draw("table_seed", lambda r: r.randrange(1 << 30)))
    blotches = noise.normal(0, 1, (24, 24)).astype(np.float32)
    span = float(max(np.ptp(pu[::8, ::8]), np.ptp(pv[::8, ::8]), 1.0))
    bu = ((pu - pu.min()) / span * 23).astype(np.float32)
    bv = ((pv - pv.min()) / span * 23).astype(np.float32)
    low = cv2.remap(blotches, bu, bv, cv2.INTER_CUBIC, borderMode=cv2.BORDER_REFLECT)
    angle = noise.uniform(0, np.pi)
    period = noise.uniform(6, 30)
    grain = np.sin((pu * np.cos(angle) + pv * np.sin(angle)) / period + 3 * low)
    shade = np.clip(1 + 0.25 * low + 0.12 * grain, 0.3, 2)
    return (shade[..., None] * base[None, None, :].astype(np.float32)).astype(np.float32)


def _lights(
    draw: _Draw, camera: Settings, pu: np.ndarray, pv: np.ndarray, depth: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The diffuse (Lambert) and specular light on the plane, on a coarse grid (light changes
    slowly) made full size: a point or area light placed so that its glare lands at
    ``glare_at`` on or near the page."""
    step = 4
    rotation = cv2.Rodrigues(np.asarray(camera["rvec"]))[0]
    t = np.asarray(camera["tvec"])
    normal = -rotation[:, 2]  # the page's front faces the camera
    cu, cv = camera["centre"]
    w, h = camera["page_size"]
    gu = draw.uniform("glare_u", -0.8, 0.8)
    gv = draw.uniform("glare_v", -0.8, 0.8)
    draw.used["glare_at"] = [cu + gu * w / 2, cv + gv * h / 2]
    glare_point = rotation @ np.array([gu * w / 2, gv * h / 2, 0.0]) + t
    view = -glare_point / np.linalg.norm(glare_point)
    mirror = 2 * (normal @ view) * normal - view
    reach = draw.uniform("light_distance", 0.6, 2.0) * math.hypot(w, h)
    lamp = glare_point + reach * mirror
    kind = draw("light", lambda r: r.choice(["point", "area"]))
    radius = draw.uniform("light_radius", 0.05, 0.3) * reach if kind == "area" else 0.0
    samples = [(0.0, 0.0)] + [
        (radius * math.cos(k * math.pi / 4), radius * math.sin(k * math.pi / 4)) for k in range(8)
    ] if radius else [(0.0, 0.0)]  # fmt: skip
    u = pu[::step, ::step] - cu
    v = pv[::step, ::step] - cv
    points = [rotation[i, 0] * u + rotation[i, 1] * v + t[i] for i in range(3)]
    to_eye = [-p for p in points]
    eye_norm = np.sqrt(sum(e * e for e in to_eye)) + 1e-9
    shininess = draw.uniform("shininess", 15, 200)
    diffuse = np.zeros_like(u)
    specular = np.zeros_like(u)
    for du, dv in samples:
        source = lamp + rotation[:, 0] * du + rotation[:, 1] * dv
        to_light = [source[i] - points[i] for i in range(3)]
        far = np.sqrt(sum(d * d for d in to_light)) + 1e-9
        cosine = np.clip(sum(normal[i] * to_light[i] for i in range(3)) / far, 0, None)
        diffuse += cosine / far**2
        half = [to_light[i] / far + to_eye[i] / eye_norm for i in range(3)]
        half_norm = np.sqrt(sum(x * x for x in half)) + 1e-9
        facing = np.clip(sum(normal[i] * half[i] for i in range(3)) / half_norm, 0, None)
        specular += facing**shininess
    middle = diffuse[diffuse.shape[0] // 2, diffuse.shape[1] // 2]
    diffuse /= max(float(middle), 1e-12)
    specular /= len(samples)
    full = (pu.shape[1], pu.shape[0])
    return (
        cv2.resize(diffuse.astype(np.float32), full, interpolation=cv2.INTER_LINEAR),
        cv2.resize(specular.astype(np.float32), full, interpolation=cv2.INTER_LINEAR),
    )


def _shadow(draw: _Draw, size: tuple[int, int]) -> np.ndarray:
    """A soft shadow over the photo (1 where the direct light is blocked): a hand (a palm
    and four fingers) or the edge of a phone coming in from a side, or none."""
    width, height = size
    kind = draw("shadow", lambda r: r.choice(["none", "hand", "phone edge"]))
    shadow = np.zeros((height // 4 + 1, width // 4 + 1), np.float32)
    if kind == "none":
        return cv2.resize(shadow, size)
    sw, sh = shadow.shape[1], shadow.shape[0]
    side = draw("shadow_side", lambda r: r.randrange(4))
    depth_in = draw.uniform("shadow_reach", 0.1, 0.4)
    along = draw.uniform("shadow_along", 0.1, 0.9)
    slant = math.radians(draw.uniform("shadow_slant", -30, 30))
    # Drawn as coming from the top, then turned to its side.
    n = max(sw, sh)
    canvas = np.zeros((n, n), np.float32)
    x, reach = along * n, depth_in * n
    if kind == "hand":
        cv2.ellipse(canvas, (int(x), int(-0.1 * n)), (int(0.16 * n), int(reach)), 0, 0, 360, 1, -1)
        for k in range(4):
            fx = int(x + (k - 1.5) * 0.07 * n)
            tip = int(reach + (0.12 + 0.04 * (k in (1, 2))) * n)
            cv2.line(canvas, (fx, int(0.5 * reach)), (fx, tip), 1, max(2, int(0.045 * n)))
    else:
        corners = np.array([[x - 0.25 * n, -n], [x + 0.25 * n, -n],
                            [x + 0.25 * n, reach], [x - 0.25 * n, reach]])  # fmt: skip
        cv2.fillPoly(canvas, [corners.astype(np.int32)], 1)
    turn = cv2.getRotationMatrix2D((n / 2, n / 2), math.degrees(slant) + 90 * side, 1)
    canvas = cv2.warpAffine(canvas, turn, (n, n))
    soft = draw.uniform("shadow_softness", 0.02, 0.08) * n
    canvas = cv2.GaussianBlur(canvas, (0, 0), soft)[:sh, :sw]
    return cv2.resize(canvas, size) * draw.uniform("shadow_depth", 0.25, 0.7)


def _paper_radiance(
    draw: _Draw,
    picture: np.ndarray,
    camera: Settings,
    pu: np.ndarray,
    pv: np.ndarray,
    inside: np.ndarray,
    depth: np.ndarray,
) -> tuple[np.ndarray, float]:
    """The light coming from the page and the table, and the level of lit blank paper."""
    scale = camera["matrix"][0][0] / camera["tvec"][2]
    albedo = _paper(draw, picture)
    seen = _sampled(albedo, pu, pv, scale, 0.0)
    coverage = _sampled(np.ones(picture.shape[:2], np.float32), pu, pv, scale, 0.0)
    coverage *= inside
    table = _table(draw, pu, pv)
    reflectance = seen * coverage[..., None] + table * (1 - coverage[..., None])
    diffuse, specular = _lights(draw, camera, pu, pv, depth)
    blocked = 1 - _shadow(draw, tuple(camera["photo_size"]))
    ambient = draw.uniform("ambient", 0.15, 0.45)
    glare = draw.uniform("glare", 0.0, 0.7) * (0.3 + 0.7 * coverage)  # paper shines more
    light = ambient + (1 - ambient) * diffuse * blocked
    radiance = reflectance * light[..., None] + (glare * specular * blocked)[..., None]
    lit = float(np.percentile(light[coverage > 0.5], 90)) if (coverage > 0.5).any() else 1.0
    return radiance.astype(np.float32), lit * float(np.max(draw.used["paper_tint"]))


# ---------------------------------------------------------------------------- a screen


def _screen_radiance(
    draw: _Draw,
    picture: np.ndarray,
    camera: Settings,
    rays: tuple[np.ndarray, np.ndarray],
    pu: np.ndarray,
    pv: np.ndarray,
    inside: np.ndarray,
) -> tuple[np.ndarray, float]:
    """The light a screen showing the page sends: each screen pixel three stripes (red,
    green, blue) with dark gaps, each photo pixel the mean of 2 x 2 points of it, the
    screen's glow, its dimming off axis, a reflection on its glass and a dark bezel."""
    zoom = float(draw.used["zoom"])
    shown = picture
    if abs(zoom - 1) > 1e-6:
        how = cv2.INTER_AREA if zoom < 1 else cv2.INTER_LINEAR
        shown = cv2.resize(picture, None, fx=zoom, fy=zoom, interpolation=how)
    emitted = _to_linear(shown)
    sh, sw = emitted.shape[:2]
    su, sv = pu * zoom, pv * zoom  # screen pixels
    gap = draw.uniform("stripe_gap", 0.03, 0.07)
    row_gap = draw.uniform("row_gap", 0.05, 0.15)
    # The local step of the screen's coordinates per photo pixel, for the 2 x 2 points.
    du_dx, du_dy = np.gradient(su, axis=1), np.gradient(su, axis=0)
    dv_dx, dv_dy = np.gradient(sv, axis=1), np.gradient(sv, axis=0)
    total = np.zeros((*su.shape, 3), np.float32)
    for ox in (-1 / 4, 1 / 4):
        for oy in (-1 / 4, 1 / 4):
            u = su + ox * du_dx + oy * du_dy
            v = sv + ox * dv_dx + oy * dv_dy
            iu = np.clip(np.floor(u), 0, sw - 1).astype(np.intp)
            iv = np.clip(np.floor(v), 0, sh - 1).astype(np.intp)
            fu, fv = u - np.floor(u), v - np.floor(v)
            on_row = (fv > row_gap) & (fv < 1 - row_gap)
            on_screen = (u >= 0) & (u < sw) & (v >= 0) & (v < sh) & on_row
            pixel = emitted[iv, iu]
            for c, channel in enumerate((2, 1, 0)):  # red, green, blue from the left
                lit = (fu > c / 3 + gap) & (fu < (c + 1) / 3 - gap) & on_screen
                total[..., channel] += np.where(lit, pixel[..., channel], 0)
    stripe_share = (1 / 3 - 2 * gap) * (1 - 2 * row_gap)
    radiance = total / 4 / stripe_share  # a white screen averages to 1 in each channel
    screen_area = (su >= 0) & (su < sw) & (sv >= 0) & (sv < sh) & inside
    bezel_width = draw.uniform("bezel", 0.03, 0.1) * max(sw, sh)
    on_bezel = (su >= -bezel_width) & (su < sw + bezel_width) & (sv >= -bezel_width)
    on_bezel &= (sv < sh + bezel_width) & ~screen_area & inside
    room = draw.uniform("room", 0.01, 0.06)
    radiance[~screen_area] = room
    radiance[on_bezel] = 0.01
    # Dimmer off the screen's axis: the angle between the ray and the screen's normal.
    rotation = cv2.Rodrigues(np.asarray(camera["rvec"]))[0]
    x, y = rays
    normal = rotation[:, 2]
    cosine = np.abs(normal[0] * x + normal[1] * y + normal[2]) / np.sqrt(x * x + y * y + 1)
    cosine = np.nan_to_num(cosine)
    radiance *= (cosine ** draw.uniform("falloff", 1, 4))[..., None].astype(np.float32)
    glow = draw.uniform("glow", 0.05, 0.25)
    halo = cv2.GaussianBlur(radiance, (0, 0), draw.uniform("glow_radius", 4, 20))
    radiance = radiance + glow * halo
    h, w = su.shape
    cx, cy = draw.uniform("reflection_x", 0, 1) * w, draw.uniform("reflection_y", 0, 1) * h
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    spread = draw.uniform("reflection_size", 0.15, 0.5) * max(w, h)
    reflection = draw.uniform("reflection", 0.0, 0.12) * np.exp(
        -((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * spread**2)
    )
    radiance += (reflection * (screen_area | on_bezel))[..., None]
    # Metered on the screen's brightest: a dark page's light ink is exposed as white paper is.
    bright = radiance.max(axis=2)[screen_area]
    lit = float(np.percentile(bright, 99.5)) if bright.size else 1.0
    return radiance.astype(np.float32), lit


# ---------------------------------------------------------------------------- the sensor


def _kernel(draw: _Draw) -> np.ndarray:
    """The blur of the shot: a line (the camera moved) or a disk (out of focus)."""
    kind = draw("blur", lambda r: r.choice(["motion", "defocus"]))
    if kind == "motion":
        length = draw.uniform("blur_length", 1, 6)
        angle = math.radians(draw.uniform("blur_angle", 0, 180))
        n = math.ceil(length) * 2 + 3
        kernel = np.zeros((n * 4, n * 4), np.float32)
        c = n * 2
        dx, dy = 2 * length * math.cos(angle), 2 * length * math.sin(angle)
        cv2.line(kernel, (int(c - dx), int(c - dy)), (int(c + dx), int(c + dy)), 1, 2, cv2.LINE_AA)
        kernel = cv2.resize(kernel, (n, n), interpolation=cv2.INTER_AREA)
    else:
        radius = draw.uniform("blur_radius", 0.7, 2.5)
        n = math.ceil(radius) * 2 + 3
        kernel = np.zeros((n * 4, n * 4), np.float32)
        cv2.circle(kernel, (n * 2, n * 2), int(radius * 4), 1, -1, cv2.LINE_AA)
        kernel = cv2.resize(kernel, (n, n), interpolation=cv2.INTER_AREA)
    return kernel / kernel.sum()


def _sensor(
    draw: _Draw, radiance: np.ndarray, lit: float, rays: tuple[np.ndarray, np.ndarray]
) -> np.ndarray:
    """The light made a photo: vignetting, colour cast, the lens's blur and the shot's, auto
    exposure, shot and read noise, a Bayer mosaic demosaiced, the sRGB curve, sharpening."""
    x, y = rays
    cos4 = np.nan_to_num((1 / (1 + x * x + y * y)) ** 2)  # none past the lens's corners
    radiance = radiance * (cos4 ** draw.uniform("vignetting", 0.3, 1.2))[..., None]
    cast = draw("cast", lambda r: [r.uniform(0.85, 1.15) for _ in range(3)])
    radiance = radiance * np.asarray(cast, np.float32)
    radiance = cv2.GaussianBlur(radiance, (0, 0), draw.uniform("lens_blur", 0.3, 0.7))
    radiance = cv2.filter2D(radiance, -1, _kernel(draw))
    radiance *= draw.uniform("exposure", 0.7, 0.92) / max(lit, 1e-6)
    noise = np.random.default_rng(draw("noise_seed", lambda r: r.randrange(1 << 30)))
    well = draw.uniform("full_well", 300, 3000)
    electrons = noise.poisson(np.clip(radiance, 0, 1.5) * well).astype(np.float32)
    electrons += noise.normal(0, draw.uniform("read_noise", 1, 6), electrons.shape)
    signal = np.clip(electrons / well, 0, 1)
    mosaic = np.empty(signal.shape[:2], np.float32)  # RGGB; the image is BGR
    mosaic[0::2, 0::2] = signal[0::2, 0::2, 2]
    mosaic[0::2, 1::2] = signal[0::2, 1::2, 1]
    mosaic[1::2, 0::2] = signal[1::2, 0::2, 1]
    mosaic[1::2, 1::2] = signal[1::2, 1::2, 0]
    raw = (mosaic * 65535).astype(np.uint16)
    colour = cv2.cvtColor(raw, cv2.COLOR_BayerBG2BGR).astype(np.float32) / 65535
    encoded = _to_srgb(colour)
    radius = draw.uniform("sharpening_radius", 0.8, 2.0)
    amount = draw.uniform("sharpening", 0.3, 1.5)
    soft = cv2.GaussianBlur(encoded, (0, 0), radius)
    sharpened = encoded + amount * (encoded - soft)
    return np.clip(sharpened * 255 + 0.5, 0, 255).astype(np.uint8)
