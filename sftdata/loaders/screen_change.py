"""Did the screen change after an action? Two screenshots -> a change score, and the ineffective-step flag.

Both frames are reduced to a small grayscale grid (a box average over cells of about 1/64 of the width),
the status bar band (top :data:`STATUS_BAR` of the height: clock, battery, notification icons) is left out,
and the score is the share of cells whose mean gray level moved by more than :data:`CELL_TOLERANCE`.
Averaging over a cell absorbs re-encoding and antialiasing noise; a change as small as a blinking text
cursor moves only a few cells.

Measured on the real fixture frames (``python benchmarks/screen_change.py``; 1080x2400 screenshots, status
bar icons on rows 51-86, the first app content at row 136, so the band is the top 5% = 120 px). Changed
pairs are every consecutive pair of the AndroidControl fixtures and of the annotated fixtures' stored (clean or
restored) frames, each checked by eye (the ``wait`` step too: splash screen -> app); unchanged pairs are
derived from each of the 22 real frames:

=====================================  =====  =======================  ===========
pairs                                  count  score min / median / max  ineffective
=====================================  =====  =======================  ===========
changed: consecutive real frames          16  0.0284 / 0.8083 / 0.9854         0
unchanged: re-encoded PNG                 22  0      / 0      / 0             22
unchanged: JPEG q=85                      22  0      / 0      / 0             22
unchanged: antialiasing (resample)        22  0      / 0      / 0             22
unchanged: status bar repainted           22  0      / 0      / 0             22
unchanged: blinking text cursor           22  0.0001 / 0.0004 / 0.0004        22
hard positive: 24 dp checkbox ticked      22  0.0007 / 0.0020 / 0.0021         2
=====================================  =====  =======================  ===========

Noise moves a cell's mean by at most 5 gray levels (JPEG 3, resampling 5) against the tolerance of 12.
:data:`INEFFECTIVE_BELOW` = 0.001 sits 2.4x above the largest unchanged score (a cursor) and 28x below the
smallest real change (a tab switch on a mostly white page). A change as small as one 24 dp checkbox is at the
limit: it counts as a change unless its colour is close to the background's (the 2 misses: blue on blue). A
settings switch flipped in the synthetic sample scores 0.004.
Speed: a 1080x2400 PNG is decoded for its grid with libspng (``pyspng``: 28 ms median on the fixture frames,
against 45 ms with Pillow; feeding either a zlib-ng-inflated IDAT re-wrapped as stored blocks was slower, 40 ms,
because of the extra 10 MB copies), 2-4 ms to grid a decoded image. Ingest decodes only the pairs the cheaper
signals leave open (:mod:`.screen_signals`).

>>> from PIL import Image
>>> a = Image.new("RGB", (270, 600), "white")
>>> b = a.copy(); b.paste((0, 0, 0), (0, 0, 270, 20))   # only the status bar differs
>>> screen_change(a, b), is_ineffective(screen_change(a, b))
(0.0, True)
>>> b.paste((0, 0, 0), (0, 300, 270, 600))              # half the screen goes dark
>>> round(screen_change(a, b), 2), is_ineffective(screen_change(a, b))
(0.53, False)
"""
from __future__ import annotations

import io
import struct
from typing import Sequence, Union

import numpy as np
import pyspng
from PIL import Image
from zlib_ng import zlib_ng

STATUS_BAR = 0.05  # share of the height at the top that is ignored (clock, battery, notification icons)
GRID_COLUMNS = 64  # about this many cells across the width (the reduce factor is width // GRID_COLUMNS)
CELL_TOLERANCE = 12.0  # gray levels (0..255) a cell's mean must move to count as changed
INEFFECTIVE_BELOW = 0.001  # a score under this: the screen did not change

Frame = Union[Image.Image, bytes, np.ndarray]


def screen_grid(frame: Image.Image | bytes) -> np.ndarray:
    """The frame as a grid of cell mean gray levels below the status bar (float32, rows x columns).

    Accepts a PIL image or encoded image bytes (decoded once, at reduced size for JPEG).

    >>> screen_grid(Image.new("RGB", (1080, 2400), "white")).shape
    (142, 68)
    """
    if isinstance(frame, (bytes, bytearray, memoryview)):
        if _spng_decodes(frame) and png_intact(frame):  # Pillow's pixels, in about 60% of its time
            return screen_grid(Image.fromarray(pyspng.load(bytes(frame))))
        with Image.open(io.BytesIO(frame)) as im:
            im.draft("L", (max(1, im.width // 8), max(1, im.height // 8)))  # JPEG: decode at 1/8 (no-op for PNG)
            return screen_grid(im.convert("L"))
    gray = frame if frame.mode == "L" else frame.convert("L")
    factor = max(1, gray.width // GRID_COLUMNS)
    small = np.asarray(gray.reduce(factor) if factor > 1 else gray, dtype=np.float32)
    return small[int(round(small.shape[0] * STATUS_BAR)):]


def _spng_decodes(data: bytes | bytearray | memoryview) -> bool:
    """An 8-bit gray, gray+alpha, RGB or RGBA PNG: libspng gives Pillow's pixels (16-bit and palette files go to
    Pillow, which reduces and expands them its own way, and so does a file that is not :func:`png_intact`:
    Pillow reads past a wrong IDAT CRC where libspng stops)."""
    return len(data) > 26 and bytes(data[:8]) == b"\x89PNG\r\n\x1a\n" and data[24] == 8 and data[25] in (0, 2, 4, 6)


def png_intact(data: bytes) -> bool:
    """True when ``data`` is a PNG whose chunks are all whole, CRCs included, up to IEND (zlib-ng's CRC-32: about
    0.05 ms for a 2 MB screenshot). Ingest decodes a frame that is not intact, so a broken file is never called
    unchanged or changed on its hash or its tree alone (:mod:`.screen_signals`).

    >>> png_intact(b"\\x89PNG\\r\\n\\x1a\\n" + bytes(4))
    False
    """
    view = memoryview(data)
    if bytes(view[:8]) != b"\x89PNG\r\n\x1a\n":
        return False
    pos, end = 8, len(data)
    while pos + 12 <= end:
        (length,) = struct.unpack_from(">I", data, pos)
        stop = pos + 8 + length
        if stop + 4 > end:
            return False
        (crc,) = struct.unpack_from(">I", data, stop)
        if zlib_ng.crc32(view[pos + 8:stop], zlib_ng.crc32(view[pos + 4:pos + 8])) != crc:
            return False
        if bytes(view[pos + 4:pos + 8]) == b"IEND":
            return True
        pos = stop + 4
    return False


def grid_or_none(frame: Image.Image | bytes) -> np.ndarray | None:
    """:func:`screen_grid`, or None when the frame cannot be decoded (its pairs are then left unmarked).

    >>> grid_or_none(b"not an image") is None
    True
    """
    try:
        return screen_grid(frame)
    except Exception:  # PIL raises many kinds for broken files; the loaders' own checks report them
        return None


def screen_change(before: Frame, after: Frame) -> float:
    """Share (0..1) of the screen below the status bar that changed between two frames.

    ``before`` / ``after``: PIL images, encoded image bytes, or grids from :func:`screen_grid` (compute each
    frame's grid once when a frame is compared twice). Grids of different shapes (another aspect ratio, a
    rotated screen) count as fully changed.

    >>> white = Image.new("RGB", (540, 1200), "white")
    >>> screen_change(white, white.copy())
    0.0
    """
    a = before if isinstance(before, np.ndarray) else screen_grid(before)
    b = after if isinstance(after, np.ndarray) else screen_grid(after)
    if a.shape != b.shape or a.size == 0:
        return 1.0
    return float(np.count_nonzero(np.abs(a - b) > CELL_TOLERANCE)) / a.size


def is_ineffective(score: float) -> bool:
    """True when a :func:`screen_change` score means the action changed nothing on the screen.

    >>> is_ineffective(0.0005), is_ineffective(0.2)
    (True, False)
    """
    return score < INEFFECTIVE_BELOW


def mark_steps(steps: Sequence, grids: Sequence[np.ndarray | None]) -> None:
    """Set ``meta["screen_change"]`` and ``meta["ineffective"]`` on every step that has a following frame.

    ``grids[i]`` is step ``i``'s frame grid (None: unknown, the pair is skipped); the last step has no
    following frame and gets neither key.
    """
    for step, before, after in zip(steps, grids, grids[1:]):
        if before is None or after is None:
            continue
        score = screen_change(before, after)
        step.meta["screen_change"] = round(score, 4)
        step.meta["ineffective"] = is_ineffective(score)
