"""Twins told apart by where they are: a place of the screen (``右上角那个删除``, ``the middle right Save``) or a place
among alike elements (``上面那个``, ``the lower one``) that picks another of them than the target's own.

>>> names_whole("点 save recipe", "Save recipe")
True
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from ..model import Element, Step
from .calls import element_label, normalize, target_element
from .screen_places import at_place, screen_cells, whole_places
from .screen_text import visible_elements
from .target_group import card_of, group_of, in_front


def names_whole(said: str, label: str) -> bool:
    """``said`` holds ``label`` whole (2+ characters; a Latin label as whole words)."""
    label = normalize(label).strip()
    return len(label.replace(" ", "")) >= 2 and bool(re.search(rf"(?<![a-z0-9]){re.escape(label)}(?![a-z0-9])", said))


# ``the lower Nike card``, ``the one lower down``: not a screen place (``the lower left``, ``the lower half``)
_KIND = r"(?=[^,.;]{0,40}?\b(?:card|button|item|image|picture|photo|link|entry|product|thumbnail)s?\b)"
_RELATIVE = (  # a place said among alike elements -> which of them it picks: (axis, first or last)
    (r"上面(?:那|这)|上边(?:那|这)|靠上|\b(?:upper|top|higher) one\b|\b(?:higher|further) up\b"
     r"|\bthe (?:upper|higher)\b(?![\s-]+(?:left|right|half|part|side|edge|corner))" + _KIND, 1, 0),
    (r"下面(?:那|这)|下边(?:那|这)|靠下|\b(?:lower|bottom) one\b|\b(?:lower|further) down\b"
     r"|\bthe lower\b(?![\s-]+(?:left|right|half|part|side|edge|corner))" + _KIND, 1, -1),
    (r"左边(?:那|这)|左侧(?:那|这)|靠左|\bleft(?:most)? one\b", 0, 0),
    (r"右边(?:那|这)|右侧(?:那|这)|靠右|\bright(?:most)? one\b", 0, -1),
)
_RELATIVE_RE = [(re.compile(p, re.I), axis, end) for p, axis, end in _RELATIVE]


def _other_half(own: Element, twins: list[Element], axis: int, span: tuple[float, float]) -> bool:
    """Is ``own`` in the middle or the far half of the alike elements, seen from the side ``span`` names on ``axis``
    (``(0, .4)``: the top or left; ``(.6, 1)``: the bottom or right)?"""
    if span[0] > 0 and span[1] < 1 or span == (0, 1):
        return False
    alike = sorted(twins + [own], key=lambda e: e.center[axis])
    at = alike.index(own) / max(1, len(alike) - 1)
    return at >= .5 if span[0] == 0 else at <= .5


def _named_alike(said: str, step: Step) -> Iterator[tuple[Element, list[Element], list[Element]]]:
    """For each element of the target's group or card whose label ``said`` (normalised) names whole: it, its twins
    elsewhere on the screen (the same label) and those behind a dialog in front of the target."""
    target = target_element(step)
    shown = visible_elements(step)
    if target is None or not shown:
        return
    visible = in_front(step, target, shown)
    group = group_of(step, target, visible)
    mine = group + [e for e in card_of(step, target, visible) if e not in group]
    point = step.action.point or target.center
    for own in mine:
        label = normalize(element_label(own)).strip()
        if not label or not names_whole(said, label):
            continue
        alike = [e for e in shown if e not in mine and normalize(element_label(e)).strip() == label]
        yield own, [e for e in alike if e in visible and not e.contains(point)], [e for e in alike if e not in visible]


def twin_place_conflict(said: str, step: Step) -> bool:
    """Does a place in ``said`` pick another of the alike elements it names than the target's own? An element of
    the target's group or card whose label ``said`` names whole has twins elsewhere (``Off`` under Bluetooth and
    under Airplane mode, a Save button in every row); a place of the screen (``at the upper right``) that fits a
    twin and not the own one while the own one is in the middle or the far half of them, or a place among them
    (``上面那个``, ``the lower one``) that picks a twin, names the twin's card, not the target's."""
    said = normalize(said)
    for own, twins, hidden in _named_alike(said, step):
        if any(not at_place(own, step, xs, ys) and any(at_place(t, step, xs, ys) for t in hidden)
               for _, xs, ys in list(whole_places(said))[:1]):  # the decision's own place, not its context's
            return True  # 右上角那个删除 behind the dialog: the place names the covered twin
        if not twins:
            continue
        for _, xs, ys in whole_places(said):
            if not at_place(own, step, xs, ys) and any(at_place(t, step, xs, ys) for t in twins) and any(
                    _other_half(own, twins, axis, span) for axis, span in ((0, xs), (1, ys))):
                return True
        if any(not at_place(own, step, xs, ys) and any(at_place(t, step, xs, ys) for t in twins)
               for _, xs, ys in screen_cells(said)):
            return True  # 中间右侧的 Save when the own Save is in the row below: a cell of the screen picks a twin
        for pattern, axis, end in _RELATIVE_RE:
            if pattern.search(said):
                alike = sorted(twins + [own], key=lambda e: e.center[axis])
                if alike[end] is not own and alike[end].center[axis] != own.center[axis]:
                    return True
    return False


def twin_place_picked(said: str, step: Step) -> str | None:
    """The place among alike elements in ``said`` (``the upper Bose card``, ``下面那个``) that picks the target's own
    one of the twins it names whole; None when it names no twin or no such place picks the own one."""
    said = normalize(said)
    for own, twins, _ in _named_alike(said, step):
        for pattern, axis, end in _RELATIVE_RE if twins else ():
            m = pattern.search(said)
            alike = sorted(twins + [own], key=lambda e: e.center[axis])
            if m and alike[end] is own and alike[0].center[axis] != alike[-1].center[axis]:
                return m.group()
    return None


__all__ = ["names_whole", "twin_place_conflict", "twin_place_picked"]
