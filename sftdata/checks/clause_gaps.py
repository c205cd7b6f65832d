"""Spaces used as commas: a hurried Chinese note separates its clauses by spaces, not punctuation
(``按返回 回到耳机列表了 底栏购物车显示2件``, ``详情页 点加入购物车``). The readers of decisions cut a text into
clauses at punctuation, so such a note reads as one clause: its decision is missed, or what it reports after the
decision is read as part of it. :func:`spaced_clauses` turns such a space into a comma where it must be one: the
line has no punctuation of its own and is mostly Chinese, and the space ends a clause (``了`` before it) or opens one
(an action verb, or a word such as ``回到`` or ``然后``, right after it). A space between the words of a name stays (``选联想词里的 双肩包 热卖 那条``), and
so does any space inside a quotation.

>>> spaced_clauses("按返回 回到耳机列表了 底栏购物车显示2件")
'按返回，回到耳机列表了，底栏购物车显示2件'
>>> spaced_clauses("选联想词里的 双肩包 热卖 那条")
'选联想词里的 双肩包 热卖 那条'
>>> spaced_clauses("bt row upper left says off  tap it")
'bt row upper left says off, tap it'
"""
from __future__ import annotations

import re

from .calls import CJK_CLASS
from .decision import first_verb
from .quoting import mask_quotes

_GAP = re.compile(rf"(?<=[{CJK_CLASS}]|[^\w\s])[ \t\u3000]+(?=[{CJK_CLASS}])")  # 确认删 → 点对话框里的 删除
_PUNCTUATION = re.compile(r"[，。；！？、：,.;!?:]")
_CJK = re.compile(rf"[{CJK_CLASS}]")
_LATIN_WORD = re.compile(r"[A-Za-z]+")
_CLAUSE_END = re.compile(r"[了吧啦呢啊]$")
_OPENS = re.compile(r"(?:回到|来到|进到|跳到|跳转|出现|显示|变成|已经|现在|然后|接着|看到|应该|可能)")
"""Words that open a clause of their own (a place reached, a change, an order), besides the action verbs."""
_ADVERBS = re.compile(r"(?:先|再|就|直接|然后|马上|赶紧|我)*")  # 详情页 先点加入购物车: the verb after an adverb
_OPEN_FRAME = re.compile(r"[把将在往给]")
_NOUN_GOES_ON = re.compile(r"(?:的|那个|这个|那条|这条|那张|这张|那款|这款|那|这)$")  # 点底部中间的 加入购物车: one name


def _commas(line: str, gap: re.Pattern[str], comma: str, ends_clause) -> str:
    """``line`` with each ``gap`` (found outside quotations) that ``ends_clause(masked, match, last)`` says ends a
    clause made ``comma``; ``last``: where the clause before the gap began."""
    masked = mask_quotes(line)
    out, last = [], 0
    for m in gap.finditer(masked):
        if ends_clause(masked, m, last):
            out += [line[last:m.start()], comma]
            last = m.end()
    return "".join(out) + line[last:]


def _chinese_gap_ends(masked: str, m: re.Match[str], last: int) -> bool:
    left, right = masked[:m.start()], masked[m.end():]
    if _OPEN_FRAME.search(masked[last:m.start()]) and first_verb(masked[last:m.start()]) is None:
        return False  # 先把 State 选成 Texas, 在 City 里 输入: the frame's verb is still to come
    verb = first_verb(right)
    opens = ((verb is not None and _ADVERBS.fullmatch(right[:verb[0]]) is not None) or _OPENS.match(right)) \
        and not _NOUN_GOES_ON.search(left)
    return bool(_CLAUSE_END.search(left) or opens)


def _spaced_line(line: str) -> str:
    if _PUNCTUATION.search(line) or len(_CJK.findall(line)) < len(_LATIN_WORD.findall(line)):
        return line
    return _commas(line, _GAP, "，", _chinese_gap_ends)


_WIDE_GAP = re.compile(r"(?<=[^\s)}\]:：])[ \t]{2,}(?=[^\s#/\-—–])")  # bt row says off  tap it (not a call's comment)


def _wide_gap_ends(masked: str, m: re.Match[str], last: int) -> bool:
    verb = first_verb(masked[m.end():])
    return (verb is not None and _ADVERBS.fullmatch(masked[m.end():m.end() + verb[0]].strip()) is not None
            and not _NOUN_GOES_ON.search(masked[:m.start()]))


def _wide_gaps(line: str) -> str:
    """A run of spaces before a clause that opens with an action verb (``search field top centre  tap it``) is a
    comma, in any language."""
    return _commas(line, _WIDE_GAP, ", ", _wide_gap_ends)


def spaced_clauses(text: str) -> str:
    """``text`` with each space that separates two clauses of a Chinese line without punctuation made a comma, and
    each run of spaces before a clause of its own."""
    if not isinstance(text, str) or not (_GAP.search(text) or _WIDE_GAP.search(text)):
        return text
    return "\n".join(_spaced_line(_wide_gaps(line)) for line in text.split("\n"))


__all__ = ["spaced_clauses"]
