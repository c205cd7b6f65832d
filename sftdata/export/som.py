"""Set-of-marks screenshots (``export --som``): the listed elements' boxes, numbered with their indexes.

Seeds 000 and 003 promise "Bounding boxes with labels correspond to element indexes". For formats whose prompt
says so (``mobile-agent``, ``browser-use``), the current screenshot of each sample is replaced by a *derived*
copy: the original with one outlined box per listed element (:func:`sftdata.formats.elements.listed`, boxes clipped to the
screen) and its index in a filled tag at the box's top-left corner. The copy is a PNG named by the SHA-256 of
its bytes (the same screen and listing always give the same file), written atomically into the export; the
original in the run is only read. A screen with no listed element keeps its original. Earlier screenshots
(``--history-images``) stay the originals: the indexes belong to the current screen. Drawing uses Pillow's
built-in font, so the bytes do not depend on the machine's fonts.

>>> from PIL import Image
>>> import io
>>> buf = io.BytesIO(); Image.new("RGB", (200, 100), "white").save(buf, "PNG")
>>> marked = Image.open(io.BytesIO(draw_boxes(buf.getvalue(), [(10, 10, 90, 60)])))
>>> marked.size, marked.getpixel((10, 35)) != (255, 255, 255), marked.getpixel((150, 80))
((200, 100), True, (255, 255, 255))
"""
from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass
from pathlib import Path

from ..errors import RecordError
from ..formats.elements import listed
from ..model import Step
from .samples import Sample, image_name

# distinct, saturated colours that stay readable with white digits on them
PALETTE = ((230, 25, 75), (60, 120, 216), (0, 150, 80), (245, 130, 48), (145, 30, 180), (0, 140, 160),
           (200, 30, 200), (128, 96, 0), (0, 0, 128), (128, 0, 0))


@dataclass(frozen=True)
class Derived:
    """A derived screenshot: its file name in the export, its bytes, and the original it was drawn on."""

    name: str
    data: bytes
    original: str  # the original's path in the run (its image store)
    original_name: str  # the original's content-addressed name, as an export names it

    def describe(self, boxes: int) -> dict:
        return {"original": self.original_name, "original_path": self.original, "kind": "som", "boxes": boxes}


def draw_boxes(image: bytes, boxes: list[tuple[int, int, int, int]]) -> bytes:
    """PNG bytes of ``image`` with ``boxes`` outlined and numbered 0..n-1 (see the module docstring)."""
    from PIL import Image, ImageDraw, ImageFont  # here: an export without --som never loads Pillow

    with Image.open(io.BytesIO(image)) as opened:
        canvas = opened.convert("RGB")
    width = canvas.width
    line = max(2, width // 360)
    font = ImageFont.load_default(max(12, width // 40))
    pen = ImageDraw.Draw(canvas)
    for i, (left, top, right, bottom) in enumerate(boxes):
        colour = PALETTE[i % len(PALETTE)]
        pen.rectangle((left, top, right - 1, bottom - 1), outline=colour, width=line)
        text = str(i)
        x0, y0, x1, y1 = pen.textbbox((0, 0), text, font=font)
        pad = max(2, line)
        tag_w, tag_h = x1 - x0 + 2 * pad, y1 - y0 + 2 * pad
        tx, ty = min(left, max(0, canvas.width - tag_w)), min(top, max(0, canvas.height - tag_h))
        pen.rectangle((tx, ty, tx + tag_w - 1, ty + tag_h - 1), fill=colour)
        pen.text((tx + pad - x0, ty + pad - y0), text, fill=(255, 255, 255), font=font)
    out = io.BytesIO()
    canvas.save(out, "PNG", compress_level=1)  # fast; a derived copy is about as large as the original
    return out.getvalue()


def derive(run: Path, step: Step) -> tuple[Derived, int] | None:
    """The set-of-marks copy of ``step``'s screenshot and how many boxes it carries (None when no element is
    listed: the sample keeps the original); an unreadable original is the sample's ``unreadable_image``."""
    from PIL import Image

    boxes = [item.bounds for item in listed(step)]
    if not boxes:
        return None
    try:
        data = draw_boxes((run / step.screenshot.path).read_bytes(), boxes)
    except (OSError, ValueError, Image.DecompressionBombError) as exc:
        raise RecordError("unreadable_image", f"{step.screenshot.path}: {exc}") from None
    name = hashlib.sha256(data).hexdigest() + ".png"
    return Derived(name, data, step.screenshot.path, image_name(step)), len(boxes)


def point_to(sample: Sample, derived: Derived, image_prefix: str) -> None:
    """Make ``sample`` show ``derived`` instead of its current (last) screenshot."""
    sample.record["images"][-1] = f"{image_prefix}{derived.name}"


def supports(fmt) -> bool:
    """Does ``fmt``'s prompt promise numbered boxes on the screenshot (seed 000's mobile-agent, seed 003's
    browser-use)?"""
    return bool(getattr(fmt, "som", False))
