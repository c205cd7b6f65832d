"""Agent output notations said in words, so the readers of decisions (agreement, evidence, what follows the
decision) read them as they read a spoken ``Action:`` line:

- a call in Python's notation: ``Action: click(target_element='Bluetooth')`` reads as ``Action: tap “Bluetooth”``
  (parsed by Python's own parser: keyword and positional arguments, either quotation mark);
- an action object in JSON: ``{"action": "click", "target": "删除"}``, ``{"action_type": "type", "text": "hi"}``,
  ``{"name": "swipe", "arguments": {"direction": "up"}}`` (parsed by the json module);
- ``<think>`` … ``</think>`` tags, which become line breaks;
- spaces a hurried Chinese note uses as commas (:mod:`sftdata.checks.clause_gaps`).

A line it cannot say (an unknown function, a target given by coordinates only, an expression) stays as written.
"""
from __future__ import annotations

import ast
import json
import re

from .clause_gaps import spaced_clauses
from .quoting import quote

# a line that is a call with keyword or quoted arguments: ``Action: click(target_element='Bluetooth')``, ``type(text="hi")``
_CALL_LINE = re.compile(r"^(?P<head>[ \t]*(?:[-*•>]\s*)?(?:\**(?:Action|操作|动作)\**\s*[:：]\s*\**\s*"
                        r"|[^\n(){}`]*?[:：]\s*)?)`?"  # Action: …, or a sentence ending in a colon (…, so: press_home())
                        r"(?P<call>[A-Za-z_]+\s*\(.*?\)|\{.*\})`?(?P<tail>\s*[.。]?[ \t]*(?://.*|#.*|[，,;；—–].*)?)$", re.I | re.M)
_OBJECT = re.compile(r"\{(?:[^{}\n]|\{[^{}\n]*\})*\}")  # a JSON object within a line (one level of nesting)
_THINK = re.compile(r"[ \t]*</?think>[ \t]*\n?", re.I)
_SPOKEN = {"click": "tap", "tap": "tap", "long_press": "long-press", "longpress": "long-press", "type": "type",
           "input": "type", "fill": "type", "input_text": "type", "type_text": "type", "select": "select",
           "select_option": "select", "open_app": "open", "launch": "open", "swipe": "swipe",
           "scroll": "scroll", "press_back": "press back", "back": "press back", "go_back": "press back",
           "press_home": "press home", "home": "press home", "done": "done", "finish": "done", "wait": "wait",
           # an object written in Chinese: {"动作": "点击", "目标": "…"}
           "点击": "tap", "点按": "tap", "轻触": "tap", "长按": "long-press", "输入": "type", "选择": "select",
           "打开": "open", "打开应用": "open", "启动": "open", "滑动": "swipe", "滚动": "scroll", "返回": "press back",
           "回到桌面": "press home", "主页": "press home", "完成": "done", "结束": "done", "等待": "wait"}
_TARGET_KEYS = ("target_element", "element", "target", "label", "name", "field", "select", "目标", "对象", "元素", "控件")
_TEXT_KEYS = ("text", "content", "value", "option", "文本", "内容", "选项")
_APP_KEYS = ("app_name", "app", "package", "应用")
_KEYS_ZH = {"动作": "action", "操作": "action", "方向": "direction", "原因": "reason", "理由": "reason",
            "备注": "note", "说明": "note", "思考": "thought"}
_DIRECTIONS_ZH = {"上": "up", "下": "down", "左": "left", "右": "right", "向上": "up", "向下": "down", "向左": "left",
                  "向右": "right"}


def _call_args(call: str) -> tuple[str, list[str], dict[str, str]] | None:
    """(function, positional strings, keyword strings) of a call written in Python's notation, None otherwise."""
    if "“" in call or "”" in call:  # type(“Job title or keywords”, “data analyst”): curly quotes for straight ones
        call = call.replace("“", '"').replace("”", '"') if '"' not in call else call
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


_NESTED = ("arguments", "parameters", "args", "params", "action")  # keys whose object holds the call's fields


def _json_args(obj: dict) -> tuple[str, list[str], dict[str, str]] | None:
    """(action, [], fields) of an action object (a JSON object, parsed), None otherwise."""
    nested = next((obj[k] for k in _NESTED if isinstance(obj.get(k), dict)), {})  # {"thought": …, "action": {…}}
    fields = {_KEYS_ZH.get(str(k), str(k).lower()): v for k, v in {**obj, **nested}.items()}
    if isinstance(fields.get("direction"), str):
        fields["direction"] = _DIRECTIONS_ZH.get(fields["direction"].strip(), fields["direction"])
    name = next((fields.pop(k) for k in ("action", "action_type", "function", "name", "type")
                 if isinstance(fields.get(k), str) and fields[k].lower() in _SPOKEN), None)
    if name is None and len(fields) == 1 and next(iter(fields)) in _SPOKEN:  # {"click": "Dark theme"}
        name, target = fields.popitem()
        fields = {"target": target}
    if name is None or any(not isinstance(v, (str, int, float)) for k, v in fields.items()
                           if k not in _NESTED):
        return None
    return name.lower(), [], {k: str(v) for k, v in fields.items() if isinstance(v, (str, int, float))}


_ASIDE_KEYS = ("reason", "reasoning", "thought", "observation", "explanation", "why", "rationale", "note", "comment",
               *(k for k, v in _KEYS_ZH.items() if v in ("reason", "note", "thought")))


_BEFORE_KEYS = ("thought", "observation", "reasoning", "思考", "reason", "rationale", "explanation", "why",
                "原因", "理由")  # what a model writes before it acts, and why it acts: said before the call


def _asides(obj: dict, before: bool = False) -> list[str]:
    """The free text an action object carries beside its call (``"reason": "…"``): kept, so that the readers see
    what it says (an outcome told in a reason is still told); ``before``: only what is written before acting
    (``"thought"``, ``"observation"``), else only the rest."""
    return [str(v) for k, v in obj.items() if str(k).lower() in _ASIDE_KEYS and isinstance(v, str) and v.strip()
            and (str(k).lower() in _BEFORE_KEYS) == before]


def _fields(obj: dict) -> str | None:
    """A JSON object of free-text fields as lines (``{"thought": "…", "action": "type X"}`` -> ``Thought: …`` and
    ``Action: type X``), None for anything else."""
    if not obj or not all(isinstance(v, str) for v in obj.values()):
        return None
    return "\n".join(f"{str(k).capitalize()}: {_words(v.strip(), False) or v if v.strip()[-1:] == ')' else v}"
                     for k, v in obj.items())  # "action": "type(\"City or state\", \"Chicago\")": the call in words


def _words(call: str, free_text: bool = True) -> str | None:
    """``call`` (Python's notation or a JSON object) said in words, with what an object carries beside its call;
    ``free_text``: an object with no call but free-text fields is said as lines. None when it cannot be said."""
    if not call.startswith("{"):
        parsed = _call_args(call)
        return _spoken(*parsed) if parsed else None
    try:
        obj = json.loads(call)
    except ValueError:
        return None
    if not isinstance(obj, dict):
        return None
    parsed = _json_args(obj)
    if parsed is None:
        return _fields(obj) if free_text else None
    said = _spoken(*parsed)
    thought = "".join(t.rstrip() + ("" if t.rstrip()[-1:] in "。.!?！？" else ".") + "\n" for t in _asides(obj, before=True))
    return thought + ("Action: " if thought else "") + " — ".join([said] + _asides(obj)) if said else None


def _spoken(name: str, args: list[str], kwargs: dict[str, str]) -> str | None:
    """A call said in words: ``click(target_element='Bluetooth')`` -> ``tap “Bluetooth”``,
    ``type(target_element='To', text='Denver')`` -> ``type “Denver” into “To”``; None for a call it cannot say
    (an unknown function, a target given by coordinates only)."""
    if name not in _SPOKEN:
        return None
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
    """``text`` with each call it holds said in words (a line that is a call in Python's notation or a JSON object,
    and an action object inside a line), ``<think>`` tags as line breaks, so the readers of decisions read them as
    they read a spoken ``Action:`` line; everything else is kept as written.

    >>> spoken_calls("Thought: Bluetooth is Off.\\nAction: click(target_element='Bluetooth')")
    'Thought: Bluetooth is Off.\\nAction: tap “Bluetooth”'
    >>> spoken_calls("Action: swipe(direction='UP')"), spoken_calls("Action: press_back()")
    ('Action: swipe up', 'Action: press back')
    >>> spoken_calls("Action: click(start_box='(235,512)')")
    "Action: click(start_box='(235,512)')"
    >>> spoken_calls('<think>删除在右边。</think>\\n{"action": "click", "target": "删除"}')
    '\\n删除在右边。\\ntap “删除”'
    >>> spoken_calls('**操作**：{"action_type": "type", "target": "Email", "text": "a@b.com"}')
    '**操作**：type “a@b.com” into “Email”'
    >>> spoken_calls('{"action": "press_home", "reason": "回到桌面"}')
    '回到桌面.\\nAction: press home'
    >>> spoken_calls('{"action": "press_home", "note": "蓝牙已开"}')
    'press home — 蓝牙已开'
    """
    text = spaced_clauses(text)
    if not isinstance(text, str) or not ("(" in text or "{" in text or "<" in text):
        return text
    text = _THINK.sub("\n", text)

    def say(m: re.Match[str]) -> str:
        words = _words(m.group("call"))
        tail = re.sub(r"^(\s*)(?://|#)", r"\1—", m.group("tail"), count=1)  # a comment after the call: an aside
        return m.group("head") + words + tail if words else m.group()
    text = _CALL_LINE.sub(say, text)

    def say_object(m: re.Match[str]) -> str:  # an action object inside a line: 改成德州：{"action": "select", …}
        words = _words(m.group(), free_text=False)
        return f" {words} " if words else m.group()
    return _OBJECT.sub(say_object, text) if "{" in text else text


__all__ = ["spoken_calls"]
