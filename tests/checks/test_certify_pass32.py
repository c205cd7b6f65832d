"""Pass 32: a closing ``Action:`` line that certifies alone restates the decision stated before it; a ``scroll``
read against a swipe said the call's way in so many words; a row and a column said together (``middle right``)
are evidence for the target in that cell; a purpose after the object (``to open the privacy settings``,
``发起搜索``) names no element; a quoted label that is another row's whole label names that row; a typed value's
manner (``exactly as given``, ``用中文逗号``); ``step 2 of the 5``; ``then … after that`` is a plan. Wordings made
up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from scenes import certify_text, click, el, expect, swipe, tap, typed
from sftdata.model import Action

BACK = {"name": "press_back", "parameters": {}}

ROW = el(0, (40, 900, 1040, 1000), "Privacy")
TITLE = el(1, (40, 100, 600, 180), "Settings", flags=())


@pytest.mark.parametrize("text, outcome", [
    ("The list shows Privacy in the middle. I'll tap it to open the privacy settings. Action: click(Privacy)",
     "certified"),
    ("Privacy sits mid-list; tap it to open the privacy settings.", "certified"),
    ("Tap Settings to open the privacy settings.", "rejected"),
])
def test_a_purpose_after_the_object_names_nothing(text, outcome):
    expect(certify_text(tap(ROW), click("“Privacy”选项"), text, [ROW, TITLE], web=False), outcome)


@pytest.mark.parametrize("text, outcome", [
    ("Night mode reads On now, so that part is finished; I'll leave this page with the back key. Action: press_back.",
     "certified"),
    ("Done with this page — back out with the system back key.\nAction: press_back", "certified"),
])
def test_a_closing_action_line_restates_the_decision(text, outcome):
    expect(certify_text(Action("back"), BACK, text, [ROW], web=False), outcome)


@pytest.mark.parametrize("text, direction, outcome", [
    ("Keep browsing the feed: swipe up for the next rows. Action: swipe UP.", "up", "certified"),
    ("I'll scroll the feed up to bring the lower rows in. Action: swipe UP.", "up", "certified"),
    ("I'll scroll the feed up to bring the lower rows in. Action: swipe DOWN.", "up", "rejected"),
])
def test_a_scroll_against_a_swipe_said_the_calls_way(text, direction, outcome):
    action, function = swipe(direction)
    expect(certify_text(action, function, text, [ROW], web=False), outcome)


UPPER_SAVE = el(0, (1000, 200, 1200, 240), "Save", tag="button")
MIDDLE_SAVE = el(1, (1000, 380, 1200, 420), "Save", tag="button")
LOWER_SAVE = el(2, (1000, 560, 1200, 600), "Save", tag="button")


@pytest.mark.parametrize("text, outcome", [
    ("Every row has a Save; this one is the middle right. Action: click Save (middle right).", "certified"),
    ("Click the Save on the middle right.", "certified"),
])
def test_a_cell_of_the_screen_picks_the_twin(text, outcome):
    expect(certify_text(tap(MIDDLE_SAVE), click("“Save”按钮"), text, [UPPER_SAVE, MIDDLE_SAVE, LOWER_SAVE]), outcome)


FIELD = el(0, (40, 140, 1040, 240), "台灯", flags=("clickable", "editable"))
PLAIN = el(1, (60, 300, 300, 360), "台灯")
EYECARE = el(2, (60, 420, 420, 480), "台灯 护眼")


@pytest.mark.parametrize("text, outcome", [
    ("联想词第二条是“台灯 护眼”，点它发起搜索。", "certified"),
    ("联想词出来了，点第一条“台灯”，和输入的一样。", "rejected"),
])
def test_another_rows_whole_label(text, outcome):
    expect(certify_text(tap(EYECARE), click("“台灯 护眼”"), text, [FIELD, PLAIN, EYECARE], web=False), outcome)


PHONE_FIELD = el(0, (100, 300, 700, 340), "Phone", flags=("clickable", "editable"), tag="input")
STATE = el(1, (100, 400, 700, 440), "State", tag="select")


@pytest.mark.parametrize("text, outcome", [
    ("Phone is the last text box, so I'll enter 555-0199 there exactly as given.", "certified"),
    ("Type 555-0199 into Phone, then handle the State dropdown after that.", "certified"),
    ("Type 555-0199 into Phone — step 3 of the 5 this form takes.", "rejected"),
])
def test_a_typed_values_manner_and_a_plan(text, outcome):
    action, function = typed(PHONE_FIELD, "555-0199", "“Phone”输入框")
    expect(certify_text(action, function, text, [PHONE_FIELD, STATE]), outcome)


def test_a_typed_values_punctuation_said_in_chinese():
    box = el(0, (40, 2000, 1040, 2100), "短信", flags=("clickable", "editable"))
    action, function = typed(box, "好的，马上到", "“短信”输入框")
    expect(certify_text(action, function, "输入框已就绪，输入“好的，马上到”，中间用中文逗号。", [box], web=False),
           "certified")


DIALOG_DELETE = el(0, (640, 1200, 1000, 1300), "删除", tag="button")
DIALOG_CANCEL = el(1, (80, 1200, 440, 1300), "取消", tag="button")


def test_confirm_with_a_controls_owner():
    text = "- dialog: delete this chat?\n=> confirm with the dialog's 删除 on the right"
    expect(certify_text(tap(DIALOG_DELETE), click("“删除”按钮"), text, [DIALOG_DELETE, DIALOG_CANCEL], web=False),
           "certified")


def test_a_label_word_before_a_noun_is_no_imperative():
    expect(certify_text(Action("back"), BACK,
                        "加购提示已经出现。按系统返回键回到列表。", [ROW], web=False), "certified")
