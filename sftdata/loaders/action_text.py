"""Annotators' actions, as people type them, -> :class:`RawAction` (coordinates still as written).

Seed 002's text form, with any spacing and case, and the system keys AndroidControl adds::

    CLICK [x,y]    LONG PRESS [x,y]    SWIPE [x1,y1] to [x2,y2]    INPUT <text>    OPEN APP <name>
    BACK    HOME    WAIT    DONE

Coordinates may be omitted from CLICK / LONG PRESS / SWIPE when the frame carries the annotator's marks
(they are then recovered from the marks); a SWIPE may name a direction instead (``SWIPE UP``). Actions may also
be JSON objects: ``{"type": "click", "point": [x, y]}``, ``{"type": "swipe", "start": [..], "end": [..]}``,
``{"type": "input", "text": ".."}``, ``{"type": "open_app", "app": ".."}``.

Web pages have their own vocabulary (TYPE, SELECT, SCROLL, GO TO URL, NEW TAB; Chinese labels too): see
:mod:`.web_actions`.

>>> parse_action("click [102, 211]")
RawAction(type='click', point=(102.0, 211.0), end=None, text=None, app=None, direction=None, url=None)
>>> parse_action("SWIPE [500,708] to [500,375]").end
(500.0, 375.0)
>>> parse_action("INPUT 蓝牙耳机").text
'蓝牙耳机'
>>> parse_action("CLICK [500,500].").point
(500.0, 500.0)
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Iterator

from ..errors import RecordError
from ..model import DIRECTIONS
from ..values import goal_of, loads_strict
from .web_task import check_web_fields

MAX_COORDINATE = 1_000_000  # far beyond any screen, in pixels or 0..1000 units

_NUM = r"[-+]?\d+(?:\.\d+)?"
# possessive and atomic throughout: linear time on any input (no backtracking over where spaces go)
_ATOM = r"[-+]?+\d++(?:\.\d++)?+"
_INNER = rf"{_ATOM}(?:\s*+[,，]\s*+|\s++){_ATOM}"
PAIR = rf"(?>[\[(（]\s*+{_INNER}\s*+[\])）]|{_INNER})"  # [x,y], (x,y) or bare x,y: brackets balanced
_POINTS = re.compile(rf"\s*+{PAIR}(?:\s*+(?:(?:to|->|→|,|，)\s*+)?+{PAIR})*+\s*+", re.IGNORECASE)
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
    direction: str | None = None  # swipe: the finger's; web scroll: where the view moves
    url: str | None = None  # web: go_to_url / new_tab


def unquote(text: str) -> str:
    for left, right in _QUOTES:
        if len(text) >= 2 and text.startswith(left) and text.endswith(right):
            return text[1:-1]
    return text


def _finite(value: float, written: Any) -> float:
    if not math.isfinite(value):
        raise RecordError("bad_coordinates", f"coordinate {str(written)[:40]!r} is not a finite number")
    if abs(value) > MAX_COORDINATE:
        raise RecordError("point_outside_screen", f"coordinate {str(written)[:40]!r} is outside any screen")
    return value


def point_pairs(rest: str) -> list[tuple[float, float]]:
    """The ``[x,y]`` points of ``rest``: each exactly two plain decimal numbers. Text without digits or brackets
    has no points (the caller decides); anything else (``[1e9,5]``, ``[1,2,3]``, ``[inf,0]``) is
    ``bad_coordinates``."""
    if not rest:
        return []
    if not _POINTS.fullmatch(rest):
        if re.search(r"\d", rest) or rest.lstrip()[:1] in ("[", "(", "（"):
            raise RecordError("bad_coordinates", f"{rest[:80]!r}: a point is exactly two plain numbers, [x,y]")
        return []
    nums = [_finite(float(n), n) for n in re.findall(_NUM, rest)]
    return list(zip(nums[::2], nums[1::2]))


def keywords(value: Any, patterns) -> Iterator[tuple[str, str, str]]:
    """``(kind, the keyword as written, the rest)`` for each of ``patterns`` (``(kind, compiled regex)``) that
    opens the action text ``value``; RecordError(``bad_action``) for a value that is not a non-empty string."""
    if not isinstance(value, str) or not value.strip():
        raise RecordError("bad_action", f"an action must be a non-empty string or an object, got {value!r}")
    line = value.strip()
    for kind, pattern in patterns:
        m = pattern.match(line)
        if m:
            yield kind, m.group(0), line[m.end():].strip()


def parse_action(value: Any) -> RawAction:
    """Parse one annotated action (text or JSON object); raises RecordError(``bad_action``) when it can't."""
    if isinstance(value, dict):
        return _from_object(value)
    for kind, _keyword, rest in keywords(value, _KEYWORD_RE):
        if kind == "scroll":
            raise RecordError("bad_action", f"{value!r}: SCROLL is ambiguous (content or finger direction?); "
                              "write SWIPE with the finger's direction or coordinates")
        if kind in ("back", "home", "wait", "done"):
            if rest.strip(" .。!！"):
                raise RecordError("bad_action", f"{kind.upper()} takes no argument: {value!r}")
            return RawAction(kind)
        if kind == "input":
            rest = rest[1:].strip() if rest[:1] in (":", "：") else rest
            if not unquote(rest):
                raise RecordError("bad_action", f"{value!r}: INPUT needs the text to type (in quotes to keep spaces "
                                  "at its ends)")
            return RawAction("input", text=unquote(rest))
        if kind == "open_app":
            name = unquote(rest.lstrip(":： ").strip())
            if not name:
                raise RecordError("bad_action", f"OPEN APP needs an app name: {value!r}")
            return RawAction("open_app", app=name)
        rest = re.sub(r"(?<=[\])）\d])\s*[.。]$", "", rest)  # a sentence's full stop after the point: CLICK [5,5].
        pairs = point_pairs(rest)
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


def json_xy(value: Any, what: str) -> tuple[float, float] | None:
    """A JSON ``[x, y]``: exactly two finite numbers (never booleans), else ``bad_coordinates``."""
    if value is None:
        return None
    if not (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)):
        raise RecordError("bad_coordinates", f"{what} must be [x, y], two numbers, got {value!r}"[:300])
    try:
        return (_finite(float(value[0]), value[0]), _finite(float(value[1]), value[1]))
    except OverflowError:
        raise RecordError("bad_coordinates", f"{what} has a number too large for a screen") from None


def _from_object(obj: dict[str, Any]) -> RawAction:
    kind = str(obj.get("type") or obj.get("action_type") or "").lower().replace(" ", "_")
    kind = {"long_click": "long_press", "tap": "click", "type": "input", "input_text": "input",
            "navigate_back": "back", "navigate_home": "home", "finish": "done"}.get(kind, kind)
    if kind not in ("click", "long_press", "swipe", "input", "open_app", "back", "home", "wait", "done"):
        raise RecordError("bad_action", f"unknown action type in {obj!r}")
    point = json_xy(obj.get("point", obj.get("start")), "point")
    if point is None and "x" in obj and "y" in obj:
        point = json_xy([obj["x"], obj["y"]], "x/y")
    end = json_xy(obj.get("end"), "end")
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


def parse_task(text: str) -> dict[str, Any]:
    """A ``task.json``'s text -> its checked object; RecordError with the first problem's reason:
    ``bad_task_json`` (syntax, layout), ``non_finite_number``, ``missing_goal`` / ``bad_goal`` / ``empty_goal``,
    ``no_actions``; for the web fields ``bad_platform``, ``bad_url``, ``bad_element`` (see :mod:`.web_task`).
    Actions themselves are checked by :func:`parse_action` (:func:`.web_actions.parse_web_action` on the web)."""
    try:
        task = loads_strict(text)
    except RecordError as exc:
        raise RecordError("bad_task_json" if exc.reason == "malformed_json" else exc.reason,
                          f"task.json: {exc.detail}") from None
    if not isinstance(task, dict) or not isinstance(task.get("actions"), list):
        raise RecordError("bad_task_json", "task.json needs an object with an 'actions' list")
    if "goal" not in task or task["goal"] is None:
        raise RecordError("missing_goal", "task.json has no goal")
    goal_of(task["goal"])
    if not task["actions"]:
        raise RecordError("no_actions", "task.json has an empty 'actions' list")
    _check_task_fields(task)
    return task


def _check_task_fields(task: dict[str, Any]) -> None:
    """The optional fields' types (a wrong type is refused, never guessed around)."""
    if task.get("coordinates", "relative") not in ("relative", "pixels"):
        raise RecordError("bad_task_json", "'coordinates' must be 'relative' or 'pixels'")
    if task.get("marked") not in (None, True, False):
        raise RecordError("bad_task_json", "'marked' must be true or false")
    instructions = task.get("instructions")
    if instructions is not None and (not isinstance(instructions, list) or len(instructions) != len(task["actions"])
                                     or not all(i is None or isinstance(i, str) for i in instructions)):
        raise RecordError("bad_task_json", "'instructions' must be a list with one string (or null) per action")
    check_web_fields(task)
