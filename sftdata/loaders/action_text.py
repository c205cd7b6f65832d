"""Annotators' actions, as people type them, -> :class:`RawAction` (coordinates still as written).

Seed 002's text form, with any spacing and case, and the system keys AndroidControl adds::

    CLICK [x,y]    LONG PRESS [x,y]    SWIPE [x1,y1] to [x2,y2]    INPUT <text>    OPEN APP <name>
    BACK    HOME    WAIT    DONE

Coordinates may be omitted from CLICK / LONG PRESS / SWIPE when the frame carries the annotator's marks
(they are then recovered from the marks); a SWIPE may name a direction instead (``SWIPE UP``). Actions may also
be JSON objects: ``{"type": "click", "point": [x, y]}``, ``{"type": "swipe", "start": [..], "end": [..]}``,
``{"type": "input", "text": ".."}``, ``{"type": "open_app", "app": ".."}``.

>>> parse_action("click [102, 211]")
RawAction(type='click', point=(102.0, 211.0), end=None, text=None, app=None, direction=None)
>>> parse_action("SWIPE [500,708] to [500,375]").end
(500.0, 375.0)
>>> parse_action("INPUT 蓝牙耳机").text
'蓝牙耳机'
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..errors import RecordError
from ..model import DIRECTIONS

_NUM = r"[-+]?\d+(?:\.\d+)?"
_PAIR = rf"[\[(（]?\s*({_NUM})\s*[,，\s]\s*({_NUM})\s*[\])）]?"
_KEYWORDS = [  # (canonical type, pattern of the keyword at the start of the line)
    ("long_press", r"long[\s_-]*press"),
    ("open_app", r"open[\s_-]*app"),
    ("click", r"click|tap"),
    ("scroll", r"scroll"),
    ("swipe", r"swipe"),
    ("input", r"input|type"),
    ("back", r"(?:press[\s_-]*)?back|navigate[\s_-]*back"),
    ("home", r"(?:press[\s_-]*)?home|navigate[\s_-]*home"),
    ("wait", r"wait"),
    ("done", r"done|finish(?:ed)?"),
]
_KEYWORD_RE = [(kind, re.compile(rf"^\s*(?:{pat})(?![a-z_])", re.IGNORECASE)) for kind, pat in _KEYWORDS]
_QUOTES = [('"', '"'), ("'", "'"), ("“", "”"), ("‘", "’"), ("「", "」"), ("<", ">"), ("`", "`")]


@dataclass(frozen=True)
class RawAction:
    """An action as annotated: coordinates in the units the annotator used (0..1000 unless told otherwise)."""

    type: str
    point: tuple[float, float] | None = None
    end: tuple[float, float] | None = None
    text: str | None = None
    app: str | None = None
    direction: str | None = None


def _unquote(text: str) -> str:
    for left, right in _QUOTES:
        if len(text) >= 2 and text.startswith(left) and text.endswith(right):
            return text[1:-1]
    return text


def _pairs(rest: str) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in re.findall(_PAIR, rest)]


def parse_action(value: Any) -> RawAction:
    """Parse one annotated action (text or JSON object); raises RecordError(``bad_action``) when it can't."""
    if isinstance(value, dict):
        return _from_object(value)
    if not isinstance(value, str) or not value.strip():
        raise RecordError("bad_action", f"an action must be a non-empty string or an object, got {value!r}")
    line = value.strip()
    for kind, pattern in _KEYWORD_RE:
        m = pattern.match(line)
        if not m:
            continue
        rest = line[m.end():].strip()
        if kind == "scroll":
            raise RecordError("bad_action", f"{value!r}: SCROLL is ambiguous (content or finger direction?); "
                              "write SWIPE with the finger's direction or coordinates")
        if kind in ("back", "home", "wait", "done"):
            if rest.strip(" .。!！"):
                raise RecordError("bad_action", f"{kind.upper()} takes no argument: {value!r}")
            return RawAction(kind)
        if kind == "input":
            rest = rest[1:].strip() if rest[:1] in (":", "：") else rest
            return RawAction("input", text=_unquote(rest))
        if kind == "open_app":
            name = _unquote(rest.lstrip(":： ").strip())
            if not name:
                raise RecordError("bad_action", f"OPEN APP needs an app name: {value!r}")
            return RawAction("open_app", app=name)
        pairs = _pairs(rest)
        if kind in ("click", "long_press"):
            if len(pairs) > 1 or (not pairs and rest):
                raise RecordError("bad_action", f"{kind.upper().replace('_', ' ')} takes one [x,y]: {value!r}")
            return RawAction(kind, point=pairs[0] if pairs else None)
        # swipe
        if len(pairs) == 2:
            return RawAction("swipe", point=pairs[0], end=pairs[1])
        word = rest.lower().strip(" .")
        if not pairs and word in DIRECTIONS:
            return RawAction("swipe", direction=word)
        if not pairs and not rest:
            return RawAction("swipe")
        raise RecordError("bad_action", f"SWIPE takes [x1,y1] to [x2,y2] (or a direction): {value!r}")
    raise RecordError("bad_action", f"unknown action {value!r} (expected CLICK, LONG PRESS, SWIPE, INPUT, "
                      "OPEN APP, BACK, HOME, WAIT or DONE)")


def _xy(value: Any, what: str) -> tuple[float, float] | None:
    if value is None:
        return None
    if (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)):
        return (float(value[0]), float(value[1]))
    raise RecordError("bad_action", f"{what} must be [x, y] numbers, got {value!r}")


def _from_object(obj: dict[str, Any]) -> RawAction:
    kind = str(obj.get("type") or obj.get("action_type") or "").lower().replace(" ", "_")
    kind = {"long_click": "long_press", "tap": "click", "type": "input", "input_text": "input",
            "navigate_back": "back", "navigate_home": "home", "finish": "done"}.get(kind, kind)
    if kind not in ("click", "long_press", "swipe", "input", "open_app", "back", "home", "wait", "done"):
        raise RecordError("bad_action", f"unknown action type in {obj!r}")
    point = _xy(obj.get("point", obj.get("start")), "point")
    if point is None and "x" in obj and "y" in obj:
        point = _xy([obj["x"], obj["y"]], "x/y")
    end = _xy(obj.get("end"), "end")
    direction = obj.get("direction")
    if direction is not None and str(direction).lower() not in DIRECTIONS:
        raise RecordError("bad_action", f"direction must be one of {DIRECTIONS}, got {direction!r}")
    text = obj.get("text")
    if kind == "input" and not isinstance(text, str):
        raise RecordError("bad_action", f"an input action needs a text string: {obj!r}")
    app = obj.get("app", obj.get("app_name"))
    if kind == "open_app" and not (isinstance(app, str) and app.strip()):
        raise RecordError("bad_action", f"an open_app action needs an app name: {obj!r}")
    if kind == "swipe" and (point is None) != (end is None):
        raise RecordError("bad_action", f"a swipe needs both start and end, or neither: {obj!r}")
    return RawAction(kind, point=point, end=end, text=text if kind == "input" else None,
                     app=app.strip() if kind == "open_app" else None,
                     direction=str(direction).lower() if direction else None)
