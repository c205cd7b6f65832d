"""The canonical action of one annotated step: the coordinates task.json gives, cross-checked against the
annotator's marks on the frame or recovered from them.

- CLICK / LONG PRESS (and the web's TYPE / SELECT) without coordinates take the circle's centre;
- SWIPE without coordinates takes the arrow (start to end: the finger's path); a SWIPE that names only a
  direction (``SWIPE UP``, ``{"type": "swipe", "direction": "up"}``) and has no arrow gets the documented default
  geometry of a direction-only scroll, the same function AndroidControl's scrolls use
  (:func:`.a11y.scroll_gesture`): from the centre of the largest visible scrollable element (annotated frames have
  no tree: the screen's centre), a third of its extent in the finger's direction;
- a mark off the given coordinates beyond the tolerance is ``mark_mismatch``; when the coordinates match the marks
  once read as pixels (or only make sense as pixels: values over 1000), the detail says to add
  ``"coordinates": "pixels"`` to task.json.

>>> from PIL import Image
>>> raw = RawAction("swipe", direction="up")
>>> resolve_action(raw, 0, Image.new("RGB", (1080, 2400)), None, "relative", 40.0)[0].end
(540, 400)
"""
from __future__ import annotations

import math
from typing import Any

from PIL import Image

from ..errors import RecordError
from ..geometry import RELATIVE_MAX
from ..model import Action, finger_direction, from_relative
from .a11y import scroll_gesture
from .action_text import RawAction
from .web_task import scroll_from_arrow

PIXELS_HINT = 'add "coordinates": "pixels" to task.json'


def _to_pixels(xy: tuple[float, float], width: int, height: int, unit: str) -> tuple[int, int]:
    if unit == "relative":
        if not all(0 <= v <= RELATIVE_MAX for v in xy):
            hint = (f": these look like pixels of the {width}x{height} frame, {PIXELS_HINT}"
                    if all(0 <= v for v in xy) and xy[0] < width and xy[1] < height else "")
            raise RecordError("point_outside_screen", f"{list(xy)} is outside the 0..{RELATIVE_MAX} range of relative "
                              f"coordinates{hint}")
        return from_relative(xy, width, height)
    x, y = round(xy[0]), round(xy[1])
    if not (0 <= x < width and 0 <= y < height):
        raise RecordError("point_outside_screen", f"({x}, {y}) is outside the {width}x{height} frame")
    return (x, y)


def _check(given: tuple[int, int], found: tuple[int, int], tolerance: float, what: str, i: int) -> None:
    distance = math.dist(given, found)
    if distance > tolerance:
        raise RecordError("mark_mismatch", f"step {i + 1}: task.json {what} {list(given)} but the mark is at "
                          f"{list(found)} ({distance:.0f} px apart, tolerance {tolerance:.0f} px)")


def _pixels_instead(written: list, found: list, tolerance: float, i: int) -> None:
    """``mark_mismatch`` that says what to do, when coordinates written as 0..1000 land on the marks only once
    read as pixels (``written`` and ``found``: pairs of points as written and as detected)."""
    if all(math.dist(_px(w), _px(f)) <= tolerance for w, f in zip(written, found)):
        shown = " to ".join(str([round(v) for v in w]) for w in written)
        raise RecordError("mark_mismatch", f"step {i + 1}: task.json {shown} is off the marks as 0..{RELATIVE_MAX} "
                          f"relative coordinates but on them as pixels: {PIXELS_HINT}")


def _px(point) -> tuple[int, int]:
    """A detected mark position as whole pixels."""
    return (int(round(point[0])), int(round(point[1])))


def _candidates(marks, kind: str) -> tuple:
    """Every detected circle / arrow, most confident first (a hand-built Marks may only have the best one)."""
    many, best = (marks.circles, marks.circle) if kind == "circle" else (marks.arrows, marks.arrow)
    return tuple(many) or ((best,) if best is not None else ())


def resolve_action(raw: RawAction, i: int, image: Image.Image, marks, unit: str, tolerance: float,
                   *, trust: bool = True) -> tuple[Action, Any]:
    """Canonical action for step ``i`` and the detected marks that belong to it.

    Coordinates come from task.json, cross-checked against (or recovered from) ``marks`` (None when the frame
    is not searched). Of several detected circles / arrows the one nearest the given point(s) is the
    annotator's (an app's red ring icon elsewhere is not). ``trust``: task.json says the frames are marked, so
    a mark that disagrees with the coordinates is ``mark_mismatch``; otherwise it is taken for the app's own
    red and ignored, and only a circle next to a label can stand in for omitted coordinates.

    Returns ``(action, own)``: ``own`` is ``Marks`` holding the label and only the circle / arrow that matched
    the action (None when ``marks`` is None)."""
    w, h = image.size
    point = _to_pixels(raw.point, w, h, unit) if raw.point is not None else None
    end = _to_pixels(raw.end, w, h, unit) if raw.end is not None else None
    circle = arrow = None
    usable = marks is not None and (trust or marks.label_band is not None)  # may stand in for coordinates
    direction = raw.direction
    if raw.type in ("click", "long_press", "type", "select"):
        cands = _candidates(marks, "circle") if marks is not None else ()
        if point is None:
            if not cands or not usable:
                raise RecordError("missing_coordinates" if marks is None or not usable else "mark_not_found",
                                  f"step {i + 1}: {raw.type} has no coordinates and no circle mark to recover them from")
            circle = cands[0]
            point = _px(circle.point)
        elif cands:
            circle = min(cands, key=lambda c: math.dist(point, _px(c.point)))
            if math.dist(point, _px(circle.point)) > tolerance:
                if usable and unit == "relative":
                    nearest = min(cands, key=lambda c: math.dist(_px(raw.point), _px(c.point)))
                    _pixels_instead([raw.point], [nearest.point], tolerance, i)
                if trust:
                    _check(point, _px(circle.point), tolerance, "point", i)
                circle = None
    elif raw.type == "swipe":
        cands = _candidates(marks, "arrow") if marks is not None else ()
        if point is None and cands and usable:
            arrow = cands[0]
            point, end = _px(arrow.start), _px(arrow.end)
        elif point is None and raw.direction:  # no arrow to take it from: the documented default geometry
            point, end = scroll_gesture((), w, h, raw.direction)
        elif point is None:
            raise RecordError("missing_coordinates" if marks is None or not usable else "mark_not_found",
                              f"step {i + 1}: swipe has no coordinates, no direction and no arrow mark to recover "
                              "them from")
        elif cands:
            arrow = min(cands, key=lambda a: math.dist(point, _px(a.start)) + math.dist(end, _px(a.end)))
            if max(math.dist(point, _px(arrow.start)), math.dist(end, _px(arrow.end))) > tolerance:
                if usable and unit == "relative":
                    nearest = min(cands, key=lambda a: math.dist(_px(raw.point), _px(a.start))
                                  + math.dist(_px(raw.end), _px(a.end)))
                    _pixels_instead([raw.point, raw.end], [nearest.start, nearest.end], tolerance, i)
                if trust:
                    _check(point, _px(arrow.start), tolerance, "swipe start", i)
                    _check(end, _px(arrow.end), tolerance, "swipe end", i)
                arrow = None
        if point == end:
            raise RecordError("bad_action", f"step {i + 1}: swipe starts and ends at {list(point)}")
        if raw.direction and finger_direction(point, end) != raw.direction:
            raise RecordError("mark_mismatch", f"step {i + 1}: SWIPE {raw.direction.upper()} but the arrow goes "
                              f"{finger_direction(point, end)}")
        direction = None  # derived from the points
    elif raw.type == "scroll":  # web: the arrow is the drag, the view moves the other way
        cands = _candidates(marks, "arrow") if usable else ()
        direction, arrow = scroll_from_arrow(raw.direction, cands, trust, i)
        if direction is None:
            raise RecordError("missing_direction" if not usable else "mark_not_found",
                              f"step {i + 1}: scroll has no direction and no arrow mark to take it from")
        point = _px(((arrow.start[0] + arrow.end[0]) / 2, (arrow.start[1] + arrow.end[1]) / 2)) if arrow else None
    own = None if marks is None else type(marks)(circle, arrow, marks.label_band, marks.label_box)
    return Action(raw.type, point=point, end=end, text=raw.text, app=raw.app, direction=direction,
                  url=raw.url), own
