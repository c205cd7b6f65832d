"""Pass 41: the situation told first and the decision last. What is open now (``现在打开的是…``), verbs listed and
told done together (``上滑下滑都翻过了``), an action as the subject of what it did (``Opening the menu revealed …``),
a purpose that names the next photo, a swipe back to the previous photo, a value followed by the field it goes into,
and a page turned by a click. Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from sftdata.checks.certify import certify
from sftdata.checks.decision import stated_decision
from sftdata.checks.hindsight import find_hindsight
from sftdata.model import Action, Episode, Step

from scenes import PHONE, certify_text, click, el, swipe, tap, typed

SHARE = el(0, (40, 2200, 300, 2300), "分享")
DELETE = el(1, (780, 2200, 1040, 2300), "删除")
VIEWER = [SHARE, DELETE]


@pytest.mark.parametrize("text, verb", [
    ("现在打开的是相册里一张照片的大图，底部有分享和删除。点分享。", "click"),
    ("当前打开的页面是设置首页，列表里有 Display。点 Display。", "click"),
    ("要打开的是设置，所以启动设置。", "open"),  # what is to be opened: still a decision
])
def test_what_is_open_now_is_no_decision_to_open(text, verb):
    assert stated_decision(text).verb == verb


def test_what_is_open_now_before_the_decision_certifies():
    text = "现在打开的是相册里一张照片的大图，底部有分享和删除两个按钮。要把它发出去，点分享。"
    assert certify_text(tap(SHARE), click("“分享”按钮"), text, VIEWER, web=False).outcome == "certified"


@pytest.mark.parametrize("text", [
    "Swipe left once more to get to the next image.",
    "One more swipe to the left, to reach the next image.",
])
def test_the_next_image_as_a_purpose_is_no_hindsight(text):
    assert find_hindsight(text) == []


def test_the_next_image_told_as_fact_is_still_hindsight():
    assert find_hindsight("Swipe left; the next image is a beach at sunset.") != []


@pytest.mark.parametrize("text", [
    "刚才那张没看清，手指向右划，返回上一张再看一眼。",
    "I skimmed the last one too fast: swipe right, go back to the previous photo.",
])
def test_back_to_the_previous_photo_after_a_swipe_is_that_swipe(text):
    action, function = swipe("right")
    assert certify_text(action, function, text, VIEWER, web=False).outcome == "certified"


def test_back_to_the_previous_page_is_still_the_back_key():
    decision = stated_decision("这一页不对，返回上一页。")
    assert decision.verb == "back"


WHERE = el(0, (40, 100, 600, 160), "Where", flags=("clickable", "editable"))
WHEN = el(1, (640, 100, 900, 160), "When", flags=("clickable", "editable"))
FORM = [WHERE, WHEN]


def test_a_value_then_the_box_it_goes_into():
    action, function = typed(WHERE, "Porto", "“Where”输入框")
    text = "Where is still empty, When too. Fill in the destination: Porto into the Where box."
    assert certify_text(action, function, text, FORM).outcome == "certified"


def test_a_longer_value_before_the_box_still_contradicts():
    action, function = typed(WHERE, "Porto", "“Where”输入框")
    text = "Fill in the destination: Porto Alegre into the Where box."
    assert certify_text(action, function, text, FORM).outcome == "rejected"


def test_verbs_listed_and_told_done_together_are_history():
    steps = [Step(0, PHONE, Action("swipe", direction="up")), Step(1, PHONE, Action("swipe", direction="down")),
             Step(2, PHONE, Action("done"))]
    episode = Episode("e", "m", "在相册里上下翻看照片", steps)
    item = {"reasoning": "相册开着，上滑下滑都翻过了，要看的都看了，任务完成。", "function": {"name": "done", "parameters": {}}}
    assert certify(episode, 2, item, cjk_threshold=0.0).outcome == "certified"


NEXT = el(0, (600, 700, 760, 740), "Next page", tag="a")
ROWS = [el(1, (40, 200, 900, 240), "Cosy flat #11", tag="a"), NEXT]


def test_a_page_turned_by_a_click():
    text = "这一页的房源都看过了，Next page 链接在底部。剩下的就是翻页，点 Next page。"
    assert certify_text(tap(NEXT), click("“Next page”链接"), text, ROWS).outcome == "certified"


MENU = el(0, (40, 100, 200, 160), "Menu")
SETTINGS = el(1, (40, 300, 600, 360), "Settings")


def test_an_action_as_the_subject_of_what_it_did_is_history():
    text = "Opening the menu revealed a short list: back arrow at the top, Help, then Settings. Tap Settings."
    got = certify_text(tap(SETTINGS), click("“Settings”选项"), text, [MENU, SETTINGS, el(2, (40, 200, 600, 260), "Help")],
                       before=[tap(MENU)])
    assert got.outcome == "certified", got.reasons


NAME = el(0, (40, 100, 600, 160), "Name", flags=("clickable", "editable"))
PHONE_NO = el(2, (40, 200, 600, 260), "Phone", flags=("clickable", "editable"))
AGREE = el(1, (40, 300, 600, 360), "I accept the terms", flags=("clickable", "checkable"))
BOOKING = [NAME, PHONE_NO, AGREE]


def test_every_field_in_place_and_a_checkbox_not_yet_ticked_describe_the_form():
    before = [typed(NAME, "Ada", "“Name”")[0], typed(PHONE_NO, "555-0101", "“Phone”")[0]]
    text = "勾选“I accept the terms”。姓名和电话都已就位，复选框还没勾，提交前要先同意。"
    got = certify_text(tap(AGREE), click("“I accept the terms”复选框"), text, BOOKING, before=before)
    assert got.outcome == "certified", got.reasons


def test_a_search_result_noun_is_no_sequel():
    assert find_hindsight("点第三条。搜索结果现在列出五条，第三条在中间。") == []
    assert find_hindsight("点了搜索，结果弹出了登录框。") != []


PHOTO = el(0, (40, 300, 360, 620), "照片，5月3日 09:12")


def test_an_app_that_just_opened_on_its_first_page_is_history():
    text = "Open the 09:12 shot from May 3. The album just opened on All photos; that thumbnail is the first one."
    got = certify_text(tap(PHOTO), click("“照片，5月3日 09:12”"), text, [PHOTO, el(1, (0, 0, 1080, 80), "All photos")],
                       web=False, before=[tap(el(2, (40, 900, 200, 1000), "相册"))])
    assert got.outcome == "certified", got.reasons


def test_a_change_told_with_the_earlier_click_that_made_it_is_no_hindsight():
    first = el(0, (40, 200, 900, 240), "Lemon cake #7", tag="a")
    save = el(1, (1000, 200, 1200, 240), "Save")
    text = "Click Save on the #7 row. The list jumped when I clicked #7, so the row sits at the top."
    got = certify_text(tap(save), click("“Save”按钮"), text, [first, save], before=[tap(first)])
    assert got.outcome != "rejected", got.reasons


def test_a_row_brought_by_the_scroll_before_is_no_decision_to_scroll():
    decision = stated_decision("Battery is now in the middle after the scroll — tap it.")
    assert decision.verb == "click"


def test_past_actions_listed_after_their_doer_are_history():
    draft, delete, ok = el(0, (40, 300, 1040, 400), "Draft"), el(1, (800, 80, 1040, 160), "Delete"), el(2, (600, 1300, 900, 1400), "OK")
    steps = [Step(0, PHONE, Action("long_press", element=draft, point=draft.center), elements=[draft, delete, ok]),
             Step(1, PHONE, Action("click", element=delete, point=delete.center), elements=[draft, delete, ok]),
             Step(2, PHONE, Action("click", element=ok, point=ok.center), elements=[draft, delete, ok]),
             Step(3, PHONE, Action("done"), elements=[delete])]
    episode = Episode("e", "m", "Delete the draft", steps)
    text = "Finished. The list has no Draft row any more. Before that I long-pressed Draft, hit Delete and confirmed it."
    item = {"reasoning": text, "function": {"name": "done", "parameters": {}}}
    assert certify(episode, 3, item, cjk_threshold=0.0).outcome != "rejected"
