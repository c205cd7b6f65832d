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


__all__ = ["ABOVE_BELOW", "Neighbour", "neighbours"]
