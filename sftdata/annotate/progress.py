"""Task memory: one line of progress that an agent could keep itself, from the goal and its earlier steps only.

It always keeps the whole history in compact form (a run of the same action once, with its count:
``向左滑动×3``) and the goal. For looping goals ("each", "every", "all", "N times", "flip through", 每个, 所有,
全部, 逐一, 依次, N 次, N 张/条/个; an ordinal such as 第二件 is not a loop) it adds the count of items done and,
when the goal gives N, how many remain; a count of zero is said only when the goal gives N. It never uses the
recorded length of the episode: a live agent does not know how many steps are left.

>>> from sftdata.model import Action, Episode, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> swipe = Action("swipe", point=(900, 1200), end=(200, 1200))
>>> ep = Episode("e", "sample", "打开一张照片，然后向左滑动 3 次查看后面的照片",
...              [Step(0, shot, Action("click", point=(200, 600))), Step(1, shot, swipe), Step(2, shot, swipe),
...               Step(3, shot, swipe), Step(4, shot, Action("done"))])
>>> task_memory(ep, 3, None, "zh")
'已做：点击控件、向左滑动×2；已向左滑动 2/3 次，还剩 1 次；目标：“打开一张照片，然后向左滑动 3 次查看后面的照片”'
>>> task_memory(ep, 3, None, "en")
'Done so far: tapped a control, swiped left×2; swiped left 2 of 3 times, 1 remain; goal: “打开一张照片，然后向左滑动 3 次查看后面的照片”'
>>> task_memory(ep, 0, None, "zh")
'尚未开始操作；已向左滑动 0/3 次，还剩 3 次；目标：“打开一张照片，然后向左滑动 3 次查看后面的照片”'
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Sequence

from ..model import Episode, Step
from ..checks.calls import grounding_label
from ..checks.decision import quote

_ZH_DIGITS = {"一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_EN_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
               "ten": 10, "twice": 2, "once": 1}
_UNITS = "次张条个件篇项位首封遍"
_COUNT_ZH = re.compile(rf"(?<!第)(?<!第 )(\d+|[一两二三四五六七八九十]+)\s*([{_UNITS}])")  # 第二件 is an ordinal
_COUNT_EN = re.compile(r"\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+(times?|[a-z]+s)\b|\b(twice)\b",
                       re.I)
_LOOP_ZH = ("每个", "每一", "每张", "每条", "所有", "全部", "逐一", "依次", "挨个", "一一", "翻看")
_QUOTED = re.compile(r"“[^”]*”|「[^」]*」|\"[^\"]*\"")
_LOOP_EN = re.compile(r"\b(each|every|all|flip(?:ping)? through|browse through|go through|one by one)\b", re.I)
_DIRS_ZH = {"左": "left", "右": "right", "上": "up", "下": "down"}
_DIR_WORD_ZH = {"left": "左", "right": "右", "up": "上", "down": "下"}
# goal verb -> (the words an earlier step's label/instruction/summary must contain, zh past phrase, en phrase)
_VERBS = (
    (("删除", "delete", "remove"), ("删除", "delete", "remove", "trash"), "删除", "deleted"),
    (("收藏", "favorite", "favourite", "star"), ("收藏", "favorite", "favourite", "star"), "收藏", "starred"),
    (("点赞", "like"), ("点赞", "赞", "like"), "点赞", "liked"),
    (("加入购物车", "add to cart", "添加", "加入", "add"), ("加入", "添加", "add"), "添加", "added"),
    (("关注", "follow"), ("关注", "follow"), "关注", "followed"),
    (("下载", "download"), ("下载", "download"), "下载", "downloaded"),
    (("分享", "share"), ("分享", "share"), "分享", "shared"),
    (("选择", "勾选", "select", "check"), ("选择", "勾选", "select", "check"), "选中", "selected"),
    (("打开", "开启", "turn on", "enable", "open"), ("打开", "开启", "open", "turn on", "enable"), "打开", "opened"),
    (("关闭", "turn off", "disable"), ("关闭", "off", "disable"), "关闭", "turned off"),
)
_SWIPE_WORDS = ("滑", "翻", "滚", "swipe", "flip", "scroll", "browse", "浏览")
_INPUT_WORDS = ("输入", "回复", "发送", "type", "reply", "send", "enter")


@dataclass(frozen=True)
class Loop:
    """What a looping goal repeats: ``kind`` swipe/input/verb, the ``total`` it names (None when it names none),
    the swipe ``direction`` it names and, for ``verb``, the index into ``_VERBS``."""

    kind: str
    total: int | None = None
    unit: str = "次"
    direction: str | None = None
    verb: int = -1


def _has(word: str, text: str) -> bool:
    """``word`` in ``text``: English words whole (``star`` is not in ``start``), Chinese anywhere."""
    if word.isascii():
        return re.search(rf"\b{re.escape(word)}", text) is not None and \
            re.search(rf"\b{re.escape(word)}(?:s|es|ed|d|ing)?\b", text) is not None
    return word in text


def _number(word: str) -> int | None:
    if word.isdigit():
        return int(word)
    if word.lower() in _EN_NUMBERS:
        return _EN_NUMBERS[word.lower()]
    if all(ch in _ZH_DIGITS for ch in word):
        if word == "十":
            return 10
        if word.startswith("十"):
            return 10 + _ZH_DIGITS[word[1]]
        if len(word) == 2 and word[1] == "十":
            return _ZH_DIGITS[word[0]] * 10
        return _ZH_DIGITS[word[0]] if len(word) == 1 else None
    return None


def looping(goal: str) -> Loop | None:
    """The loop a goal describes, or None for a goal that does not repeat an action.

    >>> looping("向左滑动浏览 3 张照片")
    Loop(kind='swipe', total=3, unit='张', direction='left', verb=-1)
    >>> looping("Delete each of the 2 drafts").kind, looping("Delete each of the 2 drafts").total
    ('verb', 2)
    >>> looping("打开设置") is None, looping("Reserve a hotel in Lisbon for 3 guests") is None
    (True, True)
    """
    goal = _QUOTED.sub("", goal)  # typed text or names in quotes are not the task's structure
    low = goal.lower()
    total, unit = None, "次"
    for m in _COUNT_ZH.finditer(goal):  # "打开一张照片，然后滑动 3 次": the count above one is the loop's
        if (_number(m.group(1)) or 0) > 1:
            total, unit = _number(m.group(1)), m.group(2)
            break
    for m in _COUNT_EN.finditer(goal) if total is None else ():
        if re.search(r"\bfor\s+$", low[:m.start()]):  # "for 3 guests", "for 2 adults": a quantity, not a loop
            continue
        if (_number(m.group(3) or m.group(1)) or 0) > 1:
            total = _number(m.group(3) or m.group(1))
            unit = "次" if m.group(3) or m.group(2).lower().startswith("time") else "个"
            break
    if total is None and not any(w in goal for w in _LOOP_ZH) and not _LOOP_EN.search(goal):
        return None
    if any(_has(w, low) for w in _SWIPE_WORDS):
        direction = next((d for ch, d in _DIRS_ZH.items()
                          if any(f"{to}{ch}{verb}" in goal for to in "向往" for verb in "滑滚")), None)
        found = re.search(r"\b(?:swipe|scroll|flip)\s+(left|right|up|down)\b", low)
        return Loop("swipe", total, unit, direction or (found.group(1) if found else None))
    verb = next((i for i, (keys, *_rest) in enumerate(_VERBS) if any(_has(k, low) for k in keys)), -1)
    if verb >= 0:
        return Loop("verb", total, unit, verb=verb)
    if any(_has(w, low) for w in _INPUT_WORDS):
        return Loop("input", total, unit)
    # a bare count with no repeated action and no loop word ("2 tickets") is a quantity, not a loop
    repeated = unit == "次" or any(w in goal for w in _LOOP_ZH) or _LOOP_EN.search(goal)
    return Loop("any", total, unit) if total and repeated else None


def _said(step: Step, item: Any) -> str:
    """Everything an earlier step is known by: its summary, target, instruction and element label."""
    parts = [step.instruction or "", grounding_label(step) or ""]
    if isinstance(item, dict):
        parts.append(str(item.get("action_summary") or ""))
        fn = item.get("function")
        params = fn.get("parameters") if isinstance(fn, dict) else None
        if isinstance(params, dict):
            parts.append(str(params.get("target_element") or ""))
    return " ".join(parts).lower()


def count_done(loop: Loop, steps: Sequence[Step], items: Sequence[Any] | None) -> int:
    """How many of the loop's items the earlier ``steps`` finished (consecutive matching taps count once)."""
    count, previous = 0, False
    for i, step in enumerate(steps):
        action = step.action
        if step.meta.get("ineffective") is True:  # the screen did not change: nothing was done
            continue
        if loop.kind == "swipe":  # a web page scrolls (its direction is the view's, as goals say "scroll down")
            hit = action.type in ("swipe", "scroll") and (loop.direction is None or action.direction == loop.direction)
            count += hit
            continue
        if loop.kind == "input":
            count += action.type in ("input", "type")
            continue
        if loop.kind == "any":
            hit = action.type not in ("done", "wait")
            count += hit
            continue
        words = _VERBS[loop.verb][1]
        said = _said(step, items[i] if items and i < len(items) else None)
        hit = action.type in ("click", "long_press", "select") and any(_has(w, said) for w in words)
        count += hit and not previous
        previous = hit
    return count


_PAST_ZH = {"click": "点击{t}", "long_press": "长按{t}", "swipe": "向{d}滑动", "input": "输入“{x}”",
            "open_app": "打开“{a}”", "back": "返回上一页", "home": "回到桌面", "wait": "等待加载", "done": "结束任务",
            "type": "在{t}中输入“{x}”", "select": "在{t}中选择“{x}”", "scroll": "向{d}滚动页面", "go_to_url": "打开网址“{u}”",
            "new_tab": "打开新标签页"}
_PAST_EN = {"click": "tapped {t}", "long_press": "long-pressed {t}", "swipe": "swiped {d}", "input": "typed “{x}”",
            "open_app": "opened {a}", "back": "pressed back", "home": "pressed home", "wait": "waited",
            "done": "finished",
            "type": "typed “{x}” into {t}", "select": "selected “{x}” in {t}", "scroll": "scrolled {d}",
            "go_to_url": "opened {u}", "new_tab": "opened a new tab"}


def step_phrase(step: Step, item: Any, language: str) -> str:
    """A short phrase for an earlier step: the item's ``action_summary`` (Chinese) when it has one, else built
    from the ground truth and its target; an ineffective step (the screen did not change) says so.

    >>> from sftdata.model import Action, Screenshot
    >>> step_phrase(Step(0, Screenshot("0" * 64, "x.png", 10, 10), Action("input", text="键盘")), None, "en")
    'typed “键盘”'
    """
    missed = step.meta.get("ineffective") is True  # known once the next screen is seen: it did not change
    note = ("（没有反应）" if language == "zh" else " (no effect)") if missed else ""
    if language == "zh" and isinstance(item, dict) and isinstance(item.get("action_summary"), str) \
            and item["action_summary"].strip():
        return " ".join(item["action_summary"].split()) + note
    return _phrase(step, language) + note


def _phrase(step: Step, language: str) -> str:
    action = step.action
    label = grounding_label(step)
    target = f"“{label}”" if label else ("控件" if language == "zh" else "a control")
    table = _PAST_ZH if language == "zh" else _PAST_EN
    direction = _DIR_WORD_ZH.get(action.direction or "", "") if language == "zh" else (action.direction or "")
    return table[action.type].format(t=target, d=direction, x=" ".join((action.text or "").split()),
                                     a=action.app or "", u=action.url or "")


def _recent(steps: Sequence[Step], items: Sequence[Any] | None, language: str, limit: int | None = None) -> str:
    """The earlier steps' phrases, all of them (``limit``: only the last ones, after an ellipsis), a run of the same
    phrase once with its count (``向左滑动×3``)."""
    start = 0 if limit is None else max(0, len(steps) - limit)
    phrases = [step_phrase(s, items[start + j] if items and start + j < len(items) else None, language)
               for j, s in enumerate(steps[start:])]
    runs: list[list[Any]] = []
    for phrase in phrases:
        if runs and runs[-1][0] == phrase:
            runs[-1][1] += 1
        else:
            runs.append([phrase, 1])
    shown = [p if n == 1 else f"{p}×{n}" for p, n in runs]
    lead = ("……" if language == "zh" else "...") if start else ""
    return lead + ("、" if language == "zh" else ", ").join(shown)


def _loop_text(loop: Loop, done: int, language: str, web: bool = False) -> str:
    if loop.kind == "swipe":  # a page scrolls, a phone screen is swiped
        d = loop.direction
        verb_zh, verb_en = ("滚动", "scrolled") if web else ("滑动", "swiped")
        what_zh, what_en = (f"向{_DIR_WORD_ZH[d]}{verb_zh}" if d else verb_zh), (f"{verb_en} {d}" if d else verb_en)
    elif loop.kind == "verb":
        what_zh, what_en = f"{_VERBS[loop.verb][2]}", _VERBS[loop.verb][3]
    elif loop.kind == "input":
        what_zh, what_en = "输入", "typed"
    else:
        what_zh, what_en = "处理", "processed"
    if language == "zh":
        unit = loop.unit
        if loop.total is None:
            return f"已{what_zh} {done} {unit}"
        return f"已{what_zh} {done}/{loop.total} {unit}，还剩 {max(0, loop.total - done)} {unit}" \
            if done < loop.total else f"已{what_zh} {loop.total}/{loop.total} {unit}，这一部分已经全部完成"
    noun = "times" if loop.unit == "次" else "items"
    if loop.total is None:
        return f"{what_en} {done} {noun} so far"
    if done >= loop.total:
        return f"{what_en} {loop.total} of {loop.total} {noun}; that part is complete"
    return f"{what_en} {done} of {loop.total} {noun}, {loop.total - done} remain"


def task_memory(episode: Episode, index: int, items: Sequence[Any] | None = None, language: str = "zh",
                limit: int | None = None) -> str:
    """One line of task progress before step ``index`` acts, from the goal and ``episode.steps[:index]`` (their
    ground truth, and ``items``' summaries and targets when given). Never the episode's length.

    >>> from sftdata.model import Action, Screenshot
    >>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
    >>> ep = Episode("e", "sample", "打开设置", [Step(0, shot, Action("open_app", app="设置")),
    ...                                         Step(1, shot, Action("back")), Step(2, shot, Action("done"))])
    >>> task_memory(ep, 2, None, "zh")
    '已做：打开“设置”、返回上一页；目标：“打开设置”'
    >>> task_memory(ep, 0, None, "en")
    'Nothing done yet; goal: “打开设置”'
    """
    plain = " ".join((episode.goal or "").split()).rstrip("。.!！")
    goal, earlier, loop = quote(plain), episode.steps[:index], looping(plain)
    counted = None
    if loop is not None:
        done = count_done(loop, earlier, items)
        counted = _loop_text(loop, done, language, episode.web) if done or loop.total else None
    if language == "zh":
        head = f"已做：{_recent(earlier, items, 'zh', limit)}" if earlier else "尚未开始操作"
        return "；".join(p for p in (head, counted, f"目标：{goal}") if p)
    head = f"Done so far: {_recent(earlier, items, 'en', limit)}" if earlier else "Nothing done yet"
    return "; ".join(p for p in (head, counted, f"goal: {goal}") if p)
