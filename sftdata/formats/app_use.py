"""``app-use``: seed 000's answer with the action names and parameters app-use's controller accepts (phones).

Seed 000 is app-use's system prompt, but app-use (0.0.3) registers other actions than the prompt names, and
validates the answer with its own pydantic models: ``tap``, ``swipe{direction}`` or ``open_app`` are not among
them. This variant keeps seed 000's answer (``current_state`` with the same three Chinese fields as
:mod:`.mobile_agent`, one action) and writes the controller's own actions: ``click_element{index}``,
``enter_text{index, text}``, ``long_press_coordinates{x, y}`` and ``swipe_coordinates{start_x, start_y, end_x,
end_y}`` in screenshot pixels (a swipe recorded without its points, as AndroidControl's scrolls, is
``scroll_down{}`` / ``scroll_up{}``: a finger moving up shows what is below), ``send_keys{keys: "Back"}``
and ``done{text, success}``. app-use has no way to launch an app or to wait: ``open_app`` and ``wait`` steps
raise ``CannotExpress("action_not_in_format")``, as does a sideways swipe without points. Two actions app-use
0.0.3 accepts but its controller would execute otherwise raise ``CannotExpress("not_executed_as_recorded")``:
Home (its ``send_keys`` knows Enter, Back, Delete and Backspace; any other key is typed as text, "Home" as
"home") and a sideways swipe (every swipe it makes is an up or down ``swipeGesture``, the direction taken from
y alone; its only other move with free points, ``drag_and_drop_coordinates``, starts with a long press).
parse gives an element action the listed element's centre.

>>> from sftdata.model import Action, Element, Episode, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 540, 1200)
>>> btn = Element(0, (400, 50, 520, 110), text="Settings", class_name="android.widget.Button", flags=("clickable", "visible"))
>>> ep = Episode("e", "sample", "Open settings", [Step(0, shot, Action("swipe", direction="up"), elements=[btn]),
...                                              Step(1, shot, Action("click", point=(450, 80), element=btn), elements=[btn])])
>>> items = [{"reasoning": "向上滑动找设置。", "function": {"name": "swipe", "parameters": {"direction": "UP"}}},
...          {"reasoning": "点击右上角的设置按钮。", "function": {"name": "click", "parameters": {"target_element": "设置按钮"}}}]
>>> print(FORMAT.render(StepContext(ep, 0, items)))
{"current_state": {"evaluation_previous_goal": "Unknown - 任务刚开始，还没有执行过操作。", "memory": "尚未开始操作；目标：“Open settings”。", "next_goal": "向上滑动。"}, "action": [{"scroll_down": {}}]}
>>> ctx = StepContext(ep, 1, items)
>>> FORMAT.render(ctx).endswith('"action": [{"click_element": {"index": 0}}]}')
True
>>> FORMAT.parse(FORMAT.render(ctx), ctx) == FORMAT.quantize(ctx)
True
"""
from __future__ import annotations

import json

from ..model import Action
from . import elements as el
from . import mobile_agent as seed
from .base import AgentFormat, CannotExpress, StepContext, phone_only, register
from .memory import describe

_KEYS = {"back": "Back"}

SYSTEM = seed.SYSTEM.split("# Actions")[0] + """# Actions
- click_element: {"index": i} taps element i (not for typing).
- enter_text: {"index": i, "text": "..."} types into text field i. Always type this way, never tap keyboard keys.
- long_press_coordinates: {"x": x, "y": y} presses and holds at pixel (x, y) of the screenshot.
- swipe_coordinates: {"start_x": x1, "start_y": y1, "end_x": x2, "end_y": y2} moves the finger up or down from
  (x1, y1) towards (x2, y2), in screenshot pixels.
- scroll_down: {} / scroll_up: {} shows what is below / above (the finger moves up / down).
- send_keys: {"keys": "Back"} presses the Back button.
- done: {"text": "...", "success": true|false} ends the task; put everything the user asked to find in text.

# Rules
- Use only indexes listed for the current screen; if no listed element fits, scroll, swipe or go back.
- Dismiss pop-ups and dialogs by tapping their buttons; if stuck, try another route.
- Call done only when everything asked has been done, and not before."""


def call(ctx: StepContext) -> tuple[dict, el.Listed | None]:
    """The answer's single action and the listed element it addresses (if any)."""
    a = ctx.action
    el.need_tree(ctx)
    if a.type == "click":
        target = el.require_tap_target(ctx)
        return {"click_element": {"index": el.index_of(ctx.step, target)}}, target
    if a.type == "input":
        field = el.input_field(ctx)
        return {"enter_text": {"index": el.index_of(ctx.step, field), "text": a.text}}, field
    if a.type == "long_press" and a.point is not None:
        return {"long_press_coordinates": {"x": round(a.point[0]), "y": round(a.point[1])}}, None
    if a.type == "home" or a.type == "swipe" and a.point is not None and a.direction in ("left", "right"):
        what = "Home (its send_keys types the text 'home')" if a.type == "home" else \
            f"a {a.direction} swipe (it swipes up or down only)"
        raise CannotExpress("not_executed_as_recorded", f"step {ctx.index + 1}: app-use 0.0.3 would not execute "
                            f"{what}")
    if a.type == "swipe" and a.point is not None and a.end is not None:
        (x1, y1), (x2, y2) = a.point, a.end
        return {"swipe_coordinates": {"start_x": round(x1), "start_y": round(y1), "end_x": round(x2),
                                      "end_y": round(y2)}}, None
    if a.type == "swipe" and a.direction in ("up", "down"):
        return {"scroll_down" if a.direction == "up" else "scroll_up": {}}, None
    if a.type in _KEYS:
        return {"send_keys": {"keys": _KEYS[a.type]}}, None
    if a.type == "done":
        return {"done": {"text": a.text or seed.DONE_TEXT, "success": True}}, None
    what = f"a {a.direction} swipe without its points" if a.type == "swipe" else f"a {a.type} action"
    raise CannotExpress("action_not_in_format", f"step {ctx.index + 1}: app-use has no {what}")


def _said(prev: StepContext) -> str:
    try:
        action, target = call(prev)
    except CannotExpress:
        return describe(prev.action, prev.target, "zh")
    said = json.dumps(action, ensure_ascii=False)
    return said + (f" (<{target.kind}> '{target.label}')" if target is not None else "")


class AppUse(AgentFormat):
    name = "app-use"
    family = "qwen2.5-vl"
    language = "zh"
    platforms = ("mobile",)
    som = True
    coordinates = "element indexes; long press and swipe in screenshot pixels"

    def system_prompt(self, ctx: StepContext) -> str:
        return SYSTEM + (seed.SOM if ctx.som else "")

    def user_message(self, ctx: StepContext) -> str:
        phone_only(ctx, self.name)
        return seed.user_message(ctx, _said)

    def render(self, ctx: StepContext) -> str:
        phone_only(ctx, self.name)
        return json.dumps({"current_state": seed.state(ctx), "action": [call(ctx)[0]]}, ensure_ascii=False)

    def parse(self, text: str, ctx: StepContext) -> Action:
        (name, args), = json.loads(text)["action"][0].items()
        if name in ("click_element", "enter_text"):
            item = el.listed(ctx.step)[args["index"]]
            kind = "click" if name == "click_element" else "input"
            return Action(kind, point=item.center, element=item.node, text=args.get("text"))
        if name == "long_press_coordinates":
            return Action("long_press", point=(args["x"], args["y"]))
        if name == "swipe_coordinates":
            return Action("swipe", point=(args["start_x"], args["start_y"]), end=(args["end_x"], args["end_y"]))
        if name in ("scroll_down", "scroll_up"):
            return Action("swipe", direction="up" if name == "scroll_down" else "down")
        if name == "send_keys":
            return Action({v: k for k, v in _KEYS.items()}[args["keys"]])
        if name == "done":
            return Action("done", text=None if args.get("text") == seed.DONE_TEXT else args.get("text"))
        raise ValueError(f"app-use action {name!r} has no canonical action")

    def quantize(self, ctx: StepContext) -> Action:
        phone_only(ctx, self.name)
        a = ctx.action
        action, item = call(ctx)
        if item is not None:
            return Action(a.type, point=item.center, element=item.node, text=a.text if a.type == "input" else None)
        (name, args), = action.items()
        if name == "long_press_coordinates":
            return Action("long_press", point=(args["x"], args["y"]))
        if name == "swipe_coordinates":
            return Action("swipe", point=(args["start_x"], args["start_y"]), end=(args["end_x"], args["end_y"]))
        if a.type == "swipe":
            return Action("swipe", direction=a.direction)
        if a.type == "done":
            return Action("done", text=a.text if a.text and a.text != seed.DONE_TEXT else None)
        return Action(a.type)


FORMAT = register(AppUse())
