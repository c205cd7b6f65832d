"""Accessibility elements as the element-based formats (``mobile-agent``, ``androidlab``) list and address them.

* **listed** (:func:`listed`): the elements a model is shown, indexed ``0..n-1`` in the step's element order.
  An element is listed when it is visible, its box clipped to the screen is not empty, it can be acted on
  (clickable / long_clickable / editable / scrollable / checkable, or focusable with a label of its own: a web
  control such as "Close ad") and it can be named: it carries a label (text, else description, else hint),
  or it is a tappable container whose label is its content's text (the labels of the nodes it encloses, not
  those of another tappable control inside it), or its type describes it (``ImageButton``, ``CheckBox``,
  ``EditText``...; never a bare ``View``, ``...Layout`` or empty ``TextView``): such a nameless element is
  described by its state and place (``'not checked, top right'``), so no listed text is empty. Boxes are
  clipped to the screen.
* **tap target** of a click or long press (:func:`tap_target`): the smallest listed element that is tappable
  (or is the focusable control that was hit), contains the point and encloses the node actually hit
  (``action.element``), so a tap on an unlabeled node resolves to its labelled tappable ancestor and a
  neighbour that merely overlaps the point is never chosen. A hit node that is a focusable control of its own
  without a name has no target (its container's centre is not what was touched). None ->
  ``element_not_indexed``; a step with no accessibility tree -> ``no_accessibility_tree``. Such a tap is
  described by the node's type and position (:func:`where`) where a format speaks of earlier steps.
* **input field** of an ``input`` step (:func:`input_field`): the listed editable element containing the
  previous step's click, else the focused one; neither -> ``no_input_field``.

>>> from sftdata.model import Action, Element, Screenshot, Step
>>> els = [Element(0, (0, 0, 540, 1200), class_name="android.widget.FrameLayout", flags=("visible",)),
...        Element(1, (0, 100, 560, 200), class_name="android.widget.LinearLayout", flags=("clickable", "visible")),
...        Element(2, (20, 120, 200, 180), text="Wi-Fi", class_name="android.widget.TextView", flags=("visible",)),
...        Element(3, (0, 300, 540, 400), class_name="android.widget.LinearLayout", flags=("clickable", "visible"))]
>>> step = Step(0, Screenshot("0" * 64, "x.png", 540, 1200), Action("click", point=(50, 150), element=els[2]), elements=els)
>>> print(listing(step))
[0]<LinearLayout> 'Wi-Fi'
>>> listed(step)[0].bounds, tap_target(step).node.index
((0, 100, 540, 200), 1)
"""
from __future__ import annotations

from dataclasses import dataclass

from ..model import Element, Point, Step
from .base import CannotExpress, StepContext

INTERACTIVE = ("clickable", "long_clickable", "editable", "scrollable", "checkable")
TAPPABLE = ("clickable", "long_clickable", "editable", "checkable")
LABEL_CHARS = 80  # a listed label (own, or a container's content text) is cut here: a web link's URL is no name
Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Listed:
    """A listed element: the accessibility node as recorded, its box clipped to the screen, its label."""

    node: Element
    bounds: Box
    label: str

    @property
    def kind(self) -> str:
        return kind(self.node)

    @property
    def center(self) -> Point:
        left, top, right, bottom = self.bounds
        return ((left + right) // 2, (top + bottom) // 2)

    @property
    def area(self) -> int:
        return (self.bounds[2] - self.bounds[0]) * (self.bounds[3] - self.bounds[1])

    def contains(self, point: Point) -> bool:
        left, top, right, bottom = self.bounds
        return left <= point[0] < right and top <= point[1] < bottom

    def has(self, flag: str) -> bool:
        return self.node.has(flag)


def kind(element: Element) -> str:
    """``android.widget.Button`` -> ``Button``."""
    return (element.class_name or "View").rsplit(".", 1)[-1] or "View"


def described(type_name: str) -> bool:
    """Does the type alone say what the element is? (``ImageButton`` yes; ``View``, ``FrameLayout``, and a
    ``TextView`` without text, no.)

    >>> described("ImageButton"), described("LinearLayout"), described("View")
    (True, False, False)
    """
    return type_name not in ("View", "ViewGroup", "TextView") and not type_name.endswith("Layout")


def label(element: Element) -> str:
    """The node's own label (text, else description, else hint) on one line."""
    return " ".join(element.label.split())


def clip(bounds: Box, width: int, height: int) -> Box | None:
    """``bounds`` cut to the ``width`` x ``height`` screen; None when nothing is left.

    >>> clip((0, 294, 1084, 2213), 1080, 2400), clip((1100, 0, 1200, 50), 1080, 2400)
    ((0, 294, 1080, 2213), None)
    """
    left, top = max(0, bounds[0]), max(0, bounds[1])
    right, bottom = min(width, bounds[2]), min(height, bounds[3])
    return (left, top, right, bottom) if right > left and bottom > top else None


def _tappable(e: Element) -> bool:
    return any(e.has(f) for f in TAPPABLE)


def _encloses(outer: Box, inner: Box) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and outer[2] >= inner[2] and outer[3] >= inner[3]


def _inside(node: Element, box: Box, child: Element, child_box: Box) -> bool:
    """Is ``child`` in ``node``'s subtree, judged by containment (and depth where the source records it)?
    Equal boxes count when the child comes later in tree order."""
    if child.index == node.index or child.window != node.window or not _encloses(box, child_box):
        return False
    if (node.depth or child.depth) and child.depth <= node.depth:
        return False
    return child_box != box or child.index > node.index


def _content(node: Element, box: Box, boxes: list[tuple[Element, Box]]) -> str:
    """The text of what a tappable container encloses, leaving out other tappable controls inside it."""
    inner = [(e, b) for e, b in boxes if _inside(node, box, e, b)]
    controls = [(e, b) for e, b in inner if _tappable(e)]
    seen: list[str] = []
    for e, b in inner:
        text = label(e)
        if not text or any(text in t for t in seen) or _tappable(e) or any(_inside(c, cb, e, b) for c, cb in controls):
            continue
        seen = [t for t in seen if t not in text] + [text]  # an image's "photo of X" and its caption "X": once
    return _cut(" ".join(seen))


def _cut(text: str) -> str:
    return text if len(text) <= LABEL_CHARS else text[:LABEL_CHARS - 1].rstrip() + "…"


def _state_and_place(e: Element, box: Box, width: int, height: int) -> str:
    """What the tree says of a nameless element of a described type: its state and where it is.

    >>> switch = Element(0, (900, 100, 1000, 200), flags=("checkable", "visible"))
    >>> _state_and_place(switch, switch.bounds, 1080, 2400)
    'not checked, top right'
    """
    state = [("checked" if e.has("checked") else "not checked")] if e.has("checkable") else []
    state += [flag for flag in ("selected", "scrollable") if e.has(flag)]
    centre = ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2)
    return ", ".join(state + [where(centre, width, height)])


_CACHE: dict[int, tuple[Step, list[Listed]]] = {}


def listed(step: Step) -> list[Listed]:
    """The step's listed elements (see the module docstring); their position in this list is their index."""
    hit = _CACHE.get(id(step))
    if hit is not None and hit[0] is step:
        return hit[1]
    w, h = step.screenshot.width, step.screenshot.height
    boxes = [(e, b) for e in step.elements if e.has("visible") for b in [clip(e.bounds, w, h)] if b is not None]
    out = []
    for e, box in boxes:
        own = label(e)
        if not (any(e.has(f) for f in INTERACTIVE) or (e.has("focusable") and own)):
            continue
        text = _cut(own) or (_content(e, box, boxes) if _tappable(e) else "")
        if text or described(kind(e)):
            out.append(Listed(e, box, text or _state_and_place(e, box, w, h)))
    if len(_CACHE) > 256:
        _CACHE.clear()
    _CACHE[id(step)] = (step, out)
    return out


def interactive(step: Step) -> list[Element]:
    """The accessibility nodes of :func:`listed`, in index order."""
    return [item.node for item in listed(step)]


def index_of(step: Step, item: Listed) -> int:
    return listed(step).index(item)


def listing(step: Step) -> str:
    """One ``[index]<Type> 'text'`` line per listed element; editable ones say how to fill them."""
    lines = []
    for i, item in enumerate(listed(step)):
        note = " (text input - use enter_text action)" if item.has("editable") else ""
        lines.append(f"[{i}]<{item.kind}> '{item.label}'{note}")
    return "\n".join(lines)


def need_tree(ctx: StepContext) -> None:
    """Element formats show the tree on every step: a step without one cannot be a sample of theirs."""
    if not ctx.step.elements:
        raise CannotExpress("no_accessibility_tree", f"step {ctx.index + 1} has no accessibility elements")


def _same(a: Element, b: Element) -> bool:
    return a.index == b.index and a.bounds == b.bounds


def tap_target(step: Step) -> Listed | None:
    """The listed element a click/long press addresses (see the module docstring), or None."""
    a = step.action
    if a.point is None:
        return None
    hit = a.element
    hit_box = clip(hit.bounds, step.screenshot.width, step.screenshot.height) if hit is not None else None
    items = listed(step)
    if hit is not None and hit.has("focusable") and not _tappable(hit):
        own = [item for item in items if _same(item.node, hit) and item.contains(a.point)]
        return own[0] if own else None  # a control of its own: its container is not the target
    found = [item for item in items if item.contains(a.point) and _tappable(item.node)
             and (hit_box is None or _encloses(item.bounds, hit_box))]
    return min(found, key=lambda item: item.area) if found else None


def require_tap_target(ctx: StepContext) -> Listed:
    need_tree(ctx)
    item = tap_target(ctx.step)
    if item is None:
        raise CannotExpress("element_not_indexed",
                            f"step {ctx.index + 1}: no listed tappable element encloses {ctx.action.point}")
    return item


def input_field(ctx: StepContext) -> Listed:
    """The listed editable element an ``input`` step types into (see the module docstring)."""
    need_tree(ctx)
    fields = [item for item in listed(ctx.step) if item.has("editable")]
    prev = ctx.episode.steps[ctx.index - 1].action if ctx.index > 0 else None
    if prev is not None and prev.type in ("click", "long_press") and prev.point is not None:
        under = [item for item in fields if item.contains(prev.point)]
        if under:
            return min(under, key=lambda item: (not item.has("focused"), item.area))
    focused = [item for item in fields if item.has("focused")]
    if focused:
        return focused[0]
    raise CannotExpress("no_input_field", f"step {ctx.index + 1}: no focused or just-clicked editable element")


def largest_scrollable(step: Step, point: Point | None) -> Listed | None:
    """The largest listed scrollable element containing ``point`` (the swipe area), if any."""
    if point is None:
        return None
    found = [item for item in listed(step) if item.has("scrollable") and item.contains(point)]
    return max(found, key=lambda item: item.area) if found else None


def by_bounds(step: Step, bounds: Box) -> Element | None:
    """The node of the first listed element whose clipped box is ``bounds`` (else any node with exactly those
    bounds), for parsers of box formats."""
    for item in listed(step):
        if item.bounds == tuple(bounds):
            return item.node
    for e in step.elements:
        if tuple(e.bounds) == tuple(bounds):
            return e
    return None


_ROWS = ("top", "middle", "bottom")
_COLS = ("left", "centre", "right")
_ZH = {"top": "上", "middle": "中", "bottom": "下", "left": "左", "centre": "中", "right": "右"}


def where(point: Point, width: int, height: int, language: str = "en") -> str:
    """Where ``point`` lies on a ``width`` x ``height`` screen, in thirds.

    >>> where((1000, 100), 1080, 2400), where((540, 1200), 1080, 2400, "zh"), where((20, 2300), 1080, 2400, "zh")
    ('top right', '屏幕中部', '屏幕左下方')
    """
    row = _ROWS[min(2, max(0, point[1] * 3 // max(height, 1)))]
    col = _COLS[min(2, max(0, point[0] * 3 // max(width, 1)))]
    if language == "zh":
        if (row, col) == ("middle", "centre"):
            return "屏幕中部"
        if row == "middle":
            return f"屏幕{_ZH[col]}侧"
        return f"屏幕{_ZH[col]}{_ZH[row]}方" if col != "centre" else f"屏幕{_ZH[row]}方"
    if (row, col) == ("middle", "centre"):
        return "centre"
    return col if row == "middle" else row if col == "centre" else f"{row} {col}"


def untargeted(step: Step, language: str = "en") -> str:
    """A tap no listed element addresses, described by the node hit (its type) and the point's position.

    >>> from sftdata.model import Action, Element, Screenshot, Step
    >>> node = Element(0, (900, 50, 1000, 150), class_name="android.widget.LinearLayout", flags=("clickable", "visible"))
    >>> s = Step(0, Screenshot("0" * 64, "x.png", 1080, 2400), Action("click", point=(950, 100), element=node), elements=[node])
    >>> untargeted(s), untargeted(s, "zh")
    ('the LinearLayout at the top right of the screen', '屏幕右上方的 LinearLayout')
    """
    a = step.action
    name = kind(a.element) if a.element is not None else ("element" if language == "en" else "位置")
    if a.point is None:
        return name
    pos = where(a.point, step.screenshot.width, step.screenshot.height, language)
    return f"{pos}的 {name}" if language == "zh" else f"the {name} at the {pos} of the screen"
