"""A decision written as a call: an ``Action:`` line in call notation (``Action: open_app(商城)``, ``Action:
click(Display)``, ``Action: press_home``), as model-style reasoning ends.

The line names a function and its arguments; it is evidence for the item's call when the function is the call's
(or its plain synonym: tap for click, launch for open_app) and the arguments name what the call does: the app, the
target (singled out on the screen as a spoken decision's object is), the typed value, the direction. A line that
names another function, or arguments that name another element, gives none.

>>> from sftdata.model import Action, Screenshot, Step
>>> home = Step(0, Screenshot("0" * 64, "x.png", 1080, 2400), Action("open_app", app="商城"))
>>> [e.kind for e in notation_evidence("Thought: shopping first.\\nAction: open_app(商城)",
...                                    {"name": "open_app", "parameters": {"app_name": "商城"}}, home)]
['verb', 'app']
>>> notation_evidence("Action: open_app(相机)", {"name": "open_app", "parameters": {"app_name": "商城"}}, home)
[]
"""
from __future__ import annotations

import re
from typing import Any

from ..model import Step
from .app_names import app_names
from .calls import CJK_CLASS, normalize
from .evidence import own_names, said_whole
from .finger import finger_direction
from .target_evidence import Evidence, names_rival, target_evidence

_LINE = re.compile(r"^\s*\**Action\**\s*[:：]\s*`?([A-Za-z_]+)\s*(?:\((.*)\)|[ \t]+([^()\n/#]+?))?`?\s*[.。]?\s*"
                   r"(?:(?://|#)[^\n]*)?$", re.I | re.M)  # Action: press_back  // leave the product page
_SYNONYMS = {"click": {"click", "tap"}, "long_press": {"long_press", "longpress"}, "open_app": {"open_app", "launch"},
             "press_home": {"press_home", "home"}, "press_back": {"press_back", "back", "go_back"},
             "go_back": {"go_back", "back"}, "type": {"type", "input"}, "input": {"type", "input"},
             "swipe": {"swipe", "scroll"}, "scroll": {"swipe", "scroll"}, "select": {"select"},
             "done": {"done", "finish"}, "wait": {"wait"}}


_BARE_ONLY = ("press_home", "press_back", "go_back")  # functions without arguments
_ARROW = re.compile(r"->|→|=>|⇒")
_LABELLED_LINE = r"(?:^|(?<=[.。!?！？]))\s*(?:\**{label}\**\s*[:：]|→|=>)\s*(.+?)\s*$"  # Action: …, or → 左滑
_ACTION_LINE = re.compile(_LABELLED_LINE.format(label="Action"), re.I | re.M)
# a closing line that restates the decision, under a Chinese label too: 动作：type(…)
_CLOSING_LINE = re.compile(_LABELLED_LINE.format(label="(?:Action|动作)"), re.I | re.M)


def action_line(text: str) -> str:
    """What the last ``Action:`` line of ``text`` says ('' when it has none)."""
    lines = list(_ACTION_LINE.finditer(text)) if isinstance(text, str) else []
    return lines[-1].group(1) if lines else ""


def closing_action_line(text: str) -> tuple[int, int] | None:
    """The span of ``text``'s ``Action:`` line when it closes the text and something is said before it (``… so I'll
    press back. Action: press_back.``), None otherwise.

    >>> closing_action_line("Swipe up for more. Action: swipe UP.")
    (19, 36)
    """
    lines = list(_CLOSING_LINE.finditer(text)) if isinstance(text, str) else []
    if not lines or text[lines[-1].end():].strip() or not text[:lines[-1].start()].strip():
        return None
    line = lines[-1]
    return line.end() - len(line.group().lstrip()), line.end()  # the line less the space the pattern took before it


def notation_evidence(text: str, function: dict[str, Any], step: Step) -> list[Evidence] | None:
    """The evidence of ``text``'s last ``Action:`` line in call notation for ``function`` on ``step``: None when
    the text has no such line, [] when the line names another function or does not name what the call does."""
    lines = [m for m in _LINE.finditer(text) if not m.group(3) or ("_" in m.group(1) and m.group(1).lower() not in _BARE_ONLY
                                                                    and not _ARROW.search(m.group(3)))] if isinstance(
        text, str) else []  # open_app(商城), and a snake_case name before bare arguments: open_app 商城
    if not lines:
        return None
    name = str(function.get("name") or "")
    params = function.get("parameters") if isinstance(function.get("parameters"), dict) else {}
    said, args = lines[-1].group(1).lower(), next((a for a in lines[-1].groups()[1:] if a), "").strip()
    if said not in _SYNONYMS.get(name, {name}):
        return []
    verb = [Evidence("verb", said)]
    if name in _BARE_ONLY and re.search(rf"[A-Za-z{CJK_CLASS}]{{2}}", args):
        return []  # press_home(that brings up the launcher): words where no argument belongs
    if name in ("press_home", "press_back", "go_back", "done", "wait"):
        return verb
    if name == "open_app":
        app = str(params.get("app_name") or "")
        bare = normalize(args.strip(" \"'“”"))
        return verb + [Evidence("app", app)] if app and bare in app_names(app) else []
    if name in ("click", "long_press"):
        if not args or names_rival(args, step):
            return []
        found = target_evidence(args, step, own_names(params))
        return verb + found if found else []
    if name in ("type", "input", "select"):
        value = str(params.get("value" if name == "select" else "text") or "")
        if not value or not said_whole(value, args) or names_rival(args.replace(value, " "), step):
            return []
        return verb + [Evidence("value", value)]
    if name in ("swipe", "scroll"):
        way = str(params.get("direction") or "").lower()
        said_way = finger_direction(f"swipe {args}") or next(iter(re.findall(r"up|down|left|right", args.lower())), "")
        return verb + [Evidence("direction", way)] if way and said_way == way else []
    return []


__all__ = ["action_line", "closing_action_line", "notation_evidence"]
