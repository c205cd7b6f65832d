"""Find burned-in annotator marks (red label text, click ring, swipe arrow) with OpenCV.

Ink is saturated bright red only, ``R - max(G, B) >= 180``: the marks' colour, unlike the app reds
in the fixtures ((217, 55, 50), (209, 45, 74), (220, 48, 35)). Each connected component is then
tested for shape. **Label**: glyph-sized components chained into text lines from the top 5% of the
frame (red text lines elsewhere are app text); set aside first so no "O" becomes a ring. **Ring /
disc**: RANSAC circle fit on the outer contour, scored by covered share of the visible circumference,
a solid rim and an even stroke (clipped at the frame edge, or touching other red, it still fits).
**Arrow**: an elongated solid component with an even shaft and, at one end only, a head at least
twice as wide that tapers to a point; the tip is that end's extreme along the axis.

>>> frame = np.full((2400, 1080, 3), 255, np.uint8)
>>> _ = cv2.circle(frame, (300, 900), 36, (255, 0, 0), 6)
>>> m = detect_marks(frame)
>>> m.circle.point, m.arrow, m.label_band
((300, 900), None, None)
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image

RED_CHROMA = 180        # mark ink: R - max(G, B) at least this
LOOSE_CHROMA = 40       # anti-aliased mark edges, for masks only
MIN_AREA = 24           # smaller components are noise (dots of a ring_with_dot are not searched for)
R_MIN, R_MAX = 8, 130   # ring radius range, px
MIN_CONFIDENCE = 0.5
MIN_ARROW = 0.04        # shortest swipe arrow, as a share of the frame's longer side
_RNG_SEED = 0


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
    """What :func:`detect_marks` found. ``label_band`` is the (top, bottom) rows of the label text,
    ``label_box`` its (left, top, right, bottom) ink box, both inclusive."""

    circle: Detection | None
    arrow: ArrowDetection | None
    label_band: tuple[int, int] | None
    label_box: tuple[int, int, int, int] | None = None


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


# ---------------------------------------------------------------- label

def _text_lines(stats: np.ndarray, ids: np.ndarray, glyph_max: int) -> list[list[int]]:
    """Glyph-sized components chained side by side into lines of >= 3 (red text), top line first."""
    cand = sorted((int(i) for i in ids if stats[i, 3] <= glyph_max and stats[i, 2] <= 2 * glyph_max),
                  key=lambda i: stats[i, 0])
    parent = {i: i for i in cand}

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for pos, a in enumerate(cand):
        ax, ay, aw, ah = stats[a, :4]
        for b in cand[pos + 1:]:
            if stats[b, 0] > ax + aw + glyph_max:
                break
            if min(ay + ah, stats[b, 1] + stats[b, 3]) - max(ay, stats[b, 1]) > 0.3 * min(ah, stats[b, 3]):
                parent[root(a)] = root(b)
    groups: dict[int, list[int]] = {}
    for i in cand:
        groups.setdefault(root(i), []).append(i)
    # a mark touching the text is taller than the line's letters: not part of the line
    lines = [[i for i in g if stats[i, 3] <= 1.4 * float(np.median(stats[g, 3])) + 2] for g in groups.values()]
    return sorted((g for g in lines if len(g) >= 3), key=lambda g: int(stats[g, 1].min()))


def _find_label(lines: list[list[int]], stats: np.ndarray, height: int, glyph_max: int) -> list[int]:
    """The first text line if it starts in the top 5% of the frame, plus the lines wrapped below it."""
    label: list[int] = []
    bottom = 0  # lowest row of the label so far
    for line in lines:
        top = int(stats[line, 1].min())
        if (not label and top > 0.05 * height) or (label and top > bottom + glyph_max // 2):
            break
        label += line
        bottom = int((stats[label, 1] + stats[label, 3]).max())
    return label


# ---------------------------------------------------------------- circle

def _fit_circle(pts: np.ndarray) -> tuple[float, float, float]:
    """Algebraic least-squares circle through ``pts`` (N x 2): (cx, cy, r)."""
    x, y = pts[:, 0], pts[:, 1]
    a = np.column_stack([x, y, np.ones_like(x)])
    sol = np.linalg.lstsq(a, x * x + y * y, rcond=None)[0]
    cx, cy = sol[0] / 2, sol[1] / 2
    return float(cx), float(cy), float(np.sqrt(max(sol[2] + cx * cx + cy * cy, 0.0)))


def _ransac_circle(pts: np.ndarray, rng: np.random.Generator, iters: int = 96) -> tuple[float, float, float] | None:
    """Circle through the most contour points: circumcircles of random triples (half of them spread
    a third of the contour apart), the one with most points within max(1, 0.02 r) px wins."""
    n = len(pts)
    base = rng.integers(0, n, iters)
    idx = np.vstack([np.column_stack([base, (base + n // 3) % n, (base + 2 * n // 3) % n]),
                     rng.integers(0, n, (iters, 3))])
    (x1, y1), (x2, y2), (x3, y3) = (pts[idx[:, k]].T for k in range(3))
    d = 2 * (x1 * (y2 - y3) + x2 * (y3 - y1) + x3 * (y1 - y2))
    ok = np.abs(d) > 1e-6
    s1, s2, s3, d = x1 ** 2 + y1 ** 2, x2 ** 2 + y2 ** 2, x3 ** 2 + y3 ** 2, np.where(ok, d, 1.0)
    cx = (s1 * (y2 - y3) + s2 * (y3 - y1) + s3 * (y1 - y2)) / d
    cy = (s1 * (x3 - x2) + s2 * (x1 - x3) + s3 * (x2 - x1)) / d
    r = np.hypot(x1 - cx, y1 - cy)
    good = ok & (r >= R_MIN - 1) & (r <= R_MAX + 1)
    if not good.any():
        return None
    cx, cy, r = cx[good], cy[good], r[good]
    dist = np.hypot(pts[None, :, 0] - cx[:, None], pts[None, :, 1] - cy[:, None])
    best = int(np.argmax((np.abs(dist - r[:, None]) < np.maximum(1.0, 0.02 * r)[:, None]).sum(1)))
    return float(cx[best]), float(cy[best]), float(r[best])


def _rim_fill(mask: np.ndarray, cx: float, cy: float, r: float, n: int = 144) -> float:
    """Share of the visible circle of radius ``r`` with ink within about a pixel inward."""
    ang = np.linspace(0, 2 * np.pi, n, endpoint=False)
    hit, vis = np.zeros(n, bool), np.ones(n, bool)
    for rr in (r - 0.5, r - 1.0, r - 1.5):
        for fx in (np.floor, np.ceil):
            for fy in (np.floor, np.ceil):
                xs, ys = fx(cx + rr * np.cos(ang)).astype(int), fy(cy + rr * np.sin(ang)).astype(int)
                ok = (xs >= 0) & (ys >= 0) & (xs < mask.shape[1]) & (ys < mask.shape[0])
                vis &= ok
                hit[ok] |= mask[ys[ok], xs[ok]] > 0
    return float(hit[vis].mean()) if vis.any() else 0.0


def _stroke(mask: np.ndarray, cx: float, cy: float, r: float) -> tuple[list[float], float]:
    """Stroke widths met marching inward from the rim along 16 rays (``r`` when solid to the
    centre), and the radius of a centre dot (0 if none)."""
    widths, steps = [], np.arange(-0.5, r + 0.5, 0.5)
    for a in np.linspace(0, 2 * np.pi, 16, endpoint=False):
        px, py = np.rint(cx + (r - steps) * np.cos(a)).astype(int), np.rint(cy + (r - steps) * np.sin(a)).astype(int)
        if px.min() < 0 or py.min() < 0 or px.max() >= mask.shape[1] or py.max() >= mask.shape[0]:
            continue
        ink = mask[py, px] > 0
        if ink[:6].any():
            rest = ink[int(np.argmax(ink)):]
            widths.append(float(r) if rest.all() else float(np.argmin(rest)) * 0.5)
    x, y = int(round(cx)), int(round(cy))
    dot = 0.0
    if 0 <= y < mask.shape[0] and 0 <= x < mask.shape[1] and mask[y, x]:
        row = mask[y, x:int(cx + r)] > 0
        dot = 0.0 if row.all() else float(np.argmin(row))
    return widths, dot


def _score_circle(mask: np.ndarray, pts: np.ndarray, rng: np.random.Generator) -> Detection | None:
    hyp = _ransac_circle(pts, rng)
    if hyp is None:
        return None
    cx, cy, r = hyp
    for _ in range(2):  # refine on the inliers
        inl = pts[np.abs(np.hypot(pts[:, 0] - cx, pts[:, 1] - cy) - r) < max(1.5, 0.04 * r)]
        if len(inl) < 12:
            return None
        cx, cy, r = _fit_circle(inl)
    if not R_MIN <= r <= R_MAX:
        return None
    rms = float(np.sqrt(np.mean((np.hypot(inl[:, 0] - cx, inl[:, 1] - cy) - r) ** 2)))
    # angular coverage of the inliers over the part of the circle that lies inside the frame
    nb = 72
    ang = np.linspace(0, 2 * np.pi, nb, endpoint=False)
    xs, ys = cx + r * np.cos(ang), cy + r * np.sin(ang)
    vis = (xs >= -0.5) & (ys >= -0.5) & (xs < mask.shape[1] - 0.5) & (ys < mask.shape[0] - 0.5)
    if vis.sum() < nb // 5:
        return None
    covered = np.zeros(nb, bool)
    covered[(np.arctan2(inl[:, 1] - cy, inl[:, 0] - cx) % (2 * np.pi) / (2 * np.pi) * nb).astype(int) % nb] = True
    coverage = float((covered & vis).sum() / vis.sum())
    rim = _rim_fill(mask, cx, cy, r)  # marks are drawn on top: their rim is solid all round
    widths, dot = _stroke(mask, cx, cy, r)
    width = float(np.median(widths)) if widths else 0.0
    if width < 1:
        return None
    # a mark's stroke is equally wide all round; a red badge with a white digit inside is not
    steady = float((np.abs(np.array(widths) - width) <= max(1.5, 0.25 * width)).mean())
    quality = max(0.0, 1.0 - rms / max(1.0, 0.08 * r))
    conf = coverage ** 1.5 * rim ** 2 * (0.5 + 0.5 * quality) * steady ** 2
    if width >= 0.9 * r:
        conf *= 0.9  # a filled disc is also what a red app button looks like
    return Detection((int(round(cx)), int(round(cy))), round(float(conf), 3), round(r + 0.5, 1), round(width, 1),
                     dot if width < 0.6 * r else 0.0)


# ---------------------------------------------------------------- arrow

def _profiles(t: np.ndarray, s: np.ndarray, binw: float) -> tuple[np.ndarray, np.ndarray]:
    """Per slice of ``binw`` along the axis: ink width (pixel count / binw) and perpendicular extent."""
    bins = ((t - t.min()) / binw).astype(int)
    nbins = int(bins.max()) + 1
    order = np.argsort(bins, kind="stable")
    sb, so = bins[order], s[order]
    starts = np.flatnonzero(np.r_[True, sb[1:] != sb[:-1]])
    extent = np.zeros(nbins)
    extent[sb[starts]] = np.maximum.reduceat(so, starts) - np.minimum.reduceat(so, starts) + 1
    return np.bincount(bins, minlength=nbins) / binw, extent


def _score_arrow(pts: np.ndarray, min_length: float = 40) -> ArrowDetection | None:
    mean = pts.mean(0)
    v, u = np.linalg.eigh(np.cov((pts - mean).T))[1].T  # minor, major axis
    t, s = (pts - mean) @ u, (pts - mean) @ v
    length, binw = float(t.max() - t.min()), 2.0
    if length < min_length:
        return None
    prof, extent = _profiles(t, s, binw)
    n = len(prof)
    win = max(2, int(0.4 * n))
    if prof[:win].max() > prof[-win:].max():  # orient the axis tail -> head
        u, t, prof, extent = -u, -t, prof[::-1], extent[::-1]
    # slices of a solid bar or triangle fill their perpendicular extent; a ring's two arcs do not
    solid = float(np.median(np.minimum(1.0, prof / np.maximum(extent, 1.0))[int(0.1 * n):int(0.9 * n) + 1]))
    shaft = prof[int(0.1 * n):max(int(0.4 * n), int(0.1 * n) + 1)]
    ws = float(np.median(shaft))
    if solid < 0.6 or ws < 1 or length < 6 * ws:
        return None
    uniform = float((np.abs(shaft - ws) <= max(1.5, 0.35 * ws)).mean())
    head_w, tail_w = float(prof[-win:].max()), float(prof[:max(2, int(0.1 * n))].max())
    if head_w < 2.0 * ws or tail_w > 1.6 * ws + 1:
        return None
    # the head tapers to a point about linearly over at least 0.4x its width (a bar running into a
    # red button, badge or word does not)
    taper = prof[n - win + int(np.argmax(prof[-win:])):]
    ramp = head_w * (1.0 - np.arange(len(taper)) / len(taper))
    if len(taper) * binw < 0.4 * head_w or float(np.abs(taper - ramp).mean()) > 0.2 * head_w:
        return None
    tmin, tmax = float(t.min()), float(t.max())
    axis_s = float(np.median(s[(t >= tmin + 0.1 * length) & (t <= tmin + 0.4 * length)]))
    tail, tip = ((int(round(q[0])), int(round(q[1]))) for q in (mean + tv * u + axis_s * v for tv in (tmin, tmax)))
    conf = uniform * min(1.0, (head_w / ws - 1.5) / 1.5) * min(1.0, length / (12 * ws)) * min(1.0, solid / 0.8)
    return ArrowDetection(tail, tip, round(float(conf), 3), round(ws, 1), round(head_w, 1))


# ---------------------------------------------------------------- driver

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
    lines = _text_lines(stats, ids, glyph_max)
    label = _find_label(lines, stats, h, glyph_max)
    skip = {i for line in lines for i in line}  # label and red app text: no marks
    band = box = None
    if label:
        x0, y0 = stats[label, 0].min(), stats[label, 1].min()
        x1, y1 = (stats[label, 0] + stats[label, 2]).max(), (stats[label, 1] + stats[label, 3]).max()
        box, band = (int(x0), int(y0), int(x1) - 1, int(y1) - 1), (int(y0), int(y1) - 1)
        inside = ((stats[:, 0] >= x0 - 2) & (stats[:, 1] >= y0 - 2) & (stats[:, 0] + stats[:, 2] <= x1 + 2)
                  & (stats[:, 1] + stats[:, 3] <= y1 + 2) & (stats[:, 3] <= glyph_max))
        skip |= set(np.flatnonzero(inside).tolist())  # punctuation and stray bits of the label
    rng = np.random.default_rng(_RNG_SEED)
    min_arrow = max(40.0, MIN_ARROW * max(w, h))
    circles: list[Detection | None] = []
    arrows: list[ArrowDetection | None] = []
    for i in ids:
        x, y, cw, ch, area = (int(v) for v in stats[i])
        if i in skip or max(cw, ch) < 2 * R_MIN - 2:
            continue
        labels, local, bx, by = refs[i]
        sub = (labels[y - by:y - by + ch, x - bx:x - bx + cw] == local).astype(np.uint8)
        if max(cw, ch) <= 2 * R_MAX + 40 or area < 40000:
            contours, _ = cv2.findContours(sub, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
            cnt = max(contours, key=len).reshape(-1, 2).astype(np.float64) + (x, y)
            # contour runs along the frame border are where a mark is cut off, not its outline
            cnt = cnt[(cnt[:, 0] > 0) & (cnt[:, 1] > 0) & (cnt[:, 0] < w - 1) & (cnt[:, 1] < h - 1)]
            circles.append(_score_circle(mask, cnt, rng) if len(cnt) >= 24 else None)
        if max(cw, ch) >= min_arrow:
            ys, xs = np.nonzero(sub)
            arrows.append(_score_arrow(np.column_stack([xs + x, ys + y]).astype(np.float64), min_arrow))
    circle = max((c for c in circles if c and c.confidence >= MIN_CONFIDENCE), key=lambda c: c.confidence, default=None)
    arrow = max((a for a in arrows if a and a.confidence >= MIN_CONFIDENCE), key=lambda a: a.confidence, default=None)
    return Marks(circle, arrow, band, box)


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
