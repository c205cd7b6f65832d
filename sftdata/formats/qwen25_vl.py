"""``qwen2.5-vl``: seed 004 F.2's ``mobile_use`` tool, points in pixels of the smart-resized image.

The system prompt declares the ``mobile_use`` function, whose description gives the screen resolution
``{W'}x{H'}`` of the image the model sees (the Qwen2.5-VL smart resize of the screenshot, :mod:`.coords`).
The answer is ``Thought: {one sentence}\\nAction: {short Chinese imperative}\\n<tool_call>\\n{json}\\n</tool_call>``
(F.2: "one concise sentence explaining the next move", "one for Action"). The thought is the item's ``thought``
field, else the first sentence of the reasoning; with ``--memory`` the memory's progress is its opening clause,
still one sentence on one line. The action line is the item's ``action_summary``, else an imperative built from
the action and its ``target_element``. Earlier steps in the user message use the same short forms.
The call is ``{"name": "mobile_use", "arguments": {...}}``: ``click{coordinate}``,
``long_press{coordinate, time: 2}``, ``swipe{coordinate, coordinate2}``, ``type{text}``,
``system_button{button: "Back"|"Home"}``, ``open{text: app}``, ``wait{time: 2}``, ``terminate{status: "success"}`` (a ``done`` step's text is not carried). Coordinates are
``round(x * W' / W)``; parse maps them back to original pixels. Tool-call format: ``tools()`` gives the schema.
A web episode is written with Qwen's desktop ``computer_use`` tool instead (:mod:`.computer_use`).

>>> from sftdata.model import Action, Episode, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> ep = Episode("e", "sample", "打开设置", [Step(0, shot, Action("click", point=(540, 300))), Step(1, shot, Action("done"))])
>>> items = [{"reasoning": "需要先打开设置。", "function": {"name": "click", "parameters": {"target_element": "“设置”图标"}}},
...          {"reasoning": "已经完成。", "function": {"name": "done", "parameters": {}}}]
>>> ctx = StepContext(ep, 0, items)
>>> print(FORMAT.render(ctx))
Thought: 需要先打开设置。
Action: 点击“设置”图标
<tool_call>
{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [546, 301]}}
</tool_call>
>>> FORMAT.parse(FORMAT.render(ctx), ctx) == FORMAT.quantize(ctx)
True
>>> items[0].update(reasoning="桌面上有“设置”图标。点开它就能调整亮度。", action_summary="打开“设置”")
>>> print(FORMAT.thought(StepContext(ep, 0, items)))
Thought: 桌面上有“设置”图标。
Action: 打开“设置”
"""
from __future__ import annotations

import json
import re

from ..families import FAMILIES, point_families
from ..model import Action
from . import computer_use, coords, short
from .base import AgentFormat, CannotExpress, StepContext, image_tags, register
from .memory import describe, memory_text

_CALL = re.compile(r"<tool_call>\s*(\{.*\})\s*</tool_call>", re.S)
_ACTIONS = {  # action -> what it does, in the tool description
    "key": "send an adb keyevent, e.g. \"volume_up\", \"volume_down\", \"power\", \"camera\", \"clear\"",
    "click": "tap the screen at coordinate (x, y)",
    "long_press": "press and hold the screen at coordinate (x, y) for `time` seconds",
    "swipe": "move the finger from coordinate (x, y) to coordinate2 (x2, y2)",
    "type": "enter `text` into the focused input box",
    "answer": "give `text` as the answer",
    "system_button": "press a system button",
    "open": "launch the app named `text`",
    "wait": "wait `time` seconds for the screen to change",
    "terminate": "end the task and report whether it succeeded",
}


class MobileUse(AgentFormat):
    """The ``mobile_use`` tool family (seed 004 F.2/F.3); subclasses change the point space and the enum."""

    name = "qwen2.5-vl"
    family = "qwen2.5-vl"
    families = point_families(family)  # points are pixels of the family's smart resize: those resizing alike
    language = "zh"
    coordinates = f"pixels of the smart-resized image (Qwen2.5-VL rule, factor {FAMILIES[family].factor}): " \
                  "x' = round(x * W' / W)"
    tool_call = True
    enum = tuple(_ACTIONS)
    text_actions = ("key", "type", "answer", "open")
    human_name = True  # F.2's schema also carries name_for_human and args_format
    computer_enum = computer_use.QWEN25_ENUM  # the desktop tool's actions, for web episodes

    def resolution(self, ctx: StepContext) -> tuple[int, int]:
        return coords.resized_size(ctx.size, self.family, **coords.limits(ctx))

    def forward(self, point, ctx: StepContext) -> list[int]:
        return list(coords.to_resized(point, ctx.size, self.family, **coords.limits(ctx)))

    def back(self, point, ctx: StepContext) -> tuple[int, int]:
        return coords.from_resized(tuple(point), ctx.size, self.family, **coords.limits(ctx))

    def tools(self, ctx: StepContext) -> list[dict]:
        if ctx.episode.web:
            return computer_use.tools(self, ctx, self.computer_enum, self.human_name)
        w, h = self.resolution(ctx)
        xy = "(x, y): pixels from the left edge and from the top edge."
        only = (lambda names: "Only for " + ", ".join(f"`action={n}`" for n in names) + ".")
        props = {
            "action": {"description": "What to do:\n" + "\n".join(f"* `{a}`: {_ACTIONS[a]}." for a in self.enum),
                       "enum": list(self.enum), "type": "string"},
            "coordinate": {"description": f"{xy} {only(['click', 'long_press', 'swipe'])}", "type": "array"},
            "coordinate2": {"description": f"{xy} End point. {only(['swipe'])}", "type": "array"},
            "text": {"description": only(self.text_actions), "type": "string"},
            "time": {"description": f"Seconds. {only(['long_press', 'wait'])}", "type": "number"},
            "button": {"description": "Back: previous screen; Home: home screen; Menu: recent apps; Enter: the "
                       f"enter key. {only(['system_button'])}", "enum": ["Back", "Home", "Menu", "Enter"],
                       "type": "string"},
            "status": {"description": f"How the task ended. {only(['terminate'])}", "type": "string",
                       "enum": ["success", "failure"]},
        }
        function = {"name": "mobile_use", "description": (
            "Operate a touchscreen mobile device and take screenshots.\n* You can tap, type, swipe and more.\n"
            "* Apps may need time to open or respond: wait, then look at the next screenshot.\n"
            f"* The screen's resolution is {w}x{h}.\n"
            "* Tap the centre of buttons, links and icons, not their edges."),
            "parameters": {"properties": props, "required": ["action"], "type": "object"}}
        if self.human_name:
            function = {"name_for_human": "mobile_use", **function, "args_format": "Arguments are a JSON object."}
        return [{"type": "function", "function": function}]

    def system_prompt(self, ctx: StepContext) -> str:
        tools = "\n".join(json.dumps(t, ensure_ascii=False) for t in self.tools(ctx))
        # with --agent-tools, ms-swift's hermes agent template appends the tools and the call syntax itself
        listing = "" if ctx.agent_tools else (
            "# Tools\n\nYou can call functions to help with the user's request. "
            f"Their signatures are inside <tools></tools> XML tags:\n<tools>\n{tools}\n</tools>\n\n"
            "Write each function call as a JSON object with the function name and its arguments, inside "
            "<tool_call></tool_call> XML tags:\n<tool_call>\n"
            '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>\n\n')
        calls = (_WEB_CALLS if ctx.episode.web else
                 "3) One <tool_call>...</tool_call> block holding only the call JSON.\n")
        return (FAMILIES[self.family].agent_system + "\n\n" + listing
                + "# Response format\n\nEvery reply has three parts, in this order and nothing else:\n"
                "1) Thought: one short sentence on why the next move is the right one.\n"
                "2) Action: one short imperative saying what to do on the screen.\n"
                + calls + "When the task is finished, call action=terminate.")

    def arguments(self, ctx: StepContext) -> dict:
        a = ctx.action
        if a.type in ("click", "long_press"):
            if a.point is None:
                raise CannotExpress("no_coordinates", f"step {ctx.index + 1}: a {a.type} without a point")
            out = {"action": a.type, "coordinate": self.forward(a.point, ctx)}
            return {**out, "time": 2} if a.type == "long_press" else out
        if a.type == "swipe":
            if a.point is None:
                raise CannotExpress("swipe_without_points", f"step {ctx.index + 1}: a swipe needs start and end points")
            start, end = self.forward(a.point, ctx), self.forward(a.end, ctx)
            if self.back(start, ctx) == self.back(end, ctx):
                raise CannotExpress("swipe_too_short", f"step {ctx.index + 1}: the swipe collapses to one point")
            return {"action": "swipe", "coordinate": start, "coordinate2": end}
        if a.type == "input":
            return {"action": "type", "text": a.text}
        if a.type in ("back", "home"):
            return {"action": "system_button", "button": a.type.capitalize()}
        if a.type == "open_app":
            if "open" not in self.enum:
                raise CannotExpress("action_not_in_format", f"step {ctx.index + 1}: {self.name} has no open action")
            return {"action": "open", "text": a.app}
        if a.type == "wait":
            return {"action": "wait", "time": 2}
        return {"action": "terminate", "status": "success"}

    def thought(self, ctx: StepContext) -> str:
        """``Thought: ...\\nAction: ...`` (the assistant text before the tool call): one sentence on one line,
        with the memory's progress as its opening clause when memory is on; then the short imperative."""
        if not ctx.reasoning:
            raise CannotExpress("not_annotated", f"step {ctx.index + 1} has no reconstructed reasoning")
        said = short.thought(ctx)
        if ctx.memory:
            said = short.fold(memory_text(ctx, "zh"), said)
        return f"Thought: {said}\nAction: {_action_line(ctx)}"

    def tool_call_message(self, ctx: StepContext) -> dict | list[dict]:
        if ctx.episode.web:
            return computer_use.messages(self, ctx)
        return {"name": "mobile_use", "arguments": self.arguments(ctx)}

    def user_message(self, ctx: StepContext) -> str:
        lines = [f"User task: {ctx.episode.goal}"]
        earlier = ctx.earlier()
        if earlier:
            lines.append("Previous steps:")
        for prev in earlier:
            try:
                said = computer_use.calls(self, prev) if prev.episode.web else self.arguments(prev)
                call = " " + json.dumps(said, ensure_ascii=False)
            except CannotExpress:
                call = ""
            lines.append(f"Step {prev.index + 1}: Thought: {short.thought(prev)} Action: {_action_line(prev)}{call}")
        lines.append("Current screenshot:" if len(ctx.image_steps()) == 1 else "Screenshots (the last is current):")
        lines.append(image_tags(ctx))
        return "\n".join(lines)

    def render(self, ctx: StepContext) -> str:
        if ctx.episode.web:
            return f"{self.thought(ctx)}\n{computer_use.render_calls(self, ctx)}"
        call = json.dumps(self.tool_call_message(ctx), ensure_ascii=False)
        return f"{self.thought(ctx)}\n<tool_call>\n{call}\n</tool_call>"

    def parse(self, text: str, ctx: StepContext) -> Action:
        if ctx.episode.web:
            return computer_use.parse(self, text, ctx)
        match = _CALL.search(text)
        if match is None:
            raise ValueError("no <tool_call> block in the answer")
        args = json.loads(match.group(1))["arguments"]
        kind = args["action"]
        if kind in ("click", "long_press"):
            return Action(kind, point=self.back(args["coordinate"], ctx))
        if kind == "swipe":
            return Action("swipe", point=self.back(args["coordinate"], ctx), end=self.back(args["coordinate2"], ctx))
        if kind == "type":
            return Action("input", text=args["text"])
        if kind == "system_button" and args["button"] in ("Back", "Home"):
            return Action(args["button"].lower())
        if kind == "open":
            return Action("open_app", app=args["text"])
        if kind in ("wait", "terminate"):
            return Action("wait" if kind == "wait" else "done")
        raise ValueError(f"mobile_use action {kind!r} has no canonical action")

    def quantize(self, ctx: StepContext) -> Action:
        if ctx.episode.web:
            return computer_use.quantize(self, ctx)
        self.arguments(ctx)  # raises for what the format cannot say
        a = ctx.action
        q = (lambda p: self.back(self.forward(p, ctx), ctx))
        if a.type in ("click", "long_press"):
            return Action(a.type, point=q(a.point))
        if a.type == "swipe":
            return Action("swipe", point=q(a.point), end=q(a.end))
        return Action(a.type, text=a.text if a.type == "input" else None, app=a.app)


_WEB_CALLS = ("3) One <tool_call>...</tool_call> block holding only the call JSON; to type into a field, two blocks: "
              "left_click on the field, then type.\n")


def _action_line(ctx: StepContext) -> str:
    """The ``Action:`` line: the item's ``action_summary``, else :func:`_imperative` (one line either way)."""
    return short.one_line(short.action_summary(ctx, _imperative(ctx)))


def _imperative(ctx: StepContext) -> str:
    """A short Chinese imperative for the ``Action:`` line, naming the target when the reconstruction has one."""
    a = short.spoken(ctx.action)
    if a.type in ("click", "long_press"):
        return describe(a, None, "zh") + (ctx.target or computer_use.element_name(ctx) or "目标元素")
    if ctx.episode.web:  # the field typed into, the dropdown chosen from
        return describe(a, ctx.target or computer_use.element_name(ctx), "zh")
    return describe(a, None, "zh")


FORMAT = register(MobileUse())
