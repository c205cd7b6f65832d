"""Find burned-in annotator marks (red label text, click ring, swipe arrow) with OpenCV.

Ink is saturated bright red only, ``R - max(G, B) >= 180``: the marks' colour, unlike the app reds
in the fixtures ((217, 55, 50), (209, 45, 74), (220, 48, 35)). Each connected component is then
tested for shape. **Label**: glyph-sized components chained into text lines from the top 5% of the
frame's longer side (red text lines elsewhere are app text); set aside first so no "O" becomes a ring. **Ring /
disc**: RANSAC circle fit on the outer contour, scored by covered share of the visible circumference,
a solid rim and an even stroke (clipped at the frame edge, or touching other red, it still fits).
**Arrow**: an elongated solid component with an even shaft and, at one end only, a head at least
twice as wide that tapers to a point; the tip is that end's extreme along the axis.

Sizes are relative where marks scale: marks are drawn in proportion to the frame's width (:mod:`.draw`), so on a
landscape desktop frame (1280x800, 1920x1080, a 2880x1800 HiDPI capture) the label and ring take a larger share
of the height than on a portrait phone. Hence glyph sizes and the largest ring radius follow the width (at most
``R_MAX`` px up to 1080 px wide, proportionally more beyond), the label's band and the shortest arrow the longer
side; a 1080x2400 phone frame gets exactly the fixed values.

The pieces: :mod:`.ink` (colour mask, result types), :mod:`.labels` (label text lines), :mod:`.shapes` (ring
and arrow tests); this module runs them over a frame and builds the removal mask.

>>> frame = np.full((2400, 1080, 3), 255, np.uint8)
>>> _ = cv2.circle(frame, (300, 900), 36, (255, 0, 0), 6)
>>> m = detect_marks(frame)
>>> m.circle.point, m.arrow, m.label_band
((300, 900), None, None)
"""
from __future__ import annotations

import cv2
import numpy as np
from PIL import Image

from .ink import (LOOSE_CHROMA, MIN_AREA, MIN_ARROW, MIN_CONFIDENCE, R_MAX, R_MIN, RED_CHROMA, REF_WIDTH,
                  RNG_SEED, ArrowDetection, Detection, Marks, as_rgb_array, mask_blocks, red_mask)
from .labels import find_label, text_lines
from .shapes import score_arrow, score_circle

__all__ = ["ArrowDetection", "Detection", "Marks", "as_rgb_array", "detect_marks", "mark_mask", "mask_blocks",
           "red_mask", "LOOSE_CHROMA", "MIN_AREA", "MIN_ARROW", "MIN_CONFIDENCE", "R_MAX", "R_MIN", "RED_CHROMA"]


def _components(mask: np.ndarray) -> tuple[np.ndarray, list[tuple[np.ndarray, int, int, int]]]:
    """Connected components of ``mask``, labelled block by block (several times faster than a mostly
    empty full frame): global stats rows (x, y, w, h, area) and, per row, (block labels, local id,
    block x, block y)."""
    stats_out, refs = [], []
    for y0, y1, x0, x1 in mask_blocks(mask):
        _, labels, stats, _ = cv2.connectedComponentsWithStats(mask[y0:y1, x0:x1], connectivity=8)
        for i in np.flatnonzero(stats[1:, cv2.CC_STAT_AREA] >= MIN_AREA) + 1:
            x, y, w, h, a = (int(v) for v in stats[i])
            stats_out.append((x + x0, y + y0, w, h, a))
            refs.append((labels, int(i), x0, y0))
    return np.array(stats_out, np.int64).reshape(-1, 5), refs


def detect_marks(image: Image.Image | np.ndarray) -> Marks:
    """Locate the label band, click ring and swipe arrow burned into ``image`` (Pillow or RGB array).

    >>> detect_marks(np.zeros((100, 50, 3), np.uint8))
    Marks(circle=None, arrow=None, label_band=None, label_box=None)
    """
    rgb = as_rgb_array(image)
    h, w = rgb.shape[:2]
    mask = red_mask(rgb)
    stats, refs = _components(mask)
    ids = np.arange(len(stats))
    glyph_max = max(12, int(0.075 * w))
    lines = text_lines(stats, ids, glyph_max)
    label = find_label(lines, stats, max(h, w), glyph_max)
    skip = {i for line in lines for i in line}  # label and red app text: no marks
    band = box = None
    if label:
        x0, y0 = stats[label, 0].min(), stats[label, 1].min()
        x1, y1 = (stats[label, 0] + stats[label, 2]).max(), (stats[label, 1] + stats[label, 3]).max()
        box, band = (int(x0), int(y0), int(x1) - 1, int(y1) - 1), (int(y0), int(y1) - 1)
        inside = ((stats[:, 0] >= x0 - 2) & (stats[:, 1] >= y0 - 2) & (stats[:, 0] + stats[:, 2] <= x1 + 2)
                  & (stats[:, 1] + stats[:, 3] <= y1 + 2) & (stats[:, 3] <= glyph_max))
        skip |= set(np.flatnonzero(inside).tolist())  # punctuation and stray bits of the label
    rng = np.random.default_rng(RNG_SEED)
    min_arrow = max(40.0, MIN_ARROW * max(w, h))
    r_max = R_MAX * max(1.0, w / REF_WIDTH)  # marks grow with the width: a 1920 px frame's ring is 64 px
    circles: list[Detection | None] = []
    arrows: list[ArrowDetection | None] = []
    for i in ids:
        x, y, cw, ch, area = (int(v) for v in stats[i])
        if i in skip or max(cw, ch) < 2 * R_MIN - 2:
            continue
        labels, local, bx, by = refs[i]
        sub = (labels[y - by:y - by + ch, x - bx:x - bx + cw] == local).astype(np.uint8)
        if max(cw, ch) <= 2 * r_max + 40 or area < 40000 * (r_max / R_MAX) ** 2:
            contours, _ = cv2.findContours(sub, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
            cnt = max(contours, key=len).reshape(-1, 2).astype(np.float64) + (x, y)
            # contour runs along the frame border are where a mark is cut off, not its outline
            cnt = cnt[(cnt[:, 0] > 0) & (cnt[:, 1] > 0) & (cnt[:, 0] < w - 1) & (cnt[:, 1] < h - 1)]
            circles.append(score_circle(mask, cnt, rng, r_max) if len(cnt) >= 24 else None)
        if max(cw, ch) >= min_arrow:
            ys, xs = np.nonzero(sub)
            arrows.append(score_arrow(np.column_stack([xs + x, ys + y]).astype(np.float64), min_arrow))
    # every candidate, most confident first (stable: ties keep component order, as max() did)
    circle_all = tuple(sorted((c for c in circles if c and c.confidence >= MIN_CONFIDENCE), key=lambda c: -c.confidence))
    arrow_all = tuple(sorted((a for a in arrows if a and a.confidence >= MIN_CONFIDENCE), key=lambda a: -a.confidence))
    return Marks(circle_all[0] if circle_all else None, arrow_all[0] if arrow_all else None, band, box,
                 circle_all, arrow_all)


def mark_mask(image: Image.Image | np.ndarray, marks: Marks, dilate_px: int = 5) -> np.ndarray:
    """Boolean HxW mask of the pixels of the detected marks and the label text, grown by ``dilate_px``.

    Red-ish pixels (``R - max(G, B) >= 40``, which takes in anti-aliased edges) count when they lie
    in a mark's envelope (label box, ring annulus and dot, arrow capsule); the dilation then covers the
    label's white outline and the remaining edge blend.

    >>> frame = np.full((400, 300, 3), 255, np.uint8)
    >>> _ = cv2.circle(frame, (150, 200), 30, (255, 0, 0), 4)
    >>> mask = mark_mask(frame, detect_marks(frame))
    >>> bool(mask[200, 150 + 29]), bool(mask[200, 150])
    (True, False)
    """
    rgb = as_rgb_array(image)
    env = np.zeros(rgb.shape[:2], np.uint8)
    pad = dilate_px + 2
    if marks.label_box is not None:
        x0, y0, x1, y1 = marks.label_box
        cv2.rectangle(env, (x0 - pad, y0 - pad), (x1 + pad, y1 + pad), 255, -1)
    if marks.circle is not None:
        c = marks.circle
        outer = int(np.ceil(c.radius + pad))
        cv2.circle(env, c.point, outer, 255, -1)
        inner = int(c.radius - c.width - pad)
        if c.width < 0.9 * c.radius and inner > 0:
            cv2.circle(env, c.point, inner, 0, -1)
            if c.dot > 0:
                cv2.circle(env, c.point, int(np.ceil(c.dot + pad)), 255, -1)
    if marks.arrow is not None:
        a = marks.arrow
        thick = int(np.ceil(max(a.head_width, a.width) + 2 * pad))
        cv2.line(env, a.start, a.end, 255, thick)
    out = np.zeros(env.shape, bool)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * dilate_px + 1, 2 * dilate_px + 1))
    for y0, y1, x0, x1 in mask_blocks(env, dilate_px + 1):
        ink = cv2.bitwise_and(red_mask(rgb[y0:y1, x0:x1], LOOSE_CHROMA), env[y0:y1, x0:x1])
        if dilate_px > 0:
            ink = cv2.dilate(ink, kernel)
        out[y0:y1, x0:x1] |= ink > 0
    return out
