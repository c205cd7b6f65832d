"""A numbered plan: ``1. 在 Find a recipe 里输入 vegan lasagna  2. 点 Search  3. 保存第 19 个``. Each item takes an
action, and only one of them is this step's: the item the text says it is on (``现在做第 1 步``, ``Starting with
2``), else the first. A reasoning laid out as a list (``1. the screen shows …  2. the goal needs …  3. so tap …``)
has one item that acts, and is no plan.

>>> text = "1. 在 Find a recipe 里输入 vegan lasagna\\n2. 点 Search\\n3. 找到第 19 个结果并保存"
>>> planned_item(text, [text.find("在"), text.find("点"), text.find("找到")])
0
>>> planned_item(text + "\\n现在做第 2 步。", [text.find("在"), text.find("点"), text.find("找到")])
1
"""
from __future__ import annotations

import re
from typing import Sequence

from .calls import ZH_DIGITS

_ITEM = re.compile(r"[ \t]*\(?(\d{1,2})[.)、）][ \t]*")
_NOW = re.compile(r"(?:现在|先|当前|这一步|本步)(?:做|执行|是|进行|来)?第\s*(\d{1,2}|[一二三四五六七八九十])\s*(?:步|项|条)"
                  r"|\b(?:start(?:ing)? with|now(?: doing| on)?|doing|on) (?:step |item )?#?(\d{1,2})\b(?!\s*/\s*\d)", re.I)  # not on 3/30
PLAN_POINTER = _NOW  # 现在先做第 1 项: which item of the plan this step is, no outcome


def _numbered_line(text: str, offset: int) -> tuple[int, re.Match[str] | None]:
    """(where the line of ``offset`` starts, its item number's match, None when the line is no numbered item)."""
    start = text.rfind("\n", 0, offset) + 1
    return start, _ITEM.match(text, start)


def _item(text: str, offset: int) -> tuple[int, int] | None:
    """(where the item's line starts, its number) of the numbered item whose action ``offset`` opens, None when
    ``offset`` opens no numbered item (a bullet's description, ``- a form: … a Reserve now button``, is no step)."""
    start, m = _numbered_line(text, offset)
    if not m or offset > m.end() + 1:
        return None
    return start, int(m.group(1))


def later_item(text: str, offset: int, decided: int) -> bool:
    """Does ``offset`` stand on a numbered item of a later line than ``decided`` (a later step of a plan)?"""
    start, m = _numbered_line(text, offset)
    return start > decided and m is not None


def planned_item(text: str, offsets: Sequence[int]) -> int | None:
    """Which of ``offsets`` (where the text's action clauses start) is this step's in a plan of two or more items
    that act; None when the text is no such plan."""
    items = [_item(text, off) for off in offsets]
    lines = {it[0] for it in items if it is not None}
    if len(lines) < 2:
        return None
    now = _NOW.search(text)
    if now:
        said = now.group(1) or now.group(2)
        number = int(said) if said.isdigit() else ZH_DIGITS.get(said)
        for i, it in enumerate(items):
            if it is not None and it[1] == number:
                return i
    return next(i for i, it in enumerate(items) if it is not None)


__all__ = ["later_item", "planned_item"]
