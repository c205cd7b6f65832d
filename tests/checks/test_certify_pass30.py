"""Pass 30: a value said to be held with no decision (``the box shows Lisbon``) tells the typing done; a name line
that names another card's number is no evidence; an arrow that points at nothing, or at the field, says no
outcome, while one that points at what scrolls into view does; ``选择模式`` is a mode, ``接着回复 X：点 …`` a plan,
``点它，接下来输入 …`` a later step. Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from scenes import certify_text, click, el, expect, one_step, swipe, tap, typed
from sftdata.model import Action

CITY = el(0, (100, 100, 600, 150), hint="Where to?", flags=("clickable", "editable"), tag="input")


@pytest.mark.parametrize("text, outcome", [
    ("Destination done — the box shows Porto.", "unsure"),
    ("type('Porto') → the 'Where to?' box, top left", "certified"),
])
def test_a_value_held_or_pointed_at(text, outcome):
    expect(certify_text(*typed(CITY, "Porto", "“Where to?”输入框"), text, [CITY]), outcome)


SAVES = [el(i, (1080, 60 + 160 * i, 1200, 100 + 160 * i), "Save recipe", tag="button") for i in range(4)]
TITLES = [el(4 + i, (100, 60 + 160 * i, 600, 100 + 160 * i), f"Green recipe fresh #{31 + i}", tag="a") for i in range(4)]


def test_a_name_line_of_another_cards_number():
    got = certify_text(tap(SAVES[1]), click("“Save recipe”按钮"), "Save recipe on the #33 Green recipe fresh row.",
                       SAVES + TITLES)
    assert got.outcome != "certified", got.evidence


SEARCH = el(0, (200, 100, 880, 180), "搜索栏", flags=("clickable", "editable"))


@pytest.mark.parametrize("text", ["点顶部的搜索栏 →", "搜索栏在最上面。点它，接下来输入“台灯”。"])
def test_an_arrow_to_nothing_and_a_later_typing(text):
    expect(certify_text(tap(SEARCH), click("“搜索栏”输入框"), text, [SEARCH], web=False), "certified")


def test_an_arrow_to_what_scrolls_into_view():
    row = el(0, (0, 300, 1080, 400), "台灯 Pro ¥199")
    got = one_step(*swipe("up"), "swipe up -> 台灯 Pro ¥199 and 台灯 Mini ¥99 scroll into view", "找一盏台灯", [row])
    assert got.outcome != "certified", got.evidence


AVATAR = el(0, (40, 600, 200, 760), "李雷 的头像")
ROW = el(1, (220, 600, 1040, 760), "李雷")


def test_selection_mode_is_no_tap():
    text = "→ 长按李雷那一行左边的头像，进入选择模式"
    got = one_step(Action("long_press", element=AVATAR, point=AVATAR.center),
                   {"name": "long_press", "parameters": {"target_element": "“李雷 的头像”"}}, text, "删除和李雷的对话",
                   [AVATAR, ROW])
    expect(got, "certified")


def test_a_plan_after_a_colon_is_no_outcome():
    text = "张伟那条已经删掉了，这一半做完。接着回复李雷：点他那一行左边的头像打开对话。"
    expect(certify_text(tap(AVATAR), click("“李雷 的头像”"), text, [AVATAR, ROW], web=False), "certified")
