"""Pass 33: a sentence or clause after the decision that describes the screen as it is, told apart by the screens
(no word only a later screen shows, no number no screen shows, no change, state, sameness or choice), is read
neither as the action's outcome nor as hindsight; a swipe told by its finger alone is read for what follows it; a
ruling-out clause tells no outcome; the end of the list is sought below; an action object's thought comes before
its call; an arrow to the home key, a call line's comment, an order of work and ``the only toggle``. Wordings made
up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from scenes import PHONE, certify_text, click, el, expect, swipe, tap, typed
from sftdata.checks.certify import certify
from sftdata.model import Action, Episode, Step

BOX = el(0, (40, 140, 1040, 240), "搜索框", flags=("clickable", "editable"))
SPACE = el(1, (320, 2128, 760, 2258), "空格")
GO = el(2, (878, 2128, 1038, 2258), "搜索")
RESULT = el(3, (40, 400, 1040, 500), "Anker 台灯 Pro")


def typed_then_results(text: str) -> str:
    """Certify ``text`` for typing 台灯 into the box, when the next screen lists the results."""
    action, function = typed(BOX, "台灯", "“搜索框”")
    steps = [Step(0, PHONE, action, elements=[BOX, SPACE, GO]), Step(1, PHONE, Action("done"), elements=[RESULT])]
    episode = Episode("e", "m", "搜索台灯", steps)
    return certify(episode, 0, {"reasoning": text, "function": function}, cjk_threshold=0.0).outcome


@pytest.mark.parametrize("text, outcome", [
    ("Type 台灯 into the box. The keyboard is up, with 空格 and 搜索 along the bottom.", "certified"),
    ("输入台灯。键盘在下面，右下角是搜索键，空格在中间。", "certified"),
])
def test_the_screen_described_after_the_decision(text, outcome):
    assert typed_then_results(text) == outcome


@pytest.mark.parametrize("text", [
    "Type 台灯 into the box. The list shows Anker 台灯 Pro at the top.",
    "输入台灯。结果里第一个是 Anker 台灯 Pro。",
    "Type 台灯 into the box. The keyboard is up, and it opens the results.",
])
def test_what_only_the_next_screen_shows_is_no_description(text):
    assert typed_then_results(text) != "certified"


def test_a_swipe_told_by_its_finger_alone_is_read_for_what_follows():
    action, function = swipe("right")
    assert certify_text(action, function, "手指向右一划，切到了第 3 张。", [SPACE], web=False).outcome != "certified"
    expect(certify_text(action, function, "手指向右一划，看上一张。", [SPACE], web=False), "certified")


WIFI = el(0, (40, 300, 1040, 400), "Wi-Fi")
HOTSPOT = el(1, (40, 900, 1040, 1000), "Wi-Fi, hotspot")
NETWORK = el(2, (40, 800, 1040, 880), "Network", flags=())


def test_a_ruling_out_clause_tells_no_outcome():
    text = "Tap the 'Wi-Fi' row at the top — not the 'Wi-Fi, hotspot' line under Network."
    expect(certify_text(tap(WIFI), click("“Wi-Fi”选项"), text, [WIFI, HOTSPOT, NETWORK], web=False), "certified")


def test_the_end_of_the_list_is_sought_below():
    action, function = swipe("down")
    got = certify_text(action, function, "Keep scrolling up until the end of the list.", [WIFI], web=False)
    assert got.outcome != "certified"


GUESTS = el(0, (900, 100, 1100, 140), "Guests", tag="select")


def test_an_action_objects_thought_comes_before_its_call():
    function = {"name": "select", "parameters": {"target_element": "“Guests”下拉框", "value": "2"}}
    text = '{"thought": "two guests, the dropdown says 1", "action": "select", "target": "Guests", "value": "2"}'
    expect(certify_text(Action("select", text="2", element=GUESTS, point=GUESTS.center), function, text, [GUESTS]),
           "certified")


@pytest.mark.parametrize("name, action, text", [
    ("press_home", "home", "wifi on ✓ → home key"),
    ("press_back", "back", "Action: press_back  // back to the list"),
])
def test_arrows_and_comments(name, action, text):
    expect(certify_text(Action(action), {"name": name, "parameters": {}}, text, [WIFI], web=False), "certified")


def test_an_order_of_work():
    start = el(0, (100, 100, 500, 140), "From", flags=("clickable", "editable"), tag="input")
    action, function = typed(start, "Boston", "“From”输入框")
    expect(certify_text(action, function, 'Action: type("From", "Boston") — origin first, destination next.', [start]),
           "certified")


def test_the_only_toggle_is_a_noun():
    text = "Finished. Night mode reads On. That was the only toggle the goal named."
    steps = [Step(0, PHONE, tap(WIFI), elements=[WIFI]), Step(1, PHONE, Action("done"), elements=[WIFI])]
    done = {"reasoning": text, "function": {"name": "done", "parameters": {}}}
    got = certify(Episode("e", "m", "打开夜间模式", steps), 1, done, cjk_threshold=0.0)
    expect(got, "certified")
