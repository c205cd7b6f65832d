"""A small lossless PNG writer: every row filtered "Up" (its difference from the row above), one IDAT deflated
by zlib-ng at level 2.

Pillow's PNG encoder tries every filter on every row and keeps the best (adaptive filtering); on 1280x720 crops of
web pages that costs most of its time. One fixed filter, vectorised with numpy, and zlib-ng's fast levels write
the same pixels 5x faster, and on UI pages no larger than Pillow's level 1 (``python
benchmarks/mind2web_speed.py`` prints the comparison: PNG levels, lossless WebP, this writer).

>>> from PIL import Image
>>> import io
>>> image = Image.new("RGB", (3, 2), (10, 200, 30)); image.putpixel((1, 1), (255, 0, 7))
>>> again = Image.open(io.BytesIO(encode_png(image)))
>>> again.format, again.size, again.tobytes() == image.tobytes()
('PNG', (3, 2), True)
"""
from __future__ import annotations

import struct

import numpy as np
from PIL import Image
from zlib_ng import zlib_ng

SIGNATURE = b"\x89PNG\r\n\x1a\n"
COLOUR_TYPES = {"L": 0, "RGB": 2, "RGBA": 6}  # PNG colour type of each Pillow mode written as it is
UP = 2  # the PNG filter type written on every row
LEVEL = 2  # zlib-ng level: its fast levels; 2 keeps UI crops no larger than Pillow's level 1


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib_ng.crc32(body, zlib_ng.crc32(kind)))


def encode_png(image: Image.Image) -> bytes:
    """``image`` (mode L, RGB or RGBA; others are converted to RGB first) as PNG bytes, lossless."""
    if image.mode not in COLOUR_TYPES:
        image = image.convert("RGB")
    pixels = np.asarray(image, dtype=np.uint8)
    height, width = pixels.shape[:2]
    rows = pixels.reshape(height, -1)
    raw = np.empty((height, rows.shape[1] + 1), dtype=np.uint8)
    raw[:, 0] = UP
    raw[:1, 1:] = rows[:1]  # the first row's "row above" is zeros
    np.subtract(rows[1:], rows[:-1], out=raw[1:, 1:])  # uint8: wraps modulo 256, as the filter is defined
    header = struct.pack(">IIBBBBB", width, height, 8, COLOUR_TYPES[image.mode], 0, 0, 0)
    return b"".join((SIGNATURE, _chunk(b"IHDR", header), _chunk(b"IDAT", zlib_ng.compress(raw, LEVEL)),
                     _chunk(b"IEND", b"")))
