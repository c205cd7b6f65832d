"""mobile-agent (seed 000): golden answers, element indexing, round trips, memory and history."""
from __future__ import annotations

import json

import pytest

from sftdata.formats import CannotExpress, StepContext, get_format
from sftdata.formats.elements import interactive, listing
from sftdata.model import Action, Element, Episode, Step

NAME = "mobile-agent"
FMT = get_format(NAME)
ALLOWED = {"not_annotated": {"*"}, "no_accessibility_tree": {"*"}, "element_not_indexed": {"click", "long_press"},
           "no_input_field": {"input"}}
GOLDEN = [
    '{"current_state": {"evaluation_previous_goal": "Unknown - first step", "memory": "Starting the task; nothing done yet.", "next_goal": "先点击底部的输入框。"}, "action": [{"tap": {"index": 2}}]}',
    '{"current_state": {"evaluation_previous_goal": "Success - tapped \'输入消息\' as planned; the screen shows the result.", "memory": "1 action done so far; last: tapped \'输入消息\'.", "next_goal": "输入框已激活，输入消息内容。"}, "action": [{"enter_text": {"index": 2, "text": "晚上七点到家"}}]}',
    '{"current_state": {"evaluation_previous_goal": "Success - typed “晚上七点到家” as planned; the screen shows the result.", "memory": "2 actions done so far; last: typed “晚上七点到家”.", "next_goal": "向上滑动查看更早的消息。"}, "action": [{"swipe": {"direction": "up"}}]}',
    '{"current_state": {"evaluation_previous_goal": "Success - swiped up as planned; the screen shows the result.", "memory": "3 actions done so far; last: swiped up.", "next_goal": "打开设置应用。"}, "action": [{"open_app": {"app_name": "设置"}}]}',
    '{"current_state": {"evaluation_previous_goal": "Success - opened 设置 as planned; the screen shows the result.", "memory": "4 actions done so far; last: opened 设置.", "next_goal": "返回上一页。"}, "action": [{"back": {}}]}',
    '{"current_state": {"evaluation_previous_goal": "Success - went back as planned; the screen shows the result.", "memory": "5 actions done so far; last: went back.", "next_goal": "回到桌面。"}, "action": [{"home": {}}]}',
    '{"current_state": {"evaluation_previous_goal": "Success - went home as planned; the screen shows the result.", "memory": "6 actions done so far; last: went home.", "next_goal": "页面还在加载，等待一下。"}, "action": [{"wait": {}}]}',
    '{"current_state": {"evaluation_previous_goal": "Success - waited as planned; the screen shows the result.", "memory": "7 actions done so far; last: waited.", "next_goal": "消息已发送，任务完成。"}, "action": [{"done": {"text": "Task completed.", "success": true}}]}',
]


def test_golden_answers(tiny):
    episode, items = tiny
    assert [FMT.render(StepContext(episode, i, items)) for i in range(len(episode.steps))] == GOLDEN


def test_every_action_type_round_trips(tiny, round_trip):
    assert set(round_trip(NAME, [tiny], ALLOWED)) == {"click", "input", "swipe", "open_app", "back", "home", "wait",
                                                      "done"}


def test_round_trip_on_episodes(episodes, round_trip):
    assert round_trip(NAME, episodes, ALLOWED)


def test_generated_sample_covers_every_action_type(sample_episodes, round_trip):
    seen = round_trip(NAME, sample_episodes, ALLOWED)
    assert {"click", "long_press", "swipe", "input", "open_app", "back", "home", "wait", "done"} <= set(seen)


def test_element_listing(tiny):
    episode, _ = tiny
    assert listing(episode.steps[0]) == ("[0]<RecyclerView> ''\n[1]<LinearLayout> ''\n"
                                         "[2]<EditText> '输入消息' (text input - use enter_text action)\n"
                                         "[3]<ImageButton> '发送'")


def test_tap_on_a_label_addresses_its_clickable_row(tiny):
    episode, items = tiny
    row_label = episode.steps[0].elements[3]  # the non-clickable "妈妈" text inside the clickable row
    steps = [Step(0, episode.steps[0].screenshot, Action("click", point=(100, 400), element=row_label),
                  elements=episode.steps[0].elements)] + episode.steps[7:]
    ep = Episode("row", "sample", "g", [Step(i, s.screenshot, s.action, elements=s.elements) for i, s in enumerate(steps)])
    ctx = StepContext(ep, 0, [items[0], items[7]])
    assert json.loads(FMT.render(ctx))["action"] == [{"tap": {"index": 1}}]
    assert FMT.quantize(ctx).point == (540, 400)


def test_focusable_control_inside_a_clickable_container_is_not_indexed(tiny):
    episode, items = tiny
    shot, els = episode.steps[0].screenshot, list(episode.steps[0].elements)
    close = Element(9, (900, 320, 1000, 420), desc="Close ad", class_name="android.view.View",
                    flags=("focusable", "enabled", "visible"))
    ep = Episode("ad", "sample", "g", [Step(0, shot, Action("click", point=(950, 370), element=close),
                                            elements=els + [close]), Step(1, shot, Action("done"), elements=els)])
    with pytest.raises(CannotExpress) as e:
        FMT.render(StepContext(ep, 0, [items[0], items[7]]))
    assert e.value.reason == "element_not_indexed"


def test_input_without_a_field_and_steps_without_a_tree_are_dropped(tiny):
    episode, items = tiny
    shot = episode.steps[0].screenshot
    no_field = [e for e in episode.steps[0].elements if not e.has("editable")]
    ep = Episode("x", "sample", "g", [Step(0, shot, Action("input", text="hi"), elements=no_field),
                                      Step(1, shot, Action("done"))])
    its = [items[1], items[7]]
    for index, reason in ((0, "no_input_field"), (1, "no_accessibility_tree")):
        for call in (FMT.render, FMT.quantize):
            with pytest.raises(CannotExpress) as e:
                call(StepContext(ep, index, its))
            assert e.value.reason == reason


def test_input_uses_the_focused_field_when_the_previous_step_was_not_a_click(tiny):
    episode, items = tiny
    typing = episode.steps[1]  # its tree has the input field focused
    ep = Episode("f", "sample", "g", [Step(0, typing.screenshot, typing.action, elements=typing.elements),
                                      Step(1, typing.screenshot, Action("done"), elements=typing.elements)])
    ctx = StepContext(ep, 0, [items[1], items[7]])
    assert json.loads(FMT.render(ctx))["action"] == [{"enter_text": {"index": 2, "text": "晚上七点到家"}}]
    assert FMT.parse(FMT.render(ctx), ctx) == FMT.quantize(ctx)


def test_not_annotated_is_dropped(tiny):
    episode, _ = tiny
    with pytest.raises(CannotExpress) as e:
        FMT.render(StepContext(episode, 2, None))
    assert e.value.reason == "not_annotated"


def test_memory_goes_in_the_memory_field(tiny, memory):
    episode, items = tiny
    answer, text = memory(NAME, episode, items, 3)
    assert json.loads(answer)["current_state"]["memory"] == text.removeprefix("Memory: ")
    assert "3 steps done, 5 to go" in text


def test_history_names_the_previous_actions(tiny, history):
    episode, items = tiny
    message = history(NAME, episode, items, 3)
    assert 'Step 2: 输入框已激活，输入消息内容。 -> {"enter_text": {"index": 2, "text": "晚上七点到家"}}' in message
    assert 'Step 3: 向上滑动查看更早的消息。 -> {"swipe": {"direction": "up"}}' in message
    assert "Step 1:" not in message
    assert message.endswith(listing(episode.steps[3]))
    assert len(interactive(episode.steps[3])) == 4
