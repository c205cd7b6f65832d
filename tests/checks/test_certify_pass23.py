"""Pass 23: a rival control weighs with its own card (``the 华为 one at ¥39`` when two cards cost ¥39); a role its card
has but the target has not (``its title link`` for an Apply button); ``stays the same afterwards``; ``到第八步就结束``;
``往下一拉``; ``这个应用``; action objects with Chinese keys, ``fill``/``select_option``, ``# comments`` and a call
after a colon; a swipe away from where the text says the thing is. Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from scenes import WEB, PHONE, certify_text, click, expect, tap
from sftdata.checks.certify import Certification, certify
from sftdata.model import Action, Element, Episode, Step


def _el(i: int, box: tuple[int, int, int, int], text: str = "", **kw) -> Element:
    return Element(i, box, text=text, flags=("visible",) + kw.pop("flags", ("clickable",)), **kw)


def _card(i: int, top: int, brand: str, price: str) -> list[Element]:
    return [_el(i, (36, top, 276, top + 250), desc=f"商品图片 {brand} 帆布包"),
            _el(i + 1, (302, top + 10, 800, top + 60), f"{brand} 帆布包", flags=()),
            _el(i + 2, (302, top + 150, 420, top + 210), price, flags=())]


CARDS = _card(0, 400, "小米", "¥89") + _card(3, 700, "华为", "¥39") + _card(6, 1000, "OPPO", "¥39")
OPPO_IMAGE = CARDS[6]


@pytest.mark.parametrize("text, outcome", [
    ("Take the 华为 bag at ¥39 — tap its picture.", "unsure"),  # ¥39 is the OPPO card's too: the 华为 card is named
    ("Take the OPPO bag at ¥39 — tap its picture.", "certified"),
    ("点 OPPO 那个 ¥39 的帆布包图片。", "certified"),
])
def test_a_rival_card_weighs_with_its_own_words(text, outcome):
    expect(certify_text(tap(OPPO_IMAGE), click("“商品图片 OPPO 帆布包”"), text, CARDS, web=False), outcome)


TITLE = _el(0, (40, 300, 600, 340), "Night nurse role #7", tag="a")
APPLY = _el(1, (1000, 300, 1200, 340), "Apply", tag="button")
ROW = _el(2, (20, 280, 1260, 380), "Night nurse role #7 Apply", flags=())


@pytest.mark.parametrize("text, outcome", [
    ("The seventh is 'Night nurse role #7'. Click its title link.", "unsure"),  # the card's link, not its button
    ("The seventh is 'Night nurse role #7'. Click its Apply button.", "certified"),
])
def test_a_role_of_the_card_that_the_target_lacks(text, outcome):
    expect(certify_text(tap(APPLY), click("“Apply”元素"), text, [ROW, TITLE, APPLY]), outcome)


TAB = _el(0, (300, 24, 430, 51), "Theater", tag="a")


@pytest.mark.parametrize("text, outcome", [
    ("Click Theater. The header stays as it is afterwards.", "unsure"),
    ("Click Theater; the header will stay as it is afterwards.", "certified"),
])
def test_a_state_said_with_afterwards(text, outcome):
    expect(certify_text(tap(TAB), click("“Theater”元素"), text, [TAB]), outcome)


def _done(text: str) -> Certification:
    steps = [Step(i, PHONE, Action("wait")) for i in range(5)] + [Step(5, PHONE, Action("done"))]
    return certify(Episode("e", "m", "等商城加载", steps), 5, {"reasoning": text, "function": {"name": "done",
                                                                                        "parameters": {}}},
                   cjk_threshold=0.0)


def test_the_run_told_to_end_at_this_step():
    expect(_done("页面加载好了，这段到第六步就完成了，收尾。"), "unsure")
    expect(_done("页面加载好了，任务完成。"), "certified")


def _swipe(text: str, way: str = "DOWN") -> Certification:
    row = _el(0, (0, 600, 1080, 700), "Bluetooth")
    steps = [Step(0, PHONE, Action("swipe", direction=way.lower()), elements=[row]),
             Step(1, PHONE, Action("done"), elements=[row])]
    return certify(Episode("e", "m", "打开蓝牙", steps), 0, {"reasoning": text, "function": {
        "name": "swipe", "parameters": {"direction": way}}}, cjk_threshold=0.0)


@pytest.mark.parametrize("text, way, outcome", [
    ("手指往下一拉，列表回到最上面，Wi-Fi 重新出现了。", "DOWN", "unsure"),
    ("手指往下一拉，回到列表顶部。", "DOWN", "certified"),
    ("Keep scrolling up; the Bluetooth row might be further down.", "DOWN", "unsure"),  # which way, then?
    ("Scroll up to get back near the top.", "DOWN", "certified"),
    ('swipe(direction="down")  # to get back to the top of the list', "DOWN", "certified"),
    ('{"动作": "滑动", "方向": "下", "原因": "要回到列表顶部找蓝牙"}', "DOWN", "certified"),
    ('{"动作": "滑动", "方向": "上", "原因": "要回到列表顶部找蓝牙"}', "DOWN", "rejected"),
])
def test_pass_23_swipes(text, way, outcome):
    expect(_swipe(text, way), outcome)


def _open(text: str) -> Certification:
    icon = _el(0, (100, 900, 250, 1050), "商城")
    steps = [Step(0, PHONE, Action("open_app", app="商城"), elements=[icon]), Step(1, PHONE, Action("done"))]
    return certify(Episode("e", "m", "在商城买个包", steps), 0, {"reasoning": text, "function": {
        "name": "open_app", "parameters": {"app_name": "商城"}}}, cjk_threshold=0.0)


@pytest.mark.parametrize("text, outcome", [
    ("桌面左边有“商城”图标，要买东西就打开这个应用。", "certified"),
    ("Need the mall first, so: open_app(app_name='商城')", "certified"),
    ('{"动作": "打开应用", "应用": "商城", "备注": "要在商城里买包"}', "certified"),
    ('{"动作": "打开应用", "应用": "相机"}', "rejected"),
])
def test_pass_23_open(text, outcome):
    expect(_open(text), outcome)


def test_a_fill_call_and_a_select_option_object():
    field = _el(0, (100, 100, 500, 150), hint="Keyword", flags=("clickable", "editable"), tag="input")
    typed = Action("type", text="nurse", element=field, point=field.center)
    call = {"name": "type", "parameters": {"text": "nurse", "target_element": "“Keyword”输入框"}}
    expect(certify_text(typed, call, 'Thought: the form is empty.\nAction: fill("Keyword", "nurse")', [field]),
           "certified")
    menu = _el(1, (600, 100, 900, 150), "Any", desc="Shift", tag="select")
    chosen = Action("select", text="Night", element=menu, point=menu.center)
    call = {"name": "select", "parameters": {"value": "Night", "target_element": "“Shift”元素"}}
    expect(certify_text(chosen, call, '{"action": "select_option", "select": "Shift", "option": "Night"}', [menu]),
           "certified")
    expect(certify_text(chosen, call, '{"action": "select_option", "select": "Shift", "option": "Day"}', [menu]),
           "rejected")
