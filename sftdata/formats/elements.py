"""Accessibility elements as element-based formats (``mobile-agent``, ``androidlab``) show and address them.

* **interactive**: visible, positive area, and clickable / long_clickable / editable / scrollable / checkable;
  indexed ``0..n-1`` in the step's element order (:func:`interactive`).
* **tap target** of a click or long press (:func:`tap_target`): the smallest interactive element that contains
  the point, is tappable (clickable / long_clickable / editable / checkable: a scroll-only container is never a
  tap target, its centre is not what was touched) and encloses the element actually hit (``action.element``),
  so a neighbour that merely overlaps the point is never chosen; and when the element hit is focusable but not
  tappable it is a control of its own, so no container stands in for it. None -> ``element_not_indexed``; a
  step with no accessibility tree -> ``no_accessibility_tree``.
* **input field** of an ``input`` step (:func:`input_field`): the editable element containing the previous
  step's click, else the focused editable element; neither -> ``no_input_field``.

>>> from sftdata.model import Action, Element, Episode, Screenshot, Step
>>> els = [Element(0, (0, 0, 540, 1200), class_name="android.widget.FrameLayout", flags=("visible",)),
...        Element(1, (0, 100, 540, 200), class_name="android.widget.LinearLayout", flags=("clickable", "visible")),
...        Element(2, (20, 120, 200, 180), text="Wi-Fi", class_name="android.widget.TextView", flags=("visible",))]
>>> step = Step(0, Screenshot("0" * 64, "x.png", 540, 1200), Action("click", point=(50, 150), element=els[2]), elements=els)
>>> [e.index for e in interactive(step)], interactive(step).index(tap_target(step))
([1], 0)
>>> print(listing(step))
[0]<LinearLayout> ''
"""
from __future__ import annotations

from ..model import Element, Step
from .base import CannotExpress, StepContext

INTERACTIVE = ("clickable", "long_clickable", "editable", "scrollable", "checkable")
TAPPABLE = ("clickable", "long_clickable", "editable", "checkable")


def interactive(step: Step) -> list[Element]:
    """The step's interactive elements, in element order (their position in this list is their index)."""
    return [e for e in step.elements
            if e.has("visible") and e.area > 0 and any(e.has(f) for f in INTERACTIVE)]


def kind(element: Element) -> str:
    """``android.widget.Button`` -> ``Button``."""
    return (element.class_name or "View").rsplit(".", 1)[-1] or "View"


def label(element: Element) -> str:
    return " ".join(element.label.split())


def listing(step: Step) -> str:
    """One ``[index]<Type> 'text'`` line per interactive element; editable ones say how to fill them."""
    lines = []
    for i, e in enumerate(interactive(step)):
        note = " (text input - use enter_text action)" if e.has("editable") else ""
        lines.append(f"[{i}]<{kind(e)}> '{label(e)}'{note}")
    return "\n".join(lines)


def _encloses(outer: tuple[int, int, int, int], inner: tuple[int, int, int, int]) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and outer[2] >= inner[2] and outer[3] >= inner[3]


def need_tree(ctx: StepContext) -> None:
    """Element formats show the tree on every step: a step without one cannot be a sample of theirs."""
    if not ctx.step.elements:
        raise CannotExpress("no_accessibility_tree", f"step {ctx.index} has no accessibility elements")


def tap_target(step: Step) -> Element | None:
    """The interactive element a click/long press addresses (see the module docstring), or None."""
    a = step.action
    if a.point is None:
        return None
    if a.element is not None and a.element.has("focusable") and not any(a.element.has(f) for f in TAPPABLE):
        return None  # the hit element is a control of its own (a web "Close ad"): its container is not the target
    hit = a.element.bounds if a.element is not None else None
    found = [e for e in interactive(step) if e.contains(a.point) and any(e.has(f) for f in TAPPABLE)
             and (hit is None or _encloses(e.bounds, hit))]
    return min(found, key=lambda e: e.area) if found else None


def require_tap_target(ctx: StepContext) -> Element:
    need_tree(ctx)
    element = tap_target(ctx.step)
    if element is None:
        raise CannotExpress("element_not_indexed",
                            f"step {ctx.index}: no tappable interactive element encloses {ctx.action.point}")
    return element


def input_field(ctx: StepContext) -> Element:
    """The editable element an ``input`` step types into (see the module docstring)."""
    need_tree(ctx)
    fields = [e for e in interactive(ctx.step) if e.has("editable")]
    prev = ctx.episode.steps[ctx.index - 1].action if ctx.index > 0 else None
    if prev is not None and prev.type in ("click", "long_press") and prev.point is not None:
        under = [e for e in fields if e.contains(prev.point)]
        if under:
            return min(under, key=lambda e: (not e.has("focused"), e.area))
    focused = [e for e in fields if e.has("focused")]
    if focused:
        return focused[0]
    raise CannotExpress("no_input_field", f"step {ctx.index}: no focused or just-clicked editable element")


def largest_scrollable(step: Step, point: tuple[int, int] | None) -> Element | None:
    """The largest scrollable interactive element containing ``point`` (the swipe area), if any."""
    if point is None:
        return None
    found = [e for e in interactive(step) if e.has("scrollable") and e.contains(point)]
    return max(found, key=lambda e: e.area) if found else None


def by_bounds(step: Step, bounds: tuple[int, int, int, int]) -> Element | None:
    """The first interactive element with exactly ``bounds`` (else any element), for parsers of box formats."""
    for pool in (interactive(step), step.elements):
        for e in pool:
            if tuple(e.bounds) == tuple(bounds):
                return e
    return None
