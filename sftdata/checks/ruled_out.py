"""Mentions a text rules out: neither the decision's target nor a conflicting one.

A term under a negation or a ruling-out in its own clause (``no need to search``, ``instead of the search box``,
``rather than Chrome``, ``不用搜``, ``不必点 X``, ``别点 X``, ``不是 X，是 Y``) or one a later predicate of its clause
rules out (``立即购买 is the wrong button``, ``搜索框不对``, ``the ad isn't the one``) names what the agent does
*not* act on. :func:`mask_ruled_out` blanks those mentions (the same length, so every position stays valid) before
the decision and the contradiction readers read the text; a label of the screen that holds a ruling word
(``Not now``, ``Don't allow``, ``不用了``) is a name, never a ruling-out.

>>> mask_ruled_out("no need to search — just tap that product image").split()
['no', 'need', 'to', '—', 'just', 'tap', 'that', 'product', 'image']
>>> mask_ruled_out("别点搜索框，直接点商品图").replace(" ", "")
'别，直接点商品图'
>>> mask_ruled_out("The task is add to cart, so 立即购买 is the wrong button. Tap 加入购物车.").split()
['The', 'task', 'is', 'add', 'to', 'cart,', '.', 'Tap', '加入购物车.']
>>> mask_ruled_out("Tap Not now to close the prompt", ("Not now",))
'Tap Not now to close the prompt'
"""
from __future__ import annotations

import re
from typing import Iterable

from ..model import Step
from .quoting import mask_quotes
from .screen_text import element_texts, visible_elements

# a ruling-out before the term: what follows it, up to the end of its clause, is not acted on
_BEFORE = re.compile(
    r"(?-i:\b(?:no need to|don't need to|do not need to|needn't|there's no need to|not necessary to|instead of"
    r"|rather than|don't|do not|never|not|without|skip(?:ping)?|avoid(?:ing)?|ignor(?:e|ing))\b)"
    r"|(?:^|(?<=[,;:—–.!?] )|(?<=\n))(?-i:(?:No need to|Instead of|Rather than|Don't|Do not|Never|Not|Without|Skip"
    r"|Avoid|Ignore)\b)"
    r"|(?<![是要])(?:不用|不必|无需|无须|没必要|不需要|用不着|犯不着|而不是|而非|不是|不要|先不|别)",
)
# ... unless it is no ruling-out at all: a doubt, a reminder, a condition, "not only", "whether or not"
_NOT_RULING = re.compile(
    r"(?:not|never) (?:sure|certain|only|just|yet|quite|too|very)\b|(?:don't|do not|never) forget\b"
    r"|(?:don't|do not) (?:know|see|think|have)\b|不是很|不是吗|不要忘|别忘|不用说|不是说|不是只", re.I)
_BEFORE_GUARD = re.compile(r"(?:\bif|\bwhether or|\bor|是否|要|是)\s*$")
# where the ruled-out stretch ends: the clause's end, or the turn to what is done instead
_SCOPE_END = re.compile(r"[,，;；。!?！？\n:：—–()（）→⇒]|->|=>|\.(?=\s|$)|\s-\s|(?-i:\b(?:but|just|and|instead|so|then)\b)"
                        r"|而是|只|直接|就|改|还是|反而|，")
# a ruling-out after the term in its clause: the clause up to it names what is not acted on
_AFTER = re.compile(
    r"\b(?:is|are|'s|looks|seems) (?:the |a )?(?:wrong|incorrect|irrelevant|a distractor|a trap|not (?:it|the one|the right"
    r"|the target|what (?:I|we) (?:want|need)|needed|relevant))(?: (?:one|button|choice|option|control|link|tab|field|icon|item))?\b|\b(?:isn't|aren't) (?:it|the one|right|what|needed"
    r"|relevant)\b|\bwon't do\b|\b(?:is|are) not needed\b"
    r"|不对|是错的|选错|用不上|不相关|没用|不用管|先不管|不管它|不是目标|不是要(?:点|找|选|的)|不是我们?要(?:点|找|选)?的", re.I)
_CLAUSE_START = re.compile(r"[,，;；。!?！？\n:：—–()（）→⇒]|->|=>|\.(?=\s|$)")
_LIMIT = 48  # a ruling-out reaches at most this far


def _protected(text: str, labels: Iterable[str]) -> list[tuple[int, int]]:
    """Where ``text`` names a label that holds a ruling word (``Not now``, ``不用了``)."""
    spans = []
    for label in labels:
        if len(label) >= 2 and (_BEFORE.search(label) or _AFTER.search(label)):
            spans += [(m.start(), m.end()) for m in re.finditer(re.escape(label), text)]
    return spans


def ruled_out_spans(text: str, labels: Iterable[str] = ()) -> list[tuple[int, int]]:
    """The stretches of ``text`` that name what a ruling-out in their clause excludes."""
    keep = _protected(text, labels)
    out: list[tuple[int, int]] = []
    text = mask_quotes(text)  # a ruling word inside a quotation (a typed reply, a label) rules nothing out
    for m in _BEFORE.finditer(text):
        if any(a <= m.start() < b for a, b in keep) or _NOT_RULING.match(text, m.start()) \
                or _BEFORE_GUARD.search(text[max(0, m.start() - 12):m.start()]):
            continue
        stop = _SCOPE_END.search(text, m.end() + (1 if text[m.end():m.end() + 1].isspace() else 0))
        end = min(stop.start() if stop else len(text), m.end() + _LIMIT)
        if stop and stop.start() == m.end():  # 不用，… / not, …: nothing ruled out
            continue
        out.append((m.end(), end))
    for m in _AFTER.finditer(text):
        if any(a <= m.start() < b for a, b in keep):
            continue
        start = max((c.end() for c in _CLAUSE_START.finditer(text, 0, m.start())), default=0)
        out.append((max(start, m.start() - _LIMIT), m.end()))
    return out


def mask_ruled_out(text: str, labels: Iterable[str] = ()) -> str:
    """``text`` with what its ruling-outs exclude blanked (spaces, the same length); ``labels``: the screen's
    labels, which stay names even when they hold a ruling word."""
    if not isinstance(text, str):
        return text
    chars = list(text)
    for start, end in ruled_out_spans(text, tuple(labels)):
        for i in range(start, end):
            if chars[i] != "\n":
                chars[i] = " "
    return "".join(chars)


def unruled(text: str, step: Step) -> str:
    """:func:`mask_ruled_out` with ``step``'s visible labels and typed text kept as they are."""
    if not isinstance(text, str):
        return text
    kept = {t for e in visible_elements(step) for t in element_texts(e)} | {step.action.text or ""}
    return mask_ruled_out(text, kept)


__all__ = ["mask_ruled_out", "ruled_out_spans", "unruled"]
