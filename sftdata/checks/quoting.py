"""Quotations in reasoning text: how the template quotes UI text and how the checks read quotations back
(quoted text is a label, the goal or a typed value, never a verb)."""
from __future__ import annotations

import re

# quotations: UI text, the goal, typed text (never read for verbs)
QUOTE = re.compile(r"“([^”]*)”|「([^」]*)」|『([^』]*)』|\"([^\"]*)\"|‘([^’]*)’|《([^》]*)》"
                   r"|(?<![A-Za-z])'(?!s\s)([^'\n]{1,80})'(?![A-Za-z])")  # 李娜's avatar: a possessive, no quote
_SPACES = re.compile(r"\s+")
_QUOTE_PAIRS = ("“”", "「」", "『』")  # the writers' quotation marks, in the order they are tried
_MORE_PAIRS = ("《》", "‘’", '""')  # the other pairs QUOTE reads, for a text that holds marks of the first three


def quote(text: str) -> str:
    """Wrap UI text in the first quotation pair it does not already contain (whitespace collapsed); a text holding
    a mark of each of those pairs gets the first pair whose closing mark it lacks, so the checks read the quote
    back whole (:data:`QUOTE` ends a quotation at its pair's closing mark).

    >>> quote("Mobiles"), quote('搜索“机械键盘”'), quote('“a” 「b」 『c』')
    ('“Mobiles”', '「搜索“机械键盘”」', '《“a” 「b」 『c』》')
    """
    text = _SPACES.sub(" ", text).strip()
    for pair in _QUOTE_PAIRS:
        if pair[0] not in text and pair[1] not in text:
            return pair[0] + text + pair[1]
    return next((pair[0] + text + pair[1] for pair in _QUOTE_PAIRS + _MORE_PAIRS if pair[1] not in text),
                "「" + text + "」")


def quotable(text: str) -> bool:
    """Can :func:`quote` wrap ``text`` so that it reads back whole? (Not when it holds every closing mark.)"""
    return any(pair[1] not in text for pair in _QUOTE_PAIRS + _MORE_PAIRS)



def mask_quotes(text: str) -> str:
    """``text`` with the inside of every quotation replaced by ``□`` (same length: offsets hold)."""
    return QUOTE.sub(lambda m: m.group()[0] + "□" * (len(m.group()) - 2) + m.group()[-1], text)


def quotes_in(text: str) -> list[str]:
    """The quoted strings of ``text``, in order.

    >>> quotes_in('点击“设置”，输入「abc」')
    ['设置', 'abc']
    """
    return [next(g for g in m.groups() if g is not None) for m in QUOTE.finditer(text)]
