"""Pass 29: a row and a column said together (``middle right``, ``中间右侧``) pick a twin in that cell; an ordinal
does not outweigh a whole label no other element shows; what a tap's text says after it of the screen as it is
(``Sort by still says Relevance``, ``#4 is above it``) is no outcome; ``The Select buttons`` is a noun; ``wait for
the feed to come up`` says what it waits for. Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from scenes import certify_text, click, el, expect, one_step, swipe, tap
from sftdata.model import Action


# five Save buttons down the right edge of a 1280 x 800 page, one a fifth of the height apart
SAVES = [el(i, (1080, 60 + 160 * i, 1200, 100 + 160 * i), "Save", tag="button") for i in range(5)]
TITLES = [el(5 + i, (100, 60 + 160 * i, 600, 100 + 160 * i), f"Cosy cabin #{21 + i}", tag="a") for i in range(5)]


@pytest.mark.parametrize("text, outcome", [
    ("Click Save on the fourth row.", "certified"),
    ("点中间右侧的 Save，收藏第 24 套。", "unsure"),
    ("Click the middle right Save for #24.", "unsure"),
])
def test_a_cell_of_the_screen_picks_the_twin_in_it(text, outcome):
    expect(certify_text(tap(SAVES[3]), click("“Save”按钮"), text, SAVES + TITLES), outcome)


SUGGESTIONS = [el(0, (40, 100, 1040, 180), "保温杯", flags=("clickable", "editable"))] + [
    el(1 + i, (40, 220 + 100 * i, 1040, 300 + 100 * i), t) for i, t in enumerate(["保温杯", "保温杯 大容量", "保温杯 儿童"])]


def test_a_whole_label_outweighs_a_count():
    text = "联想里第二条“保温杯 大容量”正合适，点它。"
    expect(certify_text(tap(SUGGESTIONS[2]), click("“保温杯 大容量”"), text, SUGGESTIONS, web=False), "certified")


GO = el(0, (640, 100, 760, 150), "Go", tag="button")
SORT = el(1, (800, 100, 1000, 150), "Relevance", flags=("clickable",), tag="select")
SORT_LABEL = el(5, (700, 100, 790, 150), "Sort by", flags=())
SELECTS = [el(2 + i, (1080, 300 + 80 * i, 1200, 340 + 80 * i), "Select", tag="button") for i in range(3)]


@pytest.mark.parametrize("text", [
    "Query typed. Click Go to run it. Sort by still says Relevance; the order can wait.",
    "Click Go (top centre). The Select buttons below belong to the default list, not to my query.",
])
def test_the_screen_as_it_is_after_the_decision(text):
    expect(certify_text(tap(GO), click("“Go”按钮"), text, [GO, SORT, SORT_LABEL] + SELECTS), "certified")


def test_waiting_for_something_to_come_up():
    expect(one_step(Action("wait"), {"name": "wait", "parameters": {}}, "still loading. just wait for the feed to come up",
                    "等首页加载"), "certified")


def test_go_back_one_is_a_swipe_back():
    text = "Two forward already; the goal wants both ways, so go back one: swipe right."
    expect(one_step(*swipe("right"), text, "翻几张照片"), "certified")
