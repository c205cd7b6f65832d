"""``androidlab``: seed 004 F.1's ``<think>`` + ``<answer>`` pseudo-code, element boxes in pixels, Chinese thought.

The answer is ``<think>\\n{reasoning}\\n</think>\\n<answer>\\n{code}\\n</answer>`` with one line of F.1 code:
``do(action="Tap", element=[x1, y1, x2, y2])`` and ``do(action="Long Press", element=[...])`` (the box, clipped
to the screen, of the listed element the tap addresses, :mod:`.elements`; parse gives its centre),
``do(action="Type", text="...")``, ``do(action="Swipe", direction="up", dist="medium", element=[...])``
(the finger's direction; element = the largest listed scrollable element containing the start point, omitted
when there is none), ``do(action="Launch", app="...")``, ``do(action="Back")`` and ``finish(message="...")``.
F.1 has no Home and no Wait: those steps raise ``CannotExpress("action_not_in_format")``. Strings are written
as escaped literals and read back with :func:`ast.literal_eval`. The user message lists the listed elements
with their clipped boxes; a step without an accessibility tree raises ``CannotExpress("no_accessibility_tree")``,
whatever its action.
F.1 is an Android contract: a web episode raises ``CannotExpress("platform_not_mobile")``.

``androidlab-fenced`` is the same answer with the code line inside a Markdown code fence in ``<answer>``
(```` ``` ```` lines around it): Android-Lab's evaluation passes the model's answer to its executor through
``get_code_snippet``, which runs the last line of the first fenced block, or the whole text when there is none
(then ``exec`` fails on ``<think>``); MobileRL's takes ``<answer>``'s content the same way. The fenced answer
runs on both paths; the seed's runs only where the tags are stripped first.

Earlier steps are written in F.1 code too. One the answer grammar cannot address is still said in F.1 terms
where it can be: a tap no listed element addresses names the box of the node the finger hit (clipped), a
step without a tree is said in words with F.1's operation name ("(Tap on the element at the top right of
the screen)"), and
Home and Wait, which F.1 cannot say, are said in words ("(went to the home screen)"). No history line ever
holds a point.

>>> from sftdata.model import Action, Element, Episode, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 540, 1200)
>>> box = Element(0, (18, 75, 522, 131), text="搜索", class_name="android.widget.EditText", flags=("clickable", "editable", "visible"))
>>> ep = Episode("e", "sample", "搜索耳机", [Step(0, shot, Action("click", point=(257, 102), element=box), elements=[box]),
...                                         Step(1, shot, Action("done"))])
>>> items = [{"reasoning": "点击顶部的搜索框。", "function": {"name": "click", "parameters": {"target_element": "搜索框"}}},
...          {"reasoning": "完成。", "function": {"name": "done", "parameters": {}}}]
>>> ctx = StepContext(ep, 0, items)
>>> print(FORMAT.render(ctx))
<think>
点击顶部的搜索框。
</think>
<answer>
do(action="Tap", element=[18, 75, 522, 131])
</answer>
>>> FORMAT.parse(FORMAT.render(ctx), ctx) == FORMAT.quantize(ctx)
True
"""
from __future__ import annotations

import ast
import json
import re

from ..model import Action
from . import elements as el
from .base import AgentFormat, CannotExpress, StepContext, image_tags, phone_only, register
from .memory import describe, memory_text

DONE_TEXT = "Task completed."
_ANSWER = re.compile(r"<answer>(.*?)</answer>", re.S)
_NAMES = {"click": "Tap", "long_press": "Long Press", "back": "Back"}
_UNSAID = {"home": "went to the home screen", "wait": "waited for the screen to load"}  # no F.1 operation
_TYPES = {v: k for k, v in _NAMES.items()}

SYSTEM = """# Role
You are an agent that operates an Android phone to carry out the user's high-level instruction. At every step
you get the task, the steps so far, a screenshot of the current screen and the positions of its interactive
elements. Analyse the screen first, then give the single best next operation as one line of Python-style
pseudo-code.

# Answer layout (follow it exactly)
<think>
[your analysis, written in Chinese]
</think>
<answer>
[one line of operation code]
</answer>

# Operations
An element is a list of 4 integers [x1, y1, x2, y2]: the pixel corners (top-left, bottom-right) of one of the
elements listed for the current screen. Always pick a listed element.
- Tap an element: do(action="Tap", element=[x1, y1, x2, y2])
- Type into the focused input field: do(action="Type", text="text to enter")
- Swipe the finger "up", "down", "left" or "right" ("up" brings content from below into view); dist is
  "short", "medium" (default) or "long"; element, optional, is the area to swipe in:
  do(action="Swipe", direction="up", dist="medium", element=[x1, y1, x2, y2])
- Long press an element: do(action="Long Press", element=[x1, y1, x2, y2])
- Launch an app (check the instruction for the right one): do(action="Launch", app="Settings")
- Go back to the previous screen: do(action="Back")
- End the task, with an optional message: finish(message="Task completed.")

# Remember
- Think before acting, always inside <think>.
- Exactly one line of code inside <answer>; strings are quoted literals (escape quotes, backslashes, newlines)."""


def _s(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a valid, escaped Python string literal


def _box(bounds) -> str:
    return "[" + ", ".join(str(int(v)) for v in bounds) + "]"


def _code(ctx: StepContext) -> str:
    a = ctx.action
    el.need_tree(ctx)
    if a.type in ("click", "long_press"):
        return f'do(action="{_NAMES[a.type]}", element={_box(el.require_tap_target(ctx).bounds)})'
    if a.type == "input":
        return f'do(action="Type", text={_s(a.text)})'
    if a.type == "swipe":
        area = el.largest_scrollable(ctx.step, a.point)
        where = f", element={_box(area.bounds)}" if area is not None else ""
        return f'do(action="Swipe", direction="{a.direction}", dist="medium"{where})'
    if a.type == "open_app":
        return f'do(action="Launch", app={_s(a.app)})'
    if a.type == "done":
        return f"finish(message={_s(a.text or DONE_TEXT)})"
    if a.type in _UNSAID:
        raise CannotExpress("action_not_in_format", f"step {ctx.index + 1}: F.1 has no {a.type} operation")
    return f'do(action="{_NAMES[a.type]}")'


def _history_code(ctx: StepContext) -> str:
    """An earlier step in F.1 code, or in F.1 terms where the answer grammar cannot say it (module docstring)."""
    try:
        return _code(ctx)
    except CannotExpress:
        a, step = ctx.action, ctx.step
        if a.type in _UNSAID:
            return f"({_UNSAID[a.type]})"
        if a.type in ("click", "long_press"):
            box = el.clip(a.element.bounds, *ctx.size) if a.element is not None else None
            if box is not None:
                return f'do(action="{_NAMES[a.type]}", element={_box(box)})'
            if a.point is not None:
                return f"({_NAMES[a.type]} on {el.untargeted(step)})"
        return f"({describe(a, ctx.target, 'en')})"


def _thought(ctx: StepContext) -> str:
    if not ctx.reasoning:
        raise CannotExpress("not_annotated", f"step {ctx.index + 1} has no reconstructed reasoning")
    return ctx.reasoning + ("\n" + memory_text(ctx, "zh") if ctx.memory else "")


def read_call(code: str) -> tuple[str, dict]:
    """``do(action="Tap", element=[1, 2, 3, 4])`` -> ``("do", {"action": "Tap", "element": [1, 2, 3, 4]})``."""
    call = ast.parse(code.strip(), mode="eval").body
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name) or call.args:
        raise ValueError(f"not a do(...)/finish(...) call with keyword arguments: {code!r}")
    return call.func.id, {kw.arg: ast.literal_eval(kw.value) for kw in call.keywords}


class AndroidLab(AgentFormat):
    name = "androidlab"
    family = "glm-4.1v"  # seed 004 evaluates and trains GLM-4.1V on this layout
    language = "zh"
    platforms = ("mobile",)
    coordinates = "element boxes [x1, y1, x2, y2] in original pixels (parse gives the box centre)"

    def system_prompt(self, ctx: StepContext) -> str:
        return SYSTEM

    def user_message(self, ctx: StepContext) -> str:
        phone_only(ctx, self.name)
        lines = [f"Task: {ctx.episode.goal}"]
        earlier = ctx.earlier()
        if earlier:
            lines.append("Previous steps:")
        for prev in earlier:
            said = _history_code(prev)
            lines.append(f"Step {prev.index + 1}: " + (f"{prev.reasoning} " if prev.reasoning else "") + said)
        lines.append("Current screenshot:")
        lines.append(image_tags(ctx))
        lines.append("UI elements (box, type, text):")
        lines += [f"{_box(e.bounds)} {e.kind} '{e.label}'" for e in el.listed(ctx.step)] or ["None"]
        return "\n".join(lines)

    def render(self, ctx: StepContext) -> str:
        phone_only(ctx, self.name)
        code = _code(ctx)
        return f"<think>\n{_thought(ctx)}\n</think>\n<answer>\n{code}\n</answer>"

    def parse(self, text: str, ctx: StepContext) -> Action:
        match = _ANSWER.search(text)
        name, args = read_call(match.group(1) if match else text)
        if name == "finish":
            message = args.get("message")
            return Action("done", text=None if message in (None, DONE_TEXT) else message)
        kind = args["action"]
        element = el.by_bounds(ctx.step, tuple(args["element"])) if "element" in args else None
        if kind in ("Tap", "Long Press"):
            x1, y1, x2, y2 = args["element"]
            return Action(_TYPES[kind], point=((x1 + x2) // 2, (y1 + y2) // 2), element=element)
        if kind == "Type":
            return Action("input", text=args["text"])
        if kind == "Swipe":
            return Action("swipe", direction=args["direction"].lower(), element=element)
        if kind == "Launch":
            return Action("open_app", app=args["app"])
        if kind not in _TYPES:
            raise ValueError(f"{kind!r} is not an F.1 operation")
        return Action(_TYPES[kind])

    def quantize(self, ctx: StepContext) -> Action:
        phone_only(ctx, self.name)
        _code(ctx)  # raises for what the format cannot say
        a = ctx.action
        if a.type in ("click", "long_press"):
            target = el.require_tap_target(ctx)
            return Action(a.type, point=target.center, element=el.by_bounds(ctx.step, target.bounds))
        if a.type == "swipe":
            area = el.largest_scrollable(ctx.step, a.point)
            return Action("swipe", direction=a.direction,
                          element=el.by_bounds(ctx.step, area.bounds) if area is not None else None)
        if a.type == "done":
            return Action("done", text=a.text if a.text and a.text != DONE_TEXT else None)
        return Action(a.type, text=a.text if a.type == "input" else None, app=a.app)


FORMAT = register(AndroidLab())


FENCE = "```"
SYSTEM_FENCED = SYSTEM.replace("<answer>\n[one line of operation code]\n</answer>",
                               f"<answer>\n{FENCE}\n[one line of operation code]\n{FENCE}\n</answer>")


class AndroidLabFenced(AndroidLab):
    """F.1's answer with the code line fenced, as Android-Lab's and MobileRL's executors read it.

    >>> FORMAT_FENCED.render_code("do(action=\\"Back\\")", "返回。")
    '<think>\\n返回。\\n</think>\\n<answer>\\n```\\ndo(action="Back")\\n```\\n</answer>'
    """

    name = "androidlab-fenced"

    def system_prompt(self, ctx: StepContext) -> str:
        return SYSTEM_FENCED

    def render_code(self, code: str, thought: str) -> str:
        return f"<think>\n{thought}\n</think>\n<answer>\n{FENCE}\n{code}\n{FENCE}\n</answer>"

    def render(self, ctx: StepContext) -> str:
        phone_only(ctx, self.name)
        return self.render_code(_code(ctx), _thought(ctx))

    def parse(self, text: str, ctx: StepContext) -> Action:
        match = _ANSWER.search(text)
        lines = [line for line in (match.group(1) if match else text).strip().splitlines() if line.strip()]
        if len(lines) != 3 or lines[0].strip() != FENCE or lines[2].strip() != FENCE:
            raise ValueError("the answer's code must be one line between ``` fences")
        return super().parse(f"<answer>{lines[1]}</answer>", ctx)


FORMAT_FENCED = register(AndroidLabFenced())
