"""Which nodes of a screen are the tapped target's: the nodes around the tapped point (its group), the elements of
its card, the controls alike it (its peers), the texts a row holds of its own, and what a dialog drawn over the
screen hides.

The evidence finder (:mod:`.target_evidence`) scores a decision's words against these: a row's text names the
target only by what is not another control's label (``Eco house deal #25 $138.99 Save`` holds its Save button's
label), and the elements a dialog covers are no rivals of the dialog's buttons.

>>> from sftdata.model import Action, Element, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> rows = [Element(i, (0, 300 + 200 * i, 1080, 480 + 200 * i), flags=("visible",)) for i in range(2)]
>>> dialog = Element(2, (80, 350, 1000, 800), flags=("visible",))
>>> ok = Element(3, (700, 700, 900, 760), text="删除", flags=("visible", "clickable"))
>>> step = Step(0, shot, Action("click", point=(800, 730), element=ok), elements=rows + [dialog, ok])
>>> [e.index for e in in_front(step, ok, rows + [dialog, ok])]
[2, 3]
"""
from __future__ import annotations

from ..model import Element, Step
from .calls import element_label, longest_first, normalize
from .screen_text import element_texts, same_label


def group_of(step: Step, target: Element, visible: list[Element]) -> list[Element]:
    """The target and the nodes around the tapped point (not a quarter of the screen or more)."""
    point = step.action.point or target.center
    return [target] + [e for e in visible if e.contains(point) and e is not target
                       and e.area <= 0.25 * step.screenshot.width * step.screenshot.height]


def card_of(step: Step, target: Element, visible: list[Element],
            point: tuple[float, float] | None = None) -> list[Element]:
    """The elements of the target's card: inside the smallest box around the tapped point (``point``, when given:
    another element's card) that is larger than the target and under a quarter of the screen; else (a flat list)
    the short texts beside a tall target and the subtitle right under it (``Sound & vibration`` over ``Volume,
    haptics, Do Not Disturb``)."""
    point = point or step.action.point or target.center
    screen = step.screenshot.width * step.screenshot.height
    boxes = [e for e in step.elements if e.contains(point) and target.area < e.area <= 0.25 * screen]
    if boxes:
        box = min(boxes, key=lambda e: e.area)
        l0, t0, r0, b0 = box.bounds
        return [e for e in visible if e.bounds[0] >= l0 and e.bounds[1] >= t0 and e.bounds[2] <= r0 and e.bounds[3] <= b0]
    top, bottom = target.bounds[1], target.bounds[3]
    height = bottom - top
    beside = [e for e in visible if e is not target and e.bounds[1] >= top - 4 and e.bounds[3] <= bottom + 4
              and 0 < (e.bounds[3] - e.bounds[1]) * 2 <= height]
    below = [e for e in visible if e is not target and abs(e.bounds[0] - target.bounds[0]) <= 8  # its subtitle
             and bottom - 4 <= e.bounds[1] <= bottom + height // 2 and 0 < e.bounds[3] - e.bounds[1] <= height
             and not is_control(e)]
    return beside + below[:1]


def peers_of(step: Step, target: Element, visible: list[Element]) -> list[Element]:
    """The controls alike the target in reading order: its label's twins, else those of its kind, size and
    clickability (nested nodes of one control once)."""
    twins = [e for e in same_label(step, target)[0] if any(e is v for v in visible)]
    if len(twins) >= 2:
        return twins
    w, h = target.bounds[2] - target.bounds[0], target.bounds[3] - target.bounds[1]
    kind = target.class_name or target.tag
    alike = [e for e in visible if abs((e.bounds[2] - e.bounds[0]) - w) <= 0.1 * w
             and abs((e.bounds[3] - e.bounds[1]) - h) <= 0.1 * h and e.has("clickable") == target.has("clickable")
             and (not kind or not (e.class_name or e.tag) or (e.class_name or e.tag) == kind)]
    out = [target]
    for e in alike:
        if not any(o.contains(e.center) or e.contains(o.center) for o in out):
            out.append(e)
    return sorted(out, key=lambda e: (e.bounds[1], e.bounds[0]))


def is_control(e: Element) -> bool:
    """Something a tap acts on by itself: a clickable node, a link, a button or a form field."""
    return e.has("clickable") or e.tag.lower() in ("a", "button", "input", "select", "textarea") or (
        "Button" in e.class_name)


def own_texts(element: Element, target: Element, group: list[Element], visible: list[Element]) -> list[str]:
    """The texts of ``element`` (a node around the tapped point) less those of the other controls inside it: a row
    whose text is ``Eco house deal #25 $138.99 Save`` names its Save button, which is not the tapped title."""
    if element is target:
        return element_texts(element)
    inner = sorted({normalize(element_label(d)) for d in visible if d is not element and d not in group
                    and is_control(d) and d.area < element.area and element.contains(d.center)}, key=longest_first)
    out = []
    for text in element_texts(element):
        for label in inner:
            text = text.replace(label, " ") if label else text
        text = " ".join(text.split())
        if text and text not in out:
            out.append(text)
    return out


def inside(inner: Element, outer: Element, slack: int = 0) -> bool:
    """Does ``inner``'s box lie within ``outer``'s (``slack`` pixels allowed on each side)?"""
    l0, t0, r0, b0 = outer.bounds
    return (inner.bounds[0] >= l0 - slack and inner.bounds[1] >= t0 - slack and inner.bounds[2] <= r0 + slack
            and inner.bounds[3] <= b0 + slack)


def _overlaps(a: Element, b: Element) -> bool:
    return a.bounds[0] < b.bounds[2] and b.bounds[0] < a.bounds[2] and a.bounds[1] < b.bounds[3] and b.bounds[1] < a.bounds[3]


_SLACK = 8  # pixels a node may stick out of its parent (a 1084-wide row in a 1080-wide screen)


def in_front(step: Step, target: Element, visible: list[Element]) -> list[Element]:
    """``visible`` less what a box drawn over the screen hides, when the target is in such a box: a node around the
    tapped point that comes after smaller elements it partly covers, two or more (a dialog over a list's rows; a
    tree's boxes otherwise nest or lie apart), hides the earlier elements outside it."""
    order = {id(e): i for i, e in enumerate(step.elements)}
    for box in sorted((e for e in group_of(step, target, visible) if e is not target), key=lambda e: e.area):
        at = order.get(id(box), -1)
        earlier = [e for e in visible if order.get(id(e), len(order)) < at]
        covered = [e for e in earlier if _overlaps(e, box) and e.area < box.area  # not an ancestor a few px short
                   and not inside(e, box, _SLACK) and not inside(box, e, _SLACK)]
        if len(covered) >= 2:
            hidden = {id(e) for e in earlier if not inside(e, box)}
            return [e for e in visible if id(e) not in hidden]
    return visible


__all__ = ["card_of", "group_of", "in_front", "inside", "is_control", "own_texts", "peers_of"]
