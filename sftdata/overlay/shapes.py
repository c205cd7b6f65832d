"""Shape tests for one red component. **Ring / disc**: RANSAC circle fit on the outer contour, scored by covered
share of the visible circumference, a solid rim and an even stroke (clipped at the frame edge, or touching other
red, it still fits). **Arrow**: an elongated solid component with an even shaft and, at one end only, a head at
least twice as wide that tapers to a point; the tip is that end's extreme along the axis."""
from __future__ import annotations

import numpy as np

from .ink import R_MAX, R_MIN, ArrowDetection, Detection


# ---------------------------------------------------------------- circle

def _fit_circle(pts: np.ndarray) -> tuple[float, float, float]:
    """Algebraic least-squares circle through ``pts`` (N x 2): (cx, cy, r)."""
    x, y = pts[:, 0], pts[:, 1]
    a = np.column_stack([x, y, np.ones_like(x)])
    sol = np.linalg.lstsq(a, x * x + y * y, rcond=None)[0]
    cx, cy = sol[0] / 2, sol[1] / 2
    return float(cx), float(cy), float(np.sqrt(max(sol[2] + cx * cx + cy * cy, 0.0)))


def _ransac_circle(pts: np.ndarray, rng: np.random.Generator, iters: int = 96,
                   r_max: float = R_MAX) -> tuple[float, float, float] | None:
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
    good = ok & (r >= R_MIN - 1) & (r <= r_max + 1)
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


def score_circle(mask: np.ndarray, pts: np.ndarray, rng: np.random.Generator,
                  r_max: float = R_MAX) -> Detection | None:
    """The best ring / disc through the contour ``pts`` with a radius in ``R_MIN..r_max``, or None."""
    hyp = _ransac_circle(pts, rng, r_max=r_max)
    if hyp is None:
        return None
    cx, cy, r = hyp
    for _ in range(2):  # refine on the inliers
        inl = pts[np.abs(np.hypot(pts[:, 0] - cx, pts[:, 1] - cy) - r) < max(1.5, 0.04 * r)]
        if len(inl) < 12:
            return None
        cx, cy, r = _fit_circle(inl)
    if not R_MIN <= r <= r_max:
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


def score_arrow(pts: np.ndarray, min_length: float = 40) -> ArrowDetection | None:
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

