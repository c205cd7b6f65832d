"""``gui-agent-zh``: seed 001's strict-JSON single action with Chinese fields.

The answer is ``{"status", "description", "target", "action": {"type", "coordinates", "text"}}``: ``status`` is
``in_progress`` (``completed`` on the final ``done`` step, whose action is ``wait [0, 0]``), ``description``
the Chinese reasoning (plus memory), ``target`` the reconstruction's target description ("页面正在加载" for
``wait``, else ""). Coordinates are relative integers 0..1000 on both axes (``round(x * 1000 / w)``):
``click`` / ``long_press`` ``[x, y]``; a swipe is ``drag [[x1, y1], [x2, y2]]``; ``input`` carries the step's
point if it has one, else ``[0, 0]``; ``wait`` is ``[0, 0]``. The seed's action space has no back, home or
app launch: those steps raise ``CannotExpress("action_not_in_format")``.

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

from ..model import Action, from_relative, to_relative
from .base import AgentFormat, CannotExpress, StepContext, image_tags, register
from .memory import describe, memory_text

LOADING = "页面正在加载"

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
    if not ctx.reasoning:
        raise CannotExpress("not_annotated", f"step {ctx.index} has no reconstructed reasoning")
    return ctx.reasoning + ("\n" + memory_text(ctx, "zh") if ctx.memory else "")


def _answer(ctx: StepContext) -> dict:
    """Everything of the answer but the description."""
    a, (w, h) = ctx.action, ctx.size
    rel = (lambda p: list(to_relative(p, w, h)))
    if a.type in ("back", "home", "open_app"):
        raise CannotExpress("action_not_in_format", f"step {ctx.index}: seed 001 has no {a.type} action")
    status, target, text = "in_progress", ctx.target or "", ""
    if a.type in ("click", "long_press"):
        kind, coords = a.type, rel(a.point)
    elif a.type == "swipe":
        if a.point is None:
            raise CannotExpress("swipe_without_points", f"step {ctx.index}: a drag needs start and end points")
        kind, coords = "drag", [rel(a.point), rel(a.end)]
        if from_relative(coords[0], w, h) == from_relative(coords[1], w, h):
            raise CannotExpress("swipe_too_short", f"step {ctx.index}: the drag collapses to one point")
    elif a.type == "input":
        kind, coords, text = "input", rel(a.point) if a.point is not None else [0, 0], a.text
    else:  # wait, done
        kind, coords = "wait", [0, 0]
        status, target = ("completed", "") if a.type == "done" else (status, target or LOADING)
    return {"status": status, "target": target, "action": {"type": kind, "coordinates": coords, "text": text}}


class GuiAgentZh(AgentFormat):
    name = "gui-agent-zh"
    family = "qwen2.5-vl"
    language = "zh"
    coordinates = "relative 0..1000 ints, round(x*1000/w); drag [[x1,y1],[x2,y2]]; [0,0] when there is no point"

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
            lines.append(f"第 {prev.index + 1} 步：{prev.reasoning} 操作：{said}")
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
            point = None if list(coords) == [0, 0] else from_relative(coords, w, h)
            return Action("input", text=act.get("text", ""), point=point)
        if kind == "wait":
            return Action("wait")
        raise ValueError(f"gui-agent-zh action type {kind!r} has no canonical action")

    def quantize(self, ctx: StepContext) -> Action:
        answer = _answer(ctx)  # raises for what the format cannot say
        a, (w, h) = ctx.action, ctx.size
        q = (lambda p: from_relative(to_relative(p, w, h), w, h))
        if a.type in ("click", "long_press"):
            return Action(a.type, point=q(a.point), target=ctx.target)
        if a.type == "swipe":
            return Action("swipe", point=q(a.point), end=q(a.end))
        if a.type == "input":
            coords = answer["action"]["coordinates"]
            return Action("input", text=a.text, point=None if coords == [0, 0] else q(a.point))
        return Action(a.type)


FORMAT = register(GuiAgentZh())
