"""Annotator overlays: draw seed-002 marks (:mod:`.draw`), find them again (:mod:`.detect`), remove them
(:mod:`.restore`).

Each name is imported from its module on first use: drawing marks (the annotate stage, its command's help) does not
load OpenCV, which only finding and removing them need.
"""
from importlib import import_module
from typing import Any

_EXPORTS = {"ArrowDetection": "detect", "Detection": "detect", "Marks": "detect", "detect_marks": "detect",
            "mark_mask": "detect", "MarkStyle": "draw", "action_label": "draw", "annotator_image": "draw",
            "FontMissingError": "fonts", "find_cjk_font": "fonts", "load_font": "fonts", "remove_marks": "restore"}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_EXPORTS[name]}"), name)
