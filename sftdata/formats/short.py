"""The short forms some formats write instead of the long reasoning: a one-sentence thought, a short action
summary, a concise observation, and memory folded into one line.

Each prefers the reconstruction item's optional field (``thought``, ``action_summary``, ``observation``; see
:data:`.base.ITEM_FIELDS`) and falls back deterministically for items without it (runs annotated before the
fields existed): the thought and the observation fall back to the first sentence of the reasoning. Every result
is one line; a thought is also one sentence (a field that holds more keeps its first).

>>> first_sentence("需要先打开设置。设置在桌面第二页。")
'需要先打开设置。'
>>> first_sentence("Open the settings. They are on page two.")
'Open the settings.'
>>> fold("记忆：已发送 2 个，还剩 1 个。", "接下来给王五发消息。")
'记忆：已发送 2 个，还剩 1 个；接下来给王五发消息。'
"""
from __future__ import annotations

import re
from dataclasses import replace

from ..model import Action
from .base import StepContext

_SPACE = re.compile(r"\s+")
# a sentence ends at a Chinese stop, or an ASCII one followed by a space (not a list number such as "1. ")
_END = re.compile(r"[。！？]|(?<!\d)[.!?](?=\s|$)")
_QUOTED = re.compile(r"“[^”]*”|「[^」]*」|‘[^’]*’|\"[^\"]*\"")
_STOPS = "。！？.!?；;，, "


def one_line(text: str) -> str:
    """``text`` with every run of whitespace (newlines too) as one space."""
    return _SPACE.sub(" ", text).strip()


def _ends(text: str) -> list[re.Match]:
    """The sentence stops of ``text`` outside quotes (a quoted “明天见！” does not end the sentence)."""
    quoted = [m.span() for m in _QUOTED.finditer(text)]
    return [m for m in _END.finditer(text) if not any(a <= m.start() < b for a, b in quoted)]


def first_sentence(text: str) -> str:
    """The first sentence of ``text`` on one line, ending with its own stop (``。`` added if it has none).

    >>> first_sentence("输入“明天见！See you”并发送。然后返回。")
    '输入“明天见！See you”并发送。'
    """
    text = one_line(text)
    ends = _ends(text)
    if ends:
        return text[:ends[0].end()].strip()
    return text + ("。" if text and not text.isascii() else "." if text else "")


def clause(text: str) -> str:
    """``text`` as one clause of a longer sentence: one line, inner stops turned into ``；``, no final stop."""
    text = one_line(text).rstrip(_STOPS)
    for m in reversed(_ends(text)):
        text = text[:m.start()] + ("；" if m.group() in "。！？" else ";") + text[m.end():]
    return text


def fold(memory: str, sentence: str) -> str:
    """One sentence: the memory's progress as the opening clause of ``sentence``."""
    return f"{clause(memory)}；{sentence}" if memory.strip() else sentence


def thought(ctx: StepContext) -> str:
    """The step's thought: its ``thought`` field, else the first sentence of the reasoning (one sentence)."""
    return first_sentence(ctx.field("thought") or ctx.reasoning)


def observation(ctx: StepContext) -> str:
    """The step's view of the current screen: its ``observation`` field, else the first sentence of the
    reasoning (one line)."""
    value = ctx.field("observation")
    return one_line(value) if value else first_sentence(ctx.reasoning)


def spoken(action: Action) -> Action:
    """``action`` with its typed text on one line, for describing it in words (a typed ``\\n`` is not a break)."""
    return replace(action, text=one_line(action.text)) if action.text else action


def action_summary(ctx: StepContext, fallback: str) -> str:
    """The step's ``action_summary`` field on one line, else ``fallback`` (the format's own imperative)."""
    value = ctx.field("action_summary")
    return one_line(value) if value else fallback
