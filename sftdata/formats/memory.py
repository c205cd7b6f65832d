"""Memory/progress text that rides in the chain of thought (seed 004: the memory module lives in the CoT, so
the model stays a single-step predictor). One line: the reconstruction's own ``memory`` field when it has one
(Chinese), else :func:`sftdata.annotate.progress.task_memory` from the goal and the earlier steps: for looping goals the
items done and remaining, otherwise the last actions and the goal. Never the episode's recorded length.

>>> from sftdata.model import Action, Episode, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> ep = Episode("e", "annotated", "g", [Step(0, shot, Action("open_app", app="设置")), Step(1, shot, Action("back")),
...                                       Step(2, shot, Action("done"))])
>>> from sftdata.formats.base import StepContext
>>> print(memory_text(StepContext(ep, 2), "zh"))
记忆：已做：打开“设置”、返回上一页；目标：“g”。
>>> print(memory_text(StepContext(ep, 0), "en"))
Memory: Nothing done yet; goal: “g”.
>>> items = [{}, {}, {"reasoning": "完成。", "memory": "已删除 2/2 个草稿", "function": {"name": "done"}}]
>>> print(memory_text(StepContext(ep, 2, items), "zh"))
记忆：已删除 2/2 个草稿。
"""
from __future__ import annotations

from ..model import Action
from ..annotate.progress import task_memory
from .base import StepContext

_ZH = {"click": "点击", "long_press": "长按", "swipe": "向{d}滑动", "input": "输入“{t}”", "open_app": "打开应用“{a}”",
       "back": "返回上一页", "home": "回到桌面", "wait": "等待加载", "done": "完成任务",
       "type": "输入“{t}”", "select": "选择“{t}”", "scroll": "向{d}滚动页面", "go_to_url": "打开网址 {u}",
       "new_tab": "打开新标签页"}
_EN = {"click": "tapped", "long_press": "long-pressed", "swipe": "swiped {d}", "input": "typed “{t}”",
       "open_app": "opened {a}", "back": "went back", "home": "went home", "wait": "waited", "done": "finished",
       "type": "typed “{t}”", "select": "selected “{t}”", "scroll": "scrolled {d}", "go_to_url": "went to {u}",
       "new_tab": "opened a new tab"}
_DIR_ZH = {"up": "上", "down": "下", "left": "左", "right": "右"}


def describe(action: Action, target: str | None, language: str) -> str:
    """A short phrase for a past action, with its target when known."""
    table = _ZH if language == "zh" else _EN
    phrase = table[action.type].format(d=_DIR_ZH.get(action.direction or "", "") if language == "zh"
                                       else (action.direction or ""), t=action.text or "", a=action.app or "",
                                       u=action.url or "")
    if action.type in ("click", "long_press") and target:
        phrase += target if language == "zh" else f" {target}"
    elif action.type in ("type", "select") and target:  # web: the field or dropdown it went into
        phrase = f"在{target}{phrase}" if language == "zh" else f"{phrase} in {target}"
    return phrase


def memory_text(ctx: StepContext, language: str, limit: int = 3) -> str:
    """The memory line for the step of ``ctx`` (``limit``: how many recent actions a non-looping goal lists)."""
    own = ctx.field("memory") if language == "zh" else None
    text = " ".join((own or task_memory(ctx.episode, ctx.index, ctx.items, language, limit)).split())
    if language == "zh":
        return "记忆：" + text + ("" if text.endswith(("。", "！", "？", ".")) else "。")
    return "Memory: " + text + ("" if text.endswith((".", "!", "?")) else ".")
