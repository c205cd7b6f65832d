"""Memory/progress text that rides in the chain of thought (seed 004: the memory module lives in the CoT, so
the model stays a single-step predictor). Built from the ground truth and the reconstruction of earlier steps:
what has been done, how many steps are done and how many remain.

>>> from sftdata.model import Action, Episode, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> ep = Episode("e", "annotated", "g", [Step(0, shot, Action("open_app", app="设置")), Step(1, shot, Action("back")),
...                                       Step(2, shot, Action("done"))])
>>> from sftdata.formats.base import StepContext
>>> print(memory_text(StepContext(ep, 2), "zh"))
记忆：已完成 2 步，剩余 1 步。已做：1. 打开应用“设置”；2. 返回上一页。
>>> print(memory_text(StepContext(ep, 0), "en"))
Memory: 0 steps done, 3 to go. Nothing done yet.
"""
from __future__ import annotations

from ..model import Action
from .base import StepContext

_ZH = {"click": "点击", "long_press": "长按", "swipe": "向{d}滑动", "input": "输入“{t}”", "open_app": "打开应用“{a}”",
       "back": "返回上一页", "home": "回到桌面", "wait": "等待加载", "done": "完成任务"}
_EN = {"click": "tapped", "long_press": "long-pressed", "swipe": "swiped {d}", "input": "typed “{t}”",
       "open_app": "opened {a}", "back": "went back", "home": "went home", "wait": "waited", "done": "finished"}
_DIR_ZH = {"up": "上", "down": "下", "left": "左", "right": "右"}


def describe(action: Action, target: str | None, language: str) -> str:
    """A short phrase for a past action, with its target when known."""
    table = _ZH if language == "zh" else _EN
    phrase = table[action.type].format(d=_DIR_ZH.get(action.direction or "", "") if language == "zh"
                                       else (action.direction or ""), t=action.text or "", a=action.app or "")
    if action.type in ("click", "long_press") and target:
        phrase += target if language == "zh" else f" {target}"
    return phrase


def _target(item: object) -> object:
    """The reconstruction's ``target_element`` of an item, None when any level is missing or mistyped."""
    fn = item.get("function") if isinstance(item, dict) else None
    params = fn.get("parameters") if isinstance(fn, dict) else None
    return params.get("target_element") if isinstance(params, dict) else None


def memory_text(ctx: StepContext, language: str, limit: int = 12) -> str:
    """The memory section for the step of ``ctx`` (earliest steps are elided past ``limit``)."""
    done, total = ctx.index, len(ctx.episode.steps)
    parts = []
    for i in range(max(0, done - limit), done):
        step = ctx.episode.steps[i]
        target = _target(ctx.items[i] if ctx.items else None)
        parts.append(f"{i + 1}. {describe(step.action, target if isinstance(target, str) else None, language)}")
    if language == "zh":
        did = "；".join(parts) if parts else "尚未开始。"
        lead = "……；" if done > limit else ""
        return f"记忆：已完成 {done} 步，剩余 {total - done} 步。已做：{lead}{did}{'。' if parts else ''}"
    did = "; ".join(parts) if parts else "Nothing done yet."
    lead = "...; " if done > limit else ""
    return f"Memory: {done} steps done, {total - done} to go. {'Done: ' + lead if parts else ''}{did}{'.' if parts else ''}"
