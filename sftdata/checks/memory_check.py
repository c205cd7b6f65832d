"""Is a memory true to the history? Checks any writer's memory text (zh or en) against steps ``0..index-1``.

Only claims it can read are judged, so a free-form memory passes unless it says something checkable and wrong:

- a count of swipes/scrolls (``已向左滑动 2/3 次``, ``已滑动 2 次``, ``swiped left 2 of 3 times``) or of typing
  (``已输入 2 次``) that is not the history's (counted with or without the steps that changed nothing);
- a list of done actions (``已做：点击“设置”、向上滑动×2``, ``Done so far: tapped …``) whose length or verbs are not
  the earlier steps', or a typed text (``输入“…”``) the agent never typed;
- "nothing done yet" after a step, or done actions before the first step;
- a count of zero for an action the goal repeats, written on a step where it says nothing (``已滑动 0 次``).

>>> from sftdata.model import Action, Episode, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> left = Action("swipe", point=(900, 1200), end=(200, 1200))
>>> ep = Episode("e", "sample", "向左滑动 3 次", [Step(0, shot, left), Step(1, shot, left), Step(2, shot, Action("done"))])
>>> memory_problems("已向左滑动 2/3 次，还剩 1 次", ep, 2)
[]
>>> memory_problems("已向左滑动 1/3 次，还剩 2 次", ep, 2)
['says 1 swipe(s) left, the history has 2']
>>> memory_problems("已做：向左滑动×2；目标：“向左滑动 3 次”", ep, 2), memory_problems("已做：向左滑动", ep, 2)
([], ['lists 1 action(s), the history has 2'])
"""
from __future__ import annotations

import re

from ..model import Episode, Step
from .calls import ZH_DIGITS
from .decision import mask_quotes

_ZH_NUM = {"零": 0} | ZH_DIGITS
_DIR = {"左": "left", "右": "right", "上": "up", "下": "down", "left": "left", "right": "right", "up": "up",
        "down": "down"}
_SWIPE_ZH = re.compile(r"已(?:经)?(?:向|往)?([上下左右])?(?:滑动|滚动|翻动|翻)了?\s*(\d+|[零一两二三四五六七八九十])\s*(?:/\s*\d+\s*)?(?:次|张|页|遍)")
_SWIPE_EN = re.compile(r"\b(?:swiped|scrolled)\s*(left|right|up|down)?\s+(\d+)\s+(?:of\s+\d+\s+)?times?\b", re.I)
_INPUT_ZH = re.compile(r"已(?:经)?输入了?\s*(\d+|[零一两二三四五六七八九十])\s*(?:/\s*\d+\s*)?次")
_NOTHING = re.compile(r"尚未开始|还没有(?:进行)?任何操作|尚未进行任何操作|\bnothing (?:done|yet)\b|\bnot started\b", re.I)
_LIST_START = re.compile(r"已做[:：]\s*|Done so far[:：]\s*", re.I)
_PAIRS = {"“": "”", "「": "」", "『": "』", "《": "》", "‘": "’", '"': '"'}  # a quotation ends at its own closing mark
_TYPED = re.compile(r"^(?:输入|typed )(.)")
_REPEAT = re.compile(r"[×x]\s*(\d+)\s*$")
_VERB_OF = (  # phrase start -> action types it may stand for
    (re.compile(r"^(?:点击|tapped|clicked)"), {"click"}),
    (re.compile(r"^(?:长按|long-pressed)"), {"long_press"}),
    (re.compile(r"^(?:向.滑动|滑动|swiped)"), {"swipe"}),
    (re.compile(r"^(?:向.滚动|滚动|scrolled)"), {"scroll", "swipe"}),
    (re.compile(r"^(?:输入|typed)"), {"input", "type"}),
    (re.compile(r"^(?:在.+中输入)"), {"type", "input"}),
    (re.compile(r"^(?:在.+中选择|selected)"), {"select"}),
    (re.compile(r"^(?:打开网址|opened http)"), {"go_to_url"}),
    (re.compile(r"^(?:打开新标签页|opened a new tab)"), {"new_tab"}),
    (re.compile(r"^(?:打开“|opened )"), {"open_app", "go_to_url", "new_tab", "click"}),
    (re.compile(r"^(?:返回上一页|pressed back|返回)"), {"back"}),
    (re.compile(r"^(?:回到桌面|pressed home)"), {"home"}),
    (re.compile(r"^(?:等待|waited)"), {"wait"}),
)


def _number(word: str) -> int:
    return int(word) if word.isdigit() else _ZH_NUM.get(word, -1)


def _swipes(steps: list[Step], direction: str | None) -> set[int]:
    """Counts of swipes/scrolls (in ``direction`` when given): all of them, and only those that changed the screen."""
    hits = [s for s in steps if s.action.type in ("swipe", "scroll") and (direction is None or s.action.direction == direction)]
    return {len(hits), len([s for s in hits if s.meta.get("ineffective") is not True])}


def _inputs(steps: list[Step]) -> set[int]:
    hits = [s for s in steps if s.action.type in ("input", "type")]
    return {len(hits), len([s for s in hits if s.meta.get("ineffective") is not True])}


def _split(text: str, separators: str, stop: str = "") -> tuple[list[str], int]:
    """``text`` cut at ``separators`` outside quotations, up to the first ``stop`` mark outside them: the parts
    and where the scan ended. Typed text is quoted whole, whatever marks and separators it holds."""
    parts, start, closer = [], 0, None
    for i, ch in enumerate(text):
        if closer is not None:
            closer = None if ch == closer else closer
        elif ch in _PAIRS:
            closer = _PAIRS[ch]
        elif ch in stop:
            return parts + [text[start:i]], i
        elif ch in separators:
            parts.append(text[start:i])
            start = i + 1
    return parts + [text[start:]], len(text)


def _phrases(listing: str) -> list[tuple[str, int]]:
    """(phrase, repetitions) of a done-list; quoted text is kept whole."""
    out = []
    for part in map(str.strip, _split(listing, "、,")[0]):
        if part:
            m = _REPEAT.search(part)
            out.append((part[:m.start()].strip() if m else part, int(m.group(1)) if m else 1))
    return out


def _typed(phrase: str) -> str | None:
    """The quoted text of an ``输入“…”`` / ``typed “…”`` phrase (None for another phrase)."""
    m = _TYPED.match(phrase)
    if m is None or m.group(1) not in _PAIRS:
        return None
    inner = phrase[m.end():]
    end = inner.find(_PAIRS[m.group(1)])
    return inner if end < 0 else inner[:end]


def _list_problems(listing: str, earlier: list[Step]) -> list[str]:
    if listing.lstrip().startswith(("……", "...")):
        return []  # a list that says it is cut is only checked by its verbs' order at the end
    phrases = _phrases(listing)
    expanded = [p for p, n in phrases for _ in range(n)]
    out = []
    if len(expanded) != len(earlier):
        out.append(f"lists {len(expanded)} action(s), the history has {len(earlier)}")
        return out
    for k, (phrase, step) in enumerate(zip(expanded, earlier)):
        kinds = next((types for pattern, types in _VERB_OF if pattern.search(phrase)), None)
        if kinds is not None and step.action.type not in kinds:
            out.append(f"action {k + 1} is “{phrase}”, the history's is {step.action.type}")
            break
        typed = _typed(phrase)  # quoted with its whitespace runs (control characters too) written as one space
        if typed is not None and step.action.text is not None and not " ".join(step.action.text.split()).startswith(
                " ".join(typed.rstrip("…").split())):
            out.append(f"action {k + 1} types “{typed}”, the history typed “{step.action.text}”")
            break
    return out


def memory_problems(memory: str, episode: Episode, index: int, lang: str = "zh") -> list[str]:
    """What ``memory`` (written before step ``index`` acts) says that the history contradicts; empty when nothing
    readable is wrong. ``lang`` is a hint only: both languages' forms are read."""
    if not isinstance(memory, str) or not memory.strip():
        return []
    earlier = list(episode.steps[:index])
    out: list[str] = []
    bare = mask_quotes(memory)  # claims are read outside quotations (a goal or typed text may hold any words)
    if _NOTHING.search(bare) and earlier:
        out.append(f"says nothing was done, the history has {len(earlier)} action(s)")
    for m in list(_SWIPE_ZH.finditer(bare)) + list(_SWIPE_EN.finditer(bare)):
        said = _number(m.group(2))
        direction = _DIR.get((m.group(1) or "").lower()) if m.group(1) else None
        counts = _swipes(earlier, direction)
        if said not in counts:
            out.append(f"says {said} swipe(s){' ' + direction if direction else ''}, the history has "
                       f"{max(counts)}")
        elif said == 0 and episode.steps[index].action.type not in ("swipe", "scroll") and not re.search(
                r"\d+\s*/\s*\d+|\bof\s+\d+", bare):
            out.append("counts zero swipes on a step that does not swipe")
    for m in _INPUT_ZH.finditer(bare):
        said = _number(m.group(1))
        if said not in _inputs(earlier):
            out.append(f"says {said} input(s), the history has {max(_inputs(earlier))}")
    listing = _LIST_START.search(bare)
    if listing:
        if not earlier:
            out.append("lists done actions before the first step")
        else:
            rest = memory[listing.end():]
            out += _list_problems(rest[:_split(rest, "", "；;")[1]], earlier)
    return out
