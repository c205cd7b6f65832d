"""A row named by the row above or below it: ``the row just above Hotels``, ``the link right below Guides``.

The neighbour is a place, not the target: the text names the target by where it is. That place is checked on the
screen: the relation *holds* when, of the visible elements in the neighbour's column on that side, the target is
(one of) the nearest. A relation that holds is evidence for the target (``neighbour``) and names no rival; one
that does not hold names another row (the agreement checks reject it as naming another element).

>>> from sftdata.model import Element
>>> rows = [Element(i, (0, 300 + 60 * i, 600, 350 + 60 * i), text=t, flags=("visible",))
...         for i, t in enumerate(["Guides", "Tours", "Hotels"])]
>>> [(n.anchor, n.holds) for n in neighbours("Tap the row just above Hotels.", rows[1], rows)]
[('hotels', True)]
>>> [(n.anchor, n.holds) for n in neighbours("Tap the row just above Hotels.", rows[0], rows)]
[('hotels', False)]
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from ..model import Element
from .calls import normalize
from .screen_text import element_texts
from .target_group import is_control

# ``(just) above / below …``: the relation a row is named by (the click evidence reads the same words)
ABOVE_BELOW = r"\b(?:just\s+|right\s+|directly\s+|immediately\s+)?(?P<side>above|below|under|underneath|beneath)\s+"
_RELATION = re.compile(ABOVE_BELOW + r"(?:the\s+)?(?P<rest>[^,，.;:；。!?\n]+)", re.I)
_GAP = 12  # pixels: rows this much farther than the nearest still count as nearest (a card's inner padding)


@dataclass(frozen=True)
class Neighbour:
    """A neighbour the text names as the target's place: its ``anchor`` label, the ``side`` the target is on
    (``above`` / ``below``), and whether the screen bears it out (``holds``)."""

    anchor: str
    side: str
    holds: bool


def neighbours(text: str, target: Element | None, visible: Sequence[Element]) -> list[Neighbour]:
    """The neighbours ``text`` names as the place of ``target`` among ``visible`` (see the module doc)."""
    if target is None or not isinstance(text, str):
        return []
    out = []
    for m in _RELATION.finditer(text):
        rest = normalize(m.group("rest"))
        anchors = [(t, e) for e in visible if e is not target for t in element_texts(e)
                   if len(t) >= 2 and rest.startswith(t)]
        if not anchors:
            continue
        label, anchor = max(anchors, key=lambda a: len(a[0]))
        side = "above" if m.group("side").lower() == "above" else "below"
        out.append(Neighbour(label, side, _nearest(target, anchor, side, visible)))
    return out


def _nearest(target: Element, anchor: Element, side: str, visible: Sequence[Element]) -> bool:
    """Is ``target`` among the nearest visible elements on ``side`` of ``anchor``, in its column?"""
    def gap(e: Element) -> float | None:
        if min(e.bounds[2], anchor.bounds[2]) <= max(e.bounds[0], anchor.bounds[0]):
            return None  # not in the anchor's column
        g = anchor.bounds[1] - e.bounds[3] if side == "above" else e.bounds[1] - anchor.bounds[3]
        return g if g >= -2 else None
    gaps = [g for e in visible if e is not anchor and (g := gap(e)) is not None]
    mine = gap(target)
    return mine is not None and bool(gaps) and mine <= min(gaps) + _GAP


# ``A 旁边的 B``, ``B next to A``: the thing acted on (``head``) placed beside another in its row (``anchor``)
_BESIDE_ZH = re.compile(r"^(?P<anchor>[^，,。；;]+?)\s*的?(?P<side>旁边|右边|左边|右侧|左侧)(?:的|那个)\s*(?P<head>[^，,。；;]+)$")
_BESIDE_EN = re.compile(r"^(?P<head>.+?)\s+(?:(?:right|just|directly)\s+)?(?P<side>next to|beside|to the right of|to the left of"
                        r"|right of|left of)\s+(?:the\s+)?(?P<anchor>[^,.;]+)$", re.I)
_SIDES = {"右边": "right", "右侧": "right", "左边": "left", "左侧": "left"}


@dataclass(frozen=True)
class Beside:
    """What a text names as acted on (``head``) and the element beside it in its row (``anchor``), and whether the
    screen bears it out (``holds``: the target is the nearest element on that side of the anchor, in its row)."""

    head: str
    anchor: str
    holds: bool


def beside(text: str, target: Element | None, visible: Sequence[Element]) -> Beside | None:
    """The row neighbour ``text`` places ``target`` by (``Find a recipe 旁边的 Search``, ``the Search button next to
    Find a recipe``), None when it names none of the screen.

    >>> from sftdata.model import Element
    >>> box = Element(0, (0, 100, 600, 160), text="Find a recipe", flags=("visible",))
    >>> go = Element(1, (620, 100, 760, 160), text="Search", flags=("visible",))
    >>> beside("Find a recipe 旁边的 Search", go, [box, go])
    Beside(head='Search', anchor='find a recipe', holds=True)
    """
    m = _BESIDE_ZH.match(text.strip()) or _BESIDE_EN.match(text.strip())
    if target is None or m is None:
        return None
    said = normalize(m.group("anchor")).strip()
    anchors = [(t, e) for e in visible if e is not target for t in element_texts(e) if len(t) >= 2 and said.endswith(t)]
    if not anchors:
        return None
    label, anchor = max(anchors, key=lambda a: len(a[0]))
    side = _SIDES.get(m.group("side"), "right" if "right" in m.group("side").lower() else
                      "left" if "left" in m.group("side").lower() else "either")
    head = normalize(m.group("head"))
    own = [t for t in element_texts(target) if len(t) >= 2 and t in head]  # the head says the target's label:
    controls = [e for e in visible if is_control(e)] if own else None  # a price or a caption between is no rival
    return Beside(m.group("head").strip(), label, _nearest_in_row(target, anchor, side, visible, controls))


def _nearest_in_row(target: Element, anchor: Element, side: str, visible: Sequence[Element],
                    among: Sequence[Element] | None = None) -> bool:
    """Is ``target`` in ``anchor``'s row, on ``side`` of it (``either``), with no visible element of that row
    between them (of ``among`` when given: the controls, when the text names the target by its label, so that a
    price between ``Family recipe travel #19`` and its ``Save recipe`` does not count)?"""
    def in_row(e: Element) -> bool:
        return min(e.bounds[3], anchor.bounds[3]) > max(e.bounds[1], anchor.bounds[1])

    def gap(e: Element) -> float | None:
        if not in_row(e):
            return None
        right, left = e.bounds[0] - anchor.bounds[2], anchor.bounds[0] - e.bounds[2]
        g = right if side == "right" else left if side == "left" else max(right, left)
        return g if g >= -2 else None
    mine = gap(target)
    others = [g for e in (visible if among is None else among) if e is not anchor and e is not target
              and (g := gap(e)) is not None and e.bounds[0] != target.bounds[0]]
    return mine is not None and all(mine <= g + _GAP for g in others)


__all__ = ["ABOVE_BELOW", "Beside", "Neighbour", "beside", "neighbours"]
