"""Calls written in Python's notation, said in words: ``Action: click(target_element='Bluetooth')`` reads as
``Action: tap “Bluetooth”``, so the readers of decisions (agreement, evidence, what follows the decision) read an
agent's function-call line as they read a spoken ``Action:`` line. The call is parsed by Python's own parser
(keyword and positional arguments, either quotation mark); a line it cannot say (an unknown function, a target
given by coordinates only, an expression) stays as written.
"""
from __future__ import annotations

import ast
import re

from .quoting import quote

# a line that is a call with keyword or quoted arguments: ``Action: click(target_element='Bluetooth')``, ``type(text="hi")``
_CALL_LINE = re.compile(r"^(?P<head>[ \t]*(?:[-*•>]\s*)?(?:\**Action\**\s*[:：]\s*)?)`?(?P<call>[A-Za-z_]+\s*\(.*\))`?"
                        r"(?P<tail>\s*[.。]?[ \t]*)$", re.I | re.M)
_SPOKEN = {"click": "tap", "tap": "tap", "long_press": "long-press", "longpress": "long-press", "type": "type",
           "input": "type", "select": "select", "open_app": "open", "launch": "open", "swipe": "swipe",
           "scroll": "scroll", "press_back": "press back", "back": "press back", "go_back": "press back",
           "press_home": "press home", "home": "press home", "done": "done", "finish": "done", "wait": "wait"}
_TARGET_KEYS = ("target_element", "element", "target", "label", "name")
_TEXT_KEYS = ("text", "content", "value", "option")
_APP_KEYS = ("app_name", "app", "package")


def _call_args(call: str) -> tuple[str, list[str], dict[str, str]] | None:
    """(function, positional strings, keyword strings) of a call written in Python's notation, None otherwise."""
    try:
        node = ast.parse(call.strip(), mode="eval").body
    except (SyntaxError, ValueError):
        return None
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
        return None

    def value(arg: ast.expr) -> str | None:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, (str, int, float)):
            return str(arg.value)
        return arg.id if isinstance(arg, ast.Name) else None

    args = [value(a) for a in node.args]
    kwargs = {k.arg.lower(): value(k.value) for k in node.keywords if k.arg}
    if any(a is None for a in args) or any(v is None for v in kwargs.values()):
        return None
    return node.func.id.lower(), args, kwargs  # type: ignore[return-value]


def _spoken(call: str) -> str | None:
    """A call in Python's notation said in words: ``click(target_element='Bluetooth')`` -> ``tap “Bluetooth”``,
    ``type(target_element='To', text='Denver')`` -> ``type “Denver” into “To”``; None for a call it cannot say
    (an unknown function, a target given by coordinates only)."""
    parsed = _call_args(call)
    if parsed is None or parsed[0] not in _SPOKEN:
        return None
    name, args, kwargs = parsed
    verb = _SPOKEN[name]
    target = next((kwargs[k] for k in _TARGET_KEYS if kwargs.get(k)), "")
    if verb in ("press back", "press home", "done", "wait"):
        return verb if not args and not target else None
    if verb == "open":
        app = next((kwargs[k] for k in _APP_KEYS if kwargs.get(k)), args[0] if len(args) == 1 else "")
        return f"open the {quote(app)} app" if app else None
    if verb in ("swipe", "scroll"):
        way = kwargs.get("direction") or (args[0] if len(args) == 1 else "")
        return f"{verb} {way.lower()}" if way.lower() in ("up", "down", "left", "right") else None
    text = next((kwargs[k] for k in _TEXT_KEYS if kwargs.get(k)), "")
    if verb in ("type", "select"):
        text = text or (args[-1] if args else "")
        target = target or (args[0] if len(args) == 2 else "")
        if not text:
            return None
        joint = " into " if verb == "type" else " in "
        return f"{verb} {quote(text)}" + (joint + quote(target) if target else "")
    target = target or (args[0] if len(args) == 1 else "")
    return f"{verb} {quote(target)}" if target else None


def spoken_calls(text: str) -> str:
    """``text`` with each line that is a call in Python's notation (keyword or quoted arguments) said in words, so
    the readers of decisions read it as they read a spoken ``Action:`` line; other lines are kept as written.

    >>> spoken_calls("Thought: Bluetooth is Off.\\nAction: click(target_element='Bluetooth')")
    'Thought: Bluetooth is Off.\\nAction: tap “Bluetooth”'
    >>> spoken_calls("Action: swipe(direction='UP')"), spoken_calls("Action: press_back()")
    ('Action: swipe up', 'Action: press back')
    >>> spoken_calls("Action: click(start_box='(235,512)')")
    "Action: click(start_box='(235,512)')"
    """
    if not isinstance(text, str) or "(" not in text:
        return text

    def say(m: re.Match[str]) -> str:
        words = _spoken(m.group("call"))
        return m.group("head") + words + m.group("tail") if words else m.group()
    return _CALL_LINE.sub(say, text)


__all__ = ["spoken_calls"]
