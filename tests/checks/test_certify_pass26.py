"""Pass 26: ``里面 …`` after opening something tells its inside (the next screen); a label holding ``Not`` is no
contrast; ``its subtitle`` / ``它的说明`` describe the target; ``列表滚到底了`` is where the list is, not a swipe;
``就行`` after a typed value is no part of it. Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from scenes import certify_text, click, expect, tap
from sftdata.model import Action, Element


def _el(i: int, box: tuple[int, int, int, int], text: str = "", **kw) -> Element:
    return Element(i, box, text=text, flags=("visible",) + kw.pop("flags", ("clickable",)), **kw)


ROW = _el(0, (0, 800, 1080, 900), "Notifications")
SUB = _el(1, (40, 900, 1000, 950), "App alerts, Do Not Disturb", flags=())


@pytest.mark.parametrize("text, outcome", [
    ("点进 Notifications，里面 Do Not Disturb 现在是 Off。", "unsure"),
    ("Tap Notifications — its subtitle mentions Do Not Disturb.", "certified"),
    ("点 Notifications，它的说明里写着 Do Not Disturb。", "certified"),
])
def test_pass_26_rows(text, outcome):
    expect(certify_text(tap(ROW), click("“Notifications”选项"), text, [ROW, SUB], web=False), outcome)


NEXT = _el(0, (580, 678, 700, 711), "Next page", tag="a")


def test_a_list_at_its_end_is_no_swipe():
    expect(certify_text(tap(NEXT), click("“Next page”链接"), "列表滚到底了，点下面的 Next page 翻页。", [NEXT]),
           "certified")


FIELD = _el(0, (100, 100, 600, 150), hint="Keyword", flags=("clickable", "editable"), tag="input")


@pytest.mark.parametrize("text, outcome", [
    ("在 Keyword 里输入 nurse 就行，别的等会儿再说。", "certified"),
    ("在 Keyword 里输入 nurses 就行。", "rejected"),
])
def test_enough_after_a_typed_value(text, outcome):
    typed = Action("type", text="nurse", element=FIELD, point=FIELD.center)
    call = {"name": "type", "parameters": {"text": "nurse", "target_element": "“Keyword”输入框"}}
    expect(certify_text(typed, call, text, [FIELD]), outcome)
