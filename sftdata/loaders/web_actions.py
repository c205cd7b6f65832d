"""Annotators' actions on web pages (task.json ``"platform": "web"``) -> :class:`~.action_text.RawAction`.

The label an annotator writes at the top of a web frame, in English or Chinese, any case and spacing::

    CLICK [x,y]           点击 [x,y]            the element under the point (TAP, 单击 too)
    TYPE [x,y] <text>     输入 [x,y] "<text>"   text typed into the field under the point (INPUT, 键入 too)
    SELECT [x,y] <value>  选择 [x,y] "<value>"  an option of the dropdown under the point (CHOOSE too)
    SCROLL DOWN           向下滚动              where the VIEW moves: down reveals what is below (UP/LEFT/RIGHT)
    GO TO URL <url>       打开网址 <url>        OPEN URL, GOTO, 打开网页, 访问 too
    NEW TAB [<url>]       新标签页 [<url>]      打开新标签页 too
    BACK                  返回                  GO BACK, 后退 too
    DONE                  完成                  FINISH, 结束 too

``[x,y]`` may be left out where the frame carries the annotator's red circle (the point is then the circle's
centre); ``SCROLL`` / ``滚动`` alone takes its direction from the arrow. An arrow on a web frame is read as on a
phone: it is drawn the way the finger (or the dragged page) moves, so the view scrolls the opposite way
(``向下滚动`` goes with an arrow pointing up). Phone-only actions (LONG PRESS, SWIPE, OPEN APP, HOME, WAIT) are
``bad_action`` on a web page. JSON objects work too: ``{"type": "type", "point": [x, y], "text": ".."}``,
``{"type": "select", "value": ".."}``, ``{"type": "scroll", "direction": "down"}``,
``{"type": "go_to_url", "url": ".."}``, ``{"type": "new_tab"}``.

>>> parse_web_action('输入 "蓝牙耳机"')
RawAction(type='type', point=None, end=None, text='蓝牙耳机', app=None, direction=None, url=None)
>>> parse_web_action("TYPE [310,62] wireless earbuds").point
(310.0, 62.0)
>>> parse_web_action("向下滚动").direction, parse_web_action("GO TO URL https://example.com").url
('down', 'https://example.com')
"""
from __future__ import annotations

import re
from typing import Any

from ..errors import RecordError
from ..model import DIRECTIONS
from .action_text import PAIR, RawAction, point_pairs, unquote, json_xy, keywords
from .web_task import check_url

WEB_VOCABULARY = "CLICK, TYPE, SELECT, SCROLL, GO TO URL, NEW TAB, BACK or DONE"
_ZH_DIRECTION = {"上": "up", "下": "down", "左": "left", "右": "right"}
_KEYWORDS = [  # (canonical type, keyword at the start of the line); longer keywords first
    ("new_tab", r"(?:open[\s_-]*)?new[\s_-]*tab|(?:打开|新建)?新标签页?"),
    ("go_to_url", r"go[\s_-]*to(?:[\s_-]*url)?|goto|open[\s_-]*url|navigate[\s_-]*to|打开网址|打开网页|访问"),
    ("back", r"(?:go|navigate|press)[\s_-]*back|back|返回|后退"),
    ("click", r"click|tap|点击|单击"),
    ("type", r"type|input|输入|键入"),
    ("select", r"select|choose|选择"),
    ("scroll", r"scroll|向[上下左右]滚动|滚动"),
    ("done", r"done|finish(?:ed)?|完成|结束"),
    ("phone", r"long[\s_-]*press|swipe|open[\s_-]*app|(?:press[\s_-]*)?home|wait|长按|滑动|打开应用|等待"),
]
_KEYWORD_RE = [(kind, re.compile(rf"^\s*(?:{pat})(?![a-z_])", re.IGNORECASE)) for kind, pat in _KEYWORDS]
_LEADING_POINT = re.compile(rf"^\s*(?=[\[(（]){PAIR}")
_LEADING_NUMBERS = re.compile(r"^\s*[\[(（][-+\d.,，\s]*\d[-+\d.,，\s]*[\])）]")


def _point_and_text(rest: str, kind: str, value: str) -> tuple[tuple[float, float] | None, str]:
    """An optional leading bracketed ``[x,y]`` and the (unquoted) text after it, which must not be empty."""
    rest = rest[1:].strip() if rest[:1] in (":", "：") else rest
    point = None
    m = _LEADING_POINT.match(rest)
    numbers = _LEADING_NUMBERS.match(rest) if m is None else None
    if numbers:  # brackets of numbers that are not one [x,y]
        point_pairs(numbers.group(0))  # raises bad_coordinates
    if m:
        point = point_pairs(m.group(0))[0]
        rest = rest[m.end():].strip()
        rest = rest[1:].strip() if rest[:1] in (":", "：") else rest
    text = unquote(rest)
    if not text:
        what = "the text to type" if kind == "type" else "the option to choose"
        raise RecordError("bad_action", f"{kind.upper()} needs {what}: {value!r}")
    return point, text


def _scroll_direction(keyword: str, rest: str, value: str) -> str | None:
    zh = re.match(r"\s*向([上下左右])", keyword)
    word = rest.lower().strip(" .。")
    if zh:
        if word and word not in ("页面", "网页"):
            raise RecordError("bad_action", f"{keyword} takes no argument: {value!r}")
        return _ZH_DIRECTION[zh.group(1)]
    if word in ("", "页面", "网页"):
        return None  # the arrow says where
    word = _ZH_DIRECTION.get(word.removeprefix("向"), word).replace("_", " ")
    if word not in DIRECTIONS:
        raise RecordError("bad_action", f"SCROLL takes UP, DOWN, LEFT or RIGHT (where the view moves): {value!r}")
    return word


def parse_web_action(value: Any) -> RawAction:
    """Parse one annotated web action (text or JSON object); RecordError (``bad_action``, ``bad_coordinates``,
    ``bad_url``) when it can't."""
    if isinstance(value, dict):
        return _from_object(value)
    for kind, keyword, rest in keywords(value, _KEYWORD_RE):
        if kind == "phone":
            raise RecordError("bad_action", f"{value!r} is a phone action; a web page takes {WEB_VOCABULARY}")
        if kind in ("back", "done"):
            if rest.strip(" .。!！"):
                raise RecordError("bad_action", f"{kind.upper()} takes no argument: {value!r}")
            return RawAction(kind)
        if kind in ("type", "select"):
            point, text = _point_and_text(rest, kind, value)
            return RawAction(kind, point=point, text=text)
        if kind == "scroll":
            return RawAction("scroll", direction=_scroll_direction(keyword, rest, value))
        if kind in ("go_to_url", "new_tab"):
            url = unquote(rest.lstrip(":： ").strip())
            if kind == "go_to_url" or url:
                return RawAction(kind, url=check_url(url, f"{kind.upper().replace('_', ' ')}'s url"))
            return RawAction(kind)
        pairs = point_pairs(rest)  # click
        if len(pairs) > 1 or (not pairs and rest):
            raise RecordError("bad_action", f"CLICK takes one [x,y]: {value!r}")
        return RawAction("click", point=pairs[0] if pairs else None)
    raise RecordError("bad_action", f"unknown action {value!r} (a web page takes {WEB_VOCABULARY})")


_OBJECT_TYPES = {"tap": "click", "input": "type", "input_text": "type", "select_option": "select",
                 "goto": "go_to_url", "open_url": "go_to_url", "go_back": "back", "navigate_back": "back",
                 "open_new_tab": "new_tab", "finish": "done"}
_WEB_TYPES = ("click", "type", "select", "scroll", "go_to_url", "new_tab", "back", "done")


def _from_object(obj: dict[str, Any]) -> RawAction:
    kind = str(obj.get("type") or obj.get("action_type") or "").lower().replace(" ", "_")
    kind = _OBJECT_TYPES.get(kind, kind)
    if kind not in _WEB_TYPES:
        raise RecordError("bad_action", f"unknown web action type in {obj!r}"[:300] + f" (a web page takes "
                          f"{WEB_VOCABULARY})")
    point = json_xy(obj.get("point"), "point")
    if point is None and "x" in obj and "y" in obj:
        point = json_xy([obj["x"], obj["y"]], "x/y")
    text = obj.get("value", obj.get("text")) if kind == "select" else obj.get("text")
    if kind in ("type", "select") and not (isinstance(text, str) and text):
        raise RecordError("bad_action", f"a {kind} action needs a non-empty "
                          f"{'text' if kind == 'type' else 'value'} string: {obj!r}"[:300])
    direction = obj.get("direction")
    if kind == "scroll" and direction is not None and str(direction).lower() not in DIRECTIONS:
        raise RecordError("bad_action", f"direction must be one of {DIRECTIONS}, got {direction!r}")
    url = obj.get("url")
    if kind == "go_to_url" or (kind == "new_tab" and url is not None):
        url = check_url(url, f"{kind}'s url")
    return RawAction(kind, point=point if kind in ("click", "type", "select") else None,
                     text=text if kind in ("type", "select") else None,
                     direction=str(direction).lower() if kind == "scroll" and direction else None,
                     url=url if kind in ("go_to_url", "new_tab") else None)
