"""Helpers for driving the judge against the scripted endpoint: which episode a judge request is for, and
verdict replies (imported as ``judge_fake``)."""
from __future__ import annotations

import json
import re

from fake_openai import first_user_text

_STEP = re.compile(r"^步骤 (\d+)（", re.M)
_GOAL = re.compile(r"任务目标：(.*)\n这条轨迹共 (\d+) 步")


def episode_key(body: dict) -> tuple[str, int]:
    """(goal, step count) of the episode a judge request is about."""
    m = _GOAL.search(first_user_text(body))
    return m.group(1), int(m.group(2))


def steps_of(body: dict) -> list[int]:
    return [int(n) for n in _STEP.findall(first_user_text(body))]


def verdict(body: dict, bad: dict[int, dict] | None = None, *, goal_matches: bool = True) -> str:
    """A verdict for every step of the request, all good except the fields in ``bad`` (step number -> fields)."""
    items = []
    for n in steps_of(body):
        item = {"index": n, "aligned": True, "grounded": True, "hindsight": False, "target_unambiguous": True,
                "score": 5, "why": "推理与动作一致，只提到当前屏幕上的内容。"}
        item.update((bad or {}).get(n, {}))
        items.append(item)
    episode = {"task_completed": True, "goal_matches": goal_matches,
               "suggested_goal": None if goal_matches else "打开设置并查看电池信息"}
    return json.dumps({"items": items, "episode": episode}, ensure_ascii=False)
