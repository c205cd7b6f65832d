"""``react-zh``: seed 002's function calls with Chinese ReAct reasoning, one step per sample.

The answer is one seed-002 item (its "Output Format"): ``{"reasoning": ..., "function": {"name": ...,
"parameters": {...}}}`` with seed 002's functions and required parameters (``click`` / ``long_press``
``target_element``, ``input`` ``text``, ``swipe`` ``direction`` in UP/DOWN/LEFT/RIGHT, ``open_app`` ``app_name``,
``done``), plus ``press_back``, ``press_home`` and ``wait`` (no parameters), which AndroidControl needs and seed
002 lacks. Targets are named in words, so points are not part of this format; swipes carry the finger's
direction. With ``--memory`` the memory line opens the reasoning (the progress, then the reasoning on the next
line); earlier steps in the user message give their reasoning and call. A web episode speaks of a browser and
calls the browser's functions (:data:`sftdata.checks.calls.WEB_FUNCTION_OF`): ``click``, ``type`` and ``select``
with a ``target_element`` (and ``text`` / ``value``), ``scroll`` with the direction the view moves,
``go_to_url`` and ``new_tab`` with a ``url``, ``go_back`` and ``done``.

>>> from sftdata.model import Action, Episode, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> ep = Episode("e", "annotated", "打开设置", [Step(0, shot, Action("click", point=(540, 300))), Step(1, shot, Action("done"))])
>>> items = [{"reasoning": "需要先打开设置。", "function": {"name": "click", "parameters": {"target_element": "顶部的“设置”图标"}}},
...          {"reasoning": "已经完成。", "function": {"name": "done", "parameters": {}}}]
>>> ctx = StepContext(ep, 0, items)
>>> print(FORMAT.render(ctx))
{"reasoning": "需要先打开设置。", "function": {"name": "click", "parameters": {"target_element": "顶部的“设置”图标"}}}
>>> FORMAT.parse(FORMAT.render(ctx), ctx) == FORMAT.quantize(ctx)
True
"""
from __future__ import annotations

import json

from ..model import Action
from ..checks.calls import ACTION_OF, TARGET_FUNCTIONS, expected_parameters, function_name
from .base import AgentFormat, CannotExpress, StepContext, image_tags, register
from . import short
from .memory import memory_text

INTRO = ("你是一个操作安卓手机的智能体，按照 ReAct 的方式工作：先思考，再行动。每一步你会收到任务描述、之前几步的记录和"
         "当前屏幕截图，你需要判断下一步应该做什么，并且只调用一个函数。")
FUNCTIONS = """可调用的函数：
- click(target_element)：点击界面元素。target_element 用中文描述目标，写清类型、文字或图标、位置等，保证不会混淆。
- long_press(target_element)：长按界面元素，描述方式同上。
- input(text)：在已激活的输入框中输入 text。
- swipe(direction)：手指滑动，direction 为 UP、DOWN、LEFT 或 RIGHT，指手指移动的方向（UP 表示手指向上滑，内容上移，显示下方内容）。
- open_app(app_name)：打开应用。
- press_back()：按返回键。
- press_home()：回到桌面。
- wait()：等待页面加载。
- done()：任务已经完成。"""
SYSTEM = (INTRO + "\n\n" + FUNCTIONS + "\n\n"
          '只输出一个 JSON 对象：{"reasoning": "中文推理", "function": {"name": "函数名", "parameters": {参数}}}。')
# with --agent-tools the sample's tools field lists the functions (ms-swift's agent template renders it)
SYSTEM_WITH_TOOLS = INTRO + "\n\n先用中文写出推理，再调用一个函数。"
WEB_INTRO = ("你是一个操作网页浏览器的智能体，按照 ReAct 的方式工作：先思考，再行动。每一步你会收到任务描述、之前几步的记录和"
             "当前网页截图，你需要判断下一步应该做什么，并且只调用一个函数。")
WEB_FUNCTIONS = """可调用的函数：
- click(target_element)：点击网页元素。target_element 用中文描述目标，写清类型、页面上的文字（原样放在引号里）、位置等，保证不会混淆。
- type(target_element, text)：在输入框中输入 text，target_element 描述输入框。
- select(target_element, value)：在下拉框中选择选项 value，target_element 描述下拉框。
- scroll(direction)：滚动页面，direction 为 UP、DOWN、LEFT 或 RIGHT，指视野移动的方向（DOWN 显示页面下方的内容）。
- go_to_url(url)：在浏览器中打开网址。
- go_back()：返回上一页。
- new_tab(url)：打开新标签页（url 可省略）。
- done()：任务已经完成。"""
WEB_SYSTEM = (WEB_INTRO + "\n\n" + WEB_FUNCTIONS + "\n\n"
              '只输出一个 JSON 对象：{"reasoning": "中文推理", "function": {"name": "函数名", "parameters": {参数}}}。')
WEB_SYSTEM_WITH_TOOLS = WEB_INTRO + "\n\n先用中文写出推理，再调用一个函数。"


def _call(ctx: StepContext) -> dict:
    params = dict(expected_parameters(ctx.action))
    if ctx.action.type in TARGET_FUNCTIONS:
        if not ctx.target:
            raise CannotExpress("missing_target", f"step {ctx.index + 1}: the reconstruction names no target_element")
        params = {"target_element": ctx.target, **params}
    return {"name": function_name(ctx.action, ctx.episode.web), "parameters": params}


def _reasoning(ctx: StepContext) -> str:
    if not ctx.reasoning:
        raise CannotExpress("not_annotated", f"step {ctx.index + 1} has no reconstructed reasoning")
    return (short.one_line(memory_text(ctx, "zh")) + "\n" if ctx.memory else "") + ctx.reasoning


class ReactZh(AgentFormat):
    name = "react-zh"
    family = "glm-4.1v"  # seed 004 trains GLM-4.1V-9B-Base on this format
    language = "zh"
    coordinates = "none: targets are described in words (target_element); swipes by finger direction"
    tool_call = True

    def system_prompt(self, ctx: StepContext) -> str:
        if ctx.episode.web:
            return WEB_SYSTEM_WITH_TOOLS if ctx.agent_tools else WEB_SYSTEM
        return SYSTEM_WITH_TOOLS if ctx.agent_tools else SYSTEM

    def thought(self, ctx: StepContext) -> str:
        return _reasoning(ctx)

    def user_message(self, ctx: StepContext) -> str:
        lines = [f"任务：{ctx.episode.goal}"]
        earlier = ctx.earlier()
        if earlier:
            lines.append("之前的步骤：")
            for prev in earlier:
                call = json.dumps(_call(prev), ensure_ascii=False)
                lines.append(f"第 {prev.index + 1} 步：{prev.reasoning} 调用：{call}")
        lines.append("当前屏幕截图：" if len(ctx.image_steps()) == 1 else "之前和当前的屏幕截图（最后一张为当前）：")
        lines.append(image_tags(ctx))
        return "\n".join(lines)

    def render(self, ctx: StepContext) -> str:
        return json.dumps({"reasoning": _reasoning(ctx), "function": _call(ctx)}, ensure_ascii=False)

    def parse(self, text: str, ctx: StepContext) -> Action:
        data = json.loads(text)
        fn = data["function"]
        params = fn.get("parameters") or {}
        kind = ACTION_OF[fn["name"]]
        direction = params.get("direction")
        return Action(kind, target=params.get("target_element"), text=params.get("text", params.get("value")),
                      app=params.get("app_name"), direction=direction.lower() if direction else None,
                      url=params.get("url"))

    def quantize(self, ctx: StepContext) -> Action:
        a = ctx.action
        return Action(a.type, target=ctx.target if a.type in TARGET_FUNCTIONS else None,
                      text=a.text if a.type in ("input", "type", "select") else None, app=a.app,
                      direction=a.direction if a.type in ("swipe", "scroll") else None,
                      url=a.url if a.type in ("go_to_url", "new_tab") else None)

    def tools(self, ctx: StepContext) -> list[dict]:
        def fn(name: str, description: str, optional: tuple[str, ...] = (), **props: str) -> dict:
            return {"type": "function", "function": {"name": name, "description": description, "parameters": {
                "type": "object", "properties": {k: {"type": "string", "description": v} for k, v in props.items()},
                "required": [k for k in props if k not in optional]}}}
        if ctx.episode.web:
            return [fn("click", "点击网页元素", target_element="目标元素的中文描述"),
                    fn("type", "在输入框中输入文字", target_element="输入框的中文描述", text="要输入的文字"),
                    fn("select", "在下拉框中选择选项", target_element="下拉框的中文描述", value="要选择的选项"),
                    fn("scroll", "滚动页面", direction="UP、DOWN、LEFT 或 RIGHT（视野移动方向）"),
                    fn("go_to_url", "打开网址", url="网址"), fn("go_back", "返回上一页"),
                    fn("new_tab", "打开新标签页", optional=("url",), url="网址（可省略）"), fn("done", "任务已经完成")]
        return [fn("click", "点击界面元素", target_element="目标元素的中文描述"),
                fn("long_press", "长按界面元素", target_element="目标元素的中文描述"),
                fn("input", "在已激活的输入框中输入文字", text="要输入的文字"),
                fn("swipe", "手指滑动", direction="UP、DOWN、LEFT 或 RIGHT（手指移动方向）"),
                fn("open_app", "打开应用", app_name="应用名称"), fn("press_back", "按返回键"),
                fn("press_home", "回到桌面"), fn("wait", "等待页面加载"), fn("done", "任务已经完成")]

    def tool_call_message(self, ctx: StepContext) -> dict:
        call = _call(ctx)
        return {"name": call["name"], "arguments": call["parameters"]}


FORMAT = register(ReactZh())
