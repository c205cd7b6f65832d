"""Seed 002 function calls and the canonical actions they stand for.

Seed 002's functions (``click``, ``long_press``, ``input``, ``swipe``, ``open_app``, ``done``) extended with
``press_back``, ``press_home`` and ``wait``, which AndroidControl needs.

>>> from sftdata.model import Action
>>> function_name(Action("back"))
'press_back'
>>> expected_parameters(Action("swipe", point=(540, 1600), end=(540, 800)))
{'direction': 'UP'}
"""
from __future__ import annotations

import re
import unicodedata
from typing import Any

from ..model import Action, Step

FUNCTION_OF = {"click": "click", "long_press": "long_press", "input": "input", "swipe": "swipe",
               "open_app": "open_app", "back": "press_back", "home": "press_home", "wait": "wait", "done": "done"}
ACTION_OF = {v: k for k, v in FUNCTION_OF.items()}
FUNCTIONS = tuple(FUNCTION_OF.values())

_SPACE = re.compile(r"\s+")


def function_name(action: Action) -> str:
    return FUNCTION_OF[action.type]


def expected_parameters(action: Action) -> dict[str, Any]:
    """The parameters the ground truth fixes exactly (targets are free text, so not here)."""
    if action.type == "input":
        return {"text": action.text}
    if action.type == "swipe":
        return {"direction": (action.direction or "").upper()}
    if action.type == "open_app":
        return {"app_name": action.app}
    return {}


def normalize(text: str) -> str:
    """Case-, width- and space-insensitive form for 'does this text mention that one' checks.

    >>> normalize("  Ｍobiles\\n Category ")
    'mobiles category'
    """
    return _SPACE.sub(" ", unicodedata.normalize("NFKC", text)).strip().lower()


GROUNDING_PREFIX = 24


def grounding_label(step: Step) -> str | None:
    """The accessibility text a click/long-press target must mention, if the step knows one: the text or
    content description of the action's element, else of the smallest visible labelled element containing the
    point. Long labels are cut to their first 24 characters (quoting a paragraph is not required)."""
    action = step.action
    if action.type not in ("click", "long_press") or action.point is None:
        return None
    candidates = [action.element] if action.element is not None else []
    candidates += sorted((e for e in step.elements if e.contains(action.point) and e.has("visible") and e.area > 0),
                         key=lambda e: e.area)
    for element in candidates:
        label = (element.text or element.desc).strip()
        if label:
            label = normalize(label)
            return label[:GROUNDING_PREFIX].strip()
    return None


def mentions(haystack: str, needle: str) -> bool:
    return normalize(needle) in normalize(haystack)
