"""Pass 14: a button's label said as the kind of a field (``the trip search box``) names no button on a typing step;
where a typed value goes (``Lisbon goes into Where to?``) and an aside in brackets after it are not part of it; a
typed value's width counts (``好的,明天见`` is not ``好的，明天见``); a result said in passing (``accepted without
errors``, ``goes through``) is never a description; a state after ``afterwards`` / ``之后`` (``looks the same``,
``没变化``) is an outcome. Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from scenes import expect
from sftdata.checks.certify import Certification, certify
from sftdata.model import Action, Element, Episode, Screenshot, Step

WEB = Screenshot("1" * 64, "w.png", 1280, 800)
FIELD = Element(0, (100, 100, 700, 150), hint="Where to?", flags=("visible", "clickable", "editable"), tag="input",
                attrs=(("id", "search"), ("type", "text"), ("placeholder", "Where to?")))
SEARCH = Element(1, (720, 100, 900, 150), text="Search", flags=("visible", "clickable"), tag="button",
                 attrs=(("type", "submit"),))
NOTE = Element(2, (100, 200, 700, 250), hint="Note", flags=("visible", "clickable", "editable"), tag="input",
               attrs=(("type", "text"), ("placeholder", "Note")))
TOURS = Element(3, (100, 300, 700, 340), text="Tours", flags=("visible", "clickable"), tag="a")
SCENE = [FIELD, SEARCH, NOTE, TOURS]


def _typing(text: str, typed: str = "Lisbon") -> Certification:
    step = Step(0, WEB, Action("type", text=typed, element=FIELD, point=FIELD.center), elements=SCENE)
    ep = Episode("e", "m", f"Plan a trip to {typed}", [step, Step(1, WEB, Action("done"), elements=SCENE)],
                 platform="web")
    function = {"name": "type", "parameters": {"text": typed, "target_element": "“Where to?”元素"}}
    return certify(ep, 0, {"reasoning": text, "function": function}, cjk_threshold=0.0)


def _tap(text: str) -> Certification:
    step = Step(0, WEB, Action("click", element=TOURS, point=TOURS.center), elements=SCENE)
    ep = Episode("e", "m", "Look at the tours", [step, Step(1, WEB, Action("done"), elements=SCENE)], platform="web")
    function = {"name": "click", "parameters": {"target_element": "“Tours”元素"}}
    return certify(ep, 0, {"reasoning": text, "function": function}, cjk_threshold=0.0)


def _reply(text: str) -> Certification:
    box = Element(0, (0, 2000, 900, 2100), hint="输入消息", flags=("visible", "editable"))
    phone = Screenshot("0" * 64, "p.png", 1080, 2400)
    step = Step(0, phone, Action("input", text="好的，明天见", element=box), elements=[box])
    ep = Episode("e", "m", "回复：好的，明天见", [step, Step(1, phone, Action("done"), elements=[box])])
    return certify(ep, 0, {"reasoning": text, "function": {"name": "input", "parameters": {"text": "好的，明天见"}}},
                   cjk_threshold=0.0)


@pytest.mark.parametrize("text, outcome", [
    ("type Lisbon in the trip search box", "unsure"),  # a field's kind: no Search button named (the field's name unsaid)
    ("The trip form asks where to first: Lisbon goes into Where to?", "unsure"),  # where the value goes, not part of it
    ("Tap Search to type Lisbon", "rejected"),                   # the button itself, named as the target
    ("type Lisbon into the Note box", "rejected"),               # another field of the page
    ("Fill in the destination: Lisbn goes into Where to?", "rejected"),  # the value off by a character
    ("Type Lisbon into Where to? — accepted without any error — then pick the dates.", "unsure"),  # a result in passing
    ("Type Lisbon into Where to?; the form goes through.", "unsure"),
])
def test_typing_a_value_into_a_field(text, outcome):
    expect(_typing(text), outcome)


def test_an_aside_in_brackets_after_the_value_is_not_part_of_it():
    got = _reply("Type the message as asked: 好的，明天见 (with the full-width comma).")
    assert got.outcome == "certified", (got.reasons, got.evidence)


@pytest.mark.parametrize("text, outcome", [
    ("输入 好的，明天见 然后发送。", "certified"),
    ("输入 好的,明天见 然后发送。", "unsure"),      # an ASCII comma: another typed text, no evidence of this one
    ("输入“好的,明天见”然后发送。", "rejected"),    # quoted: the value said is another
])
def test_the_width_of_a_typed_value_counts(text, outcome):
    expect(_reply(text), outcome)


@pytest.mark.parametrize("text", [
    "Click Tours; afterwards the page looks the same.",
    "Click Tours. Afterwards nothing changes on the page.",
    "点 Tours，之后页面看起来没变化。",
])
def test_a_state_after_afterwards_is_hindsight(text):
    got = _tap(text)
    assert got.outcome == "rejected" and got.first == "hindsight", (got.reasons, got.evidence)


@pytest.mark.parametrize("text", ["Click Tours, and afterwards pick a tour.", "点 Tours，之后再挑一个行程。"])
def test_a_plan_after_afterwards_stays_certified(text):
    got = _tap(text)
    assert got.outcome == "certified", (got.reasons, got.evidence)
