"""Step success: is a predicted action the ground truth's, under a named matcher?

Every matcher first asks for the same action type, then what the type needs:

* an action aimed at a place (click, long press, web type/select): the predicted point, by the matcher:

  - ``aitw``: Android in the Wild's action matcher: inside the target's box enlarged 1.4x about its centre
    (AitW enlarges its element boxes so), or within 0.14 of the ground-truth point in screen fractions
    (the distance of ``(x / W, y / H)``);
  - ``box``: inside the target's box (the element the tap addresses, :func:`sftdata.rewards.solution.target_box`);
  - ``box-1.2``: inside the box enlarged 1.2x about its centre (OS-Atlas style);
  - ``point-4%``: within 0.04 of the ground-truth point in screen fractions (4% of the screen's width and
    height, as a distance of ``(x / W, y / H)``);

  ``box`` and ``box-1.2`` judge a step without a box (a screenshot without an accessibility tree) as
  ``point-4%``; a target described in words (``react-zh``) matches under every matcher when the two
  descriptions' token F1 is at least 0.5;
  and a web type/select also needs the same text;
* a typed text (input), an option, an address (go_to_url, new_tab): the same text, whitespace collapsed;
* a swipe or scroll: the same direction; opening an app: the same app (case and spacing ignored);
* back, home, wait, done: the type alone.

>>> from sftdata.model import Action
>>> from sftdata.rewards.solution import read_solution
>>> sol = read_solution({"format": "qwen2.5-vl", "id": "e:0", "source": "s", "platform": "mobile",
...     "screen": [1000, 2000], "action": {"type": "click", "point": [150, 120]}, "box_px": [100, 100, 200, 140],
...     "answer": "", "context": {}})
>>> [success(m, Action("click", point=(205, 120)), sol) for m in MATCHERS]
[True, False, True, False]
"""
from __future__ import annotations

from ..model import Action
from ..rewards.rules import inside, screen_distance, token_f1, written
from ..rewards.solution import Box, Solution, pointing

MATCHERS = ("aitw", "box", "box-1.2", "point-4%")
AITW_DISTANCE, AITW_ENLARGE = 0.14, 1.4
POINT_DISTANCE = 0.04
WORDS_F1 = 0.5


def enlarged(box: Box, factor: float) -> tuple[float, float, float, float]:
    """``box`` scaled by ``factor`` about its centre.

    >>> enlarged((100, 100, 200, 140), 1.2)
    (90.0, 96.0, 210.0, 144.0)
    """
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    hw, hh = (box[2] - box[0]) * factor / 2, (box[3] - box[1]) * factor / 2
    return (cx - hw, cy - hh, cx + hw, cy + hh)


def _truth_point(sol: Solution) -> tuple[float, float]:
    if sol.action.point is not None:
        return sol.action.point
    box = sol.box_px
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)  # type: ignore[index]


def _near(point, sol: Solution, limit: float) -> bool:
    return screen_distance(point, _truth_point(sol), sol.screen) <= limit


def point_matches(matcher: str, point: tuple[int, int], sol: Solution) -> bool:
    """Does ``point`` hit the ground truth's target under ``matcher``?"""
    box = sol.box_px
    if matcher == "aitw":
        return (box is not None and inside(point, enlarged(box, AITW_ENLARGE))) or _near(point, sol, AITW_DISTANCE)
    if matcher == "point-4%" or box is None:
        return _near(point, sol, POINT_DISTANCE)
    if matcher == "box":
        return inside(point, box)
    if matcher == "box-1.2":
        return inside(point, enlarged(box, 1.2))
    raise ValueError(f"unknown matcher {matcher!r}; known: {', '.join(MATCHERS)}")


def _same_text(a: str | None, b: str | None) -> bool:
    return (a is None) == (b is None) and (a is None or a.split() == b.split())


def success(matcher: str, pred: Action | None, sol: Solution) -> bool:
    """Is ``pred`` (None: the answer did not parse) the ground truth's action under ``matcher``?"""
    truth = sol.action
    if pred is None or pred.type != truth.type:
        return False
    if pointing(truth):
        if truth.point is None and truth.target is not None:  # a target described in words
            hit = token_f1(pred.target, truth.target) >= WORDS_F1
        else:
            hit = pred.point is not None and (truth.point is not None or sol.box_px is not None) \
                and point_matches(matcher, pred.point, sol)
        return hit and (truth.type not in ("type", "select") or _same_text(written(pred), written(truth)))
    if truth.type in ("swipe", "scroll"):
        return pred.direction == truth.direction
    if truth.type == "open_app":
        return pred.app is not None and pred.app.casefold().split() == (truth.app or "").casefold().split()
    if truth.type in ("input", "type", "select", "go_to_url", "new_tab"):
        return _same_text(written(pred), written(truth))
    return True
