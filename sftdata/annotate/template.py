"""The offline, deterministic ``template`` annotator: seed-002 items built only from what the agent knows
before it acts.

It is the default backend, so the pipeline runs without network. Every item pairs a Chinese ReAct
``reasoning`` with the ground-truth ``function`` call, and carries the optional fields ``thought`` (one
sentence), ``action_summary`` (a short imperative), ``observation`` (the current screen) and ``memory`` (the
whole task history in compact form, and counts of a looping goal: :func:`sftdata.annotate.progress.task_memory`).

The reasoning (v3) is built from what the exported sample shows the model: the goal, the agent's own earlier
actions, and the current screen's visible elements (:mod:`sftdata.annotate.template_screen`). It never quotes the
dataset's per-step instruction (no exported prompt carries it), never describes the next screen, the episode's
length or the steps left. It says why this target serves the goal now: the goal names it, the goal's object is
not on screen yet (navigation), a field is focused and the goal gives the text, a loop continues, or the
previous step changed nothing (``meta["ineffective"]``). Structure and wording vary by a hash of episode id and
step index, never at random, so the same episode always gives the same items. Recorded as ``template/v3``.

>>> from sftdata.model import Action, Episode, Screenshot, Step
>>> from sftdata.checks.check import check_items
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> ep = Episode("e", "sample", "Open Settings", [Step(0, shot, Action("open_app", app="Settings")),
...                                              Step(1, shot, Action("done"))])
>>> items = template_items(ep)
>>> [it["function"] for it in items]
[{'name': 'open_app', 'parameters': {'app_name': 'Settings'}}, {'name': 'done', 'parameters': {}}]
>>> items[0]["action_summary"], items[1]["memory"]
('打开“Settings”应用', '已做：打开“Settings”应用；目标：“Open Settings”')
>>> check_items(items, ep)
[]
"""
from __future__ import annotations

import re
from typing import Any

from ..model import Episode, Step
from .progress import looping, task_memory
from ..checks.calls import expected_parameters, function_name, grounding_label, normalize
from ..checks.check import mark_words
from ..checks.decision import quotable
from .template_screen import (SPACE, SPACE_PUNCT, SUMMARY_MAX, SWIPES, TRAILING, action_summary, common_labels,
                              element_type, label_shown, labelled_element, observation, pick_labels, pick_variant,
                              place, quote, salient_labels, target_description)

TEMPLATE_VERSION = "template/v3"

__all__ = ["TEMPLATE_VERSION", "SUMMARY_MAX", "action_summary", "element_type", "observation", "pick_labels",
           "place", "quote", "target_description", "template_item", "template_items", "quotable_goal", "one_line"]

_WORDS = re.compile(r"[a-z0-9]{3,}|[\u3400-\u9fff]{2,}")


def quotable_goal(text: str | None) -> str | None:
    """Goal text fit to quote: trimmed, and None when empty or naming the annotation marks."""
    text = SPACE.sub(" ", text or "").strip().rstrip(TRAILING).strip()
    text = SPACE_PUNCT.sub(r"\1", text)
    return text if text and not mark_words(text) else None


def one_line(text: str) -> str:
    return SPACE.sub(" ", text).strip()


def goal_link(label: str | None, goal: str) -> str | None:
    """The part of ``label`` the goal names (the label itself, or a shared word), None when they share nothing.

    >>> goal_link("Bluetooth", "Turn on Bluetooth in Settings"), goal_link("相册", "打开相册，翻看照片")
    ('Bluetooth', '相册')
    >>> goal_link("Cancel", "Turn on Bluetooth") is None
    True
    """
    if not label:
        return None
    low_label, low_goal = normalize(label), normalize(goal)
    if low_label and low_label in low_goal:
        return label.strip()
    for word in _WORDS.findall(low_label):
        if word in low_goal or any(word[i:i + 2] in low_goal for i in range(len(word) - 1)
                                   if '\u3400' <= word[0] <= '\u9fff' and len(word) <= 4):
            return word
    return None


def _active_field(step: Step, prev: Step | None) -> str | None:
    from ..checks.screen_text import visible_elements
    for e in visible_elements(step):
        if e.has("editable") and e.has("focused") and (e.hint or e.desc) and not mark_words(e.hint or e.desc):
            return quote(label_shown(e.hint or e.desc))
    if prev is not None and prev.action.type == "click":
        element = labelled_element(prev) or prev.action.element
        name = (element.text or element.desc).strip() if element is not None else ""
        if name and not mark_words(name) and element_type(element, prev.screenshot.width) == "输入框":
            return quote(label_shown(name))
    return None


def _history(prev: Step | None, index: int, key: str) -> str | None:
    """What the agent knows of its previous step, or None (the history is not always restated)."""
    if prev is None:
        return None
    did = action_summary(prev, full=True)
    if prev.meta.get("ineffective") is True:
        why = {"click": "可能没有点中", "long_press": "可能没有按中", "swipe": "页面可能已经到头"}.get(
            prev.action.type, "操作没有生效")
        return pick_variant((f"上一步{did}后界面没有变化，{why}", f"刚才{did}没有反应，界面还是原样，{why}"), key)
    if prev.action.type in ("swipe", "back", "home", "wait"):  # no object to open with: vary the words
        return pick_variant((f"{did}这一步已经做完", f"前面已经{did}", f"刚才{did}", None, f"上一步{did}",
                      f"刚才已经{did}"), key)
    return pick_variant((f"{did}这一步已经做完", f"已经{did}", f"刚才{did}", None, f"上一步{did}"), key)


def _why_target(step: Step, goal: str, key: str) -> str:
    """Why tapping this target serves the goal now."""
    label = grounding_label(step)
    element = labelled_element(step)
    shown = label_shown((element.text or element.desc).strip()) if element is not None else None
    link = goal_link(shown or label, goal)
    if link:
        return pick_variant((f"任务里提到的{quote(link)}就在屏幕上", f"目标要的是{quote(link)}，屏幕上正好有这一项",
                      f"{quote(link)}和任务直接相关"), key)
    visible = salient_labels(step)
    if visible:
        return pick_variant(("任务要找的内容还没有直接出现在这个界面上，需要先进入下一层", "这个界面上没有直接完成任务的按钮，需要从入口继续往里走",
                      f"屏幕上是{quote(visible[0])}等内容，要继续完成任务得先打开合适的入口"), key)
    return pick_variant(("从画面看，这个位置就是继续任务的入口", "这一处控件是推进任务的入口"), key)


def decision_sentence(step: Step, prev: Step | None, episode: Episode, index: int, key: str) -> str:
    """The sentence that says why, then what this step does (its verb, target, direction, text)."""
    action = step.action
    goal = quotable_goal(episode.goal) or ""
    retry = prev is not None and prev.meta.get("ineffective") is True
    again = ("再试一次，" if prev.action.type == action.type else "换一种做法，") if retry and prev else ""
    if action.type in ("click", "long_press"):
        target = target_description(step)
        verb = "点击" if action.type == "click" else "长按"
        why = _why_target(step, goal, key + "w")
        extra = "，调出更多操作选项" if action.type == "long_press" else ""
        return pick_variant((f"{why}，所以{again}{verb}{target}{extra}。", f"{why}；{again}接下来{verb}{target}{extra}。",
                      f"{why}，{again}这一步{verb}{target}{extra}。", f"{again}要{verb}的是{target}{extra}：{why}。"), key)
    if action.type == "swipe":
        gesture, why = SWIPES[action.direction or "up"]
        where = place(*action.point, step.screenshot.width, step.screenshot.height)  # type: ignore[misc]
        loop = looping(goal) if goal else None
        if loop is not None and loop.kind == "swipe":
            lead = pick_variant(("任务要求一项一项地往后看", "目标是连续浏览多项内容", "这是任务里要重复的滑动"), key + "l")
        else:
            lead = pick_variant(("需要的内容还不在当前屏幕上", "当前可见的部分里没有要找的东西", "屏幕上这部分内容不够"), key + "l")
        return pick_variant((f"{lead}，所以{again}手指在{where}{gesture}，{why}。", f"{lead}；{again}接下来{gesture}，{why}。",
                      f"{lead}，{again}这一步在{where}{gesture}，{why}。"), key)
    if action.type == "input":
        text = quote(action.text or "")
        field = _active_field(step, prev)
        active = f"{field}输入框已经激活" if field else "输入框已经激活"
        source = "任务给出的" if goal and normalize(action.text or "") in normalize(goal) else "需要的"
        if not quotable(action.text or ""):  # it holds every closing quotation mark: no quote reads back whole
            return f"{active}，{again}在其中输入{source}内容。"
        return pick_variant((f"{active}，键盘已弹出，{again}直接输入{source}内容{text}。", f"{active}，{again}在其中输入{text}。",
                      f"{again}要填的是{source}{text}，{active}，所以现在输入{text}。"), key)
    if action.type == "open_app":
        app = quote(action.app or "")
        if index == 0:
            return pick_variant((f"任务要在{app}里完成，所以先打开{app}应用。", f"第一件事是启动{app}应用。",
                          f"这件事需要用到{app}，所以打开这个应用。"), key)
        return pick_variant((f"接下来的操作要在{app}里进行，所以打开{app}应用。", f"现在需要切换到{app}应用，所以打开它。"), key)
    if action.type == "done":
        return pick_variant(("当前界面已经满足任务的要求，任务目标已经完成。", "任务要求的操作都已做完，任务目标已经完成，结束任务。",
                      "界面显示的正是任务要的结果，任务目标已经完成。"), key)
    base = {"back": ("当前页面不是需要的页面，按返回键返回上一页。", "这个页面已经用不上了，所以按返回键回到上一页。",
                     "需要回到之前的界面，按返回键。"),
            "home": ("需要回到桌面，按下主页键。", "按主页键回到桌面。", "这里要离开当前应用，按主页键回到桌面。"),
            "wait": ("页面还在加载，需要等待页面加载完成。", "界面尚未加载完毕，先等待一下。", "等待页面加载完成后再继续操作。")}
    return again + pick_variant(base[action.type], key)


def _goal_clause(goal: str | None, index: int, key: str) -> str | None:
    """The goal, restated at the first step and now and then after it (not as every item's opening)."""
    if goal is None:
        return None
    if index == 0:
        return pick_variant((f"任务是{quote(goal)}", f"{quote(goal)}是这次的任务", f"目标：{quote(goal)}",
                      f"要完成的是{quote(goal)}", f"这次的任务：{quote(goal)}"), key)
    return pick_variant((f"任务是{quote(goal)}", None, None, None, f"目标仍是{quote(goal)}"), key)


def template_item(episode: Episode, index: int, step: Step | None = None) -> dict[str, Any]:
    """The seed-002 item for ``step`` (default ``episode.steps[index]``), from the goal, the earlier steps and
    the current screen only; web pages: :func:`sftdata.annotate.template_web.web_item`."""
    if episode.web:
        from .template_web import web_item
        return web_item(episode, index, step)
    steps, key = episode.steps, f"{episode.id}\x1f{index}\x1f"
    step = steps[index] if step is None else step
    prev = steps[index - 1] if index > 0 else None
    seen = observation(step)
    said = observation(step, key + "seen", common_labels(episode, salient_labels, index))  # labels of this screen first
    act = decision_sentence(step, prev, episode, index, key + "act")
    parts = [p for p in (_history(prev, index, key + "h"),
                         _goal_clause(quotable_goal(episode.goal), index, key + "g")) if p]
    order = pick_variant(((0, 1), (1, 0)), key + "o") if len(parts) == 2 and not index else (0, 1)[:len(parts)]
    opening = "，".join(parts[i] for i in order) + "。" if parts else ""  # later, the goal never opens the text
    screen = (said + "。" if step.elements and salient_labels(step) and pick_variant((True, True, False), key + "s")
              else "")
    if not opening and not screen:  # a reasoning is more than its decision: say what the screen shows
        screen = said + "。"
    goal_first = index and parts and parts[0] is not None and prev is not None and \
        _history(prev, index, key + "h") is None  # the goal would open it: let the screen lead
    reasoning = opening + screen + act if not index else (screen + opening + act) if goal_first and screen else \
        pick_variant((opening + screen + act, screen + opening + act), key + "r")
    params = expected_parameters(step.action)
    if step.action.type in ("click", "long_press"):
        params = {"target_element": target_description(step)}
    return {"reasoning": reasoning, "function": {"name": function_name(step.action), "parameters": params},
            "thought": one_line(act), "action_summary": action_summary(step), "observation": one_line(seen),
            "memory": one_line(task_memory(episode, index, [{"action_summary": action_summary(s, full=True)}
                                                             for s in steps[:index]], "zh"))}


def template_items(episode: Episode, steps: list[Step] | None = None, start: int = 0) -> list[dict[str, Any]]:
    """One seed-002 item per step of ``steps`` (default: every step); ``start`` is the episode index of
    ``steps[0]``, used for the earlier steps, which always come from the episode."""
    chosen = episode.steps[start:] if steps is None else steps
    return [template_item(episode, start + j, step) for j, step in enumerate(chosen)]
