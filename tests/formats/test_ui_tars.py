"""ui-tars (seed 004 F.4): golden answers, scroll direction, string escapes, no wait, memory and history."""
from __future__ import annotations

import pytest

from sftdata.formats import CannotExpress, StepContext, get_format
from sftdata.model import Action, Episode, Step

NAME = "ui-tars"
FMT = get_format(NAME)
ALLOWED = {"not_annotated": {"*"}, "action_not_in_format": {"wait"}, "no_coordinates": {"click", "long_press"},
           "swipe_without_points": {"swipe"}}
GOLDEN = {  # the reasoning as the plan, then one sentence naming the next action and its target
    0: "Thought: 先点击底部的输入框。下一步：点击底部的“输入消息”输入框。\nAction: click(point='<point>303 2207</point>')",
    1: "Thought: 输入框已激活，输入消息内容。下一步：输入“晚上七点到家”。\nAction: type(content='晚上七点到家')",
    2: ("Thought: 向上滑动查看更早的消息。下一步：向上滑动。\n"
        "Action: scroll(point='<point>546 1605</point>', direction='down')"),
    3: "Thought: 打开设置应用。下一步：打开应用“设置”。\nAction: open_app(app_name='设置')",
    4: "Thought: 返回上一页。下一步：返回上一页。\nAction: press_back()",
    5: "Thought: 回到桌面。下一步：回到桌面。\nAction: press_home()",
    7: "Thought: 消息已发送，任务完成。下一步：完成任务。\nAction: finished(content='任务已完成')",
}


def test_golden_answers_and_wait_drop(tiny):
    episode, items = tiny
    for i in range(len(episode.steps)):
        ctx = StepContext(episode, i, items)
        if i in GOLDEN:
            assert FMT.render(ctx) == GOLDEN[i]
        else:
            with pytest.raises(CannotExpress) as e:
                FMT.render(ctx)
            assert e.value.reason == "action_not_in_format"


def test_every_supported_action_type_round_trips(tiny, round_trip, sample_episodes):
    assert set(round_trip(NAME, [tiny], ALLOWED)) == {"click", "input", "swipe", "open_app", "back", "home", "done",
                                                      "drop:action_not_in_format"}
    assert "long_press" in round_trip(NAME, sample_episodes, ALLOWED)


def test_round_trip_on_episodes(episodes, round_trip):
    assert round_trip(NAME, episodes, ALLOWED)


@pytest.mark.parametrize(("start", "end", "scroll"), [((540, 1600), (540, 800), "down"), ((540, 800), (540, 1600), "up"),
                                                      ((900, 1200), (100, 1200), "right"), ((100, 1200), (900, 1200), "left")])
def test_scroll_names_the_content_direction(tiny, start, end, scroll):
    episode, items = tiny
    step = episode.steps[2]
    ep = Episode("s", "sample", "g", [Step(0, step.screenshot, Action("swipe", point=start, end=end)), episode.steps[7]])
    ctx = StepContext(ep, 0, [items[2], items[7]])
    assert FMT.render(ctx).endswith(f"direction='{scroll}')")
    assert FMT.parse(FMT.render(ctx), ctx) == Action("swipe", direction=ep.steps[0].action.direction)


@pytest.mark.parametrize("text", ["it's \"quoted\"\n", "反斜杠 \\ 和 ' 引号", "tab\there"])
def test_content_is_escaped_and_read_back(tiny, text):
    episode, items = tiny
    ep = Episode("e", "sample", "g", [Step(0, episode.steps[1].screenshot, Action("input", text=text)),
                                      Step(1, episode.steps[7].screenshot, Action("done", text=text))])
    for i in range(2):
        ctx = StepContext(ep, i, [items[1], items[7]])
        rendered = FMT.render(ctx)
        assert rendered.count("\n") == 1  # Thought line + Action line
        assert FMT.parse(rendered, ctx) == FMT.quantize(ctx) == ep.steps[i].action


def test_memory_in_the_thought(tiny, memory):
    episode, items = tiny
    answer, text = memory(NAME, episode, items, 3)
    assert answer == f"Thought: {text} 打开设置应用。下一步：打开应用“设置”。\nAction: open_app(app_name='设置')"


def test_history_names_the_previous_actions(tiny, history):
    episode, items = tiny
    message = history(NAME, episode, items, 3)
    assert "Step 2: Thought: 输入框已激活，输入消息内容。 Action: type(content='晚上七点到家')" in message
    assert "Step 3: Thought: 向上滑动查看更早的消息。 Action: scroll(point='<point>546 1605</point>', direction='down')" in message
    assert message.startswith("## User Instruction\n给妈妈发消息“晚上七点到家”\n## Action History\n")
