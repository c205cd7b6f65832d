"""The OCR engine: RapidOCR on ONNX Runtime, whose detection and recognition models ship inside its wheel (no
download at run time). Created once per process, on first use; a missing extra is a clear error.

>>> OcrLine((0, 0, 10, 10), "设置", 0.98).text
'设置'
"""
from __future__ import annotations

import io
import threading
from dataclasses import dataclass

import numpy as np
from PIL import Image

from ..errors import FatalError, RecordError

INSTALL_HINT = ("OCR needs the optional ocr extra (rapidocr-onnxruntime): `make ocr` in the project, or "
                "pip install -e '.[ocr]'")
_ENGINE = None
_LOCK = threading.Lock()


@dataclass(frozen=True)
class OcrLine:
    """One recognised line: its axis-aligned box in image pixels, its text and the recogniser's confidence."""

    box: tuple[int, int, int, int]
    text: str
    score: float


def ocr_available() -> bool:
    """Whether the ``ocr`` extra is installed."""
    try:
        import rapidocr_onnxruntime  # noqa: F401
    except ImportError:
        return False
    return True


def _engine():
    global _ENGINE
    with _LOCK:
        if _ENGINE is None:
            try:
                from rapidocr_onnxruntime import RapidOCR
            except ImportError:
                raise FatalError(INSTALL_HINT) from None
            _ENGINE = RapidOCR()
        return _ENGINE


def read_lines(image_bytes: bytes) -> list[OcrLine]:
    """Every text line the engine finds in an encoded image, top to bottom; RecordError(``ocr_failed``) for a
    frame the engine cannot take."""
    with Image.open(io.BytesIO(image_bytes)) as decoded:
        rgb = np.asarray(decoded.convert("RGB"))
    engine = _engine()  # a missing extra stops the run (FatalError), outside the net below
    try:
        result, _elapsed = engine(rgb[:, :, ::-1].copy())  # the engine takes OpenCV's BGR order
    except Exception as exc:  # noqa: BLE001 - the engine raises its own kinds (ResizeImgError on extreme shapes)
        said = f": {exc}" if str(exc) else ""
        raise RecordError("ocr_failed", f"OCR cannot read this {rgb.shape[1]}x{rgb.shape[0]} frame "
                          f"({type(exc).__name__}{said}); ingest without --ocr, or crop the frame") from None
    lines = []
    for quad, text, score in result or []:
        xs, ys = [p[0] for p in quad], [p[1] for p in quad]
        box = (int(min(xs)), int(min(ys)), int(round(max(xs))), int(round(max(ys))))
        lines.append(OcrLine(box, str(text).strip(), float(score)))
    return sorted(lines, key=lambda line: (line.box[1], line.box[0]))
