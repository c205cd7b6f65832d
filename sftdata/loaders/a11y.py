"""Accessibility forests (android_env's ``AndroidAccessibilityForest``) as flat element lists.

>>> from sftdata.model import Element
>>> els = [Element(0, (0, 0, 1080, 2400), flags=("visible",)), Element(1, (50, 400, 300, 600), text="Mobiles", flags=("visible", "clickable"))]
>>> smallest_containing(els, (110, 506)).text
'Mobiles'
"""
from __future__ import annotations

from typing import Iterable, Sequence

from google.protobuf.message import DecodeError

from ..errors import RecordError
from ..model import Element, Point
from .protos import AccessibilityForest

_FLAG_FIELDS = (
    ("clickable", "is_clickable"), ("long_clickable", "is_long_clickable"), ("editable", "is_editable"),
    ("scrollable", "is_scrollable"), ("checkable", "is_checkable"), ("checked", "is_checked"),
    ("focusable", "is_focusable"), ("focused", "is_focused"), ("selected", "is_selected"),
    ("enabled", "is_enabled"), ("visible", "is_visible_to_user"),
)


def decode_forest(data: bytes) -> list[Element]:
    """Serialized forest -> flat list of elements in window, then tree order; ``index`` is the position."""
    try:
        forest = AccessibilityForest.FromString(data)
    except DecodeError as exc:
        raise RecordError("bad_accessibility_tree", f"accessibility forest does not decode: {exc}") from None
    elements: list[Element] = []
    for window in forest.windows:
        for node in window.tree.nodes:
            b = node.bounds_in_screen
            elements.append(Element(
                index=len(elements), bounds=(b.left, b.top, b.right, b.bottom),
                text=node.text, desc=node.content_description, hint=node.hint_text,
                class_name=node.class_name, resource_id=node.view_id_resource_name, package=node.package_name,
                flags=tuple(name for name, attr in _FLAG_FIELDS if getattr(node, attr)),
                depth=node.depth, window=window.id,
            ))
    return elements


def _usable(e: Element) -> bool:
    return e.area > 0 and e.has("visible")


def smallest_containing(elements: Iterable[Element], point: Point) -> Element | None:
    """The visible element of least area whose bounds contain ``point`` (deeper wins a tie)."""
    best: Element | None = None
    for e in elements:
        if _usable(e) and e.contains(point):
            if best is None or (e.area, -e.depth) < (best.area, -best.depth):
                best = e
    return best


def largest_scrollable(elements: Sequence[Element], width: int, height: int) -> Element | None:
    """The visible scrollable element of greatest on-screen area, if any."""
    best: Element | None = None
    best_area = 0
    for e in elements:
        if not (_usable(e) and e.has("scrollable")):
            continue
        left, top, right, bottom = e.bounds
        area = max(0, min(right, width) - max(left, 0)) * max(0, min(bottom, height) - max(top, 0))
        if area > best_area:
            best, best_area = e, area
    return best


def scroll_gesture(elements: Sequence[Element], width: int, height: int, finger: str) -> tuple[Point, Point]:
    """Start and end of a finger swipe in direction ``finger`` for a scroll with no coordinates: from the
    centre of the largest visible scrollable element (else the screen centre), a third of its extent."""
    area = largest_scrollable(elements, width, height)
    if area is not None:
        left, top, right, bottom = (max(area.bounds[0], 0), max(area.bounds[1], 0),
                                    min(area.bounds[2], width), min(area.bounds[3], height))
    else:
        left, top, right, bottom = 0, 0, width, height
    cx, cy = (left + right) // 2, (top + bottom) // 2
    dx, dy = max(1, (right - left) // 3), max(1, (bottom - top) // 3)
    end = {"up": (cx, cy - dy), "down": (cx, cy + dy), "left": (cx - dx, cy), "right": (cx + dx, cy)}[finger]
    return (cx, cy), end
