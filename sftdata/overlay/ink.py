"""Mark ink and what detection returns: the saturated-red mask, the result types, row blocks of a mask.

Ink is saturated bright red only, ``R - max(G, B) >= 180``: the marks' colour, unlike the app reds
in the fixtures ((217, 55, 50), (209, 45, 74), (220, 48, 35)).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np
from PIL import Image

RED_CHROMA = 180        # mark ink: R - max(G, B) at least this
LOOSE_CHROMA = 40       # anti-aliased mark edges, for masks only
MIN_AREA = 24           # smaller components are noise (dots of a ring_with_dot are not searched for)
R_MIN, R_MAX = 8, 130   # ring radius range, px (R_MAX up to REF_WIDTH px wide; in proportion beyond)
REF_WIDTH = 1080        # the width at which the fixed sizes above hold (the fixtures' phone width)
MIN_CONFIDENCE = 0.5
MIN_ARROW = 0.04        # shortest swipe arrow, as a share of the frame's longer side
RNG_SEED = 0


@dataclass(frozen=True)
class Detection:
    """A click / long-press mark: centre ``point`` (x, y) px, outer ``radius``, stroke ``width``
    (``width == radius`` for a filled disc), ``dot`` radius of a centre dot (0 if none)."""

    point: tuple[int, int]
    confidence: float
    radius: float = 0.0
    width: float = 0.0
    dot: float = 0.0


@dataclass(frozen=True)
class ArrowDetection:
    """A swipe arrow from ``start`` (tail) to ``end`` (tip of the head), px."""

    start: tuple[int, int]
    end: tuple[int, int]
    confidence: float
    width: float = 0.0
    head_width: float = 0.0




@dataclass(frozen=True)
class Marks:
    """What :func:`~sftdata.overlay.detect.detect_marks` found. ``label_band`` is the (top, bottom) rows of the
    label text, ``label_box`` its (left, top, right, bottom) ink box, both inclusive. ``circle`` / ``arrow`` are
    the most confident candidates; ``circles`` / ``arrows`` every candidate over :data:`MIN_CONFIDENCE`, most
    confident first (an app's own red ring can outscore the annotator's: callers that know the action's point
    pick the candidate there)."""

    circle: Detection | None
    arrow: ArrowDetection | None
    label_band: tuple[int, int] | None
    label_box: tuple[int, int, int, int] | None = None
    circles: tuple[Detection, ...] = field(default=(), repr=False, compare=False)
    arrows: tuple[ArrowDetection, ...] = field(default=(), repr=False, compare=False)


def as_rgb_array(image: Image.Image | np.ndarray) -> np.ndarray:
    """An HxWx3 uint8 RGB array for a Pillow image or an RGB(A) array (no copy when possible).

    >>> as_rgb_array(Image.new("RGBA", (4, 2))).shape
    (2, 4, 3)
    """
    if isinstance(image, Image.Image):
        if image.mode != "RGB":
            image = image.convert("RGB")
        return np.asarray(image)
    arr = np.asarray(image)
    if arr.ndim != 3 or arr.shape[2] not in (3, 4) or arr.dtype != np.uint8:
        raise ValueError(f"expected an HxWx3 (or x4) uint8 RGB array, got {arr.shape} {arr.dtype}")
    return arr[..., :3]


def red_mask(rgb: np.ndarray, chroma: int = RED_CHROMA) -> np.ndarray:
    """uint8 mask (0/255) of pixels with ``R - max(G, B) >= chroma``.

    >>> red_mask(np.array([[[255, 0, 0], [220, 48, 35], [255, 255, 255]]], np.uint8)).tolist()
    [[255, 0, 0]]
    """
    rgb = np.ascontiguousarray(rgb)
    # one fast pass with the box that contains the condition (R >= c, G and B <= 255 - c) ...
    mask = cv2.inRange(rgb, (chroma, 0, 0), (255, 255 - chroma, 255 - chroma))
    nz = cv2.findNonZero(mask)
    if nz is not None:  # ... then the exact test on the few pixels inside the box
        nz = nz.reshape(-1, 2)
        xs, ys = nz[:, 0], nz[:, 1]
        px = rgb[ys, xs].astype(np.int16)
        bad = px[:, 0] - np.maximum(px[:, 1], px[:, 2]) < chroma
        mask[ys[bad], xs[bad]] = 0
    return mask


def mask_blocks(mask: np.ndarray, pad: int = 0) -> list[tuple[int, int, int, int]]:
    """(y0, y1, x0, x1) blocks, grown by ``pad``, covering the runs of rows where ``mask`` is set.

    >>> m = np.zeros((100, 50), np.uint8); m[10:20, 5:8] = 255; m[60, 40] = 255
    >>> mask_blocks(m, 1)
    [(9, 21, 4, 9), (59, 62, 39, 42)]
    """
    h, w = mask.shape
    rows = np.flatnonzero(cv2.reduce(mask, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S).ravel())
    if rows.size == 0:
        return []
    breaks = np.flatnonzero(np.diff(rows) > 2 * pad + 1)
    blocks = []
    for a, b in zip(np.r_[rows[0], rows[breaks + 1]], np.r_[rows[breaks], rows[-1]]):
        y0, y1 = max(0, int(a) - pad), min(h, int(b) + 1 + pad)
        cols = np.flatnonzero(cv2.reduce(mask[y0:y1], 0, cv2.REDUCE_SUM, dtype=cv2.CV_32S).ravel())
        blocks.append((y0, y1, max(0, int(cols[0]) - pad), min(w, int(cols[-1]) + 1 + pad)))
    return blocks

