"""Read Label Studio's JSON export of a review project into per-step decisions.

The export is a list of tasks, each with ``data`` (ours: ``episode_id``, ``steps``) and ``annotations``, each
annotation with ``id``, ``completed_by`` (a user id, or an object with ``email``), ``created_at``/``updated_at``,
``was_cancelled`` and ``result`` (objects with ``from_name``, ``to_name``, ``type`` and ``value``): the
``decision_<i>`` choices and the ``reasoning_<i>``/``function_<i>`` text areas of
:func:`sftdata.review.config.labeling_config`. Cancelled (skipped) annotations are ignored.

>>> task = {"id": 7, "data": {"episode_id": "e1"}, "annotations": [{"id": 3, "completed_by": 1,
...   "updated_at": "2026-01-01T00:00:00Z", "result": [
...   {"from_name": "decision_0", "type": "choices", "value": {"choices": ["edit"]}},
...   {"from_name": "reasoning_0", "type": "textarea", "value": {"text": ["新的推理"]}}]}]}
>>> [(d.episode_id, d.step, d.decision, d.reasoning, d.reviewer) for d in parse_export([task])]
[('e1', 0, 'edit', '新的推理', 'user:1')]
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import FatalError
from .config import DECISION, DECISIONS, FUNCTION, REASONING

_NAME = re.compile(rf"^({DECISION}|{REASONING}|{FUNCTION})(\d+)$")


@dataclass(frozen=True)
class Decision:
    episode_id: str
    step: int
    decision: str  # accept | edit | reject
    reasoning: str | None  # the text area's content when the annotation has one
    function: str | None
    reviewer: str
    time: str
    task_id: Any
    annotation_id: Any


def _reviewer(who: Any) -> str:
    if isinstance(who, dict):
        return str(who.get("email") or f"user:{who.get('id')}")
    return f"user:{who}" if who is not None else "unknown"


def _text(value: Any) -> str | None:
    text = value.get("text") if isinstance(value, dict) else None
    if isinstance(text, list):
        text = "\n".join(str(t) for t in text)
    return text if isinstance(text, str) else None


def parse_export(tasks: Any) -> list[Decision]:
    """Every step decision of every non-cancelled annotation, in the export's order."""
    if not isinstance(tasks, list):
        raise FatalError("not a Label Studio JSON export: expected a list of tasks")
    out: list[Decision] = []
    for number, task in enumerate(tasks, 1):
        data = task.get("data") if isinstance(task, dict) else None
        if not isinstance(data, dict) or "episode_id" not in data:
            raise FatalError(f"task {number} of the export has no data.episode_id: not a task of `sftdata review "
                             "export`")
        for ann in task.get("annotations") or []:
            if not isinstance(ann, dict) or ann.get("was_cancelled"):
                continue
            fields: dict[int, dict[str, Any]] = {}
            for r in ann.get("result") or []:
                m = _NAME.match(str(r.get("from_name", ""))) if isinstance(r, dict) else None
                if m:
                    fields.setdefault(int(m.group(2)), {})[m.group(1)] = r.get("value")
            for step in sorted(fields):
                f = fields[step]
                choices = (f.get(DECISION) or {}).get("choices") if isinstance(f.get(DECISION), dict) else None
                decision = choices[0] if isinstance(choices, list) and choices else None
                if decision not in DECISIONS:
                    continue  # a step the reviewer left undecided
                out.append(Decision(str(data["episode_id"]), step, decision, _text(f.get(REASONING)),
                                    _text(f.get(FUNCTION)), _reviewer(ann.get("completed_by")),
                                    str(ann.get("updated_at") or ann.get("created_at") or ""), task.get("id"),
                                    ann.get("id")))
    return out


def read_export(path: str | Path) -> list[Decision]:
    """:func:`parse_export` of a JSON file; a missing or broken file is a FatalError."""
    try:
        with open(path, encoding="utf-8") as f:
            tasks = json.load(f)
    except OSError as exc:
        raise FatalError(f"cannot read {path}: {exc.strerror or exc}") from None
    except (ValueError, RecursionError) as exc:
        raise FatalError(f"{path} is not JSON: {exc}") from None
    return parse_export(tasks)
