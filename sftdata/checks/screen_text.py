"""What a screen really shows: the elements whose bounds lie on the frame, and their texts.

An accessibility tree (and a web DOM) holds nodes that are off screen, zero-sized or flagged invisible; an
agent looking at the screenshot sees none of them. Every check that asks "is this text on the current screen?"
(future screen text, grounding in the rules judge, the agreement check's other targets) and the template's
observations read the screen through these two functions. OCR text lines (``"ocr"`` in the flags) count as
visible: they were read from the pixels.

>>> from sftdata.model import Action, Element, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> shown = Element(0, (0, 300, 1080, 400), text="蓝牙", flags=("visible",))
>>> below = Element(1, (0, 2500, 1080, 2600), text="Hidden row", flags=("visible",))
>>> screen_texts(Step(0, shot, Action("back"), elements=[shown, below]))
['蓝牙']
"""
from __future__ import annotations

import re
from functools import lru_cache

from ..model import Element, Step
from .calls import element_label, normalize

MIN_VISIBLE_SHARE = 0.5  # at least half of an element's box must lie on the frame


def on_screen(element: Element, width: int, height: int) -> bool:
    """True when ``element`` is visible and at least half of its non-empty box lies inside the frame.

    >>> on_screen(Element(0, (0, 0, 10, 10), flags=("visible",)), 100, 100)
    True
    >>> on_screen(Element(0, (90, 0, 130, 10), flags=("visible",)), 100, 100)
    False
    """
    if not (element.has("visible") or element.has("ocr")) or element.area <= 0:
        return False
    left, top, right, bottom = element.bounds
    inside = max(0, min(right, width) - max(left, 0)) * max(0, min(bottom, height) - max(top, 0))
    return inside >= MIN_VISIBLE_SHARE * element.area


def visible_elements(step: Step) -> list[Element]:
    """The step's elements an agent can see on the screenshot (see :func:`on_screen`)."""
    shot = step.screenshot
    return [e for e in step.elements if on_screen(e, shot.width, shot.height)]


def element_texts(element: Element) -> list[str]:
    """Every text an element shows or announces, normalised: its label, text, description and hint (remembered
    per element: an element is immutable, and the checks ask for the same ones over and over)."""
    return list(_element_texts(element))


@lru_cache(maxsize=1 << 14)
def _element_texts(element: Element) -> tuple[str, ...]:
    out: list[str] = []
    for value in (element_label(element), element.text, element.desc, element.hint):
        value = normalize(value or "")
        if value and value not in out:
            out.append(value)
    return tuple(out)


PRICE = re.compile(r"[¥$€£]\s?\d[\d,]*(?:\.\d+)?")  # ¥459, $230.00: says which card, and counts as a name


_COUNTER = re.compile(r"(\d+)\s*/\s*(\d+)")  # a viewer's position, 5 / 30


def with_squeezed_counters(texts: list[str]) -> list[str]:
    """``texts`` and, after them, each one holding a counter with its spaces left out (``5 / 30`` said ``5/30``).

    >>> with_squeezed_counters(["5 / 30", "删除"])
    ['5 / 30', '删除', '5/30']
    """
    return texts + [_COUNTER.sub(r"\1/\2", t) for t in texts if _COUNTER.search(t)]


_CACHE: dict[int, tuple[Step, int, list[str]]] = {}  # id(step) -> (step, element count, texts): checks ask often
_CACHE_SIZE = 4096


def screen_texts(step: Step) -> list[str]:
    """The normalised texts of :func:`visible_elements`, each once, top to bottom (remembered per step object)."""
    hit = _CACHE.get(id(step))
    if hit is not None and hit[0] is step and hit[1] == len(step.elements):
        return hit[2]
    texts = _screen_texts(step)
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.clear()
    _CACHE[id(step)] = (step, len(step.elements), texts)
    return texts


def _screen_texts(step: Step) -> list[str]:
    out: list[str] = []
    for element in sorted(visible_elements(step), key=lambda e: (e.bounds[1], e.bounds[0])):
        for text in element_texts(element):
            if text not in out:
                out.append(text)
    return out


def knows_screen(step: Step) -> bool:
    """Whether the step says anything about its screen's texts (an empty tree is unknown, not empty)."""
    return bool(step.elements)


def _overlap(a: Element, b: Element) -> bool:
    """One contains the other's centre: nested nodes of one control (a button and its text)."""
    ax, ay = (a.bounds[0] + a.bounds[2]) / 2, (a.bounds[1] + a.bounds[3]) / 2
    bx, by = (b.bounds[0] + b.bounds[2]) / 2, (b.bounds[1] + b.bounds[3]) / 2
    return b.contains((ax, ay)) or a.contains((bx, by))


def same_label(step: Step, target: Element) -> tuple[list[Element], int]:
    """The visible controls that carry ``target``'s label (the target included, nested nodes of one control
    once) in reading order, and the 1-based rank of the target among them.

    >>> from sftdata.model import Action, Screenshot
    >>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
    >>> add = [Element(i, (600, 400 + 300 * i, 1000, 480 + 300 * i), text="Add", flags=("visible",)) for i in range(3)]
    >>> twins, rank = same_label(Step(0, shot, Action("click", point=(800, 740)), elements=add), add[1])
    >>> len(twins), rank
    (3, 2)
    """
    label = normalize(element_label(target))
    same = [e for e in visible_elements(step) if label and normalize(element_label(e)) == label]
    if target not in same:
        same.append(target)
    out: list[Element] = []
    for e in sorted(same, key=lambda e: e.area):
        if not any(_overlap(e, o) for o in out):
            out.append(e)
    out.sort(key=lambda e: (e.bounds[1], e.bounds[0]))
    return out, next(i for i, e in enumerate(out) if _overlap(e, target)) + 1


@lru_cache(maxsize=1 << 12)
def label_pattern(label: str) -> re.Pattern[str]:
    """``label`` as written, in any case, compiled once (a screen's labels recur over an episode's items)."""
    return re.compile(re.escape(label), re.I)
