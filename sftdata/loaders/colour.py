"""The colour of the screen region under a tap, named in Chinese (OCR-free evidence for a target description
when a frame has no accessibility tree).

>>> from PIL import Image
>>> frame = Image.new("RGB", (200, 400), (255, 255, 255))
>>> frame.paste((30, 90, 220), (80, 180, 120, 220))
>>> frame.paste((10, 25, 45), (0, 300, 200, 400))
>>> region_colour(frame, (100, 200)), region_colour(frame, (20, 20)), region_colour(frame, (100, 350))
('蓝色', '白色', '深蓝色')
"""
from __future__ import annotations

import io
from collections import Counter

from PIL import Image

# PIL's HSV hue runs 0..255; upper bounds of each named hue band
_HUES = ((11, "红色"), (25, "橙色"), (43, "黄色"), (110, "绿色"), (135, "青色"), (185, "蓝色"), (215, "紫色"),
         (240, "粉色"), (256, "红色"))
CHROMATIC_SHARE = 0.2  # a colour covering this share of the patch names it even on a white or grey background


def _name(h: int, s: int, v: int) -> str:
    if v < 30:
        return "黑色"
    if s < 45:
        return "黑色" if v < 50 else "白色" if v > 200 else "灰色"
    hue = next(name for limit, name in _HUES if h < limit)
    return "深" + hue if v < 100 else hue


def region_colour(image: Image.Image, point: tuple[int, int], radius: int | None = None) -> str | None:
    """The dominant colour name of a small square around ``point`` (default half-side: 2.5% of the shorter
    side, at least 6 px): the most common saturated colour when it covers a fifth of the patch, else the most
    common colour. None for an empty patch."""
    w, h = image.size
    r = radius if radius is not None else max(6, round(0.025 * min(w, h)))
    x, y = point
    box = (max(0, x - r), max(0, y - r), min(w, x + r + 1), min(h, y + r + 1))
    if box[0] >= box[2] or box[1] >= box[3]:
        return None
    patch = image.crop(box).convert("RGB")
    patch.thumbnail((24, 24))
    hsv = patch.convert("HSV").tobytes()
    names = Counter(_name(*px) for px in zip(hsv[0::3], hsv[1::3], hsv[2::3]))
    total = sum(names.values())
    chromatic = [(n, c) for n, c in names.most_common() if n not in ("黑色", "白色", "灰色") and not n.startswith("深")]
    if chromatic and chromatic[0][1] >= CHROMATIC_SHARE * total:
        return chromatic[0][0]
    return names.most_common(1)[0][0]


def colour_at(data: bytes, point: tuple[int, int]) -> str | None:
    """:func:`region_colour` of an encoded frame; None when the bytes do not decode."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            return region_colour(image, point)
    except (OSError, ValueError, Image.DecompressionBombError):
        return None
