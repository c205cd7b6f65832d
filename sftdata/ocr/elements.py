"""OCR text lines as screen elements, cached per image digest in the run directory.

A line becomes an :class:`~sftdata.model.Element` with its box in the image's pixels, its text, the class name
``ocr.TextLine`` and the flags ``visible`` and ``ocr``; lines under :data:`MIN_SCORE` and lines that overlap an
``exclude`` box (the annotator's label band) are left out. ``cache_dir`` holds ``<aa>/<digest>.json`` with every
line the engine read, written atomically, so a re-run or a resumed run never reads a frame twice.

>>> from sftdata.ocr.engine import OcrLine
>>> _to_elements([OcrLine((10, 5, 90, 40), "CLICK [500,500]", 0.99), OcrLine((10, 300, 200, 340), "设置", 0.97),
...               OcrLine((10, 400, 200, 440), "x", 0.31)], exclude=[(0, 0, 1080, 60)], start_index=3)
[Element(index=3, bounds=(10, 300, 200, 340), text='设置', desc='', hint='', class_name='ocr.TextLine', resource_id='', package='', flags=('visible', 'ocr'), depth=0, window=0, tag='', attrs=())]
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

from ..io import atomic_path
from ..model import Element
from .engine import OcrLine, read_lines

MIN_SCORE = 0.6  # below it, lines on the fixture frames were mostly fragments of icons and photos
CLASS_NAME = "ocr.TextLine"


def _overlaps(box: tuple[int, int, int, int], other: tuple[int, int, int, int]) -> bool:
    return box[0] < other[2] and other[0] < box[2] and box[1] < other[3] and other[1] < box[3]


def _to_elements(lines: Sequence[OcrLine], *, exclude: Sequence[tuple[int, int, int, int]] = (),
                 start_index: int = 0) -> list[Element]:
    out: list[Element] = []
    for line in lines:
        if line.score < MIN_SCORE or not line.text or any(_overlaps(line.box, box) for box in exclude):
            continue
        out.append(Element(start_index + len(out), line.box, text=line.text, class_name=CLASS_NAME,
                           flags=("visible", "ocr")))
    return out


def _cached_lines(image_bytes: bytes, digest: str, cache_dir: Path | None) -> list[OcrLine]:
    path = cache_dir / digest[:2] / f"{digest}.json" if cache_dir is not None else None
    if path is not None and path.is_file():
        try:
            rows = json.loads(path.read_text(encoding="utf-8"))
            return [OcrLine(tuple(r["box"]), r["text"], r["score"]) for r in rows]  # type: ignore[arg-type]
        except (ValueError, KeyError, TypeError):
            pass  # a damaged cache entry is read again
    lines = read_lines(image_bytes)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_path(path) as tmp:
            tmp.write_text(json.dumps([{"box": list(l.box), "text": l.text, "score": round(l.score, 4)}
                                       for l in lines], ensure_ascii=False), encoding="utf-8")
    return lines


def ocr_elements(image_bytes: bytes, digest: str, *, cache_dir: Path | None = None,
                 exclude: Sequence[tuple[int, int, int, int]] = (), start_index: int = 0) -> list[Element]:
    """The text lines of an encoded screenshot as elements (see the module docstring)."""
    return _to_elements(_cached_lines(image_bytes, digest, cache_dir), exclude=exclude, start_index=start_index)
