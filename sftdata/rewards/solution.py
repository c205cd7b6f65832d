"""The ground truth of one RL row (its ``solution`` column, JSON) and the step context an answer is parsed in.

``solution_of(fmt, ctx, answer, row_id)`` writes, for a step format ``fmt`` can say:

* ``format``, ``id`` (the row's, ``EPISODE:STEP`` with the step counted from 0), ``source``, ``platform``,
  ``screen`` ([width, height] of the step's screenshot, in pixels);
* ``action``: the canonical action as the format says it (``fmt.quantize``, what ``parse(render)`` gives):
  ``type``, ``point``, ``end``, ``direction`` (a swipe's is the finger's, a scroll's the view's), ``text``,
  ``app``, ``url``, ``target`` (a target described in words), in original-screenshot pixels;
* ``box_px``: the target's box in original pixels (see :func:`target_box`), ``box``: the same box in the
  format's own coordinates (its two corners mapped as the format maps points; null where the format writes no
  coordinates: element indexes, words);
* ``answer``: the ground-truth answer text in the format (the SFT sample's answer);
* ``context``: what the format's ``parse`` reads besides the text: the pixel limits of the export, the previous
  step's click (where typing goes), and the step's elements for formats that address elements.

:func:`read_solution` reads it back (a JSON string or a dict), with the step context to parse answers in.
"""
from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from typing import Any

from ..formats.base import AgentFormat, StepContext, clicked_before
from ..formats.elements import clip, tap_target
from ..geometry import to_relative
from ..model import ELEMENT_ACTIONS, Action, Element, Episode, Screenshot, Step

Box = tuple[int, int, int, int]


def addresses_elements(fmt: AgentFormat) -> bool:
    """Does ``fmt``'s answer address the step's listed elements (indexes or element boxes), so that parsing it
    needs the step's elements? Its ``coordinates`` description says so."""
    return "element" in fmt.coordinates


def gives_boxes(fmt: AgentFormat) -> bool:
    """Does ``fmt``'s answer write its target as a box ([x1, y1, x2, y2]), the case of GUI-G1's size guard?"""
    return "element boxes" in fmt.coordinates


def pointing(action: Any) -> bool:
    """Does ``action`` aim at a place on the screen (a click, long press, or a web type/select with a point,
    element or described target)?"""
    return action.type in ELEMENT_ACTIONS and (action.point is not None or action.target is not None
                                              or getattr(action, "element", None) is not None)


def target_box(fmt: AgentFormat, ctx: StepContext, quantized: Action) -> Box | None:
    """The target's box in original pixels: the element the format's answer addresses (element formats), else
    the listed element a tap there addresses (the smallest tappable element enclosing the node hit,
    :func:`~sftdata.formats.elements.tap_target`), else the node hit; None when the step has no element there
    (a screenshot without a tree) or the action aims at nothing. The box is stretched to take in the
    ground-truth point as the format writes it, so that rounding to the format's grid never puts the
    format's own best answer outside."""
    if not pointing(quantized):
        return None
    w, h = ctx.size
    box = None
    if quantized.element is not None:
        box = clip(quantized.element.bounds, w, h)
    if box is None:
        item = tap_target(ctx.step)
        box = item.bounds if item is not None else None
    if box is None and ctx.action.element is not None:
        box = clip(ctx.action.element.bounds, w, h)
    if box is None:
        return None
    if quantized.point is not None:
        x, y = quantized.point
        box = (min(box[0], x), min(box[1], y), max(box[2], x + 1), max(box[3], y + 1))
    return box


def format_space(fmt: AgentFormat, ctx: StepContext, point: tuple[int, int]) -> list[int] | None:
    """``point`` (original pixels) in ``fmt``'s coordinates, or None when the format writes no points."""
    if hasattr(fmt, "forward"):  # points in the family's space (mobile_use, computer_use, ui-tars): resized or grid
        return list(fmt.forward(point, ctx))
    if fmt.name == "gui-agent-zh":
        return list(to_relative(point, *ctx.size))
    if gives_boxes(fmt):  # element boxes in original pixels
        return list(point)
    return None


def _action_dict(a: Action) -> dict[str, Any]:
    out = {"type": a.type, "point": list(a.point) if a.point is not None else None,
           "end": list(a.end) if a.end is not None else None, "direction": a.direction, "text": a.text,
           "app": a.app, "url": a.url, "target": a.target}
    return {k: v for k, v in out.items() if v is not None or k in ("type", "point", "text", "direction", "app")}


def solution_of(fmt: AgentFormat, ctx: StepContext, answer: str, row_id: str) -> dict[str, Any]:
    """The ground truth of ``ctx``'s step in ``fmt`` (raises CannotExpress as ``render`` does)."""
    quantized = fmt.quantize(ctx)
    box = target_box(fmt, ctx, quantized)
    f_box = None
    if box is not None:
        first, last = format_space(fmt, ctx, box[:2]), format_space(fmt, ctx, (box[2], box[3]))
        f_box = first + last if first is not None and last is not None else None
    previous = clicked_before(ctx)
    context: dict[str, Any] = {"min_pixels": ctx.min_pixels, "max_pixels": ctx.max_pixels,
                               "previous_click": list(previous) if previous is not None else None}
    if addresses_elements(fmt):
        context["elements"] = [e.to_dict() for e in ctx.step.elements]
    return {"format": fmt.name, "id": row_id, "source": ctx.episode.source, "platform": ctx.episode.platform,
            "screen": list(ctx.size), "action": _action_dict(quantized), "box": f_box,
            "box_px": list(box) if box is not None else None, "answer": answer, "context": context}


@dataclass(frozen=True)
class Truth:
    """The ground-truth action of a solution (plain fields, no validation: it was a valid action when written)."""

    type: str
    point: tuple[int, int] | None = None
    end: tuple[int, int] | None = None
    direction: str | None = None
    text: str | None = None
    app: str | None = None
    url: str | None = None
    target: str | None = None


@dataclass(frozen=True)
class Solution:
    format: str
    id: str
    source: str
    platform: str
    screen: tuple[int, int]
    action: Truth
    box_px: Box | None
    box: tuple[int, ...] | None
    answer: str
    context: dict[str, Any]

    def step_context(self) -> StepContext:
        """A step context holding what the format's ``parse`` reads: the screen, the elements, the previous
        click, the platform and the pixel limits (the rest of the episode is not there)."""
        return _step_context(self)


def _point(value: Any) -> tuple[int, int] | None:
    return (int(value[0]), int(value[1])) if value is not None else None


def read_solution(value: str | dict) -> Solution:
    """A ``solution`` column's value (JSON text or its dict) -> :class:`Solution`; ValueError when it is not one.

    >>> s = read_solution('{"format": "qwen3-vl", "id": "e:0", "source": "s", "platform": "mobile", '
    ...                   '"screen": [1080, 2400], "action": {"type": "back"}, "answer": "...", "context": {}}')
    >>> s.action.type, s.box_px
    ('back', None)
    """
    return _read(value) if isinstance(value, str) else _decode(value)


@functools.lru_cache(maxsize=1024)
def _read(text: str) -> Solution:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"a solution is JSON text: {exc}") from None
    return _decode(data)


def _decode(data: Any) -> Solution:
    if not isinstance(data, dict):
        raise ValueError(f"a solution is a JSON object, got {type(data).__name__}")
    try:
        a = data["action"]
        truth = Truth(a["type"], _point(a.get("point")), _point(a.get("end")), a.get("direction"), a.get("text"),
                      a.get("app"), a.get("url"), a.get("target"))
        box_px, box = data.get("box_px"), data.get("box")
        return Solution(data["format"], str(data["id"]), data.get("source", ""), data.get("platform", "mobile"),
                        (int(data["screen"][0]), int(data["screen"][1])), truth,
                        tuple(int(v) for v in box_px) if box_px else None,  # type: ignore[arg-type]
                        tuple(int(v) for v in box) if box else None, data.get("answer", ""),
                        dict(data.get("context") or {}))
    except (KeyError, TypeError, IndexError, ValueError) as exc:
        raise ValueError(f"not an sftdata solution ({type(exc).__name__}: {exc})") from None


_CONTEXTS: dict[int, tuple[Solution, StepContext]] = {}


def _step_context(s: Solution) -> StepContext:
    hit = _CONTEXTS.get(id(s))
    if hit is not None and hit[0] is s:
        return hit[1]
    width, height = s.screen
    c = s.context
    steps = []
    previous = _point(c.get("previous_click"))
    if previous is not None:
        shot = Screenshot("0" * 64, "previous.png", max(width, previous[0] + 1), max(height, previous[1] + 1))
        steps.append(Step(0, shot, Action("click", point=previous)))
    elements = [Element.from_dict(e) for e in c.get("elements") or ()]
    steps.append(Step(len(steps), Screenshot("0" * 64, "screen.png", width, height), Action("wait"),
                      elements=elements))
    episode = Episode(s.id, s.source or "solution", "-", steps, platform=s.platform)
    ctx = StepContext(episode, len(steps) - 1, min_pixels=c.get("min_pixels"), max_pixels=c.get("max_pixels"))
    if len(_CONTEXTS) > 1024:
        _CONTEXTS.clear()
    _CONTEXTS[id(s)] = (s, ctx)
    return ctx
