"""Annotator overlays: draw seed-002 marks (:mod:`.draw`), find them again (:mod:`.detect`), remove them (:mod:`.restore`)."""
from .detect import ArrowDetection, Detection, Marks, detect_marks, mark_mask
from .draw import MarkStyle, action_label, annotator_image
from .fonts import FontMissingError, find_cjk_font, load_font
from .restore import remove_marks

__all__ = [
    "ArrowDetection", "Detection", "FontMissingError", "MarkStyle", "Marks", "action_label",
    "annotator_image", "detect_marks", "find_cjk_font", "load_font", "mark_mask", "remove_marks",
]
