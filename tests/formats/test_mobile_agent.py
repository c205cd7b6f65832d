"""mobile-agent (seed 000): golden answers, element indexing, round trips, memory and history."""
from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest

from sftdata.formats import CannotExpress, StepContext, get_format
from sftdata.formats.elements import interactive, listing
from sftdata.formats.memory import memory_text
from sftdata.model import Action, Element, Episode, Step

NAME = "mobile-agent"
FMT = get_format(NAME)
ALLOWED = {"not_annotated": {"*"}, "no_accessibility_tree": {"*"}, "element_not_indexed": {"click", "long_press"},
           "no_input_field": {"input"}}
GOLDEN = [  # (evaluation_previous_goal, next_goal, action) of the tiny episode, whose items have no optional field
    ("Unknown - 任务刚开始，还没有执行过操作。", "点击底部的“输入消息”输入框。", {"tap": {"index": 2}}),
    ("Success - 上一步已点击底部的“输入消息”输入框。", "输入“晚上七点到家”。", {"enter_text": {"index": 2, "text": "晚上七点到家"}}),
    ("Success - 上一步已输入“晚上七点到家”。", "向上滑动。", {"swipe": {"direction": "up"}}),
    ("Success - 上一步已向上滑动。", "打开应用“设置”。", {"open_app": {"app_name": "设置"}}),
    ("Success - 上一步已打开应用“设置”。", "返回上一页。", {"back": {}}),
    ("Success - 上一步已返回上一页。", "回到桌面。", {"home": {}}),
    ("Success - 上一步已回到桌面。", "等待加载。", {"wait": {}}),
    ("Success - 上一步已等待加载。", "完成任务。", {"done": {"text": "Task completed.", "success": True}}),
]
CJK = re.compile(r"[\u4e00-\u9fff]")


def test_golden_answers(tiny):
    episode, items = tiny
    for i, (evaluation, goal, action) in enumerate(GOLDEN):
        ctx = StepContext(episode, i, items)
        answer = json.loads(FMT.render(ctx))
        assert list(answer) == ["current_state", "action"]
        assert answer["current_state"] == {"evaluation_previous_goal": evaluation,
                                           "memory": memory_text(ctx, "zh").removeprefix("记忆："),
                                           "next_goal": goal}
        assert answer["action"] == [action]


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
    assert listing(episode.steps[0]) == ("[0]<RecyclerView> 'scrollable, centre'\n[1]<LinearLayout> '妈妈'\n"
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


def test_a_focusable_control_is_its_own_target_and_an_unnamed_one_is_not_indexed(tiny):
    episode, items = tiny
    shot, els = episode.steps[0].screenshot, list(episode.steps[0].elements)
    for desc, expected in (("Close ad", {"tap": {"index": 4}}), ("", None)):
        close = Element(9, (900, 320, 1000, 420), desc=desc, class_name="android.view.View",
                        flags=("focusable", "enabled", "visible"))
        ep = Episode("ad", "sample", "g", [Step(0, shot, Action("click", point=(950, 370), element=close),
                                                elements=els + [close]), Step(1, shot, Action("done"), elements=els)])
        ctx = StepContext(ep, 0, [items[0], items[7]])
        if expected is None:
            with pytest.raises(CannotExpress) as e:
                FMT.render(ctx)
            assert e.value.reason == "element_not_indexed"
        else:
            assert json.loads(FMT.render(ctx))["action"] == [expected]
            assert FMT.user_message(ctx).endswith("[4]<View> 'Close ad'")


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


ITEM = {"reasoning": "当前是聊天列表，妈妈的对话在最上面。要回复妈妈，需要先进入和她的对话。所以点击妈妈这一行。",
        "thought": "要回复妈妈，先进入和她的对话。", "action_summary": "点击“妈妈”", "observation": "当前是聊天列表，妈妈的对话在最上面。",
        "memory": "已删除与李娜的对话；还需给妈妈回复。", "function": {"name": "click", "parameters": {"target_element": "妈妈"}}}


def test_the_fields_come_from_the_items_optional_fields(tiny):
    episode, items = tiny
    items = [dict(ITEM)] + [dict(it, observation="输入框已激活，键盘已弹出。") if i == 1 else it
                            for i, it in enumerate(items) if i]
    first = json.loads(FMT.render(StepContext(episode, 0, items)))["current_state"]
    assert first == {"evaluation_previous_goal": "Unknown - 任务刚开始，还没有执行过操作。",
                     "memory": "已删除与李娜的对话；还需给妈妈回复。",
                     "next_goal": "点击“妈妈”：要回复妈妈，先进入和她的对话。"}
    assert ITEM["reasoning"] not in first["next_goal"]
    second = json.loads(FMT.render(StepContext(episode, 1, items)))["current_state"]
    assert second["evaluation_previous_goal"] == "Success - 上一步已点击“妈妈”；输入框已激活，键盘已弹出。"


def test_an_ineffective_previous_step_is_evaluated_as_failed(tiny):
    episode, items = tiny
    steps = list(episode.steps)
    steps[0] = replace(steps[0], meta={"ineffective": True, "screen_change": 0.0})
    ep = replace(episode, steps=steps)
    state = json.loads(FMT.render(StepContext(ep, 1, items)))["current_state"]
    assert state["evaluation_previous_goal"] == "Failed - 上一步点击底部的“输入消息”输入框后界面没有变化，操作没有生效。"
    steps[0] = replace(steps[0], meta={"ineffective": False})
    state = json.loads(FMT.render(StepContext(replace(episode, steps=steps), 1, items)))["current_state"]
    assert state["evaluation_previous_goal"].startswith("Success - ")


def test_every_sample_speaks_one_language_and_keeps_the_seed_frame(sample_episodes, ac_episodes):
    """Chinese in all three fields, after seed 000's English keyword; next_goal is never the whole reasoning
    and is one line."""
    seen = 0
    for episode, items in sample_episodes + ac_episodes:
        for i in range(len(episode.steps)):
            ctx = StepContext(episode, i, items)
            try:
                answer = json.loads(FMT.render(ctx))
            except CannotExpress:
                continue
            state = answer["current_state"]
            assert re.fullmatch(r"(Success|Failed|Unknown) - .+", state["evaluation_previous_goal"])
            for key in ("evaluation_previous_goal", "memory", "next_goal"):
                assert CJK.search(state[key]) and "\n" not in state[key], (key, state[key])
            assert "Memory:" not in state["memory"] and not state["memory"].startswith("记忆：")
            assert items[i]["reasoning"] not in state["next_goal"]
            seen += 1
    assert seen


def test_memory_counts_the_task_with_or_without_the_memory_option(tiny):
    episode, items = tiny
    on, off = StepContext(episode, 3, items, memory=True), StepContext(episode, 3, items)
    expected = memory_text(on, "zh").removeprefix("记忆：")
    assert json.loads(FMT.render(on))["current_state"]["memory"] == expected
    assert json.loads(FMT.render(off))["current_state"]["memory"] == expected  # seed 000 always has the field
    assert "剩余" not in expected and "共" not in expected


def test_history_names_the_previous_actions(tiny):
    episode, items = tiny
    message = FMT.user_message(StepContext(episode, 3, items, history=2, history_images=1))
    assert message.count("<image>") == 2
    assert ('Step 2: 输入“晚上七点到家”。 -> {"enter_text": {"index": 2, "text": "晚上七点到家"}} (<EditText> \'输入消息\')'
            in message)
    assert 'Step 3: 向上滑动。 -> {"swipe": {"direction": "up"}}' in message
    assert "Step 1:" not in message and items[1]["reasoning"] not in message
    assert message.endswith(listing(episode.steps[3]))
    assert len(interactive(episode.steps[3])) == 4


def test_history_describes_a_tap_no_listed_element_addresses(tiny):
    episode, items = tiny
    shot, els = episode.steps[0].screenshot, episode.steps[0].elements
    blank = Element(9, (0, 2250, 200, 2400), class_name="android.widget.LinearLayout",
                    flags=("clickable", "enabled", "visible"))
    ep = Episode("b", "sample", "g", [Step(0, shot, Action("click", point=(100, 2300), element=blank),
                                           elements=[blank]), Step(1, shot, Action("back"), elements=list(els)),
                                      Step(2, shot, Action("done"), elements=list(els))])
    its = [items[0], items[4], items[7]]
    message = FMT.user_message(StepContext(ep, 1, its))
    assert "Step 1: 点击底部的“输入消息”输入框。 -> 点击屏幕左下方的 LinearLayout（不在元素列表中）" in message
    with pytest.raises(CannotExpress):
        FMT.render(StepContext(ep, 0, its))


def test_som_adds_the_box_sentence_to_the_system_prompt(tiny):
    episode, items = tiny
    assert "labelled with its index" in FMT.system_prompt(StepContext(episode, 0, items, som=True))
    assert "labelled with its index" not in FMT.system_prompt(StepContext(episode, 0, items))
