"""Contradictions read once more before an item is rejected: the other action told as what an earlier step did
(``Before that I long-pressed Project Team, hit 删除 and confirmed it.``), as the episode's history holds it, and a
direction read off an English ``scroll`` (which may say the view's way) while the text swipes the call's way in so
many words (``… scroll the list up to reveal it. Action: swipe UP.``). :mod:`.certify` lets such an item through to
its evidence. And a hindsight read once more: on a step that leaves the screen, a told change that names only what
the current screen shows (:func:`shown_now_only`) leaves the item unsure rather than rejected.
"""
from __future__ import annotations

import re
from typing import Any, Sequence

from ..model import Episode
from .agreement import contradictions
from .check import Failure
from .described import history_clauses, without_spans
from .future_text import later_screen_words
from .hedges import AFTER_ACTING
from .hindsight import SENTENCE, find_hindsight
from .screen_text import label_pattern, screen_texts
from .spoken_calls import spoken_calls

_WHOLE_TASK = re.compile(r"\b(?:task|goal|everything)\b|任务|目标|全部", re.I)


def told_of_history(episode: Episode, index: int, item: Any, detail: str) -> bool:
    """Is the other action a contradiction ``detail`` quotes said in a clause that tells what an earlier step did,
    as the episode's history holds it (:func:`.described.history_clauses`)?"""
    if "says the task is complete" in detail and _WHOLE_TASK.search(detail.partition("“")[2]):
        return False  # the task is complete: the done decision itself, never what an earlier step did
    field, _, rest = detail.partition(":")
    text, quoted = item.get(field.strip()), re.search(r"“([^”…]{4,})", rest)
    at = text.find(quoted.group(1)) if isinstance(text, str) and quoted is not None else -1
    if at < 0:
        return False
    end = at + len(quoted.group(1))
    history = history_clauses(text, (0, 0), episode, index)  # anywhere: the other action may have been read as the
    if not any(a <= at and end <= b for a, b in history):  # decision, but all of it (回到主屏幕了，再点一下相册)
        return False
    return not contradictions(without_spans(text, history), item["function"], episode.steps[index])  # and no other


_SCROLL_SAID = re.compile(r"the reasoning moves the finger (up|down) \(“[^”]*\bscroll", re.I)


def scrolled_against_swipe(failures: Sequence[Failure], item: Any) -> bool:
    """Is every failure a direction read off an English ``scroll`` (which may say the view's way) while the text
    swipes the call's way in so many words (``… scroll the list up to reveal it. Action: swipe UP.``)?"""
    way = str((item["function"].get("parameters") or {}).get("direction") or "").lower()
    text = spoken_calls(item.get("reasoning") or "")
    if way not in ("up", "down") or not all(_SCROLL_SAID.search(f.detail) for f in failures):
        return False
    other = "down" if way == "up" else "up"
    swipes = re.findall(r"\bswipe\W{0,3}(?:\w+\W{1,3}){0,3}?(up|down)\b", text, re.I)
    return bool(swipes) and all(w.lower() == way for w in swipes) and other not in {w.lower() for w in swipes}


__all__ = ["scrolled_against_swipe", "told_of_history"]


_LEAVING = ("back", "home")  # actions that leave the screen: what they bring is another page, not a state of this one
_AFTER_SAID = re.compile(AFTER_ACTING + r"|就|\b(?:then|afterwards)\b|\bstep\b|步"
                         r"|(?<![先再要去])回到|退回|回来|返回到|桌面|主屏|\b(?:back|again|returns?|lands?|launcher|home screen)\b",
                         re.I)  # (… and the return that leaving brings: 回到了照片网格, the launcher is back)
_NUMBER = re.compile(r"\d+(?:[.:/]\d+)?")


def shown_now_only(episode: Episode, index: int, item: Any, detail: str) -> bool:
    """On a step that leaves the screen (the back or home key), does every hindsight phrase of the reasoning
    (``detail`` is its failure's) name something the current screen shows, every number in it shown there too, and
    nothing only a later screen shows, with no word that places it after an action (``点完``, ``after``) or counts
    steps? Such a phrase (``右上角购物车变成 2 件`` when going back after adding to the cart) describes the screen as
    the step before left it more likely than what leaving it brings: a reader decides, rather than a rejection."""
    text = item.get("reasoning")
    if episode.steps[index].action.type not in _LEAVING:
        return False
    if "reasoning:" not in detail or not isinstance(text, str) or index + 1 >= len(episode.steps):
        return False
    phrases = find_hindsight(spoken_calls(text))
    if not phrases:
        return False
    shown = [t for t in screen_texts(episode.steps[index]) if len(t) >= 2]
    words = {w for t in shown for w in t.split() if len(w) >= 2 and re.search(r"[^\d\W]", w)}  # 购物车 of 购物车 2 件
    for phrase in phrases:
        said = phrase.lower()
        own = next((m.group() for m in SENTENCE.finditer(text) if phrase in m.group()), phrase)
        if not phrase or _AFTER_SAID.search(own) or later_screen_words(phrase, episode, index):
            return False  # (in its sentence: 按返回回到设置列表，… 也显示 On 了)
        if not any(label_pattern(w).search(said) for w in words):
            return False  # names nothing of the current screen: it tells a change, not what is there
        if any(not any(n in t for t in shown) for n in _NUMBER.findall(phrase)):
            return False
    return True
