"""qwen2.5-vl (seed 004 F.2): golden answers, smart-resized pixels, the mobile_use tool, memory and history."""
from __future__ import annotations

import json
from dataclasses import replace

from sftdata.families import FAMILIES, smart_resize
from sftdata.formats import StepContext, get_format
from sftdata.formats.short import clause
from sftdata.model import Action

NAME = "qwen2.5-vl"
FMT = get_format(NAME)
ALLOWED = {"not_annotated": {"*"}, "no_coordinates": {"click", "long_press"}, "swipe_without_points": {"swipe"},
           "swipe_too_short": {"swipe"}}


def _answer(thought: str, action: str, arguments: str) -> str:
    return (f"Thought: {thought}\nAction: {action}\n<tool_call>\n"
            f'{{"name": "mobile_use", "arguments": {arguments}}}\n</tool_call>')


GOLDEN = [
    _answer("先点击底部的输入框。", "点击底部的“输入消息”输入框", '{"action": "click", "coordinate": [303, 2207]}'),
    _answer("输入框已激活，输入消息内容。", "输入“晚上七点到家”", '{"action": "type", "text": "晚上七点到家"}'),
    _answer("向上滑动查看更早的消息。", "向上滑动",
            '{"action": "swipe", "coordinate": [546, 1605], "coordinate2": [546, 803]}'),
    _answer("打开设置应用。", "打开应用“设置”", '{"action": "open", "text": "设置"}'),
    _answer("返回上一页。", "返回上一页", '{"action": "system_button", "button": "Back"}'),
    _answer("回到桌面。", "回到桌面", '{"action": "system_button", "button": "Home"}'),
    _answer("页面还在加载，等待一下。", "等待加载", '{"action": "wait", "time": 2}'),
    _answer("消息已发送，任务完成。", "完成任务", '{"action": "terminate", "status": "success"}'),
]


def test_golden_answers(tiny):
    episode, items = tiny
    assert [FMT.render(StepContext(episode, i, items)) for i in range(len(episode.steps))] == GOLDEN


def test_every_action_type_round_trips(tiny, round_trip, sample_episodes):
    assert set(round_trip(NAME, [tiny], ALLOWED)) == {"click", "input", "swipe", "open_app", "back", "home", "wait",
                                                      "done"}
    assert "long_press" in round_trip(NAME, sample_episodes, ALLOWED)


def test_round_trip_on_episodes(episodes, round_trip):
    assert round_trip(NAME, episodes, ALLOWED)


def test_resolution_is_the_smart_resized_size(tiny):
    episode, items = tiny
    fam = FAMILIES["qwen2.5-vl"]
    assert smart_resize(2400, 1080, factor=fam.factor, min_pixels=fam.min_pixels, max_pixels=fam.max_pixels) == (2408, 1092)
    ctx = StepContext(episode, 0, items)
    assert FMT.resolution(ctx) == (1092, 2408)
    assert "The screen's resolution is 1092x2408." in FMT.tools(ctx)[0]["function"]["description"]
    assert "1092x2408" in FMT.system_prompt(ctx)


def test_tool_call_variant(tiny):
    episode, items = tiny
    ctx = StepContext(episode, 2, items)
    assert FMT.tool_call is True
    assert FMT.tool_call_message(ctx) == {"name": "mobile_use", "arguments": {
        "action": "swipe", "coordinate": [546, 1605], "coordinate2": [546, 803]}}
    assert FMT.thought(ctx) == "Thought: 向上滑动查看更早的消息。\nAction: 向上滑动"
    schema = FMT.tools(ctx)[0]["function"]
    assert schema["name"] == "mobile_use" and "open" in schema["parameters"]["properties"]["action"]["enum"]
    assert json.loads(json.dumps(FMT.tools(ctx))) == FMT.tools(ctx)


def test_memory_in_the_thought(tiny, memory):
    episode, items = tiny
    answer, text = memory(NAME, episode, items, 5)
    assert answer.startswith(f"Thought: {clause(text)}；回到桌面。\nAction: 回到桌面\n")  # one line, one sentence


def test_fields_give_the_short_forms(tiny):
    episode, items = tiny
    items = [dict(item) for item in items]
    items[0].update(reasoning="底部有一个输入框。点击它才能输入消息。")
    items[1].update(thought="输入框已激活，可以直接输入消息。", action_summary="输入消息内容")
    first, second = StepContext(episode, 0, items), StepContext(episode, 1, items)
    assert FMT.thought(first) == "Thought: 底部有一个输入框。\nAction: 点击底部的“输入消息”输入框"  # fallbacks
    assert FMT.thought(second) == "Thought: 输入框已激活，可以直接输入消息。\nAction: 输入消息内容"
    message = FMT.user_message(StepContext(episode, 2, items))
    assert "Step 1: Thought: 底部有一个输入框。 Action: 点击底部的“输入消息”输入框 {" in message
    assert "Step 2: Thought: 输入框已激活，可以直接输入消息。 Action: 输入消息内容 {" in message
    assert "点击它才能输入消息" not in message


def test_history_names_the_previous_actions(tiny, history):
    episode, items = tiny
    message = history(NAME, episode, items, 3)
    assert 'Step 2: Thought: 输入框已激活，输入消息内容。 Action: 输入“晚上七点到家” {"action": "type", "text": "晚上七点到家"}' in message
    assert ('Step 3: Thought: 向上滑动查看更早的消息。 Action: 向上滑动 '
            '{"action": "swipe", "coordinate": [546, 1605], "coordinate2": [546, 803]}') in message


def test_typed_newline_keeps_the_action_on_one_line(tiny):
    episode, items = tiny
    steps = list(episode.steps)
    steps[1] = replace(steps[1], action=Action("input", text="晚上七点到家\n"))
    ctx = StepContext(replace(episode, steps=steps), 1, items)
    assert FMT.thought(ctx) == "Thought: 输入框已激活，输入消息内容。\nAction: 输入“晚上七点到家”"
