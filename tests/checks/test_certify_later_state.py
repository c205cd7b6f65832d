"""Hindsight read off the screens and the call, not the words: a word said after the decision that only a later
screen shows (``later_screen_text``), and the acted-on element told as already changed (``acted_element_state``),
leave an item unsure; a plan, the value alone after a colon, and a restated decision stay certified."""
from __future__ import annotations

from sftdata.checks.certify import Certification, certify
from sftdata.model import Action, Element, Episode, Screenshot, Step

PAGE = Screenshot("0" * 64, "x.png", 1280, 720)
V = ("visible", "clickable")


def episode(step: Step, later: list[str]) -> Episode:
    after = [Element(10 + i, (0, 40 * i, 600, 40 * i + 30), text=t, flags=("visible",)) for i, t in enumerate(later)]
    return Episode("w", "m", "Find a lamp", [step, Step(1, PAGE, Action("done"), elements=after)], platform="web")


def lamp_search(text: str) -> Certification:
    go = Element(0, (900, 50, 1000, 90), text="Search", flags=V)
    box = Element(1, (100, 50, 880, 90), text="Search products", tag="input", flags=V + ("editable",))
    step = Step(0, PAGE, Action("click", point=(950, 70), element=go), elements=[go, box])
    ep = episode(step, ["Brass reading lamp", "Walnut desk lamp", "12 results"])
    return certify(ep, 0, {"reasoning": text, "function": {"name": "click",
                                                          "parameters": {"target_element": "“Search”按钮"}}},
                   cjk_threshold=0.0)


def test_a_later_screens_word_said_after_the_decision_is_unsure():
    c = lamp_search("Hit Search — the walnut one heads the list.")
    assert c.outcome == "unsure" and "later_screen_text" in {r.code for r in c.reasons}


def test_the_same_decision_without_it_is_certified():
    assert lamp_search("Hit Search to run the query.").outcome == "certified"


def tick(text: str) -> Certification:
    box = Element(0, (100, 300, 130, 330), text="我已阅读并同意服务条款", tag="input", flags=V)
    step = Step(0, PAGE, Action("click", point=(115, 315), element=box), elements=[box])
    return certify(episode(step, ["订单已提交"]), 0, {"reasoning": text, "function": {
        "name": "click", "parameters": {"target_element": "“我已阅读并同意服务条款”复选框"}}}, cjk_threshold=0.0)


def test_the_ticked_box_told_after_the_tick_is_unsure():
    c = tick("勾选同意服务条款的那个框，勾选完毕。")
    assert (c.outcome, c.first) == ("unsure", "acted_element_state")


def test_a_restated_tick_stays_certified():
    assert tick("下一步要勾选服务条款的复选框，所以勾选它。").outcome == "certified"


def fill(text: str) -> Certification:
    box = Element(0, (100, 50, 880, 90), text="City", tag="input", flags=V + ("editable",))
    step = Step(0, PAGE, Action("type", text="Reykjavik", point=(300, 70), element=box), elements=[box])
    return certify(episode(step, ["Reykjavik", "3 hotels"]), 0, {"reasoning": text, "function": {
        "name": "type", "parameters": {"text": "Reykjavik", "target_element": "“City”输入框"}}}, cjk_threshold=0.0)


def test_the_field_told_as_holding_the_value_is_unsure():
    c = fill("Type Reykjavik into City; the box holds Reykjavik.")
    assert c.outcome == "unsure" and "acted_element_state" in {r.code for r in c.reasons}


def test_the_value_after_a_colon_is_the_decision_not_a_state():
    assert fill("City is empty. Type the destination: Reykjavik").outcome == "certified"
