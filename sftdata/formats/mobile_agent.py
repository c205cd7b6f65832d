"""``mobile-agent``: seed 000's JSON answer over accessibility-tree element indexes (English frame, one action).

The user message lists the elements a model can use as ``[index]<Type> 'text'`` (:mod:`.elements`: labelled
or typed, boxes clipped to the screen, a tappable container named by its content). The answer is
``{"current_state": {"evaluation_previous_goal", "memory", "next_goal"}, "action": [{name: args}]}`` with
exactly one action: ``tap{index}``, ``long_press{index}`` (the listed element the tap addresses),
``enter_text{index, text}`` (the just-clicked or focused editable field), ``swipe{direction}`` (the finger's,
lowercase), ``open_app{app_name}``, ``back{}``, ``home{}``, ``wait{}``, ``done{text, success: true}``.

The three ``current_state`` fields are written in Chinese, in every sample (the frame and its keywords stay
the seed's English): ``evaluation_previous_goal`` is ``Unknown - ...`` on the first step, ``Failed - ...`` when
the previous step changed nothing on the screen (``meta["ineffective"]`` of that step), else ``Success - ...``,
naming the previous action (its ``action_summary``) and, when the item has one, this screen's
``observation``; ``memory`` is the item's ``memory`` or :func:`memory_text` (it counts the task; seed 000 has
the field in every answer, so ``--memory`` changes nothing here); ``next_goal`` is the item's
``action_summary`` and ``thought`` (one sentence), else the action described from the ground truth; never the
whole reasoning. History lines give each earlier step's next_goal and its call; a tap no listed element
addresses is described by the node's type and position. parse returns the element's centre as the point. A
step without an accessibility tree raises ``CannotExpress("no_accessibility_tree")`` whatever its action (the
listing is part of every sample). With ``--som`` the screenshot carries each listed element's box labelled
with its index (:mod:`sftdata.export.som`) and the system prompt says so.
The prompt speaks of an Android phone: a web episode raises ``CannotExpress("platform_not_mobile")`` (seed 003's
``browser-use`` is the page counterpart).

>>> from sftdata.model import Action, Element, Episode, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 540, 1200)
>>> btn = Element(0, (400, 50, 520, 110), text="Settings", class_name="android.widget.Button", flags=("clickable", "visible"))
>>> ep = Episode("e", "sample", "Open settings", [Step(0, shot, Action("click", point=(450, 80), element=btn), elements=[btn]),
...                                              Step(1, shot, Action("done"))])
>>> items = [{"reasoning": "点击右上角的设置按钮。", "thought": "设置入口在右上角，点它进入设置。", "action_summary": "点击“Settings”",
...           "memory": "尚未进入设置。", "function": {"name": "click", "parameters": {"target_element": "设置按钮"}}},
...          {"reasoning": "设置已打开，任务完成。", "function": {"name": "done", "parameters": {}}}]
>>> ctx = StepContext(ep, 0, items)
>>> print(FORMAT.render(ctx))
{"current_state": {"evaluation_previous_goal": "Unknown - 任务刚开始，还没有执行过操作。", "memory": "尚未进入设置。", "next_goal": "点击“Settings”：设置入口在右上角，点它进入设置。"}, "action": [{"tap": {"index": 0}}]}
>>> FORMAT.parse(FORMAT.render(ctx), ctx) == FORMAT.quantize(ctx)
True
"""
from __future__ import annotations

import json
from dataclasses import replace

from ..model import Action
from . import elements as el
from .base import AgentFormat, CannotExpress, StepContext, image_tags, phone_only, register
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

SOM = """
# Screenshot
Each listed element is outlined on the screenshot by a box labelled with its index."""


def _call(ctx: StepContext) -> tuple[dict, el.Listed | None]:
    """The answer's single action and the listed element it addresses (if any)."""
    a = ctx.action
    el.need_tree(ctx)
    if a.type in ("click", "long_press"):
        target = el.require_tap_target(ctx)
        return {"tap" if a.type == "click" else "long_press": {"index": el.index_of(ctx.step, target)}}, target
    if a.type == "input":
        field = el.input_field(ctx)
        return {"enter_text": {"index": el.index_of(ctx.step, field), "text": a.text}}, field
    if a.type == "swipe":
        return {"swipe": {"direction": a.direction}}, None
    if a.type == "open_app":
        return {"open_app": {"app_name": a.app}}, None
    if a.type == "done":
        return {"done": {"text": a.text or DONE_TEXT, "success": True}}, None
    return {a.type: {}}, None  # back, home, wait


def _summary(ctx: StepContext) -> str:
    """The step's action as a short Chinese imperative: the item's ``action_summary``, else from the ground
    truth (the reconstruction's target, else the listed element's label, else the node's type and place)."""
    own = ctx.field("action_summary")
    if own:
        return own.rstrip("。")
    a, target = ctx.action, ctx.target
    if a.type in ("click", "long_press") and not target and ctx.step.elements:
        item = el.tap_target(ctx.step)
        target = f"“{item.label}”" if item is not None and item.label else el.untargeted(ctx.step, "zh")
    return describe(a, target, "zh")


def _sentence(text: str) -> str:
    return text if text.endswith(("。", "！", "？", ".", "!", "?")) else text + "。"


def next_goal(ctx: StepContext) -> str:
    summary, thought = _summary(ctx), ctx.field("thought")
    if not thought:
        return _sentence(summary)
    thought = " ".join(thought.split())
    return _sentence(thought if summary in thought else f"{summary}：{thought}")


def _evaluation(ctx: StepContext) -> str:
    if ctx.index == 0:
        return "Unknown - 任务刚开始，还没有执行过操作。"
    prev = replace(ctx, index=ctx.index - 1)
    did = _summary(prev)
    if prev.step.meta.get("ineffective") is True:
        return f"Failed - 上一步{did}后界面没有变化，操作没有生效。"
    seen = ctx.field("observation")
    return f"Success - 上一步已{did}" + (f"；{_sentence(' '.join(seen.split()))}" if seen else "。")


def state(ctx: StepContext) -> dict:
    if not ctx.reasoning:
        raise CannotExpress("not_annotated", f"step {ctx.index + 1} has no reconstructed reasoning")
    memory = memory_text(ctx, "zh").removeprefix("记忆：")
    return {"evaluation_previous_goal": _evaluation(ctx), "memory": memory, "next_goal": next_goal(ctx)}


def _said(prev: StepContext) -> str:
    """An earlier step's action for the history: its call and element, or in words when there is none."""
    try:
        call, target = _call(prev)
    except CannotExpress:
        a = prev.action
        if a.type in ("click", "long_press") and a.point is not None and prev.step.elements:
            return describe(a, el.untargeted(prev.step, "zh"), "zh") + "（不在元素列表中）"
        return describe(a, prev.target, "zh")
    said = json.dumps(call, ensure_ascii=False)
    return said + (f" (<{target.kind}> '{target.label}')" if target is not None else "")


def user_message(ctx: StepContext, said) -> str:
    """Seed 000's user message: the task, each earlier step's next goal and its action (``said(prev)``), the
    screenshot and the listed elements."""
    lines = [f"Task: {ctx.episode.goal}", "Previous steps:"]
    for prev in ctx.earlier():
        goal = next_goal(prev) + " -> " if prev.reasoning else ""
        lines.append(f"Step {prev.index + 1}: {goal}{said(prev)}")
    if not ctx.earlier():
        lines.append("None")
    lines += ["Current App State:", image_tags(ctx), "Interactive Elements:", el.listing(ctx.step) or "None"]
    return "\n".join(lines)


class MobileAgent(AgentFormat):
    name = "mobile-agent"
    family = "qwen2.5-vl"  # the Mobile-Agent / GUI-Owl models are Qwen2.5-VL based
    language = "zh"  # of the generated current_state fields (the frame is seed 000's English)
    platforms = ("mobile",)
    som = True  # seed 000: "Bounding boxes with labels correspond to element indexes" (export --som)
    coordinates = "none: element indexes into the listed interactive elements (parse gives the element centre)"

    def system_prompt(self, ctx: StepContext) -> str:
        return SYSTEM + (SOM if ctx.som else "")

    def user_message(self, ctx: StepContext) -> str:
        phone_only(ctx, self.name)
        return user_message(ctx, _said)

    def render(self, ctx: StepContext) -> str:
        phone_only(ctx, self.name)
        return json.dumps({"current_state": state(ctx), "action": [_call(ctx)[0]]}, ensure_ascii=False)

    def parse(self, text: str, ctx: StepContext) -> Action:
        (name, args), = json.loads(text)["action"][0].items()
        item = el.listed(ctx.step)[args["index"]] if "index" in args else None
        point, element = (item.center, item.node) if item is not None else (None, None)
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
        phone_only(ctx, self.name)
        a = ctx.action
        item = _call(ctx)[1]
        point, element = (item.center, item.node) if item is not None else (None, None)
        if a.type in ("click", "long_press", "input"):
            return Action(a.type, point=point, element=element, text=a.text if a.type == "input" else None)
        if a.type == "swipe":
            return Action("swipe", direction=a.direction)
        if a.type == "done":
            return Action("done", text=a.text if a.text and a.text != DONE_TEXT else None)
        return Action(a.type, app=a.app)


FORMAT = register(MobileAgent())
