"""A claim in reasoning text that the whole task is already complete (``任务已经完成``, ``Task complete.``).

A ``done`` call is decided by such a claim; a claim on another call's item contradicts it. Purposes, plans,
negations, conditions and parts of the task (``点击提交以完成任务``, ``part one of the goal is done``) are no claim.
"""
from __future__ import annotations

import re

from .decision import CONDITION
from .quoting import mask_quotes

_COMPLETE = re.compile(r"(?:任务|目标|所有要求|全部要求|要求的操作)(?:已经|已|都已|均已|就)?(?:全部|都)?(?:完成|达成|实现|结束)(?:了)?(?![后之以的前])"
                       r"|(?:已经|已)(?:顺利|成功)?完成(?:了)?(?:整个|全部)?(?:任务|目标)"
                       r"|(?:预订|预约|订单|购买|支付|下单)(?:已经|已)(?:全部)?(?:完成|成功)(?:了)?(?![后之以的前])"
                       r"|\b(?:the |this |our )?(?:task|goal|reservation|booking|order|purchase)\s+(?:is|has been|was)\s+(?:now\s+)?"
                       r"(?:complete|completed|done|finished|accomplished|achieved)\b"
                       r"|(?:^|(?<=[.!;。]\s)|(?<=[.!;。]))\s*(?:the\s+)?(?:task|goal)\s+(?:complete|completed|done|finished|accomplished)\b"
                       r"|(?:^|(?<=[.!;。！；—–]))\s*(?:(?:the\s+)?(?:task|goal)\s+)?(?:all\s+)?(?:complete|completed|done|finished"
                       r"|accomplished)\s*(?=[.!。！]|$)"  # … — done.   Done.   — task complete
                       r"|(?:^|(?<=[，,。！；;—–]))\s*(?:搞定|大功告成|全部完成|都完成)了?\s*(?=[。！!]|$)"
                       r"|\bthat'?s (?:everything|all|the (?:whole|entire) task)(?= *[—–.!;,]| *$)|[,，]\s*finished\s*[.!。！]?\s*$|\b(?:finishing|wrapping up)\s*(?=[.!。]|$)"
                       r"|\ball set\s*(?=[—–.!]|$)|\beverything(?:'s| is) (?:finished|done|complete)\b"
                       r"|\bnothing (?:left|more|else) to do\b|\ball (?:steps|requirements) (?:are|have been) (?:done|met)\b",
                       re.I)
_PART_OF = re.compile(r"\b(?:part|half|step|stage)\s+(?:one|two|three|\d)\s+of\s+$|\b(?:first|second|one|other)\s+(?:part|half)"
                      r"\s+of\s+$", re.I)  # Part one of the goal is finished: a part, not the task
_NOT_YET = re.compile(r"(?:尚未|还没|还未|没有|未|不算|并未|才能|以便|为了|就能|即可|可以|便可|才|后就|之后就|来|以)\s*$"
                      r"|\b(?:not|yet|until|before|to|once|when|after|will be|would be|can be|should be)\s+(?:\w+\s+){0,2}$",
                      re.I)


def claims_complete(text: str) -> str | None:
    """The phrase of ``text`` that says the task is already complete, None when none does (purposes, plans,
    negations and conditions do not count).

    >>> claims_complete("所有商品都已加入，任务已经完成。"), claims_complete("点击提交以完成任务。")
    ('任务已经完成', None)
    """
    masked = mask_quotes(text)
    for m in _COMPLETE.finditer(masked):
        before = masked[max(0, m.start() - 8):m.start()]
        clause_start = max(masked.rfind(c, 0, m.start()) for c in "，,；;。！？!?\n") + 1
        if _NOT_YET.search(before) or CONDITION.search(masked[clause_start:m.start()]) or \
                _PART_OF.search(masked[max(0, m.start() - 24):m.start()]):
            continue
        if re.match(r"(?:后|之后|以后|时)", masked[m.end():m.end() + 3]):
            continue
        return text[m.start():m.end()]
    return None
