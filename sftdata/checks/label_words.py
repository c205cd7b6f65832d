"""A text less the words of a label: what a decision says of a card besides what another card shares.

>>> without_words("samsonite 跑步鞋 ¥3999 那一款", "samsonite 跑步鞋 running")
'  ¥3999 那一款'
>>> without_label_parts("点 anker 那双左边的商品图", "商品图片 apple 跑步鞋")
'点 anker 那双左边的 '
"""
from __future__ import annotations

import re

from .calls import CJK_CLASS, longest_first

_LABEL_WORD = re.compile(rf"[a-z0-9]{{3,}}|[{CJK_CLASS}]{{2,}}")
_CJK_RUN = re.compile(rf"[{CJK_CLASS}]+")


def without_words(said: str, label: str) -> str:
    """``said`` without the words of ``label`` (its Latin words of 3+ characters, its CJK runs)."""
    for word in sorted(set(_LABEL_WORD.findall(label)), key=longest_first):
        said = re.sub(rf"(?<![a-z0-9]){re.escape(word)}(?![a-z0-9])", " ", said)
    return said


def without_label_parts(said: str, label: str) -> str:
    """``said`` without the words of ``label`` and without any run of two or more CJK characters that ``label``
    holds (``商品图`` of ``商品图片``)."""
    said = without_words(said, label)
    for run in _CJK_RUN.findall(label):
        for size in range(len(run), 1, -1):
            for i in range(len(run) - size + 1):
                if run[i:i + size] in said:
                    said = said.replace(run[i:i + size], " ")
    return said


__all__ = ["without_label_parts", "without_words"]
