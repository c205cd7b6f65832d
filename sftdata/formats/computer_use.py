"""The web variant of the Qwen formats: Qwen's ``computer_use`` tool (mouse and keyboard) for browser pages.

``qwen2.5-vl`` and ``qwen3-vl`` write a web episode (``episode.web``) with the desktop tool of their cookbooks
instead of ``mobile_use``: the same answer layout (``Thought`` / ``Action`` / ``<tool_call>``) and the same point
space as the mobile variant (smart-resized pixels, or the 999 grid), the tool named ``computer_use`` with its
actions (Qwen2.5-VL: ``key``, ``type``, ``mouse_move``, ``left_click``, ``left_click_drag``, ``right_click``,
``middle_click``, ``double_click``, ``scroll``, ``wait``, ``terminate``; Qwen3-VL adds ``triple_click``,
``hscroll`` and ``answer``). Canonical actions become:

* ``click`` -> ``left_click{coordinate}``;
* ``type`` (text into an element) -> ``type{text}`` when the previous step clicked that field: the tool's
  ``type`` writes where the keyboard focus is, and the answer holds a single ``<tool_call>`` (seed 004 F.2/F.3),
  so it cannot click the field first; otherwise ``CannotExpress("field_not_focused")``, as in UI-TARS. parse
  places typing that follows a click at that click;
* ``input`` (text into the focused field) -> ``type{text}``;
* ``scroll`` up/down -> ``scroll{pixels}``, positive up and negative down as the tool says; the canonical
  scroll has no amount, so the magnitude is a fixed :data:`SCROLL_PIXELS` and parse reads only the sign.
  Qwen3-VL's tool (its cookbook) has ``hscroll``: a left/right scroll is ``hscroll{pixels}``, positive towards
  the right (the view moves right: content from the right comes into view), parse reads the sign;
* ``back`` -> ``key{keys: ["alt", "left"]}`` and ``new_tab`` -> ``key{keys: ["ctrl", "t"]}`` (the browsers'
  shortcuts); ``wait`` -> ``wait{time: 2}``; ``done`` -> ``terminate{status: "success"}``.

The tool has no way to pick a dropdown option, load an address or open a tab at an address (nor, in
Qwen2.5-VL's tool, to scroll sideways): ``select``, ``go_to_url``, ``new_tab`` with a url and a left/right
``scroll`` without ``hscroll`` raise
``CannotExpress("action_not_in_format")`` (counted in the export manifest), as do the phone's ``long_press``,
``swipe``, ``open_app`` and ``home``.
"""
from __future__ import annotations

import json
import re

from ..model import Action
from .base import CannotExpress, StepContext, clicked_before, typing_focus

SCROLL_PIXELS = 500
NAME = "computer_use"
QWEN25_ENUM = ("key", "type", "mouse_move", "left_click", "left_click_drag", "right_click", "middle_click",
               "double_click", "scroll", "wait", "terminate")
QWEN3_ENUM = ("key", "type", "mouse_move", "left_click", "left_click_drag", "right_click", "middle_click",
              "double_click", "triple_click", "scroll", "hscroll", "wait", "terminate", "answer")
_DOES = {
    "key": "press the keys in `keys` together (e.g. [\"ctrl\", \"t\"]) and release them",
    "type": "type `text` on the keyboard, into whatever has the focus",
    "mouse_move": "move the pointer to coordinate (x, y)",
    "left_click": "click the left mouse button at coordinate (x, y)",
    "left_click_drag": "press the left button and drag to coordinate (x, y)",
    "right_click": "click the right mouse button at coordinate (x, y)",
    "middle_click": "click the middle mouse button at coordinate (x, y)",
    "double_click": "double-click the left mouse button at coordinate (x, y)",
    "triple_click": "triple-click the left mouse button at coordinate (x, y)",
    "scroll": "turn the mouse wheel by `pixels`: positive scrolls up, negative scrolls down",
    "hscroll": "scroll horizontally by `pixels`",
    "wait": "wait `time` seconds for the page to change",
    "terminate": "end the task and report whether it succeeded",
    "answer": "give `text` as the answer",
}
_KEYS = {("alt", "left"): "back", ("ctrl", "t"): "new_tab"}
_CALL = re.compile(r"<tool_call>\s*(\{.*?\})\s*</tool_call>", re.S)


def tools(fmt, ctx: StepContext, enum: tuple[str, ...], human_name: bool) -> list[dict]:
    w, h = fmt.resolution(ctx)
    props = {
        "action": {"description": "What to do:\n" + "\n".join(f"* `{a}`: {_DOES[a]}." for a in enum),
                   "enum": list(enum), "type": "string"},
        "keys": {"description": "Key names, lowercase. Only for `action=key`.", "type": "array"},
        "text": {"description": "Only for " + " and ".join(f"`action={a}`" for a in ("type", "answer") if a in enum)
                 + ".", "type": "string"},
        "coordinate": {"description": "(x, y): pixels from the left edge and from the top edge of the screen.",
                       "type": "array"},
        "pixels": {"description": "How far to scroll; positive scrolls up, negative scrolls down. Only for "
                   + " and ".join(f"`action={a}`" for a in ("scroll", "hscroll") if a in enum) + ".",
                   "type": "number"},
        "time": {"description": "Seconds. Only for `action=wait`.", "type": "number"},
        "status": {"description": "How the task ended. Only for `action=terminate`.", "type": "string",
                   "enum": ["success", "failure"]},
    }
    function = {"name": NAME, "description": (
        "Use a mouse and keyboard to operate a computer showing a web browser, and take screenshots.\n"
        "* Pages may need time to load: wait, then look at the next screenshot.\n"
        f"* The screen's resolution is {w}x{h}.\n"
        "* Look at the screenshot to find an element's coordinates before clicking it.\n"
        "* Click the centre of buttons, links and fields, not their edges."),
        "parameters": {"properties": props, "required": ["action"], "type": "object"}}
    if human_name:
        function = {"name_for_human": NAME, **function, "args_format": "Arguments are a JSON object."}
    return [{"type": "function", "function": function}]


def element_name(ctx: StepContext) -> str | None:
    """A web action's element by its visible name (text, else description, else hint), quoted; None on mobile
    (whose formats name targets from the reconstruction only) or when the element has no name."""
    element = ctx.action.element
    label = " ".join(element.label.split()) if ctx.episode.web and element is not None else ""
    return f"“{label}”" if label else None


def _point(ctx: StepContext):
    a = ctx.action
    if a.point is not None:
        return a.point
    raise CannotExpress("no_coordinates", f"step {ctx.index + 1}: a {a.type} without a point")


def calls(fmt, ctx: StepContext) -> list[dict]:
    """The ``computer_use`` arguments of the step, one dict per call (see the module docstring)."""
    a = ctx.action
    if a.type == "click":
        return [{"action": "left_click", "coordinate": fmt.forward(_point(ctx), ctx)}]
    if a.type == "type":
        typing_focus(ctx, "Qwen's computer_use tool")
        return [{"action": "type", "text": a.text}]
    if a.type == "input":
        return [{"action": "type", "text": a.text}]
    if a.type == "scroll" and a.direction in ("up", "down"):
        return [{"action": "scroll", "pixels": SCROLL_PIXELS if a.direction == "up" else -SCROLL_PIXELS}]
    if a.type == "scroll" and a.direction in ("left", "right") and "hscroll" in fmt.computer_enum:
        return [{"action": "hscroll", "pixels": SCROLL_PIXELS if a.direction == "right" else -SCROLL_PIXELS}]
    if a.type == "back":
        return [{"action": "key", "keys": ["alt", "left"]}]
    if a.type == "new_tab" and not a.url:
        return [{"action": "key", "keys": ["ctrl", "t"]}]
    if a.type == "wait":
        return [{"action": "wait", "time": 2}]
    if a.type == "done":
        return [{"action": "terminate", "status": "success"}]
    what = {"scroll": f"a {a.direction} scroll", "new_tab": "a new tab at an address"}.get(a.type, f"a {a.type}")
    raise CannotExpress("action_not_in_format", f"step {ctx.index + 1}: Qwen's computer_use tool has no {what}")


def messages(fmt, ctx: StepContext) -> list[dict]:
    """The tool calls as ``{"name", "arguments"}`` objects."""
    return [{"name": NAME, "arguments": args} for args in calls(fmt, ctx)]


def render_calls(fmt, ctx: StepContext) -> str:
    return "\n".join(f"<tool_call>\n{json.dumps(m, ensure_ascii=False)}\n</tool_call>" for m in messages(fmt, ctx))


def parse(fmt, text: str, ctx: StepContext) -> Action:
    args = [json.loads(block)["arguments"] for block in _CALL.findall(text)]
    if not args:
        raise ValueError("no <tool_call> block in the answer")
    if len(args) != 1:
        raise ValueError(f"{len(args)} <tool_call> blocks in the answer; the format says one")
    first = args[0]
    kind = first["action"]
    if kind == "left_click":
        return Action("click", point=fmt.back(first["coordinate"], ctx))
    if kind == "type" and clicked_before(ctx) is not None:  # typed into the field just clicked
        return Action("type", text=first["text"], point=clicked_before(ctx))
    if kind == "type":
        return Action("input", text=first["text"])
    if kind == "scroll":
        return Action("scroll", direction="up" if first["pixels"] > 0 else "down")
    if kind == "hscroll":
        return Action("scroll", direction="right" if first["pixels"] > 0 else "left")
    if kind == "key" and tuple(first["keys"]) in _KEYS:
        return Action(_KEYS[tuple(first["keys"])])
    if kind in ("wait", "terminate"):
        return Action("wait" if kind == "wait" else "done")
    raise ValueError(f"computer_use action {kind!r} has no canonical action")


def quantize(fmt, ctx: StepContext) -> Action:
    calls(fmt, ctx)  # raises for what the tool cannot say
    a = ctx.action
    if a.type in ("type", "input") and clicked_before(ctx) is not None:
        return Action("type", text=a.text, point=clicked_before(ctx))
    if a.type == "click":
        return Action("click", point=fmt.back(fmt.forward(a.point, ctx), ctx))
    if a.type == "input":
        return Action("input", text=a.text)
    if a.type == "scroll":
        return Action("scroll", direction=a.direction)
    return Action(a.type)
