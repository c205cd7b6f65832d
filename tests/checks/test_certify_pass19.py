"""Pass 19: an action object anywhere in a line (``改成德州：{"action": "select", …}``) reads as words; ``step 6 of 6,``
is a count even before a comma; ``the switch the goal wants toggled`` is a wish, not a past event; ``还没露出来``
says the screen as it is; a later screen's word said absent (``没有搜索框``) is no hindsight; a short heading before
a colon (``翻页：点 Next page``) decides nothing; a list of things done (``…，三件事都做完``) is no decision; ``确认删除``
taps 删除. Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from scenes import expect
from sftdata.checks.certify import Certification, certify
from sftdata.model import Action, Element, Episode, Screenshot, Step

WEB = Screenshot("1" * 64, "w.png", 1280, 800)
PHONE = Screenshot("0" * 64, "p.png", 1080, 2400)
V = ("visible", "clickable")
STATE = Element(0, (100, 450, 500, 490), text="Alabama Texas Utah", flags=V, tag="select", attrs=(("aria_label", "State"),))
NEXT = Element(1, (500, 700, 700, 740), text="Next page", flags=V, tag="a")
WIFI = Element(0, (0, 300, 1080, 400), text="Wi-Fi", flags=V)
SAVER = Element(1, (0, 400, 1080, 500), text="Battery saver", flags=V + ("checkable",))
DELETE = Element(2, (600, 1300, 900, 1400), text="删除", flags=V)


def _web(action: Action, function: dict, text: str) -> Certification:
    ep = Episode("e", "m", "Rent a car in Texas", [Step(0, WEB, action, elements=[STATE, NEXT]),
                                                  Step(1, WEB, Action("done"), elements=[STATE, NEXT])], platform="web")
    return certify(ep, 0, {"reasoning": text, "function": function}, cjk_threshold=0.0)


def _phone(action: Action, function: dict, text: str, later=(), index: int = 0) -> Certification:
    steps = [Step(0, PHONE, action, elements=[WIFI, SAVER, DELETE])]
    steps += [Step(1 + i, PHONE, Action("wait"), elements=list(els)) for i, els in enumerate(later)]
    steps += [Step(len(steps), PHONE, Action("done"), elements=[WIFI])]
    return certify(Episode("e", "m", "打开省电模式", steps), index, {"reasoning": text, "function": function},
                   cjk_threshold=0.0)


def _select_texas(text: str) -> Certification:
    return _web(Action("select", text="Texas", element=STATE, point=STATE.center),
                {"name": "select", "parameters": {"target_element": "“State”下拉框", "value": "Texas"}}, text)


def _next_page(text: str) -> Certification:
    return _web(Action("click", element=NEXT, point=NEXT.center),
                {"name": "click", "parameters": {"target_element": "“Next page”链接"}}, text)


def _tap(element: Element, label: str, text: str, later=()) -> Certification:
    return _phone(Action("click", element=element, point=element.center),
                  {"name": "click", "parameters": {"target_element": f"“{label}”选项"}}, text, later)


@pytest.mark.parametrize("run, text, outcome", [
    (_select_texas, '州还是默认的 Alabama，改成德州：{"action": "select", "element": "State", "option": "Texas"}', "certified"),
    (_next_page, "翻页：点 Next page。", "certified"),
    (lambda t: _tap(SAVER, "Battery saver", t), "Tap the Battery saver row — that's the switch the goal wants toggled.",
     "certified"),
    (lambda t: _tap(DELETE, "删除", t), "确认删除。", "certified"),
    (lambda t: _tap(SAVER, "Battery saver", t, later=[[WIFI, Element(3, (0, 900, 1080, 1000), text="搜索设置项")]]),
     "还没有搜索设置项可以用，直接点 Battery saver。", "certified"),
])
def test_pass_19_readings(run, text, outcome):
    expect(run(text), outcome)


def _done(text: str) -> Certification:
    steps = [Step(0, PHONE, Action("click", element=SAVER, point=SAVER.center), elements=[WIFI, SAVER]),
             Step(1, PHONE, Action("done"), elements=[WIFI, SAVER])]
    return certify(Episode("e", "m", "打开设置里的省电模式", steps), 1,
                   {"reasoning": text, "function": {"name": "done", "parameters": {}}}, cjk_threshold=0.0)


def test_a_count_before_a_comma_is_still_a_count():
    got = _done("Battery saver is on; that was step 2 of 2, so finish.")
    assert got.outcome == "rejected" and got.first == "hindsight", (got.reasons, got.evidence)


def test_a_list_of_things_done_is_no_decision():
    got = _done("打开设置、打开省电模式，两件事都做完，任务结束。")
    assert got.outcome == "certified", (got.reasons, got.evidence)
