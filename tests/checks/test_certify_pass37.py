"""Pass 37: what earlier steps did, said after the decision (``列表已经滚过了``, ``Everything is set``, ``The toggle was
switched earlier``), describes how the screen got here when the episode's history holds it: an earlier action of
the kind the claim names, on what it names, while this step's action is not of that kind. Wordings made up here,
unlike the labelled parts'."""
from __future__ import annotations

import pytest

from sftdata.model import Action

from scenes import certify_text, click, el, swipe, tap, typed

DISPLAY = el(0, (40, 300, 1040, 380), "Display")
SOUND = el(1, (40, 400, 1040, 480), "Sound")
LIST = [DISPLAY, SOUND]


def tap_display(text: str, before=()) -> str:
    return certify_text(tap(DISPLAY), click("“Display”选项"), text, LIST, web=False, goal="Open the display settings",
                        before=before).outcome


@pytest.mark.parametrize("text", [
    "Tap Display. I have already scrolled the settings list once; Sound is there too.",
    "点 Display。设置列表已经滚过了，Sound 也在。",
    "点 Display。列表已经翻过一屏了。",
])
def test_a_swipe_the_history_holds_is_how_the_screen_got_here(text):
    assert tap_display(text, before=[swipe("up")[0]]) == "certified"


@pytest.mark.parametrize("text", [
    "Tap Display. I have already scrolled the settings list once; Sound is there too.",
    "点 Display。设置列表已经滚过了，Sound 也在。",
    "点 Display。列表已经翻过一屏了。",
])
def test_a_swipe_the_history_lacks_is_no_description(text):
    assert tap_display(text, before=[tap(SOUND)]) != "certified"


def test_the_swipe_this_step_makes_is_no_earlier_one():
    action, function = swipe("up")
    text = "向上滑。列表已经滚过一屏，Display 露出来了。"
    assert certify_text(action, function, text, LIST, web=False, before=[swipe("up")[0]]).outcome != "certified"


PLACE = el(0, (40, 100, 600, 160), "Destination", flags=("clickable", "editable"))
DATE = el(1, (640, 100, 900, 160), "Date", flags=("clickable", "editable"))
SEARCH = el(2, (920, 100, 1040, 160), "Search")
FORM = [PLACE, DATE, SEARCH]


@pytest.mark.parametrize("text", [
    "Click Search. Everything is set: Lisbon and 06/06.",
    "点 Search。表单都填好了：Lisbon，06/06。",
])
def test_every_field_set_by_earlier_typing(text):
    before = [typed(PLACE, "Lisbon", "“Destination”")[0], typed(DATE, "06/06", "“Date”")[0]]
    assert certify_text(tap(SEARCH), click("“Search”按钮"), text, FORM, before=before).outcome == "certified"


def test_every_field_set_by_this_steps_typing_is_its_result():
    action, function = typed(DATE, "06/06", "“Date”")
    text = "Type 06/06 into Date. Everything is set then."
    before = [typed(PLACE, "Lisbon", "“Destination”")[0]]
    assert certify_text(action, function, text, FORM, before=before).outcome != "certified"


GUESTS = el(3, (40, 200, 300, 260), "1", tag="select", attrs=(("aria-label", "Guests"),))


def pick_guests(text: str, value: str = "3") -> str:
    function = {"name": "select", "parameters": {"value": value, "target_element": "“Guests”元素"}}
    return certify_text(Action("select", text=value, element=GUESTS, point=GUESTS.center), function, text,
                        FORM + [GUESTS]).outcome


@pytest.mark.parametrize("text, outcome", [
    ("在 Guests 下拉里选 3。", "certified"),
    ("在 Guests 下拉里选 2。", "rejected"),  # a number after 选 is the value picked
    ("Pick 3 in Guests. Guests still shows the default 1.", "certified"),
    ("Pick 3 in Guests. Guests still shows the default 2.", "unsure"),
])
def test_a_picked_number_and_a_default_value(text, outcome):
    assert pick_guests(text) == outcome


def test_a_list_still_the_default_is_the_first_screens():
    before = [typed(PLACE, "Lisbon", "“Destination”")[0]]
    text = "Click Search. Destination holds Lisbon; the list below is still the default one."
    assert certify_text(tap(SEARCH), click("“Search”按钮"), text, FORM, before=before).outcome == "certified"



AGREE = el(4, (40, 300, 600, 360), "I agree to the terms", flags=("clickable", "checkable"))


@pytest.mark.parametrize("text", [
    "勾选 I agree to the terms。表单都填好了。勾上之后 Search 就能点了。",  # pass 38: the tick told as done
    "Tick I agree to the terms. Doing it again brings Search into reach.",
])
def test_a_clause_opening_on_this_steps_action_as_done_tells_its_outcome(text):
    before = [typed(PLACE, "Lisbon", "“Destination”")[0]]
    assert certify_text(tap(AGREE), click("“I agree to the terms”复选框"), text, FORM + [AGREE],
                        before=before).outcome != "certified"


@pytest.mark.parametrize("text", [
    "Type 06/06 into Date. Destination reads Lisbon from the step before; the Date box is still blank.",
    "在 Date 里输入 06/06。Destination 上一步已经填上 Lisbon，Date 框还是空的。",
])
def test_a_field_said_still_empty_is_one_the_screen_shows_empty(text):
    place = el(0, (40, 100, 600, 160), desc="Destination", flags=("clickable", "editable"))
    date = el(1, (640, 100, 900, 160), desc="Date", flags=("clickable", "editable"))  # no text of its own: empty
    action, function = typed(date, "06/06", "“Date”输入框")
    before = [typed(place, "Lisbon", "“Destination”")[0]]
    assert certify_text(action, function, text, [place, date, SEARCH], before=before).outcome == "certified"


THREAD = el(0, (40, 300, 1040, 400), "Project Team")
DELETE = el(1, (900, 100, 1040, 180), "删除")
GALLERY = el(2, (100, 1500, 300, 1700), "相册")


def delete_thread(text: str, index: int) -> str:
    """Certify ``text`` for step ``index`` of: long-press the thread; tap 删除; done."""
    from scenes import PHONE
    from sftdata.checks.certify import certify
    from sftdata.model import Episode, Step
    screen = [THREAD, DELETE, GALLERY]
    steps = [Step(0, PHONE, Action("long_press", element=THREAD, point=THREAD.center), elements=screen),
             Step(1, PHONE, tap(DELETE), elements=screen),
             Step(2, PHONE, Action("done"), elements=screen)]
    function = [{"name": "long_press", "parameters": {"target_element": "“Project Team”"}}, click("“删除”按钮"),
                {"name": "done", "parameters": {}}][index]
    episode = Episode("e", "m", "删除 Project Team 的对话", steps)
    return certify(episode, index, {"reasoning": text, "function": function}, cjk_threshold=0.0).outcome


@pytest.mark.parametrize("text, index", [
    ("Tap 删除 at the top right. My long-press switched the list into selection mode.", 1),  # pass 39
    ("Finished. Before that I long-pressed Project Team and confirmed 删除 for it.", 2),
])
def test_an_earlier_action_told_in_passing_is_no_contradiction(text, index):
    assert delete_thread(text, index) != "rejected"


def test_a_decision_beside_a_past_mark_is_still_read():
    assert delete_thread("任务完成了吗？再打开相册确认一下刚才删掉的对话。", 2) == "rejected"
