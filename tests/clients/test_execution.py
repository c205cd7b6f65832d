"""The comparison of what a client's executor did with the recorded step (execution.py), on hand-built steps:
it accepts what the step did and catches the ways a client does something else (needs no client installed)."""
from __future__ import annotations

import pytest

from execution import differs
from sftdata.formats import StepContext
from sftdata.model import Action, Element, Episode, Screenshot, Step

SHOT = Screenshot("0" * 64, "x.png", 1080, 2400)
_V = ("visible", "enabled")
LIST = Element(0, (0, 200, 1080, 2000), class_name="androidx.recyclerview.widget.RecyclerView", flags=("scrollable",) + _V)
ROW = Element(1, (0, 300, 1080, 500), class_name="android.widget.LinearLayout", flags=("clickable",) + _V)
STAR = Element(2, (440, 300, 640, 500), desc="Star", class_name="android.widget.ImageButton", flags=("clickable",) + _V)
STRIP = Element(3, (0, 1500, 1080, 1700), class_name="android.widget.HorizontalScrollView", flags=("scrollable",) + _V)
FIELD = Element(4, (40, 2100, 1040, 2200), hint="Message", class_name="android.widget.EditText",
                flags=("clickable", "editable") + _V)
PHONE = [LIST, ROW, STAR, STRIP, FIELD]
LINK = Element(0, (100, 100, 300, 140), text="Cart", tag="a", flags=("clickable", "visible"))
BOX = Element(1, (400, 100, 900, 140), hint="Search", tag="input", flags=("clickable", "editable", "visible"))
SPAN = Element(2, (410, 105, 480, 135), text="Search", tag="span", flags=("visible",))


def _ctx(action: Action, web: bool = False) -> StepContext:
    elements = [LINK, BOX, SPAN] if web else PHONE
    url = "https://shop.example" if web else None
    steps = [Step(0, SHOT, Action("back"), elements=elements, url=url), Step(1, SHOT, action, elements=elements, url=url)]
    return StepContext(Episode("e", "sample", "g", steps, platform="web" if web else "mobile"), 1)


@pytest.mark.parametrize("action,ops", [
    (Action("click", point=(100, 400), element=ROW), [{"op": "tap", "point": [900, 450]}]),
    (Action("click", point=(500, 400), element=STAR), [{"op": "tap", "point": [540, 400]}]),
    (Action("long_press", point=(100, 400), element=ROW), [{"op": "long_press", "point": [100, 400]}]),
    (Action("swipe", point=(540, 1900), end=(540, 900)), [{"op": "swipe", "start": [540, 1900], "end": [540, 1700]}]),
    (Action("swipe", point=(900, 1600), end=(200, 1600)), [{"op": "swipe", "start": [540, 1600], "end": [324, 1600]}]),
    (Action("swipe", direction="up"), [{"op": "swipe", "start": [540, 1800], "end": [540, 1560]}]),
    (Action("input", text="hi"), [{"op": "tap", "point": [540, 2150]}, {"op": "clear"}, {"op": "type", "text": "hi"}]),
    (Action("input", text="hi"), [{"op": "clear"}, {"op": "type", "text": "hi"}, {"op": "key", "key": "enter"}]),
    (Action("back"), [{"op": "key", "key": "back"}]),
    (Action("open_app", app="Settings"), [{"op": "launch", "app": "Settings"}]),
    (Action("done"), [{"op": "done", "text": "Task completed.", "success": True}]),
])
def test_what_the_step_did_is_executed_as_recorded(action, ops):
    assert differs(_ctx(action), ops) is None


@pytest.mark.parametrize("action,ops", [
    # the row's centre is covered by the star button: a tap there stars instead of opening the row
    (Action("click", point=(100, 400), element=ROW), [{"op": "tap", "point": [540, 400]}]),
    (Action("click", point=(100, 400), element=ROW), [{"op": "long_press", "point": [100, 400]}]),
    # app-use 0.0.3: a sideways swipe becomes a zero-height "down" gesture; Home is typed as text
    (Action("swipe", point=(900, 1600), end=(200, 1600)), [{"op": "swipe", "start": [550, 1600], "end": [550, 1600]}]),
    (Action("swipe", point=(540, 1900), end=(540, 900)), [{"op": "swipe", "start": [540, 900], "end": [540, 1100]}]),
    # a horizontal strip swiped from the centre of the whole list moves the list, not the strip
    (Action("swipe", point=(900, 1600), end=(200, 1600)), [{"op": "swipe", "start": [540, 1100], "end": [324, 1100]}]),
    (Action("home"), [{"op": "type", "text": "home"}]),
    (Action("input", text="hi"), [{"op": "tap", "point": [540, 400]}, {"op": "type", "text": "hi"}]),
    (Action("input", text="hi"), [{"op": "type", "text": "h"}]),
    (Action("back"), [{"op": "key", "key": "back"}, {"op": "key", "key": "back"}]),
    (Action("done", text="3 items"), [{"op": "done", "text": "Task completed.", "success": True}]),
    (Action("back"), [{"op": "error", "error": "Failed to send keys"}]),
])
def test_a_client_doing_something_else_is_caught(action, ops):
    assert differs(_ctx(action), ops) is not None


@pytest.mark.parametrize("action,op,same", [
    (Action("click", point=(200, 120), element=LINK), {"op": "click", "index": 0}, True),
    (Action("click", point=(200, 120), element=LINK), {"op": "click", "index": 1}, False),
    (Action("type", text="mug", point=(450, 120), element=SPAN), {"op": "input", "index": 1, "text": "mug"}, False),
    (Action("type", text="mug", point=(650, 120), element=BOX), {"op": "input", "index": 1, "text": "mug"}, True),
    (Action("type", text="mug", point=(650, 120), element=BOX), {"op": "input", "index": 1, "text": "mugs"}, False),
    (Action("scroll", direction="down"), {"op": "scroll", "direction": "down"}, True),
    (Action("scroll", direction="down"), {"op": "scroll", "direction": "up"}, False),
    (Action("go_to_url", url="https://a.example/"), {"op": "goto", "url": "https://a.example/"}, True),
    (Action("new_tab", url="https://a.example/"), {"op": "goto", "url": "https://a.example/"}, False),
    (Action("back"), {"op": "back"}, True),
])
def test_page_actions_address_the_recorded_element(action, op, same):
    assert (differs(_ctx(action, web=True), [op]) is None) == same
