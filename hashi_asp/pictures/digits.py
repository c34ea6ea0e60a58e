"""Reading one glyph: the digit classifier that ships with the package.

A glyph is a mask (the pixels of one character, 255 on 0), cut to its bounds.  It is scaled to
fit :data:`FIT` pixels, its aspect ratio kept, and centred on a :data:`SIZE`-pixel square; its
features are histograms of oriented gradients over that square (what tells strokes apart
whatever their thickness or blur), the square itself at 8x8 and the glyph's aspect ratio.
A small neural network (one hidden layer) gives the chance of each class: the digits 0 to 9 and
:data:`OTHER`, anything else (letters, punctuation, pieces of lines and circles).  Its weights
(``digits.npz``, beside this module) are made by ``scripts/train_digits.py`` from the fonts of
the machine that runs it, with every glyph drawn at many sizes, turned, sheared, thickened and
blurred; running it needs numpy and OpenCV only, and nothing is downloaded.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

SIZE = 24  # the square a glyph is centred on, in pixels
FIT = 20  # the longer side of a glyph on it
CLASSES = "0123456789?"  # the digits, then OTHER
OTHER = len(CLASSES) - 1
MODEL = Path(__file__).with_name("digits.npz")

CELL = 6  # pixels of a cell of the gradient histograms
BINS = 9  # directions of a histogram, over half a turn


def square(mask: np.ndarray) -> np.ndarray:
    """The glyph ``mask`` scaled to fit :data:`FIT` pixels and centred on the square."""
    height, width = mask.shape
    scale = FIT / max(height, width)
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    small = cv2.resize(mask, size, interpolation=cv2.INTER_AREA)
    canvas = np.zeros((SIZE, SIZE), np.uint8)
    top, left = (SIZE - size[1]) // 2, (SIZE - size[0]) // 2
    canvas[top : top + size[1], left : left + size[0]] = small
    return canvas


def features(masks: Sequence[np.ndarray]) -> np.ndarray:
    """One row of features per glyph mask."""
    rows = []
    for mask in masks:
        canvas = square(mask)
        coarse = cv2.resize(canvas, (8, 8), interpolation=cv2.INTER_AREA).ravel() / 255.0
        aspect = np.log(mask.shape[1] / mask.shape[0])
        rows.append(np.concatenate([gradients(canvas), coarse, [aspect]]))
    return np.asarray(rows, np.float32).reshape(len(rows), -1)


def gradients(canvas: np.ndarray) -> np.ndarray:
    """Histograms of oriented gradients: per cell of :data:`CELL` pixels, the strength of the
    edges in each of :data:`BINS` directions (a direction and its opposite as one), shared
    between the two nearest bins; the whole scaled to length 1, each value capped at 0.2 and
    scaled again (as Dalal and Triggs' blocks are), so that contrast and stroke width matter
    little."""
    image = canvas.astype(np.float32) / 255.0
    dx = cv2.Sobel(image, cv2.CV_32F, 1, 0, ksize=3)
    dy = cv2.Sobel(image, cv2.CV_32F, 0, 1, ksize=3)
    strength = np.hypot(dx, dy)
    where = (np.arctan2(dy, dx) % np.pi) / np.pi * BINS  # 0 to BINS
    low = np.floor(where).astype(int) % BINS
    share = where - np.floor(where)
    cells = SIZE // CELL
    cell = (np.arange(SIZE) // CELL)[:, None] * cells + (np.arange(SIZE) // CELL)[None, :]
    histograms = np.zeros(cells * cells * BINS, np.float32)
    np.add.at(histograms, (cell * BINS + low).ravel(), (strength * (1 - share)).ravel())
    np.add.at(histograms, (cell * BINS + (low + 1) % BINS).ravel(), (strength * share).ravel())
    histograms /= np.linalg.norm(histograms) + 1e-6
    histograms = np.minimum(histograms, 0.2)
    return histograms / (np.linalg.norm(histograms) + 1e-6)


@functools.cache
def _weights() -> dict[str, np.ndarray]:
    with np.load(MODEL) as stored:
        return {name: stored[name] for name in stored.files}


def chances(masks: Sequence[np.ndarray], weights: dict[str, Any] | None = None) -> np.ndarray:
    """Per glyph, the chance of each class of :data:`CLASSES` (rows sum to 1)."""
    if not masks:
        return np.zeros((0, len(CLASSES)), np.float32)
    model = weights or _weights()
    return forward(features(masks), model)


def forward(rows: np.ndarray, model: dict[str, Any]) -> np.ndarray:
    """The network on feature rows: standardised, one hidden layer of rectified units, and
    the softmax of the classes."""
    x = (rows - model["mean"]) / model["scale"]
    hidden = np.maximum(x @ model["w1"] + model["b1"], 0)
    logits = hidden @ model["w2"] + model["b2"]
    logits -= logits.max(axis=1, keepdims=True)
    exp = np.exp(logits)
    return exp / exp.sum(axis=1, keepdims=True)
