"""Pass 28: an arrow that points at the target (``cart 0 -> 加入购物车 btn``), ``开设置app``, ``long_press``, ``结束``,
a typed value named a sentence back (``so type that into …``), ``on the last step`` as the step before, a past
result before this step's decision (``Scrolling turned up nothing … so swipe down``), ``上滑之后当前屏``, and a
label said without its comma. Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from scenes import PHONE, certify_text, click, el, expect, one_step, swipe, tap, typed
from sftdata.checks.certify import Certification, certify
from sftdata.model import Action, Episode, Step


ADD = el(0, (380, 2250, 700, 2350), "加入购物车")
BUY = el(1, (720, 2250, 1060, 2350), "立即购买")


@pytest.mark.parametrize("text, outcome", [
    ("detail page, price ok -> 加入购物车 btn bottom centre (not 立即购买)", "certified"),
    ("规格看过了 → 加入购物车", "certified"),
    ("detail page -> 立即购买 btn", "unsure"),
])
def test_an_arrow_points_at_the_target(text, outcome):
    expect(certify_text(tap(ADD), click("“加入购物车”按钮"), text, [ADD, BUY], web=False), outcome)


def test_kai_opens_an_app():
    call = {"name": "open_app", "parameters": {"app_name": "日历"}}
    expect(one_step(Action("open_app", app="日历"), call, "桌面 -> 开日历app", "整理手机"), "certified")


def test_long_press_written_as_the_call_name():
    row = el(0, (0, 600, 1080, 760), "李雷")
    call = {"name": "long_press", "parameters": {"target_element": "“李雷”"}}
    expect(one_step(Action("long_press", element=row, point=row.center), call, "Action: long_press on the 李雷 row.",
                    "整理手机", [row]), "certified")


def _done(text: str) -> Certification:
    steps = [Step(i, PHONE, Action("wait")) for i in range(3)] + [Step(3, PHONE, Action("done"))]
    return certify(Episode("e", "m", "等日历加载", steps), 3, {"reasoning": text, "function": {"name": "done",
                                                                                        "parameters": {}}},
                   cjk_threshold=0.0)


def test_jie_shu_ends_the_task():
    expect(_done("日历已经加载好了，要求的都做到了，结束。"), "certified")


FIELD = el(0, (100, 100, 600, 150), hint="Search titles", flags=("clickable", "editable"), tag="input")


@pytest.mark.parametrize("text, outcome", [
    ("The goal is about garden tools, so type that into Search titles.", "certified"),
    ("The goal is about garden hoses, so type that into Search titles.", "unsure"),
])
def test_a_value_named_before_its_pronoun(text, outcome):
    expect(certify_text(*typed(FIELD, "garden tools", "“Search titles”输入框"), text, [FIELD]), outcome)


REPLY = el(0, (0, 2200, 900, 2300), "短信输入框", flags=("clickable", "editable"))


@pytest.mark.parametrize("text, outcome", [
    ("I'll type the reply exactly as asked: 好的，明天见 with the full-width comma.", "certified"),
    ("I'll type the reply exactly as asked: 好的，明天 with the full-width comma.", "rejected"),
])
def test_how_a_value_is_written_said_after_it(text, outcome):
    expect(certify_text(*typed(REPLY, "好的，明天见", "“短信输入框”"), text, [REPLY], web=False), outcome)


SEARCH = el(0, (640, 100, 760, 150), "Search", tag="button")


@pytest.mark.parametrize("text, outcome", [
    ("The keyword went in on the last step; click Search.", "certified"),
    ("This is the last step: click Search.", "rejected"),
])
def test_the_last_step_as_the_one_before(text, outcome):
    expect(certify_text(tap(SEARCH), click("“Search”按钮"), text, [SEARCH]), outcome)


def _swipe(text: str) -> Certification:
    return one_step(*swipe("down"), text, "Find the battery settings", [el(0, (0, 300, 1080, 400), "Battery")])


@pytest.mark.parametrize("text, outcome", [
    ("Scrolling brought up nothing useful. Battery was near the top, so swipe down.", "certified"),
    ("Swipe down. Scrolling brought Battery back to the top.", "rejected"),
])
def test_a_past_result_before_the_decision_is_the_last_steps(text, outcome):
    expect(_swipe(text), outcome)


CARD = el(0, (40, 900, 520, 1300), "商品图片 星辰 保温杯 Lite")
CART = el(1, (700, 2250, 900, 2350), "购物车，0 件商品")


def test_a_screen_after_the_last_swipe_and_a_label_without_its_comma():
    text = "上滑之后当前屏：星辰 保温杯 Lite 在中部左侧，购物车 0 件。我就点中部左侧那张商品图。"
    steps = [Step(0, PHONE, Action("click", element=CARD, point=CARD.center), elements=[CARD, CART]),
             Step(1, PHONE, Action("done"), elements=[el(0, (700, 2250, 900, 2350), "购物车 0 件")])]
    got = certify(Episode("e", "m", "看一款保温杯", steps), 0, {"reasoning": text, "function": click(
        "“商品图片 星辰 保温杯 Lite”")}, cjk_threshold=0.0)
    expect(got, "certified")
