"""androidlab (seed 004 F.1): golden answers, element boxes, escaped strings, memory and history."""
from __future__ import annotations

import re
from collections import Counter

import pytest

from sftdata.formats import CannotExpress, StepContext, get_format
from sftdata.formats.androidlab import read_call
from sftdata.model import Action, Element, Episode, Step

NAME = "androidlab"
FMT = get_format(NAME)
ALLOWED = {"not_annotated": {"*"}, "no_accessibility_tree": {"*"}, "element_not_indexed": {"click", "long_press"},
           "action_not_in_format": {"home", "wait"}}
GOLDEN = [
    '<think>\n先点击底部的输入框。\n</think>\n<answer>\ndo(action="Tap", element=[40, 2150, 900, 2250])\n</answer>',
    '<think>\n输入框已激活，输入消息内容。\n</think>\n<answer>\ndo(action="Type", text="晚上七点到家")\n</answer>',
    '<think>\n向上滑动查看更早的消息。\n</think>\n<answer>\ndo(action="Swipe", direction="up", dist="medium", element=[0, 200, 1080, 2100])\n</answer>',
    '<think>\n打开设置应用。\n</think>\n<answer>\ndo(action="Launch", app="设置")\n</answer>',
    '<think>\n返回上一页。\n</think>\n<answer>\ndo(action="Back")\n</answer>',
    None,  # home: F.1 has no such operation
    None,  # wait: neither
    '<think>\n消息已发送，任务完成。\n</think>\n<answer>\nfinish(message="Task completed.")\n</answer>',
]


def _render(ctx):
    try:
        return FMT.render(ctx)
    except CannotExpress as e:
        assert e.reason == "action_not_in_format"
        return None


def test_golden_answers(tiny):
    episode, items = tiny
    assert [_render(StepContext(episode, i, items)) for i in range(len(episode.steps))] == GOLDEN


def test_every_action_type_round_trips(tiny, round_trip, sample_episodes):
    assert set(round_trip(NAME, [tiny], ALLOWED)) == {"click", "input", "swipe", "open_app", "back", "done",
                                                      "drop:action_not_in_format"}
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


F1_CODE = re.compile(r'do\(action="Tap", element=\[\d+, \d+, \d+, \d+\]\)|do\(action="Long Press", element=\[\d+, \d+, \d+, \d+\]\)'
                     r'|do\(action="Type", text=".*"\)|do\(action="Swipe", direction="(up|down|left|right)", dist="(short|medium|long)"'
                     r'(, element=\[\d+, \d+, \d+, \d+\])?\)|do\(action="Launch", app=".*"\)|do\(action="Back"\)|finish\(message=".*"\)')


def test_history_lines_never_leave_f1(tiny, sample_episodes, ac_episodes):
    """Every history line ends in F.1 code or in words; never a point, never Home/Wait as code."""
    seen = Counter()
    for episode, items in [tiny] + sample_episodes + ac_episodes:
        for i in range(len(episode.steps)):
            message = FMT.user_message(StepContext(episode, i, items, history=8))
            for line in message.splitlines():
                if not line.startswith("Step "):
                    continue
                assert "point=" not in line and 'action="Home"' not in line and 'action="Wait"' not in line, line
                code = re.search(r"(do\(.*\)|finish\(.*\))$", line)
                if code:
                    assert F1_CODE.fullmatch(code.group(1)), line
                    seen["code"] += 1
                else:
                    assert line.endswith(")") and "(" in line, line
                    seen["words"] += 1
    assert seen["code"] > 100 and seen["words"]


def test_history_of_an_unaddressable_tap_names_the_touched_node_box_and_home_in_words(tiny):
    episode, items = tiny
    shot = episode.steps[0].screenshot
    blank = Element(9, (0, 2250, 1100, 2400), class_name="android.widget.LinearLayout",
                    flags=("clickable", "enabled", "visible"))
    ep = Episode("b", "sample", "g", [Step(0, shot, Action("click", point=(100, 2300), element=blank), elements=[blank]),
                                      Step(1, shot, Action("home"), elements=episode.steps[0].elements),
                                      Step(2, shot, Action("done"), elements=episode.steps[0].elements)])
    message = FMT.user_message(StepContext(ep, 2, [items[0], items[5], items[7]]))
    assert 'Step 1: 先点击底部的输入框。 do(action="Tap", element=[0, 2250, 1080, 2400])' in message
    assert "Step 2: 回到桌面。 (went to the home screen)" in message


def test_boxes_are_clipped_to_the_screen_on_the_real_fixture(ac_episodes):
    for episode, items in ac_episodes:
        for i, step in enumerate(episode.steps):
            ctx = StepContext(episode, i, items)
            w, h = step.screenshot.width, step.screenshot.height
            texts = [FMT.user_message(ctx)]
            try:
                texts.append(FMT.render(ctx))
            except CannotExpress:
                pass
            for x1, y1, x2, y2 in re.findall(r"\[(-?\d+), (-?\d+), (-?\d+), (-?\d+)\]", "\n".join(texts)):
                assert 0 <= int(x1) < int(x2) <= w and 0 <= int(y1) < int(y2) <= h
