"""Pass 31: a sentence after the decision's that opens by saying the screen as it is now (``当前是搜索页``, ``Current
view: …``, ``The inbox list shows …``, ``姓名、邮箱都已填好``) describes, and tells no outcome, unless it ends as a change
done (``…了``) or speaks of a page the action opens (``The detail page shows …``). Wordings made up here, unlike the
labelled parts'."""
from __future__ import annotations

import pytest

from scenes import certify_text, click, el, expect, tap

FIELD = el(0, (40, 100, 1040, 180), "搜索栏", flags=("clickable", "editable"))
HISTORY = el(1, (40, 220, 400, 280), "台灯")


@pytest.mark.parametrize("text, outcome", [
    ("点顶部的搜索栏。当前是商城首页，历史里有台灯，但还是按关键词搜。", "certified"),
    ("Tap the 搜索栏 at the top. Current view: the 商城 home with a 台灯 in the history row.", "certified"),
    ("点顶部的搜索栏。键盘已经弹出来了。", "rejected"),
])
def test_the_screen_as_it_is_after_the_decision(text, outcome):
    expect(certify_text(tap(FIELD), click("“搜索栏”输入框"), text, [FIELD, HISTORY], web=False), outcome)


SUBMIT = el(0, (900, 700, 1100, 740), "Submit order", tag="button")
NAME = el(1, (100, 100, 600, 140), "Lin Tao", flags=("clickable", "editable"), tag="input")


@pytest.mark.parametrize("text, outcome", [
    ("点 Submit order。姓名和地址都已填好，条款也勾上了，只差提交。", "certified"),
    ("Click Submit order. The form shows Lin Tao in the name field, nothing else left to fill.", "certified"),
])
def test_what_earlier_steps_left(text, outcome):
    expect(certify_text(tap(SUBMIT), click("“Submit order”按钮"), text, [SUBMIT, NAME]), outcome)


def test_a_page_the_action_opens_is_still_an_outcome():
    text = "Click Submit order. The confirmation page shows order #4411 and a delivery date."
    assert certify_text(tap(SUBMIT), click("“Submit order”按钮"), text, [SUBMIT, NAME]).outcome != "certified"
