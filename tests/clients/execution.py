"""Did a client's executor do what the recorded step did?

The harness finds the recorded step behind every exported answer (:func:`recorded_steps`), gives the drivers the
screen they build the client's state from (:func:`screen`), and compares what the client's executor did with
the step (:func:`differs`). Drivers report what the executor did to the phone or the page as operations:

* phone: ``tap{point}``, ``long_press{point}``, ``swipe{start, end}``, ``drag{start, end}``, ``clear{}``,
  ``type{text}``, ``key{key}``, ``launch{app}`` (pixels of the screenshot);
* page: ``click{index}``, ``input{index, text}``, ``select{index, text}``, ``scroll{direction}`` (where the
  page moves), ``goto{url}``, ``new_tab{url}``, ``back{}`` (``index``: the element's position in the step's
  listing, 0-based, whatever numbering the format writes);
* both: ``done{text, success}``; ``error{error}`` when the client reports a failure.

What counts as the same action:

* a touch (tap, long press) lands on what the recorded touch landed on: the smallest visible tappable element
  containing the point (Android gives a touch to the deepest such view), else inside the recorded node;
* a page action addresses the recorded element, or an element whose centre lies inside it;
* a swipe moves the finger the recorded way (its direction) and starts inside the smallest scrollable element
  that holds the recorded start; its length is the client's own (app-use moves a fifth of the span, Android-Lab
  a fixed distance);
* typing types the recorded text, after at most a tap on an editable field and clearing it; a trailing Enter
  counts (Android-Lab's and MobileRL's ``Type`` always presses Enter after the text: their own definition);
* keys, launches, addresses, options and ``done`` texts are equal (a ``done`` with no recorded text takes any).
"""
from __future__ import annotations

from pathlib import Path

from sftdata.formats import CannotExpress, StepContext, get_format
from sftdata.formats import elements as el
from sftdata.model import Element, Step
from sftdata.rundir import RunDir

KEYS = {"back": "back", "home": "home"}


def recorded_steps(run_dir: Path, name: str) -> dict[tuple[str, str], StepContext]:
    """(user message, answer) -> the step it was exported from, for every step format ``name`` can say (with
    the export's default options, as the harness exports)."""
    fmt, run = get_format(name), RunDir(run_dir)
    annotations = run.latest_annotations()
    found = {}
    for episode in run.episodes():
        record = annotations.get(episode.id)
        items = record["items"] if record else None
        for index in range(len(episode.steps)):
            ctx = StepContext(episode, index, items)
            try:
                found[(fmt.user_message(ctx), fmt.render(ctx))] = ctx
            except CannotExpress:
                continue
    return found


def screen(ctx: StepContext) -> dict:
    """What a driver builds the client's screen from: its size and the listed elements, in listing order."""
    width, height = ctx.size
    return {"width": width, "height": height, "url": ctx.step.url,
            "listed": [{"box": list(item.bounds), "class": item.node.class_name, "tag": item.node.tag,
                        "text": item.label, "attrs": dict(item.node.attrs)} for item in el.listed(ctx.step)]}


def _touched(step: Step, point) -> Element | None:
    fits = [e for e in step.elements if e.has("visible") and any(e.has(f) for f in el.TAPPABLE)
            and e.contains(point)]
    return min(fits, key=lambda e: (e.area, -e.index)) if fits else None


def _lands(ctx: StepContext, point) -> bool:
    """A touch at ``point`` lands on what the recorded touch landed on."""
    a = ctx.action
    target = _touched(ctx.step, a.point) if a.point is not None else None
    if target is None:
        return a.element is not None and a.element.contains(point)
    return _touched(ctx.step, point) == target


def _addresses(ctx: StepContext, index: int) -> bool:
    """A page action on listed element ``index`` acts on the recorded element."""
    listed, a = el.listed(ctx.step), ctx.action
    if not 0 <= index < len(listed):
        return False
    node = listed[index].node
    if a.element is None:
        return a.point is not None and node.contains(a.point)
    return (node.index, node.bounds) == (a.element.index, a.element.bounds) or a.element.contains(node.center)


def _direction(start, end) -> str | None:
    dx, dy = end[0] - start[0], end[1] - start[1]
    if dx == dy == 0:
        return None
    return ("down" if dy > 0 else "up") if abs(dy) >= abs(dx) else ("right" if dx > 0 else "left")


def _swipes(ctx: StepContext, op: dict) -> bool:
    a = ctx.action
    if op["op"] != "swipe" or _direction(op["start"], op["end"]) != a.direction:
        return False
    if a.point is None:
        return True
    areas = [e for e in ctx.step.elements if e.has("visible") and e.has("scrollable") and e.contains(a.point)]
    return not areas or min(areas, key=lambda e: (e.area, -e.index)).contains(op["start"])


def _types(ctx: StepContext, ops: list[dict]) -> bool:
    typed = [op for op in ops if op["op"] == "type"]
    if [op["text"] for op in typed] != [ctx.action.text]:
        return False
    after = ops[ops.index(typed[0]) + 1:]
    before = ops[:ops.index(typed[0])]
    taps = [op for op in before if op["op"] == "tap"]
    field_ok = all((e := _touched(ctx.step, op["point"])) is not None and e.has("editable") for op in taps)
    return (field_ok and all(op["op"] in ("tap", "clear") for op in before) and len(taps) <= 1
            and after in ([], [{"op": "key", "key": "enter"}]))


def _page(ctx: StepContext, op: dict) -> bool:
    a = ctx.action
    if a.type in ("click", "type", "select"):
        kind = {"click": "click", "type": "input", "select": "select"}[a.type]
        same_text = a.type == "click" or op.get("text") == a.text
        return op["op"] == kind and same_text and _addresses(ctx, op["index"])
    if a.type == "scroll":
        return op == {"op": "scroll", "direction": a.direction}
    if a.type == "go_to_url":
        return op == {"op": "goto", "url": a.url}
    if a.type == "new_tab":
        return op == {"op": "new_tab", "url": a.url}
    return a.type == "back" and op == {"op": "back"}


def differs(ctx: StepContext, ops: list[dict]) -> str | None:
    """None when ``ops`` (what the client executed) is what the recorded step did; else how it differs."""
    a = ctx.action
    said = f"recorded {a.type}, executed {ops}"
    if any(op["op"] == "error" for op in ops):
        return said
    if a.type == "input":
        return None if _types(ctx, ops) else said
    if len(ops) != 1:
        return said
    op = ops[0]
    if a.type == "done":
        same = op["op"] == "done" and op.get("success") in (True, None) and (a.text is None or op["text"] == a.text)
    elif ctx.episode.web:
        same = _page(ctx, op)
    elif a.type in ("click", "long_press"):
        same = op["op"] == {"click": "tap"}.get(a.type, a.type) and _lands(ctx, op["point"])
    elif a.type == "swipe":
        same = _swipes(ctx, op)
    elif a.type in KEYS:
        same = op == {"op": "key", "key": KEYS[a.type]}
    elif a.type == "open_app":
        same = op == {"op": "launch", "app": a.app}
    else:
        same = False
    return None if same else said
