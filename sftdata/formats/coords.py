"""Coordinate spaces of the Qwen-family formats, all mapped from and back to original-screenshot pixels.

* **smart-resized pixels** (``qwen2.5-vl``, ``ui-tars``): the model sees the image resized by its processor
  (:func:`sftdata.families.smart_resize` with the family's default limits, via ``FAMILIES[...]``), so a
  point is written in that image's pixels: ``x' = round(x * W' / W)``, back ``x = round(x' * W / W')``.
* **999 grid** (``qwen3-vl``): ``g = round(x / (W - 1) * 999)``, back ``x = round(g / 999 * (W - 1))``, so the
  grid ends 0 and 999 are the first and last pixel.

The resized space must be the one training uses: with other ``min_pixels``/``max_pixels`` than the family's
defaults, pass them (:func:`limits` reads them from a step context that carries them). Values are clamped to
the target space. ``quantize`` of a point is ``back(forward(point))``, exactly what
parsing a rendered answer gives.

>>> resized_size((1080, 2400))
(1092, 2408)
>>> to_resized((540, 1200), (1080, 2400)), from_resized((546, 1204), (1080, 2400))
((546, 1204), (540, 1200))
>>> to_grid((1079, 0), (1080, 2400)), from_grid((999, 0), (1080, 2400))
((999, 0), (1079, 0))
"""
from __future__ import annotations

from ..families import FAMILIES

Point = tuple[int, int]
Size = tuple[int, int]  # (width, height)
GRID = FAMILIES["qwen3-vl"].grid  # 999: Qwen3-VL's point grid (the family registry's)


def resized_size(size: Size, family: str = "qwen2.5-vl", *, min_pixels: int | None = None,
                 max_pixels: int | None = None) -> Size:
    """(W', H') of a ``size`` = (W, H) screenshot after ``family``'s smart resize (family limits by default)."""
    return FAMILIES[family].resize(size[0], size[1], min_pixels=min_pixels, max_pixels=max_pixels)


def limits(ctx) -> dict[str, int | None]:
    """Pixel limits the export trains with, when the step context carries them (else the family defaults)."""
    return {"min_pixels": ctx.min_pixels, "max_pixels": ctx.max_pixels}


def _clamp(v: int, n: int) -> int:
    return min(n - 1, max(0, v))


def to_resized(point: Point, size: Size, family: str = "qwen2.5-vl", **lim: int | None) -> Point:
    (w, h), (rw, rh) = size, resized_size(size, family, **lim)
    return _clamp(round(point[0] * rw / w), rw), _clamp(round(point[1] * rh / h), rh)


def from_resized(point: Point, size: Size, family: str = "qwen2.5-vl", **lim: int | None) -> Point:
    (w, h), (rw, rh) = size, resized_size(size, family, **lim)
    return _clamp(round(point[0] * w / rw), w), _clamp(round(point[1] * h / rh), h)


def to_grid(point: Point, size: Size) -> Point:
    w, h = size
    return (_clamp(round(point[0] / max(w - 1, 1) * GRID), GRID + 1),
            _clamp(round(point[1] / max(h - 1, 1) * GRID), GRID + 1))


def from_grid(point: Point, size: Size) -> Point:
    w, h = size
    return (_clamp(round(point[0] / GRID * (w - 1)), w), _clamp(round(point[1] / GRID * (h - 1)), h))
