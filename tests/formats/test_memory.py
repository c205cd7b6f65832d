"""memory_text: one line, the item's own memory (Chinese) when it has one, else the task memory from the goal and
earlier steps; counted for looping goals; never the episode's length."""
from __future__ import annotations

import re

from sftdata.formats import StepContext
from sftdata.formats.memory import memory_text
from sftdata.model import Action, Episode, Screenshot, Step
from sftdata.annotate.template import template_items

SHOT = Screenshot("0" * 64, "x.png", 1080, 2400)
LEFT = Action("swipe", point=(900, 1200), end=(200, 1200))
STEP_COUNTS = re.compile(r"共\s*\d+\s*步|剩余\s*\d+\s*步|\d+\s+to go|\d+\s*steps?\s+done")


def _gallery() -> Episode:
    steps = [Step(0, SHOT, Action("click", point=(500, 500)))] + [Step(i, SHOT, LEFT) for i in (1, 2)]
    return Episode("g", "sample", "Open a photo, then swipe left 2 times", steps + [Step(3, SHOT, Action("done"))])


def test_one_line_without_step_counts(episodes):
    for ep, items in episodes:
        for i in range(len(ep.steps)):
            for language in ("zh", "en"):
                text = memory_text(StepContext(ep, i, items, memory=True), language)
                assert "\n" not in text and not STEP_COUNTS.search(text), text
                assert text.startswith("记忆：" if language == "zh" else "Memory: ")


def test_prefers_the_items_memory_in_chinese():
    ep = _gallery()
    items = template_items(ep)
    items[2]["memory"] = "已向左滑动 1/2 次，还剩 1 次"
    assert memory_text(StepContext(ep, 2, items), "zh") == "记忆：已向左滑动 1/2 次，还剩 1 次。"
    assert memory_text(StepContext(ep, 2, items), "en") == (
        "Memory: Done so far: tapped a control, swiped left; swiped left 1 of 2 times, 1 remain; "
        "goal: “Open a photo, then swipe left 2 times”.")


def test_counts_a_looping_goal_without_items():
    ep = _gallery()
    assert [memory_text(StepContext(ep, i), "zh") for i in (1, 3)] == [
        "记忆：已做：点击控件；已向左滑动 0/2 次，还剩 2 次；目标：“Open a photo, then swipe left 2 times”。",
        "记忆：已做：点击控件、向左滑动×2；已向左滑动 2/2 次，这一部分已经全部完成；目标：“Open a photo, then swipe left 2 times”。"]


def test_blank_memory_field_falls_back():
    ep = _gallery()
    items = [{"reasoning": "r", "function": {"name": "x"}, "memory": "  "} for _ in ep.steps]
    assert memory_text(StepContext(ep, 2, items), "zh") == \
        "记忆：已做：点击控件、向左滑动；已向左滑动 1/2 次，还剩 1 次；目标：“Open a photo, then swipe left 2 times”。"
