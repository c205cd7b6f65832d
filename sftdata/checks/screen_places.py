"""Places of the screen said in words (``右上角``, ``at the bottom``, ``in the middle``), as shares of its width and
height, and whether an element lies there.

>>> [w for w, _, _ in whole_places("左上方的第二个")]
['左上']
"""
from __future__ import annotations

import re

from ..model import Element, Step

_PLACES = (  # words -> (x range, y range) as shares of the screen
    (r"左上|top[- ]left|upper[- ]left", (0, .45), (0, .4)),
    (r"右上|top[- ]right|upper[- ]right", (.55, 1), (0, .4)),
    (r"左下|bottom[- ]left|lower[- ]left", (0, .45), (.6, 1)),
    (r"右下|bottom[- ]right|lower[- ]right", (.55, 1), (.6, 1)),
    (r"顶部|顶端|最上|顶上|上方|\b(?:at|on|along|near|across) the top\b|\btop of the\b|\btop bar\b", (0, 1), (0, .25)),
    (r"底部|底端|最下|底下|下方|\b(?:at|on|along|near|across) the bottom\b|\bbottom of the\b|\bbottom bar\b", (0, 1),
     (.75, 1)),
    (r"左边|左侧|左手|\bon the left\b|\bleft side\b|\bleft-hand\b", (0, .4), (0, 1)),
    (r"右边|右侧|右手|\bon the right\b|\bright side\b|\bright-hand\b", (.6, 1), (0, 1)),
    (r"中间|中央|正中|\b(?:in the )?(?:middle|centre|center)\b", (.25, .75), (.25, .75)),
)
_PLACE_RE = [(re.compile(p, re.I), xs, ys) for p, xs, ys in _PLACES]


def screen_places(said: str) -> list[tuple[str, tuple[float, float], tuple[float, float]]]:
    """Every place of the screen ``said`` names: (its words, the x share, the y share)."""
    return [(m.group(), xs, ys) for pattern, xs, ys in _PLACE_RE for m in [pattern.search(said)] if m]


def whole_places(said: str) -> list[tuple[str, tuple[float, float], tuple[float, float]]]:
    """The places of ``said`` as written, one overlapping an earlier or longer one left out: ``左上方`` is the upper
    left, not also the top (a twin high on the screen is not picked by ``左上方的第二个``)."""
    found = sorted((m.start(), -len(m.group()), m.group(), xs, ys) for pattern, xs, ys in _PLACE_RE
                   for m in [pattern.search(said)] if m)
    kept, end = [], -1
    for start, neg_len, words, xs, ys in found:
        if start >= end:
            kept.append((words, xs, ys))
            end = start - neg_len
    return kept


_ROWS = {"top": (0, .2), "upper": (.2, .4), "middle": (.4, .6), "中间": (.4, .6), "中部": (.4, .6), "lower": (.6, .8),
         "bottom": (.8, 1)}
_COLS = {"left": (0, .34), "左侧": (0, .34), "左边": (0, .34), "centre": (.33, .67), "center": (.33, .67),
         "right": (.66, 1), "右侧": (.66, 1), "右边": (.66, 1)}
_CELL = re.compile(r"\b(top|upper|middle|lower|bottom)[- ](left|centre|center|right)\b|(中间|中部)(左侧|左边|右侧|右边)", re.I)


def screen_cells(said: str) -> list[tuple[str, tuple[float, float], tuple[float, float]]]:
    """A row and a column said together (``middle right``, ``lower left``, ``中间右侧``): a fifth of the screen's height
    and a third of its width, finer than :func:`screen_places` (``lower right`` is the row above ``bottom right``).

    >>> [(w, ys) for w, _, ys in screen_cells("点中间右侧的 Save")]
    [('中间右侧', (0.4, 0.6))]
    """
    out = []
    for m in _CELL.finditer(said):
        row, col = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        out.append((m.group(), _COLS[col.lower()], _ROWS[row.lower()]))
    return out


def at_place(element: Element, step: Step, xs: tuple[float, float], ys: tuple[float, float]) -> bool:
    """Is ``element``'s centre within the shares ``xs`` and ``ys`` of the step's screen?"""
    x, y = element.center
    w, h = step.screenshot.width or 1, step.screenshot.height or 1
    return xs[0] <= x / w <= xs[1] and ys[0] <= y / h <= ys[1]


__all__ = ["at_place", "screen_cells", "screen_places", "whole_places"]
