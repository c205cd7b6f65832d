"""qwen3-vl (seed 004 F.3): golden answers, the 999x999 grid, open as in Qwen3-VL's cookbook, memory and history."""
from __future__ import annotations

import pytest

from sftdata.formats import StepContext, get_format
from sftdata.formats.short import clause
from sftdata.model import Action, Episode, Screenshot, Step

NAME = "qwen3-vl"
FMT = get_format(NAME)
ALLOWED = {"not_annotated": {"*"}, "no_coordinates": {"click", "long_press"},
           "swipe_without_points": {"swipe"}, "swipe_too_short": {"swipe"}}


def _answer(thought: str, action: str, arguments: str) -> str:
    return (f"Thought: {thought}\nAction: {action}\n<tool_call>\n"
            f'{{"name": "mobile_use", "arguments": {arguments}}}\n</tool_call>')


GOLDEN = {
    0: _answer("先点击底部的输入框。", "点击底部的“输入消息”输入框", '{"action": "click", "coordinate": [278, 916]}'),
    1: _answer("输入框已激活，输入消息内容。", "输入“晚上七点到家”", '{"action": "type", "text": "晚上七点到家"}'),
    2: _answer("向上滑动查看更早的消息。", "向上滑动",
               '{"action": "swipe", "coordinate": [500, 666], "coordinate2": [500, 333]}'),
    3: _answer("打开设置应用。", "打开应用“设置”", '{"action": "open", "text": "设置"}'),
    4: _answer("返回上一页。", "返回上一页", '{"action": "system_button", "button": "Back"}'),
    5: _answer("回到桌面。", "回到桌面", '{"action": "system_button", "button": "Home"}'),
    6: _answer("页面还在加载，等待一下。", "等待加载", '{"action": "wait", "time": 2}'),
    7: _answer("消息已发送，任务完成。", "完成任务", '{"action": "terminate", "status": "success"}'),
}


def test_golden_answers(tiny):
    episode, items = tiny
    assert set(GOLDEN) == set(range(len(episode.steps)))
    for i in range(len(episode.steps)):
        assert FMT.render(StepContext(episode, i, items)) == GOLDEN[i]


def test_every_supported_action_type_round_trips(tiny, round_trip, sample_episodes):
    assert set(round_trip(NAME, [tiny], ALLOWED)) == {"click", "input", "swipe", "open_app", "back", "home", "wait",
                                                      "done"}
    assert "long_press" in round_trip(NAME, sample_episodes, ALLOWED)


def test_round_trip_on_episodes(episodes, round_trip):
    assert round_trip(NAME, episodes, ALLOWED, tolerance=1.5)


@pytest.mark.parametrize("size", [(1080, 2400), (540, 1200), (1440, 3120)])
def test_grid_ends_are_the_first_and_last_pixel(size):
    w, h = size
    shot = Screenshot("0" * 64, "x.png", w, h)
    ep = Episode("g", "sample", "g", [Step(0, shot, Action("click", point=(w - 1, h - 1))),
                                      Step(1, shot, Action("click", point=(0, 0))), Step(2, shot, Action("done"))])
    items = [{"reasoning": "点。", "function": {"name": "click", "parameters": {"target_element": "角"}}}] * 2 + [
        {"reasoning": "完成。", "function": {"name": "done", "parameters": {}}}]
    far, near = StepContext(ep, 0, items), StepContext(ep, 1, items)
    assert '"coordinate": [999, 999]' in FMT.render(far) and '"coordinate": [0, 0]' in FMT.render(near)
    assert FMT.parse(FMT.render(far), far).point == (w - 1, h - 1)
    assert FMT.parse(FMT.render(near), near).point == (0, 0)


def test_schema_says_999_and_has_open_as_the_cookbook_but_no_key(tiny):
    episode, items = tiny
    ctx = StepContext(episode, 0, items)
    function = FMT.tools(ctx)[0]["function"]
    assert "The screen's resolution is 999x999." in function["description"]
    assert "open" in function["parameters"]["properties"]["action"]["enum"]
    assert "key" not in function["parameters"]["properties"]["action"]["enum"]


def test_memory_in_the_thought(tiny, memory):
    episode, items = tiny
    answer, text = memory(NAME, episode, items, 6)
    assert answer.startswith(f"Thought: {clause(text)}；页面还在加载，等待一下。\nAction: 等待加载\n")


def test_history_names_the_previous_actions(tiny, history):
    episode, items = tiny
    message = history(NAME, episode, items, 4)
    assert ('Step 3: Thought: 向上滑动查看更早的消息。 Action: 向上滑动 '
            '{"action": "swipe", "coordinate": [500, 666], "coordinate2": [500, 333]}') in message
    assert 'Step 4: Thought: 打开设置应用。 Action: 打开应用“设置” {"action": "open", "text": "设置"}\n' in message
