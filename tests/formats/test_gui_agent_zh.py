"""gui-agent-zh (seed 001): golden answers, relative coordinates, unsupported actions, memory and history."""
from __future__ import annotations

import json

import pytest

from sftdata.formats import CannotExpress, StepContext, get_format
from sftdata.formats.short import clause
from sftdata.model import Action, Episode, Screenshot, Step

NAME = "gui-agent-zh"
FMT = get_format(NAME)
ALLOWED = {"not_annotated": {"*"}, "action_not_in_format": {"back", "home", "open_app"},
           "swipe_without_points": {"swipe"}, "swipe_too_short": {"swipe"}, "input_without_field": {"input"},
           "missing_target": {"click", "long_press"}, "no_coordinates": {"click", "long_press"}}
GOLDEN = {
    0: '{"status": "in_progress", "description": "先点击底部的输入框。", "target": "底部的“输入消息”输入框", "action": {"type": "click", "coordinates": [278, 917], "text": ""}}',
    1: '{"status": "in_progress", "description": "输入框已激活，输入消息内容。", "target": "屏幕下部的“输入消息”输入框", "action": {"type": "input", "coordinates": [435, 917], "text": "晚上七点到家"}}',
    2: '{"status": "in_progress", "description": "向上滑动查看更早的消息。", "target": "屏幕中部的列表", "action": {"type": "drag", "coordinates": [[500, 667], [500, 333]], "text": ""}}',
    6: '{"status": "in_progress", "description": "页面还在加载，等待一下。", "target": "页面正在加载", "action": {"type": "wait", "coordinates": [0, 0], "text": ""}}',
    7: '{"status": "completed", "description": "消息已发送，任务完成。", "target": "", "action": {"type": "wait", "coordinates": [0, 0], "text": ""}}',
}


def test_golden_answers_and_drops(tiny):
    episode, items = tiny
    for i in range(len(episode.steps)):
        ctx = StepContext(episode, i, items)
        if i in GOLDEN:
            assert FMT.render(ctx) == GOLDEN[i]
        else:  # open_app, back, home
            with pytest.raises(CannotExpress) as e:
                FMT.render(ctx)
            assert e.value.reason == "action_not_in_format"


def test_every_supported_action_type_round_trips(tiny, round_trip, sample_episodes):
    assert set(round_trip(NAME, [tiny], ALLOWED)) >= {"click", "input", "swipe", "wait", "done"}
    assert {"long_press"} <= set(round_trip(NAME, sample_episodes, ALLOWED))


def test_round_trip_on_episodes(episodes, round_trip):
    assert round_trip(NAME, episodes, ALLOWED)


def test_input_with_a_point_carries_it_and_parse_reads_pixels():
    shot = Screenshot("0" * 64, "x.png", 1080, 2400)
    ep = Episode("p", "sample", "g", [Step(0, shot, Action("input", text="你好", point=(540, 2200))),
                                      Step(1, shot, Action("done"))])
    items = [{"reasoning": "输入。", "function": {"name": "input", "parameters": {"text": "你好"}}},
             {"reasoning": "完成。", "function": {"name": "done", "parameters": {}}}]
    ctx = StepContext(ep, 0, items)
    assert json.loads(FMT.render(ctx))["action"]["coordinates"] == [500, 917]
    assert FMT.parse(FMT.render(ctx), ctx) == Action("input", text="你好", point=(540, 2201)) == FMT.quantize(ctx)


def test_memory_in_the_description(tiny, memory):
    episode, items = tiny
    answer, text = memory(NAME, episode, items, 2)
    assert json.loads(answer)["description"] == f"{clause(text)}；向上滑动查看更早的消息。"  # one line


def test_description_is_the_observation_else_the_first_sentence(tiny):
    episode, items = tiny
    items = [dict(item) for item in items]
    items[0]["reasoning"] = "聊天页面底部有输入框。先点击它，键盘弹出后再输入。"
    assert json.loads(FMT.render(StepContext(episode, 0, items)))["description"] == "聊天页面底部有输入框。"
    items[0]["observation"] = "与妈妈的聊天页面，底部是消息输入框"
    assert json.loads(FMT.render(StepContext(episode, 0, items)))["description"] == "与妈妈的聊天页面，底部是消息输入框"


def _typed(steps: list[Step], items: list[dict]) -> dict:
    ep = Episode("i", "sample", "g", steps + [Step(len(steps), steps[0].screenshot, Action("done"))])
    done = {"reasoning": "完成。", "function": {"name": "done", "parameters": {}}}
    ctx = StepContext(ep, len(steps) - 1, items + [done])
    assert FMT.parse(FMT.render(ctx), ctx) == FMT.quantize(ctx)
    return json.loads(FMT.render(ctx))


def test_input_types_at_the_field_clicked_before_never_at_zero():
    shot = Screenshot("0" * 64, "x.png", 1000, 2000)
    typed = {"reasoning": "输入。", "function": {"name": "input", "parameters": {"text": "你好"}}}
    click = {"reasoning": "点击搜索框。", "function": {"name": "click", "parameters": {"target_element": "顶部的搜索框"}}}
    answer = _typed([Step(0, shot, Action("click", point=(500, 100))), Step(1, shot, Action("input", text="你好"))],
                    [click, typed])
    assert (answer["target"], answer["action"]["coordinates"]) == ("顶部的搜索框", [500, 50])
    with pytest.raises(CannotExpress) as e:  # nothing says where the field is: dropped, not typed at [0, 0]
        _typed([Step(0, shot, Action("input", text="你好"))], [typed])
    assert e.value.reason == "input_without_field"


def test_a_drag_without_a_scrollable_element_names_the_page_region():
    shot = Screenshot("0" * 64, "x.png", 1000, 2000)
    swipe = {"reasoning": "向左滑动翻到下一张。", "function": {"name": "swipe", "parameters": {"direction": "LEFT"}}}
    answer = _typed([Step(0, shot, Action("swipe", point=(900, 1000), end=(100, 1000)))], [swipe])
    assert answer["target"] == "屏幕中部的页面内容" and answer["action"]["type"] == "drag"


def test_history_names_the_previous_actions(tiny, history):
    episode, items = tiny
    message = history(NAME, episode, items, 3)
    assert '第 2 步：输入框已激活，输入消息内容。 操作：{"type": "input", "coordinates": [435, 917], "text": "晚上七点到家"}' in message
    assert '第 3 步：向上滑动查看更早的消息。 操作：{"type": "drag", "coordinates": [[500, 667], [500, 333]], "text": ""}' in message
