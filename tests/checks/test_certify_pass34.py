"""Pass 34: a state said after the decision (``Bluetooth is Off right now``, ``搜索框里已经是 Lisbon 了``, ``Project Team
已经被选中``) describes the screen as it is when the current screen shows it: the row named shows that on/off value now,
what is said to be open or selected is named by the screen's texts, a field holds what an earlier step typed; it
tells a result when the screen shows another value, when it is said of the acted-on element, or when it is the value
the call types. Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from scenes import certify_text, click, el, tap, typed

WIFI = el(0, (40, 200, 1040, 280), "Wi-Fi")
WIFI_STATE = el(1, (40, 280, 1040, 330), "Connected to HomeNet", flags=())
BLUETOOTH = el(2, (40, 360, 1040, 440), "Bluetooth")
BLUETOOTH_STATE = el(3, (40, 440, 1040, 490), "Off", flags=())
AIRPLANE = el(4, (40, 520, 1040, 600), "Airplane mode")
AIRPLANE_STATE = el(5, (40, 600, 1040, 650), "Off", flags=())
SETTINGS = [WIFI, WIFI_STATE, BLUETOOTH, BLUETOOTH_STATE, AIRPLANE, AIRPLANE_STATE]


def tap_airplane(text: str) -> str:
    return certify_text(tap(AIRPLANE), click("“Airplane mode”选项"), text, SETTINGS, web=False,
                        goal="Turn on airplane mode").outcome


@pytest.mark.parametrize("text", [
    "Tap the Airplane mode row. Bluetooth is Off right now, and Wi-Fi is connected to HomeNet.",
    "点 Airplane mode 这一行。现在 Bluetooth 是 Off，Wi-Fi 已经连着 HomeNet。",
])
def test_a_state_the_current_screen_shows_is_a_description(text):
    assert tap_airplane(text) == "certified"


@pytest.mark.parametrize("text", [
    "Tap the Airplane mode row. Bluetooth is now On.",  # the screen shows Off
    "点 Airplane mode 这一行。Bluetooth 现在是开启的。",
    "Tap the Airplane mode row. Airplane mode reads On, Wi-Fi is connected.",  # the acted-on row: the tap's result
    "Tap the Airplane mode row. Airplane mode is now On, Bluetooth Off.",
])
def test_a_state_the_screen_does_not_show_is_no_description(text):
    assert tap_airplane(text) != "certified"


BOX = el(0, (40, 100, 900, 160), "Destination", flags=("clickable", "editable"))
SEARCH = el(1, (920, 100, 1040, 160), "Search")


def search_after_typing(text: str) -> str:
    """Certify ``text`` for clicking Search once an earlier step typed Lisbon into the box (whose tree keeps no
    value, as a web page's does not)."""
    typing, _ = typed(BOX, "Lisbon", "“Destination”")
    return certify_text(tap(SEARCH), click("“Search”按钮"), text, [BOX, SEARCH], before=[typing]).outcome


@pytest.mark.parametrize("text", [
    "Click Search. Lisbon is already in the Destination box.",
    "点 Search。搜索框里已经是 Lisbon 了。",
])
def test_a_field_holds_what_an_earlier_step_typed(text):
    assert search_after_typing(text) == "certified"


@pytest.mark.parametrize("text", [
    "Type Lisbon into Destination. Destination already shows Lisbon.",
    "在 Destination 里输入 Lisbon。输完框里显示 Lisbon。",
])
def test_the_value_the_call_types_is_no_description(text):
    action, function = typed(BOX, "Lisbon", "“Destination”")
    assert certify_text(action, function, text, [BOX, SEARCH]).outcome != "certified"


ROW = el(0, (40, 300, 1040, 400), "Project Team")
PROMPT = el(1, (100, 1000, 980, 1100), "删除此对话？", flags=())
CANCEL = el(2, (100, 1200, 500, 1300), "取消")
CONFIRM = el(3, (580, 1200, 980, 1300), "删除")


def dialog_steps(text: str, index: int) -> str:
    """Certify ``text`` for step ``index`` of: long-press the row; confirm in the dialog that opened; done."""
    from scenes import PHONE
    from sftdata.checks.certify import certify
    from sftdata.model import Action, Episode, Step
    steps = [Step(0, PHONE, Action("long_press", element=ROW, point=ROW.center), elements=[ROW]),
             Step(1, PHONE, tap(CONFIRM), elements=[ROW, PROMPT, CANCEL, CONFIRM]),
             Step(2, PHONE, Action("done"), elements=[])]
    function = click("“删除”按钮") if index else {"name": "long_press", "parameters": {"target_element": "“Project Team”"}}
    episode = Episode("e", "m", "删除 Project Team 的对话", steps)
    return certify(episode, index, {"reasoning": text, "function": function}, cjk_threshold=0.0).outcome


def test_the_previous_steps_result_shown_now_is_a_description():
    text = "点对话框里的删除。屏幕中间弹出了确认框：删除此对话？下面是取消和删除两个按钮。"
    assert dialog_steps(text, 1) == "certified"


def test_what_the_action_brings_is_no_previous_result():
    assert dialog_steps("长按 Project Team 这一行。屏幕中间弹出了确认框：删除此对话？", 0) != "certified"


@pytest.mark.parametrize("text", [
    "点对话框里的删除。点完之后对话框消失，Project Team 那一行也没了。",
    "Tap 删除 in the dialog. After tapping it the list comes up without Project Team.",
])
def test_a_clause_that_opens_on_the_action_as_done_tells_its_outcome(text):
    assert dialog_steps(text, 1) != "certified"


CHECK_IN = el(2, (40, 200, 500, 260), desc="Check-in", flags=("clickable", "editable"))
CHECK_OUT = el(3, (540, 200, 1000, 260), desc="Check-out", flags=("clickable", "editable"))


def test_a_field_said_empty_is_checked_against_what_was_typed():
    earlier, _ = typed(CHECK_IN, "06/02", "“Check-in”输入框")
    action, function = typed(CHECK_OUT, "06/06", "“Check-out”输入框")
    text = "Type 06/06 into Check-out. Check-in reads 06/02 and the Check-out box is empty."
    assert certify_text(action, function, text, [CHECK_IN, CHECK_OUT], before=[earlier]).outcome == "certified"


@pytest.mark.parametrize("text, outcome", [
    ("Tap the Airplane mode row. Wi-Fi is connected to HomeNet and Bluetooth is still Off.", "certified"),
    ("Tap the Airplane mode row. Wi-Fi is connected to HomeNet and Bluetooth is still On.", "unsure"),
])
def test_a_value_said_still_held_is_checked_against_the_row(text, outcome):
    assert tap_airplane(text) == outcome
