"""Text elements for screens without an accessibility tree, read by OCR (the optional ``ocr`` extra).

:func:`ocr_elements` turns a screenshot into :class:`~sftdata.model.Element` text lines (``"ocr"`` in their
flags), cached per image digest in the run directory; the annotated loader calls it when a source asks for it.
"""
from .elements import MIN_SCORE, ocr_elements
from .engine import OcrLine, ocr_available, read_lines

__all__ = ["MIN_SCORE", "OcrLine", "ocr_available", "ocr_elements", "read_lines"]
