"""The reward rules: each a pure function of a parsed answer (:class:`Prediction`) and the ground truth
(:class:`~sftdata.rewards.solution.Solution`) that returns a number in [0, 1].

An answer that does not parse in its format's grammar scores 0 on every rule. Otherwise each rule compares one
aspect of the predicted action with the ground truth's, and an aspect neither of them has agrees (1.0): the
text rules on a click, the direction on a tap. So the ground-truth answer scores 1.0 on every rule of every
row, and a rule that does not apply to a step gives every completion of a GRPO group the same value.

* :func:`format_reward` - the answer parses in the format's grammar (the format's own ``parse``).
* :func:`action_type_reward` - the predicted action type is the ground truth's.
* :func:`target_reward` - for an action aimed at a place (click, long press, web type/select): the predicted
  point lies in the target's box (UI-R1, GUI-R1). With no box (a screenshot without an accessibility tree):
  within :data:`POINT_RADIUS` of the ground-truth point, in screen fractions. Where the format describes
  targets in words (``react-zh``): the token F1 of the two descriptions. **Box-size guard** (GUI-G1): when
  the answer gives a box (an element box, or an indexed element whose box it picks) more than
  :data:`BOX_GUARD` times the target's area, 0, so a huge box around the target earns nothing.
* :func:`target_gaussian_reward` - GUI-G2's Gaussian point reward: ``exp(-(dx^2 / 2sx^2 + dy^2 / 2sy^2))``
  around the ground-truth point, with ``sx, sy`` half the target box's width and height (the disc's radius
  without a box); the same guard. Optional: not part of :func:`score`.
* :func:`text_exact_reward` / :func:`text_f1_reward` - what the action writes (typed text, a chosen option, an
  address, a done message): equal after collapsing whitespace / the token F1 (CJK characters and words).
* :func:`direction_reward` - the same swipe or scroll direction.
* :func:`app_reward` - the same app to open (case and spacing ignored).
* :func:`score` - ``FORMAT_WEIGHT * format + (1 - FORMAT_WEIGHT) * accuracy``, accuracy being the product of
  action type, target, text F1, direction and app (GUI-R1's format + accuracy split).

>>> from sftdata.model import Action
>>> from sftdata.rewards.solution import read_solution
>>> sol = read_solution({"format": "qwen2.5-vl", "id": "e:0", "source": "s", "platform": "mobile",
...     "screen": [1000, 2000], "action": {"type": "click", "point": [150, 120]}, "box_px": [100, 100, 200, 140],
...     "answer": "", "context": {}})
>>> target_reward(Prediction(Action("click", point=(199, 139))), sol), target_reward(Prediction(Action("click", point=(200, 120))), sol)
(1.0, 0.0)
>>> round(text_f1_reward(Prediction(Action("input", text="晚上八点到家")),
...                      read_solution({**sol.__dict__, "action": {"type": "input", "text": "晚上七点到家"}, "screen": [1, 1]})), 3)
0.833
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..model import Action
from .solution import Box, Solution, pointing

POINT_RADIUS = 0.04  # target without a box: the distance in screen fractions ((x/W, y/H)) that still counts
BOX_GUARD = 4.0  # an answer's box more than this many times the target's area earns no target reward
FORMAT_WEIGHT = 0.1  # score = 0.1 * format + 0.9 * accuracy

_TOKEN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|[^\W_\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")


@dataclass(frozen=True)
class Prediction:
    """A parsed answer: its canonical action (None: it did not parse), the box it gives for its target (an
    element box, or the box of the element it picks by index), and why it did not parse."""

    action: Action | None
    box: Box | None = None
    error: str | None = None


def tokens(text: str | None) -> list[str]:
    """Words and single CJK characters, case-folded.

    >>> tokens("Search 蓝牙 headphones")
    ['search', '蓝', '牙', 'headphones']
    """
    return _TOKEN.findall((text or "").casefold())


def token_f1(predicted: str | None, truth: str | None) -> float:
    """SQuAD-style token F1 of two texts (bags of :func:`tokens`); two texts without tokens agree when equal."""
    p, t = tokens(predicted), tokens(truth)
    if not p or not t:
        return 1.0 if not p and not t and _norm(predicted) == _norm(truth) else 0.0
    common = sum((Counter(p) & Counter(t)).values())
    if not common:
        return 0.0
    precision, recall = common / len(p), common / len(t)
    return 2 * precision * recall / (precision + recall)


def _norm(text: str | None) -> str | None:
    return None if text is None else " ".join(text.split())


def written(action: Any) -> str | None:
    """What an action writes: its text (typed text, option, done message), else its address (go_to_url, new_tab)."""
    return action.text if action.text is not None else action.url


def _area(box: Box) -> int:
    return max(0, box[2] - box[0]) * max(0, box[3] - box[1])


def inside(point: tuple[int, int], box: Box) -> bool:
    return box[0] <= point[0] < box[2] and box[1] <= point[1] < box[3]


def screen_distance(a: tuple[int, int], b: tuple[int, int], screen: tuple[int, int]) -> float:
    """Euclidean distance of two points in screen fractions ((x / W, y / H)), as Android in the Wild measures."""
    return math.hypot((a[0] - b[0]) / screen[0], (a[1] - b[1]) / screen[1])


def format_reward(pred: Prediction, sol: Solution) -> float:
    return 1.0 if pred.action is not None else 0.0


def action_type_reward(pred: Prediction, sol: Solution) -> float:
    return 1.0 if pred.action is not None and pred.action.type == sol.action.type else 0.0


def _guarded(pred: Prediction, sol: Solution) -> bool:
    """True when the answer's box is too large for the target (GUI-G1's box-size guard)."""
    return (pred.box is not None and sol.box_px is not None
            and _area(pred.box) > BOX_GUARD * max(1, _area(sol.box_px)))


def _aim(pred: Prediction, sol: Solution) -> float | None:
    """The target rule's value where it is decided without a point comparison, else None."""
    a = pred.action
    if a is None:
        return 0.0
    if not pointing(sol.action):
        return 0.0 if pointing(a) else 1.0
    if not pointing(a):
        return 0.0
    if sol.action.point is None and sol.action.target is not None:  # the format describes targets in words
        return token_f1(a.target, sol.action.target)
    if a.point is None or _guarded(pred, sol):
        return 0.0
    return None


def target_reward(pred: Prediction, sol: Solution) -> float:
    decided = _aim(pred, sol)
    if decided is not None:
        return decided
    point = pred.action.point  # type: ignore[union-attr]
    if sol.box_px is not None:
        return 1.0 if inside(point, sol.box_px) else 0.0
    return 1.0 if screen_distance(point, sol.action.point, sol.screen) <= POINT_RADIUS else 0.0  # type: ignore[arg-type]


def target_gaussian_reward(pred: Prediction, sol: Solution) -> float:
    decided = _aim(pred, sol)
    if decided is not None:
        return decided
    x, y = pred.action.point  # type: ignore[union-attr]
    box = sol.box_px
    mx, my = sol.action.point or ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)  # type: ignore[index]
    if box is not None:
        sx, sy = max(1.0, (box[2] - box[0]) / 2), max(1.0, (box[3] - box[1]) / 2)
    else:
        sx, sy = POINT_RADIUS * sol.screen[0], POINT_RADIUS * sol.screen[1]
    return math.exp(-((x - mx) ** 2 / (2 * sx * sx) + (y - my) ** 2 / (2 * sy * sy)))


def text_exact_reward(pred: Prediction, sol: Solution) -> float:
    if pred.action is None:
        return 0.0
    return 1.0 if _norm(written(pred.action)) == _norm(written(sol.action)) else 0.0


def text_f1_reward(pred: Prediction, sol: Solution) -> float:
    if pred.action is None:
        return 0.0
    said, truth = written(pred.action), written(sol.action)
    if said is None or truth is None:
        return 1.0 if said is None and truth is None else 0.0
    return token_f1(said, truth)


def direction_reward(pred: Prediction, sol: Solution) -> float:
    return 1.0 if pred.action is not None and pred.action.direction == sol.action.direction else 0.0


def app_reward(pred: Prediction, sol: Solution) -> float:
    if pred.action is None:
        return 0.0
    said, truth = pred.action.app, sol.action.app
    return 1.0 if (said is None) == (truth is None) and (said is None or said.casefold().split() == truth.casefold().split()) else 0.0


RULES = {"format": format_reward, "action_type": action_type_reward, "target": target_reward,
         "target_gaussian": target_gaussian_reward, "text_exact": text_exact_reward, "text_f1": text_f1_reward,
         "direction": direction_reward, "app": app_reward}
ACCURACY_PARTS = ("action_type", "target", "text_f1", "direction", "app")


def score(parts: dict[str, float], target: str = "target") -> float:
    """The combined reward of a dict of rule values: ``0.1 * format + 0.9 * accuracy``; ``target`` names the
    target rule the accuracy uses (``target`` or ``target_gaussian``)."""
    accuracy = math.prod(parts[target if name == "target" else name] for name in ACCURACY_PARTS)
    return FORMAT_WEIGHT * parts["format"] + (1 - FORMAT_WEIGHT) * accuracy
