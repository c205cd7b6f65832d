"""The table of perturbed answers and the rewards they earn (docs/rl.md), with the makers the tests run on
every step of every format.

Each perturbation changes one thing of a step's ground-truth answer: most by rendering the step again with
another action (the format's own ``render``, so the answer stays in its grammar), two by editing the answer's
text. A perturbation that cannot be made on a step (no click there, a format without long press or without
coordinates, no neighbouring element) gives None for that step.

>>> print(table_markdown().splitlines()[2])
| ground truth | the format's own answer | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 |
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Callable

from ..formats.base import AgentFormat, CannotExpress, StepContext
from ..formats.elements import TAPPABLE, listed
from ..model import OPPOSITE, Action
from .rules import POINT_RADIUS, BOX_GUARD, screen_distance, tokens
from .solution import Solution, gives_boxes

COLUMNS = ("format", "action_type", "target", "text_exact", "text_f1", "direction", "app", "score")
UNRELATED = "qqq zzz xkcd"  # a text sharing no token with a ground truth (checked)
OTHER_APPS = ("Calculator", "Clock")


@dataclass(frozen=True)
class Perturbation:
    name: str
    change: str  # what changes, for the table
    make: Callable[[AgentFormat, StepContext, Solution], str | None]
    expected: tuple[float, ...]  # one value per COLUMNS


def _with(ctx: StepContext, action: Action) -> StepContext:
    step = replace(ctx.step, action=action)
    steps = list(ctx.episode.steps)
    steps[ctx.index] = step
    return replace(ctx, episode=replace(ctx.episode, steps=steps))


def _render(fmt: AgentFormat, ctx: StepContext, action: Action) -> str | None:
    try:
        return fmt.render(_with(ctx, action))
    except (CannotExpress, ValueError):
        return None


def _clicks(sol: Solution) -> bool:
    """A click the format says with a point (not a target in words) and whose target has a box."""
    return sol.action.type == "click" and sol.action.point is not None and sol.box_px is not None


def _disjoint(a, b) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def _others(ctx: StepContext, sol: Solution) -> list:
    """The tappable listed elements away from the target: not overlapping its box, centres off its disc."""
    return [item for item in listed(ctx.step) if any(item.has(f) for f in TAPPABLE) and _disjoint(item.bounds, sol.box_px)
            and screen_distance(item.center, sol.action.point, sol.screen) > POINT_RADIUS]


def _click_on(fmt, ctx, item) -> str | None:
    return _render(fmt, ctx, Action("click", point=item.center, element=item.node))


def _outside(fmt, ctx, sol):
    """A click at the screen corner farthest from the target; where the format can only pick elements (the
    corner has none), on the tappable element farthest from it."""
    if not _clicks(sol):
        return None
    w, h = sol.screen
    box = sol.box_px
    far = (lambda p: (p[0] - (box[0] + box[2]) / 2) ** 2 + (p[1] - (box[1] + box[3]) / 2) ** 2)  # noqa: E731
    corner = max(((1, 1), (w - 2, 1), (1, h - 2), (w - 2, h - 2)), key=far)
    if box[0] <= corner[0] < box[2] and box[1] <= corner[1] < box[3]:
        return None
    text = _render(fmt, ctx, Action("click", point=corner))
    others = _others(ctx, sol) if text is None else []
    return _click_on(fmt, ctx, max(others, key=lambda item: far(item.center))) if others else text


def _neighbour(fmt, ctx, sol):
    """A click on the centre of the nearest tappable element that does not overlap the target's box."""
    others = _others(ctx, sol) if _clicks(sol) else []
    if not others:
        return None
    return _click_on(fmt, ctx, min(others, key=lambda item: screen_distance(item.center, sol.action.point, sol.screen)))


def _long_press(fmt, ctx, sol):
    a = ctx.action
    return _render(fmt, ctx, Action("long_press", point=a.point, element=a.element)) if _clicks(sol) else None


def _back(fmt, ctx, sol):
    return _render(fmt, ctx, Action("back")) if _clicks(sol) else None


def _texts(ctx: StepContext) -> bool:
    return ctx.action.type in ("input", "type") and bool(tokens(ctx.action.text))


def _text_changed(fmt, ctx, sol):
    if not _texts(ctx) or set(tokens(ctx.action.text)) & set(tokens(UNRELATED)):
        return None
    return _render(fmt, ctx, replace(ctx.action, text=UNRELATED))


def _text_doubled(fmt, ctx, sol):
    return _render(fmt, ctx, replace(ctx.action, text=f"{ctx.action.text} {ctx.action.text}")) if _texts(ctx) else None


def _flipped(fmt, ctx, sol):
    a = ctx.action
    if a.type == "swipe" and a.point is not None:
        return _render(fmt, ctx, Action("swipe", point=a.end, end=a.point, element=a.element))
    if a.type in ("swipe", "scroll") and a.direction:
        return _render(fmt, ctx, replace(a, direction=OPPOSITE[a.direction]))
    return None


def _other_app(fmt, ctx, sol):
    a = ctx.action
    if a.type != "open_app":
        return None
    other = next(name for name in OTHER_APPS if name.casefold() != (a.app or "").casefold())
    return _render(fmt, ctx, replace(a, app=other))


_BOX = re.compile(r"element\s*=\s*\[[^\]]*\]")


def _huge_box(fmt, ctx, sol):
    """The target's box grown about its centre (clipped to the screen, centre kept) past the guard's area."""
    if not (gives_boxes(fmt) and _clicks(sol)):
        return None
    (w, h), (l, t, r, b) = sol.screen, sol.box_px
    cx, cy = (l + r) // 2, (t + b) // 2
    hw, hh = min(3 * (r - l), cx, w - cx), min(3 * (b - t), cy, h - cy)
    if 4 * hw * hh <= BOX_GUARD * (r - l) * (b - t):
        return None
    huge = f"element=[{cx - hw}, {cy - hh}, {cx + hw}, {cy + hh}]"
    return _BOX.sub(huge, sol.answer, count=1) if _BOX.search(sol.answer) else None


def _broken(fmt, ctx, sol):
    return sol.answer[:len(sol.answer) // 2]


def _same(fmt, ctx, sol):
    return sol.answer


_ALL = (1, 1, 1, 1, 1, 1, 1)
PERTURBATIONS = (
    Perturbation("ground truth", "the format's own answer", _same, (*_ALL, 1)),
    Perturbation("click outside the box", "a click at the screen corner farthest from the target (element formats: "
                 "on the tappable element farthest from it)", _outside,
                 (1, 1, 0, 1, 1, 1, 1, 0.1)),
    Perturbation("click on a neighbour", "a click on the nearest other tappable element", _neighbour,
                 (1, 1, 0, 1, 1, 1, 1, 0.1)),
    Perturbation("long press for a click", "a long press at the clicked point", _long_press,
                 (1, 0, 1, 1, 1, 1, 1, 0.1)),
    Perturbation("back for a click", "the back action instead of the click", _back, (1, 0, 0, 1, 1, 1, 1, 0.1)),
    Perturbation("text changed", f"an unrelated typed text ({UNRELATED!r})", _text_changed,
                 (1, 1, 1, 0, 0, 1, 1, 0.1)),
    Perturbation("text doubled", "the typed text written twice (precision 1/2, recall 1)", _text_doubled,
                 (1, 1, 1, 0, 2 / 3, 1, 1, 0.7)),
    Perturbation("direction flipped", "the swipe's or scroll's opposite direction", _flipped,
                 (1, 1, 1, 1, 1, 0, 1, 0.1)),
    Perturbation("another app", f"another app to open ({' or '.join(OTHER_APPS)})", _other_app,
                 (1, 1, 1, 1, 1, 1, 0, 0.1)),
    Perturbation("huge box", "element boxes: the target's box grown about its centre past 4x its area "
                 "(its centre still on the target)", _huge_box, (1, 1, 0, 1, 1, 1, 1, 0.1)),
    Perturbation("broken grammar", "the answer cut after its first half", _broken, (0, 0, 0, 0, 0, 0, 0, 0)),
)


def _cell(v: float) -> str:
    return f"{v:.4g}" if v not in (0, 1) else str(int(v))


def table_markdown() -> str:
    """The perturbation table as Markdown (docs/rl.md holds it; a test keeps the two equal)."""
    head = "| perturbation | what changes | " + " | ".join(COLUMNS) + " |"
    lines = [head, "|" + "---|" * (len(COLUMNS) + 2)]
    for p in PERTURBATIONS:
        lines.append(f"| {p.name} | {p.change} | " + " | ".join(_cell(v) for v in p.expected) + " |")
    return "\n".join(lines)
