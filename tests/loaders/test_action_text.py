import pytest

from sftdata.errors import RecordError
from sftdata.loaders.action_text import RawAction, parse_action


@pytest.mark.parametrize("text,expected", [
    ("CLICK [102,211]", RawAction("click", point=(102, 211))),
    ("click [ 102 , 211 ]", RawAction("click", point=(102, 211))),
    ("Click(102, 211)", RawAction("click", point=(102, 211))),
    ("CLICK [102，211]", RawAction("click", point=(102, 211))),
    ("CLICK", RawAction("click")),
    ("LONG PRESS [5,6]", RawAction("long_press", point=(5, 6))),
    ("long_press [5.5,6]", RawAction("long_press", point=(5.5, 6))),
    ("SWIPE [500,708] to [500,375]", RawAction("swipe", point=(500, 708), end=(500, 375))),
    ("swipe [500,708]->[500,375]", RawAction("swipe", point=(500, 708), end=(500, 375))),
    ("SWIPE UP", RawAction("swipe", direction="up")),
    ("SWIPE", RawAction("swipe")),
    ("INPUT 蓝牙耳机", RawAction("input", text="蓝牙耳机")),
    ("INPUT  \"hello  world\"", RawAction("input", text="hello  world")),
    ("input: 你好 世界", RawAction("input", text="你好 世界")),
    ("OPEN APP Zoho Meeting", RawAction("open_app", app="Zoho Meeting")),
    ("open_app 微信", RawAction("open_app", app="微信")),
    ("BACK", RawAction("back")), ("press home", RawAction("home")), ("Wait", RawAction("wait")),
    ("DONE", RawAction("done")), ("done.", RawAction("done")),
])
def test_text_forms(text, expected):
    assert parse_action(text) == expected


@pytest.mark.parametrize("obj,expected", [
    ({"type": "swipe", "start": [500, 708], "end": [500, 375]}, RawAction("swipe", point=(500, 708), end=(500, 375))),
    ({"type": "click", "point": [1, 2]}, RawAction("click", point=(1, 2))),
    ({"type": "click", "x": 1, "y": 2}, RawAction("click", point=(1, 2))),
    ({"type": "input", "text": "abc"}, RawAction("input", text="abc")),
    ({"type": "open_app", "app_name": "Maps"}, RawAction("open_app", app="Maps")),
    ({"type": "done"}, RawAction("done")),
])
def test_json_objects(obj, expected):
    assert parse_action(obj) == expected


@pytest.mark.parametrize("bad", [
    "JUMP [1,2]", "CLICK [1,2] [3,4]", "CLICK somewhere", "DONE now", "OPEN APP", "SWIPE [1,2]", "scroll down",
    "", None, 42, "INPUT", "INPUT   ", "INPUT \"\"", "INPUT：", {"type": "fly"}, {"type": "input"}, {"type": "swipe", "start": [1, 2]},
])
def test_bad_actions_name_the_problem(bad):
    with pytest.raises(RecordError) as err:
        parse_action(bad)
    assert err.value.reason == "bad_action"


@pytest.mark.parametrize("bad", [{"type": "click", "point": "1,2"}, "CLICK [1e9,5]", "CLICK [500,500,700]"])
def test_bad_coordinates_name_the_problem(bad):
    with pytest.raises(RecordError) as err:
        parse_action(bad)
    assert err.value.reason == "bad_coordinates"
