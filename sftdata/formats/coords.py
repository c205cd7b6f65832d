"""Coordinate spaces of the formats that write points in their family's own space, all mapped from and back to
original-screenshot pixels. The family (``FAMILIES[name]``, the format's own) gives the space:

* **smart-resized pixels** (a family without a grid: ``qwen2.5-vl``, ``ui-tars``): the model sees the image
  resized by its processor (the family's resize rule with its default limits), so a point is written in that
  image's pixels: ``x' = round(x * W' / W)``, back ``x = round(x' * W / W')``.
* **a 0..grid grid** (the family's ``grid``, ``qwen3-vl``: 999): ``g = round(x / (W - 1) * grid)``, back
  ``x = round(g / grid * (W - 1))``, so the grid ends 0 and ``grid`` are the first and last pixel.

The resized space must be the one training uses: with other ``min_pixels``/``max_pixels`` than the family's
defaults, pass them (:func:`limits` reads them from a step context that carries them). Values are clamped to
the target space. ``quantize`` of a point is ``back(forward(point))``, exactly what
parsing a rendered answer gives.

>>> resized_size((1080, 2400), "qwen2.5-vl")
(1092, 2408)
>>> to_resized((540, 1200), (1080, 2400), "qwen2.5-vl"), from_resized((546, 1204), (1080, 2400), "qwen2.5-vl")
((546, 1204), (540, 1200))
>>> to_grid((1079, 0), (1080, 2400), "qwen3-vl"), from_grid((999, 0), (1080, 2400), "qwen3-vl")
((999, 0), (1079, 0))
"""
from __future__ import annotations

from ..families import FAMILIES

Point = tuple[int, int]
Size = tuple[int, int]  # (width, height)


def resized_size(size: Size, family: str, *, min_pixels: int | None = None,
                 max_pixels: int | None = None) -> Size:
    """(W', H') of a ``size`` = (W, H) screenshot after ``family``'s smart resize (family limits by default)."""
    return FAMILIES[family].resize(size[0], size[1], min_pixels=min_pixels, max_pixels=max_pixels)


def limits(ctx) -> dict[str, int | None]:
    """Pixel limits the export trains with, when the step context carries them (else the family defaults)."""
    return {"min_pixels": ctx.min_pixels, "max_pixels": ctx.max_pixels}


def _clamp(v: int, n: int) -> int:
    return min(n - 1, max(0, v))


def to_resized(point: Point, size: Size, family: str, **lim: int | None) -> Point:
    (w, h), (rw, rh) = size, resized_size(size, family, **lim)
    return _clamp(round(point[0] * rw / w), rw), _clamp(round(point[1] * rh / h), rh)


def from_resized(point: Point, size: Size, family: str, **lim: int | None) -> Point:
    (w, h), (rw, rh) = size, resized_size(size, family, **lim)
    return _clamp(round(point[0] * w / rw), w), _clamp(round(point[1] * h / rh), h)


def grid(family: str) -> int:
    """The family's point grid (its largest value)."""
    value = FAMILIES[family].grid
    if value is None:
        raise ValueError(f"{family} writes points in pixels of its resized image, not on a grid")
    return value


def to_grid(point: Point, size: Size, family: str) -> Point:
    w, h, g = size[0], size[1], grid(family)
    return (_clamp(round(point[0] / max(w - 1, 1) * g), g + 1), _clamp(round(point[1] / max(h - 1, 1) * g), g + 1))


def from_grid(point: Point, size: Size, family: str) -> Point:
    w, h, g = size[0], size[1], grid(family)
    return (_clamp(round(point[0] / g * (w - 1)), w), _clamp(round(point[1] / g * (h - 1)), h))
