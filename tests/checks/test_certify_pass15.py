"""Pass 15: an ``Action:`` line in Python's call notation with keyword arguments (``click(target_element='Tours')``)
is read as the spoken line it stands for; ``I've hit X`` is history; a ruling-out ends where a new subject takes the
decision (``rather than X I'll tap Y``); a click of a select's option named as another element (``the Electronics
link``) is no evidence for the select; a jotting that is the target's name alone (``Tours``) decides it; ``按 Home``
goes home and ``勾上`` ticks; ``the first move`` on the first step tells nothing of the run. Wordings made up here,
unlike the labelled parts'."""
from __future__ import annotations

import pytest

from scenes import certify_text, click, expect, tap
from sftdata.checks.certify import Certification, certify
from sftdata.model import Action, Element, Episode, Screenshot, Step

WEB = Screenshot("1" * 64, "w.png", 1280, 800)
PHONE = Screenshot("0" * 64, "p.png", 1080, 2400)
V = ("visible", "clickable")
FIELD = Element(0, (100, 100, 700, 150), hint="Where to?", flags=V + ("editable",), tag="input",
                attrs=(("type", "text"), ("placeholder", "Where to?")))
NOTE = Element(1, (100, 200, 700, 250), hint="Note", flags=V + ("editable",), tag="input",
               attrs=(("type", "text"), ("placeholder", "Note")))
TOURS = Element(2, (100, 300, 700, 340), text="Tours", flags=V, tag="a")
SEARCH = Element(3, (720, 100, 900, 150), text="Search", flags=V, tag="button")
NAV = Element(4, (100, 20, 300, 60), text="Electronics", flags=V, tag="a", attrs=(("href", "/c/electronics"),))
CATEGORY = Element(5, (100, 400, 500, 440), text="All Electronics Books", flags=V, tag="select",
                   attrs=(("aria_label", "Category"),))
SCENE = [FIELD, NOTE, TOURS, SEARCH, NAV, CATEGORY]


def _web(action: Action, function: dict, text: str, index: int = 0) -> Certification:
    before = [tap(SEARCH)] if index else []
    return certify_text(action, function, text, SCENE, before=before)


def _tap_tours(text: str, index: int = 0) -> Certification:
    return _web(tap(TOURS), click("“Tours”元素"), text, index)


def _type_lisbon(text: str) -> Certification:
    return _web(Action("type", text="Lisbon", element=FIELD, point=FIELD.center),
                {"name": "type", "parameters": {"text": "Lisbon", "target_element": "“Where to?”元素"}}, text)


def _select_electronics(text: str) -> Certification:
    return _web(Action("select", text="Electronics", element=CATEGORY, point=CATEGORY.center),
                {"name": "select", "parameters": {"target_element": "“Category”下拉框", "value": "Electronics"}}, text)


KEYWORD_CALLS = [
    (_tap_tours, "Thought: the tours are what the task wants next.\nAction: click(target_element='Tours')", "certified"),
    (_tap_tours, 'Thought: 行程链接在表单下面。\nAction: click(target_element="Tours")', "certified"),
    (_type_lisbon, "Thought: the destination first.\nAction: type(target_element='Where to?', text='Lisbon')", "certified"),
    (_type_lisbon, "Thought: the destination first.\nAction: type(target_element='Where to?', text='Lisbn')", "rejected"),
    (_type_lisbon, "Thought: the destination first.\nAction: type(target_element='Note', text='Lisbon')", "rejected"),
    (_tap_tours, "Thought: the tours are what the task wants next.\nAction: click(target_element='Search')", "rejected"),
]


@pytest.mark.parametrize("run, text, outcome", KEYWORD_CALLS)
def test_a_keyword_call_line_reads_as_its_words(run, text, outcome):
    expect(run(text), outcome)


@pytest.mark.parametrize("text, index", [
    ("I've hit Search on the form already; the tours are next.\nAction: click(target_element='Tours')", 1),  # history
    ("The form can wait, so rather than filling in a note I'll tap Tours.", 0),  # the ruling-out ends at I'll
    ("The first move is to tap Tours.", 0),  # on the first step: nothing of the run's length
])
def test_history_ruled_out_and_first_moves_leave_the_decision(text, index):
    expect(_tap_tours(text, index), "certified")


@pytest.mark.parametrize("text, outcome", [
    ("click the Electronics link up in the top bar", "unsure"),  # the nav link's name: no evidence for the select
    ("Pick Electronics in the Category dropdown.", "certified"),
    ("把 Category 下拉改成 Electronics。", "certified"),
])
def test_a_select_option_clicked_by_its_name(text, outcome):
    expect(_select_electronics(text), outcome)


@pytest.mark.parametrize("text, outcome", [
    ("Tours", "certified"),
    ("Tours, below the Note box", "certified"),
    ("Search", "unsure"),             # another element's name alone decides nothing certain
    ("Tours page loaded", "unsure"),  # more than a name and a place
])
def test_a_jotted_name_alone(text, outcome):
    expect(_tap_tours(text), outcome)


def test_a_chinese_home_key_and_a_tick():
    home = Step(0, PHONE, Action("home"))
    ep = Episode("e", "m", "回到桌面", [home, Step(1, PHONE, Action("done"))])
    got = certify(ep, 0, {"reasoning": "设置好了，按 Home 回桌面。", "function": {"name": "press_home", "parameters": {}}},
                  cjk_threshold=0.0)
    assert got.outcome == "certified", (got.reasons, got.evidence)
    box = Element(0, (100, 500, 980, 560), text="I agree to the terms", flags=V + ("checkable",))
    tick = Step(0, PHONE, Action("click", element=box, point=box.center), elements=[box])
    ep = Episode("e", "m", "同意条款", [tick, Step(1, PHONE, Action("done"), elements=[box])])
    got = certify(ep, 0, {"reasoning": "勾上“I agree to the terms”。",
                          "function": {"name": "click", "parameters": {"target_element": "“I agree to the terms”复选框"}}},
                  cjk_threshold=0.0)
    assert got.outcome == "certified", (got.reasons, got.evidence)
