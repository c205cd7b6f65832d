"""Annotator images for the LLM: the stored (mark-free) screenshot with the action drawn on it, optionally
downscaled, encoded as a base64 data URL.

>>> from PIL import Image
>>> url = data_url(Image.new("RGB", (8, 8), "white"), "png")
>>> url.startswith("data:image/png;base64,")
True
"""
from __future__ import annotations

import base64
import io
from pathlib import Path

from PIL import Image

from ..model import Step
from ..overlay.draw import annotator_image


def encode(image: Image.Image, fmt: str = "jpeg", quality: int = 90) -> bytes:
    out = io.BytesIO()
    if fmt == "png":
        image.save(out, format="PNG", compress_level=3)
    elif fmt == "jpeg":
        image.convert("RGB").save(out, format="JPEG", quality=quality)
    else:
        raise ValueError(f"image format must be png or jpeg, not {fmt!r}")
    return out.getvalue()


def data_url(image: Image.Image, fmt: str = "jpeg") -> str:
    return to_data_url(encode(image, fmt), fmt)


def annotator_bytes(run_dir: Path, step: Step, max_side: int | None = None, fmt: str = "jpeg") -> bytes:
    """The encoded annotator image of ``step`` (marks drawn on the run's clean screenshot)."""
    with Image.open(run_dir / step.screenshot.path) as shot:
        marked = annotator_image(shot.convert("RGB"), step.action)
    if max_side and max(marked.size) > max_side:
        scale = max_side / max(marked.size)
        marked = marked.resize((max(1, round(marked.width * scale)), max(1, round(marked.height * scale))),
                               Image.Resampling.LANCZOS)
    return encode(marked, fmt)


def to_data_url(data: bytes, fmt: str = "jpeg") -> str:
    mime = "image/png" if fmt == "png" else "image/jpeg"
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
