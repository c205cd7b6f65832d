"""An answer against its row's ground truth: parsed with the format's own ``parse``, scored by every rule.

:func:`score_answer` gives every rule's value, ``accuracy`` and ``score`` (see :mod:`.rules`);
:func:`compute_score` is verl's reward entry (``custom_reward_function.path`` = a file exposing it, such as the
export's ``sftdata_rewards.py``): it returns ``{"score": ..., <each rule>: ...}``.

>>> import json
>>> sol = {"format": "qwen3-vl", "id": "e:0", "source": "s", "platform": "mobile", "screen": [1080, 2400],
...        "action": {"type": "back"}, "answer": "", "context": {}}
>>> answer = 'Thought: 返回。\\nAction: 返回\\n<tool_call>\\n{"name": "mobile_use", "arguments": {"action": "system_button", "button": "Back"}}\\n</tool_call>'
>>> compute_score("sftdata", answer, json.dumps(sol))["score"]
1.0
>>> parts = score_answer("I would go back.", sol)
>>> parts["format"], parts["score"]
(0.0, 0.0)
"""
from __future__ import annotations

import functools
import re
from typing import Any

from ..formats import get_format
from ..formats.elements import clip
from ..model import Action
from .rules import RULES, Prediction, score
from .solution import Solution, addresses_elements, gives_boxes, read_solution

_ANSWER = re.compile(r"<answer>(.*?)</answer>", re.S)
_BOX = re.compile(r"element\s*=\s*\[\s*(-?\d+)\s*,\s*(-?\d+)\s*,\s*(-?\d+)\s*,\s*(-?\d+)\s*\]")


def answer_box(fmt, text: str, action: Action, screen: tuple[int, int]):
    """The box an answer gives for its target: the ``element=[x1, y1, x2, y2]`` it writes (box formats), or
    the box of the listed element it picks (index formats); None otherwise."""
    if gives_boxes(fmt):
        m = _ANSWER.search(text)
        found = _BOX.findall(m.group(1) if m else text)
        return tuple(int(v) for v in found[0]) if found else None
    if addresses_elements(fmt) and action.element is not None:
        return clip(action.element.bounds, *screen)
    return None


def parse_answer(text: str, sol: Solution) -> Prediction:
    """``text`` parsed in ``sol``'s format and step context; a parser failure of any kind is an answer that does
    not parse (models write anything), with its error kept."""
    fmt = get_format(sol.format)
    if not isinstance(text, str):
        return Prediction(None, None, f"the answer is {type(text).__name__}, not text")
    try:
        action = fmt.parse(text, sol.step_context())
    except Exception as exc:  # noqa: BLE001 - a model's answer can break a parser in any way
        return Prediction(None, None, f"{type(exc).__name__}: {exc}"[:300])
    return Prediction(action, answer_box(fmt, text, action, sol.screen))


def _scores(pred: Prediction, sol: Solution) -> dict[str, float]:
    parts = {name: float(rule(pred, sol)) for name, rule in RULES.items()}
    parts["score"] = score(parts)
    parts["score_gaussian"] = score(parts, "target_gaussian")
    return parts


@functools.lru_cache(maxsize=1024)  # a GRPO batch scored by every rule; solutions can be large
def _cached(text: str, solution: str) -> dict[str, float]:
    sol = read_solution(solution)
    return _scores(parse_answer(text, sol), sol)


def score_answer(text: str, solution: str | dict | Solution) -> dict[str, float]:
    """Every rule's value for ``text`` against ``solution`` (the ``solution`` column: JSON text, its dict, or a
    read :class:`Solution`), plus ``score`` and ``score_gaussian`` (the combined reward with the box or the
    Gaussian target rule). A GRPO group scores the same text of a row once per rule: the JSON case is cached."""
    if isinstance(solution, str) and isinstance(text, str):
        return dict(_cached(text, solution))
    sol = solution if isinstance(solution, Solution) else read_solution(solution)
    return _scores(parse_answer(text, sol), sol)


def compute_score(data_source: Any, solution_str: str, ground_truth: str | dict,
                  extra_info: dict | None = None) -> dict[str, float]:
    """verl's reward function: ``ground_truth`` is the row's ``solution``; returns ``score`` (the combined reward;
    ``extra_info={"target": "gaussian"}`` uses the Gaussian target rule in it) and each rule's value."""
    parts = score_answer(solution_str, ground_truth)
    if (extra_info or {}).get("target") == "gaussian":
        parts["score"] = parts["score_gaussian"]
    return parts
