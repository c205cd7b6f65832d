"""Pass 13: a habit of apps (``usually opens``) is knowledge, not an outcome; a neighbour named as the place of the
target (``just below Battery saver``) is not another target; ``the toggle`` is a noun, not a tap; a purpose's verb
(``to apply them``) names no Apply button; a decision that points from the card's title to a control beside it
(``点它右边那个 Book now``) names that control. Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from sftdata.checks.certify import Certification, certify
from sftdata.model import Action, Element, Episode, Screenshot, Step

WEB = Screenshot("1" * 64, "w.png", 1280, 800)
V = ("visible", "clickable")
SCENE = [("Battery saver", (100, 100, 900, 160), "div"), ("Screen timeout", (100, 160, 900, 220), "div"),
         ("Dark mode", (100, 220, 900, 280), "div"), ("Apply", (100, 300, 300, 340), "button"),
         ("Search rooms", (400, 300, 600, 340), "button"),
         ("Sunset tour #3 $120 Book now", (100, 400, 900, 480), "li"), ("Sunset tour #3", (110, 410, 400, 440), "a"),
         ("Book now", (700, 410, 880, 440), "button"),
         ("Sunset tour #4 $95 Book now", (100, 500, 900, 580), "li"), ("Sunset tour #4", (110, 510, 400, 540), "a"),
         ("Book now", (700, 510, 880, 540), "button")]


def _run(target: int | None, text: str) -> Certification:
    els = [Element(n, box, text=label, flags=V if tag != "li" else ("visible",), tag=tag)
           for n, (label, box, tag) in enumerate(SCENE)]
    acted = 2 if target is None else target  # the done step (None) follows a tap of Dark mode
    step = Step(0, WEB, Action("click", point=els[acted].center, element=els[acted]), elements=els)
    function = {"name": "click", "parameters": {"target_element": f"“{SCENE[acted][0]}”元素"}}
    ep = Episode("e", "m", "Turn on dark mode and book Sunset tour #3",
                 [step, Step(1, WEB, Action("done"), elements=els)], platform="web")
    if target is None:
        return certify(ep, 1, {"reasoning": text, "function": {"name": "done", "parameters": {}}}, cjk_threshold=0.0)
    return certify(ep, 0, {"reasoning": text, "function": function}, cjk_threshold=0.0)


@pytest.mark.parametrize("text, target", [
    ("Tapping a settings row usually opens its own page. Tap Screen timeout.", 1),
    ("这种设置项点进去通常会打开详情页。点 Screen timeout。", 1),
    ("Tap 'Screen timeout', the row just below Battery saver.", 1),
    ("点“Screen timeout”那一行（在 Battery saver 下面）。", 1),
    ("Dark mode reads On now, which is the toggle the task wanted. Done.", None),
    ("The filters are all chosen. Click 'Search rooms' to apply them.", 4),
])
def test_knowledge_places_nouns_and_purposes_are_not_contradictions(text, target):
    got = _run(target, text)
    assert got.outcome != "rejected", (got.reasons, got.evidence)


@pytest.mark.parametrize("text, target, first", [
    ("Tapping Screen timeout opens its page with 30 seconds picked. Tap it.", 1, "hindsight"),  # no habit: an outcome
    ("Tap Battery saver, the row just above Screen timeout.", 1, "reasoning_contradicts_action"),  # the row named
    ("Toggle Dark mode first. Done.", None, "reasoning_contradicts_action"),                      # a verb, not a noun
    ("Click Apply to run the search.", 4, "reasoning_contradicts_action"),                        # Apply is the target
])
def test_the_same_words_still_reject_where_they_decide(text, target, first):
    got = _run(target, text)
    assert got.outcome == "rejected" and got.first == first, (got.reasons, got.evidence)


@pytest.mark.parametrize("text", ["第 3 个就是 Sunset tour #3，点它右边那个 Book now 按钮。",
                                  "Sunset tour #3 is the one. Tap the Book now button next to it."])
def test_a_control_beside_the_named_title_is_not_the_title(text):
    got = _run(6, text)
    assert got.outcome != "certified", (got.reasons, got.evidence)


def test_the_title_said_alone_stays_certified():
    got = _run(6, "第 3 个就是 Sunset tour #3，点它的标题 Sunset tour #3。")
    assert got.outcome == "certified", (got.reasons, got.evidence)
