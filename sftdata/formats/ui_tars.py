"""``ui-tars``: seed 004 F.4's ``Thought:`` / ``Action:`` lines, points in pixels of the smart-resized image.

The answer is ``Thought: {plan}\\nAction: {call}``. F.4's Note asks for "a small plan" and "finally ... your
next action (with its target element) in one sentence": the Thought is one line holding the memory
(``--memory``), the reconstructed reasoning, and a closing ``下一步：{summary}。`` (the item's ``action_summary``,
else the action described with its ``target_element``). Earlier steps in the history give their one-sentence
thought (the ``thought`` field, else the first sentence of the reasoning). One call: ``click(point='<point>x y</point>')``,
``long_press(point=...)``, ``type(content='...')``, ``scroll(point=..., direction='down')``,
``open_app(app_name='...')``, ``press_home()``, ``press_back()``, ``finished(content='...')``. Points are
pixels of the image the ``ui-tars`` family sees, written in its point markup (its record: UI-TARS-1.5 is built on
Qwen2.5-VL and sees its smart-resized image; :mod:`.coords`). A scroll
starts at the swipe's start point and names the scroll direction (towards the content brought into view),
the opposite of the finger (finger up -> ``'down'``); parse maps it back to the finger's direction (the point
is not kept: a canonical swipe has both points or neither). Strings are
single-quoted with ``\\\\``, ``\\'``, ``\\"`` and ``\\n`` escaped, and read back with :func:`ast.literal_eval`.
F.4 has no wait: a ``wait`` step raises ``CannotExpress("action_not_in_format")``.

A web episode uses UI-TARS's computer action space (:data:`SYSTEM_WEB`, same point space): ``click(point)``,
``type(content)`` (it writes where the focus is, so a ``type`` step is said only when the previous step clicked
the same field; otherwise ``CannotExpress("field_not_focused")``: one action per answer cannot both click and
type; parse places typing that follows a click at that click), ``scroll(point, direction)`` (the direction the view
moves, as the canonical scroll; the point is the step's, else the screen's centre, and is not kept),
``hotkey(key='alt left')`` for back, ``hotkey(key='ctrl t')`` for a new tab, ``wait()`` and ``finished``. It has no
dropdown choice or address bar action: ``select``, ``go_to_url`` and ``new_tab`` with a url raise
``CannotExpress("action_not_in_format")``, as do the phone's actions.

>>> from sftdata.model import Action, Episode, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> ep = Episode("e", "sample", "发消息", [Step(0, shot, Action("input", text="It's 5点\\n")), Step(1, shot, Action("done"))])
>>> items = [{"reasoning": "输入消息并发送。", "function": {"name": "input", "parameters": {"text": "It's 5点\\n"}}},
...          {"reasoning": "已经完成。", "function": {"name": "done", "parameters": {}}}]
>>> ctx = StepContext(ep, 0, items)
>>> print(FORMAT.render(ctx))
Thought: 输入消息并发送。下一步：输入“It's 5点”。
Action: type(content='It\\'s 5点\\n')
>>> FORMAT.parse(FORMAT.render(ctx), ctx) == FORMAT.quantize(ctx)
True
"""
from __future__ import annotations

import re

from ..families import FAMILIES, point_families
from ..model import OPPOSITE, Action
from . import computer_use, coords, short
from .androidlab import read_call
from .base import AgentFormat, CannotExpress, StepContext, clicked_before, image_tags, register, typing_focus
from .memory import describe, memory_text

DONE_TEXT = "任务已完成"
NEXT = "下一步："  # opens the Thought's closing sentence, the next action with its target
_ESCAPES = {"\\": "\\\\", "'": "\\'", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_ACTION_LINE = re.compile(r"^Action:\s*(.+)$", re.M)

SYSTEM = """You are a GUI agent operating a phone. You get a task, the actions taken so far and screenshots, and you
decide the next action that moves the task forward.

## Output Format
```
Thought: ...
Action: ...
```

## Action Space
click(point='<point>x1 y1</point>')
long_press(point='<point>x1 y1</point>')
type(content='') #To submit what you typed, end `content` with "\\n".
scroll(point='<point>x1 y1</point>', direction='down or up or right or left') #direction is the scroll direction: 'down' brings up what lies further down (the finger moves up).
open_app(app_name='')
drag(start_point='<point>x1 y1</point>', end_point='<point>x2 y2</point>')
press_home()
press_back()
finished(content='xxx') #Escape \\', \\" and newlines (\\n) in content so it reads as a normal Python string.

## Note
- Points are pixels of the screenshot as you see it.
- Write the Thought part in Chinese.
- In Thought, make a small plan, then sum up the next action and its target element in one sentence."""


SYSTEM_WEB = """You are a GUI agent operating a web browser on a computer. You get a task, the actions taken so far and
screenshots, and you decide the next action that moves the task forward.

## Output Format
```
Thought: ...
Action: ...
```

## Action Space
click(point='<point>x1 y1</point>')
left_double(point='<point>x1 y1</point>')
right_single(point='<point>x1 y1</point>')
drag(start_point='<point>x1 y1</point>', end_point='<point>x2 y2</point>')
hotkey(key='ctrl c') #Keys split by spaces, lowercase, at most 3.
type(content='') #Types where the focus is: click the field first. To submit, end `content` with "\\n".
scroll(point='<point>x1 y1</point>', direction='down or up or right or left') #Shows more of the page on the `direction` side.
wait() #Waits 5 seconds, then takes a screenshot.
finished(content='xxx') #Escape \\', \\" and newlines (\\n) in content so it reads as a normal Python string.

## Note
- Points are pixels of the screenshot as you see it.
- Write the Thought part in Chinese.
- In Thought, make a small plan, then sum up the next action and its target element in one sentence."""
_HOTKEYS = {"back": "alt left", "new_tab": "ctrl t"}


def _q(text: str) -> str:
    return "'" + "".join(_ESCAPES.get(c, c) for c in text) + "'"


_UI_TARS = FAMILIES["ui-tars"]  # the point convention of its answers: its image space and point markup


class UITars(AgentFormat):
    name = "ui-tars"
    family = _UI_TARS.base  # an export trains the base model UI-TARS-1.5 is tuned from unless --family ui-tars
    families = point_families(family)  # those whose resized image is UI-TARS's
    language = "zh"
    coordinates = f"pixels of the smart-resized image (Qwen2.5-VL rule), {_UI_TARS.point_text('x', 'y')}"

    def forward(self, point, ctx: StepContext) -> tuple[int, int]:
        """``point`` (original pixels) in the image UI-TARS sees (its resize, the context's pixel limits)."""
        return coords.to_resized(point, ctx.size, _UI_TARS.name, **coords.limits(ctx))

    def back(self, point, ctx: StepContext) -> tuple[int, int]:
        return coords.from_resized(point, ctx.size, _UI_TARS.name, **coords.limits(ctx))

    def _point(self, point, ctx: StepContext) -> str:
        return _q(_UI_TARS.point_text(*self.forward(point, ctx)))

    def call(self, ctx: StepContext) -> str:
        a = ctx.action
        if ctx.episode.web:
            return self._web_call(ctx)
        if a.type in ("click", "long_press"):
            if a.point is None:
                raise CannotExpress("no_coordinates", f"step {ctx.index + 1}: a {a.type} without a point")
            return f"{a.type}(point={self._point(a.point, ctx)})"
        if a.type == "swipe":
            if a.point is None:
                raise CannotExpress("swipe_without_points", f"step {ctx.index + 1}: a scroll needs its start point")
            return f"scroll(point={self._point(a.point, ctx)}, direction='{OPPOSITE[a.direction]}')"
        if a.type == "input":
            return f"type(content={_q(a.text)})"
        if a.type == "open_app":
            return f"open_app(app_name={_q(a.app)})"
        if a.type in ("back", "home"):
            return f"press_{a.type}()"
        if a.type == "done":
            return f"finished(content={_q(a.text or DONE_TEXT)})"
        raise CannotExpress("action_not_in_format", f"step {ctx.index + 1}: UI-TARS (F.4) has no {a.type} action")

    def _web_call(self, ctx: StepContext) -> str:
        a = ctx.action
        if a.type == "click" and a.point is not None:
            return f"click(point={self._point(a.point, ctx)})"
        if a.type == "type":
            typing_focus(ctx, "UI-TARS")
            return f"type(content={_q(a.text)})"
        if a.type == "input":
            return f"type(content={_q(a.text)})"
        if a.type == "scroll":
            w, h = ctx.size
            return f"scroll(point={self._point(a.point or (w // 2, h // 2), ctx)}, direction='{a.direction}')"
        if a.type in _HOTKEYS and not a.url:
            return f"hotkey(key='{_HOTKEYS[a.type]}')"
        if a.type == "wait":
            return "wait()"
        if a.type == "done":
            return f"finished(content={_q(a.text or DONE_TEXT)})"
        what = "a new tab at an address" if a.type == "new_tab" else f"a {a.type} action"
        raise CannotExpress("action_not_in_format", f"step {ctx.index + 1}: UI-TARS's computer actions have no {what}")

    def thought(self, ctx: StepContext) -> str:
        """One line: the memory (``--memory``), the reasoning as the small plan, then one sentence that sums up
        the next action with its target (F.4's Note)."""
        if not ctx.reasoning:
            raise CannotExpress("not_annotated", f"step {ctx.index + 1} has no reconstructed reasoning")
        memory = short.one_line(memory_text(ctx, "zh")) + " " if ctx.memory else ""
        plan = short.one_line(ctx.reasoning)
        said = describe(short.spoken(ctx.action), ctx.target or computer_use.element_name(ctx), "zh")
        summary = short.one_line(short.action_summary(ctx, said)).rstrip("。.")
        return f"{memory}{plan}{'' if plan.endswith(('。', '！', '？', '.')) else '。'}{NEXT}{summary}。"

    def system_prompt(self, ctx: StepContext) -> str:
        return SYSTEM_WEB if ctx.episode.web else SYSTEM

    def user_message(self, ctx: StepContext) -> str:
        lines = ["## User Instruction", ctx.episode.goal]
        earlier = ctx.earlier()
        if earlier:
            lines.append("## Action History")
        for prev in earlier:
            try:
                said = self.call(prev)
            except CannotExpress:
                said = describe(prev.action, prev.target, "zh")
            lines.append(f"Step {prev.index + 1}: Thought: {short.thought(prev)} Action: {said}")
        lines.append("## Screenshot" if len(ctx.image_steps()) == 1 else "## Screenshots (the last is current)")
        lines.append(image_tags(ctx))
        return "\n".join(lines)

    def render(self, ctx: StepContext) -> str:
        call = self.call(ctx)
        return f"Thought: {self.thought(ctx)}\nAction: {call}"

    def parse(self, text: str, ctx: StepContext) -> Action:
        lines = _ACTION_LINE.findall(text)
        name, args = read_call(lines[-1] if lines else text)
        point = _UI_TARS.point_pattern
        back = (lambda s: self.back(tuple(int(v) for v in point.search(s).groups()), ctx))
        if name in ("click", "long_press"):
            return Action(name, point=back(args["point"]))
        if name == "scroll" and ctx.episode.web:
            return Action("scroll", direction=args["direction"].lower())
        if name == "scroll":
            return Action("swipe", direction=OPPOSITE[args["direction"].lower()])
        if name == "type" and ctx.episode.web and clicked_before(ctx) is not None:  # typed into the field just clicked
            return Action("type", text=args["content"], point=self.back(self.forward(clicked_before(ctx), ctx), ctx))
        if name == "type":
            return Action("input", text=args["content"])
        if name == "hotkey":
            return Action({v: k for k, v in _HOTKEYS.items()}[args["key"]])
        if name == "wait":
            return Action("wait")
        if name == "open_app":
            return Action("open_app", app=args["app_name"])
        if name in ("press_back", "press_home"):
            return Action(name[len("press_"):])
        if name == "finished":
            content = args.get("content")
            return Action("done", text=None if content in (None, "", DONE_TEXT) else content)
        raise ValueError(f"UI-TARS action {name!r} has no canonical action")

    def quantize(self, ctx: StepContext) -> Action:
        self.call(ctx)  # raises for what the format cannot say
        a = ctx.action
        if a.type in ("click", "long_press"):
            return Action(a.type, point=self.back(self.forward(a.point, ctx), ctx))
        if a.type == "swipe":
            return Action("swipe", direction=a.direction)
        if a.type in ("type", "input") and ctx.episode.web and clicked_before(ctx) is not None:
            field = typing_focus(ctx, "UI-TARS") if a.type == "type" else clicked_before(ctx)
            return Action("type", text=a.text, point=self.back(self.forward(field, ctx), ctx))
        if a.type in ("scroll", "back", "new_tab", "wait"):
            return Action(a.type, direction=a.direction)
        if a.type == "done":
            return Action("done", text=a.text if a.text and a.text != DONE_TEXT else None)
        return Action(a.type, text=a.text if a.type == "input" else None, app=a.app)


FORMAT = register(UITars())
