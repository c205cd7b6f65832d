"""Pass 27: ``把 X 填进 Y`` types X; a swipe's gloss may say how the list moves; ``点进去`` points back to the field
just named; a target's state or place said after the decision (``which is blank``, ``它在上面``) is no outcome; a
gerund that ``completes`` something, and a list that ``still starts at`` something afterwards, tell the outcome.
Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from scenes import certify_text, click, el, expect, one_step, swipe, tap, typed
from sftdata.checks.certify import Certification


CITY = el(0, (100, 100, 600, 150), hint="Destination city", flags=("clickable", "editable"), tag="input")
GO = el(1, (620, 100, 760, 150), "Go", tag="button")


def _typed(text: str) -> Certification:
    return certify_text(*typed(CITY, "Porto Alegre", "“Destination city”输入框"), text, [CITY, GO])


@pytest.mark.parametrize("text, outcome", [
    ("把 Porto Alegre 填进 Destination city 框，下一步再点 Go。", "certified"),
    ("先把城市名“Porto Alegre”输入到目的地那栏里。", "certified"),
    ("把目的地 Porto Alegre 填到 Destination city。", "certified"),
    ("把 Porto 填进 Destination city 框。", "rejected"),
    ("把 Porto Alegre 输入到 Destination city 里，再点 Go。", "certified"),
])
def test_the_object_of_ba_is_what_is_typed(text, outcome):
    expect(_typed(text), outcome)


def test_a_described_value_is_no_contradiction():
    assert _typed("先把城市填进去。").outcome != "rejected"


def _swipe(text: str, direction: str = "up") -> Certification:
    return one_step(*swipe(direction), text, "Find the storage settings", [el(0, (0, 300, 1080, 400), "Storage")])


@pytest.mark.parametrize("text, direction", [
    ("Nothing useful yet. Action: swipe up (finger moves up, the feed scrolls on).", "up"),
    ("Storage was higher up, so drag back: finger moves down, content moves down.", "down"),
    ("hmm wrong picture, go back one picture swipe right", "right"),
])
def test_a_gloss_of_how_the_list_moves(text, direction):
    expect(_swipe(text, direction), "certified")


def test_a_gloss_that_tells_where_the_list_lands_is_not_one():
    assert _swipe("Swipe up; the list scrolls down to the Storage row.").outcome != "certified"


SEARCH = el(0, (200, 100, 880, 180), "搜索栏", flags=("clickable", "editable"))
CAMERA = el(1, (900, 100, 1040, 180), "扫一扫")


@pytest.mark.parametrize("text", [
    "最上面是搜索栏，点进去，接下来好输入书名；右边的扫一扫用不上。",
    "The top holds the 搜索栏, which is blank — tap it.",
])
def test_pointing_back_to_the_field(text):
    expect(certify_text(tap(SEARCH), click("“搜索栏”输入框"), text, [SEARCH, CAMERA], web=False), "certified")


TABS = [el(i, (40 + 200 * i, 300, 200 + 200 * i, 360), t) for i, t in enumerate(["推荐", "图书", "文具", "数码"])]


def test_what_we_want_is_what_that_one_points_to():
    text = "tabs up there: 推荐 图书 文具 数码… we need 文具, so hit that one."
    expect(certify_text(tap(TABS[2]), click("“文具”标签"), text, TABS, web=False), "certified")


@pytest.mark.parametrize("text", [
    "已经打开了首页。计划：\n1. 点文具\n2. 选第一本笔记本\n现在先做第 1 项：点“文具”。",
    "“文具”在上面那排，点它。",
])
def test_a_plan_pointer_and_a_place(text):
    expect(certify_text(tap(TABS[2]), click("“文具”标签"), text, TABS, web=False), "certified")


BUY = el(0, (900, 500, 1040, 540), "Buy tickets", tag="button")
TITLE = el(1, (100, 500, 600, 540), "Harbour cruise #7", tag="a")


@pytest.mark.parametrize("text", [
    "Clicking Buy tickets for #7 completes the booking for 3 people.",
    "Click Buy tickets on #7; the page still starts at Harbour cruise #1 afterwards.",
])
def test_an_outcome_told_plainly_is_not_certified(text):
    got = certify_text(tap(BUY), click("“Buy tickets”按钮"), text, [BUY, TITLE])
    assert got.outcome != "certified", got.evidence


PHOTO = el(0, (360, 900, 720, 1260), "照片，6月3日 18:20")


def test_a_decision_after_a_narrated_screen_is_no_outcome():
    text = "相册打开了。要看最近的照片，先打开正中那张（6月3日 18:20），进去以后再左右翻。"
    expect(certify_text(tap(PHOTO), click("“照片，6月3日 18:20”"), text, [PHOTO], web=False), "certified")
