"""Contradictions read once more before an item is rejected: the other action told as what an earlier step did
(``Before that I long-pressed Project Team, hit 删除 and confirmed it.``), as the episode's history holds it, and a
direction read off an English ``scroll`` (which may say the view's way) while the text swipes the call's way in so
many words (``… scroll the list up to reveal it. Action: swipe UP.``). :mod:`.certify` lets such an item through to
its evidence.
"""
from __future__ import annotations

import re
from typing import Any, Sequence

from ..model import Episode
from .agreement import contradictions
from .check import Failure
from .described import history_clauses, without_spans
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
