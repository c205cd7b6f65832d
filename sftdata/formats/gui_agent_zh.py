"""``gui-agent-zh``: seed 001's strict-JSON single action with Chinese fields.

The answer is ``{"status", "description", "target", "action": {"type", "coordinates", "text"}}``: ``status`` is
``in_progress`` (``completed`` on the final ``done`` step, whose action is ``wait [0, 0]``). ``description`` is
seed 001's "对当前屏幕状态的简洁描述": the item's ``observation`` field, else the first sentence of the reasoning
(never the whole reasoning); with ``--memory`` the memory's progress opens the same line. ``target`` is never
empty where the action has a place: a click names the reconstruction's ``target_element`` (else the element's
label and kind); a drag names what it moves (the scrollable element under its start, with its screen region,
e.g. ``屏幕中部的列表``); an input names its field. ``wait`` says "页面正在加载"; ``completed`` has "".
Coordinates are relative integers 0..1000 on both axes (``round(x * 1000 / w)``): ``click`` / ``long_press``
``[x, y]``; a swipe is ``drag [[x1, y1], [x2, y2]]``; ``wait`` is ``[0, 0]``. An ``input`` is typed at its field
("在指定位置输入文本"): the step's own point, else the step's focused editable element, else the point of the
previous step's click; seed 001 keeps ``[0, 0]`` for wait/completed/failed, so an input with no known field
raises ``CannotExpress("input_without_field")`` rather than inventing one. The seed's action space has no back,
home or app launch: those steps raise ``CannotExpress("action_not_in_format")``. History lines give each earlier
step's one-sentence thought (``thought`` field, else the reasoning's first sentence) and its action.

Seed 001 drives a mouse and keyboard, so web episodes are said in it too: ``type`` is ``input`` at its field,
a page ``scroll`` up/down is ``scroll_up``/``scroll_down`` at its point (else the screen's centre), ``back`` is
``hotkey "alt left"`` and a new empty tab ``hotkey "ctrl t"`` (at the screen's centre: the seed gives every
hotkey a place). A dropdown choice, an address to load and a sideways scroll have no seed action:
``CannotExpress("action_not_in_format")``. Parse reads a web ``input`` back as ``type``.

>>> from sftdata.model import Action, Episode, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> ep = Episode("e", "sample", "打开设置", [Step(0, shot, Action("click", point=(540, 300))), Step(1, shot, Action("done"))])
>>> items = [{"reasoning": "需要先打开设置。", "function": {"name": "click", "parameters": {"target_element": "顶部的“设置”图标"}}},
...          {"reasoning": "已经完成。", "function": {"name": "done", "parameters": {}}}]
>>> ctx = StepContext(ep, 0, items)
>>> print(FORMAT.render(ctx))
{"status": "in_progress", "description": "需要先打开设置。", "target": "顶部的“设置”图标", "action": {"type": "click", "coordinates": [500, 125], "text": ""}}
>>> FORMAT.parse(FORMAT.render(ctx), ctx) == FORMAT.quantize(ctx)
True
"""
from __future__ import annotations

import json
from dataclasses import replace

from ..geometry import RELATIVE_MAX
from ..model import Action, Element, from_relative, to_relative
from . import short
from .base import AgentFormat, CannotExpress, StepContext, image_tags, register
from .memory import describe, memory_text
from .short import one_line

LOADING = "页面正在加载"
_KINDS = (("EditText", "输入框"), ("RecyclerView", "列表"), ("ListView", "列表"), ("GridView", "网格"),
          ("ViewPager", "翻页区域"), ("ScrollView", "滚动区域"), ("WebView", "网页"), ("Button", "按钮"),
          ("Image", "图片"), ("TextView", "文字"), ("Switch", "开关"), ("CheckBox", "复选框"))

SYSTEM = """你是一个图形界面操作代理。每一步你会看到用户的任务、之前的操作记录和当前屏幕截图，你要据此决定**下一步唯一的操作**：系统一次只执行一个动作，所以不要规划多步。

## 基本要求
1. 只输出下一步要执行的一个操作。
2. 一切判断以截图为准，不猜测屏幕外的内容；截图与历史记录矛盾时相信截图。
3. 超过 50 步仍无法完成，或遇到支付、结账页面，status 返回 "failed"。
4. 通话中不要主动挂断，除非用户明确要求。
5. 发现之前的操作有误（选错对象、输错内容等），下一步立即纠正。
6. 需要覆盖输入框里的旧内容时，先点击输入框，全选并删除原内容，再输入新内容。

## 输出格式（只输出 JSON，不加注释或其他文字）
{"status": "completed|in_progress|failed", "description": "对当前屏幕和下一步的简要说明", "target": "操作对象的明确描述", "action": {"type": "操作类型", "coordinates": [x, y], "text": ""}}

- status：in_progress 表示还需继续操作；completed 表示任务已在屏幕上完成；failed 表示无法完成。
- target：要能唯一指认，例如“联系人列表中‘张三’的头像”，不能只写“顶部头像”；页面加载时写“页面正在加载”；任务结束时为空字符串。
- action.type 只能取：click（点击）、double_click（双击）、long_press（长按）、right_click（右键）、drag（从起点拖到终点，在手机上就是滑动）、scroll_up / scroll_down（在某处滚动）、input（在某处输入文字）、hotkey（快捷键）、wait（页面加载中，等待）。
- action.coordinates：相对屏幕的整数坐标，横纵方向都从 0 到 1000（左上角为 [0, 0]，右下角为 [1000, 1000]）。单点操作写元素中心 [x, y]；drag 写 [[x1, y1], [x2, y2]]；wait，或 status 为 completed / failed 时写 [0, 0]。
- action.text：input 时为要输入的文字（回车写作 \\n），hotkey 时为空格分隔的按键（最多 3 个），其他情况为空字符串。

## 特殊情况
- 看到加载动画、进度条或内容仍在变化：type 为 wait，coordinates 为 [0, 0]，target 为“页面正在加载”。
- 任务已经完成：status 为 completed，action 为 {"type": "wait", "coordinates": [0, 0], "text": ""}。"""


def _description(ctx: StepContext) -> str:
    """The current screen in brief: the item's ``observation``, else the first sentence of the reasoning; with
    memory on, the memory's progress opens the same line."""
    if not ctx.reasoning:
        raise CannotExpress("not_annotated", f"step {ctx.index + 1} has no reconstructed reasoning")
    seen = short.observation(ctx)
    return short.fold(memory_text(ctx, "zh"), seen) if ctx.memory else seen


def _region(point, ctx: StepContext) -> str:
    """Where ``point`` lies on the screen, in words (屏幕上部 / 中部 / 下部)."""
    third = min(2, int(point[1] * 3 / max(1, ctx.size[1])))
    return "屏幕" + "上中下"[third] + "部"


def _kind(element: Element | None, default: str) -> str:
    name = element.class_name.rsplit(".", 1)[-1] if element is not None else ""
    return next((word for key, word in _KINDS if key in name), default)


def _named(element: Element, default: str) -> str:
    """An element as “label” + kind (``“搜索”输入框``), or just its kind when it has no label."""
    label = one_line(element.text or element.desc or element.hint)
    kind = _kind(element, default)
    label = label if len(label) <= 24 else label[:23] + "…"
    return f"“{label}”{kind}" if label else kind


def _swiped(ctx: StepContext) -> str:
    """What a drag moves: the smallest scrollable element under its start point, by label and kind, in the
    screen region of its centre (``屏幕中部的列表``); else the page's content where the drag starts."""
    start = ctx.action.point
    under = sorted((e for e in ctx.step.elements if e.has("scrollable") and e.contains(start)), key=lambda e: e.area)
    if under:
        return f"{_region(under[0].center, ctx)}的{_named(under[0], '滚动区域')}"
    return f"{_region(start, ctx)}的页面内容"


def _input_field(ctx: StepContext) -> tuple[tuple[int, int], str] | None:
    """(point, description) of the field an input types into: the step's own point, else its focused
    editable element, else what the previous step clicked; None when none is known."""
    a, step = ctx.action, ctx.step
    focused = [e for e in step.elements if e.has("focused") and e.has("editable") and e.area > 0]
    if a.point is not None:
        around = [e for e in step.elements if e.has("editable") and e.contains(a.point)]
        return a.point, ctx.target or (_named(around[0], "输入框") if around else f"{_region(a.point, ctx)}的输入框")
    if focused:
        return focused[0].center, ctx.target or f"{_region(focused[0].center, ctx)}的{_named(focused[0], '输入框')}"
    if ctx.index > 0:
        prev = replace(ctx, index=ctx.index - 1)
        if prev.action.type in ("click", "long_press") and prev.action.point is not None:
            name = prev.target or (_named(prev.action.element, "输入框") if prev.action.element else "")
            return prev.action.point, ctx.target or name or f"{_region(prev.action.point, ctx)}的输入框"
    return None


_WEB_HOTKEYS = {"back": "alt left", "new_tab": "ctrl t"}


def _web_answer(ctx: StepContext) -> dict | None:
    """The answer of a web step the phone actions do not cover (None: said as on a phone)."""
    a, (w, h) = ctx.action, ctx.size
    if a.type in ("click", "wait", "done"):
        return None
    if a.type in ("input", "type"):
        field = _input_field(ctx)
        if field is None:
            raise CannotExpress("input_without_field", f"step {ctx.index + 1}: no known field to type into")
        return {"status": "in_progress", "target": field[1],
                "action": {"type": "input", "coordinates": list(to_relative(field[0], w, h)), "text": a.text}}
    if a.type == "scroll" and a.direction in ("up", "down"):
        point = a.point or (w // 2, h // 2)
        return {"status": "in_progress", "target": ctx.target or f"{_region(point, ctx)}的页面内容",
                "action": {"type": f"scroll_{a.direction}", "coordinates": list(to_relative(point, w, h)), "text": ""}}
    if a.type in _WEB_HOTKEYS and not a.url:
        return {"status": "in_progress", "target": "浏览器页面",
                "action": {"type": "hotkey", "coordinates": [500, 500], "text": _WEB_HOTKEYS[a.type]}}
    what = {"scroll": f"{a.direction} scroll", "new_tab": "new tab at an address"}.get(a.type, a.type)
    raise CannotExpress("action_not_in_format", f"step {ctx.index + 1}: seed 001 has no {what} action")


def _answer(ctx: StepContext) -> dict:
    """Everything of the answer but the description."""
    a, (w, h) = ctx.action, ctx.size
    rel = (lambda p: list(to_relative(p, w, h)))
    web = _web_answer(ctx) if ctx.episode.web else None
    if web is not None:
        return web
    if a.type in ("back", "home", "open_app"):
        raise CannotExpress("action_not_in_format", f"step {ctx.index + 1}: seed 001 has no {a.type} action")
    status, target, text = "in_progress", ctx.target or "", ""
    if a.type in ("click", "long_press"):
        if a.point is None:
            raise CannotExpress("no_coordinates", f"step {ctx.index + 1}: a {a.type} without a point")
        kind, coords = a.type, rel(a.point)
        target = target or (_named(a.element, "控件") if a.element is not None else "")
        if not target:
            raise CannotExpress("missing_target", f"step {ctx.index + 1}: the reconstruction names no target_element")
    elif a.type == "swipe":
        if a.point is None:
            raise CannotExpress("swipe_without_points", f"step {ctx.index + 1}: a drag needs start and end points")
        kind, coords = "drag", [rel(a.point), rel(a.end)]
        if from_relative(coords[0], w, h) == from_relative(coords[1], w, h):
            raise CannotExpress("swipe_too_short", f"step {ctx.index + 1}: the drag collapses to one point")
        target = target or _swiped(ctx)
    elif a.type == "input":
        field = _input_field(ctx)
        if field is None:  # seed 001 types "在指定位置" and keeps [0, 0] for wait/completed/failed
            raise CannotExpress("input_without_field", f"step {ctx.index + 1}: no known field to type into")
        kind, coords, text, target = "input", rel(field[0]), a.text, field[1]
    else:  # wait, done
        kind, coords = "wait", [0, 0]
        status, target = ("completed", "") if a.type == "done" else (status, target or LOADING)
    return {"status": status, "target": target, "action": {"type": kind, "coordinates": coords, "text": text}}


class GuiAgentZh(AgentFormat):
    name = "gui-agent-zh"
    family = "qwen2.5-vl"
    language = "zh"
    coordinates = (f"relative 0..{RELATIVE_MAX} ints, round(x*{RELATIVE_MAX}/w); drag [[x1,y1],[x2,y2]]; [0,0] when "
                   "there is no point")

    def system_prompt(self, ctx: StepContext) -> str:
        return SYSTEM

    def user_message(self, ctx: StepContext) -> str:
        lines = [f"用户指令：{ctx.episode.goal}"]
        earlier = ctx.earlier()
        if earlier:
            lines.append("历史操作：")
        for prev in earlier:
            try:
                said = json.dumps(_answer(prev)["action"], ensure_ascii=False)
            except CannotExpress:
                said = describe(prev.action, prev.target, "zh")
            lines.append(f"第 {prev.index + 1} 步：{short.thought(prev)} 操作：{said}")
        lines.append("当前屏幕截图：" if len(ctx.image_steps()) == 1 else "之前和当前的屏幕截图（最后一张为当前）：")
        lines.append(image_tags(ctx))
        return "\n".join(lines)

    def render(self, ctx: StepContext) -> str:
        answer = _answer(ctx)
        out = {"status": answer["status"], "description": _description(ctx), "target": answer["target"],
               "action": answer["action"]}
        return json.dumps(out, ensure_ascii=False)

    def parse(self, text: str, ctx: StepContext) -> Action:
        data = json.loads(text)
        act, (w, h) = data["action"], ctx.size
        kind, coords = act["type"], act.get("coordinates") or [0, 0]
        if data.get("status") == "completed":
            return Action("done")
        if kind in ("click", "long_press"):
            return Action(kind, point=from_relative(coords, w, h), target=data.get("target") or None)
        if kind == "drag":
            return Action("swipe", point=from_relative(coords[0], w, h), end=from_relative(coords[1], w, h))
        if kind == "input":
            return Action("type" if ctx.episode.web else "input", text=act.get("text", ""),
                          point=from_relative(coords, w, h))
        if kind in ("scroll_up", "scroll_down") and ctx.episode.web:
            return Action("scroll", direction=kind.removeprefix("scroll_"))
        if kind == "hotkey" and ctx.episode.web:
            return Action({v: k for k, v in _WEB_HOTKEYS.items()}[act["text"]])
        if kind == "wait":
            return Action("wait")
        raise ValueError(f"gui-agent-zh action type {kind!r} has no canonical action")

    def quantize(self, ctx: StepContext) -> Action:
        answer = _answer(ctx)  # raises for what the format cannot say
        a, (w, h) = ctx.action, ctx.size
        q = (lambda p: from_relative(to_relative(p, w, h), w, h))
        if a.type in ("click", "long_press"):
            return Action(a.type, point=q(a.point), target=answer["target"] or None)
        if a.type == "swipe":
            return Action("swipe", point=q(a.point), end=q(a.end))
        if a.type in ("input", "type"):
            return Action("type" if ctx.episode.web else "input", text=a.text,
                          point=from_relative(answer["action"]["coordinates"], w, h))
        return Action(a.type, direction=a.direction if a.type == "scroll" else None)


FORMAT = register(GuiAgentZh())
