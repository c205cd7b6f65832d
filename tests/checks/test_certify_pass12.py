"""Pass 12: statements about the recording itself and states said with an after-the-fact marker are hindsight; a
place word or purpose after a typed value is not part of it; focusing a field is a tap on it; a dropdown set to a
value (``下拉改成``) is a selection. Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from sftdata.checks.certify import Certification, certify
from sftdata.checks.decision import stated_decision
from sftdata.model import Action, Element, Episode, Screenshot, Step

WEB = Screenshot("1" * 64, "w.png", 1280, 800)
V = ("visible", "clickable")
FORM = ("Arrival date", "Guests", "Search rooms", "Find a hotel")
FORM_BOXES = [(100, 100, 600, 140), (100, 200, 600, 240), (700, 100, 900, 140), (100, 300, 600, 340)]


def _run(function: dict, text: str) -> Certification:
    name, params = function["name"], function["parameters"]
    target = FORM.index(params["target_element"].strip("“”元素"))
    els = [Element(n, b, text=t, flags=V, tag="a") for n, (t, b) in enumerate(zip(FORM, FORM_BOXES))]
    kw = {"text": params.get("text") or params.get("value")} if name in ("type", "select") else {}
    step = Step(0, WEB, Action(name if name != "type" else "type", point=els[target].center, element=els[target], **kw),
                elements=els)
    ep = Episode("e", "m", "Book a room for 3 guests arriving 07/09", [step, Step(1, WEB, Action("done"))],
                 platform="web")
    return certify(ep, 0, {"reasoning": text, "function": function}, cjk_threshold=0.0)


TYPE_DATE = {"name": "type", "parameters": {"text": "07/09", "target_element": "“Arrival date”元素"}}
SELECT_3 = {"name": "select", "parameters": {"value": "3", "target_element": "“Guests”元素"}}
CLICK_SEARCH = {"name": "click", "parameters": {"target_element": "“Search rooms”元素"}}
CLICK_FIELD = {"name": "click", "parameters": {"target_element": "“Find a hotel”元素"}}


@pytest.mark.parametrize("text, function", [
    ("Press Search rooms; it is the final recorded action.", CLICK_SEARCH),
    ("Hit Search rooms — the demonstration ends right after this.", CLICK_SEARCH),
    ("Search rooms, and that is where this log stops.", CLICK_SEARCH),
    ("点 Search rooms，这段录屏到这里就结束了。", CLICK_SEARCH),
    ("点 Search rooms，这是演示的最后一步。", CLICK_SEARCH),
    ("Set Guests to 3; the dropdown reads 3 afterwards.", SELECT_3),
    ("Choose 3 under Guests. After that, the field displays 3.", SELECT_3),
    ("Guests 里选 3，之后显示 3 位客人。", SELECT_3),
    ("Guests 选 3，然后出现房型列表。", SELECT_3),
])
def test_the_recording_and_states_after_the_fact_are_hindsight(text, function):
    got = _run(function, text)
    assert got.outcome == "rejected" and got.first == "hindsight", (got.reasons, got.evidence)


@pytest.mark.parametrize("text, function", [
    ("Set Guests to 3; afterwards I'll press Search rooms.", SELECT_3),   # a plan, not a state
    ("Guests 选 3，之后再点 Search rooms。", SELECT_3),
    ("Guests 选 3，之后应该会显示 3。", SELECT_3),                         # hedged: an expectation
    ("Press Search rooms; the recorded goal asks for 3 guests.", CLICK_SEARCH),
])
def test_a_plan_or_an_expectation_after_the_fact_is_no_hindsight(text, function):
    got = _run(function, text)
    assert got.first != "hindsight", (got.reasons, got.evidence)


@pytest.mark.parametrize("text", [
    "Arrival date is empty. Type 07/09 in there for the ninth of July.",
    "Arrival date field is blank; key in 07/09 there.",
    "Arrival date 还空着，输入 07/09 进去。",
])
def test_a_place_word_or_purpose_after_the_typed_value_is_not_the_value(text):
    got = _run(TYPE_DATE, text)
    assert got.outcome != "rejected", (got.reasons, got.evidence)


@pytest.mark.parametrize("text", [
    "Arrival date is empty. Type 07/10 in there for the ninth of July.",  # another value stays a contradiction
    "Arrival date 还空着，输入 08/09 进去。",
])
def test_another_value_with_a_place_word_is_still_rejected(text):
    assert _run(TYPE_DATE, text).outcome == "rejected"


@pytest.mark.parametrize("text, verb", [
    ("I'll place the cursor into the Find a hotel box so I can type the city.", "click"),
    ("Put the caret in Find a hotel first.", "click"),
    ("先把光标放到 Find a hotel 框里，方便接下来输入城市。", "click"),
    ("点进 Find a hotel 输入框。", "click"),
    ("Type Lisbon so I can search next.", "input"),   # a real typing decision stays one
])
def test_focusing_a_field_is_a_tap_and_the_purpose_a_plan(text, verb):
    assert stated_decision(text).verb == verb


def test_focusing_the_field_is_not_rejected_for_the_typing_it_prepares():
    got = _run(CLICK_FIELD, "Rather than scroll, I'll put the cursor in Find a hotel so I can type the city next.")
    assert got.outcome != "rejected", (got.reasons, got.evidence)


@pytest.mark.parametrize("text, verb", [
    ("Guests 下拉默认是 1，改成 3。", "click"),
    ("Guests 下拉改选 3", "click"),
    ("列表往下拉一点，看看后面的房型", "swipe"),      # 下拉 of a list stays a swipe
])
def test_a_dropdown_set_to_a_value_is_a_selection(text, verb):
    assert stated_decision(text).verb == verb


def test_a_dropdown_set_to_another_value_is_not_certified():
    assert _run(SELECT_3, "Guests 下拉默认是 1，改成 2。").outcome != "certified"
