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
