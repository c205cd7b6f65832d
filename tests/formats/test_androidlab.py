"""androidlab (seed 004 F.1): golden answers, element boxes, escaped strings, memory and history."""
from __future__ import annotations

import pytest

from sftdata.formats import CannotExpress, StepContext, get_format
from sftdata.formats.androidlab import read_call
from sftdata.model import Action, Episode, Step

NAME = "androidlab"
FMT = get_format(NAME)
ALLOWED = {"not_annotated": {"*"}, "no_accessibility_tree": {"*"}, "element_not_indexed": {"click", "long_press"}}
GOLDEN = [
    '<think>\n先点击底部的输入框。\n</think>\n<answer>\ndo(action="Tap", element=[40, 2150, 900, 2250])\n</answer>',
    '<think>\n输入框已激活，输入消息内容。\n</think>\n<answer>\ndo(action="Type", text="晚上七点到家")\n</answer>',
    '<think>\n向上滑动查看更早的消息。\n</think>\n<answer>\ndo(action="Swipe", direction="up", dist="medium", element=[0, 200, 1080, 2100])\n</answer>',
    '<think>\n打开设置应用。\n</think>\n<answer>\ndo(action="Launch", app="设置")\n</answer>',
    '<think>\n返回上一页。\n</think>\n<answer>\ndo(action="Back")\n</answer>',
    '<think>\n回到桌面。\n</think>\n<answer>\ndo(action="Home")\n</answer>',
    '<think>\n页面还在加载，等待一下。\n</think>\n<answer>\ndo(action="Wait")\n</answer>',
    '<think>\n消息已发送，任务完成。\n</think>\n<answer>\nfinish(message="Task completed.")\n</answer>',
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


def test_parse_gives_the_box_centre_and_its_element(tiny):
    episode, items = tiny
    ctx = StepContext(episode, 0, items)
    action = FMT.parse(GOLDEN[0], ctx)
    assert (action.type, action.point, action.element.index) == ("click", (470, 2200), 4)


@pytest.mark.parametrize("text", ['say "hi"\nthen \\ leave', "它说：“好的”", "it's"])
def test_strings_are_escaped_and_read_back(tiny, text):
    episode, items = tiny
    steps = [Step(0, episode.steps[1].screenshot, Action("input", text=text), elements=episode.steps[1].elements),
             Step(1, episode.steps[7].screenshot, Action("done", text=text), elements=episode.steps[7].elements)]
    ep = Episode("esc", "sample", "g", steps)
    for i in range(2):
        ctx = StepContext(ep, i, [items[1], items[7]])
        rendered = FMT.render(ctx)
        assert rendered.count("\n") == 5  # the code stays on one line
        assert FMT.parse(rendered, ctx) == FMT.quantize(ctx) == ep.steps[i].action


def test_read_call_rejects_anything_but_a_keyword_call():
    assert read_call('do(action="Swipe", direction="up", dist="long")') == (
        "do", {"action": "Swipe", "direction": "up", "dist": "long"})
    for bad in ('do("Tap")', "__import__('os')", "[1, 2]"):
        with pytest.raises((ValueError, SyntaxError)):
            read_call(bad)


def test_no_tree_drops_every_step(annotated_episodes):
    episode, items = annotated_episodes[0]
    for i in range(len(episode.steps)):
        with pytest.raises(CannotExpress) as e:
            FMT.render(StepContext(episode, i, items))
        assert e.value.reason == "no_accessibility_tree"


def test_memory_in_the_thought(tiny, memory):
    episode, items = tiny
    answer, text = memory(NAME, episode, items, 4)
    assert answer.startswith(f"<think>\n返回上一页。\n{text}\n</think>")


def test_history_names_the_previous_actions(tiny, history):
    episode, items = tiny
    message = history(NAME, episode, items, 3)
    assert 'Step 2: 输入框已激活，输入消息内容。 do(action="Type", text="晚上七点到家")' in message
    assert 'Step 3: 向上滑动查看更早的消息。 do(action="Swipe", direction="up", dist="medium", element=[0, 200, 1080, 2100])' in message
    assert "[40, 2150, 900, 2250] EditText '输入消息'" in message
