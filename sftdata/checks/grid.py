"""A place in a grid of alike controls, read from their positions: ``第二排最左边那张``, ``the middle thumbnail of the
top row``, ``the first photo of the second row``, ``row 3, right``.

The alike controls (photos of a gallery, cards, icons) are cut into rows by their centres' height (a row: centres
within half a control's height of each other) and each row is read left to right. A row said by its ordinal
(``第三行``, ``the second row``, ``top``/``bottom``/``last row``) and, when said, a column (``最左``/``leftmost``,
``中间``/``middle``, ``最右``/``rightmost``, or an ordinal of the row: ``第二张``, ``the first photo``) pick one cell.
A row ordinal is not the control's rank in reading order (``第三行中间那张`` is not the third photo).

>>> from sftdata.model import Element
>>> cells = [Element(3 * r + c, (360 * c, 400 + 360 * r, 356 + 360 * c, 756 + 360 * r)) for r in range(3) for c in range(3)]
>>> words, picked = grid_cell("网格第三行中间那张", cells)
>>> words, picked.index
('第三行 中间', 7)
>>> grid_cell("the first photo of the second row", cells)[1].index, grid_cell("tap Save", cells)
(3, None)
"""
from __future__ import annotations

import re

from ..model import Element

_NUM_ZH = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_NTH = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "top": 1, "upper": 1,
        "bottom": -1, "last": -1, "lowest": -1}
_ROW = re.compile(r"第\s*([一二两三四五六七八九十]|\d{1,2})\s*[行排]|(?:最上面|最上方|顶上|最顶)(?:那|一)?[行排]|(最下面|最底下|最后)(?:那|一)?[行排]"
                  r"|\b(first|second|third|fourth|fifth|sixth|top|upper|bottom|last|lowest|\d(?:st|nd|rd|th))\s+row\b"
                  r"|\brow\s+(\d)\b", re.I)
_COLUMN = (  # words -> which cell of the row: 0 the first, -1 the last, None the middle
    (re.compile(r"最左|左边|左侧|左数第一|\b(?:left-?most|far left|left)\b", re.I), 0),
    (re.compile(r"最右|右边|右侧|\b(?:right-?most|far right|right)\b", re.I), -1),
    (re.compile(r"中间|正中|居中|\b(?:middle|centre|center|central)\b", re.I), None),
)
_IN_ROW = re.compile(r"第\s*([一二两三四五六七八九十]|\d)\s*[张个项]|\b(first|second|third|fourth|fifth|last)\s+"
                     r"(?:one|photo|picture|image|thumbnail|icon|card|item|tile|cell|app)\b", re.I)


def _number(word: str) -> int:
    low = word.lower()
    if low.isdigit():
        return int(low)
    if low[:-2].isdigit():
        return int(low[:-2])
    return _NTH.get(low) or _NUM_ZH.get(low, 0)


def rows_of(cells: list[Element]) -> list[list[Element]]:
    """``cells`` cut into rows, top to bottom, each left to right."""
    rows: list[list[Element]] = []
    for cell in sorted(cells, key=lambda e: e.center[1]):
        height = cell.bounds[3] - cell.bounds[1]
        if rows and abs(rows[-1][0].center[1] - cell.center[1]) <= height / 2:
            rows[-1].append(cell)
        else:
            rows.append([cell])
    return [sorted(row, key=lambda e: e.center[0]) for row in rows]


def grid_cell(said: str, cells: list[Element]) -> tuple[str, Element | None] | None:
    """(the words that place it, the cell ``said`` picks among ``cells``), the cell None when the row holds several
    and no column is said; None when ``said`` names no row or the cells make no grid (one row, or rows of one)."""
    m = _ROW.search(said)
    if m is None:
        return None
    rows = rows_of(cells)
    if len(rows) < 2 or max(len(r) for r in rows) < 2:
        return None
    if m.group(1):
        at = _number(m.group(1))
    elif m.group(2):
        at = -1
    elif m.group(3) or m.group(4):
        at = _number(m.group(3) or m.group(4))
    else:
        at = 1
    if at == 0 or at > len(rows):
        return None
    row = rows[at - 1] if at > 0 else rows[-1]
    rest = said[:m.start()] + " " + said[m.end():]
    n = _IN_ROW.search(rest)
    if n:
        k = _number(n.group(1) or n.group(2))
        return (f"{m.group().strip()} {n.group().strip()}", (row[k - 1] if 0 < k <= len(row) else row[-1] if k == -1
                                                            else None))
    for pattern, end in _COLUMN:
        c = pattern.search(rest)
        if c:
            if end is None:
                return f"{m.group().strip()} {c.group()}", row[len(row) // 2] if len(row) % 2 else None
            return f"{m.group().strip()} {c.group()}", row[end]
    return m.group().strip(), row[0] if len(row) == 1 else None


__all__ = ["grid_cell", "rows_of"]
