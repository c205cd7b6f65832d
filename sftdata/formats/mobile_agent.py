"""``mobile-agent``: seed 000's JSON answer over accessibility-tree element indexes (English frame, one action).

The user message lists the interactive elements as ``[index]<Type> 'text'`` (:mod:`.elements`: visible,
positive area, clickable / long_clickable / editable / scrollable / checkable; indexed in element order).
The answer is ``{"current_state": {"evaluation_previous_goal", "memory", "next_goal"}, "action": [{name: args}]}``
with exactly one action: ``tap{index}``, ``long_press{index}`` (the smallest enclosing tappable element),
``enter_text{index, text}`` (the just-clicked or focused editable field), ``swipe{direction}`` (the finger's,
lowercase), ``open_app{app_name}``, ``back{}``, ``home{}``, ``wait{}``, ``done{text, success: true}``.
``evaluation_previous_goal`` is "Unknown - first step" or "Success - ..." (ground-truth trajectories);
``memory`` is :func:`memory_text` in English with ``memory`` on, else a one-line progress note;
``next_goal`` is the Chinese reasoning. parse returns the element's centre as the point. A step without an
accessibility tree raises ``CannotExpress("no_accessibility_tree")`` whatever its action (the listing is
part of every sample).

>>> from sftdata.model import Action, Element, Episode, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 540, 1200)
>>> btn = Element(0, (400, 50, 520, 110), text="Settings", class_name="android.widget.Button", flags=("clickable", "visible"))
>>> ep = Episode("e", "sample", "Open settings", [Step(0, shot, Action("click", point=(450, 80), element=btn), elements=[btn]),
...                                              Step(1, shot, Action("done"))])
>>> items = [{"reasoning": "点击右上角的设置按钮。", "function": {"name": "click", "parameters": {"target_element": "设置按钮"}}},
...          {"reasoning": "设置已打开，任务完成。", "function": {"name": "done", "parameters": {}}}]
>>> ctx = StepContext(ep, 0, items)
>>> print(FORMAT.render(ctx))
{"current_state": {"evaluation_previous_goal": "Unknown - first step", "memory": "Starting the task; nothing done yet.", "next_goal": "点击右上角的设置按钮。"}, "action": [{"tap": {"index": 0}}]}
>>> FORMAT.parse(FORMAT.render(ctx), ctx) == FORMAT.quantize(ctx)
True
"""
from __future__ import annotations

import json

from ..model import Action, Element
from . import elements as el
from .base import AgentFormat, CannotExpress, StepContext, image_tags, register
from .memory import describe, memory_text

DONE_TEXT = "Task completed."

SYSTEM = """You operate an Android phone on a user's behalf, one action at a time, until the task is finished.

# What you receive
- The task, and the steps taken so far.
- A screenshot of the current screen.
- The interactive elements of the screen, one per line, as [index]<element_type> 'text':
  [12]<Button> 'Send'
  [13]<EditText> 'Message' (text input - use enter_text action)
  index identifies the element, element_type is its Android widget class, text is its visible text or
  description. Only elements that carry an index can be addressed. Fields marked
  "(text input - use enter_text action)" accept text.

# How you answer
Reply with one valid JSON object and nothing else:
{"current_state": {"evaluation_previous_goal": "Success|Failed|Unknown - did the previous action achieve what it aimed at, judged from this screen; say briefly why",
 "memory": "what has been done so far and what must be remembered; for repeated work count done and remaining, e.g. 2 of 5 contacts updated",
 "next_goal": "what the next action is meant to achieve"},
 "action": [{"action_name": {parameters}}]}
The action list holds exactly one action.

# Actions
- tap: {"index": i} taps element i.
- long_press: {"index": i} presses and holds element i.
- enter_text: {"index": i, "text": "..."} types into text field i. Always type this way, never tap keyboard keys.
- swipe: {"direction": "up"|"down"|"left"|"right"} moves the finger in that direction; "up" reveals content further down.
- open_app: {"app_name": "..."} launches an app.
- back: {} presses the Back button.
- home: {} goes to the home screen.
- wait: {} waits while the screen is loading.
- done: {"text": "...", "success": true|false} ends the task; put everything the user asked to find in text.

# Rules
- Use only indexes listed for the current screen; if no listed element fits, swipe, go back or wait.
- Dismiss pop-ups and dialogs by tapping their buttons; if stuck, try another route.
- Call done only when everything asked has been done, and not before."""


def _call(ctx: StepContext) -> tuple[dict, Element | None]:
    """The answer's single action and the element it addresses (if any)."""
    a = ctx.action
    el.need_tree(ctx)
    if a.type in ("click", "long_press"):
        target = el.require_tap_target(ctx)
        return {"tap" if a.type == "click" else "long_press": {"index": el.interactive(ctx.step).index(target)}}, target
    if a.type == "input":
        field = el.input_field(ctx)
        return {"enter_text": {"index": el.interactive(ctx.step).index(field), "text": a.text}}, field
    if a.type == "swipe":
        return {"swipe": {"direction": a.direction}}, None
    if a.type == "open_app":
        return {"open_app": {"app_name": a.app}}, None
    if a.type == "done":
        return {"done": {"text": a.text or DONE_TEXT, "success": True}}, None
    return {a.type: {}}, None  # back, home, wait


def _did(action: Action) -> str:
    """A past action in English, naming the element it touched when the tree knows its label."""
    name = el.label(action.element) if action.element is not None else ""
    return describe(action, f"'{name}'" if name else None, "en")


def _state(ctx: StepContext) -> dict:
    if not ctx.reasoning:
        raise CannotExpress("not_annotated", f"step {ctx.index} has no reconstructed reasoning")
    did = _did(ctx.episode.steps[ctx.index - 1].action) if ctx.index else ""
    evaluation = f"Success - {did} as planned; the screen shows the result." if ctx.index else "Unknown - first step"
    if ctx.memory:
        memory = memory_text(ctx, "en").removeprefix("Memory: ")
    elif ctx.index == 0:
        memory = "Starting the task; nothing done yet."
    else:
        memory = f"{ctx.index} action{'s' if ctx.index > 1 else ''} done so far; last: {did}."
    return {"evaluation_previous_goal": evaluation, "memory": memory, "next_goal": ctx.reasoning}


class MobileAgent(AgentFormat):
    name = "mobile-agent"
    family = "qwen2.5-vl"  # the Mobile-Agent / GUI-Owl models are Qwen2.5-VL based
    language = "en"
    coordinates = "none: element indexes into the listed interactive elements (parse gives the element centre)"

    def system_prompt(self, ctx: StepContext) -> str:
        return SYSTEM

    def user_message(self, ctx: StepContext) -> str:
        lines = [f"Task: {ctx.episode.goal}", "Previous steps:"]
        for prev in ctx.earlier():
            try:
                call, target = _call(prev)
                said = json.dumps(call, ensure_ascii=False)
                if target is not None:
                    said += f" (<{el.kind(target)}> '{el.label(target)}')"
            except CannotExpress:
                said = describe(prev.action, prev.target, "en")
            lines.append(f"Step {prev.index + 1}: {prev.reasoning + ' -> ' if prev.reasoning else ''}{said}")
        if not ctx.earlier():
            lines.append("None")
        lines += ["Current App State:", image_tags(ctx), "Interactive Elements:", el.listing(ctx.step) or "None"]
        return "\n".join(lines)

    def render(self, ctx: StepContext) -> str:
        state = _state(ctx)
        return json.dumps({"current_state": state, "action": [_call(ctx)[0]]}, ensure_ascii=False)

    def parse(self, text: str, ctx: StepContext) -> Action:
        (name, args), = json.loads(text)["action"][0].items()
        listed = el.interactive(ctx.step)
        element = listed[args["index"]] if "index" in args else None
        point = element.center if element is not None else None
        if name in ("tap", "long_press"):
            return Action("click" if name == "tap" else "long_press", point=point, element=element)
        if name == "enter_text":
            return Action("input", text=args["text"], point=point, element=element)
        if name == "swipe":
            return Action("swipe", direction=args["direction"].lower())
        if name == "open_app":
            return Action("open_app", app=args["app_name"])
        if name == "done":
            return Action("done", text=None if args.get("text") == DONE_TEXT else args.get("text"))
        return Action(name)

    def quantize(self, ctx: StepContext) -> Action:
        a = ctx.action
        call, element = _call(ctx)
        point = element.center if element is not None else None
        if a.type in ("click", "long_press", "input"):
            return Action(a.type, point=point, element=element, text=a.text if a.type == "input" else None)
        if a.type == "swipe":
            return Action("swipe", direction=a.direction)
        if a.type == "done":
            return Action("done", text=a.text if a.text and a.text != DONE_TEXT else None)
        return Action(a.type, app=a.app)


FORMAT = register(MobileAgent())
