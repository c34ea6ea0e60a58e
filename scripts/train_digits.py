"""Train the digit classifier of pictures (hashi_asp/pictures/digits.npz).

    python scripts/train_digits.py [--out hashi_asp/pictures/digits.npz] [--seed 1]

Every font on this machine that fontconfig lists (``fc-list``) and that draws digits (symbol,
dingbat and script faces are left out) draws the digits 0 to 9 and, as the class "other", the
letters and signs that do not look like a digit, and pieces of lines, circles and squares (what
else a picture of a puzzle holds).  Each glyph is drawn many times: at sizes from 12 to 48
pixels, turned by up to 12 degrees, sheared, stretched, thickened or thinned, blurred, shrunk
and enlarged again, with noise; then cut out as the reader cuts out glyphs (its ink, the pieces
together) and turned into features by hashi_asp.pictures.digits.features.  A
network of one hidden layer is trained on them with Adam, a tenth of the fonts held out to say
how well it does on faces it has not seen.  Needs numpy, OpenCV and Pillow; takes a few minutes.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from hashi_asp.pictures.digits import CLASSES, MODEL, OTHER, features, forward  # noqa: E402
from hashi_asp.pictures.glyphs import ink, relative  # noqa: E402

DIGITS = "0123456789"
# Letters and signs unlike any digit (I, l, O, S, B, Z, g, q, b, G and the like are left out:
# no picture of a puzzle puts them where an island is, and they would blur the digits' classes).
OTHERS = "ACDEFHJKLMNPRTUVWXYacdefhijkmnprtuvwxy#%&*+=?@:;!()[]<>/~-"
SKIPPED = ("Symbol", "D050000L", "Z003", "Math", "Dingbat")
PER_DIGIT = 48  # drawings of each digit in each font
PER_OTHER = 4  # drawings of each other sign in each font
SHAPES = 9000  # pieces of lines, circles and squares


def fonts() -> list[str]:
    listed = subprocess.run(
        ["fc-list", ":", "file", "family"], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    found = set()
    for line in listed:
        path = line.split(":")[0].strip()
        if path.endswith((".ttf", ".otf")) and not any(word in line for word in SKIPPED):
            found.add(path)
    return sorted(found)


def drawn(font_path: str, text: str, size: int) -> np.ndarray:
    """``text`` in the font, black on white, with room around it."""
    font = ImageFont.truetype(font_path, size)
    side = size * 3
    image = Image.new("L", (side, side), 255)
    ImageDraw.Draw(image).text((side / 2, side / 2), text, fill=0, font=font, anchor="mm")
    return np.asarray(image)


def spoilt(gray: np.ndarray, rng: random.Random) -> np.ndarray:
    """A drawing as a camera or a scanner might give it: turned, sheared, stretched, thicker or
    thinner, blurred, shrunk and enlarged, with noise."""
    h, w = gray.shape
    angle = rng.uniform(-12, 12)
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle, rng.uniform(0.9, 1.1))
    matrix[0, 1] += rng.uniform(-0.2, 0.2)
    matrix[1, 0] += rng.uniform(-0.08, 0.08)
    matrix[0, 0] *= rng.uniform(0.85, 1.15)
    image = cv2.warpAffine(gray, matrix, (w, h), borderValue=255, flags=cv2.INTER_LINEAR)
    stroke = rng.choice([-1, 0, 0, 0, 1])
    if stroke and h > 60:
        kernel = np.ones((2, 2), np.uint8)
        image = cv2.erode(image, kernel) if stroke > 0 else cv2.dilate(image, kernel)
    sigma = rng.uniform(0, 1.6) * h / 60
    if sigma > 0.3:
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    if rng.random() < 0.3:
        factor = rng.uniform(0.5, 0.9)
        small = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
        image = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    noise = np.random.default_rng(rng.randrange(1 << 30)).normal(0, rng.uniform(0, 14), (h, w))
    contrast = rng.uniform(0.4, 1.0)
    image = 255 - (255 - image.astype(np.float32)) * contrast + noise
    return np.clip(image, 0, 255).astype(np.uint8)


def glyph(gray: np.ndarray) -> np.ndarray | None:
    """The ink of a drawing, as the reader finds ink (hashi_asp.pictures.glyphs.ink), the
    pieces of some size together, cut to their bounds."""
    found = ink(relative(gray, light_ink=False))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(found, connectivity=8)
    if count < 2:
        return None
    largest = stats[1:, cv2.CC_STAT_AREA].max()
    keep = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= 0.08 * largest]
    mask = np.isin(labels, keep).astype(np.uint8) * 255
    ys, xs = np.nonzero(mask)
    if len(ys) < 4:
        return None
    return mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def shape(rng: random.Random) -> np.ndarray:
    """A piece of what surrounds the digits: a line, an arc of a circle, a corner of a square,
    a dot, a circle, a speck of grain."""
    side = rng.randrange(24, 80)
    image = np.full((side, side), 255, np.uint8)
    thickness = rng.randrange(1, max(2, side // 10))
    kind = rng.randrange(7)
    c = side // 2
    if kind == 0:
        length = rng.uniform(0.3, 0.9) * side
        angle = rng.choice([0, 90]) + rng.uniform(-10, 10)
        dx, dy = np.cos(np.radians(angle)) * length / 2, np.sin(np.radians(angle)) * length / 2
        cv2.line(image, (int(c - dx), int(c - dy)), (int(c + dx), int(c + dy)), 0, thickness)
    elif kind == 1:
        start = rng.uniform(0, 360)
        radius = rng.randrange(side // 4, side // 2)
        cv2.ellipse(image, (c, c), (radius, radius), 0, start, start + rng.uniform(40, 200), 0,
                    thickness)  # fmt: skip
    elif kind == 2:
        a = rng.randrange(side // 4, side // 2)
        cv2.line(image, (c - a, c - a), (c + a, c - a), 0, thickness)
        cv2.line(image, (c - a, c - a), (c - a, c + a), 0, thickness)
    elif kind == 3:
        cv2.circle(image, (c, c), rng.randrange(2, max(3, side // 6)), 0, -1)
    elif kind == 4:
        radius = rng.randrange(side // 4, side // 2)
        cv2.circle(image, (c, c), radius, 0, thickness)
    else:  # a speck of grain or dirt: smoothed noise, cut at a level
        noise = np.random.default_rng(rng.randrange(1 << 30)).normal(0, 1, (side, side))
        noise = cv2.GaussianBlur(noise, (0, 0), rng.uniform(1.5, side / 6))
        image[noise > np.quantile(noise, rng.uniform(0.8, 0.97))] = 0
    return image


def samples(faces: list[str], rng: random.Random) -> tuple[list[np.ndarray], list[int]]:
    masks, labels = [], []

    def add(gray: np.ndarray, label: int) -> None:
        cut = glyph(spoilt(gray, rng))
        if cut is not None:
            masks.append(cut)
            labels.append(label)

    for face in faces:
        for digit in DIGITS:
            for _ in range(PER_DIGIT):
                add(drawn(face, digit, rng.randrange(12, 49)), int(digit))
        for sign in OTHERS:
            for _ in range(PER_OTHER):
                add(drawn(face, sign, rng.randrange(12, 49)), OTHER)
    return masks, labels


def train(x: np.ndarray, y: np.ndarray, rng: np.random.Generator, hidden: int = 128) -> dict:
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-3
    z = (x - mean) / scale
    n, d = z.shape
    k = len(CLASSES)
    params = {
        "w1": rng.normal(0, np.sqrt(2 / d), (d, hidden)).astype(np.float32),
        "b1": np.zeros(hidden, np.float32),
        "w2": rng.normal(0, np.sqrt(2 / hidden), (hidden, k)).astype(np.float32),
        "b2": np.zeros(k, np.float32),
    }
    moments = {name: (np.zeros_like(p), np.zeros_like(p)) for name, p in params.items()}
    step, rate, decay = 0, 1e-3, 1e-4
    for epoch in range(40):
        order = rng.permutation(n)
        for start in range(0, n, 256):
            batch = order[start : start + 256]
            xb, yb = z[batch], y[batch]
            h = np.maximum(xb @ params["w1"] + params["b1"], 0)
            logits = h @ params["w2"] + params["b2"]
            logits -= logits.max(axis=1, keepdims=True)
            p = np.exp(logits)
            p /= p.sum(axis=1, keepdims=True)
            p[np.arange(len(yb)), yb] -= 1
            p /= len(yb)
            grads = {"w2": h.T @ p + decay * params["w2"], "b2": p.sum(axis=0)}
            dh = (p @ params["w2"].T) * (h > 0)
            grads["w1"] = xb.T @ dh + decay * params["w1"]
            grads["b1"] = dh.sum(axis=0)
            step += 1
            for name, g in grads.items():
                m, v = moments[name]
                m[:] = 0.9 * m + 0.1 * g
                v[:] = 0.999 * v + 0.001 * g * g
                mhat, vhat = m / (1 - 0.9**step), v / (1 - 0.999**step)
                params[name] -= (rate * mhat / (np.sqrt(vhat) + 1e-8)).astype(np.float32)
        if epoch == 25:
            rate /= 3
    return {**params, "mean": mean.astype(np.float32), "scale": scale.astype(np.float32)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=MODEL)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    started = time.perf_counter()
    rng = random.Random(options.seed)
    faces = fonts()
    held = faces[:: max(2, len(faces) // max(1, len(faces) // 10))][: max(1, len(faces) // 10)]
    trained = [face for face in faces if face not in held]
    print(f"{len(faces)} fonts: {len(trained)} to train on, {len(held)} held out", flush=True)
    masks, labels = samples(trained, rng)
    for _ in range(SHAPES):
        cut = glyph(spoilt(shape(rng), rng))
        if cut is not None:
            masks.append(cut)
            labels.append(OTHER)
    x, y = features(masks), np.asarray(labels)
    print(f"{len(y)} glyphs, {x.shape[1]} features ({time.perf_counter() - started:.0f} s)")
    model = train(x, y, np.random.default_rng(options.seed))
    trained_right = (forward(x, model).argmax(axis=1) == y).mean()
    test_masks, test_labels = samples(held, random.Random(options.seed + 1))
    tested = forward(features(test_masks), model).argmax(axis=1) == np.asarray(test_labels)
    digits = np.asarray(test_labels) < OTHER
    print(
        f"right: {trained_right:.2%} of the training glyphs, {tested.mean():.2%} of the held-out "
        f"fonts' ({tested[digits].mean():.2%} of their digits); "
        f"{time.perf_counter() - started:.0f} s"
    )
    np.savez_compressed(options.out, **model)
    print(f"{options.out}: {options.out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
